package web

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/templates"
)

func cardFromForm(r *http.Request) templates.CardForm {
	f := templates.CardForm{Airline: strings.TrimSpace(r.PostFormValue("airline")), Number: strings.TrimSpace(r.PostFormValue("number")),
		HolderName: strings.TrimSpace(r.PostFormValue("holderName"))}
	f.PassengerID, _ = strconv.ParseInt(r.PostFormValue("passengerId"), 10, 64)
	return f
}

func cardInput(f templates.CardForm) profile.CardInput {
	in := profile.CardInput{Airline: f.Airline, Number: f.Number, HolderName: f.HolderName}
	if f.PassengerID > 0 {
		id := f.PassengerID
		in.PassengerID = &id
	}
	return in
}

// cardsPage is GET /profile/cards; ?edit=<id> opens a card's edit form.
func (s *Server) cardsPage(w http.ResponseWriter, r *http.Request) {
	v, ok := s.travellersViewer(w, r)
	if !ok {
		return
	}
	view := templates.CardsView{}
	if raw := r.URL.Query().Get("edit"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			s.NotFound(w, r)
			return
		}
		c, err := s.travellers.Card(r.Context(), v.Principal, id)
		if err != nil {
			s.travellerFault(w, r, templates.CardsPath, err, "cards: load to edit")
			return
		}
		f := templates.CardForm{ID: c.ID, Airline: c.Airline, Number: c.Number, HolderName: c.HolderName}
		if c.PassengerID != nil {
			f.PassengerID = *c.PassengerID
		}
		view.Edit = &f
	}
	s.cardsAnswer(w, r, v, view)
}

func (s *Server) cardsAnswer(w http.ResponseWriter, r *http.Request, v viewer, view templates.CardsView) {
	ctx := r.Context()
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page, size := auth.ClampPage(page, 0)
	cards, err := s.travellers.Cards(ctx, v.Principal, profile.Paging{Page: page, PageSize: size})
	if err != nil {
		slog.ErrorContext(ctx, "cards: list", "err", err)
		s.ServerError(w, r)
		return
	}
	names, err := s.travellerNames(ctx, v.Principal)
	if err != nil {
		slog.ErrorContext(ctx, "cards: travellers", "err", err)
		s.ServerError(w, r)
		return
	}
	view.Pager = templates.NewPager(templates.CardsPath, page, size, cards.Total)
	for _, c := range cards.Items {
		row := templates.CardRow{ID: c.ID, Airline: c.Airline, Number: c.Number, HolderName: c.HolderName}
		if c.PassengerID != nil {
			for _, t := range names {
				if t.ID == *c.PassengerID {
					row.Passenger = t.Surname + "/" + t.GivenName
				}
			}
		}
		view.Rows = append(view.Rows, row)
	}
	view.Travellers = names
	pg := s.page(w, r, "profile-cards")
	pg.Styles = append(pg.Styles, travellersCSS)
	render(w, r, http.StatusOK, templates.CardsPage(pg, view))
}

// travellerNames are all the agency's saved travellers (at most 30), for
// tying a card to one.
func (s *Server) travellerNames(ctx context.Context, p auth.Principal) ([]templates.TravellerRow, error) {
	all, err := s.travellers.FindPassengers(ctx, p, "", profile.Paging{Page: 1, PageSize: profile.MaxPassengers})
	if err != nil {
		return nil, err
	}
	out := make([]templates.TravellerRow, 0, len(all.Items))
	for _, t := range all.Items {
		out = append(out, travellerRow(t))
	}
	return out, nil
}

// cardCreate takes the add-card form.
func (s *Server) cardCreate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.travellersViewer(w, r)
	if !ok {
		return
	}
	form := cardFromForm(r)
	_, err := s.travellers.CreateCard(r.Context(), v.Principal, cardInput(form), s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, templates.CardsPath, templates.Flash{Kind: "success", Key: "travellers.card.flash.created"})
		return
	}
	form.Errors, form.ErrorKey = formErrors(r.Context(), "cards: create", err)
	s.cardsAnswer(w, r, v, templates.CardsView{Create: form})
}

// cardUpdate takes a card's edit form.
func (s *Server) cardUpdate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.travellersViewer(w, r)
	if !ok {
		return
	}
	id, ok := pathID(r)
	if !ok {
		s.NotFound(w, r)
		return
	}
	form := cardFromForm(r)
	form.ID = id
	_, err := s.travellers.UpdateCard(r.Context(), v.Principal, id, cardInput(form), s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, templates.CardsPath, templates.Flash{Kind: "success", Key: "travellers.card.flash.saved"})
		return
	}
	if fe := fault.From(err); len(fe.Fields) == 0 {
		s.travellerFault(w, r, templates.CardsPath, err, "cards: update")
		return
	}
	form.Errors, form.ErrorKey = formErrors(r.Context(), "cards: update", err)
	s.cardsAnswer(w, r, v, templates.CardsView{Edit: &form})
}

// cardDelete removes a card, from the list's confirmation.
func (s *Server) cardDelete(w http.ResponseWriter, r *http.Request) {
	v, ok := s.travellersViewer(w, r)
	if !ok {
		return
	}
	id, ok := pathID(r)
	if !ok {
		s.NotFound(w, r)
		return
	}
	if err := s.travellers.DeleteCard(r.Context(), v.Principal, id, s.meta(r)); err != nil {
		s.travellerFault(w, r, templates.CardsPath, err, "cards: delete")
		return
	}
	s.redirectWithFlash(w, r, templates.CardsPath, templates.Flash{Kind: "success", Key: "travellers.card.flash.deleted"})
}
