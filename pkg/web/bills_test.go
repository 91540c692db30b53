package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// fakeBills holds statements by id, each of one agency; it records the
// statements created.
type fakeBills struct {
	statements map[int64]ledger.StatementInfo
	created    []ledger.StatementInfo
}

func (f *fakeBills) Transactions(context.Context, int64, string, int, int) ([]ledger.Transaction, int, error) {
	at := time.Date(2026, 1, 5, 9, 30, 0, 0, time.UTC)
	return []ledger.Transaction{{ID: 11, OriginalID: "T11", Reference: "WIRE-1", PaymentMethod: "bank-transfer", Gross: "1000.00", GrossCurrency: "CNY",
		Net: "1000.00", Currency: "CNY", Fee: "0.00", PaymentTime: at, CreatedAt: at}}, 1, nil
}

func (f *fakeBills) CreateStatement(_ context.Context, agencyID int64, currency, from, to, zone, by string) (ledger.StatementInfo, ledger.Statement, error) {
	start, end, err := ledger.StatementPeriod(from, to, display.ResolveZone("", zone))
	if err != nil {
		return ledger.StatementInfo{}, ledger.Statement{}, err
	}
	for _, c := range f.created {
		if c.AgencyID == agencyID && c.From.Equal(start) && c.To.Equal(end) {
			// As the ledger does: one period, one statement.
			c.Existing = true
			return c, ledger.Statement{}, nil
		}
	}
	i := ledger.StatementInfo{ID: 100 + int64(len(f.created)), AgencyID: agencyID, Currency: currency, From: start, To: end, CreatedBy: by, TimeZone: zone}
	f.created = append(f.created, i)
	return i, ledger.Statement{}, nil
}

func (f *fakeBills) Statements(_ context.Context, agencyID int64, _, _ int) ([]ledger.StatementInfo, int, error) {
	out := []ledger.StatementInfo{}
	for _, i := range f.statements {
		if i.AgencyID == agencyID {
			out = append(out, i)
		}
	}
	return out, len(out), nil
}

func (f *fakeBills) StatementOf(_ context.Context, agencyID, id int64) (ledger.StatementInfo, ledger.Statement, error) {
	i, ok := f.statements[id]
	if !ok || i.AgencyID != agencyID {
		return ledger.StatementInfo{}, ledger.Statement{}, fault.NotFound("")
	}
	e := ledger.Entry{ID: 1, Type: ledger.TypeTopUp, Amount: 100000, Currency: i.Currency, BalanceAfter: 100000, Reference: "WIRE-1",
		PaidAt: i.From.Add(time.Hour)}
	return i, ledger.Statement{AgencyID: agencyID, Currency: i.Currency, From: i.From, To: i.To, Closing: i.Closing, Entries: []ledger.Entry{e}}, nil
}

// billsFixture is the portal's bill pages with fake services: the users of
// managerFixture (all of agency 1, which manages agency 5), statement 3 of
// agency 1, 7 of agency 2 and 8 of the managed agency 5.
func billsFixture(t *testing.T) (http.Handler, *fakeBills) {
	t.Helper()
	demo := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true, SettlementCurrency: "CNY"}}
	operator := auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, EnableFlightService: true}}
	noBills := auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1, Permissions: []string{"wallet:read"},
		Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true}}
	id := &fakeIdentity{sessions: map[string]auth.Principal{
		"demo-super":    principal(1, demo),
		"demo-operator": principal(3, operator),
		"no-bills":      principal(6, noBills),
	}}
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	b := &fakeBills{statements: map[int64]ledger.StatementInfo{
		3: {ID: 3, AgencyID: 1, Currency: "CNY", From: day(1).Add(-8 * time.Hour), To: day(11).Add(-8 * time.Hour), Closing: 100000, EntryCount: 1, CreatedAt: day(11),
			TimeZone: "Asia/Shanghai"},
		// Made on 20 January for the whole month.
		4: {ID: 4, AgencyID: 1, Currency: "CNY", From: day(1).Add(-8 * time.Hour), To: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC).Add(-8 * time.Hour), Closing: 100000,
			EntryCount: 1, CreatedAt: day(20).Add(6*time.Hour + 30*time.Minute), TimeZone: "Asia/Shanghai",
			Provisional: true, AsOf: day(20).Add(6*time.Hour + 30*time.Minute)},
		7: {ID: 7, AgencyID: 2, Currency: "CNY", From: day(1), To: day(11), Closing: 500000, EntryCount: 1, CreatedAt: day(11)},
		8: {ID: 8, AgencyID: 5, Currency: "CNY", From: day(1), To: day(11), Closing: 100000, EntryCount: 1, CreatedAt: day(11)},
	}}
	s := &Server{identity: managerIdentity{id}, agencies: fakeAgencies{1: {ID: 1, Name: "Demo Travel", Code: "DT000001", SettlementCurrency: "CNY", AllowedHostsJSON: `[]`}},
		manager: &fakeManager{detail: managerDetail()}, bills: b, now: time.Now}
	db := storetest.Open(t, store.SQLite)
	s.site = testSite(db, approxRates)
	return portal(s), b
}

func billBody(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBillPagesAccess(t *testing.T) {
	t.Parallel()
	h, b := billsFixture(t)
	period := url.Values{"from": {"2026-01-01"}, "to": {"2026-01-31"}}
	checkRefusals(t, h, []refusal{
		{"logged out transactions", "", "GET", "/bills/transactions", nil, "error:router.login"},
		{"logged out statement", "", "GET", "/bills/statements/3", nil, "error:router.login"},
		{"operator transactions", "demo-operator", "GET", "/bills/transactions", nil, "error:router.notRole"},
		{"operator statements", "demo-operator", "GET", "/bills/statements", nil, "error:router.notRole"},
		{"operator sub statements", "demo-operator", "GET", "/agency-manager/statements", nil, "error:router.notRole"},
		{"operator create", "demo-operator", "POST", "/bills/statements", period, "error:router.notRole"},
		{"operator sub create", "demo-operator", "POST", "/agency-manager/statements", url.Values{"agency": {"5"}, "from": {"2026-01-01"}, "to": {"2026-01-31"}}, "error:router.notRole"},
		{"operator statement", "demo-operator", "GET", "/bills/statements/3", nil, "error:router.notRole"},
		{"operator export", "demo-operator", "GET", "/bills/statements/3/export?format=csv", nil, "error:router.notRole"},
		{"operator bill", "demo-operator", "GET", "/agency-manager/bills/8?agency=5", nil, "error:router.notRole"},
		{"no permission bill", "no-bills", "GET", "/agency-manager/bills/8?agency=5", nil, "error:router.notRole"},
		{"no permission bill export", "no-bills", "GET", "/agency-manager/bills/8/export?agency=5&format=csv", nil, "error:router.notRole"},
	})
	if len(b.created) != 0 {
		t.Fatalf("refused users created %d statements", len(b.created))
	}
}

func TestBillTransactionsPage(t *testing.T) {
	t.Parallel()
	h, _ := billsFixture(t)
	res := send(h, "demo-super", "GET", "/bills/transactions", nil)
	page := billBody(t, res)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, want := range []string{"All Transactions", "Original ID", "Reference ID", "Payment Method", "Total Amount Paid",
		"Amount in a given currency", "Handling Fee", "Payment Time", "Created on", "WIRE-1", "1,000.00 CNY", "Bank transfer", `<th scope="col"`, "<caption"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestBillStatementOfAnotherAgency(t *testing.T) {
	t.Parallel()
	h, _ := billsFixture(t)
	for _, path := range []string{"/bills/statements/7", "/bills/statements/7/export?format=csv", "/bills/statements/999", "/bills/statements/x"} {
		if res := send(h, "demo-super", "GET", path, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, res.StatusCode)
		}
	}
	res := send(h, "demo-super", "GET", "/bills/statements/3", nil)
	page := billBody(t, res)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `id="statement-closing">1,000.00`) {
		t.Fatalf("own statement: status %d\n%s", res.StatusCode, page)
	}
	// The period is Shanghai's days, and says so.
	for _, want := range []string{`id="statement-period">2026-01-01 – 2026-01-10`, `id="statement-zone">UTC+08:00 (Asia/Shanghai)`} {
		if !strings.Contains(page, want) {
			t.Errorf("statement page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="statement-until"`) {
		t.Error("a statement made after its period says it stops early")
	}
	// A provisional statement (its period not over) says where its entries
	// stop as it is read.
	early := billBody(t, send(h, "demo-super", "GET", "/bills/statements/4", nil))
	if !strings.Contains(early, `id="statement-until">Provisional: the period is not over, entries up to 2026-01-20 14:30 CST;`) {
		t.Errorf("the early statement does not say where it stops:\n%s", early)
	}
	for _, f := range []string{"csv", "xlsx", "pdf"} {
		if !strings.Contains(page, `href="/bills/statements/3/export?format=`+f+`"`) {
			t.Errorf("no %s download link", f)
		}
	}
	res = send(h, "demo-super", "GET", "/bills/statements/3/export?format=csv", nil)
	csv := billBody(t, res)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" || !strings.Contains(csv, "WIRE-1") ||
		!strings.Contains(res.Header.Get("Content-Disposition"), `filename="statement-DT000001-20260101-20260110.csv"`) {
		t.Fatalf("csv: status %d type %q\n%s", res.StatusCode, res.Header.Get("Content-Type"), csv)
	}
	if res := send(h, "demo-super", "GET", "/bills/statements/3/export?format=doc", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown format: status %d, want 404", res.StatusCode)
	}
}

func TestBillStatementCreate(t *testing.T) {
	t.Parallel()
	h, b := billsFixture(t)
	if page := billBody(t, send(h, "demo-super", "GET", "/bills/statements", nil)); !strings.Contains(page, "days on the agency&#39;s clock: Asia/Shanghai (UTC+8)") {
		t.Error("the form does not say whose days the dates are")
	}
	res := send(h, "demo-super", "POST", "/bills/statements", url.Values{"from": {"2026-02-01"}, "to": {"2026-01-15"}})
	page := billBody(t, res)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `id="statement-to-error"`) ||
		!strings.Contains(page, "Please choose an end date after the start date") || !strings.Contains(page, `aria-invalid="true"`) {
		t.Fatalf("to before from: status %d\n%s", res.StatusCode, page)
	}
	res = send(h, "demo-super", "POST", "/bills/statements", url.Values{"to": {"2026-01-15"}})
	if page := billBody(t, res); !strings.Contains(page, `id="statement-from-error"`) {
		t.Fatalf("no from: the error is not shown")
	}
	res = send(h, "demo-super", "POST", "/bills/statements", url.Values{"from": {"2025-01-01"}, "to": {"2026-01-15"}})
	if page := billBody(t, res); !strings.Contains(page, "A statement covers at most 366 days") {
		t.Fatalf("too long: the error is not shown")
	}
	if len(b.created) != 0 {
		t.Fatalf("invalid periods created %d statements", len(b.created))
	}
	res = send(h, "demo-super", "POST", "/bills/statements", url.Values{"from": {"2026-01-01"}, "to": {"2026-01-31"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/bills/statements/100" || flashOf(res) != "success:bills.created" {
		t.Fatalf("create: status %d location %q flash %q", res.StatusCode, res.Header.Get("Location"), flashOf(res))
	}
	// The same period again: its statement, said so, nothing new made.
	res = send(h, "demo-super", "POST", "/bills/statements", url.Values{"from": {"2026-01-01"}, "to": {"2026-01-31"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/bills/statements/100" || flashOf(res) != "info:bills.exists" || len(b.created) != 1 {
		t.Fatalf("the same period again: status %d location %q flash %q, %d made", res.StatusCode, res.Header.Get("Location"), flashOf(res), len(b.created))
	}
	// The agency keeps the default zone: the days are Shanghai's.
	c := b.created[0]
	if c.AgencyID != 1 || c.Currency != "CNY" || !c.From.Equal(time.Date(2025, 12, 31, 16, 0, 0, 0, time.UTC)) ||
		!c.To.Equal(time.Date(2026, 1, 31, 16, 0, 0, 0, time.UTC)) {
		t.Fatalf("created %+v", c)
	}
}

func TestSubBills(t *testing.T) {
	t.Parallel()
	h, b := billsFixture(t)
	for _, path := range []string{"/agency-manager/bills/8?agency=6", "/agency-manager/bills/8/export?agency=6&format=pdf",
		"/agency-manager/bills/8", "/agency-manager/bills/7?agency=5", "/agency-manager/statements?agency=6"} {
		if res := send(h, "demo-super", "GET", path, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, res.StatusCode)
		}
	}
	if res := send(h, "demo-super", "POST", "/agency-manager/statements", url.Values{"agency": {"6"}, "from": {"2026-01-01"}, "to": {"2026-01-31"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("create for an unmanaged agency: status %d, want 404", res.StatusCode)
	}
	res := send(h, "demo-super", "GET", "/agency-manager/statements?agency=5", nil)
	page := billBody(t, res)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `href="/agency-manager/bills/8?agency=5"`) || !strings.Contains(page, "Kowloon Tours") {
		t.Fatalf("sub statements: status %d\n%s", res.StatusCode, page)
	}
	res = send(h, "demo-super", "GET", "/agency-manager/bills/8?agency=5", nil)
	page = billBody(t, res)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "WIRE-1") ||
		!strings.Contains(page, `href="/agency-manager/bills/8/export?agency=5&amp;format=xlsx"`) {
		t.Fatalf("sub bill: status %d\n%s", res.StatusCode, page)
	}
	res = send(h, "demo-super", "POST", "/agency-manager/statements", url.Values{"agency": {"5"}, "from": {"2026-01-31"}, "to": {"2026-01-01"}})
	if page := billBody(t, res); res.StatusCode != http.StatusOK || !strings.Contains(page, `id="statement-to-error"`) {
		t.Fatalf("sub create to before from: status %d", res.StatusCode)
	}
	res = send(h, "demo-super", "POST", "/agency-manager/statements", url.Values{"agency": {"5"}, "from": {"2026-01-01"}, "to": {"2026-01-31"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/agency-manager/statements?agency=5" || len(b.created) != 1 || b.created[0].AgencyID != 5 {
		t.Fatalf("sub create: status %d location %q created %+v", res.StatusCode, res.Header.Get("Location"), b.created)
	}
}
