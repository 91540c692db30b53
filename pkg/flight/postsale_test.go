package flight

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/booking"
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

// TestRequestAnswer: the suppliers' quotes behind a request are the
// provider's net figures and name the supplier; the provider reads them,
// every agency viewer (the booking agency, a parent looking on) reads only
// where the refund goes and what comes back as credit.
func TestRequestAnswer(t *testing.T) {
	t.Parallel()
	offer := &supplier.Offer{Supplier: "duffel", Ref: "off_1", Currency: "USD"}
	r := Requested{Reason: 1, Remark: "schedule changed", Quotes: []supplier.Quote{
		{Ref: "ore_1", Refund: 12000, Fee: 3000, Currency: "USD", RefundTo: supplier.RefundToVoucher, Credit: 4550},
		{Ref: "ocq_2", Due: 800, Currency: "USD", Offer: offer},
		{Ref: "ore_3", RefundUnknown: true, Currency: "USD"},
	}}
	terms := []QuoteTerms{
		{RefundTo: supplier.RefundToVoucher, Credit: &Money{Amount: "45.50", Currency: "USD"}},
		{},
		{RefundUnknown: true},
	}
	for _, party := range []string{booking.ByProvider, booking.ByAgency, ""} {
		t.Run("party "+party, func(t *testing.T) {
			got := r.Answer(party)
			if got.Reason != 1 || got.Remark != "schedule changed" || !reflect.DeepEqual(got.Quotes, terms) {
				t.Errorf("answer = %+v, want reason 1, the remark and quote terms %+v", got, terms)
			}
			body, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{"ore_1", "ocq_2", "duffel", "off_1", `"fee"`, `"due"`} {
				if has := strings.Contains(string(body), secret); has != (party == booking.ByProvider) {
					t.Errorf("%s in the answer: %v, want %v: %s", secret, has, party == booking.ByProvider, body)
				}
			}
		})
	}
}
