package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/money"
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

// TestRefundJobRunAgainAfterACrash: the post-sale job of a confirmed refund
// died after the supplier refunded the booking and before the order
// recorded it. Run again, it finds the refund made (not refused), closes the
// order as refunded and pays the agency back once; a third run changes
// nothing.
func TestRefundJobRunAgainAfterACrash(t *testing.T) {
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			a, srv := newApp(t, d)
			if err := demo.Seed(ctx, a.DB, a.Site); err != nil {
				t.Fatal(err)
			}
			rfID := apptest.RefundRequest(t, a)
			provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
			op := loginAs(t, srv, "demo-operator", "demo-pass-1")
			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/review", rfID), "en", `{"action":"approve"}`, bearer(provider.Token)...)
			if resp.StatusCode != 200 || env.Code != 0 {
				t.Fatalf("approve: %d %+v", resp.StatusCode, env)
			}
			resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/confirmation", rfID), "en", "", bearer(op.Token)...)
			if resp.StatusCode != 200 {
				t.Fatalf("confirm: %d %+v", resp.StatusCode, env)
			}
			rf := getOrder(t, srv, op.Token, rfID)
			if rf.Status != order.RfdProceeding {
				t.Fatalf("refund request %s, want %s", rf.Status, order.RfdProceeding)
			}
			// The dead run confirmed the accepted quote with the supplier.
			var request string
			if err := a.DB.GetContext(ctx, &request, a.DB.Rebind(`SELECT request FROM flight_orders WHERE id = ?`), rfID); err != nil {
				t.Fatal(err)
			}
			var ps order.PostSale
			if err := json.Unmarshal([]byte(request), &ps); err != nil || len(ps.Quotes) != 1 {
				t.Fatalf("request %s: %v", request, err)
			}
			b := simBookingOf(t, a, rf.PNR)
			sup, _ := a.Shopping.Supplier(b.Supplier)
			if err := sup.Refund(ctx, b.Ref, ps.Quotes[0].Ref); err != nil {
				t.Fatal(err)
			}
			wallet := walletMinor(t, a, op.Company.ID)
			refund, _ := money.Parse(rf.PriceBreakdown.RefundAmount.Amount, "CNY")

			for run := 1; run <= 2; run++ {
				if err := a.Orders.CarryOut(ctx, rfID, false); err != nil {
					t.Fatalf("run %d: %v", run, err)
				}
				if got := getOrder(t, srv, op.Token, rfID); got.Status != order.RefundedReimbursed {
					t.Fatalf("run %d: refund request %s, want %s", run, got.Status, order.RefundedReimbursed)
				}
				if got := walletMinor(t, a, op.Company.ID); got != wallet+refund.Minor {
					t.Fatalf("run %d: wallet %d, want %d + the refund %d once", run, got, wallet, refund.Minor)
				}
			}
			ledgerBalanced(t, a)
		})
	}
}

// TestTicketJobRunTwiceAtOnce: a rescued ticketing job whose first run
// was alive after all runs beside it. Both runs end without error, the
// order is issued once, with one set of tickets, and paid once.
func TestTicketJobRunTwiceAtOnce(t *testing.T) {
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		fund(t, a, op.Company.ID, "50000")
		quoteID, _ := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "twice")
		if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 200 {
			t.Fatalf("pay: %d %+v", code, env)
		}
		wallet := walletMinor(t, a, op.Company.ID)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Go(func() { errs[i] = a.Orders.Ticket(ctx, o.ID, false) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("ticketing twice at once: %v", err)
		}
		got := getOrder(t, srv, op.Token, o.ID)
		if got.Status != order.Issued || len(got.TicketNumbers) != 1 {
			t.Fatalf("after two runs: %s with tickets %v", got.Status, got.TicketNumbers)
		}
		var ticketed int
		if err := a.DB.GetContext(ctx, &ticketed, a.DB.Rebind(`SELECT COUNT(*) FROM flight_order_events WHERE order_id = ? AND to_status = ?`),
			o.ID, string(order.Issued)); err != nil {
			t.Fatal(err)
		}
		if ticketed != 1 {
			t.Errorf("%d moves to issued, want 1", ticketed)
		}
		if data := simBookingOf(t, a, got.PNR).Data; !strings.Contains(data, `"reissues":0`) {
			t.Errorf("the supplier issued the booking again: %s", data)
		}
		if after := walletMinor(t, a, op.Company.ID); after != wallet {
			t.Errorf("wallet moved from %d to %d while ticketing", wallet, after)
		}
		ledgerBalanced(t, a)
	})
}
