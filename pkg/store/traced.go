package store

import (
	"context"
	"database/sql/driver"

	"github.com/XSAM/otelsql"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
)

// Database spans. otelsql wraps the driver (modernc's sqlite, or lib/pq
// behind the statement cache), so every statement any package runs, its own
// SQL, River's and goose's, becomes a span with its text (never its
// arguments: they hold passengers' names and documents).
//
// Only statements run for a traced request or job get one: River polls for
// jobs and the clean-ups run on their own, and a root span for each of
// those would bury the traces people look for. Rows and session resets are
// left out as noise; a transaction's begin, commit and rollback are kept,
// since waiting for the SQLite writer's lock or a group commit shows there.
func traceOptions(tp trace.TracerProvider, d Dialect) []otelsql.Option {
	system := "postgresql"
	if d == SQLite {
		system = "sqlite"
	}
	return []otelsql.Option{
		otelsql.WithTracerProvider(tp),
		// The server's metrics are its own (Prometheus), not OpenTelemetry's.
		otelsql.WithMeterProvider(metricnoop.NewMeterProvider()),
		otelsql.WithAttributes(attribute.String("db.system.name", system)),
		otelsql.WithSpanOptions(otelsql.SpanOptions{
			OmitRows:             true,
			OmitConnResetSession: true,
			OmitConnectorConnect: true,
			// driver.ErrSkip is database/sql's own fallback, not a failure.
			DisableErrSkip: true,
			SpanFilter:     inTrace,
		}),
	}
}

// inTrace reports whether the statement runs inside a span.
func inTrace(ctx context.Context, _ otelsql.Method, _ string, _ []driver.NamedValue) bool {
	return trace.SpanContextFromContext(ctx).IsValid()
}
