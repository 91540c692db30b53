package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/templates"
)

// flightBooking is /flight/booking: the flight search island (spec §2). The
// guard has already admitted an operator of a company with flights on; the
// page hands the island the dates, the agency's settlement currency and
// whether the agency hides PNR booking.
func (s *Server) flightBooking(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	p := s.page(w, r, "flight-booking")
	// The confirm page sends the user back here when the settlement currency
	// changed since the search (spec §4); say why the search is gone.
	if r.URL.Query().Get("error") == "settlementCurrency" {
		p.Flashes = append(p.Flashes, templates.Flash{Kind: "error", Key: "agencyManager.config.common.settlementCurrency.change"})
	}
	today := s.today(v)
	props := templates.FlightSearchProps{
		Lang:       i18n.Lang(r.Context()),
		HidePNR:    v.Agency.HidePNRBooking,
		Currency:   settlementCurrency(v),
		Today:      today.Format(time.DateOnly),
		Tomorrow:   today.AddDate(0, 0, 1).Format(time.DateOnly),
		SessionKey: sessionKey(v),
		Defaults:   flightDefaults(r.URL.Query()),
	}
	render(w, r, http.StatusOK, templates.FlightBookingPage(p, props))
}

// settlementCurrency is the currency the agency's prices are in; CNY when
// unset, as the shopping policy has it (spec §9).
func settlementCurrency(v viewer) string {
	if v.Agency.SettlementCurrency == "" {
		return "CNY"
	}
	return v.Agency.SettlementCurrency
}

// sessionKey names the login session for the islands, which drop what they
// kept in the browser for another one.
func sessionKey(v viewer) string {
	return strconv.FormatInt(v.Principal.SessionID, 10)
}

var placeCode = regexp.MustCompile(`^[A-Z]{3}$`)

// flightDefaults reads a preset search from the query string, keeping only
// well-formed values: the island checks the rest as it checks a user's entry.
func flightDefaults(q url.Values) *templates.FlightDefaults {
	code := func(k string) string {
		c := strings.ToUpper(strings.TrimSpace(q.Get(k)))
		if placeCode.MatchString(c) {
			return c
		}
		return ""
	}
	date := func(k string) string {
		d := strings.TrimSpace(q.Get(k))
		if _, err := time.Parse(time.DateOnly, d); err == nil {
			return d
		}
		return ""
	}
	count := func(k string) int {
		n, err := strconv.Atoi(q.Get(k))
		if err != nil || n < 0 || n > 9 {
			return 0
		}
		return n
	}
	d := templates.FlightDefaults{
		Origin: code("origin"), Destination: code("destination"), Date: date("date"), ReturnDate: date("returnDate"),
		Adult: count("adult"), Child: count("child"), Infant: count("infant"),
	}
	switch t := q.Get("bookingType"); t {
	case "oneway", "return", "multi":
		d.BookingType = t
	}
	switch c := q.Get("cabinClass"); c {
	case "economy", "premium_economy", "business", "premium_business", "first", "premium_first":
		d.CabinClass = c
	}
	if d == (templates.FlightDefaults{}) {
		return nil
	}
	return &d
}
