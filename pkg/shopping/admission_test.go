package shopping_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// At capacity a new search is refused before anything is stored for it,
// with a 503 saying when to try again; once a running search has ended and
// stored its answers, a search is admitted again.
func TestEngineRefusesSearchesPastCapacity(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		slow := &fake{name: "gds", gate: make(chan struct{}), answer: direct("gds", 3000, "CA937")}
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: slow}})
		w.eng.SetCapacity(2)
		var ids []string
		for range 2 {
			st, err := w.eng.Start(context.Background(), w.who(), oneWay("PEK", "LHR"))
			if err != nil {
				t.Fatalf("search within capacity: %v", err)
			}
			ids = append(ids, st.SearchID)
		}
		_, err := w.eng.Start(context.Background(), w.who(), oneWay("PEK", "LHR"))
		var busy *shopping.BusyError
		if !errors.As(err, &busy) {
			t.Fatalf("third search at capacity 2: %v, want a BusyError", err)
		}
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.CodeSearchBusy || fe.Status != http.StatusServiceUnavailable || fe.Key != "shopping.error.busy" {
			t.Fatalf("refusal = %+v, want 400004 / 503 / shopping.error.busy", fe)
		}
		// The first place frees at the latest when a running search reaches
		// the agency's maximum response time (20 s here).
		if s := busy.RetryAfterSeconds(); s < 1 || s > 20 {
			t.Fatalf("Retry-After %d s, want 1..20", s)
		}
		var n int
		if err := db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM search_sessions`); err != nil || n != 2 {
			t.Fatalf("%d sessions stored (%v), want only the 2 admitted", n, err)
		}
		// A refused search does not take a place: still refused.
		if _, err := w.eng.Start(context.Background(), w.who(), oneWay("PEK", "LHR")); !errors.As(err, &busy) {
			t.Fatalf("fourth search: %v, want refused", err)
		}
		close(slow.gate)
		for _, id := range ids {
			poll(t, w, id, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
		}
		// The places free once the answers are stored, just after the poller
		// sees the search complete: when the searches' goroutines end.
		w.eng.Wait()
		if _, err := w.eng.Start(context.Background(), w.who(), oneWay("PEK", "LHR")); err != nil {
			t.Fatalf("after the searches ended: %v", err)
		}
	})
}

// A refusal asks to wait until the first running search's deadline, not
// longer: with a search started 15 s ago under a 20 s maximum response
// time, about 5 s.
func TestEngineRetryAfterIsTheFirstDeadline(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		slow := &fake{name: "gds", hang: true}
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: slow}})
		w.eng.SetCapacity(1)
		start := time.Now()
		w.now.Store(start.UnixNano())
		if _, err := w.eng.Start(context.Background(), w.who(), oneWay("PEK", "LHR")); err != nil {
			t.Fatal(err)
		}
		w.now.Store(start.Add(15 * time.Second).UnixNano())
		_, err := w.eng.Start(context.Background(), w.who(), oneWay("PEK", "LHR"))
		var busy *shopping.BusyError
		if !errors.As(err, &busy) || busy.RetryAfterSeconds() != 5 {
			t.Fatalf("refusal %v, want Retry-After 5 s", err)
		}
	})
}
