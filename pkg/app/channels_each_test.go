package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/airwallex"
	"github.com/voyage/voyage/pkg/payment/airwallex/airwallextest"
	"github.com/voyage/voyage/pkg/payment/alipay/alipaytest"
	"github.com/voyage/voyage/pkg/payment/rsakey"
	"github.com/voyage/voyage/pkg/payment/rsakey/rsakeytest"
	"github.com/voyage/voyage/pkg/payment/stripe"
	"github.com/voyage/voyage/pkg/payment/stripe/stripemock"
	"github.com/voyage/voyage/pkg/payment/yeepay/yeepaytest"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// fakeChannel is one provider's fake configured into an app: how to set
// the app's settings for it, and the payer paying a payment (the fake then
// sends its signed notification to the app).
type fakeChannel struct {
	name      string
	configure func(c *config.Config, endpoint string)
	handler   http.Handler
	pay       func(tradeNo string) error
	// shows is what the payment answer gives the payer to finish it.
	shows func(p *flight.View) bool
	// replay is the notification of the paid payment tradeNo as the
	// provider sent it; otherSum one the provider signed that reports
	// another amount: the body and the headers to post.
	replay, otherSum func(tradeNo string) ([]byte, http.Header)
	// refunded is what the fake holds refunded of a payment; refund the
	// state a refund through it is left in once asked.
	refunded func(tradeNo string) int64
	refund   string
}

func alipayFake(string) fakeChannel {
	merchant, key := rsakeytest.Key(0), rsakeytest.Key(1)
	fake := alipaytest.New(alipaytest.Options{MerchantKey: &merchant.PublicKey, AlipayKey: key,
		Wait: func(context.Context, time.Duration) error { return nil }, MaxTries: 3})
	// Alipay's fake notifies in the background: the payer's payment is
	// done when its notification is delivered.
	pay := func(tradeNo string) error {
		err := fake.Pay(tradeNo)
		fake.Drain()
		return err
	}
	formHeader := http.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=utf-8"}}
	sent := func(tradeNo string) []byte {
		for _, n := range slices.Backward(fake.Notifications()) {
			if n.OutTradeNo == tradeNo {
				return n.Body
			}
		}
		return nil
	}
	return fakeChannel{name: "alipay", handler: fake, pay: pay,
		replay: func(tradeNo string) ([]byte, http.Header) { return sent(tradeNo), formHeader },
		otherSum: func(tradeNo string) ([]byte, http.Header) {
			form, _ := url.ParseQuery(string(sent(tradeNo)))
			for _, k := range []string{"total_amount", "receipt_amount", "buyer_pay_amount", "invoice_amount"} {
				if form.Has(k) {
					form.Set(k, "0.01")
				}
			}
			return fake.SignNotification(form), formHeader
		},
		configure: func(c *config.Config, endpoint string) {
			c.Payment.Alipay = config.AlipayConfig{AppID: fake.AppID(), PrivateKey: config.Secret(rsakey.PrivatePEM(merchant)),
				AlipayPublicKey: fake.PublicKeyPEM(), Endpoint: endpoint + "/gateway.do"}
		},
		shows: func(v *flight.View) bool { return v.Payment != nil && v.Payment.QRCode != "" },
		refunded: func(tradeNo string) int64 {
			tr, _ := fake.Trade(tradeNo)
			return tr.Refunded
		}, refund: payment.RefundDone}
}

func yeepayFake(string) fakeChannel {
	merchant, key := rsakeytest.Key(2), rsakeytest.Key(3)
	const appKey, merchantNo = "app_voyage_test", "10088800001"
	fake := yeepaytest.New(yeepaytest.Options{MerchantPublicKeyPEM: rsakey.PublicPEM(&merchant.PublicKey), PrivateKey: key,
		AppKey: appKey, ParentMerchantNo: merchantNo, MerchantNo: merchantNo, MaxNotify: 3, Wait: func(int) {}})
	formHeader := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	amounts := regexp.MustCompile(`"(orderAmount|payAmount)":"[0-9.]+"`)
	return fakeChannel{name: "yeepay-alipay", handler: fake, pay: fake.Pay,
		replay: func(tradeNo string) ([]byte, http.Header) {
			body, _ := fake.NoticeBody(tradeNo)
			return []byte(body), formHeader
		},
		otherSum: func(tradeNo string) ([]byte, http.Header) {
			body, _ := fake.ResignedNoticeBody(tradeNo, func(plain string) string { return amounts.ReplaceAllString(plain, `"$1":"0.01"`) })
			return []byte(body), formHeader
		},
		configure: func(c *config.Config, endpoint string) {
			c.Payment.Yeepay = config.YeepayConfig{AppKey: appKey, ParentMerchantNo: merchantNo, MerchantNo: merchantNo,
				PrivateKey: config.Secret(rsakey.PrivatePEM(merchant)), YeepayPublicKey: fake.PublicKeyPEM(), Endpoint: endpoint}
		},
		shows: func(v *flight.View) bool { return v.Payment != nil && v.Payment.QRCode != "" },
		refunded: func(tradeNo string) int64 {
			o, _ := fake.Order(tradeNo)
			return o.Refunded
		}, refund: payment.RefundDone}
}

// airwallexFake sends its webhooks to the account's address (public's
// route), as Airwallex does: they are not set per payment.
func airwallexFake(public string) fakeChannel {
	const clientID, apiKey, secret = "voyage-client", "voyage-api-key", "whsec_voyage_test"
	fake := airwallextest.New(airwallextest.Options{ClientID: clientID, APIKey: apiKey, WebhookSecret: secret,
		NotifyURL: public + "/payment/v2/notify/airwallex", MaxTries: 3})
	return fakeChannel{name: "airwallex", handler: fake, pay: fake.Pay,
		replay: func(tradeNo string) ([]byte, http.Header) {
			for _, n := range slices.Backward(fake.Notifications()) {
				if n.Key == tradeNo && n.Name == airwallex.EventSucceeded {
					return n.Body, n.Header
				}
			}
			return nil, nil
		},
		otherSum: func(tradeNo string) ([]byte, http.Header) {
			in, _ := fake.Intent(tradeNo)
			in.Amount, in.CapturedAmount = "0.01", "0.01"
			return fake.SignedEvent(airwallex.EventSucceeded, in)
		},
		configure: func(c *config.Config, endpoint string) {
			c.Payment.Airwallex = config.AirwallexConfig{ClientID: clientID, APIKey: config.Secret(apiKey),
				WebhookSecret: config.Secret(secret), Endpoint: endpoint}
		},
		shows: func(v *flight.View) bool { return v.Payment != nil && v.Payment.ClientSecret != "" },
		// Airwallex receives a refund and settles it later (its
		// refund.settled webhook): the job asks again meanwhile.
		refunded: fake.Refunded, refund: payment.RefundProcessing}
}

// TestEachChannelPaysThroughTheAPI: a flight order paid by Alipay, by
// Yeepay's Alipay wallet and by Airwallex, each against its provider's
// fake, through the HTTP API on both engines: the answer holds the order
// with the code to scan or the card form's secret; the payer pays; the
// provider's signed notification settles it; a notification whose
// signature does not verify, the provider's notification sent again, and
// a genuine one that reports another sum change nothing; a void on the day
// goes back through the channel. (WeChat Pay: TestChannelPaymentThroughTheAPI
// and TestEveryLinePaysAlike; Stripe: TestStripePaysThroughTheAPI.)
func TestEachChannelPaysThroughTheAPI(t *testing.T) {
	t.Parallel()
	for _, mk := range []func(public string) fakeChannel{alipayFake, yeepayFake, airwallexFake} {
		for _, d := range storetest.Engines {
			rig := &weChatRig{}
			rig.servePublic(t)
			fc := mk(rig.public.URL)
			t.Run(fc.name+"/"+string(d), func(t *testing.T) {
				t.Parallel()
				api := httptest.NewServer(fc.handler)
				t.Cleanup(api.Close)
				a, srv := newSeededApp(t, d, func(c *config.Config) {
					c.Payment.PublicURL = rig.public.URL
					fc.configure(c, api.URL)
				})
				rig.handler.Store(a.Handler)
				ctx := context.Background()
				op := loginAs(t, srv, "demo-operator", "demo-pass-1")
				quoteID, _ := quoteFor(t, srv, op.Token)
				o := createOrder(t, srv, op.Token, quoteID, "each-"+fc.name)
				resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en",
					fmt.Sprintf(`{"channel":%q}`, fc.name), append(bearer(op.Token), "Idempotency-Key", "each-pay")...)
				var v flight.View
				_ = json.Unmarshal(env.Data, &v)
				if resp.StatusCode != 200 || v.Status != flight.Holding || !fc.shows(&v) {
					t.Fatalf("pay by %s: %d %+v", fc.name, resp.StatusCode, env)
				}
				// A forged notification (no valid signature) changes nothing.
				forged, err := http.Post(rig.public.URL+"/payment/v2/notify/"+fc.name, "application/x-www-form-urlencoded",
					strings.NewReader("out_trade_no=x&trade_status=TRADE_SUCCESS&total_amount=0.01&sign=AAAA&response=AAAA"))
				if err != nil {
					t.Fatal(err)
				}
				forged.Body.Close()
				if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Holding {
					t.Fatalf("after a forged notification: %s", got.Status)
				}
				tradeNo := latestTradeNo(t, a)
				if err := fc.pay(tradeNo); err != nil {
					t.Fatalf("the payer pays by %s: %v (the app did not acknowledge the notification)", fc.name, err)
				}
				got := getOrder(t, srv, op.Token, o.ID)
				var kept []struct {
					Outcome string `db:"outcome"`
					State   string `db:"state"`
					Detail  string `db:"detail"`
				}
				_ = a.DB.SelectContext(ctx, &kept, `SELECT outcome, state, detail FROM channel_notices ORDER BY id`)
				if got.PaymentStatus != flight.Paid || got.PaymentChannel != fc.name || got.Payment != nil {
					t.Fatalf("after %s's notification: %s %s %s; notices %+v", fc.name, got.Status, got.PaymentStatus, got.PaymentChannel, kept)
				}
				if outcomes := noticeOutcomes(t, a); len(outcomes) < 2 || outcomes[0] != "refused" || outcomes[1] != "applied" {
					t.Fatalf("notices kept %v, want the forged one refused and the payer's applied", outcomes)
				}
				ledgerZero(t, a)
				// The provider's own notification again (a resend), and a
				// genuine one that reports another sum: each is answered,
				// kept with what was made of it, and changes nothing.
				before := walletMinor(t, a, op.Company.ID)
				for _, c := range []struct {
					name    string
					message func(string) ([]byte, http.Header)
					outcome string
				}{{"replayed", fc.replay, "replay"}, {"another sum", fc.otherSum, "mismatch"}} {
					body, hdr := c.message(tradeNo)
					if len(body) == 0 {
						t.Fatalf("%s: the fake has no notification of %s", c.name, tradeNo)
					}
					req, _ := http.NewRequest("POST", rig.public.URL+"/payment/v2/notify/"+fc.name, bytes.NewReader(body))
					req.Header = hdr.Clone()
					res, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					res.Body.Close()
					var last string
					if err := a.DB.GetContext(ctx, &last, `SELECT outcome FROM channel_notices ORDER BY id DESC LIMIT 1`); err != nil {
						t.Fatal(err)
					}
					if last != c.outcome {
						t.Errorf("%s notification kept as %q, want %q", c.name, last, c.outcome)
					}
					if got := getOrder(t, srv, op.Token, o.ID); got.PaymentStatus != flight.Paid || got.Status == flight.Holding {
						t.Errorf("after the %s notification the order is %s %s", c.name, got.Status, got.PaymentStatus)
					}
					if got := walletMinor(t, a, op.Company.ID); got != before {
						t.Errorf("after the %s notification the wallet holds %d, was %d", c.name, got, before)
					}
					var receipts int
					if err := a.DB.GetContext(ctx, &receipts, `SELECT COUNT(*) FROM ledger_transfers WHERE idempotency_key LIKE 'receipt-%'`); err != nil {
						t.Fatal(err)
					}
					if receipts != 1 {
						t.Errorf("after the %s notification the ledger holds %d receipts, want 1", c.name, receipts)
					}
				}
				ledgerZero(t, a)
				// Voided on the day: the money goes back through the
				// channel.
				voidThroughTheChannel(t, a, srv, op, o, fc.name, fc.refund, func() int64 { return fc.refunded(tradeNo) })
			})
		}
	}
}

// stripeMockURL starts stripe-mock for the test: its address, or "" where
// stripe-mock is not installed.
func stripeMockURL(t *testing.T) string {
	t.Helper()
	mock, stop, err := stripemock.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return mock
}

// needStripeMock is stripeMockURL for a test that cannot run without
// stripe-mock: it is skipped where stripe-mock is not installed.
func needStripeMock(t *testing.T) string {
	t.Helper()
	mock := stripeMockURL(t)
	if mock == "" {
		t.Skip("stripe-mock not installed (make stripe-mock)")
	}
	return mock
}

// stripeSucceeded posts srv Stripe's webhook that the payment intent of
// tradeNo succeeded for amount (minor units), signed as Stripe signs it
// with the endpoint secret signWith: the status the app answers.
func stripeSucceeded(t testing.TB, srv *httptest.Server, signWith, tradeNo string, amount int64) int {
	t.Helper()
	body := fmt.Sprintf(`{"id":"evt_1","object":"event","type":"payment_intent.succeeded","created":%d,
		"data":{"object":{"id":"pi_1","object":"payment_intent","amount":%d,"amount_received":%d,"currency":"cny",
		"status":"succeeded","metadata":{"out_trade_no":%q}}}}`, time.Now().Unix(), amount, amount, tradeNo)
	req := newRequest(t, "POST", srv.URL+"/payment/v2/notify/stripe", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(stripe.SignatureHeader, stripe.SignatureFor(signWith, time.Now(), []byte(body)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestStripePaysThroughTheAPI: a flight order paid by Stripe through the
// HTTP API on both engines, the payment intent created at stripe-mock
// (Stripe's own mock, which keeps no state: no payer can pay there), then
// settled by Stripe's webhook as Stripe signs it (Stripe-Signature,
// HMAC-SHA256 with the endpoint's secret): once, whatever is replayed;
// a webhook signed with another secret, or for another amount, changes
// nothing.
func TestStripePaysThroughTheAPI(t *testing.T) {
	t.Parallel()
	mock := needStripeMock(t)
	const secret = "whsec_voyage_test"
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			front := recordRefunds(t, mock)
			a, srv := newSeededApp(t, d, func(c *config.Config) {
				c.Payment.PublicURL = "https://voyage.example.com"
				c.Payment.Stripe = config.StripeConfig{SecretKey: "sk_test_123", WebhookSecret: secret, Endpoint: front.URL}
			})
			op := loginAs(t, srv, "demo-operator", "demo-pass-1")
			quoteID, _ := quoteFor(t, srv, op.Token)
			o := createOrder(t, srv, op.Token, quoteID, "stripe-1")
			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"stripe"}`,
				append(bearer(op.Token), "Idempotency-Key", "stripe-pay")...)
			var v flight.View
			_ = json.Unmarshal(env.Data, &v)
			if resp.StatusCode != 200 || v.Status != flight.Holding || v.Payment == nil || v.Payment.ClientSecret == "" {
				t.Fatalf("pay by Stripe: %d %+v", resp.StatusCode, env)
			}
			tradeNo := latestTradeNo(t, a)
			total := minorOf(t, o.Total.Amount)
			if code := stripeSucceeded(t, srv, "whsec_someone_else", tradeNo, total); code != http.StatusBadRequest {
				t.Fatalf("a webhook signed with another secret answered %d", code)
			}
			if code := stripeSucceeded(t, srv, secret, tradeNo, total-1); code == http.StatusOK {
				t.Fatal("a webhook for another amount was acknowledged")
			}
			if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Holding {
				t.Fatalf("after refused webhooks: %s", got.Status)
			}
			for range 2 {
				if code := stripeSucceeded(t, srv, secret, tradeNo, total); code != http.StatusOK {
					t.Fatalf("Stripe's webhook answered %d", code)
				}
			}
			got := getOrder(t, srv, op.Token, o.ID)
			if got.PaymentStatus != flight.Paid || got.PaymentChannel != "stripe" {
				t.Fatalf("after Stripe's webhook: %s %s", got.Status, got.PaymentStatus)
			}
			if outcomes := noticeOutcomes(t, a); strings.Join(outcomes, ",") != "refused,mismatch,applied,replay" {
				t.Fatalf("notices kept %v", outcomes)
			}
			ledgerZero(t, a)
			// Voided on the day: the money goes back by a Stripe refund of
			// the payment intent, under the refund's number as its
			// idempotency key.
			voidThroughTheChannel(t, a, srv, op, o, "stripe", payment.RefundDone, func() int64 {
				var sum int64
				for _, r := range front.refunds() {
					n, _ := strconv.ParseInt(r.Get("amount"), 10, 64)
					if !strings.HasPrefix(r.Get("payment_intent"), "pi_") || r.Get("idempotency") == "" {
						t.Errorf("a refund asked of Stripe without its intent or idempotency key: %v", r)
					}
					sum += n
				}
				return sum
			})
		})
	}
}
