package shopping

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

// Booking types (spec §3 Flight booking filter).
const (
	OneWay = "oneway"
	Return = "return"
	Multi  = "multi"
)

// Limits of a search (spec §5, §9).
const (
	MaxJourneys   = 5
	MaxPassengers = 9
	// MaxDaysAhead is how far ahead airlines sell: schedules open about 361
	// days before departure.
	MaxDaysAhead = 361
)

// Request starts a flight search (POST /shopping/v2/flight/async-shopping):
// the journeys, the travellers and the cabin.
type Request struct {
	// Journeys are the journeys to fly, in order: one for oneway, two for
	// return (the second the way back between the same cities), two to
	// five for multi. Dates may not go backwards.
	Journeys []supplier.JourneyQuery `json:"journeys"`
	// Passengers are how many adults, children and infants travel: at
	// least one adult, no more infants than adults, at most 9 in all (1
	// adult when left out).
	Passengers supplier.Passengers `json:"passengers"`
	// CabinClass is the cabin searched; economy when left out.
	CabinClass string `json:"cabinClass" jsonschema:"enum=economy,enum=premium_economy,enum=business,enum=premium_business,enum=first,enum=premium_first"`
	// BookingType is the trip's shape, which must agree with the number of
	// journeys; oneway when left out.
	BookingType string `json:"bookingType" jsonschema:"enum=oneway,enum=return,enum=multi"`
	// Exact, set by accurate search, limits results to these flights.
	Exact []ExactSegment `json:"exact,omitempty" jsonschema:"-"`
}

// ExactSegment is one flight of an itinerary searched exactly (a PNR's).
type ExactSegment struct {
	// FlightNumber is the flight's carrier code and number, e.g. CA937
	// (spaces are ignored).
	FlightNumber string `json:"flightNumber"`
	// Date is the flight's departure date, YYYY-MM-DD (local).
	Date string `json:"date"`
	// Origin is the IATA code of the airport the flight leaves from.
	Origin string `json:"origin"`
	// Destination is the IATA code of the airport the flight lands at.
	Destination string `json:"destination"`
	// BookingClass is the one-letter booking class wanted (e.g. Y);
	// empty for any class.
	BookingClass string `json:"bookingClass,omitempty"`
}

// Normalize upper-cases codes, fills defaults and checks the journey rules of
// spec §5. It returns field → catalog key; empty means valid. today is the
// searcher's date.
func (r *Request) Normalize(today time.Time) map[string]string {
	errs := map[string]string{}
	if r.CabinClass == "" {
		r.CabinClass = supplier.CabinEconomy
	}
	if !slices.Contains(supplier.Cabins, r.CabinClass) {
		errs["cabinClass"] = "shopping.error.cabin"
	}
	if r.BookingType == "" {
		r.BookingType = OneWay
	}
	if r.Passengers == (supplier.Passengers{}) {
		r.Passengers.Adult = 1
	}
	p := r.Passengers
	switch {
	case p.Adult < 1 || p.Child < 0 || p.Infant < 0:
		errs["passengers"] = "shopping.error.adults"
	case p.Infant > p.Adult:
		errs["passengers"] = "shopping.error.infants"
	case p.Total() > MaxPassengers:
		errs["passengers"] = "shopping.error.passengers"
	}
	if len(r.Journeys) == 0 {
		errs["journeys"] = "flight.booking.journeyError.empty"
		return errs
	}
	if len(r.Journeys) > MaxJourneys {
		errs["journeys"] = "shopping.error.tooManyJourneys"
		return errs
	}
	switch r.BookingType {
	case OneWay:
		if len(r.Journeys) != 1 {
			errs["bookingType"] = "shopping.error.bookingType"
		}
	case Return:
		if len(r.Journeys) != 2 {
			errs["bookingType"] = "shopping.error.bookingType"
		}
	case Multi:
		if len(r.Journeys) < 2 {
			errs["bookingType"] = "shopping.error.bookingType"
		}
	default:
		errs["bookingType"] = "shopping.error.bookingType"
	}
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	var prev time.Time
	for i := range r.Journeys {
		j := &r.Journeys[i]
		j.Origin = strings.ToUpper(strings.TrimSpace(j.Origin))
		j.Destination = strings.ToUpper(strings.TrimSpace(j.Destination))
		j.Date = strings.TrimSpace(j.Date)
		if d, ok := CheckJourney(errs, fault.Item("journeys", i), j.Origin, j.Destination, j.Date, day, prev); ok {
			prev = d
		}
	}
	if r.BookingType == Return && len(r.Journeys) == 2 && len(errs) == 0 {
		a, b := r.Journeys[0], r.Journeys[1]
		if cityCode(a.Origin) != cityCode(b.Destination) || cityCode(a.Destination) != cityCode(b.Origin) {
			errs["journeys.1.destination"] = "shopping.error.returnRoute"
		}
	}
	return errs
}

// CheckJourney checks one journey of a flight search or a group request,
// its errors under the journey's path ("journeys[0]", fault.Item):
// airports or cities the directory knows, not two places of one city, a
// date from day (the agency's today) to MaxDaysAhead on and not before
// prev, the journey before it. It answers the date when it reads as one.
func CheckJourney(errs map[string]string, journey, origin, destination, date string, day, prev time.Time) (time.Time, bool) {
	field := func(name string) string { return fault.Field(journey, name) }
	if geo.Resolve(origin) == nil {
		errs[field("origin")] = "shopping.error.airport"
	}
	if geo.Resolve(destination) == nil {
		errs[field("destination")] = "shopping.error.airport"
	}
	if errs[field("origin")] == "" && errs[field("destination")] == "" && cityCode(origin) == cityCode(destination) {
		errs[field("destination")] = "order.flight.booking.journeyError.rules"
	}
	d, err := time.Parse(time.DateOnly, date)
	switch {
	case err != nil:
		errs[field("date")] = "shopping.error.date"
	case d.Before(day):
		errs[field("date")] = "shopping.error.datePast"
	case d.After(day.AddDate(0, 0, MaxDaysAhead)):
		errs[field("date")] = "shopping.error.dateFar"
	case !prev.IsZero() && d.Before(prev):
		errs[field("date")] = "shopping.error.dateOrder"
	}
	return d, err == nil
}

// cityCode maps an airport or city code to its city (spec §5 compares
// journeys' ends by city).
func cityCode(code string) string {
	return cmp.Or(geo.CityOf(code), code)
}
