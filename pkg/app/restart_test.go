package app_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo/demotest"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// onSeededDatabase runs fn on each engine in turn on a database (dsn) that
// holds the demo data, for tests that open more than one instance on it.
func onSeededDatabase(t *testing.T, fn func(t *testing.T, dsn string)) {
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) { fn(t, demotest.DSN(t, d)) })
	}
}

// TestRestartKeepsSupplierBookings: an order booked and ticketed before the
// server restarts is refunded after it, with the simulated supplier's own
// quote: the simulator's bookings live in the database, not in the process
// that made them.
func TestRestartKeepsSupplierBookings(t *testing.T) {
	t.Parallel()
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		before, srv := newAppOn(t, dsn)
		runJobs(t, before)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		fund(t, before, op.Company.ID, "50000")
		quoteID, _ := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "restart-1")
		if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 200 {
			t.Fatalf("pay: %d %+v", code, env)
		}
		issued := waitStatus(t, srv, op.Token, o.ID, flight.Issued)
		paid, _ := money.Parse(issued.Total.Amount, "CNY")
		srv.Close()
		if err := before.Close(); err != nil {
			t.Fatal(err)
		}

		after, srv := newAppOn(t, dsn)
		runJobs(t, after)
		op = loginAs(t, srv, "demo-operator", "demo-pass-1")
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		rf := askRefund(t, srv, op.Token, o.ID)
		// No amounts given: the supplier quotes the booking it made
		// before the restart.
		quoted := reviewAfterSale(t, srv, provider.Token, rf.ID, "approve")
		refund, _ := money.Parse(quoted.PriceBreakdown.RefundAmount.Amount, "CNY")
		if quoted.Status != flight.RfdToBeConfirm || refund.Minor <= 0 || refund.Minor > paid.Minor {
			t.Fatalf("quoted after restart: %s, refund %s of %s", quoted.Status, quoted.PriceBreakdown.RefundAmount.Amount, issued.Total.Amount)
		}
		wallet := walletMinor(t, after, op.Company.ID)
		resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/confirmation", rf.ID), "en", "", bearer(op.Token)...)
		if resp.StatusCode != 200 {
			t.Fatalf("confirm: %d %+v", resp.StatusCode, env)
		}
		waitStatus(t, srv, op.Token, rf.ID, flight.RefundedReimbursed)
		if got := walletMinor(t, after, op.Company.ID); got != wallet+refund.Minor {
			t.Fatalf("wallet after refund %d, want %d", got, wallet+refund.Minor)
		}
		ledgerZero(t, after)
	})
}

// TestBookingWhileTheSupplierIsDown: a supplier that fails at booking is a
// 503 with code 400003 and the translated "try again" message, nothing
// stored and nothing charged; the same request, once the supplier is back,
// books the order.
func TestBookingWhileTheSupplierIsDown(t *testing.T) {
	t.Parallel()
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		_, srv := newAppOn(t, dsn)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		quoteID, _ := quoteFor(t, srv, op.Token)
		// A second instance whose suppliers fail every call.
		down, downSrv := newAppOn(t, dsn, func(c *config.Config) { c.Shopping.Sim.ErrorRate = 1 })
		body := fmt.Sprintf(adultBody, quoteID)
		resp, env := call(t, downSrv, "POST", "/order/v2/flight/orders", "zh-cn", body, append(bearer(op.Token), "Idempotency-Key", "down-1")...)
		if resp.StatusCode != 503 || env.Code != 400003 || env.Message != "航空公司系统未响应。未预订任何航班，也未产生任何扣款，请稍后重试。" {
			t.Fatalf("booking while the supplier is down: %d %+v", resp.StatusCode, env)
		}
		var n int
		if err := down.DB.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM flight_orders`); err != nil || n != 0 {
			t.Fatalf("%d orders stored (%v)", n, err)
		}
		resp, env = call(t, srv, "POST", "/order/v2/flight/orders", "en", body, append(bearer(op.Token), "Idempotency-Key", "down-1")...)
		if resp.StatusCode != 201 || env.Code != 0 {
			t.Fatalf("the same request once the supplier is back: %d %+v", resp.StatusCode, env)
		}
	})
}
