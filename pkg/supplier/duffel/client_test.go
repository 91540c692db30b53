package duffel

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/voyage/voyage/pkg/supplier"
)

const getOfferA = "GET /air/offers/" + offerA

func TestNewRefusesEmptyToken(t *testing.T) {
	for _, token := range []string{"", "  "} {
		if _, err := New(Config{Token: token}); err == nil {
			t.Errorf("New(%q) accepted", token)
		}
	}
}

func TestNewDefaults(t *testing.T) {
	c, err := New(Config{Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "duffel" {
		t.Errorf("name %q", c.Name())
	}
	if c.cfg.BaseURL != "https://api.duffel.com" || c.cfg.Timeout != 30*time.Second || c.cfg.MaxRetries != 3 {
		t.Errorf("config %+v", c.cfg)
	}
	// The limiter allows a burst of five, then two a second; read with a
	// fixed time so nothing depends on how fast the test runs.
	lim, ok := c.limiter.(*rate.Limiter)
	if !ok {
		t.Fatalf("limiter %T", c.limiter)
	}
	if lim.Limit() != 2 || lim.Burst() != 5 {
		t.Errorf("limit %v burst %d", lim.Limit(), lim.Burst())
	}
	t0 := time.Date(2026, 5, 10, 10, 0, 0, 0, time.UTC)
	for i := range 5 {
		if !lim.AllowN(t0, 1) {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	if lim.AllowN(t0, 1) {
		t.Error("sixth request at the same instant allowed")
	}
	if !lim.AllowN(t0.Add(500*time.Millisecond), 1) {
		t.Error("no token back after half a second")
	}
	if lim.AllowN(t0.Add(500*time.Millisecond), 1) {
		t.Error("two tokens back after half a second")
	}
}

func TestHeadersOnEveryRequest(t *testing.T) {
	f := newFake(t).
		on("GET /air/offers/"+offerA, reply{file: "offer.json"}).
		on("POST /air/orders", reply{status: http.StatusCreated, file: "order_hold.json"})
	c := newTestClient(t, f, Config{})
	if _, err := c.bookHeld(t, travellers); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests("")
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		for name, want := range map[string]string{
			"Authorization":   "Bearer " + testToken,
			"Duffel-Version":  "v2",
			"Accept":          "application/json",
			"Accept-Encoding": "gzip",
		} {
			if got := r.header.Get(name); got != want {
				t.Errorf("%s %s: %s = %q, want %q", r.method, r.path, name, got, want)
			}
		}
		if r.method == http.MethodPost && r.header.Get("Content-Type") != "application/json" {
			t.Errorf("POST %s: Content-Type %q", r.path, r.header.Get("Content-Type"))
		}
	}
	if n := c.limiter.waits; n != 2 {
		t.Errorf("limiter asked %d times for 2 requests", n)
	}
}

func TestGzipResponse(t *testing.T) {
	f := newFake(t).on(getOfferA, reply{file: "offer.json", gzip: true})
	c := newTestClient(t, f, Config{})
	res, err := c.Price(context.Background(), heldOffer(t, "offer.json"), supplier.Passengers{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != supplier.PriceOK {
		t.Errorf("status %s", res.Status)
	}
}

func TestRateLimitedThenSuccess(t *testing.T) {
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"retry-after seconds", map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{"ratelimit-reset date", map[string]string{"Ratelimit-Reset": testNow.Add(3 * time.Second).Format(http.TimeFormat)}, 3 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t).on(getOfferA,
				reply{status: http.StatusTooManyRequests, file: "error_rate_limit.json", header: tc.header},
				reply{file: "offer.json"})
			c := newTestClient(t, f, Config{})
			res, err := c.Price(context.Background(), heldOffer(t, "offer.json"), supplier.Passengers{})
			if err != nil || res.Status != supplier.PriceOK {
				t.Fatalf("status %s err %v", res.Status, err)
			}
			if len(f.requests(getOfferA)) != 2 {
				t.Errorf("%d attempts", len(f.requests(getOfferA)))
			}
			if len(c.sleeps.waits) != 1 || c.sleeps.waits[0] != tc.want {
				t.Errorf("waits %v, want [%s]", c.sleeps.waits, tc.want)
			}
			// Every attempt, retries included, goes through the limiter.
			if c.limiter.waits != 2 {
				t.Errorf("limiter asked %d times", c.limiter.waits)
			}
		})
	}
}

func TestRateLimitedOrderCreationRetried(t *testing.T) {
	// 429 comes before Duffel processes anything: even an order is safe
	// to send again.
	f := newFake(t).
		on("GET /air/offers/"+offerA, reply{file: "offer.json"}).
		on("POST /air/orders",
			reply{status: http.StatusTooManyRequests, file: "error_rate_limit.json", header: map[string]string{"Retry-After": "1"}},
			reply{status: http.StatusCreated, file: "order_hold.json"})
	c := newTestClient(t, f, Config{})
	b, err := c.bookHeld(t, travellers)
	if err != nil || b.PNR != "K7TQ2P" {
		t.Fatalf("booking %+v err %v", b, err)
	}
	f.wantSent(t, "POST /air/orders", 2, "order attempts (the first one is retried)")
}

func TestUnavailableRetriedThenGivesUp(t *testing.T) {
	f := newFake(t).on(getOfferA, reply{status: http.StatusServiceUnavailable, file: "error_unavailable.json"})
	c := newTestClient(t, f, Config{})
	_, err := c.Price(context.Background(), heldOffer(t, "offer.json"), supplier.Passengers{})
	wantErr(t, err, supplier.ErrUnavailable)
	var de *Error
	if !errors.As(err, &de) || de.Status != http.StatusServiceUnavailable || de.RequestID != "Fq4mS0aP2nB7kEwAAAKd" {
		t.Errorf("error %v", err)
	}
	if n := len(f.requests(getOfferA)); n != 1+DefaultMaxRetries {
		t.Errorf("%d attempts, want %d", n, 1+DefaultMaxRetries)
	}
	if len(c.sleeps.waits) != DefaultMaxRetries {
		t.Fatalf("waits %v", c.sleeps.waits)
	}
	// Exponential with jitter over the upper half: 0.25–0.5s, 0.5–1s, 1–2s.
	for i, w := range c.sleeps.waits {
		hi := baseBackoff << i
		if w < hi/2 || w > hi {
			t.Errorf("wait %d = %s, want in [%s, %s]", i, w, hi/2, hi)
		}
	}
}

func TestServerErrorsRetriedOnlyWhenSafe(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		route    string
		attempts int
	}{
		{"GET 500 retried", http.StatusInternalServerError, getOfferA, 1 + DefaultMaxRetries},
		{"GET 502 retried", http.StatusBadGateway, getOfferA, 1 + DefaultMaxRetries},
		{"GET 504 retried", http.StatusGatewayTimeout, getOfferA, 1 + DefaultMaxRetries},
		{"order 500 not retried", http.StatusInternalServerError, "POST /air/orders", 1},
		{"order 502 not retried", http.StatusBadGateway, "POST /air/orders", 1},
		{"order 504 not retried", http.StatusGatewayTimeout, "POST /air/orders", 1},
		{"order 503 retried", http.StatusServiceUnavailable, "POST /air/orders", 1 + DefaultMaxRetries},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t).on(tc.route, reply{status: tc.status, body: []byte(`{"errors":[{"type":"api_error","code":"internal_server_error","title":"Server error","message":"Something went wrong"}],"meta":{"status":500,"request_id":"Fq4mS0aP2nB7kEwAAAZz"}}`)})
			if tc.route != getOfferA {
				f.on(getOfferA, reply{file: "offer.json"})
			}
			c := newTestClient(t, f, Config{})
			var err error
			if tc.route == getOfferA {
				_, err = c.Price(context.Background(), heldOffer(t, "offer.json"), supplier.Passengers{})
			} else {
				_, err = c.bookHeld(t, travellers)
			}
			wantErr(t, err, supplier.ErrUnavailable)
			if n := len(f.requests(tc.route)); n != tc.attempts {
				t.Errorf("%d attempts, want %d", n, tc.attempts)
			}
		})
	}
}

// A deadline the call cannot be retried within ends it at once: a
// Retry-After beyond it gives up as unavailable, a source silent until it
// is a timeout; neither waits to try again.
func TestDeadlineEndsTheCallAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answer   reply
		deadline time.Duration
		wantErr  error
		attempts int // requests sent; 0 when not counted
	}{
		{"retry after beyond the deadline", reply{status: http.StatusTooManyRequests, file: "error_rate_limit.json", header: map[string]string{"Retry-After": "30"}},
			5 * time.Second, supplier.ErrUnavailable, 1},
		{"context deadline is a timeout", reply{block: true}, 100 * time.Millisecond, supplier.ErrTimeout, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t).on(getOfferA, tc.answer)
			c := newTestClient(t, f, Config{})
			ctx, cancel := context.WithTimeout(context.Background(), tc.deadline)
			defer cancel()
			_, err := c.Price(ctx, heldOffer(t, "offer.json"), supplier.Passengers{})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if len(c.sleeps.waits) != 0 {
				t.Errorf("waited %v to try again", c.sleeps.waits)
			}
			if tc.attempts > 0 {
				f.wantSent(t, getOfferA, tc.attempts, "attempts")
			}
		})
	}
}

func TestAttemptTimeoutOnOrderNotRetried(t *testing.T) {
	// The order may have been created behind the silence: never send it
	// twice.
	f := newFake(t).
		on("GET /air/offers/"+offerA, reply{file: "offer.json"}).
		on("POST /air/orders", reply{block: true})
	c := newTestClient(t, f, Config{Timeout: 100 * time.Millisecond})
	_, err := c.bookHeld(t, travellers)
	wantErr(t, err, supplier.ErrTimeout)
	f.wantSent(t, "POST /air/orders", 1, "order attempts")
}

func TestConnectionRefusedIsUnavailable(t *testing.T) {
	f := newFake(t)
	c := newTestClient(t, f, Config{MaxRetries: 1})
	f.srv.Close()
	_, err := c.Price(context.Background(), heldOffer(t, "offer.json"), supplier.Passengers{})
	wantErr(t, err, supplier.ErrUnavailable)
	if len(c.sleeps.waits) != 1 {
		t.Errorf("waits %v: a refused connection is retried once", c.sleeps.waits)
	}
}

func TestServerWait(t *testing.T) {
	c := &Client{now: func() time.Time { return testNow }}
	tests := []struct {
		header map[string]string
		want   time.Duration
	}{
		{map[string]string{}, 0},
		{map[string]string{"Retry-After": "4"}, 4 * time.Second},
		{map[string]string{"Retry-After": testNow.Add(7 * time.Second).Format(http.TimeFormat)}, 7 * time.Second},
		{map[string]string{"Ratelimit-Reset": testNow.Add(9 * time.Second).Format(http.TimeFormat)}, 9 * time.Second},
		{map[string]string{"Ratelimit-Reset": "1778407506"}, time.Unix(1778407506, 0).Sub(testNow)},
		{map[string]string{"Retry-After": "3600"}, maxServerWait},
		{map[string]string{"Retry-After": "soon"}, 0},
	}
	for _, tc := range tests {
		h := http.Header{}
		for k, v := range tc.header {
			h.Set(k, v)
		}
		if got := c.serverWait(h); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.header, got, tc.want)
		}
	}
}
