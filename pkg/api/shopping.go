package api

import (
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/pnr"
	"github.com/voyage/voyage/pkg/shopping"
)

// PNRRequest is POST /shopping/v2/flight/analysis-pnr.
type PNRRequest struct {
	PNR string `json:"pnr" jsonschema:"description=the pasted GDS booking display (Amadeus, Sabre or Travelsky)"`
}

// PNRAnalysis is the parsed itinerary and passengers of a PNR.
type PNRAnalysis struct {
	Style         string          `json:"style"`
	RecordLocator string          `json:"recordLocator"`
	Segments      []PNRSegment    `json:"segments"`
	Journeys      []PNRJourney    `json:"journeys"`
	Passengers    []pnr.Passenger `json:"passengers"`
	Skipped       []string        `json:"skipped"`
}

// PNRSegment is a flight of a parsed PNR.
type PNRSegment struct {
	Carrier         string `json:"carrier"`
	FlightNumber    string `json:"flightNumber"`
	BookingClass    string `json:"bookingClass"`
	Date            string `json:"date"`
	Origin          string `json:"origin"`
	Destination     string `json:"destination"`
	DepartTime      string `json:"departTime"`
	ArriveTime      string `json:"arriveTime"`
	ArriveDayOffset int    `json:"arriveDayOffset"`
	Status          string `json:"status"`
	Seats           int    `json:"seats"`
}

// PNRJourney groups a PNR's segments.
type PNRJourney struct {
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	Date        string `json:"date"`
	Segments    []int  `json:"segments"`
}

func analysis(r pnr.Result) PNRAnalysis {
	out := PNRAnalysis{Style: r.Style, RecordLocator: r.RecordLocator, Segments: []PNRSegment{}, Journeys: []PNRJourney{},
		Passengers: r.Passengers, Skipped: r.Skipped}
	for _, s := range r.Segments {
		out.Segments = append(out.Segments, PNRSegment{Carrier: s.Carrier, FlightNumber: s.FlightNumber, BookingClass: s.BookingClass,
			Date: s.Date, Origin: s.Origin, Destination: s.Destination, DepartTime: s.DepartTime, ArriveTime: s.ArriveTime,
			ArriveDayOffset: s.ArriveDayOffset, Status: s.Status, Seats: s.Seats})
	}
	for _, j := range r.Journeys {
		out.Journeys = append(out.Journeys, PNRJourney{Origin: j.Origin, Destination: j.Destination, Date: j.Date, Segments: j.Segments})
	}
	if out.Passengers == nil {
		out.Passengers = []pnr.Passenger{}
	}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	return out
}

// flightSearch is spec §6 flightServiceEnable: the company's flight service
// on and an operator (or super user).
func flightSearch(s auth.Subject) bool { return s.FlightServiceEnable() }

func registerShopping(rt *Router, s Services) {
	if s.Shopping == nil {
		return
	}
	rt.Handle("POST /shopping/v2/flight/async-shopping", Operation{
		ID: "asyncShopping", Tag: "shopping", Allow: flightSearch,
		Summary: "Start a flight search; answers a searchId at once while the suppliers are asked in the background",
		Request: shopping.Request{}, Response: shopping.Started{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req shopping.Request
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		req.Exact = nil
		return s.Shopping.Start(r.Context(), Principal(r), req)
	})

	rt.Handle("POST /shopping/v2/flight/async-shopping/solutions", Operation{
		ID: "asyncShoppingSolutions", Tag: "shopping", Allow: flightSearch,
		Summary: "Poll a search: the solutions found so far, filtered, sorted and paged, with facet counts; poll until complete",
		Request: shopping.Query{}, Response: shopping.Page{},
		Errors: []int{fault.CodeNotFound, fault.CodeNoFlight, fault.CodeQuoteExpired},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var q shopping.Query
		if err := Decode(r, &q); err != nil {
			return nil, err
		}
		return s.Shopping.Solutions(r.Context(), Principal(r), q, i18n.Lang(r.Context()))
	})

	rt.Handle("POST /shopping/v2/flight/solutions/{id}/verification", Operation{
		ID: "verifySolution", Tag: "shopping", Allow: flightSearch,
		Summary:  "Check a solution's price with its suppliers; ok, price_changed, package_changed, invalid or document_restriction_changed, with a quote valid 15 minutes",
		Response: shopping.Verification{},
		Errors:   []int{fault.CodeNotFound, fault.CodeQuoteExpired, fault.CodeSearchTimeout},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Shopping.Verify(r.Context(), Principal(r), r.PathValue("id"), i18n.Lang(r.Context()))
	})

	pnrAllowed := func(r *http.Request) error {
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return err
		}
		if a.HidePNRBooking {
			return fault.Forbidden()
		}
		return nil
	}
	rt.Handle("POST /shopping/v2/flight/analysis-pnr", Operation{
		ID: "analysisPnr", Tag: "shopping", Allow: flightSearch,
		Summary: "Parse a pasted GDS booking display into journeys, segments and passengers (refused when the agency hides PNR booking)",
		Request: PNRRequest{}, Response: PNRAnalysis{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		if err := pnrAllowed(r); err != nil {
			return nil, err
		}
		var req PNRRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		res, err := shopping.AnalyzePNR(req.PNR, time.Now())
		if err != nil {
			return nil, err
		}
		return analysis(res), nil
	})

	rt.Handle("POST /shopping/v2/flight/accurate-search", Operation{
		ID: "accurateSearch", Tag: "shopping", Allow: flightSearch,
		Summary: "Search exactly the given flights (a PNR's itinerary); poll the solutions like any search",
		Request: shopping.AccurateRequest{}, Response: shopping.Started{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		if err := pnrAllowed(r); err != nil {
			return nil, err
		}
		var req shopping.AccurateRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return s.Shopping.AccurateSearch(r.Context(), Principal(r), req)
	})
}
