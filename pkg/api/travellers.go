package api

import (
	"net/http"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/pnr"
	"github.com/voyage/voyage/pkg/profile"
)

// DocsRequest is the body of POST /base/v2/analysis/docs: pasted SSR DOCS
// lines (a whole booking display will do) and what the booking they go into
// accepts.
type DocsRequest struct {
	Text string `json:"text" jsonschema_description:"pasted SSR DOCS lines, or a whole booking display"`
	profile.DocsLimits
}

// DocsAnswer is the passengers a DOCS paste holds.
type DocsAnswer struct {
	// Passengers are the travellers the paste holds, with their documents,
	// in the paste's order; nothing is stored.
	Passengers []pnr.Passenger `json:"passengers"`
}

// ImportRequest is the body of POST /base/v2/analysis/docs/import.
type ImportRequest struct {
	// Text is the pasted SSR DOCS lines, or a whole booking display holding
	// them; at most 30 passengers.
	Text string `json:"text"`
}

// registerTravellers adds the DOCS import (issue 18) next to the
// often-used passengers it fills.
func registerTravellers(rt *Router, s Services) {
	rt.Handle("POST /base/v2/analysis/docs", Operation{
		ID: "analyseDocs", Reads: true, Tag: "profile",
		Summary: "Read the passengers and their documents from pasted SSR DOCS lines " +
			"(SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN), at most 30. Nothing is stored. " +
			"documents (the fare's accepted document codes; empty or \"all\" takes any), international, and airports (the trip's; more than one country makes it international) refuse the DOCS the booking cannot take. " +
			"Errors are 100001 on the field text: a format error (with its line), an ID card on an international order, a document the fare does not take",
		Request: DocsRequest{}, Response: DocsAnswer{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req DocsRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		ps, err := s.Profile.ReadDocs(req.Text, req.DocsLimits)
		if err != nil {
			return nil, err
		}
		return DocsAnswer{Passengers: ps}, nil
	})

	rt.Handle("POST /base/v2/analysis/docs/import", Operation{
		ID: "importPassengers", Tag: "profile", UserOnly: true, SelfAudited: true, Status: http.StatusCreated,
		Summary: "Save the passengers of pasted SSR DOCS lines as the agency's often-used passengers, all or none; " +
			"a document number the agency already keeps is passed over (counted in skipped). Errors as POST /base/v2/analysis/docs, " +
			"and 100001 on text when a DOCS does not make a complete passenger (an ID card without expiry); 100009 past the 30 the agency may keep",
		Request: ImportRequest{}, Response: profile.ImportResult{},
		Errors: []int{fault.CodeConflict},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req ImportRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return s.Profile.ImportDocs(r.Context(), Principal(r), req.Text, Meta(r))
	})
}
