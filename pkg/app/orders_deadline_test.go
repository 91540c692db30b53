package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// cancels records the supplier bookings an order service released.
type cancels struct {
	mu   sync.Mutex
	refs map[string]int
}

func (c *cancels) count(ref string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refs[ref]
}

func (c *cancels) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.refs {
		n += k
	}
	return n
}

type recordingSupplier struct {
	supplier.Supplier
	log *cancels
}

func (r recordingSupplier) Cancel(ctx context.Context, ref string) error {
	r.log.mu.Lock()
	r.log.refs[ref]++
	r.log.mu.Unlock()
	return r.Supplier.Cancel(ctx, ref)
}

// sweeper is the order service of another server instance on a's database
// whose clock reads at: the sweep as it runs once the deadlines have passed.
// Its suppliers record the bookings it cancels.
func sweeper(a *app.App, at time.Time) (*flight.Service, *cancels) {
	log := &cancels{refs: map[string]int{}}
	s := flight.New(flight.Options{Deps: booking.Deps{DB: a.DB, Ledger: a.Ledger, Agencies: a.Agencies, Now: func() time.Time { return at }}, Quotes: shopping.NewQuotes(a.DB), Looks: a.AgencyAdmin, Suppliers: func(name string) (supplier.Supplier, bool) {
		sup, ok := a.Shopping.Supplier(name)
		if !ok {
			return nil, false
		}
		return recordingSupplier{sup, log}, true
	}})
	s.SetNotifier(a.Webhooks)
	return s, log
}

// setOrder overwrites an order's columns (a status, a deadline) to put it in
// the state a test needs.
func setOrder(t *testing.T, a *app.App, id int64, set string, args ...any) {
	t.Helper()
	if _, err := a.DB.ExecContext(context.Background(), a.DB.Rebind(`UPDATE flight_orders SET `+set+` WHERE id = ?`), append(args, id)...); err != nil {
		t.Fatal(err)
	}
}

// quotedChange books, pays and tickets a changeable order and has the
// provider quote a change of it: a change order waiting in chg_to_be_paid.
func quotedChange(t *testing.T, a *app.App, srv *httptest.Server, token, providerToken, key string) int64 {
	t.Helper()
	qid, _ := quoteWhere(t, srv, token, func(s shopping.Solution) bool { return s.Conditions.Changeable && s.Tickets == 1 })
	o := createOrder(t, srv, token, qid, key)
	if code, env := pay(t, srv, token, o.ID, `{"channel":"balance"}`); code != 200 {
		t.Fatalf("pay: %d %+v", code, env)
	}
	if err := a.Orders.Ticket(context.Background(), o.ID, false); err != nil {
		t.Fatal(err)
	}
	_, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/change/search", o.ID), "en",
		fmt.Sprintf(`{"journeys":[{"date":%q}]}`, time.Now().AddDate(0, 0, 27).Format(time.DateOnly)), bearer(token)...)
	var cs flight.ChangeSearch
	_ = json.Unmarshal(env.Data, &cs)
	if len(cs.Options) == 0 {
		t.Fatalf("change search: %+v", env)
	}
	ch := askAfterSale(t, srv, token, o.ID, "change", map[string]string{"reason": "0", "optionId": cs.Options[0].ID}, nil)
	reviewAfterSale(t, srv, providerToken, ch.ID, "quote")
	return ch.ID
}

// quotedRefund is a refund request of a paid, ticketed order that the
// provider approved: waiting in rfd_to_be_confirm.
func quotedRefund(t *testing.T, a *app.App, srv *httptest.Server, providerToken string) int64 {
	t.Helper()
	id := apptest.RefundRequest(t, a)
	reviewAfterSale(t, srv, providerToken, id, "approve")
	return id
}

// TestDeadlineSweep runs the sweep over orders on both sides of their
// deadlines in every waiting status: it ends exactly those past it (the
// deadline itself included), releases the seats of the unpaid bookings it
// closes, moves no money and leaves paid, reviewed and future orders alone;
// a second run changes nothing.
func TestDeadlineSweep(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "20000", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		quoteID, _ := quoteFor(t, srv, op.Token)
		at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)

		ids := map[string]int64{}
		for _, name := range []string{"past", "atDeadline", "future", "reserved", "reviewing", "paid"} {
			ids[name] = createOrder(t, srv, op.Token, quoteID, "sweep-"+name).ID
		}
		if code, env := pay(t, srv, op.Token, ids["paid"], `{"channel":"balance"}`); code != 200 {
			t.Fatalf("pay: %d %+v", code, env)
		}
		setOrder(t, a, ids["past"], `pay_by = ?`, at.Add(-time.Minute))
		setOrder(t, a, ids["atDeadline"], `pay_by = ?`, at)
		setOrder(t, a, ids["future"], `pay_by = ?`, at.Add(time.Minute))
		setOrder(t, a, ids["reserved"], `status = 'reserved', pay_by = ?`, at.Add(-time.Minute))
		setOrder(t, a, ids["reviewing"], `status = 'reviewing', pay_by = ?`, at.Add(-time.Minute))
		setOrder(t, a, ids["paid"], `pay_by = ?`, at.Add(-time.Minute))
		ids["refundPast"] = quotedRefund(t, a, srv, provider.Token)
		ids["refundFuture"] = quotedRefund(t, a, srv, provider.Token)
		ids["changePast"] = quotedChange(t, a, srv, op.Token, provider.Token, "sweep-change")
		setOrder(t, a, ids["refundPast"], `confirm_by = ?`, at.Add(-time.Minute))
		setOrder(t, a, ids["refundFuture"], `confirm_by = ?`, at.Add(time.Minute))
		setOrder(t, a, ids["changePast"], `confirm_by = ?`, at.Add(-time.Second))

		refs := map[string]string{}
		for name, id := range ids {
			refs[name] = getOrder(t, srv, provider.Token, id).ReferenceID
		}
		wallet, transfers := walletMinor(t, a, op.Company.ID), countRows(t, a, `SELECT COUNT(*) FROM ledger_transfers`)

		sw, released := sweeper(a, at)
		n, err := sw.SweepDeadlines(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]flight.Status{"past": flight.Closed, "atDeadline": flight.Closed, "future": flight.ToBePaid,
			"reserved": flight.Closed, "reviewing": flight.Reviewing, "paid": flight.Proceeding,
			"refundPast": flight.RefundCanceled, "refundFuture": flight.RfdToBeConfirm, "changePast": flight.ChangeCanceled}
		check := func(when string) {
			t.Helper()
			for name, id := range ids {
				got := getOrder(t, srv, provider.Token, id)
				if got.Status != want[name] {
					t.Errorf("%s: %s order %s, want %s", when, name, got.Status, want[name])
				}
				if want[name] != flight.Closed && !strings.HasSuffix(string(want[name]), "canceled") {
					continue
				}
				if last := got.Events[len(got.Events)-1]; last.Action != string(flight.ActExpire) || last.Actor != "system" {
					t.Errorf("%s: %s ended by %s/%s, want expire by system", when, name, last.Action, last.Actor)
				}
			}
			// Only the closed bookings' seats go back, once each.
			for _, name := range []string{"past", "atDeadline", "reserved"} {
				if c := released.count(refs[name]); c != 1 {
					t.Errorf("%s: %s booking %q cancelled %d times, want once", when, name, refs[name], c)
				}
			}
			if c := released.total(); c != 3 {
				t.Errorf("%s: %d supplier cancellations, want 3", when, c)
			}
			if w := walletMinor(t, a, op.Company.ID); w != wallet {
				t.Errorf("%s: wallet %d, want %d: ending unpaid orders moves no money", when, w, wallet)
			}
			if n := countRows(t, a, `SELECT COUNT(*) FROM ledger_transfers`); n != transfers {
				t.Errorf("%s: %d ledger transfers, want %d", when, n, transfers)
			}
		}
		if n != 5 {
			t.Errorf("sweep ended %d orders, want 5", n)
		}
		check("first sweep")

		events := countRows(t, a, `SELECT COUNT(*) FROM flight_order_events`)
		if n, err := sw.SweepDeadlines(ctx); err != nil || n != 0 {
			t.Fatalf("second sweep: %d, %v; want nothing to do", n, err)
		}
		for _, id := range ids {
			if err := sw.Deadline(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		check("second sweep")
		if e := countRows(t, a, `SELECT COUNT(*) FROM flight_order_events`); e != events {
			t.Errorf("second sweep wrote %d events", e-events)
		}

		// Later, the deadlines not yet passed pass too.
		later, _ := sweeper(a, at.Add(2*time.Minute))
		if n, err := later.SweepDeadlines(ctx); err != nil || n != 2 {
			t.Fatalf("later sweep: %d, %v; want the two orders due since", n, err)
		}
		want["future"], want["refundFuture"] = flight.Closed, flight.RefundCanceled
		for _, name := range []string{"future", "refundFuture"} {
			if got := getOrder(t, srv, provider.Token, ids[name]); got.Status != want[name] {
				t.Errorf("later: %s order %s, want %s", name, got.Status, want[name])
			}
		}
	})
}

// TestDeadlineSweepRacesPayments pays orders while a sweep that sees their
// deadlines passed ends them (an instance whose clock is ahead, or a
// payment started just before the deadline): each order ends paid or
// closed, never both, and the wallet is charged for exactly the paid ones.
func TestDeadlineSweepRacesPayments(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		quoteID, _, total := quotedTotal(t, srv, op.Token)
		const orders = 16
		fund(t, a, op.Company.ID, money.Amount{Minor: orders * total.Minor, Currency: "CNY"}.String())
		ids := make([]int64, orders)
		refs := make([]string, orders)
		for i := range ids {
			o := createOrder(t, srv, op.Token, quoteID, fmt.Sprintf("race-%d", i))
			ids[i], refs[i] = o.ID, o.ReferenceID
		}
		start := walletMinor(t, a, op.Company.ID)
		// The payments run on the real clock, before the orders' pay_by; the
		// sweep's clock is past it.
		sw, released := sweeper(a, time.Now().Add(time.Hour))
		// Warm the connection pool so the sweep's first query does not wait
		// on a new connection while every payment goes through.
		if _, err := a.DB.ExecContext(ctx, `SELECT 1`); err != nil {
			t.Fatal(err)
		}

		codes := make([]int, orders)
		var swept int
		var sweepErr error
		var wg sync.WaitGroup
		ready := make(chan struct{})
		for i, id := range ids {
			wg.Go(func() {
				<-ready
				// The sweep takes the orders by id (one quote, one pay_by):
				// paying the last first spreads the payments over its run,
				// some before it reaches their order, some while, some after.
				// The sleep spreads them in real time: the race is with the
				// sweep's queries, which no clock the test moves would slow.
				time.Sleep(time.Duration(orders-i) * time.Millisecond)
				_, env := pay(t, srv, op.Token, id, `{"channel":"balance"}`)
				codes[i] = env.Code
			})
			if i == orders/2 {
				wg.Go(func() {
					<-ready
					swept, sweepErr = sw.SweepDeadlines(ctx)
				})
			}
		}
		close(ready)
		wg.Wait()
		if sweepErr != nil {
			t.Fatal(sweepErr)
		}

		paid, closed := 0, 0
		for i, id := range ids {
			got := getOrder(t, srv, op.Token, id)
			var actions []string
			for _, e := range got.Events {
				actions = append(actions, e.Action)
			}
			var key int
			if err := a.DB.GetContext(ctx, &key, a.DB.Rebind(`SELECT COUNT(*) FROM ledger_transfers WHERE idempotency_key = ?`),
				fmt.Sprintf("order-%d-pay", id)); err != nil {
				t.Fatal(err)
			}
			switch {
			case codes[i] == 0 && got.Status == flight.Proceeding && got.PaymentStatus == flight.Paid &&
				!slices.Contains(actions, string(flight.ActExpire)) && key == 1 && released.count(refs[i]) == 0:
				paid++
			case codes[i] == 100009 && got.Status == flight.Closed && got.PaymentStatus == flight.Unpaid &&
				!slices.Contains(actions, string(flight.ActPay)) && key == 0 && released.count(refs[i]) == 1:
				closed++
			default:
				t.Errorf("order %d: payment answered %d; order %s/%s, events %v, %d payment transfers, booking cancelled %d times",
					id, codes[i], got.Status, got.PaymentStatus, actions, key, released.count(refs[i]))
			}
		}
		t.Logf("%d paid, %d closed by the sweep", paid, closed)
		if swept != closed {
			t.Errorf("sweep reports %d orders ended, %d are closed", swept, closed)
		}
		if w := walletMinor(t, a, op.Company.ID); w != start-int64(paid)*total.Minor {
			t.Errorf("wallet %d, want %d: %d paid orders of %d", w, start-int64(paid)*total.Minor, paid, total.Minor)
		}
	})
}

// TestDeadlineSweepRunsOnTheQueue: booking queues no job of its own any
// more, and the queue's periodic sweep closes an order past its deadline
// as soon as the queue starts.
func TestDeadlineSweepRunsOnTheQueue(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		quoteID, _ := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "queued-sweep")
		var n int
		if err := a.DB.GetContext(ctx, &n, `SELECT COUNT(*) FROM river_job WHERE kind = 'order_deadline'`); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("booking queued %d deadline jobs, want none", n)
		}
		setOrder(t, a, o.ID, `pay_by = ?`, time.Now().Add(-time.Minute).UTC())
		runJobs(t, a)
		waitStatus(t, srv, op.Token, o.ID, flight.Closed)
		// Inserted unique (by period), so a second instance's schedule does
		// not add its own.
		if err := a.DB.GetContext(ctx, &n, `SELECT COUNT(*) FROM river_job WHERE kind = 'order_deadline_sweep' AND unique_key IS NOT NULL`); err != nil {
			t.Fatal(err)
		}
		if n < 1 {
			t.Fatal("no unique sweep job on the queue")
		}
	})
}
