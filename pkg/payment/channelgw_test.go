package payment_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/clock/clocktest"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/wechatpay"
	"github.com/voyage/voyage/pkg/payment/wechatpay/wechatpaytest"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// held is a booking as a channel payment moves it: to be paid, held by one
// payment key, paid; ended (gone) when it left holding some other way
// (expired, cancelled by the provider) before the money came.
type held struct {
	mu       sync.Mutex
	agencyID int64
	state    string // "to_be_paid", "held", "paid"
	key      string
	gone     bool
	paid     int
}

func (b *held) Hold(_ context.Context, _ *sqlx.Tx, key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != "to_be_paid" {
		return errors.New("not payable")
	}
	b.state, b.key = "held", key
	return nil
}

func (b *held) Paid(_ context.Context, _ *sqlx.Tx, key string, res payment.ChargeResult) (payment.Taken, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := payment.Taken{Channel: "wechat-pay", Key: key, Reference: res.Reference,
		Pay: ledger.Transfer{AgencyID: b.agencyID, IdempotencyKey: "pay-B7", From: ledger.Wallet(b.agencyID), To: ledger.Provider(ledger.KindSuppliers),
			Amount: 880_00, Currency: "CNY", PaymentType: ledger.TypeOriginFlight, OrderID: "B7", CreatedBy: "system"}}
	if b.gone || b.state != "held" || b.key != key {
		return t, false, nil
	}
	b.state = "paid"
	b.paid++
	return t, true, nil
}

func (b *held) Unpaid(_ context.Context, _ *sqlx.Tx, key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == "held" && b.key == key {
		b.state = "to_be_paid"
	}
	return nil
}

func (b *held) now() (string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state, b.paid
}

// channelEnv is Voyage's side (the protocol, the channel gateway, the
// notification route) against the WeChat Pay fake, on one database.
type channelEnv struct {
	t       *testing.T
	clock   *clocktest.Clock
	fake    *wechatpaytest.Server
	gw      payment.ChannelGateway
	notices payment.Notices
	pay     payment.Protocol
	booking *held
	route   *httptest.Server
}

func newChannelEnv(t *testing.T, db *store.DB) *channelEnv {
	t.Helper()
	e := &channelEnv{t: t, clock: clocktest.New(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))}
	e.fake = wechatpaytest.New(wechatpaytest.Options{Now: e.clock.Now, Wait: func(time.Duration) {}, MaxTries: 2})
	api := httptest.NewServer(e.fake)
	t.Cleanup(api.Close)
	ch, err := wechatpay.New(e.fake.ChannelConfig(api.URL, e.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	e.pay = payment.Protocol{DB: db, Ledger: ledger.New(db), Log: slog.New(slog.DiscardHandler)}
	e.booking = &held{agencyID: agency(t, db), state: "to_be_paid"}
	e.notices = payment.Notices{Protocol: e.pay, Channels: map[string]payment.Channel{ch.Name(): ch}, Now: e.clock.Now,
		Log: slog.New(slog.DiscardHandler),
		Held: func(_ context.Context, p payment.ChannelPayment) (payment.Held, error) {
			if p.Line != "flight" || p.BookingID != 7 {
				t.Errorf("notice resolved %s %d, want flight 7", p.Line, p.BookingID)
			}
			return e.booking, nil
		}}
	e.route = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.notices.Handle(w, r, strings.TrimPrefix(r.URL.Path, "/payment/v2/notify/"))
	}))
	t.Cleanup(e.route.Close)
	e.gw = payment.ChannelGateway{Channel: ch, DB: db, NotifyURL: e.route.URL + "/payment/v2/notify/wechat-pay", Now: e.clock.Now,
		Log: slog.New(slog.DiscardHandler)}
	return e
}

// start pays the booking through the channel: held, waiting for the payer.
func (e *channelEnv) start(key string) payment.Pending {
	e.t.Helper()
	err := e.pay.Pay(context.Background(), e.gw, "order-7", key, payment.Charge{Channel: "wechat-pay", OrderID: 7, Line: "flight",
		AgencyID: e.booking.agencyID, Amount: 880_00, Currency: "CNY", Subject: "Flight order B7"}, e.booking)
	var pe *payment.PendingError
	if !errors.As(err, &pe) || !strings.HasPrefix(pe.Pending.QRCode, "weixin://") {
		e.t.Fatalf("pay = %v, want a QR code to scan", err)
	}
	if st, _ := e.booking.now(); st != "held" {
		e.t.Fatalf("booking %s while the payer pays, want held", st)
	}
	return pe.Pending
}

func (e *channelEnv) tradeNo(key string) string { return payment.TradeNo(payment.Key("order-7", key)) }

// wallet is the agency's CNY entries and balance.
func (e *channelEnv) wallet() (int, int64) {
	e.t.Helper()
	ctx := context.Background()
	entries, _, err := e.pay.Ledger.Entries(ctx, e.booking.agencyID, ledger.EntryFilter{Currency: "CNY"})
	if err != nil {
		e.t.Fatal(err)
	}
	bal, err := e.pay.Ledger.WalletBalance(ctx, e.booking.agencyID, "CNY")
	if err != nil {
		e.t.Fatal(err)
	}
	return len(entries), bal.Balance
}

// post sends a notification to Voyage's route as the channel would.
func (e *channelEnv) post(n wechatpaytest.Notice) int {
	e.t.Helper()
	r := n.Request(e.route.URL + "/payment/v2/notify/wechat-pay")
	r.RequestURI = ""
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func (e *channelEnv) outcomes(db *store.DB) []string {
	e.t.Helper()
	var out []string
	if err := db.SelectContext(context.Background(), &out, `SELECT outcome FROM channel_notices ORDER BY id`); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// TestChannelPayments: a real channel's payment through the one protocol,
// on both engines, against the WeChat Pay fake: created and held, settled
// once by the verified notification or by the status check, whichever
// comes first; a forged, another sum's or unknown notification changes
// nothing; a payment that arrives after its booking ended goes to the
// agency's wallet; a payment never finished is closed at the channel and
// the booking can be paid again.
func TestChannelPayments(t *testing.T) {
	t.Parallel()
	for _, dialect := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(dialect), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			// Each case on a database of its own: a reconciliation looks at
			// every pending payment of its database.
			open := func(t *testing.T) (*channelEnv, *store.DB) {
				db := storetest.Open(t, dialect)
				return newChannelEnv(t, db), db
			}

			t.Run("notified, replayed, checked: paid once", func(t *testing.T) {
				e, db := open(t)
				e.start("k1")
				// A retry of the same payment shows the same code and
				// creates nothing new at the channel.
				again := e.pay.Pay(ctx, e.gw, "order-7", "k1", payment.Charge{Channel: "wechat-pay", OrderID: 7, Line: "flight",
					AgencyID: e.booking.agencyID, Amount: 880_00, Currency: "CNY"}, &held{state: "to_be_paid", agencyID: e.booking.agencyID})
				if !errors.Is(again, payment.ErrPending) {
					t.Fatalf("retry = %v, want the pending payment", again)
				}
				if err := e.fake.Pay(e.tradeNo("k1")); err != nil {
					t.Fatalf("the payer pays: %v (Voyage did not acknowledge the notification)", err)
				}
				n, err := e.fake.BuildNotification(e.tradeNo("k1"))
				if err != nil {
					t.Fatal(err)
				}
				if code := e.post(n); code != http.StatusNoContent {
					t.Fatalf("replayed notification answered %d, want WeChat Pay's success", code)
				}
				if err := e.pay.Check(ctx, e.gw, payment.Key("order-7", "k1"), e.booking); err != nil {
					t.Fatal(err)
				}
				if st, paid := e.booking.now(); st != "paid" || paid != 1 {
					t.Fatalf("booking %s, paid %d times", st, paid)
				}
				// The receipt by the channel and the price: the wallet ends
				// where it was.
				if n, bal := e.wallet(); n != 2 || bal != 0 {
					t.Fatalf("%d wallet entries, balance %d", n, bal)
				}
				if got := e.outcomes(db); strings.Join(got, ",") != "applied,replay" {
					t.Fatalf("notices kept %v, want the first applied and the replay", got)
				}
				p, _, err := payment.PaymentByTradeNo(ctx, db, e.tradeNo("k1"))
				if err != nil || p.State != "paid" || p.Reference == "" || p.PaidAt == nil {
					t.Fatalf("record %+v, %v", p, err)
				}
			})

			t.Run("forged, another sum, unknown: nothing changes", func(t *testing.T) {
				e, db := open(t)
				e.start("k2")
				forged := e.fake.SealTransaction([]byte(`{}`))
				forged.Header.Set("Wechatpay-Signature", "AAAA"+forged.Header.Get("Wechatpay-Signature")[4:])
				if code := e.post(forged); code < 400 {
					t.Fatalf("forged notification answered %d", code)
				}
				tx := map[string]any{"mchid": wechatpaytest.MchID, "appid": wechatpaytest.AppID, "out_trade_no": e.tradeNo("k2"),
					"transaction_id": "4200000000000000000000000001", "trade_state": "SUCCESS", "success_time": "2026-12-03T18:01:00+08:00",
					"amount": map[string]any{"total": 1, "payer_total": 1, "currency": "CNY"}}
				plain, _ := json.Marshal(tx)
				if code := e.post(e.fake.SealTransaction(plain)); code < 400 {
					t.Fatalf("a notification of 0.01 CNY for 880.00 answered %d", code)
				}
				tx["out_trade_no"], tx["amount"] = "nosuchpayment", map[string]any{"total": 88000, "payer_total": 88000, "currency": "CNY"}
				plain, _ = json.Marshal(tx)
				if code := e.post(e.fake.SealTransaction(plain)); code != http.StatusNoContent {
					t.Fatalf("an unknown payment's notification answered %d, want acknowledged (nothing to do)", code)
				}
				if st, paid := e.booking.now(); st != "held" || paid != 0 {
					t.Fatalf("booking %s, paid %d", st, paid)
				}
				if got := e.outcomes(db); strings.Join(got, ",") != "refused,mismatch,unknown" {
					t.Fatalf("notices kept %v", got)
				}
				if n, _ := e.wallet(); n != 0 {
					t.Fatalf("%d wallet entries", n)
				}
			})

			t.Run("notification lost: the status check settles", func(t *testing.T) {
				e, _ := open(t)
				e.start("k3")
				e.route.Close() // Voyage is down when the payer pays
				if err := e.fake.Pay(e.tradeNo("k3")); err == nil {
					t.Fatal("the notification was acknowledged by a closed route")
				}
				if err := e.pay.Check(ctx, e.gw, payment.Key("order-7", "k3"), e.booking); err != nil {
					t.Fatal(err)
				}
				if st, paid := e.booking.now(); st != "paid" || paid != 1 {
					t.Fatalf("booking %s, paid %d", st, paid)
				}
			})

			t.Run("paid after the booking ended: the money goes to the wallet", func(t *testing.T) {
				e, _ := open(t)
				e.start("k4")
				e.booking.mu.Lock()
				e.booking.gone = true
				e.booking.mu.Unlock()
				if err := e.fake.Pay(e.tradeNo("k4")); err != nil {
					t.Fatal(err)
				}
				if n, bal := e.wallet(); n != 1 || bal != 880_00 {
					t.Fatalf("%d wallet entries, balance %d: want the 880.00 CNY taken back in the wallet", n, bal)
				}
			})

			t.Run("never paid: closed at the channel, to be paid again", func(t *testing.T) {
				e, _ := open(t)
				e.start("k5")
				key := payment.Key("order-7", "k5")
				if err := e.pay.Check(ctx, e.gw, key, e.booking); !errors.Is(err, payment.ErrPaymentTimeout) {
					t.Fatalf("check while the payer may still pay = %v, want ask again later", err)
				}
				e.clock.Add(15 * time.Minute) // the end of its window: Voyage closes it
				if err := e.pay.Check(ctx, e.gw, key, e.booking); err != nil {
					t.Fatal(err)
				}
				if st, _ := e.booking.now(); st != "to_be_paid" {
					t.Fatalf("booking %s after its payment closed", st)
				}
				if fp, _ := e.fake.Payment(e.tradeNo("k5")); fp.State != "CLOSED" {
					t.Fatalf("the channel holds the payment %s, want closed", fp.State)
				}
				if err := e.fake.Pay(e.tradeNo("k5")); err == nil {
					t.Fatal("a closed payment could still be paid")
				}
			})
			t.Run("status check lost: the reconciliation settles or closes", func(t *testing.T) {
				e, db := open(t)
				e.start("k6")
				e.route.Close()
				if err := e.fake.Pay(e.tradeNo("k6")); err == nil {
					t.Fatal("the notification was acknowledged by a closed route")
				}
				e.clock.Add(20 * time.Minute)
				gateways := map[string]payment.Gateway{"wechat-pay": e.gw}
				if n, err := e.notices.Reconcile(ctx, gateways, time.Minute); err != nil || n < 1 {
					t.Fatalf("reconcile: %d, %v", n, err)
				}
				if st, paid := e.booking.now(); st != "paid" || paid != 1 {
					t.Fatalf("booking %s, paid %d after the reconciliation", st, paid)
				}
				if n, _ := e.wallet(); n != 2 {
					t.Fatalf("%d wallet entries", n)
				}
				// Run again: nothing is pending any more, nothing moves.
				if _, err := e.notices.Reconcile(ctx, gateways, time.Minute); err != nil {
					t.Fatal(err)
				}
				if n, _ := e.wallet(); n != 2 {
					t.Fatalf("%d wallet entries after a second run", n)
				}
				p, _, _ := payment.PaymentByTradeNo(ctx, db, e.tradeNo("k6"))
				if p.State != "paid" {
					t.Fatalf("record %s", p.State)
				}
			})
		})
	}
}
