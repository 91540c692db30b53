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

func TestCleanupRunsOnStart(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		old := now.Add(-30 * 24 * time.Hour)
		addSession := func(hash string, idleExp, exp time.Time, revoked any) {
			t.Helper()
			_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, idle_expires_at, expires_at, revoked_at) VALUES (?, 1, ?, ?, ?, ?, ?)`),
				hash, old, old, idleExp, exp, revoked)
			if err != nil {
				t.Fatal(err)
			}
		}
		addSession("expired-long-ago", old, old, nil)
		addSession("idle-long-ago", old, now.Add(time.Hour), nil)
		addSession("revoked-long-ago", now.Add(time.Hour), now.Add(time.Hour), old)
		addSession("live", now.Add(time.Hour), now.Add(24*time.Hour), nil)
		addSession("expired-recently", now.Add(-time.Minute), now.Add(-time.Minute), nil)
		addSearch := func(id string, exp time.Time) {
			t.Helper()
			_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO search_sessions (id, agency_id, request, status, created_at, expires_at) VALUES (?, 1, '{}', 'complete', ?, ?)`), id, old, exp)
			if err != nil {
				t.Fatal(err)
			}
		}
		addSearch("stale", now.Add(-2*time.Hour))
		addSearch("fresh", now.Add(5*time.Minute))
		for i, at := range []time.Time{old, now} {
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO auth_throttle (scope, subject, failures, last_at, blocked_until) VALUES ('account', ?, 3, ?, ?)`),
				i, at, at); err != nil {
				t.Fatal(err)
			}
		}
		for i, at := range []time.Time{now.Add(-31 * 24 * time.Hour), now} {
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO auth_login_addresses (username, ip, last_login_at) VALUES ('someone', ?, ?)`), i, at); err != nil {
				t.Fatal(err)
			}
		}

		q, err := jobs.New(db, jobs.Config{Workers: 2, CleanupInterval: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		// The cleanup runs on River's workers: the test waits for its job
		// to end, then looks at what it left.
		ended, unsubscribe := q.Client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		defer unsubscribe()
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := q.Stop(stopCtx); err != nil {
				t.Errorf("stop: %v", err)
			}
		})

		timeout := time.After(20 * time.Second)
		for cleaned := false; !cleaned; {
			select {
			case ev := <-ended:
				if ev.Job.Kind != (jobs.CleanupArgs{}).Kind() {
					continue
				}
				if ev.Kind != river.EventKindJobCompleted {
					t.Fatalf("cleanup job %s: %v", ev.Kind, ev.Job.Errors)
				}
				cleaned = true
			case <-timeout:
				t.Fatal("cleanup job did not run in time")
			}
		}
		var sessions, searches []string
		if err := db.SelectContext(ctx, &sessions, `SELECT token_hash FROM sessions ORDER BY token_hash`); err != nil {
			t.Fatal(err)
		}
		if err := db.SelectContext(ctx, &searches, `SELECT id FROM search_sessions ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		var failures, addresses int
		if err := db.GetContext(ctx, &failures, `SELECT COUNT(*) FROM auth_throttle`); err != nil {
			t.Fatal(err)
		}
		if err := db.GetContext(ctx, &addresses, `SELECT COUNT(*) FROM auth_login_addresses`); err != nil {
			t.Fatal(err)
		}
		if len(sessions) != 2 || len(searches) != 1 || sessions[0] != "expired-recently" || sessions[1] != "live" || searches[0] != "fresh" {
			t.Fatalf("cleanup kept sessions %v and searches %v; want [expired-recently live] and [fresh]", sessions, searches)
		}
		if failures != 1 || addresses != 1 {
			t.Fatalf("cleanup kept %d throttle rows and %d login addresses, want 1 and 1", failures, addresses)
		}
	})
}

// TestLoopsRunWithTheQueue: a registered loop starts with the queue, once
// however often Start is called, and Stop ends it and waits for it; the
// queue started again starts it again.
func TestLoopsRunWithTheQueue(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.SQLite)
	ctx := context.Background()
	started, ended := make(chan struct{}, 4), make(chan struct{}, 4)
	loop := func(ctx context.Context) {
		started <- struct{}{}
		<-ctx.Done()
		// Stop must wait for what a loop finishes after its end. The sleep
		// stands for that work: Stop has to overlap it, which no clock the
		// test moves would make happen.
		time.Sleep(50 * time.Millisecond)
		ended <- struct{}{}
	}
	q, err := jobs.New(db, jobs.Config{Workers: 2, Register: []func(*jobs.Workers) []*river.PeriodicJob{
		func(w *jobs.Workers) []*river.PeriodicJob { w.Loop(loop); return nil }}})
	if err != nil {
		t.Fatal(err)
	}
	stop := func() {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := q.Stop(sctx); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 2 {
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			if err := q.Start(ctx); err != nil {
				t.Fatal(err)
			}
		}
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: the loop did not start", round)
		}
		stop()
		select {
		case <-ended:
		default:
			t.Fatalf("round %d: Stop returned before the loop ended", round)
		}
		if len(started) != 0 {
			t.Fatalf("round %d: the loop was started %d more times", round, len(started))
		}
	}
}
