package yeepay_test

import (
	"bytes"
	"context"
	"crypto/rsa"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment/rsakey/rsakeytest"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/paymenttest"
	"github.com/voyage/voyage/pkg/payment/yeepay"
	"github.com/voyage/voyage/pkg/payment/yeepay/internal/yop"
	"github.com/voyage/voyage/pkg/payment/yeepay/yeepaytest"
)

// RSA keys are slow to make; the tests share three.
func keys() [3]*rsa.PrivateKey {
	return [3]*rsa.PrivateKey{rsakeytest.Key(0), rsakeytest.Key(1), rsakeytest.Key(2)}
}

const (
	appKey   = "app_10086032562"
	merchant = "10086032562"
)

// env is a fake Yeepay, a merchant notify endpoint and a client config.
type env struct {
	fake    *yeepaytest.Server
	gateway *httptest.Server
	cfg     yeepay.Config
	notify  *httptest.Server
	// answer decides the notify endpoint's answer to try n (nil: the
	// channel's own Ack of its Notice).
	answer  func(n int) (int, string)
	mu      sync.Mutex
	notices []payment.Status
	tries   int
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ks := keys()
	e := &env{}
	e.fake = yeepaytest.New(yeepaytest.Options{
		MerchantPublicKeyPEM: yop.PublicKeyPEM(&ks[0].PublicKey),
		PrivateKey:           ks[1],
		AppKey:               appKey, ParentMerchantNo: merchant, MerchantNo: merchant,
		MaxNotify: 3,
		Wait:      func(int) {},
	})
	e.gateway = httptest.NewServer(e.fake)
	t.Cleanup(e.gateway.Close)
	e.cfg = yeepay.Config{
		AppKey: appKey, ParentMerchantNo: merchant, MerchantNo: merchant,
		PrivateKeyPEM:      yop.PrivateKeyPEM(ks[0]),
		YeepayPublicKeyPEM: e.fake.PublicKeyPEM(),
		Endpoint:           e.gateway.URL,
		CashierURL:         e.gateway.URL + "/cashier/std",
	}
	ch := e.channel(t, payment.MethodAlipay)
	e.notify = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, payment.MaxNotice))
		e.mu.Lock()
		e.tries++
		n, answer := e.tries, e.answer
		e.mu.Unlock()
		if answer != nil {
			if code, text := answer(n); code != 0 {
				w.WriteHeader(code)
				_, _ = io.WriteString(w, text)
				return
			}
		}
		st, err := ch.Notice(r.Context(), r, body)
		if err == nil {
			e.mu.Lock()
			e.notices = append(e.notices, st)
			e.mu.Unlock()
		}
		ch.Ack(w, err)
	}))
	t.Cleanup(e.notify.Close)
	return e
}

func (e *env) channel(t *testing.T, method string) *yeepay.Channel {
	t.Helper()
	ch, err := yeepay.New(e.cfg, method)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func (e *env) create(t *testing.T, ch *yeepay.Channel, key string, amount int64) payment.Pending {
	t.Helper()
	p, err := ch.Create(context.Background(), payment.Create{Key: key, Amount: amount, Currency: "CNY",
		Subject: "Flight order B2412 PEK-SHA", NotifyURL: e.notify.URL, ReturnURL: "https://voyage.example/back",
		ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatalf("Create %s: %v", key, err)
	}
	return p
}

func noticeRequest(body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/notify/yeepay", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

func TestCreatePayNotice(t *testing.T) {
	t.Parallel()
	cases := []struct {
		method, name string
		qr, page     bool
	}{
		{payment.MethodAlipay, "yeepay-alipay", true, false},
		{payment.MethodWechat, "yeepay-wechat", true, false},
		{payment.MethodCreditCard, "yeepay-credit-card", false, true},
		{payment.MethodDebitCard, "yeepay-debit-card", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ch := e.channel(t, c.method)
			if ch.Name() != c.name {
				t.Errorf("Name = %s, want %s", ch.Name(), c.name)
			}
			ctx := context.Background()
			key := "B2412" + strings.ReplaceAll(c.method, "-", "")
			p := e.create(t, ch, key, 1234)
			if p.Reference == "" || (p.QRCode != "") != c.qr || (p.RedirectURL != "") != c.page {
				t.Fatalf("Pending = %+v", p)
			}
			if c.page {
				resp, err := http.Get(p.RedirectURL)
				if err != nil {
					t.Fatal(err)
				}
				page, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || !bytes.Contains(page, []byte(key)) {
					t.Fatalf("cashier page: %d %s", resp.StatusCode, page)
				}
			}
			if st, err := ch.Status(ctx, key); err != nil || st.State != payment.StatePending {
				t.Fatalf("Status before paying = %+v, %v", st, err)
			}
			if err := e.fake.Pay(key); err != nil {
				t.Fatal(err)
			}
			notes := e.fake.Notifications()
			if len(notes) != 1 || !notes[0].Delivered() {
				t.Fatalf("notifications = %+v", notes)
			}
			fee := e.fake.Fee(1234)
			e.mu.Lock()
			got := e.notices
			e.mu.Unlock()
			if len(got) != 1 || got[0].Key != key || got[0].State != payment.StatePaid || got[0].Amount != 1234 ||
				got[0].Currency != "CNY" || got[0].Fee != fee || got[0].Reference != p.Reference || got[0].PaidAt.IsZero() {
				t.Fatalf("notices = %+v (fee %d, reference %s)", got, fee, p.Reference)
			}
			st, err := ch.Status(ctx, key)
			if err != nil || st.State != payment.StatePaid || st.Amount != 1234 || st.Fee != fee || !st.PaidAt.Equal(got[0].PaidAt) {
				t.Fatalf("Status after paying = %+v, %v", st, err)
			}
		})
	}
}

func TestCreateRetryAndRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel(t, payment.MethodWechat)
	ctx := context.Background()
	first := e.create(t, ch, "retry-1", 500)
	again := e.create(t, ch, "retry-1", 500)
	if first.Reference != again.Reference || first.QRCode != again.QRCode {
		t.Fatalf("retry created anew: %+v then %+v", first, again)
	}
	cases := []struct {
		name string
		c    payment.Create
	}{
		{"other amount under the same key", payment.Create{Key: "retry-1", Amount: 600, Currency: "CNY", NotifyURL: e.notify.URL}},
		{"USD", payment.Create{Key: "usd-1", Amount: 600, Currency: "USD", NotifyURL: e.notify.URL}},
		{"no currency", payment.Create{Key: "none-1", Amount: 600, NotifyURL: e.notify.URL}},
		{"zero amount", payment.Create{Key: "zero-1", Currency: "CNY", NotifyURL: e.notify.URL}},
		{"other method", payment.Create{Key: "m-1", Amount: 600, Currency: "CNY", Method: payment.MethodAlipay, NotifyURL: e.notify.URL}},
	}
	for _, c := range cases {
		if _, err := ch.Create(ctx, c.c); err == nil {
			t.Errorf("%s: Create succeeded", c.name)
		}
	}
	for _, k := range []string{"usd-1", "none-1", "zero-1", "m-1"} {
		if _, ok := e.fake.Order(k); ok {
			t.Errorf("a refused Create made order %s at Yeepay", k)
		}
	}
	if err := e.fake.Pay("retry-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := ch.Create(ctx, payment.Create{Key: "retry-1", Amount: 500, Currency: "CNY", NotifyURL: e.notify.URL}); !errors.Is(err, payment.ErrAlreadyPaid) {
		t.Errorf("Create of a paid order: %v, want ErrAlreadyPaid", err)
	}
	if _, err := yeepay.New(e.cfg, "unionpay"); err == nil {
		t.Error("New accepted method unionpay")
	}
}

func TestNoticeVerification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel(t, payment.MethodAlipay)
	ctx := context.Background()
	e.create(t, ch, "notice-1", 1234)
	if err := e.fake.Pay("notice-1"); err != nil {
		t.Fatal(err)
	}
	genuine, err := e.fake.NoticeBody("notice-1")
	if err != nil {
		t.Fatal(err)
	}
	// A forger holding its own key pair and the merchant's public key
	// (which is not secret) can seal an envelope the merchant opens.
	ks := keys()
	forger := yeepaytest.New(yeepaytest.Options{MerchantPublicKeyPEM: yop.PublicKeyPEM(&ks[0].PublicKey), PrivateKey: ks[2],
		AppKey: appKey, ParentMerchantNo: merchant, MerchantNo: merchant, Wait: func(int) {}, MaxNotify: 1})
	forgerSrv := httptest.NewServer(forger)
	defer forgerSrv.Close()
	fcfg := e.cfg
	fcfg.Endpoint, fcfg.YeepayPublicKeyPEM = forgerSrv.URL, forger.PublicKeyPEM()
	fch, err := yeepay.New(fcfg, payment.MethodAlipay)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fch.Create(ctx, payment.Create{Key: "notice-1", Amount: 1, Currency: "CNY", NotifyURL: "http://127.0.0.1:1/"}); err != nil {
		t.Fatal(err)
	}
	_ = forger.Pay("notice-1")
	forged, err := forger.NoticeBody("notice-1")
	if err != nil {
		t.Fatal(err)
	}
	tampered, err := e.fake.TamperedNoticeBody("notice-1", func(s string) string {
		return strings.Replace(s, `"orderAmount":"12.34"`, `"orderAmount":"0.01"`, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if tampered == genuine {
		t.Fatal("tampering changed nothing")
	}
	cases := []struct {
		name, body string
		ok         bool
	}{
		{"genuine", genuine, true},
		{"replayed", genuine, true},
		{"forged", forged, false},
		{"tampered amount", tampered, false},
		{"empty", "", false},
		{"no response", "customerIdentification=" + appKey, false},
		{"other application", strings.Replace(genuine, "customerIdentification="+appKey, "customerIdentification=app_other", 1), false},
		{"truncated envelope", genuine[:len(genuine)-20], false},
	}
	var first payment.Status
	for _, c := range cases {
		st, err := ch.Notice(ctx, noticeRequest(c.body), []byte(c.body))
		if !c.ok {
			if !errors.Is(err, payment.ErrBadNotice) {
				t.Errorf("%s: Notice = %+v, %v; want ErrBadNotice", c.name, st, err)
			}
			continue
		}
		if err != nil || st.State != payment.StatePaid || st.Amount != 1234 {
			t.Fatalf("%s: Notice = %+v, %v", c.name, st, err)
		}
		if first.Key == "" {
			first = st
		} else if st != first {
			t.Errorf("%s: Notice = %+v, first said %+v", c.name, st, first)
		}
	}
}

func TestStatusCloseExpire(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel(t, payment.MethodDebitCard)
	ctx := context.Background()
	if _, err := ch.Status(ctx, "nobody-1"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Errorf("Status of an unknown key: %v, want ErrUnknownPayment", err)
	}
	for _, k := range []string{"close-1", "paid-1", "declined-1", "expired-1"} {
		e.create(t, ch, k, 100)
	}
	if err := e.fake.Pay("paid-1"); err != nil {
		t.Fatal(err)
	}
	if err := e.fake.Decline("declined-1"); err != nil {
		t.Fatal(err)
	}
	if err := e.fake.Expire("expired-1"); err != nil {
		t.Fatal(err)
	}
	paymenttest.CheckClose(t, ch,
		paymenttest.Closed{Key: "close-1", State: payment.StateClosed},
		paymenttest.Closed{Name: "close-1 again", Key: "close-1", State: payment.StateClosed}, // closing again is no error
		paymenttest.Closed{Key: "paid-1", Err: payment.ErrAlreadyPaid, State: payment.StatePaid},
		paymenttest.Closed{Key: "declined-1", State: payment.StateClosed},
		paymenttest.Closed{Key: "expired-1", State: payment.StateClosed},
		paymenttest.Closed{Key: "nobody-2"},
	)
	if err := e.fake.Pay("close-1"); err == nil {
		t.Error("a closed order was paid")
	}
}

func TestRefund(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel(t, payment.MethodAlipay)
	ctx := context.Background()
	e.create(t, ch, "refund-1", 1234)
	e.create(t, ch, "unpaid-1", 1234)
	if err := e.fake.Pay("refund-1"); err != nil {
		t.Fatal(err)
	}
	refs := map[string]string{}
	cases := []struct {
		name      string
		r         payment.Refund
		err       error
		refunded  int64
		sameAsKey string
	}{
		{"partial", payment.Refund{Key: "refund-1", RefundKey: "r1", Amount: 500, Currency: "CNY", Total: 1234, Reason: "改签 退差价"}, nil, 500, ""},
		{"retry of the partial", payment.Refund{Key: "refund-1", RefundKey: "r1", Amount: 500, Currency: "CNY", Total: 1234}, nil, 500, "r1"},
		{"more than is left", payment.Refund{Key: "refund-1", RefundKey: "r2", Amount: 800, Currency: "CNY", Total: 1234}, payment.ErrDeclined, 500, ""},
		{"the rest", payment.Refund{Key: "refund-1", RefundKey: "r3", Amount: 734, Currency: "CNY", Total: 1234}, nil, 1234, ""},
		{"after the whole", payment.Refund{Key: "refund-1", RefundKey: "r4", Amount: 1, Currency: "CNY", Total: 1234}, payment.ErrDeclined, 1234, ""},
		{"unpaid", payment.Refund{Key: "unpaid-1", RefundKey: "r5", Amount: 1, Currency: "CNY"}, payment.ErrDeclined, 0, ""},
		{"unknown", payment.Refund{Key: "nobody-1", RefundKey: "r6", Amount: 1, Currency: "CNY"}, payment.ErrUnknownPayment, 0, ""},
		{"USD", payment.Refund{Key: "refund-1", RefundKey: "r7", Amount: 1, Currency: "USD"}, errors.New("any"), 1234, ""},
	}
	for _, c := range cases {
		res, err := ch.Refund(ctx, c.r)
		switch {
		case c.err == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
			continue
		case c.err != nil && err == nil:
			t.Errorf("%s: refunded (%+v), want an error", c.name, res)
			continue
		case c.err != nil && c.err.Error() != "any" && !errors.Is(err, c.err):
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
		if c.err == nil {
			if !res.Done || res.Reference == "" {
				t.Errorf("%s: %+v", c.name, res)
			}
			if c.sameAsKey != "" && refs[c.sameAsKey] != res.Reference {
				t.Errorf("%s: reference %s, first %s", c.name, res.Reference, refs[c.sameAsKey])
			}
			refs[c.r.RefundKey] = res.Reference
		}
		if o, _ := e.fake.Order(c.r.Key); o.Refunded != c.refunded {
			t.Errorf("%s: Yeepay refunded %d of %s, want %d", c.name, o.Refunded, c.r.Key, c.refunded)
		}
	}
}

func TestAck(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel(t, payment.MethodWechat)
	cases := []struct {
		err  error
		code int
		body string
	}{
		{nil, http.StatusOK, "SUCCESS"},
		{payment.ErrBadNotice, http.StatusInternalServerError, "FAIL"},
		{errors.New("database down"), http.StatusInternalServerError, "FAIL"},
	}
	for _, c := range cases {
		w := httptest.NewRecorder()
		ch.Ack(w, c.err)
		if w.Code != c.code || w.Body.String() != c.body {
			t.Errorf("Ack(%v) = %d %q, want %d %q", c.err, w.Code, w.Body.String(), c.code, c.body)
		}
	}
}

func TestNotificationResend(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		answer    func(n int) (int, string)
		tries     int
		delivered bool
	}{
		{"taken at once", nil, 1, true},
		{"fails twice then taken", func(n int) (int, string) {
			if n < 3 {
				return http.StatusInternalServerError, "busy"
			}
			return 0, ""
		}, 3, true},
		{"200 without SUCCESS is a failure", func(int) (int, string) { return http.StatusOK, "ok" }, 3, false},
		{"never taken", func(int) (int, string) { return http.StatusBadGateway, "" }, 3, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.answer = c.answer
			ch := e.channel(t, payment.MethodAlipay)
			e.create(t, ch, "resend-1", 100)
			if err := e.fake.Pay("resend-1"); err != nil {
				t.Fatal(err)
			}
			notes := e.fake.Notifications()
			if len(notes) != c.tries || notes[len(notes)-1].Delivered() != c.delivered {
				t.Fatalf("notifications = %+v", notes)
			}
			for i, n := range notes {
				if n.Try != i+1 || n.Body != notes[0].Body {
					t.Errorf("try %d = %+v", i+1, n)
				}
			}
		})
	}
}

func TestTransportFailures(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	var redirectedTo atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { redirectedTo.Add(1) }))
	defer elsewhere.Close()
	release := make(chan struct{})
	defer close(release)
	handlers := map[string]http.HandlerFunc{
		"5xx": func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "bad gateway", http.StatusBadGateway) },
		"retryable": func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"code":"40020","message":"服务不可用","subCode":"sys.service.retryable"}`)
		},
		"hangs": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		},
		"redirect": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusFound)
		},
		"unsigned": func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, `{"result":{"code":"OPR00000","orderId":"t-1","status":"SUCCESS","orderAmount":"1.00"}}`)
		},
	}
	cases := []struct {
		name    string
		timeout bool
	}{{"5xx", true}, {"retryable", true}, {"hangs", true}, {"redirect", false}, {"unsigned", false}, {"closed", true}}
	for _, c := range cases {
		cfg := e.cfg
		cfg.Timeout = 200 * time.Millisecond
		if h, ok := handlers[c.name]; ok {
			srv := httptest.NewServer(h)
			defer srv.Close()
			cfg.Endpoint = srv.URL
		} else {
			srv := httptest.NewServer(http.NotFoundHandler())
			cfg.Endpoint = srv.URL
			srv.Close()
		}
		ch, err := yeepay.New(cfg, payment.MethodAlipay)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ch.Status(ctx, "t-1")
		if err == nil {
			t.Errorf("%s: Status succeeded", c.name)
			continue
		}
		if errors.Is(err, payment.ErrPaymentTimeout) != c.timeout {
			t.Errorf("%s: %v; ErrPaymentTimeout %v, want %v", c.name, err, !c.timeout, c.timeout)
		}
	}
	if n := redirectedTo.Load(); n != 0 {
		t.Errorf("a redirect was followed %d times", n)
	}
}

func TestGatewayEnforcesSignature(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ks := keys()
	ctx := context.Background()
	cases := []struct {
		name    string
		change  func(*yeepay.Config)
		subCode string
	}{
		{"other merchant key", func(c *yeepay.Config) { c.PrivateKeyPEM = yop.PrivateKeyPEM(ks[2]) }, "isv.authentication.digest.verify-failure"},
		{"stale clock", func(c *yeepay.Config) { c.Now = func() time.Time { return time.Now().Add(-time.Hour) } }, "isv.authentication.digest.verify-failure"},
		{"other app", func(c *yeepay.Config) { c.AppKey = "app_other" }, "isv.app.not-exists"},
		{"answers not Yeepay's", func(c *yeepay.Config) { c.YeepayPublicKeyPEM = yop.PublicKeyPEM(&ks[2].PublicKey) }, ""},
	}
	for _, c := range cases {
		cfg := e.cfg
		c.change(&cfg)
		ch, err := yeepay.New(cfg, payment.MethodAlipay)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ch.Status(ctx, "nobody-1")
		var ae *yeepay.APIError
		switch {
		case err == nil:
			t.Errorf("%s: Status succeeded", c.name)
		case c.subCode == "" && (errors.As(err, &ae) || errors.Is(err, payment.ErrUnknownPayment)):
			t.Errorf("%s: %v; want the answer refused", c.name, err)
		case c.subCode != "" && (!errors.As(err, &ae) || ae.SubCode != c.subCode):
			t.Errorf("%s: %v; want gateway error %s", c.name, err, c.subCode)
		}
	}
	// The content hash is checked apart from the signature: a body changed
	// on the way fails as an integrity error.
	req, _ := http.NewRequest(http.MethodPost, e.gateway.URL+"/rest/v1.0/trade/order", strings.NewReader("orderId=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", yop.Authorization(yop.AuthString(appKey, time.Now()), "AAAA$SHA256"))
	req.Header.Set(yop.HeaderAppKey, appKey)
	req.Header.Set(yop.HeaderRequestID, "r1")
	req.Header.Set(yop.HeaderContentSHA256, strings.Repeat("0", 64))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(body, []byte("isv.authentication.digest.integrity-checking-failure")) {
		t.Errorf("changed body: %d %s", resp.StatusCode, body)
	}
}

func TestConfigHidesSecrets(t *testing.T) {
	t.Parallel()
	ks := keys()
	cfg := yeepay.Config{AppKey: appKey, ParentMerchantNo: merchant, MerchantNo: merchant,
		PrivateKeyPEM: yop.PrivateKeyPEM(ks[0]), YeepayPublicKeyPEM: yop.PublicKeyPEM(&ks[1].PublicKey)}
	secret := strings.Split(cfg.PrivateKeyPEM, "\n")[1][:40]
	paymenttest.CheckHidden(t, cfg, []string{secret, "PRIVATE KEY"}, []string{appKey})
}

func TestYuan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		yuan string
		fen  int64
		ok   bool
	}{
		{"12.34", 1234, true}, {"0.01", 1, true}, {"12.3", 1230, true}, {"12", 1200, true}, {"0.00", 0, true},
		{"12.345", 0, false}, {"-1.00", 0, false}, {"", 0, false}, {"1.-1", 0, false}, {"abc", 0, false}, {".5", 0, false},
	}
	for _, c := range cases {
		got, err := yeepay.Fen(c.yuan)
		if (err == nil) != c.ok || got != c.fen {
			t.Errorf("Fen(%q) = %d, %v", c.yuan, got, err)
		}
	}
	for fen, want := range map[int64]string{1234: "12.34", 1: "0.01", 100: "1.00", 0: "0.00"} {
		if got := yeepay.Yuan(fen); got != want {
			t.Errorf("Yuan(%d) = %s, want %s", fen, got, want)
		}
	}
}
