package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/voyage/voyage/templates"
)

// confirmPropsOf reads the FlightConfirm island's props out of the page.
func confirmPropsOf(t *testing.T, page string) templates.FlightConfirmProps {
	t.Helper()
	return islandProps[templates.FlightConfirmProps](t, page, "FlightConfirm")
}

func TestFlightConfirmPage(t *testing.T) {
	t.Parallel()
	h := flightFixture(t)
	page := islandPage(t, send(h, "operator", "GET", "/flight/booking/confirm?solutionId=s1abc_d2ef", nil),
		"<h1>Confirm booking</h1>", "Booking confirmation needs JavaScript", `href="/flight/orders"`)
	got := confirmPropsOf(t, page)
	want := templates.FlightConfirmProps{Lang: "en", SolutionID: "s1abc_d2ef", Currency: "USD", Today: "2026-04-01", SessionKey: "30"}
	if got != want {
		t.Fatalf("props %+v, want %+v", got, want)
	}

	// Another agency's operator: its currency and the session's key.
	res := send(h, "hidden", "GET", "/flight/booking/confirm?solutionId=x_y", nil)
	if p := confirmPropsOf(t, billBody(t, res)); p.Currency != "CNY" || p.SessionKey != "40" || p.Today != "2026-03-31" {
		t.Fatalf("second agency: props %+v", p)
	}
}

func TestFlightConfirmWithoutSolution(t *testing.T) {
	t.Parallel()
	h := flightFixture(t)
	for _, path := range []string{
		"/flight/booking/confirm",
		"/flight/booking/confirm?solutionId=",
		"/flight/booking/confirm?solutionId=" + strings.Repeat("a", 200),
		`/flight/booking/confirm?solutionId=%3Cscript%3E`,
		"/flight/booking/confirm?solutionId=a%2Fb",
	} {
		res := send(h, "operator", "GET", path, nil)
		page := billBody(t, res)
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", path, res.StatusCode)
		}
		if strings.Contains(page, `data-island="FlightConfirm"`) {
			t.Errorf("%s: the island is on the page", path)
		}
		for _, want := range []string{"No flight was chosen to book", `href="/flight/booking"`, "Back to flight search"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: page lacks %q", path, want)
			}
		}
	}
}

// The confirm page sends the user back to the search when the settlement
// currency changed; the search page says why.
func TestFlightBookingSettlementCurrencyMessage(t *testing.T) {
	t.Parallel()
	h := flightFixture(t)
	const msg = "The settlement currency has changed."
	res := send(h, "operator", "GET", "/flight/booking?error=settlementCurrency", nil)
	page := billBody(t, res)
	if !strings.Contains(page, msg) || !strings.Contains(page, `role="alert"`) {
		t.Fatalf("no settlement currency message on\n%s", page)
	}
	if page := billBody(t, send(h, "operator", "GET", "/flight/booking", nil)); strings.Contains(page, msg) {
		t.Fatal("the message shows without the error parameter")
	}
}
