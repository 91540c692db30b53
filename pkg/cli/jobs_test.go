package cli

import (
	"context"
	"fmt"
	"testing"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/store"
)

// TestJobsCommands: `jobs list` shows a ticketing job whose process died
// (running long past its timeout) and one given up on, not one waiting to
// run; `jobs retry` makes the first available again and refuses the one
// that is not stuck; `--all-stuck` takes the rest; in both modes, on both
// engines.
func TestJobsCommands(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		ctx := context.Background()
		a := apptest.Open(t, dsn)
		insert := func(orderID int64) int64 {
			t.Helper()
			res, err := a.Queue.Client.Insert(ctx, flight.TicketArgs{OrderID: orderID}, &river.InsertOpts{MaxAttempts: 6})
			if err != nil {
				t.Fatal(err)
			}
			return res.Job.ID
		}
		dead, discarded, waiting := insert(901), insert(902), insert(903)
		ago := "now() - interval '10 minutes'"
		if a.DB.Dialect == store.SQLite {
			ago = "datetime('now', 'subsec', '-10 minutes')"
		}
		if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE river_job SET state = 'running', attempt = 1, attempted_at = `+ago+` WHERE id = ?`), dead); err != nil {
			t.Fatal(err)
		}
		if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE river_job SET state = 'discarded', attempt = 6, attempted_at = `+ago+`,
			finalized_at = `+ago+` WHERE id = ?`), discarded); err != nil {
			t.Fatal(err)
		}

		run := func(code int, args ...string) result {
			t.Helper()
			res := execute(t, nil, append(append(args, reach...), "-o", "json")...)
			if res.code != code {
				t.Fatalf("%v: exit %d, want %d\n%s%s", args, res.code, code, res.out, res.err)
			}
			return res
		}
		list := decode[[]jobs.Job](t, run(0, "jobs", "list"))
		if len(list) != 2 || list[0].ID != dead || list[0].State != jobs.StateRunning || list[0].Overdue == "" ||
			list[1].ID != discarded || list[1].State != jobs.StateDiscarded || list[0].Kind != "order_ticket" || list[0].Args != `{"orderId":901}` {
			t.Fatalf("stuck jobs %+v, want the dead run %d and the discarded %d", list, dead, discarded)
		}

		retried := decode[[]jobs.Job](t, run(0, "jobs", "retry", fmt.Sprint(dead)))
		if len(retried) != 1 || retried[0].State != "available" {
			t.Fatalf("retry of the dead run: %+v", retried)
		}
		run(ExitConflict, "jobs", "retry", fmt.Sprint(waiting))
		run(ExitNotFound, "jobs", "retry", "999999")
		run(ExitUsage, "jobs", "retry")

		all := decode[[]jobs.Job](t, run(0, "jobs", "retry", "--all-stuck"))
		if len(all) != 1 || all[0].ID != discarded || all[0].State != "available" || all[0].MaxAttempts != 7 {
			t.Fatalf("--all-stuck retried %+v, want the discarded job with one more attempt", all)
		}
		if left := decode[[]jobs.Job](t, run(0, "jobs", "list")); len(left) != 0 {
			t.Fatalf("still stuck after retrying: %+v", left)
		}
	})
}
