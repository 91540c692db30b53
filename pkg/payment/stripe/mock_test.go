package stripe

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/voyage/voyage/pkg/payment/stripe/stripemock"
)

// The tests talk to the real stripe-mock (github.com/stripe/stripe-mock,
// Stripe's OpenAPI-driven mock of its API), started once for the package
// on a free port. stripe-mock keeps no state: it answers every call with
// its fixture for the endpoint (one search result, intents in
// requires_payment_method, refunds succeeded), echoing some parameters.
// The tests are written to those answers; what it cannot show (a paid
// intent, an empty search, a 5xx, a redirect) is served by small handlers
// shaped as Stripe answers.

// mockURL is the running stripe-mock, empty when it is not installed.
var mockURL string

func TestMain(m *testing.M) {
	url, stop, err := stripemock.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mockURL = url
	code := m.Run()
	stop()
	os.Exit(code)
}

func needMock(t *testing.T) {
	t.Helper()
	if mockURL == "" {
		t.Skip("stripe-mock not installed (go install github.com/stripe/stripe-mock@v0.203.0, or STRIPE_MOCK=path)")
	}
}

// call is one request that reached stripe-mock through a recorder.
type call struct {
	Method, Path string
	Query        url.Values
	Form         url.Values
	Idempotency  string
	Auth         string
}

// recorder is a proxy to stripe-mock that keeps what the channel sent,
// since stripe-mock echoes little of it.
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	calls []call
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	needMock(t)
	target, _ := url.Parse(mockURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		rec.mu.Lock()
		rec.calls = append(rec.calls, call{
			Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Form: form,
			Idempotency: r.Header.Get("Idempotency-Key"), Auth: r.Header.Get("Authorization"),
		})
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) log() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]call(nil), r.calls...)
}
