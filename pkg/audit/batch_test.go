package audit_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestGroupInsert: entries recorded together are all written, each caller
// learns its own outcome (a bad entry fails alone), and every entry is
// readable once Record returns.
func TestGroupInsert(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		l := audit.NewLog(db)
		stop := l.Batch(16)
		defer stop()
		const n = 60
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				action := fmt.Sprintf("test.%d", i)
				if i == 7 && db.Dialect == store.Postgres {
					action = "bad\x00" // PostgreSQL refuses NUL in text
				}
				errs[i] = l.Record(ctx, audit.Entry{AgencyID: 42, Username: "batch", Action: action})
				if errs[i] == nil {
					var found int
					if err := db.GetContext(ctx, &found, db.Rebind(`SELECT COUNT(*) FROM user_logs WHERE action = ?`), action); err != nil || found != 1 {
						errs[i] = fmt.Errorf("entry %d not readable after Record: %d %v", i, found, err)
					}
				}
			}()
		}
		wg.Wait()
		failed := 0
		for i, err := range errs {
			if err != nil {
				failed++
				if i != 7 || db.Dialect != store.Postgres {
					t.Errorf("entry %d: %v", i, err)
				}
			}
		}
		want := n
		if db.Dialect == store.Postgres {
			want = n - 1
			if failed != 1 {
				t.Errorf("%d failures, want the bad entry's only", failed)
			}
		}
		var rows int
		if err := db.GetContext(ctx, &rows, `SELECT COUNT(*) FROM user_logs WHERE agency_id = 42`); err != nil || rows != want {
			t.Errorf("%d rows, want %d (%v)", rows, want, err)
		}
		stop()
		// After the stop, entries are still written, one at a time.
		if err := l.Record(ctx, audit.Entry{AgencyID: 42, Action: "after.stop"}); err != nil {
			t.Fatal(err)
		}
	})
}
