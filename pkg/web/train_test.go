package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier/rail/railsim"
	"github.com/voyage/voyage/pkg/train"
	"github.com/voyage/voyage/templates"
)

// trainEnv is the train pages over the real train service (SQLite unless
// told): the
// provider (agency 1), Demo Travel (2) with its sub-agency Kowloon Tours
// (3), and a stranger agency (4) under the provider.
type trainEnv struct {
	portalEnv // the orders by booking number
}

type testTrainOrder struct {
	number  string
	agency  int64
	status  train.Status
	surname string
	tickets bool
}

func trainFixture(t *testing.T, dialect ...store.Dialect) *trainEnv {
	t.Helper()
	d := store.SQLite
	if len(dialect) > 0 {
		d = dialect[0]
	}
	db := storetest.Open(t, d)
	agencies := fourAgencies(t, db, false, true)
	env := &trainEnv{portalEnv{db: db, ids: map[string]int64{}, hrefOf: templates.TrainOrderHref}}
	for _, o := range []testTrainOrder{
		{number: "T0001", agency: 2, status: train.ToBePaid, surname: "ZHANG"},
		{number: "T0002", agency: 2, status: train.Issued, surname: "WANG", tickets: true},
		{number: "T0003", agency: 3, status: train.Issued, surname: "CHAN", tickets: true},
		{number: "T0004", agency: 4, status: train.ToBePaid, surname: "SMITH"},
	} {
		env.ids[o.number] = insertTrainOrder(t, db, o)
	}
	sim, err := railsim.New(railsim.Steady(1))
	if err != nil {
		t.Fatal(err)
	}
	svc := train.New(train.Options{Deps: booking.Deps{DB: db, Ledger: ledger.New(db), Agencies: agencies}, Supplier: sim, Stations: sim})

	trains := auth.CommonConfig{EnableTrainService: true}
	id := &fakeIdentity{sessions: map[string]auth.Principal{
		"operator":  {UserID: 10, Username: "op", AgencyID: 2, SessionID: 100, Subject: auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: trains}},
		"finance":   {UserID: 11, Username: "fin", AgencyID: 2, SessionID: 110, Subject: auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1, Common: trains}},
		"notrains":  {UserID: 12, Username: "nt", AgencyID: 2, SessionID: 120, Subject: auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: true}}},
		"subagency": {UserID: 13, Username: "kt", AgencyID: 3, SessionID: 130, Subject: auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 2, Common: trains}},
		"provider":  {UserID: 1, Username: "admin", AgencyID: 1, SessionID: 10, Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, Common: trains}},
	}}
	s := &Server{identity: managerIdentity{id}, agencies: agencies, trains: svc, now: time.Now}
	s.site = testSite(db, approxRates)
	env.h = crossOriginPortal(s)
	return env
}

// insertTrainOrder writes a booking as pkg/train stores it: Beijing South
// to Shanghai Hongqiao on G1, one passenger, and a ticket when issued.
func insertTrainOrder(t *testing.T, db *store.DB, o testTrainOrder) int64 {
	t.Helper()
	depart := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC) // 09:00 in Beijing
	tr, _ := json.Marshal(train.Train{TrainNumber: "G1", TrainType: "G", Origin: "VNP", Destination: "AOH", DepartAt: depart, ArriveAt: depart.Add(268 * time.Minute), DurationMinutes: 268})
	contact, _ := json.Marshal(train.Contact{Name: "Ops", Email: "ops@demo.example", Phone: "13800138000"})
	created := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	var hold any
	if o.status == train.ToBePaid {
		hold = time.Now().Add(30 * time.Minute).UTC()
	}
	var id int64
	err := db.Get(&id, db.Rebind(`INSERT INTO train_orders (booking_number, agency_id, user_id, status, supplier, supplier_ref, train_number, train,
		origin, destination, depart_at, seat_class, currency, total, paid, contact, hold_expires_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'railsim', ?, 'G1', ?, 'VNP', 'AOH', ?, 'second', 'CNY', 55300, 0, ?, ?, ?, ?) RETURNING id`),
		o.number, o.agency, 10, string(o.status), "R-"+o.number, string(tr), depart, string(contact), hold, created, created)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(db.Rebind(`INSERT INTO train_passengers (order_id, passenger_id, type, surname, given_name, gender, birthday, nationality,
		document_type, document_number, seat_letter) VALUES (?, 1, 'adult', ?, 'WEI', 'male', '1990-05-01', 'CN', 'id_card', '11010519491231002X', 'A')`),
		id, o.surname); err != nil {
		t.Fatal(err)
	}
	if o.tickets {
		if _, err := db.Exec(db.Rebind(`INSERT INTO train_tickets (order_id, seq, passenger_id, ticket_number, train_number, origin, destination,
			depart_at, seat_class, coach, seat, fare, status) VALUES (?, 1, 1, ?, 'G1', 'VNP', 'AOH', ?, 'second', '05', '12A', 55300, 'issued')`),
			id, "E"+o.number, depart); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(db.Rebind(`INSERT INTO train_order_events (order_id, action, from_status, to_status, actor, created_at)
		VALUES (?, 'book', '', 'to_be_paid', 'op', ?)`), id, created); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestTrainPagesAccess(t *testing.T) {
	t.Parallel()
	e := trainFixture(t)
	for _, tt := range []struct{ token, path, flash string }{
		{"", "/train/booking", "error:router.login"},
		{"", "/train/orders", "error:router.login"},
		{"", e.href("T0002"), "error:router.login"},
		// Booking is the operator's; the orders any user's of a company
		// with trains on.
		{"finance", "/train/booking", "error:router.notRole"},
		{"notrains", "/train/booking", "error:router.notRole"},
		{"notrains", "/train/orders", "error:router.notRole"},
		{"notrains", e.href("T0002"), "error:router.notRole"},
	} {
		t.Run(tt.token+" "+tt.path, func(t *testing.T) {
			checkRefused(t, "GET", send(e.h, tt.token, "GET", tt.path, url.Values{}), tt.flash)
		})
	}
	for _, tt := range []struct{ token, path string }{
		{"operator", "/train/booking"}, {"operator", "/train/orders"}, {"finance", "/train/orders"}, {"finance", e.href("T0002")},
	} {
		if code, _ := e.page(t, tt.token, tt.path); code != http.StatusOK {
			t.Errorf("%s GET %s = %d, want 200", tt.token, tt.path, code)
		}
	}
}

func TestTrainBookingPageHandsTheIslandTheSalesWindow(t *testing.T) {
	t.Parallel()
	e := trainFixture(t)
	_, body := e.page(t, "operator", "/train/booking")
	for _, want := range []string{`data-island="TrainBooking"`, `&#34;saleDays&#34;:15`, "Train ticket booking"} {
		if !strings.Contains(body, want) {
			t.Errorf("booking page lacks %q", want)
		}
	}
}

// onEachEngine runs test on a train fixture of each database engine.
func onEachEngine(t *testing.T, test func(*testing.T, *trainEnv)) {
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) { test(t, trainFixture(t, d)) })
	}
}

func TestTrainOrderListScopeAndMenu(t *testing.T) {
	t.Parallel()
	onEachEngine(t, testTrainOrderListScopeAndMenu)
}

func testTrainOrderListScopeAndMenu(t *testing.T, e *trainEnv) {
	body := e.okPage(t, "operator", "/train/orders")
	// Every status of the menu reads as words, in each language: no
	// message key shows as text (the holding status once did).
	for _, lang := range []string{"en", "zh-cn", "zh-tw"} {
		_, page := e.page(t, "operator", "/train/orders", "Accept-Language", lang)
		if m := regexp.MustCompile(`>\s*(trainportal|train)\.[a-zA-Z_.]+\s*<`).FindString(page); m != "" {
			t.Errorf("%s: a message key shows on the train orders page: %s", lang, m)
		}
	}
	for _, n := range []string{"T0001", "T0002", "T0003"} {
		if !strings.Contains(body, `href="`+e.href(n)+`"`) {
			t.Errorf("list lacks %s (own or sub-agency order)", n)
		}
	}
	if strings.Contains(body, "T0004") {
		t.Error("another agency's order is listed")
	}
	for _, want := range []string{"Beijing South–Shanghai Hongqiao", "2026-12-02 09:00", "553.00 CNY", "ZHANG WEI",
		`id="train-orders-status-issued"`, `class="badge orders-tone-success">Issued</span>`, `hx-target="#train-orders-results"`} {
		if !strings.Contains(body, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	// The menu counts what the caller sees: two issued, one to be paid.
	if !regexpMatch(t, `id="train-orders-status-issued"[^>]*>\s*<span>Issued</span>\s*<span class="orders-count">2</span>`, body) {
		t.Error("issued count is not 2")
	}
	// A status narrows the list; htmx gets the results only.
	code, body := e.page(t, "operator", "/train/orders?status=to_be_paid", "HX-Request", "true", "HX-Target", templates.TrainOrdersResultsID)
	if code != http.StatusOK || strings.Contains(body, "<html") || !strings.Contains(body, "T0001") || strings.Contains(body, "T0002") {
		t.Fatalf("status filter / partial: %d\n%.500s", code, body)
	}
	// A keyword (a passenger's surname) narrows it too.
	_, body = e.page(t, "operator", "/train/orders?keyword=wang")
	if !strings.Contains(body, "T0002") || strings.Contains(body, "T0001") || !strings.Contains(body, `value="wang"`) {
		t.Errorf("keyword search:\n%.600s", body)
	}
	if _, body := e.page(t, "operator", "/train/orders?keyword=nobody"); !strings.Contains(body, "No train bookings match these filters.") {
		t.Error("a keyword matching nothing does not say so")
	}
	// The sub-agency sees its own only; the provider everyone's.
	if _, body := e.page(t, "subagency", "/train/orders"); !strings.Contains(body, "T0003") || strings.Contains(body, "T0001") {
		t.Error("the sub-agency's list is not its own")
	}
	if _, body := e.page(t, "provider", "/train/orders"); !strings.Contains(body, "T0004") || !strings.Contains(body, "T0001") {
		t.Error("the provider does not see all orders")
	}
}

func TestTrainOrderListEmptyState(t *testing.T) {
	t.Parallel()
	e := trainFixture(t)
	_, body := e.page(t, "operator", "/train/orders?status=refunded")
	if !strings.Contains(body, "No train bookings found") {
		t.Errorf("empty state missing:\n%.800s", body)
	}
}

func TestTrainOrderDetailScope(t *testing.T) {
	t.Parallel()
	onEachEngine(t, testTrainOrderDetailScope)
}

func testTrainOrderDetailScope(t *testing.T, e *trainEnv) {
	// Another agency's order, an unknown one and a bad id are not found;
	// a parent sees its sub-agency's.
	for _, tt := range []struct {
		token, path string
		want        int
	}{
		{"operator", e.href("T0004"), http.StatusNotFound},
		{"operator", "/train/orders/999999", http.StatusNotFound},
		{"operator", "/train/orders/x", http.StatusNotFound},
		{"subagency", e.href("T0002"), http.StatusNotFound},
		{"operator", e.href("T0003"), http.StatusOK},
		{"provider", e.href("T0004"), http.StatusOK},
	} {
		if code, _ := e.page(t, tt.token, tt.path); code != tt.want {
			t.Errorf("%s GET %s = %d, want %d", tt.token, tt.path, code, tt.want)
		}
	}
}

func TestTrainOrderDetailShowsTicketsAndActions(t *testing.T) {
	t.Parallel()
	e := trainFixture(t)
	_, body := e.page(t, "operator", e.href("T0002"))
	for _, want := range []string{"Booking T0002", "G1", "High-speed (G)", "Second class", "Beijing South", "Shanghai Hongqiao",
		`class="train-coach">05</td>`, `class="train-seat">12A</td>`, "ET0002", "Resident ID card", "11010519491231002X",
		`href="` + e.href("T0002") + `/e-ticket?lang=zh-cn"`,
		`data-island="TrainOrder"`, `&#34;refund&#34;`, `&#34;change&#34;`, `&#34;refundable&#34;:true`, `id="train-order-timeline"`, "Booked, seats held"} {
		if !strings.Contains(body, want) {
			t.Errorf("detail lacks %q", want)
		}
	}
	// An unpaid order offers payment and cancelling with its hold, and no
	// e-ticket yet.
	_, body = e.page(t, "operator", e.href("T0001"))
	for _, want := range []string{`&#34;pay&#34;`, `&#34;cancel&#34;`, `&#34;holdExpiresAt&#34;`, "Seats held until"} {
		if !strings.Contains(body, want) {
			t.Errorf("unpaid detail lacks %q", want)
		}
	}
	if strings.Contains(body, "e-ticket?lang=") {
		t.Error("an unpaid order offers the e-ticket")
	}
	// A parent looking at its sub-agency's booking may not act on it.
	_, body = e.page(t, "operator", e.href("T0003"))
	if strings.Contains(body, `data-island="TrainOrder"`) || !strings.Contains(body, "Nothing can be done on this booking now.") {
		t.Error("a parent agency is offered actions on its sub-agency's booking")
	}
}

func regexpMatch(t *testing.T, pattern, s string) bool {
	t.Helper()
	return regexp.MustCompile(pattern).MatchString(s)
}

func TestTrainETicketInEachLanguageAndScope(t *testing.T) {
	t.Parallel()
	e := trainFixture(t)
	for _, lang := range []string{"en", "zh-cn", "zh-tw"} {
		req := httptest.NewRequest("GET", e.href("T0002")+"/e-ticket?lang="+lang, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "operator"})
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/pdf" || !strings.HasPrefix(rec.Body.String(), "%PDF") ||
			!strings.Contains(rec.Header().Get("Content-Disposition"), "-eticket-"+lang+".pdf") {
			t.Fatalf("%s: %d %q %q", lang, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Content-Disposition"))
		}
	}
	if code, _ := e.page(t, "operator", e.href("T0004")+"/e-ticket?lang=en"); code != http.StatusNotFound {
		t.Errorf("another agency's e-ticket: %d, want 404", code)
	}
	if code, _ := e.page(t, "subagency", e.href("T0002")+"/e-ticket?lang=en"); code != http.StatusNotFound {
		t.Errorf("the parent's e-ticket from a sub-agency: %d, want 404", code)
	}
}

// TestTrainTicketAmountsInThousands: a ticket's fare on the order page
// reads as every amount does, thousands separated, in English and Chinese.
func TestTrainTicketAmountsInThousands(t *testing.T) {
	t.Parallel()
	e := trainFixture(t)
	if _, err := e.db.Exec(e.db.Rebind(`UPDATE train_tickets SET fare = 123456 WHERE order_id = ?`), e.ids["T0002"]); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh-cn"} {
		_, body := e.page(t, "operator", e.href("T0002"), "Accept-Language", lang)
		if !strings.Contains(body, "1,234.56 CNY") || strings.Contains(body, "1234.56") {
			t.Errorf("%s: the ticket's fare is not written 1,234.56 CNY", lang)
		}
	}
}

// trainWallets is a wallet whose one entry is a train order's, as
// pkg/train posts it: stations by code.
type trainWallets struct{ entryWallets }

func (trainWallets) Entries(context.Context, int64, ledger.EntryFilter) ([]ledger.Entry, int, error) {
	return []ledger.Entry{{ID: 1, Type: ledger.TypeOriginTrain, Amount: -55300, Currency: "CNY", BalanceAfter: -55300,
		PaidAt: time.Now().Add(-time.Hour), OrderID: "T0001", Description: "G1 VNP-AOH 2026-12-02 09:00"}}, 1, nil
}

// TestWalletNamesTrainStations: a train entry of the wallet names its
// stations in the reader's language, not by their codes.
func TestWalletNamesTrainStations(t *testing.T) {
	t.Parallel()
	sim, err := railsim.New(railsim.Steady(1))
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t, store.SQLite)
	fin := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{IsShowBill: true, SettlementCurrency: "CNY", EnableTrainService: true}}
	id := &fakeIdentity{sessions: map[string]auth.Principal{"demo-super": principal(1, fin)}}
	s := &Server{identity: managerIdentity{id}, agencies: fakeAgencies{1: {ID: 1, Name: "Demo Travel", SettlementCurrency: "CNY", AllowedHostsJSON: `[]`}},
		wallets: trainWallets{}, now: time.Now, trains: train.New(train.Options{Deps: booking.Deps{DB: db}, Supplier: sim, Stations: sim})}
	s.site = testSite(db, nil)
	h := portal(s)
	for lang, want := range map[string]string{"en": "G1 Beijing South–Shanghai Hongqiao 2026-12-02 09:00", "zh-cn": "G1 北京南–上海虹桥 2026-12-02 09:00"} {
		_, body := pageAs(t, h, "demo-super", "/bills/wallet", "Accept-Language", lang)
		if !strings.Contains(body, want) || strings.Contains(body, "VNP-AOH") {
			t.Errorf("%s: the wallet's train entry is not %q (or shows the codes)", lang, want)
		}
	}
}
