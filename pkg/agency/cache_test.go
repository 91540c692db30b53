package agency_test

import (
	"context"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/store"
)

// TestCachedRows: a hot read is answered from memory within the TTL, a
// change made through this process is seen at once, another writer's change
// after the TTL.
func TestCachedRows(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		st := agency.NewStore(db)
		svc := agency.NewService(db, st, w.ledger)
		st.CacheFor(time.Hour)
		id := w.bluesky.AgencyID
		status := func() string {
			t.Helper()
			a, err := st.Cached(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return a.Status
		}
		if got := status(); got != agency.StatusActive {
			t.Fatalf("status %s", got)
		}
		// Another writer (another instance): this process keeps its row.
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE agencies SET status = ? WHERE id = ?`), agency.StatusBlocked, id); err != nil {
			t.Fatal(err)
		}
		if got := status(); got != agency.StatusActive {
			t.Errorf("cached status %s, want the kept row", got)
		}
		if a, _ := st.Get(ctx, id); a.Status != agency.StatusBlocked {
			t.Errorf("Get bypasses the cache: %s", a.Status)
		}
		// A change through the service is seen at once.
		if _, err := svc.SetStatus(ctx, w.provider, id, agency.StatusActive); err != nil {
			t.Fatal(err)
		}
		if got := status(); got != agency.StatusActive {
			t.Errorf("after SetStatus: %s", got)
		}
		if _, err := svc.SetStatus(ctx, w.provider, id, agency.StatusBlocked); err != nil {
			t.Fatal(err)
		}
		if got := status(); got != agency.StatusBlocked {
			t.Errorf("after a second SetStatus: %s", got)
		}
		// Another writer's change shows once the TTL has passed: the test
		// moves the store's clock rather than waiting.
		clock := time.Now()
		st.SetClock(func() time.Time { return clock })
		st.CacheFor(time.Minute)
		status()
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE agencies SET status = ? WHERE id = ?`), agency.StatusActive, id); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Minute - time.Nanosecond)
		if got := status(); got != agency.StatusBlocked {
			t.Errorf("just within the TTL: %s, want the kept row", got)
		}
		clock = clock.Add(time.Nanosecond)
		if got := status(); got != agency.StatusActive {
			t.Errorf("after the TTL: %s", got)
		}
		// Off: every read goes to the database.
		st.CacheFor(0)
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE agencies SET status = ? WHERE id = ?`), agency.StatusBlocked, id); err != nil {
			t.Fatal(err)
		}
		if got := status(); got != agency.StatusBlocked {
			t.Errorf("cache off: %s", got)
		}
	})
}
