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

func cardForm(c profile.Card) templates.CardForm {
	f := templates.CardForm{ID: c.ID, Airline: c.Airline, Number: c.Number, HolderName: c.HolderName}
	if c.PassengerID != nil {
		f.PassengerID = *c.PassengerID
	}
	return f
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
	pg := s.page(w, r, "profile-cards").WithStyles(travellersCSS)
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

// cards are the member cards' page, GET /profile/cards, and its add, edit
// and delete forms.
func (s *Server) cards() ownList[templates.CardForm, profile.CardInput, profile.Card] {
	return ownList[templates.CardForm, profile.CardInput, profile.Card]{s: s, path: templates.CardsPath, name: "cards",
		flash: "travellers.card.flash.", parse: cardFromForm, input: cardInput, form: cardForm,
		load: Travellers.Card, create: Travellers.CreateCard, update: Travellers.UpdateCard, remove: Travellers.DeleteCard,
		answer: func(w http.ResponseWriter, r *http.Request, v viewer, create templates.CardForm, edit *templates.CardForm) {
			s.cardsAnswer(w, r, v, templates.CardsView{Create: create, Edit: edit})
		},
		failed: func(f *templates.CardForm, id int64, errs map[string]string, key string) {
			f.ID, f.Errors, f.ErrorKey = id, errs, key
		},
	}
}
