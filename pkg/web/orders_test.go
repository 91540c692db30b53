package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/templates"
)

// ordersEnv is the order pages over the real order service on SQLite: the
// provider (agency 1), Demo Travel (2) with its sub-agency Kowloon Tours
// (3), and a stranger agency (4) under the provider.
type ordersEnv struct {
	portalEnv // the orders by booking number
}

// testOrder is a flight_orders row for a test.
type testOrder struct {
	number, typ, pnr, flight, surname, tickets string
	agency                                     int64
	status                                     flight.Status
	original                                   string // booking number of the order acted on
	total                                      int64
	payBy, confirmBy                           time.Time
	created                                    time.Time
	prices                                     flight.Prices
	booked                                     bool // one booking with changeSupplier
}

// changeSupplier answers change searches with one option a day later than
// asked; the rest of supplier.Supplier is not used (nil embed).
type changeSupplier struct{ supplier.Supplier }

func (changeSupplier) ChangeQuotes(_ context.Context, ref string, js []supplier.JourneyQuery) ([]supplier.Quote, error) {
	d, _ := time.Parse(time.DateOnly, js[0].Date)
	dep := d.Add(26 * time.Hour)
	return []supplier.Quote{{Ref: "CQ-" + ref, Due: 30000, Fee: 5000, Currency: "CNY", ExpiresAt: time.Now().Add(15 * time.Minute),
		Offer: &supplier.Offer{Supplier: "sim", Segments: []supplier.Segment{{Carrier: "MU", FlightNumber: "MU553", Origin: js[0].Origin,
			Destination: js[0].Destination, DepartAt: dep, ArriveAt: dep.Add(4 * time.Hour)}}}}}, nil
}

func ordersFixture(t *testing.T) *ordersEnv {
	t.Helper()
	db := storetest.Open(t, store.SQLite)
	agencies := fourAgencies(t, db, true, false)
	env := &ordersEnv{portalEnv{db: db, ids: map[string]int64{}, hrefOf: templates.OrderHref}}
	now := time.Now().UTC()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 9, 0, 0, 0, time.UTC) }
	for _, o := range []testOrder{
		{number: "F0001", agency: 2, status: flight.ToBePaid, pnr: "PNRAAA", flight: "CA937", surname: "ZHANG", total: 150000, payBy: now.Add(time.Hour), created: day(2)},
		{number: "F0002", agency: 2, status: flight.Issued, pnr: "PNRBBB", flight: "MU551", surname: "WANG", tickets: "999-1000000001", total: 200000, created: day(5),
			booked: true, prices: flight.Prices{TicketPrice: 180000, Taxes: 20000, SaleTotal: 200000, FareBasis: "YOW"}},
		{number: "F0003", agency: 3, status: flight.ToBePaid, pnr: "PNRCCC", flight: "CX251", surname: "CHAN", total: 90000, payBy: now.Add(time.Hour), created: day(10)},
		{number: "F0004", agency: 2, status: flight.Issued, pnr: "PNRDDD", flight: "CA981", surname: "LI", tickets: "999-1000000002", total: 300000, created: day(12)},
		{number: "R0005", agency: 2, typ: flight.TypeRefund, original: "F0004", status: flight.RfdToBeConfirm, pnr: "PNRDDD", flight: "CA981", surname: "LI",
			total: 250000, confirmBy: now.Add(24 * time.Hour), created: day(13), prices: flight.Prices{RefundAmount: 250000, RefundFee: 40000, ServiceFee: 10000}},
		{number: "X0006", agency: 4, status: flight.ToBePaid, pnr: "PNRXXX", flight: "BA38", surname: "SMITH", total: 500000, payBy: now.Add(time.Hour), created: day(3)},
	} {
		env.ids[o.number] = insertTestOrder(t, db, o, env.ids)
	}
	for _, d := range []struct {
		number, typ, detail, email string
	}{
		{"F0002", "change", "MU551 now leaves at 10:40", "ops@demo.example"},
		{"X0006", "cancel_no_save", "BA38 cancelled", "ops@stranger.example"},
	} {
		agencyID := int64(2)
		if d.number == "X0006" {
			agencyID = 4
		}
		if _, err := db.Exec(db.Rebind(`INSERT INTO flight_disruptions (order_id, agency_id, type, detail, email, emailed_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`), env.ids[d.number], agencyID, d.typ, d.detail, d.email, day(6), day(6)); err != nil {
			t.Fatal(err)
		}
	}

	operator := auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: true}}
	id := &fakeIdentity{sessions: map[string]auth.Principal{
		"operator": {UserID: 10, Username: "op", AgencyID: 2, SessionID: 100, Subject: operator},
		// ny-operator reads the portal on New York's clock (the agency's is
		// Shanghai's, the default).
		"ny-operator": {UserID: 12, Username: "ny", AgencyID: 2, SessionID: 120, Subject: operator, TimeZone: "America/New_York"},
		"finance":     {UserID: 11, Username: "fin", AgencyID: 2, SessionID: 110, Subject: auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: true}}},
		"provider":    {UserID: 1, Username: "admin", AgencyID: 1, SessionID: 10, Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, Common: auth.CommonConfig{EnableFlightService: true}}},
	}}
	svc := flight.New(flight.Options{Deps: booking.Deps{DB: db, Ledger: ledger.New(db), Agencies: agencies}, Suppliers: func(name string) (supplier.Supplier, bool) { return changeSupplier{}, name == "sim" }})
	s := &Server{identity: managerIdentity{id}, agencies: agencies, orders: svc, now: time.Now}
	s.site = testSite(db, nil)
	env.h = crossOriginPortal(s)
	return env
}

func insertTestOrder(t *testing.T, db *store.DB, o testOrder, ids map[string]int64) int64 {
	t.Helper()
	if o.typ == "" {
		o.typ = flight.TypeOrigin
	}
	depart := time.Date(2026, 5, 1, 2, 30, 0, 0, time.UTC)
	segs, _ := json.Marshal(map[string]any{
		"segments": []shopping.SegmentView{{Segment: supplier.Segment{Carrier: o.flight[:2], FlightNumber: o.flight, Origin: "PEK", Destination: "HKG",
			DepartAt: depart, ArriveAt: depart.Add(4 * time.Hour), DurationMinutes: 240, Cabin: "economy", BookingClass: "Y"}}},
		"journeys": []shopping.JourneyView{{Segments: []int{0}, Origin: "PEK", Destination: "HKG", DepartAt: depart, ArriveAt: depart.Add(4 * time.Hour)}},
	})
	pax, _ := json.Marshal([]flight.Passenger{{Type: "adult", Surname: o.surname, GivenName: "SAN", DocumentNumber: "E1234567", TicketNumber: o.tickets}})
	contact, _ := json.Marshal(flight.Contact{Name: "Ops", Email: "ops@demo.example", Phone: "+86 10 1234 5678"})
	prices, _ := json.Marshal(o.prices)
	booked := flight.Booked{}
	if o.booked {
		booked.Bookings = []supplier.Booking{{Supplier: "sim", Ref: "B-" + o.number, PNR: o.pnr, Currency: "CNY"}}
	}
	quote, _ := json.Marshal(map[string]any{"booked": booked})
	bookings, _ := json.Marshal(booked.Bookings)
	var original, root any
	if o.original != "" {
		original, root = ids[o.original], ids[o.original]
	}
	null := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return t
	}
	var id int64
	err := db.Get(&id, db.Rebind(`INSERT INTO flight_orders (booking_number, agency_id, user_id, type, original_id, root_id, status, payment_status,
		pnr, airline, flight_number, ticket_numbers, origin, destination, depart_at, currency, total, prices, segments, passengers, contact,
		quote, bookings, pay_by, confirm_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		o.number, o.agency, 10, o.typ, original, root, string(o.status), flight.Unpaid, o.pnr, o.flight[:2], o.flight, o.tickets, "PEK", "HKG",
		depart, "CNY", o.total, string(prices), string(segs), string(pax), string(contact), string(quote), string(bookings),
		null(o.payBy), null(o.confirmBy), o.created, o.created)
	if err != nil {
		t.Fatal(err)
	}
	if root == nil {
		if _, err := db.Exec(db.Rebind(`UPDATE flight_orders SET root_id = ? WHERE id = ?`), id, id); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func (e *ordersEnv) status(t *testing.T, number string) string {
	t.Helper()
	var st string
	if err := e.db.Get(&st, e.db.Rebind(`SELECT status FROM flight_orders WHERE id = ?`), e.ids[number]); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestOrderPagesAccess(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	for _, tt := range []struct{ token, method, path, flash string }{
		{"", "GET", "/flight/orders", "error:router.login"},
		{"finance", "GET", "/flight/orders", "error:router.notRole"},
		{"finance", "GET", "/flight/orders/voyage", "error:router.notRole"},
		{"finance", "GET", e.href("F0001"), "error:router.notRole"},
		{"", "POST", e.href("F0001") + "/actions/cancel", "error:router.login"},
		{"finance", "POST", e.href("F0001") + "/actions/cancel", "error:router.notRole"},
	} {
		t.Run(tt.token+" "+tt.method+" "+tt.path, func(t *testing.T) {
			checkRefused(t, tt.method, send(e.h, tt.token, tt.method, tt.path, url.Values{"confirm": {"1"}}), tt.flash)
		})
	}
	if st := e.status(t, "F0001"); st != "to_be_paid" {
		t.Fatalf("refused posts changed the order: %s", st)
	}
}

func TestOrderListShowsOwnAndSubAgencyOrders(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	body := e.okPage(t, "operator", "/flight/orders")
	for _, n := range []string{"F0001", "F0002", "F0003", "F0004", "R0005"} {
		if !strings.Contains(body, `href="`+e.href(n)+`">`+n+`</a>`) {
			t.Errorf("list lacks %s (own or sub-agency order)", n)
		}
	}
	if strings.Contains(body, "X0006") {
		t.Error("another agency's order is listed")
	}
	for _, want := range []string{"<h1>Flight orders</h1>", "Orders found: 5", `class="badge orders-tone-primary">To be paid</span>`,
		`class="badge orders-tone-success">Ticketed</span>`, `class="badge orders-tone-primary">Refund to be confirmed</span>`,
		"ZHANG/SAN", "PEK–HKG", "1,500.00 CNY", `hx-get="/flight/orders"`, `hx-push-url="true"`, `name="direct"`} {
		if !strings.Contains(body, want) {
			t.Errorf("list lacks %q", want)
		}
	}

	// Another agency's order is not found, to look at or to act on.
	for _, path := range []string{e.href("X0006"), "/flight/orders/999999", "/flight/orders/x"} {
		if code, _ := e.page(t, "operator", path); code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, code)
		}
	}
	res := send(e.h, "operator", "POST", e.href("X0006")+"/actions/cancel", url.Values{"confirm": {"1"}})
	if res.StatusCode != http.StatusNotFound || e.status(t, "X0006") != "to_be_paid" {
		t.Fatalf("cancelling another agency's order: %d, status %s", res.StatusCode, e.status(t, "X0006"))
	}
	// The provider sees every agency's orders.
	if _, body := e.page(t, "provider", "/flight/orders"); !strings.Contains(body, "X0006") || !strings.Contains(body, "F0001") {
		t.Error("the provider does not see all orders")
	}
}

var groupCount = regexp.MustCompile(`id="orders-group-([a-z_-]+)"[^>]*>\s*<span>[^<]*</span>\s*<span class="orders-count[^"]*">(\d+)</span>`)

func TestOrderListPendingCounts(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	_, body := e.page(t, "operator", "/flight/orders")
	got := map[string]string{}
	for _, m := range groupCount.FindAllStringSubmatch(body, -1) {
		got[m[1]] = m[2]
	}
	want := map[string]string{"to_be_paid": "2", "reviewing": "0", "proceeding": "0", "pending-confirm": "1", "refunding": "0"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("pending counts %v, want %v", got, want)
	}
	for _, label := range []string{"To be paid", "Under review", "In progress", "Awaiting confirmation", "Refunding", "Original booking", "Refund", "Void", "Change"} {
		if !strings.Contains(body, label) {
			t.Errorf("menu lacks %q", label)
		}
	}
}

func TestOrderListFilters(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"group=to_be_paid", []string{"F0001", "F0003"}},
		{"group=pending-confirm", []string{"R0005"}},
		{"type=refund", []string{"R0005"}},
		{"type=origin&direct=1", []string{"F0001", "F0002", "F0004"}},
		{"keyword=pnrbbb", []string{"F0002"}},
		{"keyword=chan", []string{"F0003"}},
		{"status=issued", []string{"F0002", "F0004"}},
		{"group=to_be_paid&status=to_be_paid&direct=1", []string{"F0001"}},
		{"from=2026-01-05&to=2026-01-10", []string{"F0002", "F0003"}},
		{"group=nonsense&type=nonsense&status=nonsense", []string{"F0001", "F0002", "F0003", "F0004", "R0005"}},
	}
	all := []string{"F0001", "F0002", "F0003", "F0004", "R0005"}
	for _, tt := range tests {
		code, body := e.page(t, "operator", "/flight/orders?"+tt.query)
		if code != http.StatusOK {
			t.Errorf("%s: status %d", tt.query, code)
			continue
		}
		for _, n := range all {
			listed := strings.Contains(body, ">"+n+"</a>")
			wanted := strings.Contains(strings.Join(tt.want, " "), n)
			if listed != wanted {
				t.Errorf("%s: %s listed %v, want %v", tt.query, n, listed, wanted)
			}
		}
	}

	// Filters stay in the form and the pager; a bad date is reported, not
	// applied.
	_, body := e.page(t, "operator", "/flight/orders?keyword=PNR&direct=1&from=2026-13-01")
	for _, want := range []string{`name="keyword" type="search" value="PNR"`, `id="orders-direct" name="direct" value="1" checked`,
		"Enter a date as YYYY-MM-DD.", "Some filters were not applied", "Orders found: 4"} {
		if !strings.Contains(body, want) {
			t.Errorf("filtered page lacks %q", want)
		}
	}
	if _, body := e.page(t, "operator", "/flight/orders?keyword=NOSUCH"); !strings.Contains(body, `id="orders-empty"`) || !strings.Contains(body, "No orders match these filters.") {
		t.Error("no empty state for a filter without results")
	}
}

// TestOrderListDaysOnViewerClock: the created-from/to days are days on the
// viewer's clock, an order at 23:30 in New York on the last day being in
// and one at 00:30 the day after out.
func TestOrderListDaysOnViewerClock(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	for _, o := range []testOrder{
		{number: "N0007", created: time.Date(2026, 2, 20, 3, 30, 0, 0, time.UTC)}, // 19 Feb 22:30 New York, 20 Feb 11:30 Shanghai
		{number: "N0008", created: time.Date(2026, 2, 21, 4, 30, 0, 0, time.UTC)}, // 20 Feb 23:30 New York, 21 Feb 12:30 Shanghai
		{number: "N0009", created: time.Date(2026, 2, 21, 5, 30, 0, 0, time.UTC)}, // 21 Feb 00:30 New York
	} {
		o.agency, o.status, o.pnr, o.flight, o.surname, o.total = 2, flight.Issued, "PNR"+o.number[1:], "CA937", "ZHAO", 100000
		e.ids[o.number] = insertTestOrder(t, e.db, o, e.ids)
	}
	tests := []struct {
		name, token, query string
		want               []string
	}{
		{"New York day", "ny-operator", "from=2026-02-20&to=2026-02-20", []string{"N0008"}},
		{"New York last day only", "ny-operator", "to=2026-02-20&from=2026-02-19", []string{"N0007", "N0008"}},
		{"Shanghai day", "operator", "from=2026-02-20&to=2026-02-20", []string{"N0007"}},
		{"Shanghai next day", "operator", "from=2026-02-21&to=2026-02-21", []string{"N0008", "N0009"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := e.okPage(t, tt.token, "/flight/orders?"+tt.query)
			for _, n := range []string{"N0007", "N0008", "N0009"} {
				listed := strings.Contains(body, ">"+n+"</a>")
				if wanted := slices.Contains(tt.want, n); listed != wanted {
					t.Errorf("%s listed %v, want %v", n, listed, wanted)
				}
			}
		})
	}
}

func TestOrderListHTMXPartial(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	_, full := e.page(t, "operator", "/flight/orders?type=refund")
	if !strings.Contains(full, "<!doctype html>") && !strings.Contains(full, "<!DOCTYPE html>") {
		t.Fatal("a plain GET does not render the whole page")
	}
	_, part := e.page(t, "operator", "/flight/orders?type=refund", "HX-Request", "true", "HX-Target", templates.OrdersResultsID)
	if strings.Contains(strings.ToLower(part), "<!doctype html>") || strings.Contains(part, "orders-filter") || strings.Contains(part, "orders-menu") {
		t.Fatalf("the htmx answer is more than the results:\n%s", part)
	}
	if !strings.HasPrefix(strings.TrimSpace(part), `<div id="orders-results"`) || !strings.Contains(part, "R0005") || strings.Contains(part, "F0001") {
		t.Fatalf("the htmx answer is not the filtered results:\n%s", part)
	}
	// A history restore needs the whole page again.
	_, restored := e.page(t, "operator", "/flight/orders?type=refund", "HX-Request", "true", "HX-Target", templates.OrdersResultsID, "HX-History-Restore-Request", "true")
	if !strings.Contains(restored, "orders-menu") {
		t.Fatal("a history restore got the partial")
	}
}

func TestDisruptionList(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	body := e.okPage(t, "operator", "/flight/orders/voyage")
	for _, want := range []string{`href="` + e.href("F0002") + `">F0002</a>`, "Schedule change", "MU551 now leaves at 10:40", "ops@demo.example", "Sent",
		"Disruptions found: 1"} {
		if !strings.Contains(body, want) {
			t.Errorf("disruption list lacks %q", want)
		}
	}
	if strings.Contains(body, "X0006") || strings.Contains(body, "BA38 cancelled") {
		t.Error("another agency's disruption is listed")
	}
	_, body = e.page(t, "operator", "/flight/orders/voyage?type=restore")
	if !strings.Contains(body, `id="disruptions-empty"`) || strings.Contains(body, "F0002") {
		t.Error("the type filter does not filter")
	}
	_, part := e.page(t, "operator", "/flight/orders/voyage?type=change", "HX-Request", "true", "HX-Target", templates.DisruptionsResultsID)
	if !strings.HasPrefix(strings.TrimSpace(part), `<div id="disruptions-results"`) || !strings.Contains(part, "F0002") {
		t.Fatalf("htmx answer:\n%s", part)
	}
}

// formActions are the action paths of the forms on a page.
var formAction = regexp.MustCompile(`action="/flight/orders/\d+/actions/([a-z_/]+)"`)

func formActions(body string) []string {
	var out []string
	for _, m := range formAction.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestOrderDetailShowsAllowedActions(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	tests := []struct {
		token, number string
		actions       []string
		want          []string
	}{
		{"operator", "F0001", []string{"pay", "cancel"}, []string{`name="idempotencyKey"`, `name="channel"`, "Wallet balance", "Amount due", "Pay by",
			`name="confirm"`, "Cancel booking", "1,500.00"}},
		{"operator", "F0002", []string{"change/search", "change", "refund", "void"}, []string{`enctype="multipart/form-data"`,
			`accept=".jpg,.jpeg,.png,.pdf"`, `name="subReason2"`, `name="subReason3"`, `name="subReason6"`, "Visa refused",
			`name="journeys[0].date"`, `value="2026-05-01"`, "Ticket price", "1,800.00", "Sale total", "Fare basis", "YOW",
			"/order/v2/flight/orders/" + fmt.Sprint(e.ids["F0002"]) + "/documents/eticket?format=pdf",
			"/order/v2/flight/orders/" + fmt.Sprint(e.ids["F0002"]) + "/documents/itinerary?format=xlsx", "999-1000000001",
			"Beijing", "Economy"}},
		// An open refund request: no second request on the original.
		{"operator", "F0004", nil, []string{`href="` + e.href("R0005") + `">R0005</a>`, "Related orders"}},
		{"operator", "R0005", []string{"confirm", "cancel_refund"}, []string{"Refund to be confirmed", "Confirm by", "You receive", "2,500.00",
			`href="` + e.href("F0004") + `"`, "Original order"}},
		// An original shows how it was paid.
		{"operator", "F0001", []string{"pay", "cancel"}, []string{`id="order-payment"`, "Unpaid"}},
		// The provider reviews; the agency's actions are not the provider's.
		{"provider", "F0001", nil, nil},
	}
	for _, tt := range tests {
		code, body := e.page(t, tt.token, e.href(tt.number))
		if code != http.StatusOK {
			t.Errorf("%s: status %d", tt.number, code)
			continue
		}
		if got := formActions(body); fmt.Sprint(got) != fmt.Sprint(tt.actions) {
			t.Errorf("%s as %s: forms %v, want %v", tt.number, tt.token, got, tt.actions)
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: page lacks %q", tt.number, w)
			}
		}
		if strings.Contains(body, "style=") {
			t.Errorf("%s: inline style (the CSP forbids it)", tt.number)
		}
	}
	// A refund order's total is what it returns, not a sale of 0.00, and it
	// has no payment status of its own.
	_, refund := e.page(t, "operator", e.href("R0005"))
	prices := refund[strings.Index(refund, `id="order-prices"`):]
	prices = prices[:strings.Index(prices, "</table>")]
	if strings.Contains(prices, "Sale total") || !strings.Contains(prices, "You receive") || !strings.Contains(prices, "2,500.00") ||
		strings.Contains(refund, `id="order-payment"`) {
		t.Errorf("refund order prices: %s", prices)
	}
	// Change reasons are 0, 1 and 7 only.
	_, body := e.page(t, "operator", e.href("F0002"))
	change := body[strings.Index(body, `id="change-reason"`):]
	change = change[:strings.Index(change, "</select>")]
	if strings.Contains(change, `value="2"`) || !strings.Contains(change, `value="7"`) {
		t.Errorf("change reasons: %s", change)
	}
}

func TestOrderActionCrossSiteRefused(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	req := httptest.NewRequest("POST", e.href("F0001")+"/actions/cancel", strings.NewReader("confirm=1"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "operator"})
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden || e.status(t, "F0001") != "to_be_paid" {
		t.Fatalf("cross-site cancel: %d, order %s", rec.Code, e.status(t, "F0001"))
	}
}

func TestOrderCancelAndAct(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	// Without the confirmation box nothing happens.
	res := send(e.h, "operator", "POST", e.href("F0001")+"/actions/cancel", url.Values{})
	if res.StatusCode != http.StatusSeeOther || flashOf(res) != "error:orders.error.confirmRequired" || e.status(t, "F0001") != "to_be_paid" {
		t.Fatalf("unconfirmed cancel: %d %q %s", res.StatusCode, flashOf(res), e.status(t, "F0001"))
	}
	res = send(e.h, "operator", "POST", e.href("F0001")+"/actions/cancel", url.Values{"confirm": {"1"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != e.href("F0001") || flashOf(res) != "success:orders.done.cancel" {
		t.Fatalf("cancel: %d to %q flash %q", res.StatusCode, res.Header.Get("Location"), flashOf(res))
	}
	if st := e.status(t, "F0001"); st != "canceled" {
		t.Fatalf("status %s after cancel", st)
	}
	// Again: the state no longer allows it, and the message says so.
	res = send(e.h, "operator", "POST", e.href("F0001")+"/actions/cancel", url.Values{"confirm": {"1"}})
	if flashOf(res) != "error:order.error.state" {
		t.Fatalf("second cancel flash %q", flashOf(res))
	}
	res = send(e.h, "operator", "POST", e.href("R0005")+"/actions/cancel_refund", url.Values{"confirm": {"1"}})
	if flashOf(res) != "success:orders.done.cancel_refund" || e.status(t, "R0005") != "refund_canceled" {
		t.Fatalf("cancel refund: %q %s", flashOf(res), e.status(t, "R0005"))
	}
	// An unknown action is not found.
	if res := send(e.h, "operator", "POST", e.href("F0002")+"/actions/ticketed", url.Values{}); res.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown action: %d", res.StatusCode)
	}
}

func TestOrderPayForm(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	res := send(e.h, "operator", "POST", e.href("F0001")+"/actions/pay", url.Values{"channel": {"balance"}})
	if flashOf(res) != "error:orders.error.formExpired" {
		t.Fatalf("keyless pay: flash %q", flashOf(res))
	}
	// The wallet is empty: the ledger refuses and the order stays payable.
	res = send(e.h, "operator", "POST", e.href("F0001")+"/actions/pay", url.Values{"channel": {"balance"}, "idempotencyKey": {"web-pay-1"}})
	if flashOf(res) != "error:ledger.error.insufficient" || e.status(t, "F0001") != "to_be_paid" {
		t.Fatalf("pay from an empty wallet: %q %s", flashOf(res), e.status(t, "F0001"))
	}
	res = send(e.h, "operator", "POST", e.href("F0001")+"/actions/pay", url.Values{"channel": {"bitcoin"}, "idempotencyKey": {"web-pay-2"}})
	if flashOf(res) != "error:order.error.channel" {
		t.Fatalf("unknown channel: %q", flashOf(res))
	}
}

// multipartPost posts a request form with files.
func multipartPost(t *testing.T, e *ordersEnv, path string, fields map[string]string, files map[string][]byte) *http.Response {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	for name, data := range files {
		fw, err := mw.CreateFormFile("proofs", name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = fw.Write(data)
	}
	if len(files) == 0 {
		// What a browser posts when no file was chosen.
		fw, _ := mw.CreateFormFile("proofs", "")
		_, _ = fw.Write(nil)
	}
	mw.Close()
	req := httptest.NewRequest("POST", path, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return serveAs(e.h, "operator", req)
}

func TestOrderRefundRequest(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	path := e.href("F0002") + "/actions/refund"
	// Reason 2 needs its sub-option: the form comes back with the error.
	res := multipartPost(t, e, path, map[string]string{"reason": "2", "remark": "sick"}, nil)
	body := billBody(t, res)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `id="refund-errors"`) ||
		!strings.Contains(body, `href="#refund-subReason"`) || !strings.Contains(body, ">sick</textarea>") {
		t.Fatalf("missing sub-reason: %d\n%s", res.StatusCode, body)
	}
	// A file that is not a picture or PDF is refused.
	res = multipartPost(t, e, path, map[string]string{"reason": "0"}, map[string][]byte{"notes.txt": []byte("plain text")})
	if body := billBody(t, res); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `href="#refund-proofs"`) {
		t.Fatalf("text proof: %d", res.StatusCode)
	}
	// Six files are one too many.
	six := map[string][]byte{}
	for i := range 6 {
		six[fmt.Sprintf("p%d.png", i)] = pngProof(t)
	}
	res = multipartPost(t, e, path, map[string]string{"reason": "0"}, six)
	if body := billBody(t, res); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Attach at most 5 files.") {
		t.Fatalf("six proofs: %d", res.StatusCode)
	}

	res = multipartPost(t, e, path, map[string]string{"reason": "2", "subReason2": "companion", "subReason3": "visa-refused", "remark": "sick"},
		map[string][]byte{"note.png": pngProof(t)})
	if res.StatusCode != http.StatusSeeOther || flashOf(res) != "success:orders.done.refund" {
		t.Fatalf("refund request: %d %q", res.StatusCode, flashOf(res))
	}
	var created struct {
		ID      int64  `db:"id"`
		Status  string `db:"status"`
		Request string `db:"request"`
	}
	if err := e.db.Get(&created, `SELECT id, status, request FROM flight_orders WHERE type = 'refund' AND original_id = ?`, e.ids["F0002"]); err != nil {
		t.Fatal(err)
	}
	if res.Header.Get("Location") != templates.OrderHref(created.ID) || created.Status != "rfd_reviewing" ||
		!strings.Contains(created.Request, `"reason":2`) || !strings.Contains(created.Request, `"subReason":"companion"`) {
		t.Fatalf("request order %+v, redirect %q", created, res.Header.Get("Location"))
	}
	// Its page shows the request, the proof link and the cancel form.
	_, body = e.page(t, "operator", templates.OrderHref(created.ID))
	var proofID int64
	if err := e.db.Get(&proofID, `SELECT id FROM flight_order_proofs WHERE order_id = ?`, created.ID); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Illness · A travel companion is ill", templates.OrderProofHref(created.ID, proofID), "note.png", "Refund under review"} {
		if !strings.Contains(body, want) {
			t.Errorf("request page lacks %q", want)
		}
	}
	if got := formActions(body); fmt.Sprint(got) != "[cancel_refund]" {
		t.Errorf("request page forms %v", got)
	}
}

var optionRadio = regexp.MustCompile(`name="optionId" value="([0-9a-f]+)"`)

func TestOrderChangeSearchAndRequest(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	search := e.href("F0002") + "/actions/change/search"
	journey := func(date string) url.Values {
		return url.Values{"journeys[0].origin": {"PEK"}, "journeys[0].destination": {"HKG"}, "journeys[0].date": {date}}
	}
	// A date in the past comes back on the search form, as typed.
	res := send(e.h, "operator", "POST", search, journey("2020-01-01"))
	body := billBody(t, res)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `id="change-search-errors"`) ||
		!strings.Contains(body, `href="#change-search-date-0"`) || !strings.Contains(body, `value="2020-01-01"`) {
		t.Fatalf("past date: %d\n%s", res.StatusCode, body)
	}
	// A booking made of other tickets cannot be searched: the message shows.
	res = send(e.h, "operator", "POST", e.href("F0004")+"/actions/change/search", journey("2030-01-01"))
	if res.StatusCode != http.StatusSeeOther || flashOf(res) != "error:order.error.changeMultiTicket" {
		t.Fatalf("search without one booking: %d %q", res.StatusCode, flashOf(res))
	}

	date := time.Now().AddDate(0, 1, 0).Format(time.DateOnly)
	res = send(e.h, "operator", "POST", search, journey(date))
	body = billBody(t, res)
	m := optionRadio.FindStringSubmatch(body)
	if res.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("search: %d\n%s", res.StatusCode, body)
	}
	for _, want := range []string{"MU553", "Total 350.00 CNY", `value="` + date + `"`, `id="change-option-none"`} {
		if !strings.Contains(body, want) {
			t.Errorf("options lack %q", want)
		}
	}
	res = multipartPost(t, e, e.href("F0002")+"/actions/change", map[string]string{"reason": "0", "optionId": m[1], "remark": "one day later"}, nil)
	if res.StatusCode != http.StatusSeeOther || flashOf(res) != "success:orders.done.change" {
		t.Fatalf("change request: %d %q", res.StatusCode, flashOf(res))
	}
	var req string
	if err := e.db.Get(&req, `SELECT request FROM flight_orders WHERE type = 'change' AND original_id = ?`, e.ids["F0002"]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(req, `"optionId":"`+m[1]+`"`) {
		t.Fatalf("change request %s lacks the option", req)
	}
}

func pngProof(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestOrderProviderReview(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	ctx := context.Background()
	// A held booking of an agency that may not pay: the provider issues it.
	if _, err := e.db.ExecContext(ctx, e.db.Rebind(`UPDATE flight_orders SET status = 'reserved' WHERE id = ?`), e.ids["X0006"]); err != nil {
		t.Fatal(err)
	}
	_, body := e.page(t, "provider", e.href("X0006"))
	if got := formActions(body); fmt.Sprint(got) != "[issue]" {
		t.Fatalf("provider forms %v", got)
	}
	res := send(e.h, "provider", "POST", e.href("X0006")+"/actions/issue", url.Values{"remark": {"paid offline"}})
	if flashOf(res) != "success:orders.done.issue" || e.status(t, "X0006") != "proceeding" {
		t.Fatalf("issue: %q %s", flashOf(res), e.status(t, "X0006"))
	}
	// An agency user cannot take the provider's actions.
	res = send(e.h, "operator", "POST", e.href("F0001")+"/actions/approve", url.Values{})
	if flashOf(res) == "success:orders.done.approve" || e.status(t, "F0001") != "to_be_paid" {
		t.Fatalf("agency approve: %q %s", flashOf(res), e.status(t, "F0001"))
	}
}

// TestOrderCatalog: every status, type, group, disruption type, reason and
// sub-reason has a label in every language.
func TestOrderCatalog(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	var keys []string
	for _, s := range flight.Statuses {
		keys = append(keys, "orders.status."+string(s))
	}
	for _, typ := range append([]string{"all"}, flight.Types...) {
		keys = append(keys, "orders.type."+typ)
	}
	for _, g := range flight.PendingGroups {
		keys = append(keys, "orders.group."+g.Name)
	}
	for _, d := range flight.DisruptionTypes {
		keys = append(keys, "orders.disruption.type."+d)
	}
	for _, n := range flight.RefundReasons {
		keys = append(keys, fmt.Sprintf("orders.reason.%d", n))
		for _, s := range flight.SubReasons[n] {
			keys = append(keys, fmt.Sprintf("orders.subReason.%d.%s", n, s))
		}
	}
	for _, c := range payment.Channels {
		keys = append(keys, "orders.channel."+c)
	}
	for a := range orderActionSuccess {
		keys = append(keys, "orders.action."+string(a), "orders.done."+string(a), "orders.event."+string(a))
	}
	for _, lang := range i18n.Supported() {
		ctx := i18n.WithLocalizer(context.Background(), cat, lang)
		for _, k := range keys {
			if !i18n.Has(ctx, k) {
				t.Errorf("%s: no %s", lang, k)
			}
		}
	}
}

// pageAs GETs path from h as the session token ("" for a visitor), with
// the headers hdr (name, value…), and answers the status and body.
func pageAs(t *testing.T, h http.Handler, token, path string, hdr ...string) (int, string) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res := serveAs(h, token, req)
	return res.StatusCode, billBody(t, res)
}

// fourAgencies makes the agencies of the line pages' tests: the provider
// Voyage (1), Demo Travel under it (2) with its sub-agency Kowloon Tours
// (3), and Stranger Tours (4), another of the provider's agencies; the
// agencies have the flight or train service switched on, the provider
// both.
func fourAgencies(t *testing.T, db *store.DB, flights, trains bool) *agency.Store {
	t.Helper()
	ctx := context.Background()
	agencies := agency.NewStore(db)
	one, two := int64(1), int64(2)
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		for _, n := range []agency.New{
			{ID: 1, Name: "Voyage", EnableFlightService: true, EnableTrainService: trains},
			{ID: 2, ParentID: &one, Name: "Demo Travel", EnableFlightService: flights, EnableTrainService: trains, CanCreateSubAgency: true},
			{ID: 3, ParentID: &two, Name: "Kowloon Tours", EnableFlightService: flights, EnableTrainService: trains},
			{ID: 4, ParentID: &one, Name: "Stranger Tours", EnableFlightService: flights, EnableTrainService: trains},
		} {
			if _, err := agencies.Create(ctx, tx, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return agencies
}
