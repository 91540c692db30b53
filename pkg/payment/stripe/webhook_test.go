package stripe

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment"
)

// testdata/payment_intent.json and testdata/charge.json are stripe-mock
// v0.203.0's answers to GET /v1/payment_intents/pi_1 and GET
// /v1/charges/ch_1 (its fixtures from Stripe's OpenAPI spec); event wraps
// one in the envelope Stripe's docs show for a webhook event ("Event
// object", https://docs.stripe.com/api/events/object).
func object(t *testing.T, file string, set map[string]any) map[string]any {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		obj[k] = v
	}
	return obj
}

func event(t *testing.T, typ string, obj map[string]any) []byte {
	t.Helper()
	body, err := json.Marshal(map[string]any{
		"id": "evt_3Voyage" + strings.ReplaceAll(typ, ".", "_"), "object": "event", "api_version": "2026-02-25.clover",
		"created": now.Add(-time.Minute).Unix(), "livemode": false, "pending_webhooks": 1,
		"request": map[string]any{"id": nil, "idempotency_key": "B2412PAID01"},
		"type":    typ, "data": map[string]any{"object": obj},
	})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func succeeded(t *testing.T) map[string]any {
	return object(t, "payment_intent.json", map[string]any{
		"id": "pi_3Voyage", "status": "succeeded", "amount": 12345, "amount_received": 12345, "currency": "usd",
		"metadata": map[string]string{"out_trade_no": "B2412PAID01"}, "latest_charge": "ch_3Voyage",
	})
}

func signed(body []byte, secret string, at time.Time) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/webhooks/stripe", strings.NewReader(string(body)))
	r.Header.Set(SignatureHeader, SignatureFor(secret, at, body))
	return r
}

func TestNotice(t *testing.T) {
	t.Parallel()
	paid := event(t, EventSucceeded, succeeded(t))
	failed := event(t, EventFailed, object(t, "payment_intent.json", map[string]any{
		"id": "pi_3Voyage", "status": "requires_payment_method", "amount": 12345, "currency": "usd",
		"metadata":           map[string]string{"out_trade_no": "B2412PAID01"},
		"last_payment_error": map[string]any{"type": "card_error", "code": "card_declined"},
	}))
	refund := func(amount int64, full bool) []byte {
		return event(t, EventRefunded, object(t, "charge.json", map[string]any{
			"id": "ch_3Voyage", "amount": 12345, "amount_refunded": amount, "refunded": full, "currency": "usd",
			"payment_intent": "pi_3Voyage", "created": now.Add(-time.Hour).Unix(), "balance_transaction": "txn_3Voyage",
			"metadata": map[string]string{"out_trade_no": "B2412PAID01"},
		}))
	}
	paidAt := time.Unix(now.Add(-time.Minute).Unix(), 0).UTC()
	cases := []struct {
		name string
		req  *http.Request
		body []byte
		want payment.Status
	}{
		{"succeeded", signed(paid, testSecret, now), paid,
			payment.Status{Key: "B2412PAID01", Reference: "pi_3Voyage", State: payment.StatePaid, Amount: 12345, Currency: "USD", PaidAt: paidAt}},
		{"signed 4 minutes ago", signed(paid, testSecret, now.Add(-4*time.Minute)), paid,
			payment.Status{Key: "B2412PAID01", Reference: "pi_3Voyage", State: payment.StatePaid, Amount: 12345, Currency: "USD", PaidAt: paidAt}},
		{"payment failed: the payer may try again", signed(failed, testSecret, now), failed,
			payment.Status{Key: "B2412PAID01", Reference: "pi_3Voyage", State: payment.StatePending, Amount: 12345, Currency: "USD"}},
		{"refunded in full", signed(refund(12345, true), testSecret, now), refund(12345, true),
			payment.Status{Key: "B2412PAID01", Reference: "pi_3Voyage", State: payment.StateRefunded, Amount: 12345, Currency: "USD", PaidAt: time.Unix(now.Add(-time.Hour).Unix(), 0).UTC()}},
		{"refunded in part", signed(refund(345, false), testSecret, now), refund(345, false),
			payment.Status{Key: "B2412PAID01", Reference: "pi_3Voyage", State: payment.StatePaid, Amount: 12345, Currency: "USD", PaidAt: time.Unix(now.Add(-time.Hour).Unix(), 0).UTC()}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ch := newChannel(t, "http://127.0.0.1:1")
			st, err := ch.Notice(context.Background(), c.req, c.body)
			if err != nil {
				t.Fatal(err)
			}
			if st != c.want {
				t.Fatalf("status = %+v\nwant     %+v", st, c.want)
			}
			// A replay of the same event answers the same.
			again, err := ch.Notice(context.Background(), c.req, c.body)
			if err != nil || again != st {
				t.Fatalf("replay = %+v, %v", again, err)
			}
		})
	}
}

func TestNoticeRefuses(t *testing.T) {
	t.Parallel()
	paid := event(t, EventSucceeded, succeeded(t))
	tampered := []byte(strings.Replace(string(paid), `"amount":12345`, `"amount":1`, 1))
	if string(tampered) == string(paid) {
		t.Fatal("the tampering changed nothing")
	}
	noKey := succeeded(t)
	noKey["metadata"] = map[string]string{}
	unsubscribed := event(t, "customer.created", map[string]any{"id": "cus_1", "object": "customer"})
	cases := []struct {
		name   string
		header string
		body   []byte
	}{
		{"no signature", "", paid},
		{"signed with another secret", SignatureFor("whsec_forged", now, paid), paid},
		{"amount changed after signing", SignatureFor(testSecret, now, paid), tampered},
		{"signed 6 minutes ago", SignatureFor(testSecret, now.Add(-6*time.Minute), paid), paid},
		{"signed 6 minutes ahead", SignatureFor(testSecret, now.Add(6*time.Minute), paid), paid},
		{"v0 scheme only", strings.Replace(SignatureFor(testSecret, now, paid), "v1=", "v0=", 1), paid},
		{"garbled header", "t=abc,v1=zz", paid},
		{"not json", SignatureFor(testSecret, now, []byte("hello")), []byte("hello")},
		{"intent without key", SignatureFor(testSecret, now, event(t, EventSucceeded, noKey)), event(t, EventSucceeded, noKey)},
		{"event type not subscribed", SignatureFor(testSecret, now, unsubscribed), unsubscribed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodPost, "/webhooks/stripe", strings.NewReader(string(c.body)))
			if c.header != "" {
				r.Header.Set(SignatureHeader, c.header)
			}
			st, err := newChannel(t, "http://127.0.0.1:1").Notice(context.Background(), r, c.body)
			if !errors.Is(err, payment.ErrBadNotice) || st != (payment.Status{}) {
				t.Fatalf("Notice = %+v, %v; want ErrBadNotice", st, err)
			}
		})
	}
}

func TestNoticeKeyFromCreatedIntent(t *testing.T) {
	t.Parallel()
	ch := newChannel(t, "http://127.0.0.1:1")
	ch.remember("B2412KNOWN", "pi_3Known")
	body := event(t, EventRefunded, object(t, "charge.json", map[string]any{
		"id": "ch_3Known", "amount": 500, "refunded": true, "currency": "jpy", "payment_intent": "pi_3Known", "metadata": map[string]string{},
	}))
	st, err := ch.Notice(context.Background(), signed(body, testSecret, now), body)
	if err != nil {
		t.Fatal(err)
	}
	if st.Key != "B2412KNOWN" || st.Reference != "pi_3Known" || st.State != payment.StateRefunded || st.Currency != "JPY" || st.Amount != 500 {
		t.Fatalf("status = %+v", st)
	}
}

func TestAck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err  error
		code int
	}{
		{nil, http.StatusOK},
		{payment.ErrBadNotice, http.StatusBadRequest},
		{errors.New("store down"), http.StatusBadRequest},
	}
	for _, c := range cases {
		w := httptest.NewRecorder()
		newChannel(t, "http://127.0.0.1:1").Ack(w, c.err)
		if w.Code != c.code {
			t.Errorf("Ack(%v) = %d, want %d", c.err, w.Code, c.code)
		}
	}
}
