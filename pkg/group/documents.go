package group

import (
	"context"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
)

// Document is an issued group as the flight documents (itinerary and
// e-ticket) print it: the accepted quote's flights, every passenger with
// their ticket number, the fares and taxes. Before issue there is nothing
// to print (404).
func (s *Service) Document(ctx context.Context, who auth.Principal, id int64) (docs.Flight, error) {
	g, err := s.Get(ctx, who, id)
	if err != nil {
		return docs.Flight{}, err
	}
	if g.Status != Issued {
		return docs.Flight{}, fault.NotFound("group.error.notIssued")
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
	// Printed as a flight's status: the group's tickets are issued.
	v := docs.Flight{BookingNumber: g.BookingNumber, Status: string(Issued), Segments: q.Segments, Contact: g.Contact, Total: q.Total,
		Prices: docs.FlightPrices{Fare: money.Of(fares, cur), Taxes: money.Of(taxes, cur)}}
	if len(q.Segments) > 0 {
		v.Airline = q.Segments[0].Carrier
	}
	for _, p := range g.PassengerList {
		p.TicketNumber = numbers[p.Surname+"/"+p.GivenName]
		v.Passengers = append(v.Passengers, p)
	}
	return v, nil
}
