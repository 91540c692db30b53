package airwallex_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/clock/clocktest"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/airwallex"
	"github.com/voyage/voyage/pkg/payment/airwallex/airwallextest"
	"github.com/voyage/voyage/pkg/payment/paymenttest"
)

const (
	clientID = "voyage_client_id"
	apiKey   = "awx_api_key_0123456789abcdef"
	secret   = "whsec_awx_0123456789"
)

// env is a fake Airwallex, a channel talking to it, and the notify
// endpoint where the fake's webhooks land and go through Notice and Ack.
type env struct {
	fake    *airwallextest.Server
	api     *httptest.Server
	ch      *airwallex.Channel
	clock   *clocktest.Clock
	mu      sync.Mutex
	notices []noticed
	refuse  atomic.Int32 // the notify endpoint answers 503 this many more times
	waits   []int
}

type noticed struct {
	st  payment.Status
	err error
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{clock: clocktest.New(time.Date(2026, 12, 3, 6, 0, 0, 0, time.UTC))}
	notify := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e.refuse.Load() > 0 {
			e.refuse.Add(-1)
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, payment.MaxNotice))
		st, err := e.ch.Notice(r.Context(), r, body)
		e.mu.Lock()
		e.notices = append(e.notices, noticed{st, err})
		e.mu.Unlock()
		e.ch.Ack(w, err)
	}))
	t.Cleanup(notify.Close)
	e.fake = airwallextest.New(airwallextest.Options{
		ClientID: clientID, APIKey: apiKey, WebhookSecret: secret, NotifyURL: notify.URL,
		Now: e.clock.Now, MaxTries: 3,
		Wait: func(n int) { e.mu.Lock(); e.waits = append(e.waits, n); e.mu.Unlock() },
	})
	e.api = httptest.NewServer(e.fake)
	t.Cleanup(e.api.Close)
	e.ch = channel(t, e.api.URL, e.clock.Now)
	return e
}

func channel(t *testing.T, url string, now func() time.Time) *airwallex.Channel {
	t.Helper()
	ch, err := airwallex.New(airwallex.Config{
		ClientID: clientID, APIKey: apiKey, WebhookSecret: secret, BaseURL: url,
		Timeout: 2 * time.Second, Now: now, Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func (e *env) seen() []noticed {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]noticed(nil), e.notices...)
}

func (e *env) create(t *testing.T, key string, amount int64, currency string) payment.Pending {
	t.Helper()
	p, err := e.ch.Create(context.Background(), payment.Create{
		Key: key, Amount: amount, Currency: currency, Subject: "Flight order " + key + " Shanghai to Singapore",
		ReturnURL: "https://portal.example/pay/return", ExpiresAt: e.clock.Now().Add(30 * time.Minute),
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCreatePayStatus(t *testing.T) {
	t.Parallel()
	cases := []struct {
		currency string
		amount   int64
		major    string
	}{
		{"USD", 12_34, "12.34"},
		{"CNY", 1_500_00, "1500.00"},
		{"JPY", 5000, "5000"},
		{"HKD", 1, "0.01"},
	}
	for _, c := range cases {
		t.Run(c.currency, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			key := "B2412" + c.currency + "01"
			p := e.create(t, key, c.amount, c.currency)
			if !strings.HasPrefix(p.Reference, "int_") || p.ClientSecret == "" {
				t.Fatalf("pending = %+v", p)
			}
			in, _ := e.fake.Intent(key)
			if string(in.Amount) != c.major || in.Currency != c.currency || in.MerchantOrderID != key || in.RequestID != key {
				t.Fatalf("intent at the fake = %+v", in)
			}
			// A retry answers the same intent.
			if again := e.create(t, key, c.amount, c.currency); again.Reference != p.Reference {
				t.Fatalf("retry created %s, first %s", again.Reference, p.Reference)
			}
			st, err := e.ch.Status(context.Background(), key)
			if err != nil || st.State != payment.StatePending || st.Amount != c.amount || st.Currency != c.currency {
				t.Fatalf("status = %+v, %v", st, err)
			}
			if err := e.fake.Pay(key); err != nil {
				t.Fatal(err)
			}
			seen := e.seen()
			if len(seen) != 1 || seen[0].err != nil {
				t.Fatalf("notices = %+v", seen)
			}
			want := payment.Status{Key: key, Reference: p.Reference, State: payment.StatePaid, Amount: c.amount, Currency: c.currency, PaidAt: e.clock.Now()}
			if seen[0].st != want {
				t.Fatalf("notice = %+v\nwant     %+v", seen[0].st, want)
			}
			if st, err = e.ch.Status(context.Background(), key); err != nil || st != want {
				t.Fatalf("status = %+v, %v; want %+v", st, err, want)
			}
			n := e.fake.Notifications()
			if len(n) != 1 || n[0].Name != airwallex.EventSucceeded || !n[0].Delivered || n[0].Tries != 1 {
				t.Fatalf("notifications = %+v", n)
			}
			if e.fake.Logins() != 1 {
				t.Fatalf("%d logins: the token is to be reused", e.fake.Logins())
			}
		})
	}
}

func TestDescriptorIsShort(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(t, "B2412DESC", 100, "USD")
	in, _ := e.fake.Intent("B2412DESC")
	if n := len([]rune(in.Descriptor)); n == 0 || n > 32 {
		t.Fatalf("descriptor %q", in.Descriptor)
	}
}

func TestCurrencies(t *testing.T) {
	t.Parallel()
	cases := []struct {
		minor    int64
		currency string
		major    string
		err      bool
	}{
		{1234, "USD", "12.34", false},
		{1234, "usd", "12.34", false},
		{5000, "JPY", "5000", false},
		{5000, "KRW", "5000", false},
		{1, "EUR", "0.01", false},
		{1000, "KWD", "", true}, // ISO 3 decimals; pkg/money counts 2
		{1000, "VND", "", true}, // ISO 0 decimals; pkg/money counts 2
		{100, "US", "", true},
	}
	for _, c := range cases {
		got, err := airwallex.Major(c.minor, c.currency)
		if (err != nil) != c.err || string(got) != c.major {
			t.Errorf("Major(%d, %s) = %q, %v", c.minor, c.currency, got, err)
			continue
		}
		if c.err {
			continue
		}
		back, err := airwallex.Minor(got, c.currency)
		if err != nil || back != c.minor {
			t.Errorf("Minor(%s, %s) = %d, %v", got, c.currency, back, err)
		}
	}
	if _, err := airwallex.Minor("12.345", "USD"); err == nil {
		t.Error("12.345 USD read as cents")
	}
	if _, err := airwallex.Minor("1.5", "JPY"); err == nil {
		t.Error("1.5 JPY read as yen")
	}
}

func TestToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(t, "B2412TOKEN", 100, "USD")
	if e.fake.Logins() != 1 {
		t.Fatalf("logins = %d", e.fake.Logins())
	}
	// Still valid 27 minutes on; renewed shortly before the 30 minutes.
	e.clock.Add(27 * time.Minute)
	if _, err := e.ch.Status(context.Background(), "B2412TOKEN"); err != nil || e.fake.Logins() != 1 {
		t.Fatalf("at 27m: %v, logins %d", err, e.fake.Logins())
	}
	e.clock.Add(2 * time.Minute)
	if _, err := e.ch.Status(context.Background(), "B2412TOKEN"); err != nil || e.fake.Logins() != 2 {
		t.Fatalf("at 29m: %v, logins %d", err, e.fake.Logins())
	}
}

func TestRevokedToken(t *testing.T) {
	t.Parallel()
	var current atomic.Pointer[airwallextest.Server]
	current.Store(airwallextest.New(airwallextest.Options{ClientID: clientID, APIKey: apiKey, WebhookSecret: secret}))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { current.Load().ServeHTTP(w, r) }))
	defer srv.Close()
	ch := channel(t, srv.URL, nil)
	if _, err := ch.Status(context.Background(), "B2412TOKEN"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Fatal(err)
	}
	// A fake that never issued the cached token answers 401; the channel
	// logs in again once and carries on.
	fresh := airwallextest.New(airwallextest.Options{ClientID: clientID, APIKey: apiKey, WebhookSecret: secret})
	current.Store(fresh)
	if _, err := ch.Status(context.Background(), "B2412TOKEN"); !errors.Is(err, payment.ErrUnknownPayment) || fresh.Logins() != 1 {
		t.Fatalf("after revocation: %v, logins %d", err, fresh.Logins())
	}
}

func TestBadCredentials(t *testing.T) {
	t.Parallel()
	fake := airwallextest.New(airwallextest.Options{ClientID: clientID, APIKey: "another key", WebhookSecret: secret})
	srv := httptest.NewServer(fake)
	defer srv.Close()
	_, err := channel(t, srv.URL, nil).Status(context.Background(), "B1")
	var ae *airwallex.APIError
	if !errors.As(err, &ae) || ae.HTTPStatus != http.StatusUnauthorized || ae.Code != "credentials_invalid" || errors.Is(err, payment.ErrPaymentTimeout) {
		t.Fatalf("err = %v", err)
	}
	// Without a token the API refuses, in Airwallex's error shape.
	resp, err := http.Post(srv.URL+"/api/v1/pa/payment_intents/create", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]string
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusUnauthorized || body["code"] != "unauthorized" || body["message"] == "" {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
}

func TestStatusUnknown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if _, err := e.ch.Status(context.Background(), "B2412NONE"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Fatalf("err = %v", err)
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		setup func(*env, string) error
		want  error
		state string
	}{
		{"pending", func(*env, string) error { return nil }, nil, payment.StateClosed},
		{"declined, still pending", func(e *env, k string) error { return e.fake.Decline(k) }, nil, payment.StateClosed},
		{"expired", func(e *env, k string) error { return e.fake.Expire(k) }, nil, payment.StateClosed},
		{"paid", func(e *env, k string) error { return e.fake.Pay(k) }, payment.ErrAlreadyPaid, payment.StatePaid},
		{"closed twice", func(e *env, k string) error { return e.ch.Close(context.Background(), k) }, nil, payment.StateClosed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.create(t, "B2412CLOSE", 990, "SGD")
			if err := c.setup(e, "B2412CLOSE"); err != nil {
				t.Fatal(err)
			}
			paymenttest.CheckClose(t, e.ch, paymenttest.Closed{Key: "B2412CLOSE", Err: c.want, State: c.state})
			if err := e.fake.Pay("B2412CLOSE"); c.state == payment.StateClosed && err == nil {
				t.Fatal("a closed intent was paid")
			}
		})
	}
	t.Run("cancel webhook", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		p := e.create(t, "B2412CANCEL", 990, "SGD")
		if err := e.ch.Close(context.Background(), "B2412CANCEL"); err != nil {
			t.Fatal(err)
		}
		seen := e.seen()
		if len(seen) != 1 || seen[0].err != nil || seen[0].st.State != payment.StateClosed || seen[0].st.Reference != p.Reference {
			t.Fatalf("notices = %+v", seen)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		t.Parallel()
		if err := newEnv(t).ch.Close(context.Background(), "B2412NONE"); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRefund(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		amounts []int64
		states  []string
	}{
		{"full", []int64{10000}, []string{payment.StateRefunded}},
		{"partial then rest", []int64{2500, 7500}, []string{payment.StatePaid, payment.StatePaid}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			p := e.create(t, "B2412REFUND", 10000, "EUR")
			if err := e.fake.Pay("B2412REFUND"); err != nil {
				t.Fatal(err)
			}
			for i, amount := range c.amounts {
				r := payment.Refund{Key: "B2412REFUND", RefundKey: fmt.Sprintf("B2412REFUND-r%d", i), Amount: amount, Currency: "EUR", Total: 10000, Reason: "flight cancelled"}
				res, err := e.ch.Refund(context.Background(), r)
				if err != nil || !strings.HasPrefix(res.Reference, "rfd_") || res.Done {
					t.Fatalf("refund = %+v, %v", res, err)
				}
				// The same refund key refunds once.
				again, err := e.ch.Refund(context.Background(), r)
				if err != nil || again.Reference != res.Reference {
					t.Fatalf("retry = %+v, %v; first %s", again, err, res.Reference)
				}
				if err := e.fake.SettleRefund(res.Reference); err != nil {
					t.Fatal(err)
				}
				seen := e.seen()
				last := seen[len(seen)-1]
				if last.err != nil || last.st.State != c.states[i] || last.st.Amount != 10000 || last.st.Key != "B2412REFUND" || last.st.Reference != p.Reference {
					t.Fatalf("refund notice = %+v", last)
				}
			}
			var total int64
			for _, re := range e.fake.Refunds(p.Reference) {
				m, _ := airwallex.Minor(re.Amount, re.Currency)
				total += m
			}
			if total != 10000 {
				t.Fatalf("refunded %d at the fake", total)
			}
			// Nothing is left to refund.
			_, err := e.ch.Refund(context.Background(), payment.Refund{Key: "B2412REFUND", RefundKey: "B2412REFUND-more", Amount: 1, Currency: "EUR"})
			var ae *airwallex.APIError
			if !errors.As(err, &ae) || ae.Code != "refund_amount_exceed" {
				t.Fatalf("over-refund = %v", err)
			}
		})
	}
	t.Run("not paid", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		e.create(t, "B2412UNPAID", 100, "USD")
		if _, err := e.ch.Refund(context.Background(), payment.Refund{Key: "B2412UNPAID", RefundKey: "r1", Amount: 100}); err == nil {
			t.Fatal("refunded an unpaid intent")
		}
	})
}

func TestNotice(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(t, "B2412NOTICE", 4321, "USD")
	paid, _ := e.fake.Intent("B2412NOTICE")
	paid.Status, paid.CapturedAmount = airwallex.StatusSucceeded, paid.Amount
	body, header := e.fake.SignedEvent(airwallex.EventSucceeded, paid)
	tampered := bytes.Replace(body, []byte(`"amount":43.21`), []byte(`"amount":0.01`), 1)
	if bytes.Equal(tampered, body) {
		t.Fatal("the tampering changed nothing")
	}
	forged := header.Clone()
	forged.Set(airwallex.SignatureHeader, airwallex.Sign("whsec_forged", header.Get(airwallex.TimestampHeader), body))
	stale := e.fake.Sign(body, e.clock.Now().Add(-6*time.Minute))
	ahead := e.fake.Sign(body, e.clock.Now().Add(6*time.Minute))
	noSig := header.Clone()
	noSig.Del(airwallex.SignatureHeader)
	badHex := header.Clone()
	badHex.Set(airwallex.SignatureHeader, "zz"+header.Get(airwallex.SignatureHeader)[2:])
	secondsTS := header.Clone()
	ts := header.Get(airwallex.TimestampHeader)
	secondsTS.Set(airwallex.TimestampHeader, ts[:len(ts)-3])
	secondsTS.Set(airwallex.SignatureHeader, airwallex.Sign(secret, ts[:len(ts)-3], body))
	other, otherHeader := e.fake.SignedEvent("payment_intent.created", paid)
	cases := []struct {
		name   string
		header http.Header
		body   []byte
		ok     bool
	}{
		{"as sent", header, body, true},
		{"replayed", header, body, true},
		{"another secret", forged, body, false},
		{"amount changed after signing", header, tampered, false},
		{"6 minutes old", stale, body, false},
		{"6 minutes ahead", ahead, body, false},
		{"no signature", noSig, body, false},
		{"signature not hex", badHex, body, false},
		{"timestamp in seconds", secondsTS, body, false},
		{"event not subscribed", otherHeader, other, false},
	}
	want := payment.Status{Key: "B2412NOTICE", Reference: paid.ID, State: payment.StatePaid, Amount: 4321, Currency: "USD", PaidAt: e.clock.Now()}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/notify/airwallex", bytes.NewReader(c.body))
			r.Header = c.header.Clone()
			st, err := e.ch.Notice(context.Background(), r, c.body)
			if c.ok {
				if err != nil || st != want {
					t.Fatalf("Notice = %+v, %v; want %+v", st, err, want)
				}
				return
			}
			if !errors.Is(err, payment.ErrBadNotice) || st != (payment.Status{}) {
				t.Fatalf("Notice = %+v, %v; want ErrBadNotice", st, err)
			}
		})
	}
}

func TestResend(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(t, "B2412RESEND", 100, "USD")
	e.refuse.Store(2)
	if err := e.fake.Pay("B2412RESEND"); err != nil {
		t.Fatal(err)
	}
	n := e.fake.Notifications()
	if len(n) != 1 || n[0].Tries != 3 || !n[0].Delivered || len(e.seen()) != 1 {
		t.Fatalf("notifications = %+v, notices %d", n, len(e.seen()))
	}
	if fmt.Sprint(e.waits) != "[1 2]" {
		t.Fatalf("waits = %v", e.waits)
	}
	// Refused every time: the fake gives up after MaxTries.
	e.create(t, "B2412GIVEUP", 100, "USD")
	e.refuse.Store(10)
	if err := e.fake.Pay("B2412GIVEUP"); err == nil {
		t.Fatal("no error after the last try")
	}
	n = e.fake.Notifications()
	if last := n[len(n)-1]; last.Tries != 3 || last.Delivered {
		t.Fatalf("last = %+v", last)
	}
}

func TestAck(t *testing.T) {
	t.Parallel()
	ch := channel(t, "http://127.0.0.1:1", nil)
	for _, c := range []struct {
		err  error
		code int
	}{{nil, http.StatusOK}, {payment.ErrBadNotice, http.StatusBadRequest}, {errors.New("store down"), http.StatusBadRequest}} {
		w := httptest.NewRecorder()
		ch.Ack(w, c.err)
		if w.Code != c.code {
			t.Errorf("Ack(%v) = %d, want %d", c.err, w.Code, c.code)
		}
	}
}

func TestTransport(t *testing.T) {
	t.Parallel()
	t.Run("5xx", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		e.create(t, "B2412DOWN", 100, "USD")
		e.fake.FailNext(1)
		if _, err := e.ch.Status(context.Background(), "B2412DOWN"); !errors.Is(err, payment.ErrPaymentTimeout) {
			t.Fatalf("err = %v", err)
		}
		if _, err := e.ch.Status(context.Background(), "B2412DOWN"); err != nil {
			t.Fatalf("after the outage: %v", err)
		}
	})
	var redirected atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { redirected.Add(1) }))
	defer target.Close()
	cases := []struct {
		name    string
		handler http.HandlerFunc
		timeout bool
	}{
		{"hangs", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, true},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+r.URL.Path, http.StatusTemporaryRedirect)
		}, false},
		{"html 502", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			ch, err := airwallex.New(airwallex.Config{ClientID: clientID, APIKey: apiKey, WebhookSecret: secret, BaseURL: srv.URL, Timeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			_, err = ch.Status(context.Background(), "B1")
			if err == nil || errors.Is(err, payment.ErrPaymentTimeout) != c.timeout {
				t.Fatalf("err = %v, want timeout %v", err, c.timeout)
			}
			if redirected.Load() != 0 {
				t.Fatal("the redirect was followed")
			}
		})
	}
	t.Run("refused connection", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		_, err := channel(t, url, nil).Create(context.Background(), payment.Create{Key: "B1", Amount: 100, Currency: "USD"})
		if !errors.Is(err, payment.ErrPaymentTimeout) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestConfig(t *testing.T) {
	t.Parallel()
	for _, cfg := range []airwallex.Config{{}, {ClientID: clientID, APIKey: apiKey}, {ClientID: clientID, WebhookSecret: secret}} {
		if _, err := airwallex.New(cfg); !errors.Is(err, payment.ErrNotConfigured) {
			t.Errorf("New(%v) = %v", cfg, err)
		}
	}
	cfg := airwallex.Config{ClientID: clientID, APIKey: apiKey, WebhookSecret: secret, BaseURL: airwallex.SandboxURL}
	paymenttest.CheckHidden(t, cfg, []string{apiKey, secret}, []string{"api-demo.airwallex.com", clientID})
}
