package train

import "github.com/voyage/voyage/pkg/docs"

// Document is the order as its e-ticket prints it: only issued tickets are
// valid for travel.
func (v View) Document() docs.Train {
	d := docs.Train{BookingNumber: v.BookingNumber, RailwayRef: v.SupplierRef, Status: string(v.Status), Number: v.TrainNumber,
		Origin: v.Origin, Destination: v.Destination, SeatClass: v.SeatClass, DepartAt: v.DepartAt, ArriveAt: v.ArriveAt, Total: v.Total}
	for _, p := range v.Passengers {
		d.Passengers = append(d.Passengers, docs.TrainPassenger{ID: p.ID, Surname: p.Surname, GivenName: p.GivenName, Type: p.Type,
			DocumentType: p.DocumentType, DocumentNumber: p.DocumentNumber})
	}
	for _, t := range v.Tickets {
		if t.Status != TicketIssued {
			continue
		}
		d.Tickets = append(d.Tickets, docs.TrainTicketLine{Passenger: t.Passenger, Number: t.Number, TrainNumber: t.TrainNumber,
			Origin: t.Origin, Destination: t.Destination, Class: t.Class, Coach: t.Coach, Seat: t.Seat, DepartAt: t.DepartAt, ArriveAt: t.ArriveAt, Fare: t.Fare})
	}
	return d
}
