package tui

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
)

// The console speaks English; its words for statuses and reasons are the
// English catalog's, the portal's own.
var catalog = sync.OnceValue(i18n.MustLoad)

func catalogText(key, fallback string) string { return catalogTextIn(i18n.EN, key, fallback) }

// catalogTextIn is key's words in lang, or fallback when the catalog has
// none.
func catalogTextIn(lang, key, fallback string) string {
	if t := catalog().T(lang, key); t != key {
		return t
	}
	return fallback
}

// statusText is an order status as people read it ("Refund under review",
// not rfd_reviewing).
func statusText(s flight.Status) string { return catalogText("orders.status."+string(s), string(s)) }

// reasonText is a post-sale request's reason ("Illness", not "reason 2").
func reasonText(n int) string {
	return catalogText("orders.reason."+strconv.Itoa(n), "reason "+strconv.Itoa(n))
}

// flightText is the flight number once: suppliers give it with or without
// the airline's code in front (MU8034 or 8034).
func flightText(airline, number string) string {
	if airline == "" || strings.HasPrefix(number, airline) {
		return number
	}
	return airline + number
}

// departText is a departure at the airport's local time, saying so.
func departText(t time.Time, airport string) string {
	if t.IsZero() {
		return ""
	}
	return t.In(geo.Location(airport)).Format("2006-01-02 15:04") + " " + airport + " local"
}

// utcText is a time the product recorded, in UTC, saying so.
func utcText(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }
