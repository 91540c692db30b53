package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/train"
	"github.com/voyage/voyage/templates"
)

// payable is one booking of a line, ready to pay: how to pay it with a
// channel and key, and what the ledger calls its payment.
type payable struct {
	booking string // its booking number
	page    string // its portal page
	price   int64  // what it costs, in minor units of CNY
	pay     func(channel, key string) int
}

// TestEveryLinePaysAlike: the same payment on every line (flight, train,
// group installment) and every channel available here (the wallet's
// balance, its credit line, the test gateway, WeChat Pay against its
// fake): six replays at once with
// one key (through the gateway the longest key the API allows) charge once
// and all answer 200; the payment is listed for
// finance, a gateway's in Transactions (its channel, gross, fee, net and
// the booking paid) and in the wallet entries, and the wallet ends where
// the payment leaves it: down by the price from the wallet, unchanged by a
// gateway.
func TestEveryLinePaysAlike(t *testing.T) {
	t.Parallel()
	seededWithWeChatPay(t, func(t *testing.T, a *app.App, srv *httptest.Server, rig *weChatRig) {
		demo := agencyID(t, a, "Demo Travel")
		enableTrains(t, a, demo, `{"notifyUrl":"","manual":true}`)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		finance := loginAs(t, srv, "demo-finance", "demo-pass-1").Token
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token

		lines := map[string]func(key string) payable{
			"flight": func(key string) payable {
				q, _ := quoteFor(t, srv, op)
				o := createOrder(t, srv, op, q, key)
				return payable{o.BookingNumber, templates.OrderHref(o.ID), minorOf(t, o.Total.Amount), func(channel, k string) int {
					return status(call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en",
						fmt.Sprintf(`{"channel":%q}`, channel), append(bearer(op), "Idempotency-Key", k)...))
				}}
			},
			"train": func(key string) payable {
				offer := secondClassOffer(t, srv, op, 7, 1)
				resp, env, v := bookTrain(t, srv, op, offer.ID, onePassenger, key)
				if resp.StatusCode != 201 {
					t.Fatalf("book a train: %d %+v", resp.StatusCode, env)
				}
				return payable{v.BookingNumber, templates.TrainOrderHref(v.ID), minorOf(t, v.Total.Amount), func(channel, k string) int {
					return status(call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/payment", v.ID), "en",
						fmt.Sprintf(`{"channel":%q}`, channel), append(bearer(op), "Idempotency-Key", k)...))
				}}
			},
			"group": func(key string) payable {
				v := confirmedGroup(t, srv, op, provider, key)
				return payable{v.BookingNumber, templates.GroupHref(v.ID), 180000, func(channel, k string) int {
					return status(call(t, srv, "POST", fmt.Sprintf("%s/%d/payment", groupsPath, v.ID), "en",
						fmt.Sprintf(`{"channel":%q,"stage":"first"}`, channel), append(bearer(op), "Idempotency-Key", k)...))
				}}
			},
		}
		for _, name := range []string{"flight", "train", "group"} {
			for _, channel := range []string{"balance", "credit", "stripe", "wechat-pay"} {
				t.Run(name+"/"+channel, func(t *testing.T) {
					key := fmt.Sprintf("pay-%s-%s", name, channel)
					b := lines[name](key)
					// The wallet holds the price, or nothing and a credit
					// line of twice the price.
					setWallet(t, a, demo, channel, b.price)
					before := walletMinor(t, a, demo)
					txBefore := transactions(t, srv, finance)

					sent := channel
					if channel == "credit" {
						sent = "balance"
					}
					// Through the gateway, the longest key the API document
					// allows (90): the ledger's record of the payment,
					// "receipt-" and the line's gateway key, must still fit
					// the ledger's 100 characters.
					payKey := key + "-key"
					if channel == "stripe" {
						payKey = (payKey + strings.Repeat("k", 90))[:90]
					}
					codes := make([]int, 6)
					var wg sync.WaitGroup
					for i := range codes {
						wg.Add(1)
						go func() { defer wg.Done(); codes[i] = b.pay(sent, payKey) }()
					}
					wg.Wait()
					for i, c := range codes {
						if c != 200 {
							t.Errorf("replay %d answered %d", i+1, c)
						}
					}
					// A real channel waits for its payer; WeChat Pay's fake
					// pays and notifies.
					gateway := channel == "stripe" || channel == "wechat-pay"
					if channel == "wechat-pay" {
						// Meanwhile the booking's page shows the code to scan.
						if _, body := get(t, portalAs(t, srv, op), srv.URL+b.page, "Accept-Language", "en"); !strings.Contains(body, `class="qr-code"`) {
							t.Errorf("%s shows no QR code while the payer pays", b.page)
						}
						payLatestByWeChat(t, a, rig)
					}

					want := before - b.price
					if gateway {
						want = before
					}
					if got := walletMinor(t, a, demo); got != want {
						t.Errorf("wallet %d after paying %d by %s, want %d", got, b.price, channel, want)
					}
					// Finance finds it: in the wallet entries always, in
					// Transactions when a gateway took the money.
					paid, received := entriesOf(t, srv, finance, b.booking)
					if paid != -b.price {
						t.Errorf("wallet entries of %s: paid %d, want %d", b.booking, paid, -b.price)
					}
					txAfter := transactions(t, srv, finance)
					if gateway {
						if received != b.price {
							t.Errorf("wallet entries of %s: received %d by the gateway, want %d", b.booking, received, b.price)
						}
						if len(txAfter) != len(txBefore)+1 {
							t.Fatalf("transactions: %d then %d, want one more", len(txBefore), len(txAfter))
						}
						tx := txAfter[0]
						if tx.OriginalID != b.booking || tx.PaymentMethod != channel || tx.Net != tx.Gross || tx.Fee != "0.00" || tx.Reference == "" {
							t.Errorf("the gateway's payment in Transactions: %+v", tx)
						}
					} else if received != 0 || len(txAfter) != len(txBefore) {
						t.Errorf("a wallet payment received %d and added %d transactions", received, len(txAfter)-len(txBefore))
					}
				})
			}
		}
		ledgerZero(t, a)
	})
}

// setWallet gives the agency's CNY wallet exactly price, or for "credit"
// nothing and a credit line of twice the price.
func setWallet(t *testing.T, a *app.App, agencyID int64, channel string, price int64) {
	t.Helper()
	ctx := context.Background()
	limit, balance := int64(0), price
	if channel == "credit" {
		limit, balance = 2*price, 0
	}
	now := walletMinor(t, a, agencyID)
	if d := balance - now; d != 0 {
		from, to := ledger.Provider(ledger.KindFunding), ledger.Wallet(agencyID)
		if d < 0 {
			from, to, d = to, from, -d
		}
		_, err := a.Ledger.Post(ctx, ledger.Transfer{AgencyID: agencyID, IdempotencyKey: fmt.Sprintf("set-wallet-%d-%d-%d", agencyID, now, balance),
			From: from, To: to, Amount: d, Currency: "CNY", PaymentType: ledger.TypeAdjustment, CreatedBy: "test"})
		if err != nil {
			t.Fatal(err)
		}
	}
	// After the balance: a credit line cannot end below what is used.
	if err := a.Ledger.SetCreditLimit(ctx, agencyID, "CNY", limit); err != nil {
		t.Fatal(err)
	}
}

// transactions is the caller's Transactions, newest first.
func transactions(t *testing.T, srv *httptest.Server, token string) []ledger.Transaction {
	t.Helper()
	resp, env := call(t, srv, "GET", "/base/v2/transactions?pageSize=100", "en", "", bearer(token)...)
	if resp.StatusCode != 200 {
		t.Fatalf("transactions: %d %+v", resp.StatusCode, env)
	}
	var p struct{ Items []ledger.Transaction }
	if err := json.Unmarshal(env.Data, &p); err != nil {
		t.Fatal(err)
	}
	return p.Items
}

// entriesOf sums the caller's wallet entries of a booking: what left the
// wallet for it (negative) and what a gateway brought in for it.
func entriesOf(t *testing.T, srv *httptest.Server, token, booking string) (paid, received int64) {
	t.Helper()
	resp, env := call(t, srv, "GET", "/base/v2/wallet/entries?pageSize=100", "en", "", bearer(token)...)
	if resp.StatusCode != 200 {
		t.Fatalf("wallet entries: %d %+v", resp.StatusCode, env)
	}
	var p struct {
		Items []struct {
			Type    string
			OrderID string
			Amount  struct{ Amount string }
		}
	}
	if err := json.Unmarshal(env.Data, &p); err != nil {
		t.Fatal(err)
	}
	for _, e := range p.Items {
		if e.OrderID != booking {
			continue
		}
		m := minorOf(t, e.Amount.Amount)
		if e.Type == ledger.TypeTopUp {
			received += m
		} else {
			paid += m
		}
	}
	return paid, received
}

// minorOf reads a CNY amount ("1800.00", "-27.50") in minor units.
func minorOf(t *testing.T, amount string) int64 {
	t.Helper()
	m, err := money.Parse(amount, "CNY")
	if err != nil {
		t.Fatalf("amount %q: %v", amount, err)
	}
	return m.Minor
}

// TestGatewayAnswerLost: the gateway takes the money and its answer is lost
// (a time-out, or the instance killed before it heard back), on every line.
// The booking stays held (no second payment, no deadline takes it) and
// answers 504; the status check (the queued job's body, run here at once)
// learns the payment happened and settles it, once however often it runs:
// the receipt is in Transactions once and the wallet ends where it was.
func TestGatewayAnswerLost(t *testing.T) {
	t.Parallel()
	seededWith(t, func(c *config.Config) { c.Payment.TestGateway = true }, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()
		demo := agencyID(t, a, "Demo Travel")
		enableTrains(t, a, demo, `{"notifyUrl":"","manual":true}`)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		finance := loginAs(t, srv, "demo-finance", "demo-pass-1").Token
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
		// A group's payment names its installment; the other lines have
		// no such field (an unknown field is refused).
		body, groupBody := `{"channel":"stripe","testOutcome":"timeout"}`, `{"channel":"stripe","stage":"first","testOutcome":"timeout"}`

		type line struct {
			name    string
			booking string
			pay     func(key string) int
			held    func() bool
			check   func() error
			settled func() bool
		}
		q, _ := quoteFor(t, srv, op)
		fo := createOrder(t, srv, op, q, "lost-flight")
		offer := secondClassOffer(t, srv, op, 8, 1)
		_, _, tv := bookTrain(t, srv, op, offer.ID, onePassenger, "lost-train")
		gv := confirmedGroup(t, srv, op, provider, "lost-group")
		groupInst := func() string {
			return installment(groupCall(t, srv, op, "GET", fmt.Sprintf("%s/%d", groupsPath, gv.ID), "", 200), "first").Status
		}
		trainStatus := func() train.Status { _, v := trainOrder(t, srv, op, tv.ID); return v.Status }
		lines := []line{
			{"flight", fo.BookingNumber,
				func(key string) int {
					return status(call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", fo.ID), "en", body,
						append(bearer(op), "Idempotency-Key", key)...))
				},
				func() bool { return getOrder(t, srv, op, fo.ID).Status == flight.Holding },
				func() error { return a.Orders.CheckPayment(ctx, fo.ID) },
				func() bool { return getOrder(t, srv, op, fo.ID).PaymentStatus == flight.Paid }},
			{"train", tv.BookingNumber,
				func(key string) int {
					return status(call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/payment", tv.ID), "en", body,
						append(bearer(op), "Idempotency-Key", key)...))
				},
				func() bool { return trainStatus() == train.Holding },
				func() error { return a.Trains.CheckPayment(ctx, tv.ID) },
				func() bool { return trainStatus() == train.Proceeding }},
			{"group", gv.BookingNumber,
				func(key string) int {
					return status(call(t, srv, "POST", fmt.Sprintf("%s/%d/payment", groupsPath, gv.ID), "en", groupBody,
						append(bearer(op), "Idempotency-Key", key)...))
				},
				func() bool { return groupInst() == group.InstHolding },
				func() error { return a.Groups.CheckPayment(ctx, gv.ID, "first") },
				func() bool { return groupInst() == group.InstPaid }},
		}
		before := walletMinor(t, a, demo)
		for _, l := range lines {
			if c := l.pay("lost-" + l.name + "-1"); c != 504 {
				t.Fatalf("%s: a lost answer: %d, want 504", l.name, c)
			}
			if !l.held() {
				t.Fatalf("%s: not held after a lost answer", l.name)
			}
			// A second payment (another key) while the first is under way
			// is refused; a replay of the first answers the booking as it
			// stands, alike on every line.
			if c := l.pay("lost-" + l.name + "-2"); c != 409 {
				t.Errorf("%s: a second payment while held: %d", l.name, c)
			}
			if c := l.pay("lost-" + l.name + "-1"); c != 200 || !l.held() {
				t.Errorf("%s: a replay while held: %d, held %v; want 200 and still held", l.name, c, l.held())
			}
			for range 2 {
				if err := l.check(); err != nil {
					t.Fatalf("%s: status check: %v", l.name, err)
				}
			}
			if !l.settled() {
				t.Fatalf("%s: not paid after the status check", l.name)
			}
		}
		if w := walletMinor(t, a, demo); w != before {
			t.Errorf("wallet %d, was %d: a gateway's payment leaves it where it was", w, before)
		}
		seen := map[string]int{}
		for _, tx := range transactions(t, srv, finance) {
			seen[tx.OriginalID]++
		}
		for _, l := range lines {
			if seen[l.booking] != 1 {
				t.Errorf("%s: %d receipts in Transactions, want 1", l.name, seen[l.booking])
			}
		}

		// A group cancelled while its payment is under way: the status check
		// finds the installment void, and the money the gateway took stays
		// the agency's, in its wallet, listed as received.
		g2 := confirmedGroup(t, srv, op, provider, "lost-group-2")
		if c := status(call(t, srv, "POST", fmt.Sprintf("%s/%d/payment", groupsPath, g2.ID), "en", groupBody,
			append(bearer(op), "Idempotency-Key", "lost-group-2-pay")...)); c != 504 {
			t.Fatalf("second group: a lost answer: %d", c)
		}
		groupCall(t, srv, op, "DELETE", fmt.Sprintf("%s/%d", groupsPath, g2.ID), "", 200)
		before = walletMinor(t, a, demo)
		for range 2 {
			if err := a.Groups.CheckPayment(ctx, g2.ID, "first"); err != nil {
				t.Fatal(err)
			}
		}
		if w := walletMinor(t, a, demo); w != before+180000 {
			t.Errorf("wallet %d after a cancelled group's payment came through, want %d", w, before+180000)
		}
		received := 0
		for _, tx := range transactions(t, srv, finance) {
			if tx.OriginalID == g2.BookingNumber && tx.PaymentMethod == "stripe" {
				received++
			}
		}
		if received != 1 {
			t.Errorf("the cancelled group's payment is %d times in Transactions, want once", received)
		}
		ledgerZero(t, a)
	})
}
