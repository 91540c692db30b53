package group

import (
	"context"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/order"
)

// DocumentView is an issued group as a flight order, for the flight
// documents (pkg/docs: itinerary and e-ticket) to print: the accepted
// quote's flights, every passenger with their ticket number, the fares and
// taxes. Before issue there is nothing to print (404).
func (s *Service) DocumentView(ctx context.Context, who auth.Principal, id int64) (order.View, error) {
	g, err := s.Get(ctx, who, id)
	if err != nil {
		return order.View{}, err
	}
	if g.Status != Issued {
		return order.View{}, fault.NotFound("group.error.notIssued")
	}
	var q Quote
	for _, x := range g.Quotes {
		if x.Status == QuoteAccepted {
			q = x
			break
		}
	}
	cur := q.Total.Currency
	count := map[string]int64{"adult": int64(g.Passengers.Adult), "child": int64(g.Passengers.Child), "infant": int64(g.Passengers.Infant)}
	var fares, taxes int64
	for _, f := range q.Fares {
		a, _ := money.Parse(f.Amount.Amount, cur)
		t, _ := money.Parse(f.Taxes.Amount, cur)
		fares += (a.Minor - t.Minor) * count[f.PassengerType]
		taxes += t.Minor * count[f.PassengerType]
	}
	numbers := map[string]string{}
	for _, t := range g.Tickets {
		numbers[t.Passenger] = t.TicketNumber
	}
	v := order.View{ID: g.ID, BookingNumber: g.BookingNumber, AgencyID: g.AgencyID, Type: order.TypeOrigin, Status: order.Issued,
		PaymentStatus: order.Paid, Segments: q.Segments, Contact: g.Contact, Total: q.Total, TicketNumbers: []string{},
		PriceBreakdown: order.Breakdown{TicketPrice: moneyOf(fares, cur), FaceValue: moneyOf(fares, cur), Taxes: moneyOf(taxes, cur),
			SaleTotal: q.Total}, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt, Actions: []order.Action{}}
	if len(q.Segments) > 0 {
		v.Airline, v.FlightNumber = q.Segments[0].Carrier, q.Segments[0].FlightNumber
		v.Origin, v.Destination, v.DepartAt = q.Segments[0].Origin, q.Segments[len(q.Segments)-1].Destination, q.Segments[0].DepartAt
	}
	for _, p := range g.PassengerList {
		p.TicketNumber = numbers[p.Surname+"/"+p.GivenName]
		v.Passengers = append(v.Passengers, p)
	}
	return v, nil
}
