package stripe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/paymenttest"
)

const (
	testKey    = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
	testSecret = "whsec_test_secret_for_voyage"
)

var now = time.Date(2026, 12, 3, 6, 0, 0, 0, time.UTC)

func newChannel(t *testing.T, baseURL string) *Channel {
	t.Helper()
	ch, err := New(Config{
		SecretKey: testKey, WebhookSecret: testSecret, BaseURL: baseURL,
		Timeout: 5 * time.Second, Now: func() time.Time { return now },
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func TestCreate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, currency, wantCurrency string
		amount                       int64
	}{
		{"cents", "USD", "usd", 12_34},
		{"zero-decimal yen", "JPY", "jpy", 5000},
		{"hkd", "HKD", "hkd", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := newRecorder(t)
			ch := newChannel(t, rec.URL)
			key := "B2412" + strings.ToUpper(c.wantCurrency) + "001"
			exp := now.Add(30 * time.Minute)
			p, err := ch.Create(context.Background(), payment.Create{
				Key: key, Amount: c.amount, Currency: c.currency, Subject: "Flight order " + key, ExpiresAt: exp,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(p.Reference, "pi_") || p.ClientSecret == "" || !p.ExpiresAt.Equal(exp) {
				t.Fatalf("pending = %+v", p)
			}
			calls := rec.log()
			if len(calls) != 1 {
				t.Fatalf("calls = %+v", calls)
			}
			got := calls[0]
			if got.Method != http.MethodPost || got.Path != "/v1/payment_intents" ||
				got.Form.Get("amount") != fmt.Sprint(c.amount) || got.Form.Get("currency") != c.wantCurrency ||
				got.Form.Get("metadata[out_trade_no]") != key || got.Form.Get("description") != "Flight order "+key ||
				got.Idempotency != key || got.Auth != "Bearer "+testKey {
				t.Fatalf("request = %+v", got)
			}
			// The intent this process created is then asked for by id:
			// Stripe's search is not read-after-write.
			st, err := ch.Status(context.Background(), key)
			if err != nil {
				t.Fatal(err)
			}
			calls = rec.log()
			if last := calls[len(calls)-1]; last.Method != http.MethodGet || last.Path != "/v1/payment_intents/"+p.Reference {
				t.Fatalf("status asked %+v", last)
			}
			if st.Key != key || st.Reference != p.Reference || st.State != payment.StatePending {
				t.Fatalf("status = %+v", st)
			}
		})
	}
}

func TestCreateRefusesBadInput(t *testing.T) {
	t.Parallel()
	ch := newChannel(t, "http://127.0.0.1:1")
	for _, c := range []payment.Create{
		{Key: "a'b", Amount: 100, Currency: "USD"},
		{Key: "", Amount: 100, Currency: "USD"},
		{Key: "B1", Amount: 0, Currency: "USD"},
	} {
		if _, err := ch.Create(context.Background(), c); err == nil || errors.Is(err, payment.ErrPaymentTimeout) {
			t.Errorf("Create(%+v) = %v, want a refusal before any call", c, err)
		}
	}
}

func TestStatusSearches(t *testing.T) {
	t.Parallel()
	rec := newRecorder(t)
	ch := newChannel(t, rec.URL)
	st, err := ch.Status(context.Background(), "B2412SEARCH")
	if err != nil {
		t.Fatal(err)
	}
	calls := rec.log()
	if len(calls) != 1 || calls[0].Path != "/v1/payment_intents/search" ||
		calls[0].Query.Get("query") != "metadata['out_trade_no']:'B2412SEARCH'" ||
		calls[0].Query.Get("expand[0]") != "data.latest_charge.balance_transaction" {
		t.Fatalf("calls = %+v", calls)
	}
	// stripe-mock's search fixture: one intent awaiting a payment method.
	if st.Key != "B2412SEARCH" || !strings.HasPrefix(st.Reference, "pi_") || st.State != payment.StatePending || st.Currency != "USD" || st.Amount <= 0 {
		t.Fatalf("status = %+v", st)
	}
	// Found once, the intent is then asked for by id.
	if _, err := ch.Status(context.Background(), "B2412SEARCH"); err != nil {
		t.Fatal(err)
	}
	if calls = rec.log(); calls[1].Path != "/v1/payment_intents/"+st.Reference {
		t.Fatalf("second status asked %+v", calls[1])
	}
}

// intentJSON is a PaymentIntent as the API writes it (the fields read).
func intentJSON(id, key, status string, amount int64, charge string) string {
	if charge == "" {
		charge = "null"
	}
	return fmt.Sprintf(`{"id":%q,"object":"payment_intent","amount":%d,"amount_received":%d,"currency":"usd","status":%q,"metadata":{"out_trade_no":%q},"client_secret":%q,"latest_charge":%s}`,
		id, amount, map[bool]int64{true: amount}[status == "succeeded"], status, key, id+"_secret_x", charge)
}

// searchAnswering is Stripe's payment-intent search as it answers with the
// given intents (paid, cancelled, none: states stateless stripe-mock never
// shows); any other call is Stripe's 404, counted so a test can say none
// was made.
func searchAnswering(t *testing.T, intents ...string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var others atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/payment_intents/search" {
			fmt.Fprintf(w, `{"object":"search_result","url":"/v1/payment_intents/search","has_more":false,"next_page":null,"data":[%s]}`, strings.Join(intents, ","))
			return
		}
		others.Add(1)
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"code":"resource_missing","message":"No such payment_intent","type":"invalid_request_error"}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &others
}

func TestStatusStates(t *testing.T) {
	t.Parallel()
	paidCharge := `{"id":"ch_1","object":"charge","amount":1234,"created":1764741600,"refunded":false,"balance_transaction":{"id":"txn_1","object":"balance_transaction","fee":66}}`
	refundedCharge := `{"id":"ch_1","object":"charge","amount":1234,"created":1764741600,"refunded":true}`
	cases := []struct {
		status, charge string
		want           string
		fee            int64
	}{
		{"requires_payment_method", "", payment.StatePending, 0},
		{"requires_confirmation", "", payment.StatePending, 0},
		{"requires_action", "", payment.StatePending, 0},
		{"processing", "", payment.StatePending, 0},
		{"succeeded", paidCharge, payment.StatePaid, 66},
		{"succeeded", refundedCharge, payment.StateRefunded, 0},
		{"canceled", "", payment.StateClosed, 0},
	}
	for _, c := range cases {
		t.Run(c.want+"/"+c.status, func(t *testing.T) {
			t.Parallel()
			srv, _ := searchAnswering(t, intentJSON("pi_S", "B1STATE", c.status, 1234, c.charge))
			st, err := newChannel(t, srv.URL).Status(context.Background(), "B1STATE")
			if err != nil {
				t.Fatal(err)
			}
			if st.State != c.want || st.Fee != c.fee || st.Amount != 1234 || st.Currency != "USD" || st.Reference != "pi_S" || st.Key != "B1STATE" {
				t.Fatalf("status = %+v", st)
			}
			if c.charge != "" && !st.PaidAt.Equal(time.Unix(1764741600, 0)) {
				t.Fatalf("paid at %v", st.PaidAt)
			}
		})
	}
}

func TestStatusUnknown(t *testing.T) {
	t.Parallel()
	srv, _ := searchAnswering(t)
	if _, err := newChannel(t, srv.URL).Status(context.Background(), "B1NONE"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Fatalf("err = %v, want ErrUnknownPayment", err)
	}
	// An intent created here but gone at Stripe (another account, a test
	// clock reset) answers resource_missing.
	ch := newChannel(t, srv.URL)
	ch.remember("B1GONE", "pi_gone")
	if _, err := ch.Status(context.Background(), "B1GONE"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Fatalf("err = %v, want ErrUnknownPayment", err)
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	t.Run("pending is cancelled at stripe-mock", func(t *testing.T) {
		t.Parallel()
		rec := newRecorder(t)
		if err := newChannel(t, rec.URL).Close(context.Background(), "B1CLOSE"); err != nil {
			t.Fatal(err)
		}
		calls := rec.log()
		if len(calls) != 2 || !strings.HasSuffix(calls[1].Path, "/cancel") || calls[1].Method != http.MethodPost || calls[1].Idempotency != "cancel-B1CLOSE" {
			t.Fatalf("calls = %+v", calls)
		}
	})
	cases := []struct {
		name    string
		intents []string
		want    error
	}{
		{"paid", []string{intentJSON("pi_P", "B1", "succeeded", 100, "")}, payment.ErrAlreadyPaid},
		{"already cancelled", []string{intentJSON("pi_C", "B1", "canceled", 100, "")}, nil},
		{"unknown", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv, others := searchAnswering(t, c.intents...)
			err := newChannel(t, srv.URL).Close(context.Background(), "B1")
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if others.Load() != 0 {
				t.Fatalf("%d calls beside the search: nothing is to be cancelled", others.Load())
			}
		})
	}
	t.Run("paid between search and cancel", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if r.URL.Path == "/v1/payment_intents/search" {
				fmt.Fprintf(w, `{"object":"search_result","has_more":false,"data":[%s]}`, intentJSON("pi_R", "B1", "processing", 100, ""))
				return
			}
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"code":"payment_intent_unexpected_state","type":"invalid_request_error","message":"You cannot cancel this PaymentIntent because it has a status of succeeded.","payment_intent":%s}}`,
				intentJSON("pi_R", "B1", "succeeded", 100, ""))
		}))
		defer srv.Close()
		if err := newChannel(t, srv.URL).Close(context.Background(), "B1"); !errors.Is(err, payment.ErrAlreadyPaid) {
			t.Fatalf("err = %v, want ErrAlreadyPaid", err)
		}
	})
}

func TestRefund(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		amount int64
	}{
		{"full", 1099},
		{"partial", 300},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := newRecorder(t)
			ch := newChannel(t, rec.URL)
			r := payment.Refund{Key: "B1REFUND", RefundKey: "B1REFUND-r1-" + c.name, Amount: c.amount, Currency: "USD", Total: 1099, Reason: "schedule change"}
			res, err := ch.Refund(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(res.Reference, "re_") || !res.Done {
				t.Fatalf("result = %+v", res)
			}
			calls := rec.log()
			got := calls[len(calls)-1]
			if got.Path != "/v1/refunds" || got.Form.Get("amount") != fmt.Sprint(c.amount) || !strings.HasPrefix(got.Form.Get("payment_intent"), "pi_") ||
				got.Form.Get("reason") != "requested_by_customer" || got.Form.Get("metadata[reason]") != "schedule change" || got.Idempotency != r.RefundKey {
				t.Fatalf("request = %+v", got)
			}
			// stripe-mock keeps no state, so the retry's answer is not
			// checked here; the retry carries the same Idempotency-Key,
			// which is what makes Stripe refund once.
			if _, err := ch.Refund(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			calls = rec.log()
			if again := calls[len(calls)-1]; again.Idempotency != r.RefundKey {
				t.Fatalf("retry sent idempotency %q", again.Idempotency)
			}
		})
	}
	t.Run("currency mismatch", func(t *testing.T) {
		t.Parallel()
		srv, others := searchAnswering(t, intentJSON("pi_X", "B1", "succeeded", 100, ""))
		_, err := newChannel(t, srv.URL).Refund(context.Background(), payment.Refund{Key: "B1", RefundKey: "r1", Amount: 100, Currency: "EUR"})
		if err == nil || others.Load() != 0 {
			t.Fatalf("err = %v, calls %d", err, others.Load())
		}
	})
}

func TestTransportErrors(t *testing.T) {
	t.Parallel()
	var redirected atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		redirected.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"search_result","data":[]}`)
	}))
	defer target.Close()
	cases := []struct {
		name    string
		handler http.HandlerFunc
		timeout bool
	}{
		{"500", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"error":{"type":"api_error","message":"An unknown error occurred"}}`)
		}, true},
		{"502 html", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "<html>bad gateway</html>")
		}, true},
		{"429", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Too many requests"}}`)
		}, true},
		{"hangs past the timeout", func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}, true},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+r.URL.RequestURI(), http.StatusFound)
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			ch := mustChannel(t, Config{SecretKey: testKey, WebhookSecret: testSecret, BaseURL: srv.URL, Timeout: 200 * time.Millisecond})
			_, err := ch.Status(context.Background(), "B1ERR")
			if err == nil || errors.Is(err, payment.ErrPaymentTimeout) != c.timeout || errors.Is(err, payment.ErrUnknownPayment) {
				t.Fatalf("err = %v, want timeout %v", err, c.timeout)
			}
		})
	}
	if redirected.Load() != 0 {
		t.Fatalf("the redirect was followed %d times", redirected.Load())
	}
	t.Run("refused connection", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		_, err := newChannel(t, url).Create(context.Background(), payment.Create{Key: "B1DOWN", Amount: 100, Currency: "USD"})
		if !errors.Is(err, payment.ErrPaymentTimeout) {
			t.Fatalf("err = %v, want ErrPaymentTimeout", err)
		}
	})
}

func mustChannel(t *testing.T, cfg Config) *Channel {
	t.Helper()
	cfg.Logger = slog.New(slog.DiscardHandler)
	ch, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func TestNewNeedsCredentials(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{{}, {SecretKey: testKey}, {WebhookSecret: testSecret}} {
		if _, err := New(cfg); !errors.Is(err, payment.ErrNotConfigured) {
			t.Errorf("New(%v) = %v, want ErrNotConfigured", cfg, err)
		}
	}
}

func TestConfigHidesSecrets(t *testing.T) {
	t.Parallel()
	cfg := Config{SecretKey: testKey, WebhookSecret: testSecret, BaseURL: "https://api.example"}
	paymenttest.CheckHidden(t, cfg, []string{testKey, testSecret, "4eC39"}, []string{"api.example"})
}
