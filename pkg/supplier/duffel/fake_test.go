package duffel

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// testNow is the fake clock: a few minutes after the recorded search.
var testNow = time.Date(2026, 5, 10, 10, 5, 0, 0, time.UTC)

const testToken = "duffel_test_k3y"

// reply is one recorded answer.
type reply struct {
	status int
	file   string            // testdata file served as the body
	body   []byte            // or this body
	header map[string]string // extra headers
	gzip   bool
	// block holds the answer until the request's context ends.
	block bool
}

// recorded is a request the fake received.
type recorded struct {
	method, path string
	query        map[string][]string
	header       http.Header
	body         map[string]any
}

// fakeDuffel serves recorded answers by "METHOD /path". A route with
// several replies plays them in turn and repeats the last one.
type fakeDuffel struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	routes map[string][]reply
	funcs  map[string]func(recorded) reply
	got    []recorded
}

func newFake(t *testing.T) *fakeDuffel {
	t.Helper()
	f := &fakeDuffel{t: t, routes: map[string][]reply{}, funcs: map[string]func(recorded) reply{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeDuffel) on(route string, replies ...reply) *fakeDuffel {
	f.routes[route] = append(f.routes[route], replies...)
	return f
}

func (f *fakeDuffel) onFunc(route string, fn func(recorded) reply) *fakeDuffel {
	f.funcs[route] = fn
	return f
}

func (f *fakeDuffel) serve(w http.ResponseWriter, r *http.Request) {
	rec := recorded{method: r.Method, path: r.URL.Path, query: r.URL.Query(), header: r.Header.Clone()}
	if data, _ := io.ReadAll(r.Body); len(data) > 0 {
		if err := json.Unmarshal(data, &rec.body); err != nil {
			f.t.Errorf("%s %s: body is not JSON: %v", r.Method, r.URL.Path, err)
		}
	}
	route := r.Method + " " + r.URL.Path
	f.mu.Lock()
	f.got = append(f.got, rec)
	var rep reply
	fn, isFunc := f.funcs[route]
	replies := f.routes[route]
	switch {
	case isFunc:
	case len(replies) == 0:
		rep = reply{status: http.StatusNotFound, file: "error_not_found.json"}
	case len(replies) == 1:
		rep = replies[0]
	default:
		rep, f.routes[route] = replies[0], replies[1:]
	}
	f.mu.Unlock()
	if isFunc {
		rep = fn(rec)
	}
	if rep.block {
		<-r.Context().Done()
		return
	}
	body := rep.body
	if rep.file != "" {
		body = readFile(f.t, rep.file)
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.gzip {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		gz.Write(body)
		gz.Close()
		body = buf.Bytes()
		w.Header().Set("Content-Encoding", "gzip")
	}
	status := rep.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write(body)
}

// requests returns what the fake received for a route ("" for all).
func (f *fakeDuffel) requests(route string) []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []recorded
	for _, r := range f.got {
		if route == "" || r.method+" "+r.path == route {
			out = append(out, r)
		}
	}
	return out
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// patched is a testdata file changed by fn, for the variations of one
// recorded answer (a price that moved, a bag less).
func patched(t *testing.T, name string, fn func(data map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(readFile(t, name), &doc); err != nil {
		t.Fatal(err)
	}
	fn(doc["data"].(map[string]any))
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wireOfferFile reads a recorded offer.
func wireOfferFile(t *testing.T, name string) wireOffer {
	t.Helper()
	var doc struct {
		Data wireOffer `json:"data"`
	}
	if err := json.Unmarshal(readFile(t, name), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Data
}

// fakeSleep records the waits between retries instead of waiting.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

// countingLimiter lets everything through and counts.
type countingLimiter struct {
	mu    sync.Mutex
	waits int
}

func (l *countingLimiter) Wait(ctx context.Context) error {
	l.mu.Lock()
	l.waits++
	l.mu.Unlock()
	return ctx.Err()
}

type testClient struct {
	*Client
	fake    *fakeDuffel
	sleeps  *fakeSleep
	limiter *countingLimiter
}

func newTestClient(t *testing.T, f *fakeDuffel, cfg Config, opts ...Option) testClient {
	t.Helper()
	cfg.Token = testToken
	cfg.BaseURL = f.srv.URL
	tc := testClient{fake: f, sleeps: &fakeSleep{}, limiter: &countingLimiter{}}
	opts = append([]Option{
		WithHTTPClient(f.srv.Client()),
		WithClock(func() time.Time { return testNow }),
		WithSleep(tc.sleeps.sleep),
		WithLimiter(tc.limiter),
		WithLogger(slog.New(slog.DiscardHandler)),
	}, opts...)
	c, err := New(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	tc.Client = c
	return tc
}

// bookHeld books offer.json's held offer for ts with the test contact.
func (c testClient) bookHeld(t *testing.T, ts []supplier.Traveller) (supplier.Booking, error) {
	t.Helper()
	return c.Book(context.Background(), supplier.BookRequest{Offer: heldOffer(t, "offer.json"), Travellers: ts, Contact: contact})
}

// changeJourneys is the change the change-quote tests ask for: out on the
// 12th instead of the 10th, back as before.
var changeJourneys = []supplier.JourneyQuery{
	{Origin: "LON", Destination: "NYC", Date: "2026-06-12"}, {Origin: "JFK", Destination: "LHR", Date: "2026-06-17"},
}

// quoteChange asks for changeJourneys on the ticketed orderA, Duffel
// answering order_change_request.json with its first offer patched.
func quoteChange(t *testing.T, patch func(first map[string]any)) []supplier.Quote {
	t.Helper()
	body := patched(t, "order_change_request.json", func(o map[string]any) {
		patch(o["order_change_offers"].([]any)[0].(map[string]any))
	})
	f := newFake(t).
		on("GET /air/orders/"+orderA, reply{file: "order_ticketed.json"}).
		on("POST /air/order_change_requests", reply{status: http.StatusCreated, body: body})
	c := newTestClient(t, f, Config{})
	quotes, err := c.ChangeQuotes(context.Background(), orderA, changeJourneys)
	if err != nil {
		t.Fatal(err)
	}
	return quotes
}

// wantSent checks that route was asked n times; what names the requests
// in the failure.
func (f *fakeDuffel) wantSent(t *testing.T, route string, n int, what string) {
	t.Helper()
	if got := len(f.requests(route)); got != n {
		t.Errorf("%d %s, want %d", got, what, n)
	}
}

// listOf is a list answer ({"data": [...]}) of recorded single answers,
// each optionally patched.
func listOf(t *testing.T, files ...string) []byte {
	t.Helper()
	var items []json.RawMessage
	for _, f := range files {
		var doc struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(readFile(t, f), &doc); err != nil {
			t.Fatal(err)
		}
		items = append(items, doc.Data)
	}
	return listBody(t, items...)
}

// listBody wraps items in Duffel's list envelope.
func listBody(t *testing.T, items ...json.RawMessage) []byte {
	t.Helper()
	if items == nil {
		items = []json.RawMessage{}
	}
	out, err := json.Marshal(map[string]any{"data": items, "meta": map[string]any{"limit": 200, "after": nil, "before": nil}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
