package tracing

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/propagation"
)

func TestExportURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"http://otel-collector:4318", "http://otel-collector:4318/v1/traces"},
		{"http://otel-collector:4318/", "http://otel-collector:4318/v1/traces"},
		{"https://api.honeycomb.io/v1/traces", "https://api.honeycomb.io/v1/traces"},
		{"https://collector.example.com/otlp/v1/traces", "https://collector.example.com/otlp/v1/traces"},
		{"otel-collector:4318", ""},
		{"grpc://otel-collector:4317", ""},
		{"http://", ""},
	} {
		got, err := exportURL(tc.in)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("exportURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestNewRefusesABadSetting(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{OTLPEndpoint: "http://localhost:4318", SampleRatio: 1.5},
		{OTLPEndpoint: "http://localhost:4318", SampleRatio: -0.1},
		{OTLPEndpoint: "localhost:4318", SampleRatio: 1},
	} {
		if tr, err := New(context.Background(), cfg); err == nil {
			_ = tr.Shutdown(context.Background())
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

const incoming = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// The server span is named by the route the mux chooses, never by the raw
// path; with tracing off, an incoming trace id still reaches the handler,
// its logs and the calls it makes.
func TestHandlerNamesByRouteAndPassesTraceOn(t *testing.T) {
	t.Parallel()
	tr, err := New(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Shutdown(context.Background())
	if tr.Exporting() {
		t.Fatal("no endpoint, yet exporting")
	}
	var outgoing string
	supplier := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		outgoing = r.Header.Get("traceparent")
	}))
	defer supplier.Close()
	client := tr.Client(nil)

	var logs bytes.Buffer
	log := slog.New(LogHandler{slog.NewJSONHandler(&logs, nil)})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /order/v2/flight/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		log.InfoContext(r.Context(), "order read")
		req, _ := http.NewRequestWithContext(r.Context(), "GET", supplier.URL, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		resp.Body.Close()
	})
	route := func(r *http.Request) string { _, p := mux.Handler(r); return p }
	h := tr.Handler(mux, route)

	for _, tc := range []struct {
		method, path, want string
	}{
		{"GET", "/order/v2/flight/orders/42", "GET /order/v2/flight/orders/{id}"},
		{"POST", "/nowhere", "POST"},
	} {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		if got := spanName(r, route); got != tc.want {
			t.Errorf("%s %s: span %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}

	logs.Reset()
	r := httptest.NewRequest("GET", "/order/v2/flight/orders/42", nil)
	r.Header.Set("traceparent", incoming)
	h.ServeHTTP(httptest.NewRecorder(), r)
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	if line["trace_id"] != "4bf92f3577b34da6a3ce929d0e0e4736" || line["span_id"] == "" || line["span_id"] == nil {
		t.Errorf("log line %v lacks the incoming trace", line)
	}
	if !strings.HasPrefix(outgoing, "00-4bf92f3577b34da6a3ce929d0e0e4736-") {
		t.Errorf("outgoing traceparent %q, want the incoming trace", outgoing)
	}

	// Without a traceparent the request gets a trace id of its own.
	logs.Reset()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/order/v2/flight/orders/42", nil))
	line = nil
	_ = json.Unmarshal(logs.Bytes(), &line)
	if id, _ := line["trace_id"].(string); len(id) != 32 || id == "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("log line %v: want a new trace id", line)
	}
}

// A log line without a span carries no trace fields.
func TestLogHandlerWithoutSpan(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	slog.New(LogHandler{slog.NewTextHandler(&logs, nil)}).With("a", 1).InfoContext(context.Background(), "plain")
	if strings.Contains(logs.String(), "trace_id") {
		t.Errorf("line %q has a trace id", logs.String())
	}
}

func TestParentOfJobMetadata(t *testing.T) {
	t.Parallel()
	p := propagation.TraceContext{}
	for _, tc := range []struct {
		name, metadata string
		want           string
	}{
		{"queued in a trace", `{"traceparent":"` + incoming + `","river:other":1}`, "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"queued outside one", `{"river:other":1}`, ""},
		{"no metadata", ``, ""},
		{"not JSON", `{`, ""},
		{"bad traceparent", `{"traceparent":"00-zz-yy-01"}`, ""},
	} {
		sc := parentOf(p, []byte(tc.metadata))
		got := ""
		if sc.IsValid() {
			got = sc.TraceID().String()
			if !sc.IsRemote() {
				t.Errorf("%s: parent not remote", tc.name)
			}
		}
		if got != tc.want {
			t.Errorf("%s: parent trace %q, want %q", tc.name, got, tc.want)
		}
	}
}
