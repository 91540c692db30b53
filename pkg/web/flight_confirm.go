package web

import (
	"net/http"
	"regexp"
	"time"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/templates"
)

// solutionIDPattern is the shape of a solution id (search id, "_", digest):
// anything else never reaches the island, nor the API through it.
var solutionIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

// flightConfirm is /flight/booking/confirm?solutionId=…: the FlightConfirm
// island checks the price, takes the passengers and contact, books and pays
// (spec §2). Without a well-formed solution id the page says so and links
// back to the search.
func (s *Server) flightConfirm(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	p := s.page(w, r, "flight-booking-confirm")
	id := r.URL.Query().Get("solutionId")
	if !solutionIDPattern.MatchString(id) {
		render(w, r, http.StatusBadRequest, templates.FlightConfirmPage(p, templates.FlightConfirmProps{}))
		return
	}
	props := templates.FlightConfirmProps{
		Lang:       i18n.Lang(r.Context()),
		SolutionID: id,
		Currency:   settlementCurrency(v),
		Today:      s.today(v).Format(time.DateOnly),
		SessionKey: sessionKey(v),
	}
	render(w, r, http.StatusOK, templates.FlightConfirmPage(p, props))
}
