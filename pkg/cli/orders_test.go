package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/flight"
)

// refundRequest puts a refund request of Demo Travel in the review queue of
// the database at dsn and answers its id.
func refundRequest(t *testing.T, dsn string) int64 {
	t.Helper()
	return apptest.RefundRequest(t, apptest.Open(t, dsn))
}

func TestOrderCommands(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		{
			id := refundRequest(t, dsn)
			v := inMode(reach)

			// The demo's living agency has orders of its own, a refund under
			// review among them: the lists are read for this order's agency.
			agency := fmt.Sprint(decode[flight.View](t, v(t, 0, "orders", "show", fmt.Sprint(id), "-o", "json")).AgencyID)
			queue := decode[flight.Page](t, v(t, 0, "orders", "list", "--agency", agency, "--group", "reviewing", "-o", "json"))
			if queue.Total != 1 || queue.Items[0].ID != id || queue.Items[0].Status != flight.RfdReviewing {
				t.Fatalf("review queue = %+v", queue)
			}
			all := decode[flight.Page](t, v(t, 0, "orders", "list", "--agency", agency, "--type", "origin", "-o", "json"))
			if all.Total != 1 || all.Items[0].Status != flight.Issued {
				t.Fatalf("origin orders = %+v", all)
			}
			// The route is the airports flown: Shanghai is SHA or PVG, as the
			// simulator flies that day.
			route := all.Items[0].Origin + "-" + all.Items[0].Destination
			if route != "PEK-SHA" && route != "PEK-PVG" {
				t.Fatalf("booked route %s, want PEK to a Shanghai airport", route)
			}
			if table := v(t, 0, "orders", "list", "--agency", agency).out; !strings.Contains(table, "rfd_reviewing") || !strings.Contains(table, route) {
				t.Fatalf("table (route %s):\n%s", route, table)
			}
			shown := decode[flight.View](t, v(t, 0, "orders", "show", fmt.Sprint(id), "-o", "json"))
			if shown.Type != flight.TypeRefund || len(shown.Actions) != 3 {
				t.Fatalf("show = %+v", shown)
			}
			v(t, 2, "orders", "review", fmt.Sprint(id), "--action", "explode")
			v(t, 3, "orders", "show", "999999")

			dry := v(t, 0, "orders", "review", fmt.Sprint(id), "--action", "approve", "--dry-run", "-o", "json")
			if !strings.Contains(dry.err, "dry run") || decode[flight.View](t, dry).Status != flight.RfdReviewing {
				t.Fatalf("dry run: %+v", dry)
			}
			done := decode[flight.View](t, v(t, 0, "orders", "review", fmt.Sprint(id), "--action", "approve", "--remark", "ok",
				"--refund-amount", "100.00", "--fee", "20.00", "--yes", "-o", "json"))
			// The sim supplier keeps its bookings in the server's memory, so a
			// command in another process sets the figures itself.
			if done.Status != flight.RfdToBeConfirm || done.ReviewRemark != "ok" || done.ConfirmBy == nil || done.PriceBreakdown.RefundAmount.Amount != "100.00" {
				t.Fatalf("approved = %+v", done)
			}
			// Approving twice is a state conflict.
			v(t, 4, "orders", "review", fmt.Sprint(id), "--action", "approve", "--yes")
		}
	})
}
