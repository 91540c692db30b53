package web

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/templates"
)

// flightFixture serves /flight/booking and /flight/booking/confirm as
// Register does, for an operator of agency 1 (PNR booking shown, settlement
// in USD, the default zone, China's) and one of agency 2 (PNR booking
// hidden, settlement in CNY, in Los Angeles), at 21:00 UTC on 2026-03-31:
// already 1 April in Beijing, still 31 March in Los Angeles.
func flightFixture(t *testing.T) http.Handler {
	t.Helper()
	operator := auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: true}}
	id := &fakeIdentity{sessions: map[string]auth.Principal{
		"operator": principal(3, operator),
		"hidden":   {UserID: 4, Username: "h", AgencyID: 2, SessionID: 40, Subject: operator},
		"finance":  principal(5, auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: true}}),
	}}
	s := &Server{identity: managerIdentity{id}, agencies: fakeAgencies{
		1: {ID: 1, Name: "Demo Travel", SettlementCurrency: "USD", AllowedHostsJSON: `[]`},
		2: {ID: 2, Name: "Quiet Travel", SettlementCurrency: "CNY", HidePNRBooking: true, AllowedHostsJSON: `[]`, TimeZone: "America/Los_Angeles"},
	}, now: func() time.Time { return time.Date(2026, 3, 31, 21, 0, 0, 0, time.UTC) }}
	db := storetest.Open(t, store.SQLite)
	s.site = testSite(db, nil)
	return portal(s)
}

// islandProps reads the props of the page's island name.
func islandProps[P any](t *testing.T, page, name string) P {
	t.Helper()
	m := regexp.MustCompile(`data-island="` + name + `" data-props="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no %s island in\n%s", name, page)
	}
	var p P
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &p); err != nil {
		t.Fatalf("props %s: %v", m[1], err)
	}
	return p
}

// flightProps reads the FlightSearch island's props out of the page.
func flightProps(t *testing.T, page string) templates.FlightSearchProps {
	t.Helper()
	return islandProps[templates.FlightSearchProps](t, page, "FlightSearch")
}

// islandPage is the body of res, a page of an island: 200, every one of
// wants on it and no inline style (the CSP forbids it).
func islandPage(t *testing.T, res *http.Response, wants ...string) string {
	t.Helper()
	page := billBody(t, res)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, want := range wants {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "style=") {
		t.Error("inline style in the page: the CSP forbids it")
	}
	return page
}

func TestFlightBookingPage(t *testing.T) {
	t.Parallel()
	h := flightFixture(t)
	page := islandPage(t, send(h, "operator", "GET", "/flight/booking", nil),
		"<h1>Flights</h1>", "Flight search needs JavaScript", `href="/flight/orders"`, "Go to my flight orders")
	got := flightProps(t, page)
	// Today is the agency's: in China it is already 1 April.
	want := templates.FlightSearchProps{Lang: "en", HidePNR: false, Currency: "USD", Today: "2026-04-01", Tomorrow: "2026-04-02", SessionKey: "30"}
	if got != want {
		t.Fatalf("props %+v, want %+v", got, want)
	}

	res := send(h, "hidden", "GET", "/flight/booking", nil)
	if p := flightProps(t, billBody(t, res)); !p.HidePNR || p.Currency != "CNY" || p.Today != "2026-03-31" || p.Tomorrow != "2026-04-01" {
		t.Fatalf("agency hiding PNR booking, in Los Angeles: props %+v", p)
	}
}

// The search and the confirm page are an operator's: a visitor must log
// in, finance may not.
func TestFlightBookingAccess(t *testing.T) {
	t.Parallel()
	h := flightFixture(t)
	for _, path := range []string{"/flight/booking", "/flight/booking/confirm?solutionId=s_1"} {
		for token, flash := range map[string]string{"": "error:router.login", "finance": "error:router.notRole"} {
			res := send(h, token, "GET", path, nil)
			checkRefused(t, "GET", res, flash)
		}
	}
}

func TestFlightBookingDefaults(t *testing.T) {
	t.Parallel()
	h := flightFixture(t)
	res := send(h, "operator", "GET", "/flight/booking?origin=pek&destination=LHR&date=2026-05-01&returnDate=2026-05-09&bookingType=return&cabinClass=business&adult=2&child=1", nil)
	p := flightProps(t, billBody(t, res))
	want := templates.FlightDefaults{Origin: "PEK", Destination: "LHR", Date: "2026-05-01", ReturnDate: "2026-05-09", BookingType: "return", CabinClass: "business", Adult: 2, Child: 1}
	if p.Defaults == nil || *p.Defaults != want {
		t.Fatalf("defaults %+v, want %+v", p.Defaults, want)
	}
	res = send(h, "operator", "GET", "/flight/booking?origin=BEIJING&destination=<x>&date=tomorrow&bookingType=round&cabinClass=luxury&adult=42", nil)
	if p := flightProps(t, billBody(t, res)); p.Defaults != nil {
		t.Fatalf("malformed values kept: %+v", *p.Defaults)
	}
}
