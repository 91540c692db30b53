package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
)

// seededWith is seeded with a configuration change.
func seededWith(t *testing.T, mod func(*config.Config), fn func(t *testing.T, a *app.App, srv *httptest.Server)) {
	onEachEngine(t, newSeededApp, mod, fn)
}

// voidRequest books, pays and tickets an order on quoteID and asks to void
// it on the day: the original and the void request, waiting for the
// provider.
func voidRequest(t *testing.T, a *app.App, srv *httptest.Server, token, quoteID, key string) (flight.View, flight.View) {
	t.Helper()
	o := createOrder(t, srv, token, quoteID, key)
	if code, env := pay(t, srv, token, o.ID, `{"channel":"balance"}`); code != 200 {
		t.Fatalf("pay: %d %+v", code, env)
	}
	if err := a.Orders.Ticket(context.Background(), o.ID, false); err != nil {
		t.Fatal(err)
	}
	return o, askVoid(t, srv, token, o.ID)
}

func pay(t *testing.T, srv *httptest.Server, token string, id int64, body string) (int, envelope) {
	t.Helper()
	resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", id), "en", body,
		append(bearer(token), "Idempotency-Key", fmt.Sprintf("pay-%d-%d", id, time.Now().UnixNano()))...)
	return resp.StatusCode, env
}

// breakBooking points the order's booking at a reference the supplier does
// not know, so ticketing is refused.
func breakBooking(t *testing.T, a *app.App, id int64) {
	t.Helper()
	var raw string
	if err := a.DB.GetContext(context.Background(), &raw, a.DB.Rebind(`SELECT quote FROM flight_orders WHERE id = ?`), id); err != nil {
		t.Fatal(err)
	}
	var blob map[string]any
	_ = json.Unmarshal([]byte(raw), &blob)
	booked := blob["booked"].(map[string]any)
	for _, b := range booked["bookings"].([]any) {
		b.(map[string]any)["ref"] = "gone-" + fmt.Sprint(id)
	}
	out, _ := json.Marshal(blob)
	if _, err := a.DB.ExecContext(context.Background(), a.DB.Rebind(`UPDATE flight_orders SET quote = ? WHERE id = ?`), string(out), id); err != nil {
		t.Fatal(err)
	}
}

func TestOrderMoneyPaths(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "20000", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		agencyID := op.Company.ID
		quoteID, _ := quoteFor(t, srv, op.Token)
		start := walletMinor(t, a, agencyID)

		t.Run("ticketing refused: failed, reimbursed, wallet whole", func(t *testing.T) {
			o := createOrder(t, srv, op.Token, quoteID, "refused")
			if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 200 {
				t.Fatalf("pay: %d %+v", code, env)
			}
			breakBooking(t, a, o.ID)
			if err := a.Orders.Ticket(ctx, o.ID, false); err != nil {
				t.Fatal(err)
			}
			got := getOrder(t, srv, op.Token, o.ID)
			if got.Status != flight.FailedReimbursed {
				t.Fatalf("status %s, want failed_reimbursed", got.Status)
			}
			var steps []flight.Status
			for _, e := range got.Events {
				steps = append(steps, flight.Status(e.ToStatus))
			}
			want := []flight.Status{flight.ToBePaid, flight.Proceeding, flight.Failed, flight.FailedReimbursing, flight.FailedReimbursed}
			if fmt.Sprint(steps) != fmt.Sprint(want) {
				t.Fatalf("timeline %v, want %v", steps, want)
			}
			if w := walletMinor(t, a, agencyID); w != start {
				t.Fatalf("wallet %d after the refund, want %d", w, start)
			}
			// A second run of the job (a retry after a crash) moves nothing.
			if err := a.Orders.Ticket(ctx, o.ID, false); err != nil {
				t.Fatal(err)
			}
			if w := walletMinor(t, a, agencyID); w != start {
				t.Fatalf("wallet %d after a repeated job", w)
			}
		})

		t.Run("unpaid order closes when its quote expires", func(t *testing.T) {
			o := createOrder(t, srv, op.Token, quoteID, "expires")
			if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE flight_orders SET pay_by = ? WHERE id = ?`), time.Now().Add(-time.Minute).UTC(), o.ID); err != nil {
				t.Fatal(err)
			}
			if err := a.Orders.Deadline(ctx, o.ID); err != nil {
				t.Fatal(err)
			}
			if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Closed || len(got.Actions) != 0 {
				t.Fatalf("expired order = %s %v", got.Status, got.Actions)
			}
			if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 409 || env.Code != 100009 {
				t.Fatalf("paying a closed order: %d %+v", code, env)
			}
			if w := walletMinor(t, a, agencyID); w != start {
				t.Fatalf("wallet moved: %d", w)
			}
		})

		t.Run("cancel before paying; not after", func(t *testing.T) {
			o := createOrder(t, srv, op.Token, quoteID, "cancel")
			resp, env := call(t, srv, "DELETE", fmt.Sprintf("/order/v2/flight/orders/%d", o.ID), "en", "", bearer(op.Token)...)
			if resp.StatusCode != 200 || env.Code != 0 {
				t.Fatalf("cancel: %d %+v", resp.StatusCode, env)
			}
			resp, env = call(t, srv, "DELETE", fmt.Sprintf("/order/v2/flight/orders/%d", o.ID), "zh-cn", "", bearer(op.Token)...)
			if resp.StatusCode != 409 || env.Code != 100009 || env.Message == "" {
				t.Fatalf("cancel twice: %d %+v", resp.StatusCode, env)
			}
		})

		t.Run("void on the day: everything back, original closed", func(t *testing.T) {
			o, v := voidRequest(t, a, srv, op.Token, quoteID, "void")
			reviewAfterSale(t, srv, provider.Token, v.ID, "approve")
			if got := getOrder(t, srv, op.Token, v.ID); got.Status != flight.VoidedReimbursed {
				t.Fatalf("void order %s", got.Status)
			}
			if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Closed {
				t.Fatalf("original %s after void", got.Status)
			}
			if w := walletMinor(t, a, agencyID); w != start {
				t.Fatalf("wallet %d after void, want %d", w, start)
			}
		})
		t.Run("change: search, request, quote, confirm and pay, changed", func(t *testing.T) {
			qid, _ := quoteWhere(t, srv, op.Token, func(s shopping.Solution) bool { return s.Conditions.Changeable && s.Tickets == 1 })
			o := createOrder(t, srv, op.Token, qid, "change")
			if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 200 {
				t.Fatalf("pay: %d %+v", code, env)
			}
			if err := a.Orders.Ticket(ctx, o.ID, false); err != nil {
				t.Fatal(err)
			}
			newDate := time.Now().AddDate(0, 0, 27).Format(time.DateOnly)
			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/change/search", o.ID), "en",
				fmt.Sprintf(`{"journeys":[{"date":%q}]}`, newDate), bearer(op.Token)...)
			var cs flight.ChangeSearch
			_ = json.Unmarshal(env.Data, &cs)
			if resp.StatusCode != 200 || len(cs.Options) == 0 {
				t.Fatalf("change search: %d %+v", resp.StatusCode, env)
			}
			opt := cs.Options[0]
			if opt.Segments[0].DepartAt.Format(time.DateOnly) != newDate {
				t.Fatalf("option departs %s, want %s", opt.Segments[0].DepartAt, newDate)
			}
			ch := askAfterSale(t, srv, op.Token, o.ID, "change", map[string]string{"reason": "0", "optionId": opt.ID}, nil)
			ch = reviewAfterSale(t, srv, provider.Token, ch.ID, "quote")
			due, _ := money.Parse(ch.Total.Amount, "CNY")
			if ch.Status != flight.ChgToBePaid || ch.Total.Amount != opt.Total.Amount {
				t.Fatalf("quoted change = %s %s, option total %s", ch.Status, ch.Total.Amount, opt.Total.Amount)
			}
			before := walletMinor(t, a, agencyID)
			resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/confirmation", ch.ID), "en", "", bearer(op.Token)...)
			if resp.StatusCode != 200 {
				t.Fatalf("confirm change: %d %+v", resp.StatusCode, env)
			}
			if w := walletMinor(t, a, agencyID); w != before-due.Minor {
				t.Fatalf("wallet %d after paying the change, want %d", w, before-due.Minor)
			}
			if err := a.Orders.CarryOut(ctx, ch.ID, false); err != nil {
				t.Fatal(err)
			}
			if got := getOrder(t, srv, op.Token, ch.ID); got.Status != flight.Changed || got.PNR == "" {
				t.Fatalf("change order = %s %q", got.Status, got.PNR)
			}
			if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Changed {
				t.Fatalf("original after the change = %s", got.Status)
			}
			start = walletMinor(t, a, agencyID)
		})
	})
}

func TestGatewayPayments(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, func(c *config.Config) { c.Payment.TestGateway = true }, "", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		quoteID, sol := quoteFor(t, srv, op.Token)
		_, env := call(t, srv, "GET", "/order/v2/flight/config/payment", "en", "", bearer(op.Token)...)
		var cfg flight.PaymentConfig
		_ = json.Unmarshal(env.Data, &cfg)
		if len(cfg.Channels) != len(payment.Channels) || cfg.Channels[0].Channel != "balance" || cfg.Channels[0].Kind != "wallet" {
			t.Fatalf("payment config = %+v", cfg)
		}
		start := walletMinor(t, a, op.Company.ID)

		o := createOrder(t, srv, op.Token, quoteID, "gw-ok")
		if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"stripe"}`); code != 200 {
			t.Fatalf("stripe: %d %+v", code, env)
		}
		if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Proceeding || got.PaymentStatus != flight.Paid || got.PaymentChannel != "stripe" {
			t.Fatalf("after stripe: %+v", got)
		}
		// A retry of that payment (same key) answers the order, not 409.
		o = createOrder(t, srv, op.Token, quoteID, "gw-retry")
		for i := range 2 {
			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"stripe"}`,
				append(bearer(op.Token), "Idempotency-Key", "stripe-retry")...)
			if resp.StatusCode != 200 || env.Code != 0 {
				t.Fatalf("stripe payment, try %d: %d %+v", i+1, resp.StatusCode, env)
			}
		}

		o = createOrder(t, srv, op.Token, quoteID, "gw-fail")
		code, env := pay(t, srv, op.Token, o.ID, `{"channel":"alipay","testOutcome":"failure"}`)
		if code != 402 || env.Code != 300002 || env.Message != "Pay Fail" {
			t.Fatalf("declined: %d %+v", code, env)
		}
		if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.ToBePaid {
			t.Fatalf("after a decline: %s", got.Status)
		}

		o = createOrder(t, srv, op.Token, quoteID, "gw-timeout")
		code, env = pay(t, srv, op.Token, o.ID, `{"channel":"airwallex","testOutcome":"timeout"}`)
		if code != 504 || env.Code != 300002 || env.Message != "Timeout" {
			t.Fatalf("time-out: %d %+v", code, env)
		}
		if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Holding || len(got.Actions) != 0 {
			t.Fatalf("after a time-out: %s %v", got.Status, got.Actions)
		}
		// The status check (a queued job) learns the gateway took the money.
		if err := a.Orders.CheckPayment(ctx, o.ID); err != nil {
			t.Fatal(err)
		}
		if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Proceeding || got.PaymentStatus != flight.Paid {
			t.Fatalf("after the check: %+v", got)
		}
		// Gateway money does not touch the wallet; it arrives from funding.
		if w := walletMinor(t, a, op.Company.ID); w != start {
			t.Fatalf("wallet moved on gateway payments: %d → %d", start, w)
		}
		var funded int64
		total, _ := money.Parse(sol.Total.Amount, "CNY")
		_ = a.DB.GetContext(ctx, &funded, `SELECT COALESCE(SUM(amount), 0) FROM ledger_transfers WHERE payment_type = 'origin-flight'`)
		if funded != 3*total.Minor {
			t.Fatalf("origin-flight transfers %d, want three payments of %d", funded, total.Minor)
		}
	})
}

// TestPaymentOnceWithOrWithoutWebhook: on PostgreSQL the booking and the
// payment of an agency without a webhook are one statement each (the order
// with its booking count; the order's move with its charge); with a
// webhook each shares a transaction with its event. Either way a booking
// is counted once, replayed or not; of two payments of one order racing
// with different keys one is charged and the other refused, the order is
// paid once, and an agency with a webhook is told.
func TestPaymentOnceWithOrWithoutWebhook(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "50000", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		agencyID := op.Company.ID
		quoteID, _, total := quotedTotal(t, srv, op.Token)
		bookings := func() int {
			t.Helper()
			var n int
			if err := a.DB.GetContext(ctx, &n, a.DB.Rebind(`SELECT COALESCE(SUM(n), 0) FROM agency_look_counts WHERE agency_id = ? AND counter = 'bookings'`), agencyID); err != nil {
				t.Fatal(err)
			}
			return n
		}
		race := func(webhook bool) {
			t.Helper()
			for round := range 3 {
				booked := bookings()
				key := fmt.Sprintf("race-%v-%d", webhook, round)
				o := createOrder(t, srv, op.Token, quoteID, key)
				if replay := createOrder(t, srv, op.Token, quoteID, key); replay.ID != o.ID {
					t.Fatalf("a replayed booking made order %d, want %d", replay.ID, o.ID)
				}
				if got := bookings(); got != booked+1 {
					t.Fatalf("webhook %v: the booking count went from %d to %d for one order", webhook, booked, got)
				}
				before := walletMinor(t, a, agencyID)
				var wg sync.WaitGroup
				codes := make([]int, 2)
				for i := range codes {
					wg.Go(func() { codes[i], _ = pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`) })
				}
				wg.Wait()
				slices.Sort(codes)
				if codes[0] != 200 || codes[1] != 409 {
					t.Fatalf("webhook %v: two payments of one order answered %v, want one paid and one conflict", webhook, codes)
				}
				if got := walletMinor(t, a, agencyID); got != before-total.Minor {
					t.Fatalf("webhook %v: wallet %d after the race, want %d (charged once)", webhook, got, before-total.Minor)
				}
				var events, deliveries int
				if err := a.DB.GetContext(ctx, &events, a.DB.Rebind(`SELECT COUNT(*) FROM flight_order_events WHERE order_id = ? AND action = 'pay'`), o.ID); err != nil {
					t.Fatal(err)
				}
				if err := a.DB.GetContext(ctx, &deliveries, a.DB.Rebind(`SELECT COUNT(*) FROM webhook_deliveries
					WHERE agency_id = ? AND event = 'order.status' AND payload LIKE ? AND payload LIKE '%"status":"proceeding"%'`),
					agencyID, "%"+o.BookingNumber+"%"); err != nil {
					t.Fatal(err)
				}
				want := 0
				if webhook {
					want = 1
				}
				if events != 1 || deliveries != want {
					t.Fatalf("webhook %v: %d payments on the timeline and %d webhook events, want 1 and %d", webhook, events, deliveries, want)
				}
			}
		}
		race(false)

		f := agency.DefaultFlightSettings()
		f.BookingNotifyURL = "https://hooks.example.com/voyage"
		raw, _ := json.Marshal(f)
		if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE agencies SET flight_settings = ? WHERE id = ?`), string(raw), agencyID); err != nil {
			t.Fatal(err)
		}
		a.Agencies.Forget(agencyID)
		race(true)
	})
}

// TestPaymentAfterAChangeSinceBooking: the instance that booked an order
// pays it from the copy it kept (one statement, no read), but never when
// someone wrote the order in between. An untouched order is paid at its
// total, and a second payment of it is refused and charges nothing. Then
// the provider corrects an order's total after the booking (as another
// instance would): the payment charges and shows the corrected total, not
// the copy's, and leaves it stored.
func TestPaymentAfterAChangeSinceBooking(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "50000", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		quoteID, sol, total := quotedTotal(t, srv, op.Token)
		payOnce := func(id int64) flight.View {
			t.Helper()
			before := walletMinor(t, a, op.Company.ID)
			code, env := pay(t, srv, op.Token, id, `{"channel":"balance"}`)
			var paid flight.View
			_ = json.Unmarshal(env.Data, &paid)
			if code != 200 || paid.Status != flight.Proceeding {
				t.Fatalf("paying order %d: %d %+v", id, code, env)
			}
			if code, _ := pay(t, srv, op.Token, id, `{"channel":"balance"}`); code != 409 {
				t.Fatalf("paying order %d again: %d, want 409", id, code)
			}
			charged, _ := money.Parse(paid.Total.Amount, "CNY")
			if got := walletMinor(t, a, op.Company.ID); got != before-charged.Minor {
				t.Fatalf("wallet %d after paying order %d (twice asked), want %d", got, id, before-charged.Minor)
			}
			return paid
		}
		// The one-statement payment needs the accounts seen committed by
		// this instance's ledger: the first payments open and find them.
		var ids []int64
		for i := range 3 {
			o := createOrder(t, srv, op.Token, quoteID, fmt.Sprintf("copy-%d", i))
			if paid := payOnce(o.ID); paid.Total.Amount != sol.Total.Amount {
				t.Fatalf("order %d paid at %s, want %s", o.ID, paid.Total.Amount, sol.Total.Amount)
			}
			ids = append(ids, o.ID)
		}

		changed := createOrder(t, srv, op.Token, quoteID, "copy-changed")
		corrected := total.Minor + 1000
		var updated time.Time
		if err := a.DB.GetContext(ctx, &updated, a.DB.Rebind(`SELECT updated_at FROM flight_orders WHERE id = ?`), changed.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE flight_orders SET total = ?, updated_at = ? WHERE id = ?`),
			corrected, updated.Add(time.Second), changed.ID); err != nil {
			t.Fatal(err)
		}
		want := money.Amount{Minor: corrected, Currency: "CNY"}.String()
		if paid := payOnce(changed.ID); paid.Total.Amount != want {
			t.Fatalf("an order corrected after booking was paid at %s, want %s", paid.Total.Amount, want)
		}
		var stored int64
		if err := a.DB.GetContext(ctx, &stored, a.DB.Rebind(`SELECT total FROM flight_orders WHERE id = ?`), changed.ID); err != nil || stored != corrected {
			t.Fatalf("stored total %d (%v) after the payment, want %d", stored, err, corrected)
		}
		var events int
		if err := a.DB.GetContext(ctx, &events, a.DB.Rebind(`SELECT COUNT(*) FROM flight_order_events WHERE order_id IN (?, ?, ?, ?) AND action = 'pay'`),
			ids[0], ids[1], ids[2], changed.ID); err != nil || events != 4 {
			t.Fatalf("%d payments on the four timelines (%v), want 4", events, err)
		}
	})
}
