package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/wechatpay"
	"github.com/voyage/voyage/pkg/train"
)

// channelRefund is what a booking's refund through its channel left: the
// refund's record.
type channelRefund struct {
	State     string `db:"state"`
	Amount    int64  `db:"amount"`
	Channel   string `db:"channel"`
	Reference string `db:"reference"`
	Detail    string `db:"detail"`
}

// refundsOf are the channel refunds of a line's booking, oldest first.
func refundsOf(t *testing.T, a *app.App, line string, bookingID int64) []channelRefund {
	t.Helper()
	var rows []channelRefund
	if err := a.DB.SelectContext(context.Background(), &rows, a.DB.Rebind(`SELECT state, amount, channel, reference, detail
		FROM channel_refunds WHERE line = ? AND booking_id = ? ORDER BY id`), line, bookingID); err != nil {
		t.Fatal(err)
	}
	return rows
}

// voidThroughTheChannel tickets a flight order paid by channel, voids it
// on the day through the API (the agency asks, the provider approves: the
// price less the service fee is given back) and works the queue, which
// asks the channel for the refund. It checks that the refund went to the
// channel for the void's amount (refunded, what the channel's fake holds,
// when it keeps state), in the state the channel leaves it (done, or
// processing for a channel that settles refunds later), that the wallet
// ends where it was before the void, and that finance finds the refund in
// Transactions.
func voidThroughTheChannel(t *testing.T, a *app.App, srv *httptest.Server, op meData, o flight.View, channel, state string,
	refunded func() int64) {
	t.Helper()
	ctx := context.Background()
	if err := a.Orders.Ticket(ctx, o.ID, false); err != nil {
		t.Fatal(err)
	}
	if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Issued {
		t.Fatalf("order %s after ticketing", got.Status)
	}
	before := walletMinor(t, a, op.Company.ID)
	finance := loginAs(t, srv, "demo-finance", "demo-pass-1").Token
	txBefore := transactions(t, srv, finance)
	v := askVoid(t, srv, op.Token, o.ID)
	provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
	reviewAfterSale(t, srv, provider, v.ID, "approve")
	voided := getOrder(t, srv, op.Token, v.ID)
	if voided.Status != flight.VoidedReimbursed {
		t.Fatalf("void order %s", voided.Status)
	}
	back := minorOf(t, voided.Total.Amount)
	if back <= 0 || back > minorOf(t, o.Total.Amount) {
		t.Fatalf("void gives back %d of %s", back, o.Total.Amount)
	}
	runJobs(t, a)
	jobsWorked(t, a)
	rs := refundsOf(t, a, "flight", o.ID)
	if len(rs) != 1 || rs[0].Amount != back || rs[0].Channel != channel || rs[0].State != state || rs[0].Reference == "" {
		t.Fatalf("refunds through %s: %+v, want one %s of %d", channel, rs, state, back)
	}
	if refunded != nil {
		if got := refunded(); got != back {
			t.Fatalf("%s holds %d refunded, want %d", channel, got, back)
		}
	}
	// The wallet took the void's money in and sent it on to the channel.
	if after := walletMinor(t, a, op.Company.ID); after != before {
		t.Fatalf("wallet %d before the void, %d after: the refund went to the channel, not the wallet", before, after)
	}
	txAfter := transactions(t, srv, finance)
	if len(txAfter) != len(txBefore)+1 || txAfter[0].PaymentMethod != channel || txAfter[0].OriginalID != v.BookingNumber ||
		minorOf(t, txAfter[0].Net) != -back {
		t.Fatalf("Transactions after the refund: %d then %d, newest %+v", len(txBefore), len(txAfter), txAfter[0])
	}
	// The wallet entries list it under its own type, translated.
	super := loginAs(t, srv, "demo-super", "demo-pass-1").Token
	for lang, label := range map[string]string{"en": "Refund to the payment channel", "zh-CN": "退回原支付渠道", "zh-TW": "退回原付款管道"} {
		resp, env := call(t, srv, "GET", "/base/v2/wallet/entries?type="+ledger.TypeChannelRefund, lang, "", bearer(super)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), v.BookingNumber) {
			t.Fatalf("wallet entries of type %s: %d %s", ledger.TypeChannelRefund, resp.StatusCode, env.Data)
		}
		_, body := get(t, portalAs(t, srv, finance), srv.URL+"/bills/wallet?type="+ledger.TypeChannelRefund, "Accept-Language", lang)
		if !strings.Contains(body, label) {
			t.Fatalf("the wallet page (%s) does not name the channel refund %q", lang, label)
		}
	}
	ledgerZero(t, a)
}

// TestRefundsGoBackThroughWeChatPay: through the HTTP API on both engines,
// a flight order paid by WeChat Pay and refunded (the agency asks, the
// provider quotes, the agency confirms), and a train order of two paid by
// WeChat Pay with one passenger refunded (a partial refund, less the
// railway's fee): each refund ends at WeChat Pay's fake for the sum given
// back, and the wallet, which never paid, ends where it was. A refund
// WeChat Pay does not answer is asked again (River's retry) and done once;
// one WeChat Pay refuses (the merchant refunded most of the payment in its
// console meanwhile) fails, and its sum is back in the wallet.
func TestRefundsGoBackThroughWeChatPay(t *testing.T) {
	t.Parallel()
	seededWithWeChatPay(t, func(t *testing.T, a *app.App, srv *httptest.Server, rig *weChatRig) {
		ctx := context.Background()
		demo, start, opToken := fundedTrainAgent(t, a, srv, "10000.00")
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
		tradeNoOf := func(line string, id int64) string {
			t.Helper()
			var no string
			if err := a.DB.GetContext(ctx, &no, a.DB.Rebind(`SELECT trade_no FROM channel_payments WHERE line = ? AND booking_id = ? AND state = 'paid'`),
				line, id); err != nil {
				t.Fatal(err)
			}
			return no
		}
		refundedAt := func(tradeNo string) int64 {
			p, _ := rig.fake.Payment(tradeNo)
			return p.Refunded
		}

		t.Run("flight refund", func(t *testing.T) {
			quoteID, _ := quoteFor(t, srv, opToken)
			o := createOrder(t, srv, opToken, quoteID, "wx-refund")
			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"wechat-pay"}`,
				append(bearer(opToken), "Idempotency-Key", "wx-refund-pay")...)
			if resp.StatusCode != 200 {
				t.Fatalf("pay by WeChat: %d %+v", resp.StatusCode, env)
			}
			payLatestByWeChat(t, a, rig)
			waitStatus(t, srv, opToken, o.ID, flight.Issued)
			rf := askRefund(t, srv, opToken, o.ID)
			quoted := reviewAfterSale(t, srv, provider, rf.ID, "approve")
			back := minorOf(t, quoted.PriceBreakdown.RefundAmount.Amount)
			if back <= 0 || back > minorOf(t, o.Total.Amount) {
				t.Fatalf("refund of %d for %s paid", back, o.Total.Amount)
			}
			resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/confirmation", rf.ID), "en", "", bearer(opToken)...)
			if resp.StatusCode != 200 {
				t.Fatalf("confirm refund: %d %+v", resp.StatusCode, env)
			}
			waitStatus(t, srv, opToken, rf.ID, flight.RefundedReimbursed)
			jobsWorked(t, a)
			rs := refundsOf(t, a, "flight", o.ID)
			if len(rs) != 1 || rs[0].State != "done" || rs[0].Amount != back || rs[0].Channel != "wechat-pay" {
				t.Fatalf("refunds %+v, want one done of %d by WeChat Pay", rs, back)
			}
			if got := refundedAt(tradeNoOf("flight", o.ID)); got != back {
				t.Fatalf("WeChat Pay refunded %d, want %d", got, back)
			}
			if w := walletMinor(t, a, demo); w != start {
				t.Fatalf("wallet %d, want %d: the refund went to the payer's WeChat Pay", w, start)
			}
		})

		// paidByWeChat is a flight order paid by WeChat Pay and issued, and
		// its payment's merchant order number.
		paidByWeChat := func(t *testing.T, key string) (flight.View, string) {
			t.Helper()
			quoteID, _ := quoteFor(t, srv, opToken)
			o := createOrder(t, srv, opToken, quoteID, key)
			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"wechat-pay"}`,
				append(bearer(opToken), "Idempotency-Key", key+"-pay")...)
			if resp.StatusCode != 200 {
				t.Fatalf("pay by WeChat: %d %+v", resp.StatusCode, env)
			}
			payLatestByWeChat(t, a, rig)
			waitStatus(t, srv, opToken, o.ID, flight.Issued)
			return o, tradeNoOf("flight", o.ID)
		}
		// voidOrder has the agency ask to void o and the provider approve:
		// the sum given back.
		voidOrder := func(t *testing.T, o flight.View) int64 {
			t.Helper()
			v := askVoid(t, srv, opToken, o.ID)
			reviewAfterSale(t, srv, provider, v.ID, "approve")
			return minorOf(t, getOrder(t, srv, opToken, v.ID).Total.Amount)
		}
		refundState := func(t *testing.T, o flight.View, want string) channelRefund {
			t.Helper()
			var rs []channelRefund
			until(t, 30*time.Second, func() error {
				if rs = refundsOf(t, a, "flight", o.ID); len(rs) != 1 || rs[0].State != want {
					return fmt.Errorf("refunds %+v, want one %s", rs, want)
				}
				return nil
			})
			return rs[0]
		}

		t.Run("WeChat Pay does not answer: asked again", func(t *testing.T) {
			o, tradeNo := paidByWeChat(t, "wx-timeout")
			// WeChat Pay answers the refund 503; River asks again.
			rig.fake.FailNext(http.StatusServiceUnavailable)
			back := voidOrder(t, o)
			rf := refundState(t, o, "done")
			if rf.Amount != back || refundedAt(tradeNo) != back {
				t.Fatalf("refund %+v, WeChat Pay refunded %d, want %d", rf, refundedAt(tradeNo), back)
			}
			var attempt int
			if err := a.DB.GetContext(ctx, &attempt, `SELECT attempt FROM river_job WHERE kind = 'payment_channel_refund' ORDER BY id DESC LIMIT 1`); err != nil {
				t.Fatal(err)
			}
			if attempt != 2 {
				t.Fatalf("the refund was asked in %d attempts, want 2 (the first not answered)", attempt)
			}
			if w := walletMinor(t, a, demo); w != start {
				t.Fatalf("wallet %d, want %d", w, start)
			}
		})

		t.Run("WeChat Pay refuses: back in the wallet", func(t *testing.T) {
			o, tradeNo := paidByWeChat(t, "wx-refused")
			// The merchant refunded most of it in WeChat Pay's console
			// meanwhile: Voyage's refund exceeds what is left there.
			console, err := wechatpay.New(rig.fake.ChannelConfig(rig.api.URL, time.Now))
			if err != nil {
				t.Fatal(err)
			}
			total := minorOf(t, o.Total.Amount)
			if _, err := console.Refund(ctx, payment.Refund{Key: tradeNo, RefundKey: "console-1", Amount: total - 1, Currency: "CNY",
				Total: total}); err != nil {
				t.Fatal(err)
			}
			back := voidOrder(t, o)
			rf := refundState(t, o, "failed")
			if rf.Amount != back || rf.Detail == "" || refundedAt(tradeNo) != total-1 {
				t.Fatalf("refund %+v; WeChat Pay refunded %d", rf, refundedAt(tradeNo))
			}
			// The void's money is the agency's, in its wallet: out to the
			// channel and back.
			if w := walletMinor(t, a, demo); w != start+back {
				t.Fatalf("wallet %d, want %d", w, start+back)
			}
			start += back
		})

		t.Run("train partial refund", func(t *testing.T) {
			offer := secondClassOffer(t, srv, opToken, 3, 2)
			resp, env, v := bookTrain(t, srv, opToken, offer.ID, twoPassengers, "wx-train")
			if resp.StatusCode != 201 {
				t.Fatalf("book: %d %+v", resp.StatusCode, env)
			}
			resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/payment", v.ID), "en", `{"channel":"wechat-pay"}`,
				append(bearer(opToken), "Idempotency-Key", "wx-train-pay")...)
			if resp.StatusCode != 200 {
				t.Fatalf("pay by WeChat: %d %+v", resp.StatusCode, env)
			}
			payLatestByWeChat(t, a, rig)
			waitTrain(t, srv, opToken, v.ID, train.Issued)
			resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/refund", v.ID), "en", `{"passengers":[2]}`, bearer(opToken)...)
			var q train.RefundQuoteView
			_ = json.Unmarshal(env.Data, &q)
			if resp.StatusCode != 200 || q.Status != train.RfdToBeConfirm {
				t.Fatalf("refund quote: %d %+v", resp.StatusCode, env)
			}
			back := parseCNY(t, q.RefundAmount)
			resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/confirmation", v.ID), "en", "", bearer(opToken)...)
			var done train.View
			_ = json.Unmarshal(env.Data, &done)
			if resp.StatusCode != 200 || done.Status != train.PartiallyRefunded {
				t.Fatalf("confirm refund: %d %+v", resp.StatusCode, env)
			}
			jobsWorked(t, a)
			total := parseCNY(t, v.Total)
			rs := refundsOf(t, a, "train", v.ID)
			if len(rs) != 1 || rs[0].State != "done" || rs[0].Amount != back || back <= 0 || back >= total {
				t.Fatalf("refunds %+v, want one done of %d (of %d paid)", rs, back, total)
			}
			tradeNo := tradeNoOf("train", v.ID)
			if got := refundedAt(tradeNo); got != back {
				t.Fatalf("WeChat Pay refunded %d, want %d", got, back)
			}
			if p, _ := rig.fake.Payment(tradeNo); p.Total != total {
				t.Fatalf("WeChat Pay holds a payment of %d, want %d", p.Total, total)
			}
			if w := walletMinor(t, a, demo); w != start {
				t.Fatalf("wallet %d, want %d", w, start)
			}
		})
		ledgerZero(t, a)
	})
}

// refundRecorder stands in front of stripe-mock, which keeps no state:
// it keeps the refunds asked of Stripe (their form, and the
// Idempotency-Key as "idempotency"), and answers payment intents in CNY,
// the orders' currency, where stripe-mock's fixture says USD.
type refundRecorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []url.Values
}

func (r *refundRecorder) refunds() []url.Values {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]url.Values(nil), r.seen...)
}

var usd = regexp.MustCompile(`"currency":(\s*)"usd"`)

func recordRefunds(t *testing.T, mock string) *refundRecorder {
	t.Helper()
	target, err := url.Parse(mock)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(res *http.Response) error {
		if !strings.HasPrefix(res.Request.URL.Path, "/v1/payment_intents") {
			return nil
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		body = usd.ReplaceAll(body, []byte(`"currency":$1"cny"`))
		res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		res.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	rec := &refundRecorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost && req.URL.Path == "/v1/refunds" {
			body, _ := io.ReadAll(req.Body)
			form, _ := url.ParseQuery(string(body))
			form.Set("idempotency", req.Header.Get("Idempotency-Key"))
			rec.mu.Lock()
			rec.seen = append(rec.seen, form)
			rec.mu.Unlock()
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(rec.Close)
	return rec
}
