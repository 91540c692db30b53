package tracing

import (
	"context"
	"encoding/json"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/riverqueue/rivercontrib/otelriver"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// RiverMiddleware is what River's clients run around inserting and working
// a job: otelriver's spans (river.insert_many when a job is queued, with
// the traceparent written into the job's metadata; river.work/<kind> when
// it runs), and before them jobParent, which makes the work span a child of
// the span that queued the job.
//
// otelriver only links the work span to the enqueuer, starting a new trace,
// because a job may run days later. Voyage's jobs mostly run moments after
// the request that queued them (a paid order's ticketing, a webhook), and
// following one booking from the request through its ticketing to the
// supplier is what the trace is for; a deadline job that runs later still
// belongs to the booking whose request set it.
func (t *Tracing) RiverMiddleware() []rivertype.Middleware {
	return []rivertype.Middleware{
		&jobParent{propagator: propagation.TraceContext{}},
		otelriver.NewMiddleware(&otelriver.MiddlewareConfig{
			EnableTracePropagation:      true,
			EnableWorkSpanJobKindSuffix: true,
			TracerProvider:              t.provider,
			MeterProvider:               noMetrics,
		}),
	}
}

// jobParent puts the trace context otelriver wrote into a job's metadata
// into the context the job is worked in, as the remote parent of its span.
type jobParent struct {
	river.MiddlewareDefaults
	propagator propagation.TextMapPropagator
}

// Work implements rivertype.WorkerMiddleware.
func (m *jobParent) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	if sc := parentOf(m.propagator, job.Metadata); sc.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, sc)
	}
	return doInner(ctx)
}

// parentOf reads the traceparent (and tracestate) in a job's metadata; an
// invalid span context when there is none.
func parentOf(p propagation.TextMapPropagator, metadata []byte) trace.SpanContext {
	if len(metadata) == 0 {
		return trace.SpanContext{}
	}
	var meta map[string]any
	if err := json.Unmarshal(metadata, &meta); err != nil {
		return trace.SpanContext{}
	}
	carrier := propagation.MapCarrier{}
	for _, k := range p.Fields() {
		if v, ok := meta[k].(string); ok {
			carrier[k] = v
		}
	}
	if len(carrier) == 0 {
		return trace.SpanContext{}
	}
	return trace.SpanContextFromContext(p.Extract(context.Background(), carrier))
}
