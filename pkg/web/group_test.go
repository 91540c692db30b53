package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/clock/clocktest"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/group/grouptest"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/templates"
)

// groupEnv is the group pages over the real group service (on SQLite and
// PostgreSQL, storetest.Run): the
// provider (agency 1), Demo Travel (2) with its sub-agency Kowloon Tours
// (3), and a stranger agency (4). Each agency has asked for one group.
type groupEnv struct {
	portalEnv // the group orders by their agency's token
	svc       *group.Service
	who       map[string]auth.Principal
	// clock is the group service's: a test moves it past a deadline.
	clock *clocktest.Clock
}

// scheduleSupplier answers a quote's schedule search with two nonstop
// flights on the day asked, as cheap as each other: CA1599 first, with 6
// seats left (too few for the fixtures' groups of ten, so a quote must
// never offer it), then CA1501; the rest of supplier.Supplier is not used.
type scheduleSupplier struct{ supplier.Supplier }

func (scheduleSupplier) Search(_ context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	jq := req.Journeys[0]
	d, _ := time.Parse(time.DateOnly, jq.Date)
	dep := d.Add(9 * time.Hour)
	return []supplier.Offer{{Supplier: "sim", Ref: "S0", Currency: "CNY", Segments: []supplier.Segment{{Carrier: "CA", FlightNumber: "CA1599",
		Origin: jq.Origin, Destination: jq.Destination, DepartAt: dep, ArriveAt: dep.Add(2 * time.Hour), DurationMinutes: 120, Cabin: "economy",
		BookingClass: "G", SeatsLeft: 6}}, Journeys: [][]int{{0}}}, {Supplier: "sim", Ref: "S1", Currency: "CNY", Segments: []supplier.Segment{{Carrier: "CA", FlightNumber: "CA1501",
		Origin: jq.Origin, Destination: jq.Destination, DepartAt: dep, ArriveAt: dep.Add(2 * time.Hour), DurationMinutes: 120, Cabin: "economy",
		BookingClass: "G"}}, Journeys: [][]int{{0}}}}, nil
}

func groupFixture(t *testing.T, db *store.DB) *groupEnv {
	t.Helper()
	ctx := context.Background()
	agencies := fourAgencies(t, db, true, false)
	cat := i18n.MustLoad()
	clk := clocktest.New(time.Now().UTC())
	svc := group.New(group.Options{Deps: booking.Deps{DB: db, Ledger: ledger.New(db), Agencies: agencies, Now: clk.Now}, Catalog: cat, Suppliers: func(name string) (supplier.Supplier, bool) { return scheduleSupplier{}, name == "sim" }, SupplierNames: func() []string { return []string{"sim"} }})
	op := auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: true}}
	env := &groupEnv{portalEnv: portalEnv{db: db, ids: map[string]int64{}, hrefOf: templates.GroupHref}, svc: svc, clock: clk, who: map[string]auth.Principal{
		"operator": {UserID: 10, Username: "op", AgencyID: 2, SessionID: 100, Subject: op},
		"kowloon":  {UserID: 30, Username: "kl", AgencyID: 3, SessionID: 300, Subject: auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 2, Common: auth.CommonConfig{EnableFlightService: true}}},
		"stranger": {UserID: 40, Username: "st", AgencyID: 4, SessionID: 400, Subject: op},
		"finance":  {UserID: 11, Username: "fin", AgencyID: 2, SessionID: 110, Subject: auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: true}}},
		"provider": {UserID: 1, Username: "admin", AgencyID: 1, SessionID: 10, Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, Common: auth.CommonConfig{EnableFlightService: true}}},
	}}
	date := time.Now().UTC().AddDate(0, 2, 0).Format(time.DateOnly)
	for i, tok := range []string{"operator", "kowloon", "stranger"} {
		v, err := svc.Request(ctx, env.who[tok], fmt.Sprintf("req-%d", i), group.RequestInput{
			Journeys:   []group.Journey{{Origin: "PEK", Destination: "SHA", Date: date}},
			Passengers: &group.Counts{Adult: 10}, CabinClass: "economy",
			Contact: group.Contact{Name: "Ops " + tok, Email: tok + "@example.com", Phone: "+86 10 5555 0000"}})
		if err != nil {
			t.Fatalf("request of %s: %v", tok, err)
		}
		env.ids[tok] = v.ID
	}
	s := &Server{identity: managerIdentity{&fakeIdentity{sessions: env.who}}, agencies: agencies, groups: svc, now: clk.Now}
	s.site = testSite(db, approxRates)
	env.h = portal(s)
	return env
}

// onGroupOrders runs test in parallel on each engine, with a fresh
// groupFixture.
func onGroupOrders(t *testing.T, test func(t *testing.T, e *groupEnv)) {
	t.Helper()
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		test(t, groupFixture(t, db))
	})
}

func (e *groupEnv) status(t *testing.T, tok string) string {
	t.Helper()
	v, err := e.svc.Get(context.Background(), e.who["provider"], e.ids[tok])
	if err != nil {
		t.Fatal(err)
	}
	return string(v.Status)
}

// quote has the provider quote tok's order through the service: two
// deposits and the final payment, the first a week out.
func (e *groupEnv) quote(t *testing.T, tok string) {
	t.Helper()
	now := time.Now().UTC()
	_, err := e.svc.Quote(context.Background(), e.who["provider"], e.ids[tok], group.QuoteInput{
		Fares: []group.FareInput{{PassengerType: "adult", Amount: "1000.00"}}, ConfirmBefore: now.Add(72 * time.Hour),
		Installments: []group.InstallmentInput{{Stage: "first", Amount: "2000.00", Deadline: now.Add(7 * 24 * time.Hour)},
			{Stage: "second", Amount: "3000.00", Deadline: now.Add(14 * 24 * time.Hour)}, {Stage: "final", Amount: "5000.00", Deadline: now.Add(21 * 24 * time.Hour)}},
		PassengerListDeadline: now.Add(10 * 24 * time.Hour), FreeDropSeats: 1})
	if err != nil {
		t.Fatalf("quote %s: %v", tok, err)
	}
}

// confirm takes tok's quoted order through the service to confirmed:
// accepted, a list of ten names uploaded, confirmed.
func (e *groupEnv) confirm(t *testing.T, tok string) {
	t.Helper()
	ctx, id, op := context.Background(), e.ids[tok], e.who[tok]
	if _, err := e.svc.Accept(ctx, op, id); err != nil {
		t.Fatalf("accept %s: %v", tok, err)
	}
	list := listFile(t, 10, false)
	if _, err := e.svc.UploadPassengers(ctx, op, id, bytes.NewReader(list), int64(len(list))); err != nil {
		t.Fatalf("passengers of %s: %v", tok, err)
	}
	if _, err := e.svc.Confirm(ctx, op, id); err != nil {
		t.Fatalf("confirm %s: %v", tok, err)
	}
}

func TestGroupPagesAccess(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		own := e.href("operator")
		for _, tt := range []struct{ token, method, path, flash string }{
			{"", "GET", "/flight/group/booking", "error:router.login"},
			{"", "GET", "/flight/group/order", "error:router.login"},
			{"", "GET", own, "error:router.login"},
			{"finance", "GET", "/flight/group/booking", "error:router.notRole"},
			{"finance", "GET", "/flight/group/booking/confirm", "error:router.notRole"},
			{"finance", "GET", "/flight/group/order", "error:router.notRole"},
			{"finance", "GET", own, "error:router.notRole"},
			{"", "POST", own + "/cancel", "error:router.login"},
			{"finance", "POST", own + "/cancel", "error:router.notRole"},
			{"finance", "POST", own + "/payment", "error:router.notRole"},
			// The provider's forms are the provider's only.
			{"operator", "POST", own + "/quote", "error:router.notRole"},
			{"operator", "POST", own + "/seats", "error:router.notRole"},
		} {
			t.Run(tt.token+" "+tt.method+" "+tt.path, func(t *testing.T) {
				checkRefused(t, tt.method, send(e.h, tt.token, tt.method, tt.path, url.Values{"confirm": {"1"}, "result": {"granted"}}), tt.flash)
			})
		}
		if st := e.status(t, "operator"); st != "to_be_quote" {
			t.Fatalf("refused posts changed the order: %s", st)
		}
	})
}

func TestGroupListShowsOwnAndSubAgencyOrders(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		body := e.okPage(t, "operator", "/flight/group/order")
		for _, tok := range []string{"operator", "kowloon"} {
			if !strings.Contains(body, `href="`+e.href(tok)+`"`) {
				t.Errorf("list lacks the %s order (own or sub-agency)", tok)
			}
		}
		if strings.Contains(body, `href="`+e.href("stranger")+`"`) {
			t.Error("another agency's group order is listed")
		}
		// 'all' and one entry per status, with the counts (spec §2).
		if n := strings.Count(body, `id="group-status-`); n != 1+len(group.Statuses) {
			t.Errorf("menu has %d entries, want all + %d statuses", n, len(group.Statuses))
		}
		for _, want := range []string{`id="group-status-all"`, `aria-current="page"`, "To be quoted", "Group orders found: 2", "PEK–SHA",
			"10 / 0 / 0", `class="badge orders-tone-warning">To be quoted</span>`} {
			if !strings.Contains(body, want) {
				t.Errorf("list lacks %q", want)
			}
		}
		if !regexp.MustCompile(`id="group-status-to_be_quote"[^>]*>\s*<span>To be quoted</span>\s*<span class="orders-count">2</span>`).MatchString(body) {
			t.Error("the to_be_quote entry does not count 2")
		}
		// A status narrows the list; htmx gets the results alone.
		_, body = e.page(t, "operator", "/flight/group/order?status=issued")
		if !strings.Contains(body, "No group orders in this status.") {
			t.Error("issued lists orders")
		}
		_, part := e.page(t, "operator", "/flight/group/order?page=1", "HX-Request", "true", "HX-Target", templates.GroupResultsID)
		if strings.Contains(part, "<html") || !strings.Contains(part, `id="group-results"`) {
			t.Errorf("htmx paging answers more than the results: %.200s", part)
		}
		// The sub-agency sees its own order only.
		_, body = e.page(t, "kowloon", "/flight/group/order")
		if !strings.Contains(body, e.href("kowloon")) || strings.Contains(body, `href="`+e.href("operator")+`"`) {
			t.Error("the sub-agency sees its parent's group order, or not its own")
		}
	})
}

func TestGroupProviderQueueAndQuoteForm(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		_, body := e.page(t, "provider", "/flight/group/order")
		// The queue of requests to quote leads the provider's menu.
		if i, j := strings.Index(body, `id="group-status-to_be_quote"`), strings.Index(body, `id="group-status-all"`); i < 0 || i > j {
			t.Error("the provider's menu does not lead with the queue")
		}
		_, body = e.page(t, "provider", "/flight/group/order?status=to_be_quote")
		for _, want := range []string{"Requests waiting for a quote: 3", "Demo Travel", "Kowloon Tours", "Stranger Tours"} {
			if !strings.Contains(body, want) {
				t.Errorf("queue lacks %q", want)
			}
		}
		// The quote form: bad input comes back beside its field, nothing changes.
		path := e.href("stranger") + "/quote"
		form := url.Values{"currency": {"CNY"}, "fare.adult": {"abc"}, "confirmBefore": {"soon"},
			"installment.final.amount": {"1000"}, "installment.final.deadline": {time.Now().UTC().AddDate(0, 0, 20).Format(quoteTime)},
			"passengerListDeadline": {time.Now().UTC().AddDate(0, 0, 10).Format(quoteTime)}, "freeDropSeats": {"0"}}
		res := send(e.h, "provider", "POST", path, form)
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), `id="quote-confirm-before-error"`) {
			t.Fatalf("bad quote: status %d, no error beside confirm-before", res.StatusCode)
		}
		if !strings.Contains(string(b), `value="abc"`) {
			t.Error("the quote form lost what was typed")
		}
		if st := e.status(t, "stranger"); st != "to_be_quote" {
			t.Fatalf("a refused quote changed the order: %s", st)
		}
		// A good quote: the flights come from the supplier's schedule.
		form.Set("fare.adult", "1000.00")
		form.Set("confirmBefore", time.Now().UTC().Add(72*time.Hour).Format(quoteTime))
		form.Set("installment.final.amount", "10000.00")
		res = send(e.h, "provider", "POST", path, form)
		if res.StatusCode != http.StatusSeeOther || flashOf(res) != "success:groupportal.done.quote" {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("quote: status %d flash %q %s", res.StatusCode, flashOf(res), groupErrors(string(b)))
		}
		_, body = e.page(t, "stranger", e.href("stranger"))
		for _, want := range []string{"To be confirmed", "CA1501", "10,000.00 CNY", `id="group-countdown"`, `data-island="GroupCountdown"`,
			`id="quote-accept"`, `id="quote-decline"`, "A quote holds a fare, not seats"} {
			if !strings.Contains(body, want) {
				t.Errorf("the agency's detail lacks %q", want)
			}
		}
		if strings.Contains(body, `id="quote-form"`) {
			t.Error("the agency is offered the provider's quote form")
		}
	})
}

func groupErrors(body string) string {
	return strings.Join(regexp.MustCompile(`class="field-error"[^>]*>([^<]*)<`).FindAllString(body, -1), "; ")
}

func TestGroupDetailAndActionsKeepToTheAgency(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		e.quote(t, "stranger")
		e.quote(t, "kowloon")
		// Another agency's order is not found, to look at or to act on.
		if code, _ := e.page(t, "operator", e.href("stranger")); code != http.StatusNotFound {
			t.Errorf("another agency's detail: %d", code)
		}
		for _, a := range []string{"accept", "decline", "confirmation", "cancel"} {
			res := send(e.h, "operator", "POST", e.href("stranger")+"/"+a, url.Values{"confirm": {"1"}})
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s on another agency's order: %d", a, res.StatusCode)
			}
		}
		if st := e.status(t, "stranger"); st != "to_be_confirm" {
			t.Fatalf("another agency's order changed: %s", st)
		}
		// A parent sees its sub-agency's order but acts on none of it.
		code, body := e.page(t, "operator", e.href("kowloon"))
		if code != http.StatusOK || strings.Contains(body, `id="quote-accept"`) {
			t.Errorf("parent on a sub-agency's order: %d, accept offered %v", code, strings.Contains(body, `id="quote-accept"`))
		}
		if res := send(e.h, "operator", "POST", e.href("kowloon")+"/accept", nil); flashOf(res) == "success:groupportal.done.accept" {
			t.Error("a parent accepted its sub-agency's quote")
		}
		// The sub-agency cannot see its parent's order.
		if code, _ := e.page(t, "kowloon", e.href("operator")); code != http.StatusNotFound {
			t.Errorf("sub-agency on its parent's order: %d", code)
		}
		// Its own order: accept, then cancel (no deposit paid: it costs nothing).
		res := send(e.h, "stranger", "POST", e.href("stranger")+"/accept", nil)
		if res.StatusCode != http.StatusSeeOther || flashOf(res) != "success:groupportal.done.accept" {
			t.Fatalf("accept: %d %q", res.StatusCode, flashOf(res))
		}
		_, body = e.page(t, "stranger", e.href("stranger"))
		for _, want := range []string{"No deposit has been paid: cancelling costs nothing.", `id="upload"`, `id="template-zh-cn"`,
			`href="/order/v2/flight/group/orders/passengers/template?lang=zh-tw"`} {
			if !strings.Contains(body, want) {
				t.Errorf("detail after accept lacks %q", want)
			}
		}
		res = send(e.h, "stranger", "POST", e.href("stranger")+"/cancel", url.Values{})
		if flashOf(res) != "error:groupportal.error.confirmRequired" || e.status(t, "stranger") != "to_be_confirm" {
			t.Fatalf("cancel without the box: %q, status %s", flashOf(res), e.status(t, "stranger"))
		}
		res = send(e.h, "stranger", "POST", e.href("stranger")+"/cancel", url.Values{"confirm": {"1"}})
		if flashOf(res) != "success:groupportal.done.cancel" || e.status(t, "stranger") != "canceled" {
			t.Fatalf("cancel: %q, status %s", flashOf(res), e.status(t, "stranger"))
		}
	})
}

// listFile is an xlsx passenger list of n adults (bad: the first surname
// has digits).
func listFile(t *testing.T, n int, bad bool) []byte {
	t.Helper()
	rows := [][]string{slices.Clone(grouptest.Header)}
	for i := 0; i < n; i++ {
		surname := "ZHANG"
		if bad && i == 0 {
			surname = "ZH4NG"
		}
		rows = append(rows, []string{"adult", surname, fmt.Sprintf("WEI%c", 'A'+i), "male", "1980-01-02", "CN", "passport", fmt.Sprintf("E%08d", i+1), "2035-01-01"})
	}
	return grouptest.Workbook(t, rows)
}

func upload(h http.Handler, token, path, name string, data []byte) *http.Response {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req := httptest.NewRequest("POST", path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return serveAs(h, token, req)
}

func TestGroupPassengerListUpload(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		e.quote(t, "operator")
		path := e.href("operator") + "/passengers"
		// Not an xlsx: a clear error, nothing stored.
		res := upload(e.h, "operator", path, "list.xlsx", []byte("name,surname\n"))
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), `id="upload-error"`) {
			t.Fatalf("not xlsx: %d", res.StatusCode)
		}
		// A bad row: its row and cell beside the message, nothing stored.
		res = upload(e.h, "operator", path, "list.xlsx", listFile(t, 10, true))
		b, _ = io.ReadAll(res.Body)
		body := string(b)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `id="upload-errors"`) {
			t.Fatalf("bad row: %d", res.StatusCode)
		}
		if !regexp.MustCompile(`<td>\s*2\s*</td>`).MatchString(body) {
			t.Error("the row of the bad surname is not shown")
		}
		if v, _ := e.svc.Get(context.Background(), e.who["operator"], e.ids["operator"]); v.PassengerCount != 0 {
			t.Fatal("a refused list was stored")
		}
		// A good list: stored, and its names listed.
		res = upload(e.h, "operator", path, "list.xlsx", listFile(t, 10, false))
		if res.StatusCode != http.StatusSeeOther || flashOf(res) != "success:groupportal.passengers.saved" {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("good list: %d %q %.300s", res.StatusCode, flashOf(res), b)
		}
		_, body = e.page(t, "operator", e.href("operator"))
		if !strings.Contains(body, "ZHANG/WEIA") || !strings.Contains(body, "Passengers: 10") {
			t.Error("the names are not listed")
		}
		// Another agency cannot upload to the order.
		if res := upload(e.h, "stranger", path, "list.xlsx", listFile(t, 10, false)); res.StatusCode != http.StatusNotFound {
			t.Errorf("another agency's upload: %d", res.StatusCode)
		}
	})
}

func TestGroupPayInstallmentOnce(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		ctx := context.Background()
		e.quote(t, "stranger")
		e.confirm(t, "stranger")
		id, op := e.ids["stranger"], e.who["stranger"]
		// The provider's seat answer through the portal.
		if res := send(e.h, "provider", "POST", e.href("stranger")+"/seats", url.Values{"result": {"granted"}}); flashOf(res) != "success:groupportal.done.seats" {
			t.Fatalf("seats granted: %d %q", res.StatusCode, flashOf(res))
		}
		if err := ledger.New(e.db).SetCreditLimit(ctx, 4, "CNY", 5_000_000); err != nil {
			t.Fatal(err)
		}
		_, body := e.page(t, "stranger", e.href("stranger"))
		key := regexp.MustCompile(`name="idempotencyKey" value="([^"]+)"`).FindStringSubmatch(body)
		if key == nil || !strings.Contains(body, `id="pay-first"`) || strings.Contains(body, `id="pay-second"`) {
			t.Fatal("the first deposit, and only it, has a pay button with a key")
		}
		form := url.Values{"idempotencyKey": {key[1]}, "channel": {"balance"}, "stage": {"first"}}
		for i := 0; i < 2; i++ {
			// Posting the same form twice (a double click, a retry) pays once.
			res := send(e.h, "stranger", "POST", e.href("stranger")+"/payment", form)
			if res.StatusCode != http.StatusSeeOther || flashOf(res) != "success:groupportal.done.pay" {
				t.Fatalf("pay #%d: %d %q", i+1, res.StatusCode, flashOf(res))
			}
		}
		v, err := e.svc.Get(ctx, op, id)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != group.ToBePaySecond {
			t.Fatalf("status after paying the first deposit twice: %s", v.Status)
		}
		paid := 0
		for _, in := range v.Installments {
			if in.Status == group.InstPaid {
				paid++
			}
		}
		if paid != 1 {
			t.Fatalf("%d installments paid, want 1", paid)
		}
		_, body = e.page(t, "stranger", e.href("stranger"))
		if !regexp.MustCompile(`(?s)id="installment-first".*?Paid.*?8,000\.00 CNY`).MatchString(body) || !strings.Contains(body, `id="pay-second"`) {
			t.Error("the installment table does not show the first deposit paid with 8,000.00 left, and the second to pay")
		}
		if !strings.Contains(body, "Deposits paid are forfeited") {
			t.Error("cancelling after a deposit does not say the deposit is forfeited")
		}
		// Without a key the form is refused and nothing is paid.
		res := send(e.h, "stranger", "POST", e.href("stranger")+"/payment", url.Values{"channel": {"balance"}, "stage": {"second"}})
		if flashOf(res) != "error:groupportal.error.formExpired" {
			t.Errorf("pay without a key: %q", flashOf(res))
		}
	})
}

func TestGroupDocumentsOnceIssued(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		ctx := context.Background()
		e.quote(t, "operator")
		id, op := e.ids["operator"], e.who["operator"]
		doc := e.href("operator") + "/documents/itinerary?format=pdf"
		if code, _ := e.page(t, "operator", doc); code != http.StatusNotFound {
			t.Fatalf("a document before ticketing: %d", code)
		}
		e.confirm(t, "operator")
		steps := []func() error{
			func() error {
				_, err := e.svc.Seats(ctx, e.who["provider"], id, group.SeatsInput{Result: group.SeatsGranted})
				return err
			},
			func() error { return ledger.New(e.db).SetCreditLimit(ctx, 2, "CNY", 5_000_000) },
		}
		for _, st := range []string{"first", "second", "final"} {
			st := st
			steps = append(steps, func() error {
				_, err := e.svc.Pay(ctx, op, id, "pay-"+st, group.PayInput{Channel: "balance", Stage: st})
				return err
			})
		}
		steps = append(steps, func() error { return e.svc.Ticket(ctx, id) })
		for i, step := range steps {
			if err := step(); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		_, body := e.page(t, "operator", e.href("operator"))
		if !strings.Contains(body, `href="`+doc+`"`) || !strings.Contains(body, "8800000001001") {
			t.Fatal("the issued order lists no documents or ticket numbers")
		}
		req := httptest.NewRequest("GET", doc, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "operator"})
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF")) {
			t.Fatalf("itinerary: %d %q", rec.Code, rec.Header().Get("Content-Type"))
		}
		// Another agency gets no document of it.
		if code, _ := e.page(t, "stranger", doc); code != http.StatusNotFound {
			t.Errorf("another agency's document: %d", code)
		}
		if code, _ := e.page(t, "operator", e.href("operator")+"/documents/boardingpass"); code != http.StatusNotFound {
			t.Errorf("an unknown document: %d", code)
		}
	})
}

// TestGroupRequestConfirmationIsTheAgencysOwn: the "request sent" page
// speaks of a request of the caller's agency only; any other id (none, not
// a number, unknown, another agency's, a sub-agency's) is not found, in
// English and in Chinese.
func TestGroupRequestConfirmationIsTheAgencysOwn(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		for _, lang := range []string{"en", "zh-cn"} {
			heading := map[string]string{"en": "Your group request has been sent", "zh-cn": "团队申请已提交"}[lang]
			path := func(id string) string { return templates.GroupConfirmPath + "?id=" + id }
			own := strconv.FormatInt(e.ids["operator"], 10)
			code, body := e.page(t, "operator", path(own), "Accept-Language", lang)
			if code != http.StatusOK || !strings.Contains(body, heading) {
				t.Errorf("%s: own request: %d, heading shown %v", lang, code, strings.Contains(body, heading))
			}
			for _, id := range []string{"", "abc", "999999", strconv.FormatInt(e.ids["stranger"], 10), strconv.FormatInt(e.ids["kowloon"], 10)} {
				code, body := e.page(t, "operator", path(id), "Accept-Language", lang)
				if code != http.StatusNotFound || strings.Contains(body, heading) {
					t.Errorf("%s: id %q: %d, heading shown %v", lang, id, code, strings.Contains(body, heading))
				}
			}
		}
	})
}

// TestGroupAcceptThenConfirm: a quoted order offers accept and no confirm;
// once accepted, confirm and no accept; accepting twice is refused. In
// English and in Chinese.
func TestGroupAcceptThenConfirm(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		e.quote(t, "operator")
		own := e.href("operator")
		offered := func(lang string) (accept, confirm bool) {
			body := e.okPage(t, "operator", own, "Accept-Language", lang)
			return strings.Contains(body, `id="quote-accept"`), strings.Contains(body, `id="confirm"`)
		}
		for _, lang := range []string{"en", "zh-cn"} {
			if a, c := offered(lang); !a || c {
				t.Errorf("%s: quoted: accept offered %v, confirm offered %v", lang, a, c)
			}
		}
		list := listFile(t, 10, false)
		if _, err := e.svc.UploadPassengers(context.Background(), e.who["operator"], e.ids["operator"], bytes.NewReader(list), int64(len(list))); err != nil {
			t.Fatal(err)
		}
		if res := send(e.h, "operator", "POST", own+"/accept", nil); flashOf(res) != "success:groupportal.done.accept" {
			t.Fatalf("accept: %q", flashOf(res))
		}
		for _, lang := range []string{"en", "zh-cn"} {
			if a, c := offered(lang); a || !c {
				t.Errorf("%s: accepted: accept offered %v, confirm offered %v", lang, a, c)
			}
		}
		if res := send(e.h, "operator", "POST", own+"/accept", nil); flashOf(res) != "error:group.error.state" {
			t.Errorf("accept twice: %q", flashOf(res))
		}
		if res := send(e.h, "operator", "POST", own+"/confirmation", nil); flashOf(res) != "success:groupportal.done.confirm" {
			t.Errorf("confirm after accept: %q", flashOf(res))
		}
	})
}

// TestGroupQuoteFormListDueBeforeConfirm: the quote form's default asks
// for the names before the confirm-before time (the agency confirms on the
// uploaded list), on the page in English and in Chinese.
func TestGroupQuoteFormListDueBeforeConfirm(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		value := func(body, id string) time.Time {
			m := regexp.MustCompile(`id="` + id + `"[^>]*value="([^"]+)"`).FindStringSubmatch(body)
			if m == nil {
				t.Fatalf("no %s input with a value", id)
			}
			v, err := time.Parse(quoteTime, m[1])
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			return v
		}
		for _, lang := range []string{"en", "zh-cn"} {
			body := e.okPage(t, "provider", e.href("operator"), "Accept-Language", lang)
			confirmBy, listBy := value(body, "quote-confirm-before"), value(body, "quote-list-deadline")
			if !listBy.Before(confirmBy) {
				t.Errorf("%s: the list is due %s, after the confirm-before time %s", lang, listBy, confirmBy)
			}
		}
	})
}

// TestGroupQuoteSeatsTheGroup: the quote's flight seats the whole group; a
// flight the schedule says has 6 seats left is not offered to a group of
// ten (the page in English and in Chinese names the other flight).
func TestGroupQuoteSeatsTheGroup(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		e.quote(t, "operator")
		for _, lang := range []string{"en", "zh-cn"} {
			body := e.okPage(t, "operator", e.href("operator"), "Accept-Language", lang)
			if !strings.Contains(body, "CA1501") || strings.Contains(body, "CA1599") {
				t.Errorf("%s: the quote offers CA1599 (6 seats left for 10) or not CA1501", lang)
			}
		}
	})
}

// TestGroupTimelineAndPlanInTheReadersWords: the timeline's remarks and
// its system actor read in the page's language, amounts with thousands
// and currency; each stage shows what is left of it (the whole stage while
// unpaid, not the balance after it) and the plan what is left in all; the
// deposits' and the list's deadlines count down. In English and Chinese.
func TestGroupTimelineAndPlanInTheReadersWords(t *testing.T) {
	onGroupOrders(t, func(t *testing.T, e *groupEnv) {
		e.quote(t, "operator")
		ctx, id, op := context.Background(), e.ids["operator"], e.who["operator"]
		if _, err := e.svc.Accept(ctx, op, id); err != nil {
			t.Fatal(err)
		}
		list := listFile(t, 10, false)
		if _, err := e.svc.UploadPassengers(ctx, op, id, bytes.NewReader(list), int64(len(list))); err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{
			"en": {"Quoted 10,000.00 CNY", "Passenger list of 10 passengers", `id="installment-left-first">2,000.00 CNY`,
				`id="installment-left-final">5,000.00 CNY`, `id="installments-left">10,000.00 CNY`,
				`id="installment-countdown-first"`, `id="installment-countdown-final"`, `id="group-list-countdown"`, "Left to pay in all"},
			"zh-cn": {"报价 10,000.00 CNY", "乘客名单共 10 人", `id="installment-left-first">2,000.00 CNY`,
				`id="installments-left">10,000.00 CNY`, `id="installment-countdown-second"`, `id="group-list-countdown"`, "合计待付"},
		}
		for lang, ws := range want {
			body := e.okPage(t, "operator", e.href("operator"), "Accept-Language", lang)
			for _, w := range ws {
				if !strings.Contains(body, w) {
					t.Errorf("%s: the detail lacks %q", lang, w)
				}
			}
			for _, raw := range []string{"10000.00 CNY", "10 passengers<", "group.remark."} {
				if lang != "en" && strings.Contains(body, raw) {
					t.Errorf("%s: the detail shows %q", lang, raw)
				}
			}
		}
		// The confirm-before time passes: the system closes the order.
		e.clock.Add(73 * time.Hour)
		if _, err := e.svc.SweepDeadlines(ctx); err != nil {
			t.Fatal(err)
		}
		if st := e.status(t, "operator"); st != "closed" {
			t.Fatalf("after the confirm-before time: %s", st)
		}
		for lang, ws := range map[string][]string{
			"en":    {">System<", "The confirmation deadline ("},
			"zh-cn": {">系统<", "截止时间（"},
		} {
			body := e.okPage(t, "operator", e.href("operator"), "Accept-Language", lang)
			for _, w := range ws {
				if !strings.Contains(body, w) {
					t.Errorf("%s: the closed order's timeline lacks %q", lang, w)
				}
			}
			if strings.Contains(body, ">system<") || strings.Contains(body, "deadline 20") {
				t.Errorf("%s: the timeline shows the system's code or a raw deadline", lang)
			}
			if strings.Contains(body, `id="installment-countdown-first"`) {
				t.Errorf("%s: a closed order's deadlines still count down", lang)
			}
		}
	})
}
