package shopping_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// flaky is a session store whose batch writes fail when fail says so, as
// an overloaded or failing database's do.
type flaky struct {
	shopping.SessionStore
	mu   sync.Mutex
	fail func(b shopping.Batch) bool
}

func (f *flaky) AddBatch(ctx context.Context, id string, b shopping.Batch) error {
	f.mu.Lock()
	fail := f.fail != nil && f.fail(b)
	f.mu.Unlock()
	if fail {
		return errors.New("flaky: the database did not answer in time")
	}
	return f.SessionStore.AddBatch(ctx, id, b)
}

// instance is another engine on the world's database, with its own
// session store: another server behind the load balancer.
func (w *world) instance(t *testing.T, sources map[string]shopping.Source, sessions shopping.SessionStore) *shopping.Engine {
	t.Helper()
	base, stop := context.WithCancel(context.Background())
	e := shopping.New(sources, shopping.Options{Sessions: sessions, Quotes: shopping.NewQuotes(w.db), Agencies: w.agencies,
		Looks: &noLooks{n: map[string]int{}}, Catalog: i18n.MustLoad(), Now: w.clock, Base: base,
		Rates: func(context.Context) (map[string]string, error) { return map[string]string{"CNY": "1"}, nil }})
	t.Cleanup(func() {
		stop()
		e.Wait()
	})
	return e
}

// pollOn polls a search on engine e until cond holds or ten seconds pass.
func pollOn(t *testing.T, w *world, e *shopping.Engine, id string, cond func(shopping.Page) bool) shopping.Page {
	t.Helper()
	return pollQuery(t, w, e, shopping.Query{SearchID: id}, cond)
}

// A batch of answers the store refuses is not silently gone: the search
// says which supplier lost answers, on the instance that ran it (which
// still shows them) and on any other (which cannot), and the record of the
// loss completes the search there without waiting for its deadline.
func TestEngineSaysWhichAnswersWereLost(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		gds := &fake{name: "gds", answer: direct("gds", 5000, "CA937")}
		ndc := &fake{name: "ndc", gate: make(chan struct{}), answer: direct("ndc", 4000, "BA38")}
		sources := map[string]shopping.Source{"gds": {Supplier: gds}, "ndc": {Supplier: ndc}}
		w := newWorld(t, db, func(c *agency.Config) { c.Flight.ShowSuppliers = true }, sources)
		// The first batch with offers (gds's: ndc waits) is refused; the
		// record of the loss, without offers, is written.
		failed := 0
		store := &flaky{SessionStore: shopping.NewSQLSessions(db), fail: func(b shopping.Batch) bool {
			if b.Offers > 0 && failed == 0 {
				failed++
				return true
			}
			return false
		}}
		runs := w.instance(t, sources, store)
		other := w.instance(t, sources, shopping.NewSQLSessions(db))
		st, err := runs.Start(context.Background(), w.who(), oneWay("PEK", "LHR"))
		if err != nil {
			t.Fatal(err)
		}
		pollOn(t, w, runs, st.SearchID, func(p shopping.Page) bool { return p.Partial })
		close(ndc.gate)

		p := pollOn(t, w, runs, st.SearchID, func(p shopping.Page) bool { return p.Complete })
		if !p.Partial || !slices.Equal(p.LostSuppliers, []string{"gds"}) {
			t.Fatalf("instance that ran it: partial=%v lost=%v, want partial with gds lost", p.Partial, p.LostSuppliers)
		}
		// It still has gds's answer and shows it.
		if p.Total != 2 || status(p, "gds") != "done" || status(p, "ndc") != "done" {
			t.Fatalf("instance that ran it: total=%d suppliers=%+v", p.Total, p.Suppliers)
		}

		// Another instance completes at once (the deadline is 20 s away)
		// and says gds's answers are lost; only ndc's flight is there.
		p = pollOn(t, w, other, st.SearchID, func(p shopping.Page) bool { return p.Complete })
		if !p.Partial || !slices.Equal(p.LostSuppliers, []string{"gds"}) || p.Total != 1 || status(p, "gds") != "lost" || status(p, "ndc") != "done" {
			t.Fatalf("other instance: partial=%v lost=%v total=%d suppliers=%+v, want gds lost and ndc's flight",
				p.Partial, p.LostSuppliers, p.Total, p.Suppliers)
		}
	})
}

// When not even the record of a loss could be stored, another instance
// finds the answers missing at the search's deadline: it says which
// suppliers they were from, and with nothing found it says answers were
// lost, not "no flight found".
func TestEngineMissingAnswersAtTheDeadline(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		lose  []string // suppliers whose every write fails
		total int      // flights the other instance finds
	}{
		{"one supplier", []string{"gds"}, 1},
		{"every supplier", []string{"gds", "ndc"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T, db *store.DB) {
				ndc, sources, w, start := gatedNDC(t, db)
				// A batch holding a part of a supplier in c.lose fails, and so
				// does the record of its loss.
				seen := map[string]bool{}
				store := &flaky{SessionStore: shopping.NewSQLSessions(db), fail: func(b shopping.Batch) bool {
					parts, err := shopping.BatchParts(b)
					if err != nil {
						t.Errorf("decode batch: %v", err)
					}
					fail := false
					for _, p := range parts {
						seen[p.Name] = true
						fail = fail || slices.Contains(c.lose, p.Supplier)
					}
					return fail
				}}
				runs := w.instance(t, sources, store)
				other := w.instance(t, sources, shopping.NewSQLSessions(db))
				// ndc answers once every gds answer went to the store, so no
				// batch mixes the two.
				var gdsParts []string
				for _, call := range runs.Plan(oneWay("PEK", "LHR"), "CNY") {
					if call.Source == "gds" {
						gdsParts = append(gdsParts, call.Part)
					}
				}
				st, err := runs.Start(context.Background(), w.who(), oneWay("PEK", "LHR"))
				if err != nil {
					t.Fatal(err)
				}
				// The answers reach the store on the engine's writer
				// goroutine: the test waits for that work, not for time.
				deadline := time.Now().Add(10 * time.Second)
				for {
					store.mu.Lock()
					all := true
					for _, name := range gdsParts {
						all = all && seen[name]
					}
					store.mu.Unlock()
					if all {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("gds's answers never reached the store")
					}
					time.Sleep(5 * time.Millisecond)
				}
				close(ndc.gate)
				p := pollOn(t, w, runs, st.SearchID, func(p shopping.Page) bool { return p.Complete })
				if !p.Partial || !slices.Equal(p.LostSuppliers, c.lose) {
					t.Fatalf("instance that ran it: partial=%v lost=%v, want %v lost", p.Partial, p.LostSuppliers, c.lose)
				}
				runs.Wait()

				// Before the deadline the other instance waits for the
				// missing answers.
				if p, err := other.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID}, "en"); err != nil || p.Complete {
					t.Fatalf("other instance before the deadline: complete=%v err=%v, want still waiting", p.Complete, err)
				}
				// Past the deadline and its grace: complete, with the losses.
				w.now.Store(start.Add(time.Minute).UnixNano())
				p, err = other.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID}, "en")
				if err != nil {
					t.Fatalf("other instance past the deadline: %v, want a partial page", err)
				}
				if !p.Complete || !p.Partial || !slices.Equal(p.LostSuppliers, c.lose) || p.Total != c.total || status(p, "gds") != "lost" {
					t.Fatalf("other instance past the deadline: complete=%v partial=%v lost=%v total=%d suppliers=%+v, want %v lost and %d flights",
						p.Complete, p.Partial, p.LostSuppliers, p.Total, p.Suppliers, c.lose, c.total)
				}
			})
		})
	}
}

// A complete search lets its builder go and keeps its solutions; an answer
// stored after all (here one that came after the deadline) is built with
// every answer before it.
func TestEngineBuildsAnAnswerStoredAfterCompleting(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ndc, sources, w, start := gatedNDC(t, db)
		runs := w.instance(t, sources, shopping.NewSQLSessions(db))
		other := w.instance(t, sources, shopping.NewSQLSessions(db))
		st, err := runs.Start(context.Background(), w.who(), oneWay("PEK", "LHR"))
		if err != nil {
			t.Fatal(err)
		}
		pollOn(t, w, other, st.SearchID, func(p shopping.Page) bool { return p.Total == 1 })
		w.now.Store(start.Add(time.Minute).UnixNano())
		p := pollOn(t, w, other, st.SearchID, func(p shopping.Page) bool { return p.Complete })
		if p.Total != 1 || p.Items[0].Segments[0].FlightNumber != "CA937" {
			t.Fatalf("complete without ndc: %d solutions %+v, want CA937 alone", p.Total, p.Items)
		}
		close(ndc.gate)
		runs.Wait()
		p = pollOn(t, w, other, st.SearchID, func(p shopping.Page) bool { return p.Total == 2 })
		var flights []string
		for _, s := range p.Items {
			flights = append(flights, s.Segments[0].FlightNumber)
		}
		if !slices.Equal(flights, []string{"BA38", "CA937"}) {
			t.Fatalf("after the late answer: %v, want BA38 then CA937", flights)
		}
	})
}

// gatedNDC is a world whose gds answers CA937 at once and whose ndc answers
// BA38 once its gate closes, its clock stopped at start.
func gatedNDC(t *testing.T, db *store.DB) (ndc *fake, sources map[string]shopping.Source, w *world, start time.Time) {
	t.Helper()
	gds := &fake{name: "gds", answer: direct("gds", 5000, "CA937")}
	ndc = &fake{name: "ndc", gate: make(chan struct{}), answer: direct("ndc", 4000, "BA38")}
	sources = map[string]shopping.Source{"gds": {Supplier: gds}, "ndc": {Supplier: ndc}}
	w = newWorld(t, db, nil, sources)
	start = time.Now()
	w.now.Store(start.UnixNano())
	return ndc, sources, w, start
}
