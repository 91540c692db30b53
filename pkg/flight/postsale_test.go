package flight

import (
	"context"
	"errors"
	"testing"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/supplier"
)

// unknownRefund is a source whose refund quote says it does not know what
// comes back (Duffel's null refund_amount).
type unknownRefund struct{ supplier.Supplier }

func (unknownRefund) RefundQuote(context.Context, string) (supplier.Quote, error) {
	return supplier.Quote{Ref: "ore_1", RefundUnknown: true, Currency: "CNY"}, nil
}

// TestRefundQuoteRefusesAnUnknownRefund: a refund the airline did not price
// is not quoted to the agency as 0.00 it could confirm; the provider is
// asked for the figures, and with them the supplier is not asked at all.
func TestRefundQuoteRefusesAnUnknownRefund(t *testing.T) {
	t.Parallel()
	s := &Service{suppliers: func(string) (supplier.Supplier, bool) { return unknownRefund{}, true }}
	o := &Order{Currency: "CNY", Booked: Booked{Bookings: []supplier.Booking{{Supplier: "duffel", Ref: "ord_1"}}}}
	err := s.quoteRefund(context.Background(), o, ReviewRequest{})
	var f *fault.Error
	if !errors.As(err, &f) || f.Fields["refundAmount"] != "order.review.error.refundUnknown" {
		t.Fatalf("quoteRefund = %v, want the refundUnknown field error", err)
	}
	if len(o.Request.Quotes) != 0 || o.Total != 0 {
		t.Errorf("order changed on a refused quote: quotes %v, total %d", o.Request.Quotes, o.Total)
	}
}
