package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/templates"
)

// Travellers is what the saved-traveller, member-card and profile forms
// need of pkg/profile; *profile.Service implements it. Every call stays
// inside the caller's agency (or, for the settings, the caller).
type Travellers interface {
	FindPassengers(ctx context.Context, p auth.Principal, keyword string, pg profile.Paging) (profile.PassengerPage, error)
	Passenger(ctx context.Context, p auth.Principal, id int64) (profile.Passenger, error)
	CreatePassenger(ctx context.Context, p auth.Principal, in profile.PassengerInput, m auth.Meta) (profile.Passenger, error)
	UpdatePassenger(ctx context.Context, p auth.Principal, id int64, in profile.PassengerInput, m auth.Meta) (profile.Passenger, error)
	DeletePassenger(ctx context.Context, p auth.Principal, id int64, m auth.Meta) error
	ImportDocs(ctx context.Context, p auth.Principal, text string, m auth.Meta) (profile.ImportResult, error)
	Cards(ctx context.Context, p auth.Principal, pg profile.Paging) (profile.CardPage, error)
	Card(ctx context.Context, p auth.Principal, id int64) (profile.Card, error)
	CreateCard(ctx context.Context, p auth.Principal, in profile.CardInput, m auth.Meta) (profile.Card, error)
	UpdateCard(ctx context.Context, p auth.Principal, id int64, in profile.CardInput, m auth.Meta) (profile.Card, error)
	DeleteCard(ctx context.Context, p auth.Principal, id int64, m auth.Meta) error
	UpdateMe(ctx context.Context, p auth.Principal, u profile.Update, m auth.Meta) error
	SetConfig(ctx context.Context, p auth.Principal, key string, raw json.RawMessage, m auth.Meta) error
}

// travellersCSS styles the profile's pages, saved travellers and cards.
const travellersCSS = "/static/travellers.css"

// travellersViewer is the caller of a saved-traveller page; without the
// service the page answers 500.
func (s *Server) travellersViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	v, ok := s.admitViewer(w, r, anyone)
	if !ok {
		return v, false
	}
	if s.travellers == nil {
		slog.ErrorContext(r.Context(), "travellers pages: service not configured")
		s.ServerError(w, r)
		return v, false
	}
	return v, true
}

func travellerFromForm(r *http.Request) templates.TravellerForm {
	v := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
	return templates.TravellerForm{TravellerRow: templates.TravellerRow{Surname: v("surname"), GivenName: v("givenName"), Type: v("type"),
		Gender: v("gender"), Birthday: v("birthday"), Nationality: v("nationality"), DocumentType: v("documentType"),
		DocumentNumber: v("documentNumber"), DocumentExpiry: v("documentExpiry")}, Phone: v("phone"), Email: v("email"),
		DocumentIssuedAt: v("documentIssuedAt")}
}

func passengerInput(f templates.TravellerForm) profile.PassengerInput {
	return profile.PassengerInput{Surname: f.Surname, GivenName: f.GivenName, Type: f.Type, Gender: f.Gender, Birthday: f.Birthday,
		Nationality: f.Nationality, Phone: f.Phone, Email: f.Email, DocumentType: f.DocumentType, DocumentNumber: f.DocumentNumber,
		DocumentExpiry: f.DocumentExpiry, DocumentIssuedAt: f.DocumentIssuedAt}
}

func travellerForm(p profile.Passenger) templates.TravellerForm {
	return templates.TravellerForm{TravellerRow: travellerRow(p), Phone: p.Phone, Email: p.Email, DocumentIssuedAt: p.DocumentIssuedAt}
}

func travellerRow(p profile.Passenger) templates.TravellerRow {
	return templates.TravellerRow{ID: p.ID, Surname: p.Surname, GivenName: p.GivenName, Type: p.Type, Gender: p.Gender, Birthday: p.Birthday,
		Nationality: p.Nationality, DocumentType: p.DocumentType, DocumentNumber: p.DocumentNumber, DocumentExpiry: p.DocumentExpiry}
}

// travellersAnswer lists the travellers the query asks for around view's forms.
func (s *Server) travellersAnswer(w http.ResponseWriter, r *http.Request, v viewer, view templates.TravellersView) {
	ctx := r.Context()
	q := r.URL.Query()
	view.Keyword = strings.TrimSpace(q.Get("keyword"))
	if len(view.Keyword) > 64 {
		view.Keyword = view.Keyword[:64]
	}
	page, _ := strconv.Atoi(q.Get("page"))
	page, size := auth.ClampPage(page, 0)
	found, err := s.travellers.FindPassengers(ctx, v.Principal, view.Keyword, profile.Paging{Page: page, PageSize: size})
	if err != nil {
		slog.ErrorContext(ctx, "travellers: list", "err", err)
		s.ServerError(w, r)
		return
	}
	all := found
	if view.Keyword != "" {
		if all, err = s.travellers.FindPassengers(ctx, v.Principal, "", profile.Paging{Page: 1, PageSize: 1}); err != nil {
			slog.ErrorContext(ctx, "travellers: count", "err", err)
			s.ServerError(w, r)
			return
		}
	}
	view.Total, view.Count, view.Max = found.Total, all.Total, profile.MaxPassengers
	view.Pager = templates.NewPager(templates.TravellersURL(view.Keyword, 1), page, size, found.Total)
	for _, p := range found.Items {
		view.Rows = append(view.Rows, travellerRow(p))
	}
	w.Header().Add("Vary", "HX-Request")
	if htmxPartial(r, templates.TravellerResultsID) {
		render(w, r, http.StatusOK, templates.TravellerResults(view))
		return
	}
	view.Today = s.now().Format("2006-01-02")
	view.DocTypes = profile.DocumentTypes
	pg := s.page(w, r, "profile-travellers").WithStyles(travellersCSS)
	render(w, r, http.StatusOK, templates.TravellersPage(pg, view))
}

// travellerFault answers a failure that is not a form's: not found as the
// 404 page, anything else back to the list with its message.
func (s *Server) travellerFault(w http.ResponseWriter, r *http.Request, back string, err error, what string) {
	fe := fault.From(err)
	switch fe.Code {
	case fault.CodeNotFound:
		s.NotFound(w, r)
	case fault.CodeInternal:
		slog.ErrorContext(r.Context(), what, "err", err)
		s.ServerError(w, r)
	default:
		s.redirectWithFlash(w, r, back, templates.Flash{Kind: "error", Key: fe.Key})
	}
}

// travellerList is the saved travellers' page, GET /profile/travellers
// (?keyword= searches), and its add, edit and delete forms.
func (s *Server) travellerList() ownList[templates.TravellerForm, profile.PassengerInput, profile.Passenger] {
	return ownList[templates.TravellerForm, profile.PassengerInput, profile.Passenger]{s: s, path: templates.TravellersPath,
		name: "travellers", flash: "travellers.flash.", parse: travellerFromForm, input: passengerInput, form: travellerForm,
		load: Travellers.Passenger, create: Travellers.CreatePassenger, update: Travellers.UpdatePassenger, remove: Travellers.DeletePassenger,
		blank: templates.TravellerForm{TravellerRow: templates.TravellerRow{Type: "adult"}},
		answer: func(w http.ResponseWriter, r *http.Request, v viewer, create templates.TravellerForm, edit *templates.TravellerForm) {
			s.travellersAnswer(w, r, v, templates.TravellersView{Create: create, Edit: edit})
		},
		failed: func(f *templates.TravellerForm, id int64, errs map[string]string, key string) {
			f.ID, f.Errors, f.ErrorKey = id, errs, key
		},
	}
}

// travellersImport takes the pasted DOCS lines.
func (s *Server) travellersImport(w http.ResponseWriter, r *http.Request) {
	v, ok := s.travellersViewer(w, r)
	if !ok {
		return
	}
	text := r.PostFormValue("text")
	res, err := s.travellers.ImportDocs(r.Context(), v.Principal, text, s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, templates.TravellersPath, templates.Flash{Kind: "success", Key: importedFlash(res)})
		return
	}
	fields, key := formErrors(r.Context(), "travellers: import", err)
	if fields["text"] != "" {
		key = fields["text"]
	}
	s.travellersAnswer(w, r, v, templates.TravellersView{Create: templates.TravellerForm{TravellerRow: templates.TravellerRow{Type: "adult"}},
		Import: templates.ImportForm{Text: text, ErrorKey: key}})
}

// importedFlash is the import's message: flashes carry a bare catalog key,
// so the counts choose among messages rather than fill one.
func importedFlash(res profile.ImportResult) string {
	switch {
	case len(res.Created) == 0:
		return "travellers.flash.importedNone"
	case res.Skipped > 0:
		return "travellers.flash.importedSome"
	}
	return "travellers.flash.imported"
}
