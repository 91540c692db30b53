package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/tracing"
	"github.com/voyage/voyage/pkg/webhook"
)

// A delivery worked inside a trace carries its traceparent to the
// receiver, through the transport WrapTransport puts around the client the
// other options chose.
func TestDeliveryCarriesTraceparent(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var mu sync.Mutex
		var parents []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			parents = append(parents, r.Header.Get("traceparent"))
			mu.Unlock()
		}))
		t.Cleanup(srv.Close)
		tr, err := tracing.New(context.Background(), tracing.Config{})
		if err != nil {
			t.Fatal(err)
		}
		svc := webhook.New(db, webhook.WrapTransport(tr.Transport), webhook.WithHTTPClient(srv.Client()))
		id := newAgency(t, db, "Kowloon Tours", srv.URL, "")
		notify(t, db, svc, id, "booking.confirmed", nil)
		d := only(t, svc, id)
		traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
		spanID, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
		jobCtx := trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled, Remote: true}))
		if err := svc.Worker().Work(jobCtx, job(d.ID, 1)); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(parents) != 1 || !strings.HasPrefix(parents[0], "00-4bf92f3577b34da6a3ce929d0e0e4736-") {
			t.Fatalf("receiver got traceparent %q, want the job's trace", parents)
		}
	})
}
