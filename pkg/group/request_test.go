package group

import (
	"testing"
	"time"
)

// TestRequestJourneys: a group request's journeys are checked as a flight
// search's are (shopping.CheckJourney), on the agency's today, and a
// return date on its own.
func TestRequestJourneys(t *testing.T) {
	t.Parallel()
	s := &Service{minSize: 10}
	today := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		journeys []Journey
		field    string
		want     string // "" for no error on field
	}{
		{"a good journey", []Journey{{Origin: "pek", Destination: "lhr", Date: "2027-03-20"}}, "journeys[0].date", ""},
		{"unknown airport", []Journey{{Origin: "PEK", Destination: "XXX", Date: "2027-03-20"}}, "journeys[0].destination", "shopping.error.airport"},
		{"two airports of one city", []Journey{{Origin: "PEK", Destination: "PKX", Date: "2027-03-20"}}, "journeys[0].destination", "order.flight.booking.journeyError.rules"},
		{"yesterday", []Journey{{Origin: "PEK", Destination: "LHR", Date: "2027-02-28"}}, "journeys[0].date", "shopping.error.datePast"},
		{"today", []Journey{{Origin: "PEK", Destination: "LHR", Date: "2027-03-01"}}, "journeys[0].date", ""},
		{"beyond the airlines' sales", []Journey{{Origin: "PEK", Destination: "LHR", Date: "2028-03-01"}}, "journeys[0].date", "shopping.error.dateFar"},
		{"not a date", []Journey{{Origin: "PEK", Destination: "LHR", Date: "1 March"}}, "journeys[0].date", "shopping.error.date"},
		{"a journey before the one before", []Journey{{Origin: "PEK", Destination: "LHR", Date: "2027-03-20"}, {Origin: "LHR", Destination: "CDG", Date: "2027-03-10"}},
			"journeys[1].date", "shopping.error.dateOrder"},
		{"back before going", []Journey{{Origin: "PEK", Destination: "LHR", Date: "2027-03-20", ReturnDate: "2027-03-19"}}, "journeys[0].returnDate", "shopping.error.dateOrder"},
	}
	for _, c := range cases {
		in := RequestInput{Journeys: c.journeys, Contact: Contact{Name: "Li Lei", Email: "li@example.com", Phone: "13800000000"}}
		errs := s.normalize(&in, today)
		if got := errs[c.field]; got != c.want {
			t.Errorf("%s: %s = %q, want %q (all: %v)", c.name, c.field, got, c.want, errs)
		}
	}
}
