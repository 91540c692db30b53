package supplier

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// fakeSource is a supplier whose Ticket and Book answer err (the calls the
// span tests make); the other methods are the nil Supplier it embeds.
type fakeSource struct {
	Supplier
	err error
}

func (s fakeSource) Name() string { return "duffel" }
func (s fakeSource) Ticket(context.Context, string) ([]Ticket, error) {
	return []Ticket{{}}, s.err
}
func (s fakeSource) Book(context.Context, BookRequest) (Booking, error) {
	return Booking{Ref: "ord_1"}, s.err
}

// Each call is one span named by the operation, carrying the supplier and
// the booking it is about; a failure marks it.
func TestTracedSpans(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		call func(Supplier) error
		span string
		err  error
		ref  string
	}{
		{"ticket", func(s Supplier) error { _, err := s.Ticket(context.Background(), "ord_9"); return err }, "supplier.Ticket", nil, "ord_9"},
		{"ticket refused", func(s Supplier) error { _, err := s.Ticket(context.Background(), "ord_9"); return err }, "supplier.Ticket", ErrRejected, "ord_9"},
		{"book", func(s Supplier) error { _, err := s.Book(context.Background(), BookRequest{}); return err }, "supplier.Book", nil, "ord_1"},
		{"book timed out", func(s Supplier) error { _, err := s.Book(context.Background(), BookRequest{}); return err }, "supplier.Book", ErrTimeout, ""},
	} {
		rec := tracetest.NewSpanRecorder()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
		s := Traced(fakeSource{err: tc.err}, tp.Tracer("test"))
		if err := tc.call(s); !errors.Is(err, tc.err) || s.Name() != "duffel" {
			t.Fatalf("%s: error %v, want %v (the decorator must not change answers)", tc.name, err, tc.err)
		}
		spans := rec.Ended()
		if len(spans) != 1 || spans[0].Name() != tc.span {
			t.Fatalf("%s: spans %v", tc.name, spans)
		}
		attrs := map[string]string{}
		for _, kv := range spans[0].Attributes() {
			attrs[string(kv.Key)] = kv.Value.Emit()
		}
		if attrs["supplier.name"] != "duffel" || attrs["supplier.ref"] != tc.ref {
			t.Errorf("%s: attributes %v", tc.name, attrs)
		}
		if failed := spans[0].Status().Code == codes.Error; failed != (tc.err != nil) {
			t.Errorf("%s: status %v with error %v", tc.name, spans[0].Status(), tc.err)
		}
	}
}

// A source's status check of pending bookings is found through its
// decorators (a trace around another decorator around the source): without
// it a booking pending at the airline could never be finished.
func TestFinisherThroughDecorators(t *testing.T) {
	t.Parallel()
	tracer := sdktrace.NewTracerProvider().Tracer("t")
	if f, ok := FinisherOf(Traced(wrapped{finishing{}}, tracer)); !ok || f == nil {
		t.Fatal("the source's Finisher is hidden by its decorators")
	}
	if _, ok := FinisherOf(Traced(wrapped{fakeSource{}}, tracer)); ok {
		t.Fatal("a source without a status check was given one")
	}
}

// finishing is a source with a status check; wrapped decorates a source.
type finishing struct{ fakeSource }

func (finishing) Finish(context.Context, string, string, []Traveller) (Booking, error) {
	return Booking{}, nil
}

type wrapped struct{ Supplier }

func (w wrapped) Unwrap() Supplier { return w.Supplier }
