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
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/store"
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

// killTicketing leaves paid orders as a ticketing run killed while working
// them leaves them: claimed once, with the claim's lease ending at until
// (in the past: run out).
func killTicketing(t *testing.T, a *app.App, until time.Time, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		res, err := a.DB.ExecContext(context.Background(), a.DB.Rebind(`UPDATE flight_orders SET ticket_attempts = 1, ticket_due_at = ?
			WHERE id = ? AND status = 'proceeding' AND ticket_due_at IS NOT NULL`), until.UTC(), id)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			t.Fatalf("order %d is not waiting to be ticketed", id)
		}
	}
}

// TestTicketingRescuedAfterACrash: two paid orders whose ticketing run was
// working them when its process died (kill -9) are issued once ticketing
// runs again, as soon as the dead run's lease has run out. One of the dead
// run's orders had already been ticketed with the supplier: the rerun
// issues the same tickets, not new ones. A third order whose claim is still
// live is left to its claimer; an order paid by an older version, with a
// River job and no due time, is ticketed by that job, once.
func TestTicketingRescuedAfterACrash(t *testing.T) {
	t.Parallel()
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		a, srv := newAppOn(t, dsn)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		fund(t, a, op.Company.ID, "50000")
		quoteID, _ := quoteFor(t, srv, op.Token)
		var orders []flight.View
		for i := range 4 {
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
		issuedBefore, err := sup.Ticket(ctx, b.Ref)
		if err != nil {
			t.Fatal(err)
		}
		killTicketing(t, a, time.Now().Add(-time.Second), orders[0].ID, orders[1].ID)
		// The third order's claimer is alive: its lease runs an hour.
		killTicketing(t, a, time.Now().Add(time.Hour), orders[2].ID)
		// The fourth was paid before ticketing was a sweep.
		if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE flight_orders SET ticket_due_at = NULL WHERE id = ?`), orders[3].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Queue.Client.Insert(ctx, flight.TicketArgs{OrderID: orders[3].ID}, nil); err != nil {
			t.Fatal(err)
		}

		runJobs(t, a)
		for _, o := range []flight.View{orders[0], orders[1], orders[3]} {
			waitStatus(t, srv, op.Token, o.ID, flight.Issued)
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
		var attempts int
		if err := a.DB.GetContext(ctx, &attempts, a.DB.Rebind(`SELECT ticket_attempts FROM flight_orders WHERE id = ?`), orders[0].ID); err != nil {
			t.Fatal(err)
		}
		if attempts != 2 {
			t.Errorf("the rescued order was claimed %d times, want 2 (the dead run's and the rerun)", attempts)
		}
		// Every order that can be is issued by now; the live claim's
		// order is still its claimer's.
		if st := getOrder(t, srv, op.Token, orders[2].ID).Status; st != flight.Proceeding {
			t.Errorf("the order under a live claim is %s, want it left to its claimer", st)
		}
		var events int
		if err := a.DB.GetContext(ctx, &events, a.DB.Rebind(`SELECT COUNT(*) FROM flight_order_events WHERE order_id = ? AND action = 'ticketed'`), orders[3].ID); err != nil {
			t.Fatal(err)
		}
		if events != 1 {
			t.Errorf("the order with an older version's job was ticketed %d times", events)
		}
		ledgerZero(t, a)
	})
}

// TestRefundJobRunAgainAfterACrash: the post-sale job of a confirmed refund
// died after the supplier refunded the booking and before the order
// recorded it. Run again, it finds the refund made (not refused), closes the
// order as refunded and pays the agency back once; a third run changes
// nothing.
func TestRefundJobRunAgainAfterACrash(t *testing.T) {
	t.Parallel()
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		a, srv := newAppOn(t, dsn)
		rfID := apptest.RefundRequest(t, a)
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		reviewAfterSale(t, srv, provider.Token, rfID, "approve")
		resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/confirmation", rfID), "en", "", bearer(op.Token)...)
		if resp.StatusCode != 200 {
			t.Fatalf("confirm: %d %+v", resp.StatusCode, env)
		}
		rf := getOrder(t, srv, op.Token, rfID)
		if rf.Status != flight.RfdProceeding {
			t.Fatalf("refund request %s, want %s", rf.Status, flight.RfdProceeding)
		}
		// The dead run confirmed the accepted quote with the supplier.
		var request string
		if err := a.DB.GetContext(ctx, &request, a.DB.Rebind(`SELECT request FROM flight_orders WHERE id = ?`), rfID); err != nil {
			t.Fatal(err)
		}
		var ps flight.Requested
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
			if got := getOrder(t, srv, op.Token, rfID); got.Status != flight.RefundedReimbursed {
				t.Fatalf("run %d: refund request %s, want %s", run, got.Status, flight.RefundedReimbursed)
			}
			if got := walletMinor(t, a, op.Company.ID); got != wallet+refund.Minor {
				t.Fatalf("run %d: wallet %d, want %d + the refund %d once", run, got, wallet, refund.Minor)
			}
		}
		ledgerZero(t, a)
	})
}

// TestTicketJobRunTwiceAtOnce: a rescued ticketing job whose first run
// was alive after all runs beside it. Both runs end without error, the
// order is issued once, with one set of tickets, and paid once.
func TestTicketJobRunTwiceAtOnce(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "50000", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
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
		if got.Status != flight.Issued || len(got.TicketNumbers) != 1 {
			t.Fatalf("after two runs: %s with tickets %v", got.Status, got.TicketNumbers)
		}
		var ticketed int
		if err := a.DB.GetContext(ctx, &ticketed, a.DB.Rebind(`SELECT COUNT(*) FROM flight_order_events WHERE order_id = ? AND to_status = ?`),
			o.ID, string(flight.Issued)); err != nil {
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
	})
}

// TestPaymentHandsOverToTicketing: on PostgreSQL, with ticketing running
// on the instance, a wallet payment claims its order for that ticketing in
// its own statement (one attempt, the lease ahead) and hands it over in
// memory: the order is issued, once, with no claim of the sweep, which
// would not see it until the lease runs out.
func TestPaymentHandsOverToTicketing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, srv := newSeededApp(t, store.Postgres)
	op := loginAs(t, srv, "demo-operator", "demo-pass-1")
	fund(t, a, op.Company.ID, "50000")
	quoteID, _ := quoteFor(t, srv, op.Token)
	runJobs(t, a)
	claimed := func(id int64) (time.Time, int) {
		t.Helper()
		var row struct {
			Due      time.Time `db:"ticket_due_at"`
			Attempts int       `db:"ticket_attempts"`
		}
		if err := a.DB.GetContext(ctx, &row, `SELECT ticket_due_at, ticket_attempts FROM flight_orders WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		return row.Due, row.Attempts
	}
	// The payment's one statement needs the accounts seen committed by
	// this instance's ledger: the first payments open and find them.
	for i := range 4 {
		o := createOrder(t, srv, op.Token, quoteID, fmt.Sprintf("hand-over-%d", i))
		paidAt := time.Now()
		if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 200 {
			t.Fatalf("pay: %d %+v", code, env)
		}
		due, attempts := claimed(o.ID)
		if i >= 2 && (attempts != 1 || due.Before(paidAt.Add(50*time.Second))) {
			t.Fatalf("order %d after its payment: due %s with %d attempts, want claimed by the payment (1 attempt, due a lease ahead of %s)",
				o.ID, due, attempts, paidAt)
		}
		waitStatus(t, srv, op.Token, o.ID, flight.Issued)
		if got := getOrder(t, srv, op.Token, o.ID); len(got.TicketNumbers) != 1 || got.Passengers[0].TicketNumber != got.TicketNumbers[0] {
			t.Fatalf("order %d issued with tickets %v, passenger's %q", o.ID, got.TicketNumbers, got.Passengers[0].TicketNumber)
		}
		var events int
		if err := a.DB.GetContext(ctx, &events, `SELECT COUNT(*) FROM flight_order_events WHERE order_id = $1 AND action = 'ticketed'`, o.ID); err != nil || events != 1 {
			t.Fatalf("order %d ticketed %d times (%v), want once", o.ID, events, err)
		}
		if _, attempts := claimed(o.ID); attempts != 1 {
			t.Fatalf("order %d was claimed %d times, want only by its payment", o.ID, attempts)
		}
	}
}
