package flight

import (
	"context"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// bounded is a supplier every call of which ends within d: a supplier that
// never answers held an agent's booking page, a provider's review or a job
// for as long as nothing else ended it. A caller's earlier deadline still
// wins (cancelling bookings allows less; a refund's quote and confirmation
// share one bound).
type bounded struct {
	supplier.Supplier
	d time.Duration
}

func (b bounded) Search(ctx context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Search(ctx, req)
}

func (b bounded) Price(ctx context.Context, offer supplier.Offer, pax supplier.Passengers) (supplier.PriceResult, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Price(ctx, offer, pax)
}

func (b bounded) Book(ctx context.Context, req supplier.BookRequest) (supplier.Booking, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Book(ctx, req)
}

func (b bounded) Ticket(ctx context.Context, ref string) ([]supplier.Ticket, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Ticket(ctx, ref)
}

func (b bounded) Cancel(ctx context.Context, ref string) error {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Cancel(ctx, ref)
}

func (b bounded) Void(ctx context.Context, ref string) error {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Void(ctx, ref)
}

func (b bounded) RefundQuote(ctx context.Context, ref string) (supplier.Quote, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.RefundQuote(ctx, ref)
}

func (b bounded) Refund(ctx context.Context, ref, quoteRef string) error {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Refund(ctx, ref, quoteRef)
}

func (b bounded) ChangeQuotes(ctx context.Context, ref string, journeys []supplier.JourneyQuery) ([]supplier.Quote, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.ChangeQuotes(ctx, ref, journeys)
}

func (b bounded) Change(ctx context.Context, ref, quoteRef string) (supplier.Booking, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.Supplier.Change(ctx, ref, quoteRef)
}

// finisherOf is sup's status check of pending bookings, when it has one
// (bounded, like its other calls): bounded itself cannot say whether the
// supplier it wraps has one.
func finisherOf(sup supplier.Supplier) (supplier.Finisher, bool) {
	b, isBounded := sup.(bounded)
	if isBounded {
		sup = b.Supplier
	}
	f, ok := supplier.FinisherOf(sup)
	if !ok || !isBounded {
		return f, ok
	}
	return boundedFinisher{f, b.d}, true
}

type boundedFinisher struct {
	f supplier.Finisher
	d time.Duration
}

func (b boundedFinisher) Finish(ctx context.Context, ref, key string, ts []supplier.Traveller) (supplier.Booking, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	return b.f.Finish(ctx, ref, key, ts)
}
