package app_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/order"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// simBooking is the simulated supplier's record of an order's booking.
type simBooking struct {
	Supplier string `db:"supplier"`
	Ref      string `db:"ref"`
	Data     string `db:"data"`
}

func simBookingOf(t *testing.T, a *app.App, pnr string) simBooking {
	t.Helper()
	var b simBooking
	if err := a.DB.GetContext(context.Background(), &b, a.DB.Rebind(`SELECT supplier, ref, data FROM sim_bookings WHERE pnr = ?`), pnr); err != nil {
		t.Fatalf("sim booking %s: %v", pnr, err)
	}
	return b
}

// killWorkers leaves every queued job of kind as a process killed while
// working it leaves it: running, first attempt, started ago.
func killWorkers(t *testing.T, a *app.App, kind string, ago time.Duration) int64 {
	t.Helper()
	started := fmt.Sprintf("now() - interval '%d seconds'", int(ago.Seconds()))
	if a.DB.Dialect == store.SQLite {
		started = fmt.Sprintf("datetime('now', 'subsec', '-%d seconds')", int(ago.Seconds()))
	}
	res, err := a.DB.ExecContext(context.Background(), a.DB.Rebind(`UPDATE river_job SET state = 'running', attempt = 1, attempted_at = `+started+`
		WHERE kind = ? AND state = 'available'`), kind)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := res.RowsAffected()
	return n
}

// TestTicketingRescuedAfterACrash: two paid orders whose ticketing jobs
// were running when their process died (kill -9) are issued once the queue
// runs again, within the rescue time rather than River's default hour. One
// of the dead runs had already ticketed with the supplier before it died:
// the rerun issues the same tickets, not new ones.
func TestTicketingRescuedAfterACrash(t *testing.T) {
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			a, srv := newApp(t, d)
			if err := demo.Seed(context.Background(), a.DB, a.Site); err != nil {
				t.Fatal(err)
			}
			op := loginAs(t, srv, "demo-operator", "demo-pass-1")
			fund(t, a, op.Company.ID, "50000")
			quoteID, _ := quoteFor(t, srv, op.Token)
			var orders []order.View
			for i := range 2 {
				o := createOrder(t, srv, op.Token, quoteID, fmt.Sprintf("crash-%d", i))
				if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 200 {
					t.Fatalf("pay: %d %+v", code, env)
				}
				orders = append(orders, getOrder(t, srv, op.Token, o.ID))
			}
			// The second order's dead run got as far as the supplier.
			b := simBookingOf(t, a, orders[1].PNR)
			sup, ok := a.Shopping.Supplier(b.Supplier)
			if !ok {
				t.Fatalf("no supplier %s", b.Supplier)
			}
			issuedBefore, err := sup.Ticket(context.Background(), b.Ref)
			if err != nil {
				t.Fatal(err)
			}
			// Started two minutes ago: past the rescue time, well within
			// River's default hour.
			if n := killWorkers(t, a, order.TicketArgs{}.Kind(), 2*time.Minute); n != 2 {
				t.Fatalf("%d ticketing jobs queued, want 2", n)
			}

			runJobs(t, a)
			for _, o := range orders {
				waitStatus(t, srv, op.Token, o.ID, order.Issued)
			}
			got := getOrder(t, srv, op.Token, orders[1].ID)
			var want []string
			for _, tk := range issuedBefore {
				want = append(want, tk.Number)
			}
			if !slices.Equal(got.TicketNumbers, want) {
				t.Errorf("tickets after the rerun %v, want those the dead run issued %v", got.TicketNumbers, want)
			}
			if data := simBookingOf(t, a, orders[1].PNR).Data; !strings.Contains(data, `"reissues":0`) {
				t.Errorf("the supplier issued the booking again: %s", data)
			}
			ledgerBalanced(t, a)
		})
	}
}
