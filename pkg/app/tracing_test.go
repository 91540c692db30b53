package app_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
)

// otlpReceiver is a collector in the test: it takes OTLP/HTTP protobuf at
// /v1/traces, as the exporter sends it, and keeps the spans by trace id.
type otlpReceiver struct {
	srv   *httptest.Server
	mu    sync.Mutex
	spans map[string][]*tracepb.Span
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	o := &otlpReceiver{spans: map[string][]*tracepb.Span{}}
	o.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("collector: %s %s (%s)", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
			http.NotFound(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &req)
		}
		if err != nil {
			t.Errorf("collector: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		o.mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					id := hex.EncodeToString(s.TraceId)
					o.spans[id] = append(o.spans[id], s)
				}
			}
		}
		o.mu.Unlock()
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	t.Cleanup(o.srv.Close)
	return o
}

// debug lists the flight and supplier spans of every trace, for a failure
// message: a span missing from the trace may have started one of its own.
func (o *otlpReceiver) debug() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for id, spans := range o.spans {
		for _, s := range spans {
			if strings.HasPrefix(s.Name, "flight.") || strings.HasPrefix(s.Name, "supplier.") {
				out = append(out, id+":"+s.Name+":"+hex.EncodeToString(s.ParentSpanId))
			}
		}
	}
	return out
}

// trace is what the collector holds of one trace.
func (o *otlpReceiver) trace(id string) []*tracepb.Span {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]*tracepb.Span(nil), o.spans[id]...)
}

// fakeDuffel answers the Duffel API calls a booking makes (search, offer,
// hold order, order read) with the connector's recorded answers, moved to
// dates ahead of today, and notes the traceparent of every request.
type fakeDuffel struct {
	srv *httptest.Server
	mu  sync.Mutex
	// parents are the traceparent headers received, by "METHOD /path".
	parents map[string][]string
}

func newFakeDuffel(t *testing.T) *fakeDuffel {
	t.Helper()
	// The recording was made on 2026-05-10; every date moves by the days
	// since, plus a month, so the offer is still valid and the flight ahead.
	recordedOn := time.Date(2026, 5, 10, 0, 0, 0, 0, time.UTC)
	shift := int(time.Since(recordedOn).Hours()/24) + 30
	date := regexp.MustCompile(`20\d\d-\d\d-\d\d`)
	load := func(name string) []byte {
		raw, err := os.ReadFile(filepath.Join("..", "supplier", "duffel", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return date.ReplaceAllFunc(raw, func(d []byte) []byte {
			day, err := time.Parse(time.DateOnly, string(d))
			if err != nil {
				return d
			}
			return []byte(day.AddDate(0, 0, shift).Format(time.DateOnly))
		})
	}
	offer := load("offer.json")
	// The search answer is the recorded offer inside an offer request.
	var recorded struct{ Data json.RawMessage }
	if err := json.Unmarshal(offer, &recorded); err != nil {
		t.Fatal(err)
	}
	search := []byte(`{"data":{"id":"orq_test","offers":[` + string(recorded.Data) + `]}}`)
	answers := map[string]struct {
		status int
		body   []byte
	}{
		"POST /air/offer_requests": {http.StatusCreated, search},
		"GET /air/offers/":         {http.StatusOK, offer},
		// Booking first looks for an order an earlier attempt made.
		"GET /air/orders":  {http.StatusOK, []byte(`{"data":[]}`)},
		"POST /air/orders": {http.StatusCreated, load("order_hold.json")},
		// Ticketing reads the order: already paid and issued, as after
		// the payment the connector would make.
		"GET /air/orders/": {http.StatusOK, load("order_ticketed.json")},
	}
	f := &fakeDuffel{parents: map[string][]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		route := r.Method + " " + r.URL.Path
		f.mu.Lock()
		f.parents[route] = append(f.parents[route], r.Header.Get("traceparent"))
		f.mu.Unlock()
		for prefix, a := range answers {
			if route == prefix || strings.HasSuffix(prefix, "/") && strings.HasPrefix(route, prefix) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(a.status)
				_, _ = w.Write(a.body)
				return
			}
		}
		t.Errorf("fake Duffel: unexpected %s", route)
		http.NotFound(w, r)
	}))
	t.Cleanup(f.srv.Close)
	f.srv.URL = strings.TrimRight(f.srv.URL, "/")
	return f
}

// sawTrace reports whether a request whose route starts with prefix came
// with a traceparent of the trace.
func (f *fakeDuffel) sawTrace(prefix, traceID string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for route, parents := range f.parents {
		if !strings.HasPrefix(route, prefix) {
			continue
		}
		for _, p := range parents {
			if parts := strings.Split(p, "-"); len(parts) == 4 && parts[1] == traceID {
				return true
			}
		}
	}
	return false
}

// spanNames lists a trace's span names, for failure messages.
func spanNames(spans []*tracepb.Span) []string {
	out := make([]string, 0, len(spans))
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

func attrInt(s *tracepb.Span, key string) int64 {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value.GetIntValue()
		}
	}
	return 0
}

func attr(s *tracepb.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}

// An operator pays for a Duffel order with a traceparent of their own: the
// trace the collector receives holds the payment request (named by its
// route), the ledger's SQL, the order's ticketing (the sweep the payment
// hands the order to) and the supplier's ticketing call with its HTTP
// request, and Duffel itself receives the trace id.
func TestTraceFollowsAPaymentToTheSupplier(t *testing.T) {
	t.Parallel()
	collector := newOTLPReceiver(t)
	duffel := newFakeDuffel(t)
	seededWith(t, func(c *config.Config) {
		c.Shopping.Sim.Enabled = false
		c.Shopping.Duffel.Token = "duffel_test_k3y"
		c.Shopping.Duffel.BaseURL = duffel.srv.URL
		c.Tracing.OTLPEndpoint = collector.srv.URL
		c.Tracing.SampleRatio = 1
	}, func(t *testing.T, a *app.App, srv *httptest.Server) {
		runJobs(t, a)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		fund(t, a, op.Company.ID, "500000")
		o := duffelOrder(t, srv, op.Token)

		traceID := randomHex(t, 16)
		resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"balance"}`,
			append(bearer(op.Token), "Idempotency-Key", "pay-"+traceID, "traceparent", "00-"+traceID+"-"+randomHex(t, 8)+"-01")...)
		if resp.StatusCode != 200 {
			t.Fatalf("pay: %d %+v", resp.StatusCode, env)
		}
		waitStatus(t, srv, op.Token, o.ID, flight.Issued)
		// The job's span ends after the status it wrote is read: flush
		// until the collector holds it rather than sleep.
		var spans []*tracepb.Span
		want := map[string]func(*tracepb.Span) bool{
			"the payment request": func(s *tracepb.Span) bool {
				return s.Name == "POST /order/v2/flight/orders/{id}/payment" && s.Kind == tracepb.Span_SPAN_KIND_SERVER
			},
			"the ledger's SQL": func(s *tracepb.Span) bool {
				return strings.HasPrefix(s.Name, "sql.") && strings.Contains(attr(s, "db.query.text"), "ledger")
			},
			"the order's ticketing": func(s *tracepb.Span) bool { return s.Name == "flight.ticket" && attrInt(s, "order.id") == o.ID },
			"the supplier call": func(s *tracepb.Span) bool {
				return s.Name == "supplier.Ticket" && attr(s, "supplier.name") == "duffel"
			},
			"Duffel's HTTP call": func(s *tracepb.Span) bool {
				return s.Kind == tracepb.Span_SPAN_KIND_CLIENT && strings.HasPrefix(attr(s, "url.full"), duffel.srv.URL+"/air/orders/")
			},
		}
		until(t, 30*time.Second, func() error {
			if err := a.Tracing.ForceFlush(context.Background()); err != nil {
				t.Fatal(err)
			}
			spans = collector.trace(traceID)
			for what, match := range want {
				found := false
				for _, s := range spans {
					found = found || match(s)
				}
				if !found {
					return fmt.Errorf("trace %s has no span of %s: %v (elsewhere: %v)", traceID, what, spanNames(spans), collector.debug())
				}
			}
			return nil
		})
		if !duffel.sawTrace("GET /air/orders/", traceID) {
			t.Fatalf("Duffel's ticketing read came without the trace's traceparent: %v", duffel.parents)
		}
		// Raw ids never name a span: the job's and the request's names
		// are kinds and routes.
		for _, s := range spans {
			if strings.Contains(s.Name, fmt.Sprint(o.ID)) && s.Kind == tracepb.Span_SPAN_KIND_SERVER {
				t.Fatalf("span named by its path: %q", s.Name)
			}
		}
	})
}

// duffelOrder books Duffel's recorded London-New York return trip for its
// two adults and a child.
func duffelOrder(t *testing.T, srv *httptest.Server, token string) flight.View {
	t.Helper()
	return createOrderWith(t, srv, token, duffelOrderBody(t, srv, token), "duffel-"+randomHex(t, 4))
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
