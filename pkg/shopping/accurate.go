package shopping

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/pnr"
	"github.com/voyage/voyage/pkg/supplier"
)

// AnalyzePNR parses a pasted GDS booking display (spec §2 search by PNR).
func AnalyzePNR(text string, now time.Time) (pnr.Result, error) {
	res, err := pnr.Parse(text, now)
	var pe *pnr.Error
	if errors.As(err, &pe) {
		return pnr.Result{}, fault.Validation(map[string]string{"pnr": pe.Key})
	}
	if err != nil {
		return pnr.Result{}, fmt.Errorf("shopping: parse pnr: %w", err)
	}
	return res, nil
}

// AccurateRequest starts a search for the exact flights of an itinerary,
// usually a parsed PNR's (POST /shopping/v2/flight/accurate-search).
type AccurateRequest struct {
	// Segments are the itinerary's flights in the order flown (1 to 8);
	// they are grouped into journeys where the next flight leaves from
	// elsewhere, more than a day later, or heads back to where the
	// journey began. When no supplier sells one of the flight numbers,
	// the same carrier's flights between the same airports that day are
	// answered instead.
	Segments []ExactSegment `json:"segments"`
	// Passengers are how many adults, children and infants travel (1
	// adult when left out), as for a search.
	Passengers supplier.Passengers `json:"passengers"`
	// CabinClass is the cabin searched, as for a search; economy when
	// left out.
	CabinClass string `json:"cabinClass,omitempty"`
}

// AccurateSearch starts a search limited to the given flights: journeys are
// the segments chained by airport, a new journey starting where the next
// flight does not leave from where the last one landed or leaves more than a
// day later.
func (e *Engine) AccurateSearch(ctx context.Context, who auth.Principal, r AccurateRequest) (Started, error) {
	if len(r.Segments) == 0 {
		return Started{}, fault.Validation(map[string]string{"segments": "shopping.pnr.noSegments"})
	}
	if len(r.Segments) > 8 {
		return Started{}, fault.Validation(map[string]string{"segments": "shopping.pnr.tooLong"})
	}
	req := Request{Passengers: r.Passengers, CabinClass: r.CabinClass}
	var prevDate time.Time
	var prevDest string
	for i, s := range r.Segments {
		s.FlightNumber = strings.ToUpper(strings.ReplaceAll(s.FlightNumber, " ", ""))
		s.Origin, s.Destination = strings.ToUpper(s.Origin), strings.ToUpper(s.Destination)
		s.BookingClass = strings.ToUpper(s.BookingClass)
		d, err := time.Parse(time.DateOnly, s.Date)
		if err != nil || len(s.FlightNumber) < 3 {
			return Started{}, fault.Validation(map[string]string{fault.Item("segments", i): "shopping.pnr.badSegment"})
		}
		r.Segments[i] = s
		// A flight back to the journey's own origin starts the way home, however
		// soon it leaves.
		back := i > 0 && cityCode(s.Destination) == cityCode(req.Journeys[len(req.Journeys)-1].Origin)
		if i == 0 || s.Origin != prevDest || d.Sub(prevDate) > 24*time.Hour || back {
			req.Journeys = append(req.Journeys, supplier.JourneyQuery{Origin: s.Origin, Destination: s.Destination, Date: s.Date})
		} else {
			req.Journeys[len(req.Journeys)-1].Destination = s.Destination
		}
		prevDate, prevDest = d, s.Destination
	}
	req.Exact = r.Segments
	switch n := len(req.Journeys); {
	case n == 1:
		req.BookingType = OneWay
	case n == 2 && cityCode(req.Journeys[0].Origin) == cityCode(req.Journeys[1].Destination) &&
		cityCode(req.Journeys[0].Destination) == cityCode(req.Journeys[1].Origin):
		req.BookingType = Return
	default:
		req.BookingType = Multi
	}
	return e.Start(ctx, who, req)
}
