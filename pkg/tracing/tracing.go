// Package tracing holds Voyage's OpenTelemetry set-up: the tracer provider
// and its OTLP exporter, the W3C propagator, and the pieces that put spans
// on the seams (the HTTP server, outgoing HTTP clients, River jobs) and the
// trace id in the logs.
//
// Nothing here is global: pkg/app builds one Tracing and hands its provider
// and propagator to what it wires, so two apps in one process (the tests)
// each trace into their own exporter.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ServiceName is the service.name every span of the binary carries.
const ServiceName = "voyage"

// Config says where spans go.
type Config struct {
	// OTLPEndpoint is the collector's OTLP/HTTP address, such as
	// http://otel-collector:4318 (the path /v1/traces is added when the URL
	// has none). Empty exports nothing.
	OTLPEndpoint string
	// SampleRatio is the share of new traces recorded, 0 to 1. A request
	// that arrives with a traceparent follows its caller's decision.
	SampleRatio float64
	// Version is the service.version of the spans.
	Version string
	// BatchTimeout is how long spans wait to be sent together; zero keeps
	// the SDK's five seconds.
	BatchTimeout time.Duration
}

// Tracing is the provider and propagator the app traces with.
type Tracing struct {
	provider   *sdktrace.TracerProvider
	propagator propagation.TextMapPropagator
	exporting  bool
}

// New builds the tracer provider. Without an endpoint it records nothing
// and exports nothing, but still makes span contexts: a request that came
// with a traceparent keeps its trace id in the logs and passes it on to the
// suppliers, webhooks and jobs it calls, and one that came without gets an
// id of its own to find its log lines by.
func New(ctx context.Context, cfg Config) (*Tracing, error) {
	t := &Tracing{propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})}
	res := resource.NewSchemaless(
		attribute.String("service.name", ServiceName),
		attribute.String("service.version", cfg.Version),
	)
	if cfg.OTLPEndpoint == "" {
		t.provider = sdktrace.NewTracerProvider(sdktrace.WithResource(res),
			sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.NeverSample())))
		return t, nil
	}
	if cfg.SampleRatio < 0 || cfg.SampleRatio > 1 {
		return nil, fmt.Errorf("tracing: sample_ratio %v is not between 0 and 1", cfg.SampleRatio)
	}
	endpoint, err := exportURL(cfg.OTLPEndpoint)
	if err != nil {
		return nil, err
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(endpoint))
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter for %s: %w", endpoint, err)
	}
	var batch []sdktrace.BatchSpanProcessorOption
	if cfg.BatchTimeout > 0 {
		batch = append(batch, sdktrace.WithBatchTimeout(cfg.BatchTimeout))
	}
	t.provider = sdktrace.NewTracerProvider(sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(cfg.SampleRatio))),
		sdktrace.WithBatcher(exp, batch...))
	t.exporting = true
	return t, nil
}

// exportURL is the endpoint with /v1/traces when it names no path, as the
// OTLP specification's per-signal default.
func exportURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("tracing: otlp_endpoint %q is not an http(s) URL such as http://otel-collector:4318", endpoint)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

// Provider is the tracer provider to give the instrumented libraries.
func (t *Tracing) Provider() trace.TracerProvider { return t.provider }

// Propagator reads and writes the W3C traceparent (and baggage) headers.
func (t *Tracing) Propagator() propagation.TextMapPropagator { return t.propagator }

// Exporting reports whether spans leave the process. Without an exporter
// the database spans are not made at all: nothing would read them, and
// they are the most numerous.
func (t *Tracing) Exporting() bool { return t.exporting }

// ForceFlush sends the spans ended so far.
func (t *Tracing) ForceFlush(ctx context.Context) error {
	if err := t.provider.ForceFlush(ctx); err != nil {
		return fmt.Errorf("tracing: flush: %w", err)
	}
	return nil
}

// Shutdown sends what is left and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if err := t.provider.Shutdown(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("tracing: shut down: %w", err)
	}
	return nil
}

// noMetrics keeps the instrumentation libraries from measuring: the
// server's metrics are its own (Prometheus), not OpenTelemetry's.
var noMetrics = metricnoop.NewMeterProvider()

// untraced are the probes a load balancer or orchestrator calls every few
// seconds: a trace each would bury the requests people make.
var untraced = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// Handler starts a server span for every request, continuing the caller's
// trace when it sent a traceparent. route names the request's route pattern
// ("GET /order/v2/flight/{id}"), which becomes the span's name and
// http.route: the raw path would make a name per order.
func (t *Tracing) Handler(next http.Handler, route func(*http.Request) string) http.Handler {
	name := func(_ string, r *http.Request) string { return spanName(r, route) }
	h := otelhttp.NewHandler(next, "http.server",
		otelhttp.WithTracerProvider(t.provider),
		otelhttp.WithMeterProvider(noMetrics),
		otelhttp.WithPropagators(t.propagator),
		otelhttp.WithSpanNameFormatter(name),
		otelhttp.WithFilter(func(r *http.Request) bool { return !untraced[r.URL.Path] }),
	)
	return h
}

// spanName is the method and the path of the request's route pattern; the
// method alone when no route matches.
func spanName(r *http.Request, route func(*http.Request) string) string {
	p := route(r)
	if p == "" {
		return r.Method
	}
	if _, path, ok := strings.Cut(p, " "); ok {
		p = path
	}
	// A pattern may name a host ("example.com/"); the span keeps the path.
	if i := strings.IndexByte(p, '/'); i > 0 {
		p = p[i:]
	}
	return r.Method + " " + p
}

// Transport makes a client span for every outgoing request through base
// (http.DefaultTransport when nil) and sends the traceparent header, so the
// supplier's or the receiver's own traces join ours.
func (t *Tracing) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return otelhttp.NewTransport(base,
		otelhttp.WithTracerProvider(t.provider),
		otelhttp.WithMeterProvider(noMetrics),
		otelhttp.WithPropagators(t.propagator),
	)
}

// Client is c with its transport traced; c is not changed.
func (t *Tracing) Client(c *http.Client) *http.Client {
	out := &http.Client{}
	if c != nil {
		*out = *c
	}
	out.Transport = t.Transport(out.Transport)
	return out
}
