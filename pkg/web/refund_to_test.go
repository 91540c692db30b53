package web

import (
	"slices"
	"testing"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/templates"
)

// TestRefundDestinations: before confirming a refund the agency sees where
// the airline sends it, and what comes back as a voucher or credit rather
// than money, in the credit's own currency.
func TestRefundDestinations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		quotes   []supplier.Quote
		wantTo   []string
		wantRows []templates.PriceRow
	}{
		{"no quotes", nil, nil, nil},
		{"cash as paid", []supplier.Quote{{Refund: 10000, Currency: "CNY"}}, nil, nil},
		{"to the card", []supplier.Quote{{Refund: 10000, RefundTo: supplier.RefundToCard, Currency: "CNY"}}, []string{"orders.refundTo.card"}, nil},
		{"voucher", []supplier.Quote{{Credit: 123456, RefundTo: supplier.RefundToVoucher, Currency: "GBP"}},
			[]string{"orders.refundTo.voucher"}, []templates.PriceRow{{Key: "orders.confirm.credit", Amount: "1,234.56", Currency: "GBP"}}},
		{"two bookings, one place named once", []supplier.Quote{{RefundTo: supplier.RefundToCredits, Credit: 100, Currency: "EUR"}, {RefundTo: supplier.RefundToCredits, Currency: "EUR"}},
			[]string{"orders.refundTo.airline_credits"}, []templates.PriceRow{{Key: "orders.confirm.credit", Amount: "1.00", Currency: "EUR"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := flight.View{Type: flight.TypeRefund, Request: flight.Requested{Quotes: tt.quotes}.Answer(booking.ByAgency)}
			rows, to := refundDestinations(o, nil)
			if !slices.Equal(to, tt.wantTo) {
				t.Errorf("refund to = %v, want %v", to, tt.wantTo)
			}
			if !slices.Equal(rows, tt.wantRows) {
				t.Errorf("rows = %+v, want %+v", rows, tt.wantRows)
			}
		})
	}
}
