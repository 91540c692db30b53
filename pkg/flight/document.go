package flight

import "github.com/voyage/voyage/pkg/docs"

// Document is the order as its itinerary and e-ticket print it.
func (v View) Document() docs.Flight {
	p := v.PriceBreakdown
	return docs.Flight{BookingNumber: v.BookingNumber, PNR: v.PNR, Status: string(v.Status), Airline: v.Airline, Segments: v.Segments,
		Passengers: v.Passengers, TicketNumbers: v.TicketNumbers, Contact: v.Contact, Total: v.Total,
		Prices: docs.FlightPrices{Fare: p.TicketPrice, Taxes: p.Taxes, ServiceFee: p.ServiceFee, Discount: p.Discount,
			TransactionFee: p.TransactionFee, ChangeTicketDiff: p.ChangeTicketDiff, ChangeTaxDiff: p.ChangeTaxDiff, ChangeFee: p.ChangeFee,
			RefundAmount: p.RefundAmount, RefundFee: p.RefundFee, FareBasis: p.FareBasis}}
}
