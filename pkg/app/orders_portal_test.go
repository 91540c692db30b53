package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/web"
)

// portalAs is a browser holding the session of an API login (the portal
// and the API share sessions).
func portalAs(t *testing.T, srv *httptest.Server, token string) *http.Client {
	t.Helper()
	c := browser(t)
	u, _ := url.Parse(srv.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: web.SessionCookie, Value: token, Path: "/"}})
	return c
}

var portalIdempotencyKey = regexp.MustCompile(`name="idempotencyKey" value="([^"]+)"`)

// TestFlightOrderPortal drives the order pages through the whole handler:
// who sees which orders, the pending counts, the detail's forms, a
// cross-site post refused and a payment made with the page's form.
func TestFlightOrderPortal(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		stranger := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		fund(t, a, op.Company.ID, "50000")
		quoteID, _ := quoteFor(t, srv, op.Token)
		mine := createOrder(t, srv, op.Token, quoteID, "portal-1")
		subQuote, _ := quoteFor(t, srv, sub.Token)
		theirs := createOrder(t, srv, sub.Token, subQuote, "portal-2")

		opWeb, subWeb, strangerWeb := portalAs(t, srv, op.Token), portalAs(t, srv, sub.Token), portalAs(t, srv, stranger.Token)
		res, body := get(t, opWeb, srv.URL+"/flight/orders", "Accept-Language", "en")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("list: %d", res.StatusCode)
		}
		for _, n := range []string{mine.BookingNumber, theirs.BookingNumber} {
			if !strings.Contains(body, n) {
				t.Errorf("the agency's list lacks %s (own or sub-agency order)", n)
			}
		}
		if !regexp.MustCompile(`id="orders-group-to_be_paid"[^>]*>\s*<span>To be paid</span>\s*<span class="orders-count">2</span>`).MatchString(body) {
			t.Error("the pending count of to_be_paid is not 2")
		}
		_, body = get(t, opWeb, srv.URL+"/flight/orders?direct=1", "Accept-Language", "en")
		if !strings.Contains(body, mine.BookingNumber) || strings.Contains(body, theirs.BookingNumber) {
			t.Error("direct bookings only lists the sub-agency's order")
		}
		_, body = get(t, subWeb, srv.URL+"/flight/orders", "Accept-Language", "en")
		if strings.Contains(body, mine.BookingNumber) || !strings.Contains(body, theirs.BookingNumber) {
			t.Error("the sub-agency sees its parent's order")
		}
		_, body = get(t, strangerWeb, srv.URL+"/flight/orders", "Accept-Language", "en")
		if strings.Contains(body, mine.BookingNumber) || strings.Contains(body, theirs.BookingNumber) {
			t.Error("another agency sees the orders")
		}
		detail := fmt.Sprintf("%s/flight/orders/%d", srv.URL, mine.ID)
		if res, _ := get(t, strangerWeb, detail, "Accept-Language", "en"); res.StatusCode != http.StatusNotFound {
			t.Fatalf("another agency's detail: %d, want 404", res.StatusCode)
		}

		res, body = get(t, opWeb, detail, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("detail: %d", res.StatusCode)
		}
		for _, want := range []string{fmt.Sprintf(`action="/flight/orders/%d/actions/pay"`, mine.ID), fmt.Sprintf(`action="/flight/orders/%d/actions/cancel"`, mine.ID),
			"To be paid", "Wallet balance", "50,000.00"} {
			if !strings.Contains(body, want) {
				t.Errorf("detail lacks %q", want)
			}
		}
		// Flight times read in each airport's local time, as on the ticket.
		local := mine.DepartAt.In(geo.Location(mine.Origin)).Format("2006-01-02 15:04")
		utc := mine.DepartAt.UTC().Format("2006-01-02 15:04")
		if !strings.Contains(body, local) || local == utc || strings.Contains(body, utc+" UTC") {
			t.Errorf("departure of %s not in %s local time %s (UTC %s)", mine.FlightNumber, mine.Origin, local, utc)
		}
		m := portalIdempotencyKey.FindStringSubmatch(body)
		if m == nil {
			t.Fatal("the pay form has no idempotency key")
		}
		pay := url.Values{"idempotencyKey": {m[1]}, "channel": {"balance"}}

		// A cross-site post is refused before the portal.
		res, _ = postForm(t, opWeb, detail+"/actions/pay", pay, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if res.StatusCode != http.StatusForbidden {
			t.Fatalf("cross-site pay: %d, want 403", res.StatusCode)
		}
		if v := getOrder(t, srv, op.Token, mine.ID); v.Status != flight.ToBePaid {
			t.Fatalf("cross-site pay changed the order to %s", v.Status)
		}
		// The same form from the page pays; posting it twice pays once.
		for i := range 2 {
			res, _ = postForm(t, opWeb, detail+"/actions/pay", pay, "Sec-Fetch-Site", "same-origin", "Origin", srv.URL)
			if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != fmt.Sprintf("/flight/orders/%d", mine.ID) {
				t.Fatalf("pay %d: %d to %q", i, res.StatusCode, res.Header.Get("Location"))
			}
		}
		if v := getOrder(t, srv, op.Token, mine.ID); v.Status == flight.ToBePaid || v.PaymentStatus != flight.Paid {
			t.Fatalf("after paying: %s %s", v.Status, v.PaymentStatus)
		}
		_, body = get(t, opWeb, detail, "Accept-Language", "en")
		if !strings.Contains(body, "The payment was made.") {
			t.Error("no success message after paying")
		}
	})
}
