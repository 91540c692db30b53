package wechatpay_test

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/clock/clocktest"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/paymenttest"
	"github.com/voyage/voyage/pkg/payment/wechatpay"
	"github.com/voyage/voyage/pkg/payment/wechatpay/wechatpaytest"
)

var start = time.Date(2026, 12, 3, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))

// env is a channel talking to a fake WeChat Pay, and the merchant's
// notification endpoint serving Notice and Ack.
type env struct {
	t      *testing.T
	clock  *clocktest.Clock
	fake   *wechatpaytest.Server
	api    *httptest.Server
	ch     *wechatpay.Channel
	cfg    wechatpay.Config
	notify *httptest.Server

	mu      sync.Mutex
	notices []notice
}

type notice struct {
	st  payment.Status
	err error
}

func newEnv(t *testing.T, opts wechatpaytest.Options) *env {
	t.Helper()
	e := &env{t: t, clock: clocktest.New(start)}
	opts.Now = e.clock.Now
	opts.Wait = func(time.Duration) {}
	e.fake = wechatpaytest.New(opts)
	e.api = httptest.NewServer(e.fake)
	t.Cleanup(e.api.Close)
	e.cfg = e.fake.ChannelConfig(e.api.URL, e.clock.Now)
	ch, err := wechatpay.New(e.cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.ch = ch
	e.notify = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, payment.MaxNotice))
		if err != nil {
			t.Errorf("read notice: %v", err)
		}
		st, err := e.ch.Notice(r.Context(), r, body)
		e.mu.Lock()
		e.notices = append(e.notices, notice{st, err})
		e.mu.Unlock()
		e.ch.Ack(w, err)
	}))
	t.Cleanup(e.notify.Close)
	return e
}

func (e *env) received() []notice {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]notice(nil), e.notices...)
}

func (e *env) create(key string, amount int64) payment.Pending {
	e.t.Helper()
	p, err := e.ch.Create(context.Background(), payment.Create{
		Key: key, Amount: amount, Currency: "CNY", Subject: "Flight order " + key,
		NotifyURL: e.notify.URL + "/notify/wechat-pay", ExpiresAt: start.Add(30 * time.Minute),
	})
	if err != nil {
		e.t.Fatalf("create %s: %v", key, err)
	}
	return p
}

func (e *env) paid(key string, amount int64) {
	e.t.Helper()
	e.create(key, amount)
	if err := e.fake.Pay(key); err != nil {
		e.t.Fatalf("pay %s: %v", key, err)
	}
}

func TestCreatePayNotifyStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	ctx := context.Background()
	p := e.create("B2412030001", 123456)
	if !strings.HasPrefix(p.QRCode, "weixin://wxpay/bizpayurl?pr=") || !p.ExpiresAt.Equal(start.Add(30*time.Minute)) {
		t.Fatalf("pending = %+v", p)
	}
	if again := e.create("B2412030001", 123456); again.QRCode != p.QRCode {
		t.Errorf("retry answered code %q, first %q", again.QRCode, p.QRCode)
	}
	fp, _ := e.fake.Payment("B2412030001")
	if fp.TimeExpire.IsZero() || !fp.TimeExpire.Equal(start.Add(30*time.Minute)) || fp.Description != "Flight order B2412030001" {
		t.Errorf("fake holds %+v", fp)
	}
	st, err := e.ch.Status(ctx, "B2412030001")
	if err != nil || st.State != payment.StatePending || st.Amount != 123456 || st.Currency != "CNY" {
		t.Fatalf("status before paying = %+v, %v", st, err)
	}

	e.clock.Add(time.Minute)
	if err := e.fake.Pay("B2412030001"); err != nil {
		t.Fatal(err)
	}
	ds := e.fake.Notifications()
	if len(ds) != 1 || ds[0].Status != http.StatusNoContent || len(ds[0].Answer) != 0 {
		t.Fatalf("deliveries = %+v", ds)
	}
	notices := e.received()
	if len(notices) != 1 || notices[0].err != nil {
		t.Fatalf("notices = %+v", notices)
	}
	fp, _ = e.fake.Payment("B2412030001")
	want := payment.Status{Key: "B2412030001", Reference: fp.TransactionID, State: payment.StatePaid,
		Amount: 123456, Currency: "CNY", PaidAt: start.Add(time.Minute)}
	if got := notices[0].st; !sameStatus(got, want) {
		t.Errorf("notice = %+v, want %+v", got, want)
	}
	st, err = e.ch.Status(ctx, "B2412030001")
	if err != nil || !sameStatus(st, want) {
		t.Errorf("status = %+v, %v; want %+v", st, err, want)
	}
	// 0.6% of 1234.56 yuan, in fen; the API does not report it.
	if fee := e.fake.Fee("B2412030001"); fee != 741 {
		t.Errorf("fake fee = %d, want 741", fee)
	}
	if _, err := e.ch.Create(ctx, payment.Create{Key: "B2412030001", Amount: 123456, Currency: "CNY",
		Subject: "Flight order B2412030001", NotifyURL: e.notify.URL}); !errors.Is(err, payment.ErrAlreadyPaid) {
		t.Errorf("create of a paid key: %v, want ErrAlreadyPaid", err)
	}
}

func sameStatus(a, b payment.Status) bool {
	return a.Key == b.Key && a.Reference == b.Reference && a.State == b.State && a.Amount == b.Amount &&
		a.Currency == b.Currency && a.Fee == b.Fee && a.PaidAt.Equal(b.PaidAt)
}

func TestCreateRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	ctx := context.Background()
	ok := payment.Create{Key: "B2412030002", Amount: 100, Currency: "CNY", Subject: "x", NotifyURL: e.notify.URL}
	for _, c := range []struct {
		name string
		edit func(*payment.Create)
	}{
		{"currency", func(c *payment.Create) { c.Currency = "USD" }},
		{"amount", func(c *payment.Create) { c.Amount = 0 }},
		{"notify url", func(c *payment.Create) { c.NotifyURL = "" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			cr := ok
			c.edit(&cr)
			if _, err := e.ch.Create(ctx, cr); err == nil {
				t.Error("created")
			}
		})
	}
	// Another order under a used key is WeChat Pay's OUT_TRADE_NO_USED.
	e.create("B2412030002", 100)
	_, err := e.ch.Create(ctx, payment.Create{Key: "B2412030002", Amount: 200, Currency: "CNY", Subject: "Flight order B2412030002", NotifyURL: e.notify.URL})
	var apiErr *wechatpay.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "OUT_TRADE_NO_USED" {
		t.Errorf("another order under a used key: %v", err)
	}
	_, err = e.ch.Create(ctx, payment.Create{Key: "B2412030002", Amount: 100, Currency: "CNY", Subject: "Flight order B2412030002",
		NotifyURL: e.notify.URL, ExpiresAt: start.Add(time.Hour)})
	if !errors.As(err, &apiErr) || apiErr.Code != "OUT_TRADE_NO_USED" {
		t.Errorf("a used key with another time_expire: %v", err)
	}
	// A long subject is cut to 127 bytes on a rune boundary.
	long := strings.Repeat("机票", 40)
	if _, err := e.ch.Create(ctx, payment.Create{Key: "B2412030003", Amount: 100, Currency: "CNY", Subject: long, NotifyURL: e.notify.URL}); err != nil {
		t.Fatal(err)
	}
	if fp, _ := e.fake.Payment("B2412030003"); len(fp.Description) != 126 || !strings.HasPrefix(long, fp.Description) {
		t.Errorf("description %q (%d bytes)", fp.Description, len(fp.Description))
	}
}

func TestNotice(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	e.paid("B2412030010", 5000)
	n, err := e.fake.BuildNotification("B2412030010")
	if err != nil {
		t.Fatal(err)
	}
	fp, _ := e.fake.Payment("B2412030010")
	var tx map[string]any
	if err := json.Unmarshal(n.Transaction, &tx); err != nil {
		t.Fatal(err)
	}
	reseal := func(edit func(map[string]any)) wechatpaytest.Notice {
		c := map[string]any{}
		for k, v := range tx {
			c[k] = v
		}
		c["amount"] = map[string]any{"total": 5000, "payer_total": 5000, "currency": "CNY", "payer_currency": "CNY"}
		edit(c)
		b, _ := json.Marshal(c)
		return e.fake.SealTransaction(b)
	}
	withHeader := func(h http.Header, k, v string) http.Header {
		h = h.Clone()
		h.Set(k, v)
		return h
	}
	envelope := func(edit func(map[string]any)) []byte {
		var m map[string]any
		_ = json.Unmarshal(n.Body, &m)
		edit(m)
		b, _ := json.Marshal(m)
		return b
	}
	otherAmount := reseal(func(c map[string]any) {
		c["amount"] = map[string]any{"total": 1, "payer_total": 1, "currency": "CNY", "payer_currency": "CNY"}
	})
	wrongEvent := envelope(func(m map[string]any) { m["event_type"] = "REFUND.SUCCESS" })
	badCipher := envelope(func(m map[string]any) {
		r := m["resource"].(map[string]any)
		ct, _ := base64.StdEncoding.DecodeString(r["ciphertext"].(string))
		ct[0] ^= 1
		r["ciphertext"] = base64.StdEncoding.EncodeToString(ct)
	})
	other := reseal(func(c map[string]any) { c["mchid"] = "1900000109" })
	want := payment.Status{Key: "B2412030010", Reference: fp.TransactionID, State: payment.StatePaid,
		Amount: 5000, Currency: "CNY", PaidAt: start}

	cases := []struct {
		name   string
		header http.Header
		body   []byte
		skew   time.Duration // the merchant's clock ahead of the signature
		want   payment.Status
		err    error
	}{
		{name: "genuine", header: n.Header, body: n.Body, want: want},
		{name: "replayed within 5 minutes verifies the same", header: n.Header, body: n.Body, skew: 4 * time.Minute, want: want},
		{name: "stale timestamp", header: n.Header, body: n.Body, skew: 6 * time.Minute, err: payment.ErrBadNotice},
		{name: "timestamp from the future", header: n.Header, body: n.Body, skew: -6 * time.Minute, err: payment.ErrBadNotice},
		{name: "forged signature", header: withHeader(n.Header, "Wechatpay-Signature", sign(wechatpaytest.TestKeys().Merchant, n.Body)), body: n.Body, err: payment.ErrBadNotice},
		{name: "signature test probe", header: withHeader(n.Header, "Wechatpay-Signature", "WECHATPAY/SIGNTEST/"+n.Header.Get("Wechatpay-Signature")), body: n.Body, err: payment.ErrBadNotice},
		{name: "unknown serial", header: withHeader(n.Header, "Wechatpay-Serial", "PUB_KEY_ID_OTHER"), body: n.Body, err: payment.ErrBadNotice},
		{name: "unsigned", header: http.Header{"Content-Type": {"application/json"}}, body: n.Body, err: payment.ErrBadNotice},
		{name: "tampered amount under the genuine signature", header: n.Header, body: otherAmount.Body, err: payment.ErrBadNotice},
		// WeChat Pay's own signature over another amount verifies: the
		// notice shows that amount and the protocol upstream refuses it.
		{name: "another amount signed by WeChat Pay", header: otherAmount.Header, body: otherAmount.Body,
			want: payment.Status{Key: "B2412030010", Reference: fp.TransactionID, State: payment.StatePaid, Amount: 1, Currency: "CNY", PaidAt: start}},
		{name: "another merchant's transaction", header: other.Header, body: other.Body, err: payment.ErrBadNotice},
		{name: "another event", header: e.fake.SignNotification(wrongEvent), body: wrongEvent, err: payment.ErrBadNotice},
		{name: "ciphertext tampered and signed", header: e.fake.SignNotification(badCipher), body: badCipher, err: payment.ErrBadNotice},
		{name: "not JSON", header: e.fake.SignNotification([]byte("<xml/>")), body: []byte("<xml/>"), err: payment.ErrBadNotice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ch, err := wechatpay.New(e.fake.ChannelConfig(e.api.URL, func() time.Time { return start.Add(c.skew) }))
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest(http.MethodPost, "/notify/wechat-pay", bytes.NewReader(c.body))
			r.Header = c.header.Clone()
			for range 2 {
				st, err := ch.Notice(context.Background(), r, c.body)
				if c.err != nil {
					if !errors.Is(err, c.err) {
						t.Fatalf("err = %v, want %v", err, c.err)
					}
					continue
				}
				if err != nil || !sameStatus(st, c.want) {
					t.Fatalf("notice = %+v, %v; want %+v", st, err, c.want)
				}
			}
		})
	}
}

// sign is a signature over a body in WeChat Pay's form, by key.
func sign(key *rsa.PrivateKey, body []byte) string {
	sum := sha256.Sum256(body)
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(sig)
}

func TestRedeliveryAndReplay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	e.paid("B2412030011", 700)
	// WeChat Pay repeats notifications; each verifies to the same status.
	if err := e.fake.Notify("B2412030011"); err != nil {
		t.Fatal(err)
	}
	ds := e.fake.Notifications()
	if len(ds) != 2 || ds[0].ID != ds[1].ID || !bytes.Equal(ds[0].Body, ds[1].Body) {
		t.Fatalf("deliveries = %+v", ds)
	}
	if notices := e.received(); len(notices) != 2 || notices[0].err != nil || !sameStatus(notices[0].st, notices[1].st) {
		t.Errorf("notices = %+v", notices)
	}
}

func TestStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	ctx := context.Background()
	e.create("B2412030020", 100)
	e.create("B2412030021", 100)
	e.create("B2412030022", 100)
	e.paid("B2412030023", 100)
	if err := e.fake.Decline("B2412030020"); err != nil {
		t.Fatal(err)
	}
	if err := e.fake.Expire("B2412030021"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ch.Refund(ctx, payment.Refund{Key: "B2412030023", RefundKey: "R1", Amount: 30, Total: 100, Currency: "CNY"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key   string
		state string
		err   error
	}{
		{"B2412030020", payment.StateClosed, nil},
		{"B2412030021", payment.StateClosed, nil},
		{"B2412030022", payment.StatePending, nil},
		{"B2412030023", payment.StatePaid, nil}, // REFUND: partly refunded, still paid
		{"B2412039999", "", payment.ErrUnknownPayment},
	} {
		t.Run(c.key, func(t *testing.T) {
			t.Parallel()
			st, err := e.ch.Status(ctx, c.key)
			if !errors.Is(err, c.err) || (c.err == nil && err != nil) || st.State != c.state {
				t.Errorf("status = %+v, %v; want %s, %v", st, err, c.state, c.err)
			}
		})
	}
}

func TestStatusAfterTimeExpire(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	e.create("B2412030024", 100)
	e.clock.Add(31 * time.Minute)
	st, err := e.ch.Status(context.Background(), "B2412030024")
	if err != nil || st.State != payment.StateClosed {
		t.Errorf("status past time_expire = %+v, %v", st, err)
	}
	if err := e.fake.Pay("B2412030024"); err == nil {
		t.Error("an expired order was paid")
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	e.create("B2412030030", 100)
	e.paid("B2412030031", 100)
	e.create("B2412030032", 100)
	if err := e.fake.Expire("B2412030032"); err != nil {
		t.Fatal(err)
	}
	paymenttest.CheckClose(t, e.ch,
		paymenttest.Closed{Name: "pending", Key: "B2412030030", State: payment.StateClosed},
		paymenttest.Closed{Name: "pending again", Key: "B2412030030", State: payment.StateClosed},
		paymenttest.Closed{Name: "paid", Key: "B2412030031", Err: payment.ErrAlreadyPaid, State: payment.StatePaid},
		paymenttest.Closed{Name: "closed", Key: "B2412030032", State: payment.StateClosed},
		paymenttest.Closed{Name: "unknown", Key: "B2412039999"},
	)
	if err := e.fake.Pay("B2412030030"); err == nil {
		t.Error("a closed order was paid")
	}
}

func TestRefund(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, wechatpaytest.Options{})
	e.paid("B2412030040", 10000)
	e.create("B2412030041", 10000)
	steps := []struct {
		name     string
		r        payment.Refund
		done     bool
		err      error
		apiCode  string
		refunded int64
	}{
		{name: "partial", r: payment.Refund{Key: "B2412030040", RefundKey: "B2412030040-r1", Amount: 3000, Total: 10000, Currency: "CNY", Reason: "改签"}, done: true, refunded: 3000},
		{name: "same refund key refunds once", r: payment.Refund{Key: "B2412030040", RefundKey: "B2412030040-r1", Amount: 3000, Total: 10000, Currency: "CNY"}, done: true, refunded: 3000},
		{name: "more than is left", r: payment.Refund{Key: "B2412030040", RefundKey: "B2412030040-r2", Amount: 7001, Total: 10000, Currency: "CNY"}, apiCode: "INVALID_REQUEST", refunded: 3000},
		{name: "the rest", r: payment.Refund{Key: "B2412030040", RefundKey: "B2412030040-r3", Amount: 7000, Total: 10000, Currency: "CNY"}, done: true, refunded: 10000},
		{name: "unpaid", r: payment.Refund{Key: "B2412030041", RefundKey: "B2412030041-r1", Amount: 1, Total: 10000, Currency: "CNY"}, apiCode: "INVALID_REQUEST"},
		{name: "unknown", r: payment.Refund{Key: "B2412039999", RefundKey: "B2412039999-r1", Amount: 1, Total: 1, Currency: "CNY"}, err: payment.ErrUnknownPayment},
	}
	var first string
	for _, s := range steps {
		res, err := e.ch.Refund(ctx, s.r)
		var apiErr *wechatpay.APIError
		switch {
		case s.err != nil:
			if !errors.Is(err, s.err) {
				t.Errorf("%s: err = %v, want %v", s.name, err, s.err)
			}
		case s.apiCode != "":
			if !errors.As(err, &apiErr) || apiErr.Code != s.apiCode {
				t.Errorf("%s: err = %v, want %s", s.name, err, s.apiCode)
			}
		case err != nil || res.Done != s.done || res.Reference == "":
			t.Errorf("%s: refund = %+v, %v", s.name, res, err)
		}
		if s.name == "partial" {
			first = res.Reference
		}
		if s.name == "same refund key refunds once" && res.Reference != first {
			t.Errorf("retry answered refund %q, first %q", res.Reference, first)
		}
		if s.r.Key == "B2412030040" {
			if fp, _ := e.fake.Payment(s.r.Key); fp.Refunded != s.refunded {
				t.Errorf("%s: refunded %d, want %d", s.name, fp.Refunded, s.refunded)
			}
		}
	}

	pe := newEnv(t, wechatpaytest.Options{RefundStatus: "PROCESSING"})
	pe.paid("B2412030042", 500)
	res, err := pe.ch.Refund(ctx, payment.Refund{Key: "B2412030042", RefundKey: "B2412030042-r1", Amount: 500, Total: 500, Currency: "CNY"})
	if err != nil || res.Done || res.Reference == "" {
		t.Errorf("processing refund = %+v, %v", res, err)
	}
	if q, err := pe.ch.Client().QueryRefund(ctx, payment.TradeNo("B2412030042-r1")); err != nil || q.Status != "PROCESSING" || q.RefundID != res.Reference {
		t.Errorf("refund query = %+v, %v", q, err)
	}
	if err := pe.fake.SettleRefund(payment.TradeNo("B2412030042-r1"), "SUCCESS"); err != nil {
		t.Fatal(err)
	}
	if q, err := pe.ch.Client().QueryRefund(ctx, payment.TradeNo("B2412030042-r1")); err != nil || q.Status != "SUCCESS" || q.Amount.Refund != 500 {
		t.Errorf("refund query after settling = %+v, %v", q, err)
	}
	var apiErr *wechatpay.APIError
	if _, err := pe.ch.Client().QueryRefund(ctx, "nope"); !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound {
		t.Errorf("query of an unknown refund = %v", err)
	}
}

func TestAck(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	for _, c := range []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"received", nil, http.StatusNoContent, ""},
		{"does not verify", fmt.Errorf("x: %w", payment.ErrBadNotice), http.StatusBadRequest, `{"code":"FAIL","message":"失败"}`},
		{"failed here", errors.New("database down"), http.StatusInternalServerError, `{"code":"FAIL","message":"失败"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			e.ch.Ack(w, c.err)
			if w.Code != c.status || strings.TrimSpace(w.Body.String()) != c.body {
				t.Errorf("ack = %d %q, want %d %q", w.Code, w.Body.String(), c.status, c.body)
			}
		})
	}
}

func TestUnansweredIsTimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		setup func(e *env) (cleanup func())
	}{
		{"500", func(e *env) func() { e.fake.FailNext(500); return func() {} }},
		{"503", func(e *env) func() { e.fake.FailNext(503); return func() {} }},
		{"429", func(e *env) func() { e.fake.FailNext(429); return func() {} }},
		{"no answer", func(e *env) func() { return e.fake.Hold() }},
		{"connection refused", func(e *env) func() { e.api.Close(); return func() {} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, wechatpaytest.Options{})
			e.create("B2412030050", 100)
			cfg := e.cfg
			// The caller's client has no timeout of its own: the
			// channel's applies.
			cfg.HTTPClient = &http.Client{}
			cfg.Timeout = 200 * time.Millisecond
			ch, err := wechatpay.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.setup(e)()
			if _, err := ch.Status(ctx, "B2412030050"); !errors.Is(err, payment.ErrPaymentTimeout) {
				t.Errorf("status = %v, want ErrPaymentTimeout", err)
			}
		})
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	t.Parallel()
	var followed atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { followed.Add(1) }))
	defer target.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusFound)
	}))
	defer redirect.Close()
	fake := wechatpaytest.New(wechatpaytest.Options{})
	ch, err := wechatpay.New(fake.ChannelConfig(redirect.URL, time.Now))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ch.Status(context.Background(), "B2412030060")
	if err == nil || errors.Is(err, payment.ErrPaymentTimeout) || !strings.Contains(err.Error(), "not followed") {
		t.Errorf("status through a redirect = %v", err)
	}
	if n := followed.Load(); n != 0 {
		t.Errorf("redirect followed %d times", n)
	}
}

// TestAnswerVerification answers a query from a server signing as the test
// says, so that the client's own checks are seen apart from the fake's.
func TestAnswerVerification(t *testing.T) {
	t.Parallel()
	fake := wechatpaytest.New(wechatpaytest.Options{})
	platform := wechatpaytest.TestKeys().Platform
	body := []byte(`{"mchid":"1230000109","appid":"wxd678efh567hg6787","out_trade_no":"B2412030070","trade_state":"NOTPAY","trade_state_desc":"订单未支付","amount":{"total":100,"currency":"CNY"}}`)
	for _, c := range []struct {
		name   string
		skew   time.Duration
		key    *rsa.PrivateKey
		serial string
		ok     bool
	}{
		{"signed now", 0, platform, fake.PlatformSerial(), true},
		{"signed 4 minutes ago", -4 * time.Minute, platform, fake.PlatformSerial(), true},
		{"signed 6 minutes ago", -6 * time.Minute, platform, fake.PlatformSerial(), false},
		{"signed 6 minutes ahead", 6 * time.Minute, platform, fake.PlatformSerial(), false},
		{"another key", 0, wechatpaytest.TestKeys().Merchant, fake.PlatformSerial(), false},
		{"another serial", 0, platform, "PUB_KEY_ID_OTHER", false},
		{"unsigned", 0, nil, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if c.key != nil {
					ts := strconv.FormatInt(start.Add(c.skew).Unix(), 10)
					w.Header().Set("Wechatpay-Timestamp", ts)
					w.Header().Set("Wechatpay-Nonce", "NONCE123")
					w.Header().Set("Wechatpay-Serial", c.serial)
					w.Header().Set("Wechatpay-Signature", sign(c.key, []byte(ts+"\nNONCE123\n"+string(body)+"\n")))
				}
				_, _ = w.Write(body)
			}))
			defer srv.Close()
			ch, err := wechatpay.New(fake.ChannelConfig(srv.URL, func() time.Time { return start }))
			if err != nil {
				t.Fatal(err)
			}
			st, err := ch.Status(context.Background(), "B2412030070")
			if c.ok != (err == nil) || (err != nil && !errors.Is(err, wechatpay.ErrBadAnswer)) {
				t.Errorf("status = %+v, %v", st, err)
			}
		})
	}
}

func TestRequestsAreSigned(t *testing.T) {
	t.Parallel()
	e := newEnv(t, wechatpaytest.Options{})
	other, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(*wechatpay.Config)
	}{
		{"another private key", func(c *wechatpay.Config) { c.MerchantPrivateKeyPEM = wechatpaytest.PrivateKeyPEM(other) }},
		{"another serial", func(c *wechatpay.Config) { c.MerchantSerialNo = "0000" }},
		{"clock 6 minutes ahead", func(c *wechatpay.Config) { c.Now = func() time.Time { return start.Add(6 * time.Minute) } }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := e.cfg
			c.edit(&cfg)
			ch, err := wechatpay.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ch.Status(context.Background(), "B2412030080")
			var apiErr *wechatpay.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized || apiErr.Code != "SIGN_ERROR" {
				t.Errorf("status = %v, want 401 SIGN_ERROR", err)
			}
		})
	}
}

func TestConfigLogHidesSecrets(t *testing.T) {
	t.Parallel()
	fake := wechatpaytest.New(wechatpaytest.Options{})
	cfg := fake.ChannelConfig("", time.Now)
	privateBody := strings.Split(cfg.MerchantPrivateKeyPEM, "\n")[1]
	paymenttest.CheckHidden(t, cfg, []string{cfg.APIv3Key, privateBody, "PRIVATE KEY"},
		[]string{wechatpaytest.MchID, "(redacted)", wechatpay.ProductionURL})
}

func TestConfigRefusals(t *testing.T) {
	t.Parallel()
	fake := wechatpaytest.New(wechatpaytest.Options{})
	for _, c := range []struct {
		name string
		edit func(*wechatpay.Config)
	}{
		{"no mchid", func(c *wechatpay.Config) { c.MchID = "" }},
		{"short APIv3 key", func(c *wechatpay.Config) { c.APIv3Key = "short" }},
		{"private key not PEM", func(c *wechatpay.Config) { c.MerchantPrivateKeyPEM = "not pem" }},
		{"public key as private", func(c *wechatpay.Config) { c.MerchantPrivateKeyPEM = c.PlatformPublicKeyPEM }},
		{"private key as public", func(c *wechatpay.Config) { c.PlatformPublicKeyPEM = c.MerchantPrivateKeyPEM }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := fake.ChannelConfig("", time.Now)
			c.edit(&cfg)
			if _, err := wechatpay.New(cfg); err == nil {
				t.Error("accepted")
			}
		})
	}
}
