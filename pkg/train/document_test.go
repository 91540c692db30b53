package train

import (
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/money"
)

// TestDocument: the e-ticket carries only issued tickets (a refunded or
// exchanged one is not valid for travel) and the booked train.
func TestDocument(t *testing.T) {
	t.Parallel()
	dep := time.Date(2027, 1, 5, 1, 0, 0, 0, time.UTC)
	v := View{BookingNumber: "T1", Status: PartiallyRefunded, SupplierRef: "E1", SeatClass: "second", Total: money.Of(110600, "CNY"),
		Train:      Train{TrainNumber: "G1", Origin: "VNP", Destination: "AOH", DepartAt: dep, ArriveAt: dep.Add(4 * time.Hour)},
		Passengers: []Passenger{{ID: 1, Surname: "LI", GivenName: "NA", Type: "adult"}, {ID: 2, Surname: "WANG", Type: "adult"}},
		Tickets: []TicketView{
			{Ticket: Ticket{Passenger: 1, Number: "E9", TrainNumber: "G1", Status: TicketIssued}, Fare: money.Of(55300, "CNY")},
			{Ticket: Ticket{Passenger: 2, Number: "E8", TrainNumber: "G1", Status: TicketRefunded}, Fare: money.Of(55300, "CNY")},
		}}
	d := v.Document()
	if d.BookingNumber != "T1" || d.RailwayRef != "E1" || d.Status != "partially_refunded" || d.Number != "G1" || !d.ArriveAt.Equal(dep.Add(4*time.Hour)) ||
		d.Total.Amount != "1106.00" || len(d.Passengers) != 2 {
		t.Fatalf("document %+v", d)
	}
	if len(d.Tickets) != 1 || d.Tickets[0].Passenger != 1 || d.Tickets[0].Fare.Amount != "553.00" {
		t.Fatalf("valid tickets %+v, want passenger 1's only", d.Tickets)
	}
}
