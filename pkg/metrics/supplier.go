package metrics

import (
	"context"
	"errors"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// Supplier counts and times every call to s, named name (its configuration
// name: the label is bounded by the configuration). It is the seam every
// caller goes through (the search's fan-out, the price check, the booking
// and post-sale steps), so nothing else counts supplier calls.
func (m *Metrics) Supplier(name string, s supplier.Supplier) supplier.Supplier {
	if m == nil {
		return s
	}
	return &counted{Supplier: s, m: m, name: Name(name)}
}

type counted struct {
	supplier.Supplier
	m    *Metrics
	name string
}

// Unwrap is the counted supplier (supplier.Wrapper).
func (c *counted) Unwrap() supplier.Supplier { return c.Supplier }

// observe records one call of operation that started at start and ended
// with err.
func (c *counted) observe(ctx context.Context, operation string, start time.Time, err error) {
	outcome := "ok"
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		outcome = "timeout"
	case errors.Is(err, context.Canceled) || ctx.Err() == context.Canceled:
		outcome = "canceled"
	case ctx.Err() == context.DeadlineExceeded:
		outcome = "timeout"
	default:
		outcome = "error"
	}
	c.m.supplierCalls.WithLabelValues(c.name, operation, outcome).Inc()
	c.m.supplierTiming.WithLabelValues(c.name, operation, outcome).Observe(time.Since(start).Seconds())
}

func (c *counted) Search(ctx context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	start := time.Now()
	out, err := c.Supplier.Search(ctx, req)
	c.observe(ctx, "search", start, err)
	return out, err
}

func (c *counted) Price(ctx context.Context, offer supplier.Offer, pax supplier.Passengers) (supplier.PriceResult, error) {
	start := time.Now()
	out, err := c.Supplier.Price(ctx, offer, pax)
	c.observe(ctx, "price", start, err)
	return out, err
}

func (c *counted) Book(ctx context.Context, req supplier.BookRequest) (supplier.Booking, error) {
	start := time.Now()
	out, err := c.Supplier.Book(ctx, req)
	c.observe(ctx, "book", start, err)
	return out, err
}

func (c *counted) Ticket(ctx context.Context, ref string) ([]supplier.Ticket, error) {
	start := time.Now()
	out, err := c.Supplier.Ticket(ctx, ref)
	c.observe(ctx, "ticket", start, err)
	return out, err
}

func (c *counted) Cancel(ctx context.Context, ref string) error {
	start := time.Now()
	err := c.Supplier.Cancel(ctx, ref)
	c.observe(ctx, "cancel", start, err)
	return err
}

func (c *counted) Void(ctx context.Context, ref string) error {
	start := time.Now()
	err := c.Supplier.Void(ctx, ref)
	c.observe(ctx, "void", start, err)
	return err
}

func (c *counted) RefundQuote(ctx context.Context, ref string) (supplier.Quote, error) {
	start := time.Now()
	out, err := c.Supplier.RefundQuote(ctx, ref)
	c.observe(ctx, "refund_quote", start, err)
	return out, err
}

func (c *counted) Refund(ctx context.Context, ref, quoteRef string) error {
	start := time.Now()
	err := c.Supplier.Refund(ctx, ref, quoteRef)
	c.observe(ctx, "refund", start, err)
	return err
}

func (c *counted) ChangeQuotes(ctx context.Context, ref string, journeys []supplier.JourneyQuery) ([]supplier.Quote, error) {
	start := time.Now()
	out, err := c.Supplier.ChangeQuotes(ctx, ref, journeys)
	c.observe(ctx, "change_quotes", start, err)
	return out, err
}

func (c *counted) Change(ctx context.Context, ref, quoteRef string) (supplier.Booking, error) {
	start := time.Now()
	out, err := c.Supplier.Change(ctx, ref, quoteRef)
	c.observe(ctx, "change", start, err)
	return out, err
}
