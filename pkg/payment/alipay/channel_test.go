package alipay_test

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment/rsakey/rsakeytest"

	"github.com/voyage/voyage/pkg/clock/clocktest"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/alipay"
	"github.com/voyage/voyage/pkg/payment/alipay/alipaytest"
	"github.com/voyage/voyage/pkg/payment/paymenttest"
)

// Keys are made once per test binary: 2048-bit RSA takes a while.
type testKeys struct {
	merchant, alipay, other *rsa.PrivateKey
}

func keys() testKeys {
	return testKeys{merchant: rsakeytest.Key(0), alipay: rsakeytest.Key(1), other: rsakeytest.Key(2)}
}

// env is a channel on a fake gateway, and the merchant's notify_url, which
// verifies what it gets with the channel and acks as the channel says.
type env struct {
	fake    *alipaytest.Server
	gateway *httptest.Server
	ch      *alipay.Channel
	clock   *clocktest.Clock
	notify  *httptest.Server

	mu      sync.Mutex
	notices []notice
	refuse  int             // the notify_url answers "fail" to this many first tries
	waits   []time.Duration // the resend waits the fake asked for
}

type notice struct {
	st  payment.Status
	err error
}

func setup(t *testing.T, o alipaytest.Options) *env {
	t.Helper()
	k := keys()
	e := &env{clock: clocktest.New(time.Date(2026, 12, 3, 10, 0, 0, 0, alipay.Beijing))}
	o.MerchantKey = &k.merchant.PublicKey
	o.AlipayKey = k.alipay
	o.Now = e.clock.Now
	o.Wait = func(ctx context.Context, d time.Duration) error {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.waits = append(e.waits, d)
		return nil
	}
	e.fake = alipaytest.New(o)
	e.gateway = httptest.NewServer(e.fake)
	ch, err := alipay.New(alipay.Config{
		AppID:              e.fake.AppID(),
		PrivateKeyPEM:      alipaytest.PrivateKeyPEM(k.merchant),
		AlipayPublicKeyPEM: e.fake.PublicKeyPEM(),
		Endpoint:           e.gateway.URL + "/gateway.do",
		Now:                e.clock.Now,
		Logger:             slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	e.ch = ch
	e.notify = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, payment.MaxNotice+1))
		st, err := e.ch.Notice(r.Context(), r, body)
		e.mu.Lock()
		e.notices = append(e.notices, notice{st, err})
		if err == nil && e.refuse > 0 {
			e.refuse--
			err = errors.New("not now")
		}
		e.mu.Unlock()
		e.ch.Ack(w, err)
	}))
	t.Cleanup(func() {
		e.fake.Close()
		e.gateway.Close()
		e.notify.Close()
	})
	return e
}

func (e *env) create(t *testing.T, key string, amount int64) payment.Pending {
	t.Helper()
	p, err := e.ch.Create(context.Background(), payment.Create{
		Key: key, Amount: amount, Currency: "CNY", Subject: "Flight order " + key,
		NotifyURL: e.notify.URL + "/notify/alipay", ExpiresAt: e.clock.Now().Add(30 * time.Minute),
	})
	if err != nil {
		t.Fatalf("create %s: %v", key, err)
	}
	return p
}

func (e *env) pay(t *testing.T, key string) {
	t.Helper()
	if err := e.fake.Pay(key); err != nil {
		t.Fatal(err)
	}
	e.fake.Drain()
}

func (e *env) received() []notice {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]notice(nil), e.notices...)
}

func TestCreatePayNotifyStatus(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{FeePermille: 6})
	ctx := context.Background()
	p := e.create(t, "B2412A", 123456)
	tr, ok := e.fake.Trade("B2412A")
	if !ok || p.QRCode == "" || p.QRCode != tr.QRCode || tr.Amount != 123456 || tr.Expire.IsZero() {
		t.Fatalf("pending %+v, fake's trade %+v", p, tr)
	}
	st, err := e.ch.Status(ctx, "B2412A")
	if err != nil || st.State != payment.StatePending || st.Amount != 123456 {
		t.Fatalf("status before paying: %+v %v", st, err)
	}

	e.pay(t, "B2412A")
	ns := e.fake.Notifications()
	if len(ns) != 1 || !ns[0].Delivered || !reflect.DeepEqual(ns[0].Answers, []string{"success"}) {
		t.Fatalf("notifications %+v", ns)
	}
	got := e.received()
	if len(got) != 1 || got[0].err != nil {
		t.Fatalf("notices %+v", got)
	}
	paidAt := e.clock.Now()
	want := payment.Status{Key: "B2412A", Reference: tr.TradeNo, State: payment.StatePaid, Amount: 123456, Currency: "CNY", PaidAt: paidAt}
	if n := got[0].st; !n.PaidAt.Equal(paidAt) || n.Key != want.Key || n.Reference != want.Reference || n.State != want.State || n.Amount != want.Amount || n.Currency != want.Currency {
		t.Errorf("notice %+v, want %+v", n, want)
	}

	st, err = e.ch.Status(ctx, "B2412A")
	if err != nil || st.State != payment.StatePaid || st.Fee != 741 || st.Amount != 123456 || !st.PaidAt.Equal(paidAt) || st.Reference != tr.TradeNo {
		t.Fatalf("status after paying: %+v %v (fee want 741)", st, err)
	}
}

func TestCreate(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{})
	ctx := context.Background()
	first := e.create(t, "retry_1", 5000)
	if again := e.create(t, "retry_1", 5000); again.QRCode != first.QRCode {
		t.Errorf("a retry answered another code: %q, %q", again.QRCode, first.QRCode)
	}
	e.create(t, "paid_1", 5000)
	e.pay(t, "paid_1")
	e.create(t, "closed_1", 5000)
	if err := e.ch.Close(ctx, "closed_1"); err != nil {
		t.Fatal(err)
	}
	var ae *alipay.Error
	tests := []struct {
		name string
		c    payment.Create
		want func(error) bool
	}{
		{"other currency", payment.Create{Key: "usd_1", Amount: 100, Currency: "USD", Subject: "x"},
			func(err error) bool { return errors.Is(err, alipay.ErrCurrency) }},
		{"no amount", payment.Create{Key: "zero_1", Currency: "CNY", Subject: "x"},
			func(err error) bool { return err != nil && !errors.Is(err, payment.ErrPaymentTimeout) }},
		{"paid already", payment.Create{Key: "paid_1", Amount: 5000, Currency: "CNY", Subject: "x"},
			func(err error) bool { return errors.Is(err, payment.ErrAlreadyPaid) }},
		{"closed", payment.Create{Key: "closed_1", Amount: 5000, Currency: "CNY", Subject: "x"},
			func(err error) bool { return errors.Is(err, payment.ErrDeclined) }},
		{"other amount, same key", payment.Create{Key: "retry_1", Amount: 5001, Currency: "CNY", Subject: "x"},
			func(err error) bool { return errors.As(err, &ae) && ae.SubCode == "ACQ.CONTEXT_INCONSISTENT" }},
		{"hyphen, as documented", payment.Create{Key: "order-12", Amount: 100, Currency: "CNY", Subject: "x"},
			func(err error) bool { return errors.As(err, &ae) && ae.SubCode == "ACQ.INVALID_PARAMETER" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := e.ch.Create(ctx, tt.c); !tt.want(err) {
				t.Errorf("err %v", err)
			}
		})
	}
	if _, ok := e.fake.Trade("usd_1"); ok {
		t.Error("a USD payment reached the gateway")
	}
}

func TestNotice(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{})
	e.create(t, "notice_1", 8888)
	if err := e.fake.Pay("notice_1"); err != nil {
		t.Fatal(err)
	}
	e.fake.Drain()
	body, err := e.fake.NotificationBody("notice_1")
	if err != nil {
		t.Fatal(err)
	}
	form, _ := url.ParseQuery(string(body))
	edit := func(f func(url.Values)) []byte {
		v, _ := url.ParseQuery(string(body))
		f(v)
		return []byte(v.Encode())
	}
	// signedBy signs the form as Alipay would, with another key.
	signedBy := func(k *rsa.PrivateKey, f func(url.Values)) []byte {
		v, _ := url.ParseQuery(string(body))
		f(v)
		v.Del("sign")
		sig, err := alipay.Sign(k, []byte(alipay.SignContent(v, "sign", "sign_type")))
		if err != nil {
			t.Fatal(err)
		}
		v.Set("sign", sig)
		return []byte(v.Encode())
	}
	post := httptest.NewRequest(http.MethodPost, "/notify/alipay", nil)
	tests := []struct {
		name string
		r    *http.Request
		body []byte
		ok   bool
	}{
		{"as sent", post, body, true},
		{"replayed", post, body, true},
		{"forged signature", post, signedBy(keys().other, func(url.Values) {}), false},
		{"tampered amount", post, edit(func(v url.Values) { v.Set("total_amount", "0.01") }), false},
		{"tampered status", post, edit(func(v url.Values) { v.Set("trade_status", "TRADE_CLOSED") }), false},
		{"added parameter", post, edit(func(v url.Values) { v.Set("refund_fee", "88.88") }), false},
		{"another application, signed by Alipay", post,
			alipaytestSign(e, form, func(v url.Values) { v.Set("app_id", "2021000000000999") }), false},
		{"no signature", post, edit(func(v url.Values) { v.Del("sign") }), false},
		{"RSA1", post, edit(func(v url.Values) { v.Set("sign_type", "RSA") }), false},
		{"a parameter twice", post, append(append([]byte(nil), body...), "&trade_status=TRADE_SUCCESS"...), false},
		{"GET", httptest.NewRequest(http.MethodGet, "/notify/alipay", nil), body, false},
		{"not a form", post, []byte("%zz"), false},
		{"too long", post, make([]byte, payment.MaxNotice+1), false},
	}
	var first payment.Status
	for i, tt := range tests {
		st, err := e.ch.Notice(context.Background(), tt.r, tt.body)
		switch {
		case tt.ok && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case !tt.ok && !errors.Is(err, payment.ErrBadNotice):
			t.Errorf("%s: err %v, want ErrBadNotice", tt.name, err)
		case !tt.ok && st != (payment.Status{}):
			t.Errorf("%s: a refused notice says %+v", tt.name, st)
		case i == 0:
			first = st
			if st.State != payment.StatePaid || st.Amount != 8888 || st.Key != "notice_1" {
				t.Errorf("%s: %+v", tt.name, st)
			}
		case tt.ok && st != first:
			t.Errorf("%s: %+v, first %+v", tt.name, st, first)
		}
	}
}

// alipaytestSign edits the fake's notification and signs it with the
// fake's own Alipay key: a genuine signature over the wrong content.
func alipaytestSign(e *env, form url.Values, f func(url.Values)) []byte {
	v := url.Values{}
	for k, vs := range form {
		v[k] = append([]string(nil), vs...)
	}
	f(v)
	return e.fake.SignNotification(v)
}

func TestStatusUnknown(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{})
	_, err := e.ch.Status(context.Background(), "nobody_1")
	if !errors.Is(err, payment.ErrUnknownPayment) {
		t.Fatalf("err %v, want ErrUnknownPayment", err)
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{})
	ctx := context.Background()
	e.create(t, "open_1", 100)
	e.create(t, "paid_1", 100)
	e.pay(t, "paid_1")
	e.create(t, "shut_1", 100)
	if err := e.ch.Close(ctx, "shut_1"); err != nil {
		t.Fatal(err)
	}
	e.create(t, "refunded_1", 100)
	e.pay(t, "refunded_1")
	if _, err := e.ch.Refund(ctx, payment.Refund{Key: "refunded_1", RefundKey: "r1", Amount: 100, Currency: "CNY"}); err != nil {
		t.Fatal(err)
	}
	paymenttest.CheckClose(t, e.ch,
		paymenttest.Closed{Key: "open_1", State: payment.StateClosed},
		paymenttest.Closed{Key: "shut_1", State: payment.StateClosed},
		paymenttest.Closed{Key: "unknown_1"},
		paymenttest.Closed{Key: "paid_1", Err: payment.ErrAlreadyPaid, State: payment.StatePaid},
		paymenttest.Closed{Key: "refunded_1", Err: payment.ErrAlreadyPaid, State: payment.StateRefunded},
	)
	if err := e.fake.Pay("open_1"); err == nil {
		t.Error("a closed trade was paid")
	}
}

func TestRefund(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{})
	ctx := context.Background()
	e.create(t, "refund_1", 1000)
	e.create(t, "unpaid_1", 1000)
	e.pay(t, "refund_1")
	refund := func(key, rk string, amount int64) error {
		r, err := e.ch.Refund(ctx, payment.Refund{Key: key, RefundKey: rk, Amount: amount, Currency: "CNY", Total: 1000, Reason: "行程取消"})
		if err == nil && (!r.Done || r.Reference != rk) {
			t.Errorf("refund %s: %+v", rk, r)
		}
		return err
	}
	var ae *alipay.Error
	steps := []struct {
		name     string
		key, rk  string
		amount   int64
		want     func(error) bool
		refunded int64
		state    string
	}{
		{"partial", "refund_1", "r1", 300, noErr, 300, payment.StatePaid},
		{"partial, retried", "refund_1", "r1", 300, noErr, 300, payment.StatePaid},
		{"beyond what is left", "refund_1", "r2", 800, func(err error) bool { return errors.As(err, &ae) && ae.SubCode == "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL" }, 300, payment.StatePaid},
		{"the rest", "refund_1", "r3", 700, noErr, 1000, payment.StateRefunded},
		{"the rest, retried", "refund_1", "r3", 700, noErr, 1000, payment.StateRefunded},
		{"unknown payment", "nobody_1", "r1", 100, func(err error) bool { return errors.Is(err, payment.ErrUnknownPayment) }, -1, ""},
		{"unpaid payment", "unpaid_1", "r1", 100, func(err error) bool { return errors.As(err, &ae) && ae.SubCode == alipay.SubTradeStatus }, -1, ""},
	}
	for _, s := range steps {
		if err := refund(s.key, s.rk, s.amount); !s.want(err) {
			t.Errorf("%s: %v", s.name, err)
		}
		if s.refunded < 0 {
			continue
		}
		if tr, _ := e.fake.Trade(s.key); tr.Refunded != s.refunded {
			t.Errorf("%s: fake refunded %d, want %d", s.name, tr.Refunded, s.refunded)
		}
		if st, err := e.ch.Status(ctx, s.key); err != nil || st.State != s.state {
			t.Errorf("%s: status %+v %v, want %s", s.name, st, err, s.state)
		}
	}
	if _, err := e.ch.Refund(ctx, payment.Refund{Key: "refund_1", RefundKey: "r4", Amount: 100, Currency: "HKD"}); !errors.Is(err, alipay.ErrCurrency) {
		t.Errorf("a refund in HKD: %v", err)
	}
	// Alipay notifies each refund; the last one says the payment is refunded.
	e.fake.Drain()
	got := e.received()
	if len(got) != 3 || got[2].err != nil || got[1].st.State != payment.StatePaid || got[2].st.State != payment.StateRefunded {
		t.Errorf("notices %+v", got)
	}
}

func noErr(err error) bool { return err == nil }

func TestAck(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{})
	for _, tt := range []struct {
		err  error
		want string
	}{{nil, "success"}, {payment.ErrBadNotice, "fail"}} {
		w := httptest.NewRecorder()
		e.ch.Ack(w, tt.err)
		if w.Code != http.StatusOK || w.Body.String() != tt.want {
			t.Errorf("ack %v: %d %q, want %q", tt.err, w.Code, w.Body.String(), tt.want)
		}
	}
}

func TestResend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		refuse    int
		answers   int
		delivered bool
	}{
		{"answered at once", 0, 1, true},
		{"answered at the third try", 2, 3, true},
		{"never answered", 100, 8, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := setup(t, alipaytest.Options{})
			e.refuse = tt.refuse
			e.create(t, "resend_1", 100)
			e.pay(t, "resend_1")
			n := e.fake.Notifications()[0]
			if len(n.Answers) != tt.answers || n.Delivered != tt.delivered {
				t.Fatalf("%d answers %q, delivered %v", len(n.Answers), n.Answers, n.Delivered)
			}
			if !slices.Equal(e.waits, alipaytest.ResendSchedule[:tt.answers-1]) {
				t.Errorf("waits %v", e.waits)
			}
			// Every try verified and said the same.
			for _, got := range e.received() {
				if got.err != nil || got.st.State != payment.StatePaid {
					t.Errorf("notice %+v", got)
				}
			}
		})
	}
}

func TestLazyTrade(t *testing.T) {
	t.Parallel()
	// At Alipay a precreated trade exists only once scanned: until then it
	// is unknown, and closing it does not stop a late payment.
	e := setup(t, alipaytest.Options{Lazy: true})
	ctx := context.Background()
	e.create(t, "lazy_1", 100)
	if _, err := e.ch.Status(ctx, "lazy_1"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Fatalf("status before scanning: %v", err)
	}
	if err := e.ch.Close(ctx, "lazy_1"); err != nil {
		t.Fatalf("close before scanning: %v", err)
	}
	if err := e.fake.Scan("lazy_1"); err != nil {
		t.Fatal(err)
	}
	if st, err := e.ch.Status(ctx, "lazy_1"); err != nil || st.State != payment.StatePending {
		t.Fatalf("status after scanning: %+v %v", st, err)
	}
	e.pay(t, "lazy_1")
	if st, err := e.ch.Status(ctx, "lazy_1"); err != nil || st.State != payment.StatePaid {
		t.Fatalf("status after paying: %+v %v", st, err)
	}
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	e := setup(t, alipaytest.Options{})
	ctx := context.Background()
	e.create(t, "expire_1", 100) // expires in 30 minutes
	e.clock.Add(29 * time.Minute)
	if st, err := e.ch.Status(ctx, "expire_1"); err != nil || st.State != payment.StatePending {
		t.Fatalf("before time_expire: %+v %v", st, err)
	}
	e.clock.Add(time.Minute)
	if st, err := e.ch.Status(ctx, "expire_1"); err != nil || st.State != payment.StateClosed {
		t.Fatalf("at time_expire: %+v %v", st, err)
	}
	e.create(t, "expire_2", 100)
	if err := e.fake.Expire("expire_2"); err != nil {
		t.Fatal(err)
	}
	if err := e.fake.Pay("expire_2"); !errors.Is(err, alipaytest.ErrNotPayable) {
		t.Errorf("pay after expiry: %v", err)
	}
	e.fake.Drain()
	for _, n := range e.received() {
		if n.err != nil || n.st.State != payment.StateClosed {
			t.Errorf("closing notice %+v", n)
		}
	}
}

func TestGatewayFailures(t *testing.T) {
	t.Parallel()
	k := keys()
	e := setup(t, alipaytest.Options{})
	ctx := context.Background()

	release := make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server sees the client hang up
		select {                    // answers nothing until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(hanging.Close)
	t.Cleanup(func() { close(release) })
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	t.Cleanup(unavailable.Close)
	var redirected atomic.Int32
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		redirected.Add(1)
		http.Redirect(w, r, e.gateway.URL+"/gateway.do", http.StatusFound)
	}))
	t.Cleanup(redirect.Close)
	impostor := alipaytest.New(alipaytest.Options{MerchantKey: &k.merchant.PublicKey, AlipayKey: k.other, Now: e.clock.Now})
	impostorSrv := httptest.NewServer(impostor)
	t.Cleanup(func() { impostor.Close(); impostorSrv.Close() })

	channel := func(endpoint string, merchant *rsa.PrivateKey) *alipay.Channel {
		ch, err := alipay.New(alipay.Config{
			AppID: e.fake.AppID(), PrivateKeyPEM: alipaytest.PrivateKeyPEM(merchant),
			AlipayPublicKeyPEM: e.fake.PublicKeyPEM(), Endpoint: endpoint,
			Timeout: 200 * time.Millisecond, Now: e.clock.Now, Logger: slog.New(slog.DiscardHandler),
		})
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	var ae *alipay.Error
	tests := []struct {
		name string
		ch   *alipay.Channel
		want func(error) bool
	}{
		{"timeout", channel(hanging.URL, k.merchant), func(err error) bool { return errors.Is(err, payment.ErrPaymentTimeout) }},
		{"503", channel(unavailable.URL, k.merchant), func(err error) bool { return errors.Is(err, payment.ErrPaymentTimeout) }},
		{"answer signed by another key", channel(impostorSrv.URL, k.merchant), func(err error) bool {
			return errors.Is(err, payment.ErrPaymentTimeout) && errors.Is(err, alipay.ErrBadResponse)
		}},
		{"request signed by another key", channel(e.gateway.URL, k.other), func(err error) bool {
			return errors.As(err, &ae) && ae.SubCode == "isv.invalid-signature" && !errors.Is(err, payment.ErrPaymentTimeout)
		}},
		{"redirect", channel(redirect.URL, k.merchant), func(err error) bool {
			return err != nil && strings.Contains(err.Error(), "HTTP 302")
		}},
	}
	for _, tt := range tests {
		if _, err := tt.ch.Status(ctx, "any_1"); !tt.want(err) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if n := redirected.Load(); n != 1 {
		t.Errorf("the redirecting gateway was called %d times", n)
	}

	e.fake.FailNext(1)
	if _, err := e.ch.Status(ctx, "any_1"); !errors.Is(err, payment.ErrPaymentTimeout) {
		t.Errorf("502: %v", err)
	}
	if _, err := e.ch.Status(ctx, "any_1"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Errorf("after the outage: %v", err)
	}

	// A clock half an hour off is refused as Alipay refuses it.
	skewed, err := alipay.New(alipay.Config{
		AppID: e.fake.AppID(), PrivateKeyPEM: alipaytest.PrivateKeyPEM(k.merchant),
		AlipayPublicKeyPEM: e.fake.PublicKeyPEM(), Endpoint: e.gateway.URL,
		Now: func() time.Time { return e.clock.Now().Add(-31 * time.Minute) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := skewed.Status(ctx, "any_1"); !errors.As(err, &ae) || ae.SubCode != "isv.invalid-timestamp" {
		t.Errorf("skewed clock: %v", err)
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	k := keys()
	pkcs1 := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k.merchant)}))
	pkcs8 := alipaytest.PrivateKeyPEM(k.merchant)
	der, _ := x509.MarshalPKCS8PrivateKey(k.merchant)
	bare := base64.StdEncoding.EncodeToString(der)
	pub := alipaytest.PublicKeyPEM(&k.alipay.PublicKey)
	pubDER, _ := x509.MarshalPKIXPublicKey(&k.alipay.PublicKey)
	tests := []struct {
		name    string
		cfg     alipay.Config
		wantErr error
	}{
		{"PKCS#1", alipay.Config{AppID: "1", PrivateKeyPEM: pkcs1, AlipayPublicKeyPEM: pub}, nil},
		{"PKCS#8", alipay.Config{AppID: "1", PrivateKeyPEM: pkcs8, AlipayPublicKeyPEM: pub}, nil},
		{"bare base64 as Alipay's console shows it", alipay.Config{AppID: "1", PrivateKeyPEM: bare, AlipayPublicKeyPEM: base64.StdEncoding.EncodeToString(pubDER)}, nil},
		{"no key", alipay.Config{AppID: "1", AlipayPublicKeyPEM: pub}, payment.ErrNotConfigured},
		{"no application", alipay.Config{PrivateKeyPEM: pkcs8, AlipayPublicKeyPEM: pub}, payment.ErrNotConfigured},
	}
	for _, tt := range tests {
		_, err := alipay.New(tt.cfg)
		if !errors.Is(err, tt.wantErr) || tt.wantErr == nil && err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := alipay.New(alipay.Config{AppID: "1", PrivateKeyPEM: "garbage", AlipayPublicKeyPEM: pub}); err == nil {
		t.Error("a garbage key was taken")
	}
}
