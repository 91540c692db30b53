package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/wechatpay/wechatpaytest"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// weChatRig is WeChat Pay's fake for one app, and the app's public address
// (where the fake sends its notifications), known before the app is built.
type weChatRig struct {
	fake    *wechatpaytest.Server
	api     *httptest.Server
	public  *httptest.Server
	handler atomic.Value
}

// servePublic starts the rig's public address, which hands each request to
// the app's handler stored in rig.handler once the app is built.
func (rig *weChatRig) servePublic(t *testing.T) {
	rig.public = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rig.handler.Load().(http.Handler).ServeHTTP(w, r)
	}))
	t.Cleanup(rig.public.Close)
}

// configure points an app's configuration at the rig: the same fake and
// public address for every instance configured so.
func (rig *weChatRig) configure(c *config.Config) {
	c.Payment.TestGateway = true
	c.Payment.PublicURL = rig.public.URL
	c.Payment.WechatPay = config.WechatPayConfig{MchID: wechatpaytest.MchID, AppID: wechatpaytest.AppID,
		MerchantSerialNo:   wechatpaytest.MerchantSerialNo,
		MerchantPrivateKey: config.Secret(wechatpaytest.PrivateKeyPEM(wechatpaytest.TestKeys().Merchant)),
		APIv3Key:           config.Secret(rig.fake.APIv3Key()), PlatformPublicKey: rig.fake.PlatformPublicKeyPEM(),
		PlatformSerial: rig.fake.PlatformSerial(), Endpoint: rig.api.URL}
}

// withWeChatPay configures an app with WeChat Pay against a fake of its own
// (each app its own fake: two engines' order ids would meet in one) and
// with the test gateway; rigOf finds the app's fake.
func withWeChatPay(t *testing.T) (mod func(*config.Config), rigOf func(*app.App) *weChatRig) {
	var rigs sync.Map
	mod = func(c *config.Config) {
		rig := &weChatRig{fake: wechatpaytest.New(wechatpaytest.Options{Wait: func(time.Duration) {}, MaxTries: 3})}
		rig.api = httptest.NewServer(rig.fake)
		t.Cleanup(rig.api.Close)
		rig.servePublic(t)
		rig.configure(c)
		rigs.Store(rig.public.URL, rig)
	}
	rigOf = func(a *app.App) *weChatRig {
		r, ok := rigs.Load(a.Cfg.Payment.PublicURL)
		if !ok {
			t.Fatal("no WeChat Pay fake for this app")
		}
		rig := r.(*weChatRig)
		rig.handler.Store(a.Handler)
		return rig
	}
	return mod, rigOf
}

// seededWithWeChatPay runs fn on each seeded engine with WeChat Pay against
// its fake (withWeChatPay) and the app's jobs running; rig is the app's
// fake.
func seededWithWeChatPay(t *testing.T, fn func(t *testing.T, a *app.App, srv *httptest.Server, rig *weChatRig)) {
	withChannel, rigOf := withWeChatPay(t)
	seededWith(t, withChannel, func(t *testing.T, a *app.App, srv *httptest.Server) {
		rig := rigOf(a)
		runJobs(t, a)
		fn(t, a, srv, rig)
	})
}

// latestTradeNo is the merchant order number of the latest channel
// payment.
func latestTradeNo(t *testing.T, a *app.App) string {
	t.Helper()
	var tradeNo string
	if err := a.DB.GetContext(context.Background(), &tradeNo, `SELECT trade_no FROM channel_payments ORDER BY id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	return tradeNo
}

// noticeOutcomes is what was made of each channel notification received,
// in the order they came.
func noticeOutcomes(t *testing.T, a *app.App) []string {
	t.Helper()
	var outcomes []string
	if err := a.DB.SelectContext(context.Background(), &outcomes, `SELECT outcome FROM channel_notices ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	return outcomes
}

// payLatestByWeChat is the payer paying the latest channel payment by
// WeChat Pay: the fake notifies the app, which must acknowledge.
func payLatestByWeChat(t *testing.T, a *app.App, rig *weChatRig) {
	t.Helper()
	if err := rig.fake.Pay(latestTradeNo(t, a)); err != nil {
		t.Fatalf("the payer pays: %v (the server did not acknowledge WeChat Pay's notification)", err)
	}
}

// TestChannelPaymentThroughTheAPI: a flight order paid by WeChat Pay, a
// real channel's protocol against its fake, through the HTTP API on both
// engines: the payment answers the order held with a QR code to scan;
// the payer pays; WeChat Pay's signed notification reaches the public
// route and the order is paid and ticketed, once, whatever is replayed;
// finance finds the payment in Transactions with its channel.
func TestChannelPaymentThroughTheAPI(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			mod, rigOf := withWeChatPay(t)
			a, srv := newSeededApp(t, d, mod)
			rig := rigOf(a)
			fake, public := rig.fake, rig.public
			ctx := context.Background()
			op := loginAs(t, srv, "demo-operator", "demo-pass-1")
			finance := loginAs(t, srv, "demo-finance", "demo-pass-1").Token
			for lang, name := range map[string]string{"en": "WeChat Pay", "zh-CN": "微信支付"} {
				_, env := call(t, srv, "GET", "/order/v2/flight/config/payment", lang, "", bearer(op.Token)...)
				var cfg flight.PaymentConfig
				_ = json.Unmarshal(env.Data, &cfg)
				i := slices.IndexFunc(cfg.Channels, func(c flight.ChannelInfo) bool { return c.Channel == "wechat-pay" })
				if i < 0 || cfg.Channels[i].Name != name || cfg.Channels[i].Kind != "gateway" {
					t.Fatalf("payment config (%s) offers %+v, want WeChat Pay named %q", lang, cfg.Channels, name)
				}
			}
			quoteID, _ := quoteFor(t, srv, op.Token)
			o := createOrder(t, srv, op.Token, quoteID, "wx-1")
			before := walletMinor(t, a, op.Company.ID)
			txBefore := transactions(t, srv, finance)

			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"wechat-pay"}`,
				append(bearer(op.Token), "Idempotency-Key", "wx-pay-1")...)
			var v flight.View
			_ = json.Unmarshal(env.Data, &v)
			if resp.StatusCode != 200 || v.Status != flight.Holding || v.Payment == nil || !strings.HasPrefix(v.Payment.QRCode, "weixin://") ||
				v.Payment.Channel != "wechat-pay" || v.Payment.Amount != v.Total {
				t.Fatalf("pay by WeChat: %d %+v, payment %+v", resp.StatusCode, env, v.Payment)
			}
			// A retry shows the same code; nothing new at the channel.
			_, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"wechat-pay"}`,
				append(bearer(op.Token), "Idempotency-Key", "wx-pay-1")...)
			var again flight.View
			_ = json.Unmarshal(env.Data, &again)
			if again.Payment == nil || again.Payment.QRCode != v.Payment.QRCode {
				t.Fatalf("retry: %+v", again.Payment)
			}
			// The portal's detail shows the code to scan, in the payer's
			// language; the API shows it to the booking agency only, not to
			// the provider, who does not pay it.
			provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
			_, env = call(t, srv, "GET", fmt.Sprintf("/order/v2/flight/orders/%d", o.ID), "en", "", bearer(provider)...)
			if strings.Contains(string(env.Data), "weixin://") {
				t.Fatal("the provider's view of the order shows the payer's QR code")
			}
			page := portalAs(t, srv, op.Token)
			for lang, want := range map[string]string{"en": "Scan with WeChat Pay", "zh-CN": "请用付款人手机上的微信支付扫码"} {
				res, body := get(t, page, fmt.Sprintf("%s/flight/orders/%d", srv.URL, o.ID), "Accept-Language", lang)
				if res.StatusCode != 200 || !strings.Contains(body, `id="pending-payment"`) || !strings.Contains(body, `class="qr-code"`) ||
					!strings.Contains(body, want) {
					t.Fatalf("detail page (%s) while the payer pays: %d, no QR code or no %q", lang, res.StatusCode, want)
				}
			}
			var tradeNo string
			if err := a.DB.GetContext(ctx, &tradeNo, a.DB.Rebind(`SELECT trade_no FROM channel_payments WHERE line = 'flight' AND booking_id = ?`), o.ID); err != nil {
				t.Fatal(err)
			}
			if err := fake.Pay(tradeNo); err != nil {
				t.Fatalf("the payer pays: %v (the server did not acknowledge WeChat Pay's notification)", err)
			}
			n, err := fake.BuildNotification(tradeNo)
			if err != nil {
				t.Fatal(err)
			}
			r := n.Request(public.URL + "/payment/v2/notify/wechat-pay")
			r.RequestURI = ""
			res, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusNoContent {
				t.Fatalf("replayed notification: %d", res.StatusCode)
			}
			got := getOrder(t, srv, op.Token, o.ID)
			if got.PaymentStatus != flight.Paid || got.PaymentChannel != "wechat-pay" || got.Payment != nil ||
				(got.Status != flight.Proceeding && got.Status != flight.Issued) {
				t.Fatalf("after the notification: %s %s %s, payment %+v", got.Status, got.PaymentStatus, got.PaymentChannel, got.Payment)
			}
			if _, body := get(t, page, fmt.Sprintf("%s/flight/orders/%d", srv.URL, o.ID), "Accept-Language", "en"); strings.Contains(body, `id="pending-payment"`) {
				t.Fatal("the detail page still asks for the payment once it is paid")
			}
			if after := walletMinor(t, a, op.Company.ID); after != before {
				t.Fatalf("wallet %d, then %d: a channel payment leaves the wallet where it was", before, after)
			}
			txAfter := transactions(t, srv, finance)
			if len(txAfter) != len(txBefore)+1 || txAfter[0].PaymentMethod != "wechat-pay" || txAfter[0].OriginalID != o.BookingNumber {
				t.Fatalf("Transactions: %d then %d, newest %+v", len(txBefore), len(txAfter), txAfter[0])
			}
			if outcomes := noticeOutcomes(t, a); strings.Join(outcomes, ",") != "applied,replay" {
				t.Fatalf("notices %v, want the first applied and the replay recorded", outcomes)
			}
			ledgerZero(t, a)
			// Voided on the day: the money goes back through WeChat Pay.
			voidThroughTheChannel(t, a, srv, op, o, "wechat-pay", payment.RefundDone, func() int64 {
				p, _ := fake.Payment(tradeNo)
				return p.Refunded
			})
		})
	}
}

// TestNotificationRouteLimits: the public notification route answers only
// the channels configured here, reads no more than a notification's size
// (payment.MaxNotice), and bounds each channel's notifications so a flood
// of forged ones is refused (429) rather than checked without end; every
// refusal changes nothing and is kept for the provider's staff.
func TestNotificationRouteLimits(t *testing.T) {
	t.Parallel()
	mod, rigOf := withWeChatPay(t)
	// A bucket of 20 that does not refill within the test, however slow
	// the machine: the limit, not the clock, decides.
	a, srv := newApp(t, storetest.Engines[0], mod, func(c *config.Config) {
		c.HTTP.RateLimit.Enabled, c.HTTP.RateLimit.NotifyRate, c.HTTP.RateLimit.NotifyBurst = true, 0.001, 20
	})
	rigOf(a)
	post := func(channel string, body []byte) int {
		t.Helper()
		res, err := http.Post(srv.URL+"/payment/v2/notify/"+channel, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := post("paypal", []byte(`{}`)); code != http.StatusNotFound {
		t.Fatalf("a channel not configured here answered %d", code)
	}
	if code := post("wechat-pay", bytes.Repeat([]byte("x"), payment.MaxNotice+1)); code < 400 || code == http.StatusTooManyRequests {
		t.Fatalf("an oversized notification answered %d", code)
	}
	refused := 0
	for range 40 {
		switch post("wechat-pay", []byte(`{"id":"forged"}`)) {
		case http.StatusTooManyRequests:
			refused++
		case http.StatusOK, http.StatusNoContent:
			t.Fatal("a forged notification was acknowledged")
		}
	}
	// The oversized one took one of the 20.
	if refused != 21 {
		t.Fatalf("40 forged notifications at once, %d refused by the limit of 20, want 21", refused)
	}
	var outcomes []string
	if err := a.DB.SelectContext(context.Background(), &outcomes, `SELECT DISTINCT outcome FROM channel_notices ORDER BY outcome`); err != nil {
		t.Fatal(err)
	}
	if strings.Join(outcomes, ",") != "refused,too_large" {
		t.Fatalf("notices kept as %v", outcomes)
	}
	var paid int
	if err := a.DB.GetContext(context.Background(), &paid, `SELECT COUNT(*) FROM channel_payments WHERE state <> 'pending'`); err != nil || paid != 0 {
		t.Fatalf("%d channel payments moved, %v", paid, err)
	}
}

// TestChannelPaymentSurvivesARestart: the instance that created a WeChat
// Pay payment stops before the payer pays (what a kill -9 between the
// charge and the settlement leaves: the order held, the payment pending,
// nothing in memory); the notification reaches the instance that took its
// place, which settles the order once, and a second instance's status
// check finds nothing left to do.
func TestChannelPaymentSurvivesARestart(t *testing.T) {
	t.Parallel()
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		mod, rigOf := withWeChatPay(t)
		before, srv := newAppOn(t, dsn, mod)
		rig := rigOf(before)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		quoteID, _ := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "wx-restart")
		resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"wechat-pay"}`,
			append(bearer(op.Token), "Idempotency-Key", "wx-restart-pay")...)
		if resp.StatusCode != 200 {
			t.Fatalf("pay: %d %+v", resp.StatusCode, env)
		}
		srv.Close()
		if err := before.Close(); err != nil {
			t.Fatal(err)
		}

		after, srv := newAppOn(t, dsn, rig.configure)
		rig.handler.Store(after.Handler)
		payLatestByWeChat(t, after, rig)
		op = loginAs(t, srv, "demo-operator", "demo-pass-1")
		got := getOrder(t, srv, op.Token, o.ID)
		if got.PaymentStatus != flight.Paid || (got.Status != flight.Proceeding && got.Status != flight.Issued) {
			t.Fatalf("after the restart and the notification: %s %s", got.Status, got.PaymentStatus)
		}
		if err := after.Orders.CheckPayment(context.Background(), o.ID); err != nil {
			t.Fatal(err)
		}
		var receipts int
		if err := after.DB.GetContext(context.Background(), &receipts, after.DB.Rebind(
			`SELECT COUNT(*) FROM ledger_transfers WHERE order_id = ? AND payment_type = 'top-up'`), o.BookingNumber); err != nil {
			t.Fatal(err)
		}
		if receipts != 1 {
			t.Fatalf("%d receipts of the payment, want one", receipts)
		}
		ledgerZero(t, after)
	})
}
