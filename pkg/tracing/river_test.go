package tracing

import (
	"context"
	"testing"

	"github.com/riverqueue/river/rivertype"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	oteltrace "go.opentelemetry.io/otel/trace"
)

// River enters its middleware in list order: the work span otelriver makes
// inside jobParent is a child of the span that queued the job, in its trace.
func TestJobWorkSpanContinuesTheEnqueuersTrace(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tr := &Tracing{provider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))}
	mws := tr.RiverMiddleware()
	job := &rivertype.JobRow{ID: 7, Kind: "webhook_deliver", Attempt: 1,
		Metadata: []byte(`{"traceparent":"` + incoming + `"}`)}
	var innerTrace string
	run := func(ctx context.Context) error {
		return mws[1].(rivertype.WorkerMiddleware).Work(ctx, job, func(ctx context.Context) error {
			innerTrace = traceFrom(ctx)
			return nil
		})
	}
	if err := mws[0].(rivertype.WorkerMiddleware).Work(context.Background(), job, run); err != nil {
		t.Fatal(err)
	}
	spans := rec.Ended()
	if len(spans) != 1 || spans[0].Name() != "river.work/webhook_deliver" {
		t.Fatalf("spans %v", spans)
	}
	s := spans[0]
	if s.SpanContext().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || s.Parent().SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("work span in trace %s under %s, want the enqueuer's", s.SpanContext().TraceID(), s.Parent().SpanID())
	}
	if innerTrace != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("the worker runs in trace %q", innerTrace)
	}

	// A job queued outside any trace starts one of its own.
	job.Metadata = []byte(`{}`)
	rec2 := tracetest.NewSpanRecorder()
	tr.provider = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec2))
	mws = tr.RiverMiddleware()
	if err := mws[0].(rivertype.WorkerMiddleware).Work(context.Background(), job, run); err != nil {
		t.Fatal(err)
	}
	if spans := rec2.Ended(); len(spans) != 1 || spans[0].Parent().IsValid() {
		t.Fatalf("job without a parent: %v", spans)
	}
}

func traceFrom(ctx context.Context) string {
	sc := oteltrace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return ""
	}
	return sc.TraceID().String()
}
