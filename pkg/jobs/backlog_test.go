package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestBacklog: the jobs waiting are counted by kind and state, and the
// oldest due one's wait is read from River's table on both engines
// (SQLite keeps its times as text). A job inserted with a time is
// scheduled until River's leader makes it available: past its time it is
// due all the same.
func TestBacklog(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// Not started: nothing works the jobs inserted here.
		q, err := jobs.New(db, jobs.Config{Workers: 1, CleanupInterval: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(q.Close)
		now := time.Now().UTC().Truncate(time.Millisecond)
		if _, waited, err := q.Backlog(ctx, now); err != nil || waited != 0 {
			t.Fatalf("empty queue: waited %s, %v", waited, err)
		}
		for _, at := range []time.Time{now.Add(-10 * time.Minute), now.Add(-time.Minute), now.Add(time.Hour)} {
			if _, err := q.Client.Insert(ctx, jobs.CleanupArgs{}, &river.InsertOpts{ScheduledAt: at}); err != nil {
				t.Fatal(err)
			}
		}
		counts, waited, err := q.Backlog(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		if waited != 10*time.Minute {
			t.Errorf("oldest due waited %s, want 10m", waited)
		}
		got := map[string]int64{}
		for _, c := range counts {
			if c.Kind == "cleanup_expired" {
				got[c.State] += c.Count
			}
		}
		if got["scheduled"] != 3 {
			t.Errorf("cleanup jobs by state = %v, want 3 scheduled", got)
		}
	})
}
