package profile

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/pnr"
)

// Catalog keys of the DOCS import (spec §8 "Import: format error; ID-card
// or passport DOCS cannot be imported because of document limits or
// international orders").
const (
	KeyImportFormat        = pnr.KeyDocsFormat
	KeyImportFormatLine    = "travellers.import.error.formatLine"
	KeyImportEmpty         = "travellers.import.error.empty"
	KeyImportTooMany       = "travellers.import.error.tooMany"
	KeyImportInternational = "travellers.import.error.international"
	KeyImportDocumentLimit = "travellers.import.error.documentLimit"
	KeyImportIncomplete    = "travellers.import.error.incomplete"
)

// DocsLimits are what the booking a DOCS paste goes into accepts: the
// fare's documents (empty, or holding "all", takes any) and whether the
// trip is international, where an ID card is no travel document. The trip
// is international when International says so or when any of Airports,
// the trip's airports, lies outside mainland China (Hong Kong, Macao and
// Taiwan are outside it, as for geo.IsMainland).
type DocsLimits struct {
	// Documents are the document type codes the fare accepts (idcard,
	// passport, ...); a DOCS line with another document is refused.
	// Omitted, empty or holding "all" accepts any.
	Documents []string `json:"documents,omitempty"`
	// International, when true, makes the trip international, on which a
	// national ID card (idcard) is refused.
	International bool `json:"international,omitempty"`
	// Airports are the IATA codes of the trip's airports; when any lies
	// outside mainland China (Hong Kong, Macao and Taiwan included) the
	// trip is international, as if international were true.
	Airports []string `json:"airports,omitempty"`
}

func (l DocsLimits) international() bool {
	return l.International || len(l.Airports) > 0 && !Domestic(l.Airports)
}

// Domestic tells whether a trip between airports stays in mainland China,
// the one trip an ID card (idcard) travels on: Hong Kong, Macao and Taiwan
// are not domestic (geo.IsMainland), nor is a trip within another country.
// The booking checks its travellers and the DOCS import its lines by it.
func Domestic(airports []string) bool {
	for _, a := range airports {
		if !geo.IsMainland(a) {
			return false
		}
	}
	return true
}

// IDCardTravels tells whether a document of type docType may be used on a
// trip between airports: every document but an ID card, which only on a
// domestic trip.
func IDCardTravels(docType string, airports []string) bool {
	return docType != "idcard" || Domestic(airports)
}

// ReadDocs reads pasted SSR DOCS lines into passengers (pnr.ParseDocs) and
// refuses any whose document the booking does not take. Its errors are
// validation faults on the field "text".
func (s *Service) ReadDocs(text string, lim DocsLimits) ([]pnr.Passenger, error) {
	ps, err := pnr.ParseDocs(text, s.now())
	if err != nil {
		var pe *pnr.Error
		if !errors.As(err, &pe) {
			return nil, fmt.Errorf("profile: read docs: %w", err)
		}
		key := KeyImportFormat
		switch {
		case pe.Key == pnr.KeyEmpty:
			key = KeyImportEmpty
		case pe.Key == pnr.KeyTooLong:
			key = i18n.WithArgs(KeyImportTooMany, "max", pnr.MaxDocs)
		case pe.Line > 0:
			key = i18n.WithArgs(KeyImportFormatLine, "line", pe.Line)
		}
		return nil, fault.Validation(map[string]string{"text": key})
	}
	anyDoc := len(lim.Documents) == 0 || slices.Contains(lim.Documents, "all")
	international := lim.international()
	for _, p := range ps {
		name := p.Surname + "/" + p.GivenName
		if international && p.DocumentType == "idcard" {
			return nil, fault.Validation(map[string]string{"text": i18n.WithArgs(KeyImportInternational, "name", name)})
		}
		if !anyDoc && !slices.Contains(lim.Documents, p.DocumentType) {
			return nil, fault.Validation(map[string]string{"text": i18n.WithArgs(KeyImportDocumentLimit, "name", name)})
		}
	}
	return ps, nil
}

// ImportResult is what a DOCS import did: the often-used passengers it
// added, and how many it passed over because the agency already keeps a
// traveller with that document.
type ImportResult struct {
	// Created are the often-used passengers the paste added, as saved
	// (with their ids), in the paste's order.
	Created []Passenger `json:"created"`
	// Skipped is how many passengers of the paste were not added because
	// the agency already keeps one with the same document type and number.
	Skipped int `json:"skipped"`
}

// ImportDocs saves the passengers of pasted SSR DOCS lines as the agency's
// often-used passengers, all or none: one that does not make a valid
// passenger (an ID card's DOCS without expiry, say) refuses the paste, as
// does going past the 30 the agency may keep. A passenger whose document
// number the agency already keeps is passed over, so pasting the same
// booking twice adds nobody.
func (s *Service) ImportDocs(ctx context.Context, p auth.Principal, text string, m auth.Meta) (ImportResult, error) {
	if p.UserID == 0 {
		return ImportResult{}, fault.Forbidden()
	}
	ps, err := s.ReadDocs(text, DocsLimits{})
	if err != nil {
		return ImportResult{}, err
	}
	ins := make([]PassengerInput, 0, len(ps))
	for _, d := range ps {
		in, err := s.checkPassenger(ctx, p.AgencyID, PassengerInput{Surname: d.Surname, GivenName: d.GivenName, Type: d.Type, Gender: d.Gender,
			Birthday: d.Birthday, Nationality: d.Nationality, DocumentType: d.DocumentType, DocumentNumber: d.DocumentNumber,
			DocumentExpiry: d.DocumentExpiry})
		if _, invalid := fault.As(err); err != nil && !invalid {
			return ImportResult{}, err
		}
		if err != nil {
			return ImportResult{}, fault.Validation(map[string]string{"text": i18n.WithArgs(KeyImportIncomplete, "name", d.Surname+"/"+d.GivenName)})
		}
		ins = append(ins, in)
	}
	now := s.now().UTC()
	out := ImportResult{Created: []Passenger{}}
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		out = ImportResult{Created: []Passenger{}}
		if err := s.lockAgency(ctx, tx, p.AgencyID); err != nil {
			return err
		}
		n, err := countPassengers(ctx, tx, p.AgencyID)
		if err != nil {
			return err
		}
		for _, in := range ins {
			saved, err := alreadySaved(ctx, tx, p.AgencyID, in, 0)
			if err != nil {
				return err
			}
			if saved {
				out.Skipped++
				continue
			}
			if n >= MaxPassengers {
				return fault.Conflict("profile.passenger.error.max")
			}
			created, err := insertPassenger(ctx, tx, p, in, m, now)
			if err != nil {
				return err
			}
			out.Created = append(out.Created, created)
			n++
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, err
	}
	return out, nil
}
