package api

import (
	"errors"
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/display"
)

// daysNote is how the API's descriptions say what a date filter means.
const daysNote = ", a day on the clock of the caller's agency (its timeZone setting)"

// agencyZone is the clock the caller's date filters are read on: its
// agency's time zone, whoever of its users calls (an API client has no
// zone of its own; the agency's statements use the same days).
func (s Services) agencyZone(r *http.Request) (*time.Location, error) {
	if s.Agencies == nil {
		return display.ResolveZone("", ""), nil
	}
	a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
	if err != nil {
		return nil, err
	}
	return display.ResolveZone("", a.TimeZone), nil
}

// dayFilter reads the query's inclusive from and to days (YYYY-MM-DD) as
// the instants [from, to) on loc's clock; a bad one is a field error with
// key, a last day before the first one on "to".
func dayFilter(r *http.Request, loc *time.Location, key string, errs map[string]string) (time.Time, time.Time) {
	q := r.URL.Query()
	from, to, err := display.DayRange(q.Get("from"), q.Get("to"), loc)
	if errors.Is(err, display.ErrFromDay) {
		errs["from"] = key
	}
	if errors.Is(err, display.ErrToDay) {
		errs["to"] = key
	}
	return from, to
}

// agencyToday is the date on the caller's agency's clock, as midnight UTC:
// the issue date its documents print.
func (s Services) agencyToday(r *http.Request) (time.Time, error) {
	loc, err := s.agencyZone(r)
	if err != nil {
		return time.Time{}, err
	}
	return display.DateIn(time.Now(), loc), nil
}
