package idempotency_test

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func TestLocks(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()

		t.Run("a replay waits for the first, on another instance too", func(t *testing.T) {
			first, other := idempotency.New(db), idempotency.New(db) // two instances
			release, err := first.Acquire(ctx, "agency:1", "k")
			if err != nil {
				t.Fatal(err)
			}
			var firstDone atomic.Bool
			got := make(chan bool)
			go func() {
				r, err := other.Acquire(ctx, "agency:1", "k")
				if err != nil {
					t.Error(err)
					got <- false
					return
				}
				// Released before answering, so the next subtest starts
				// with no lock of this one's left.
				done := firstDone.Load()
				r()
				got <- done
			}()
			// Another agency's same key is not the same request.
			r2, err := other.Acquire(ctx, "agency:2", "k")
			if err != nil {
				t.Fatal(err)
			}
			r2()
			firstDone.Store(true)
			release()
			if !<-got {
				t.Fatal("the replay ran while the first request held the key")
			}
		})

		t.Run("a killed holder's lock lapses", func(t *testing.T) {
			// What a SIGKILL leaves: a row nobody renews, its lease over.
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO idempotency_locks (scope, idem_key, token, expires_at) VALUES (?, ?, ?, ?)`),
				"agency:1", "crashed", "dead-token", time.Now().Add(-time.Second).UnixMilli()); err != nil {
				t.Fatal(err)
			}
			l := idempotency.New(db)
			l.SetTimes(time.Second, 2*time.Second)
			release, err := l.Acquire(ctx, "agency:1", "crashed")
			if err != nil {
				t.Fatalf("a lapsed lock was not taken over: %v", err)
			}
			release()
			var left int
			if err := db.GetContext(ctx, &left, db.Rebind(`SELECT COUNT(*) FROM idempotency_locks WHERE scope = ? AND idem_key = ?`), "agency:1", "crashed"); err != nil {
				t.Fatal(err)
			}
			if left != 0 {
				t.Errorf("%d locks left after release", left)
			}
		})

		t.Run("a holder that outlives the wait: 409 in progress", func(t *testing.T) {
			holder, waiter := idempotency.New(db), idempotency.New(db)
			holder.SetTimes(time.Minute, time.Second)
			waiter.SetTimes(time.Minute, 300*time.Millisecond)
			release, err := holder.Acquire(ctx, "agency:1", "slow")
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			_, err = waiter.Acquire(ctx, "agency:1", "slow")
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Status != 409 || fe.Key != "idempotency.error.inProgress" {
				t.Fatalf("err = %v, want 409 in progress", err)
			}
		})

		t.Run("a live holder renews its lease", func(t *testing.T) {
			l := idempotency.New(db)
			l.SetTimes(600*time.Millisecond, time.Second)
			// The test moves the clock and sends the renewal's tick; it
			// writes clock before each send, which the renewal reads after.
			clock := time.Now()
			ticks := make(chan time.Time)
			l.SetClock(func() time.Time { return clock }, ticks)
			release, err := l.Acquire(ctx, "agency:1", "long")
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			expiry := func() int64 {
				var at int64
				if err := db.GetContext(ctx, &at, db.Rebind(`SELECT expires_at FROM idempotency_locks WHERE scope = ? AND idem_key = ?`), "agency:1", "long"); err != nil {
					t.Fatal(err)
				}
				return at
			}
			if got, want := expiry(), clock.Add(600*time.Millisecond).UnixMilli(); got != want {
				t.Fatalf("lease taken until %d, want %d", got, want)
			}
			clock = clock.Add(time.Second) // past the first lease
			ticks <- clock
			// The holder takes the next tick only once it has written the
			// renewal the first one asked for.
			ticks <- clock
			if got, want := expiry(), clock.Add(600*time.Millisecond).UnixMilli(); got != want {
				t.Fatalf("lease renewed until %d, want %d", got, want)
			}
		})
	})
}

// TestLocksTableUnlogged: on PostgreSQL the locks' table is unlogged, so
// taking and releasing a lock waits for no WAL flush (migration 00025), and
// the locks still work as TestLocks shows.
func TestLocksTableUnlogged(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres)
	var persistence string
	if err := db.GetContext(context.Background(), &persistence,
		`SELECT relpersistence FROM pg_class WHERE oid = to_regclass('idempotency_locks')`); err != nil {
		t.Fatal(err)
	}
	if persistence != "u" {
		t.Errorf("idempotency_locks relpersistence = %q, want u (unlogged)", persistence)
	}
}

// TestReleasedWithTheLastWrite: on PostgreSQL a request lets its key go in
// its last statement (ReleaseItem): from that commit a replay on another
// instance goes ahead, before the first request's release runs, and that
// release leaves the replay's lock alone. Rolled back, the item releases
// nothing and the key stays held until the release.
func TestReleasedWithTheLastWrite(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	first, other := idempotency.New(db), idempotency.New(db)
	other.SetTimes(idempotency.DefaultLease, 300*time.Millisecond)
	if _, _, ok := idempotency.ReleaseItem(ctx); ok {
		t.Fatal("a context holding no lock has a release item")
	}
	write := func(tx interface {
		ExecContext(context.Context, string, ...any) (sql.Result, error)
	}, held context.Context) {
		t.Helper()
		item, args, ok := idempotency.ReleaseItem(held)
		if !ok {
			t.Fatal("no release item for a held lock")
		}
		if _, err := tx.ExecContext(ctx, db.Rebind(`WITH `+item+` SELECT 1`), args...); err != nil {
			t.Fatal(err)
		}
	}

	held, release, err := first.Hold(ctx, "agency:1", "rolled-back")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(tx, held)
	_ = tx.Rollback()
	if _, err := other.Acquire(ctx, "agency:1", "rolled-back"); !isInProgress(err) {
		t.Fatalf("a key released by a rolled-back write was taken: %v", err)
	}
	release()
	if r, err := other.Acquire(ctx, "agency:1", "rolled-back"); err != nil {
		t.Fatalf("the key after its release: %v", err)
	} else {
		r()
	}

	held, release, err = first.Hold(ctx, "agency:1", "committed")
	if err != nil {
		t.Fatal(err)
	}
	write(db, held)
	idempotency.Released(held)
	replay, err := other.Acquire(ctx, "agency:1", "committed")
	if err != nil {
		t.Fatalf("a replay after the releasing write: %v", err)
	}
	release()
	third := idempotency.New(db)
	third.SetTimes(idempotency.DefaultLease, 300*time.Millisecond)
	if _, err := third.Acquire(ctx, "agency:1", "committed"); !isInProgress(err) {
		t.Fatalf("the first request's release let the replay's lock go: %v", err)
	}
	replay()
}

func isInProgress(err error) bool {
	var f *fault.Error
	return errors.As(err, &f) && f.Key == "idempotency.error.inProgress"
}
