package booking

import (
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/display"
)

// Zone is the agency's time zone: its days are the days of its bookings
// ("today" for a departure date, a deadline's date, an e-ticket's issue
// date), whoever of its users looks.
func Zone(a agency.Agency) *time.Location { return display.ResolveZone("", a.TimeZone) }

// Today is the agency's date at now, as midnight UTC of that date
// (display.AgencyDate): the form in which the lines compare the dates
// people type (2027-01-05) with it.
func Today(now time.Time, a agency.Agency) time.Time { return display.AgencyDate(now, a.TimeZone) }
