package api

import (
	"context"
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
	PNR string `json:"pnr" jsonschema_description:"the pasted GDS booking display (Amadeus, Sabre or Travelsky)"`
}

// analysis is a parsed PNR as the API answers it: lists empty, not null.
func analysis(r pnr.Result) pnr.Result {
	if r.Segments == nil {
		r.Segments = []pnr.Segment{}
	}
	if r.Journeys == nil {
		r.Journeys = []pnr.Journey{}
	}
	if r.Passengers == nil {
		r.Passengers = []pnr.Passenger{}
	}
	if r.Skipped == nil {
		r.Skipped = []string{}
	}
	return r
}

func registerShopping(rt *Router, s Services) {
	if s.Shopping == nil {
		return
	}
	rt.Handle("POST /shopping/v2/flight/async-shopping", Operation{
		ID: "asyncShopping", Reads: true, Tag: "shopping", Allow: canBook,
		Summary: "Start a flight search; answers a searchId at once while the suppliers are asked in the background; 503 (400004) with Retry-After when the server runs all the searches it can",
		Request: shopping.Request{}, Response: shopping.Started{},
		Errors: []int{fault.CodeSearchBusy},
	}, withBody(func(ctx context.Context, p auth.Principal, req shopping.Request) (shopping.Started, error) {
		req.Exact = nil
		return s.Shopping.Start(ctx, p, req)
	}))

	rt.Handle("POST /shopping/v2/flight/async-shopping/solutions", Operation{
		ID: "asyncShoppingSolutions", Reads: true, Tag: "shopping", Allow: canBook,
		Summary: "Poll a search: the solutions found so far, filtered, sorted and paged, with facet counts; poll until complete (partial: some suppliers' answers were lost)",
		Request: shopping.Query{}, Response: shopping.Page{},
		Errors: []int{fault.CodeNotFound, fault.CodeNoFlight, fault.CodeQuoteExpired},
	}, withBody(func(ctx context.Context, p auth.Principal, q shopping.Query) (shopping.Page, error) {
		return s.Shopping.Solutions(ctx, p, q, i18n.Lang(ctx))
	}))

	rt.Handle("POST /shopping/v2/flight/solutions/{id}/verification", Operation{
		ID: "verifySolution", Reads: true, Tag: "shopping", Allow: canBook,
		Summary:  "Check a solution's price with its suppliers; ok, price_changed, package_changed, invalid or document_restriction_changed, with a quote valid 15 minutes",
		Response: shopping.Verification{}, StringPath: []string{"id"},
		Errors: []int{fault.CodeNotFound, fault.CodeQuoteExpired, fault.CodeSearchTimeout},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Shopping.Verify(r.Context(), Principal(r), r.PathValue("id"), i18n.Lang(r.Context()))
	})

	// pnrOnly refuses h to an agency that hides PNR booking.
	pnrOnly := func(h HandlerFunc) HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) (any, error) {
			a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
			if err != nil {
				return nil, err
			}
			if a.HidePNRBooking {
				return nil, fault.Forbidden()
			}
			return h(w, r)
		}
	}
	rt.Handle("POST /shopping/v2/flight/analysis-pnr", Operation{
		ID: "analysisPnr", Reads: true, Tag: "shopping", Allow: canBook,
		Summary: "Parse a pasted GDS booking display into journeys, segments and passengers (refused when the agency hides PNR booking)",
		Request: PNRRequest{}, Response: pnr.Result{},
	}, pnrOnly(withBody(func(_ context.Context, _ auth.Principal, req PNRRequest) (any, error) {
		res, err := shopping.AnalyzePNR(req.PNR, time.Now())
		if err != nil {
			return nil, err
		}
		return analysis(res), nil
	})))

	rt.Handle("POST /shopping/v2/flight/accurate-search", Operation{
		ID: "accurateSearch", Reads: true, Tag: "shopping", Allow: canBook,
		Summary: "Search exactly the given flights (a PNR's itinerary); poll the solutions like any search",
		Request: shopping.AccurateRequest{}, Response: shopping.Started{},
		Errors: []int{fault.CodeSearchBusy},
	}, pnrOnly(withBody(s.Shopping.AccurateSearch)))
}
