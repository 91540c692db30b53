package web

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
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

// cards are the member cards' add, edit and delete forms.
func (s *Server) cards() ownList[templates.CardForm] {
	return ownList[templates.CardForm]{s: s, path: templates.CardsPath, name: "cards", flash: "travellers.card.flash.",
		parse: func(r *http.Request, id int64) templates.CardForm {
			f := cardFromForm(r)
			f.ID = id
			return f
		},
		create: func(ctx context.Context, p auth.Principal, f templates.CardForm, m auth.Meta) error {
			_, err := s.travellers.CreateCard(ctx, p, cardInput(f), m)
			return err
		},
		update: func(ctx context.Context, p auth.Principal, id int64, f templates.CardForm, m auth.Meta) error {
			_, err := s.travellers.UpdateCard(ctx, p, id, cardInput(f), m)
			return err
		},
		remove: func(ctx context.Context, p auth.Principal, id int64, m auth.Meta) error {
			return s.travellers.DeleteCard(ctx, p, id, m)
		},
		reshow: func(w http.ResponseWriter, r *http.Request, v viewer, f templates.CardForm, errs map[string]string, key string, edit bool) {
			f.Errors, f.ErrorKey = errs, key
			if edit {
				s.cardsAnswer(w, r, v, templates.CardsView{Edit: &f})
				return
			}
			s.cardsAnswer(w, r, v, templates.CardsView{Create: f})
		},
	}
}
