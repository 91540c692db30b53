package supplier

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Traced wraps s so every call to it is a span ("supplier.Book", with the
// supplier's name and what identifies the call), whatever the adapter does
// inside: a simulator's answer is as visible in a trace as Duffel's, and an
// HTTP adapter's own client spans (and the traceparent it sends) sit
// beneath it.
func Traced(s Supplier, tracer trace.Tracer) Supplier {
	return traced{s: s, tracer: tracer, name: attribute.String("supplier.name", s.Name())}
}

type traced struct {
	s      Supplier
	tracer trace.Tracer
	name   attribute.KeyValue
}

// Unwrap is the traced supplier (Wrapper).
func (t traced) Unwrap() Supplier { return t.s }

// start opens the call's span; end closes it, marking an error.
func (t traced) start(ctx context.Context, op string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, "supplier."+op, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(append(attrs, t.name)...))
}

func end(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

func ref(r string) attribute.KeyValue { return attribute.String("supplier.ref", r) }

func (t traced) Name() string { return t.s.Name() }

func (t traced) Search(ctx context.Context, req SearchRequest) (_ []Offer, err error) {
	ctx, span := t.start(ctx, "Search")
	defer func() { end(span, err) }()
	offers, err := t.s.Search(ctx, req)
	span.SetAttributes(attribute.Int("supplier.offers", len(offers)))
	return offers, err
}

func (t traced) Price(ctx context.Context, offer Offer, pax Passengers) (_ PriceResult, err error) {
	ctx, span := t.start(ctx, "Price")
	defer func() { end(span, err) }()
	return t.s.Price(ctx, offer, pax)
}

func (t traced) Book(ctx context.Context, req BookRequest) (_ Booking, err error) {
	ctx, span := t.start(ctx, "Book")
	defer func() { end(span, err) }()
	b, err := t.s.Book(ctx, req)
	if err == nil {
		span.SetAttributes(ref(b.Ref))
	}
	return b, err
}

func (t traced) Ticket(ctx context.Context, r string) (_ []Ticket, err error) {
	ctx, span := t.start(ctx, "Ticket", ref(r))
	defer func() { end(span, err) }()
	return t.s.Ticket(ctx, r)
}

func (t traced) Cancel(ctx context.Context, r string) (err error) {
	ctx, span := t.start(ctx, "Cancel", ref(r))
	defer func() { end(span, err) }()
	return t.s.Cancel(ctx, r)
}

func (t traced) Void(ctx context.Context, r string) (err error) {
	ctx, span := t.start(ctx, "Void", ref(r))
	defer func() { end(span, err) }()
	return t.s.Void(ctx, r)
}

func (t traced) RefundQuote(ctx context.Context, r string) (_ Quote, err error) {
	ctx, span := t.start(ctx, "RefundQuote", ref(r))
	defer func() { end(span, err) }()
	return t.s.RefundQuote(ctx, r)
}

func (t traced) Refund(ctx context.Context, r, quoteRef string) (err error) {
	ctx, span := t.start(ctx, "Refund", ref(r))
	defer func() { end(span, err) }()
	return t.s.Refund(ctx, r, quoteRef)
}

func (t traced) ChangeQuotes(ctx context.Context, r string, journeys []JourneyQuery) (_ []Quote, err error) {
	ctx, span := t.start(ctx, "ChangeQuotes", ref(r))
	defer func() { end(span, err) }()
	return t.s.ChangeQuotes(ctx, r, journeys)
}

func (t traced) Change(ctx context.Context, r, quoteRef string) (_ Booking, err error) {
	ctx, span := t.start(ctx, "Change", ref(r))
	defer func() { end(span, err) }()
	return t.s.Change(ctx, r, quoteRef)
}
