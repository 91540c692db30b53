package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// fakeManager manages one agency, id 5, in CNY; it records what the
// handlers asked for. Unused methods panic through the nil embed.
type fakeManager struct {
	AgencyManager
	funds     *fakeWallets
	detail    agency.Detail
	changed   bool // SetConfig reports a new settlement currency
	configs   []agency.Config
	creates   []agency.CreateRequest
	createErr error
}

func (f *fakeManager) managed(id int64) error {
	if id != f.detail.ID {
		return fault.NotFound("")
	}
	return nil
}

func (f *fakeManager) List(context.Context, auth.Principal, agency.ListFilter) ([]agency.Summary, int, error) {
	return []agency.Summary{f.detail.Summary}, 1, nil
}

func (f *fakeManager) ListAgencies(context.Context, auth.Principal, agency.ListFilter) ([]agency.Agency, int, error) {
	return []agency.Agency{{ID: f.detail.ID, Name: f.detail.Name, Code: f.detail.Code}}, 1, nil
}

func (f *fakeManager) Create(_ context.Context, _ auth.Principal, r agency.CreateRequest) (agency.Agency, error) {
	f.creates = append(f.creates, r)
	if f.createErr != nil {
		return agency.Agency{}, f.createErr
	}
	return agency.Agency{ID: 9}, nil
}

func (f *fakeManager) Get(_ context.Context, _ auth.Principal, id int64, _ func(context.Context, int64) ([]auth.APIKey, error)) (agency.Detail, error) {
	if err := f.managed(id); err != nil {
		return agency.Detail{}, err
	}
	return f.detail, nil
}

func (f *fakeManager) Managed(_ context.Context, _ auth.Principal, id int64) (agency.Agency, error) {
	if err := f.managed(id); err != nil {
		return agency.Agency{}, err
	}
	return agency.Agency{ID: id, Name: f.detail.Name, SettlementCurrency: f.detail.Currency}, nil
}

func (f *fakeManager) SetConfig(_ context.Context, _ auth.Principal, id int64, c agency.Config) (agency.Agency, bool, error) {
	if err := f.managed(id); err != nil {
		return agency.Agency{}, false, err
	}
	f.configs = append(f.configs, c)
	return agency.Agency{ID: id}, f.changed, nil
}

// fakeWallets records top-ups.
type fakeWallets struct {
	Wallets
	topUps []ledger.TopUp
}

// WalletBalance: the viewer's own wallet, empty.
func (f *fakeWallets) WalletBalance(_ context.Context, _ int64, currency string) (ledger.Balance, error) {
	return ledger.Balance{Currency: currency}, nil
}

func (f *fakeWallets) TopUp(_ context.Context, t ledger.TopUp) (ledger.TopUpResult, error) {
	replayed := false
	for _, prev := range f.topUps {
		replayed = replayed || prev.IdempotencyKey == t.IdempotencyKey
	}
	f.topUps = append(f.topUps, t)
	return ledger.TopUpResult{Currency: t.Currency, Credited: "772.20", Balance: "772.20", Replayed: replayed}, nil
}

// AddFunds posts through the fake wallets, as the service does through the
// ledger.
func (f *fakeManager) AddFunds(ctx context.Context, _ auth.Principal, id int64, t ledger.TopUp, _ *i18n.Catalog) (ledger.TopUpResult, error) {
	t.AgencyID = id
	return f.funds.TopUp(ctx, t)
}

func managerDetail() agency.Detail {
	c := agency.Config{Settings: agency.Settings{SettlementCurrency: "CNY", EmailLanguage: "en", EnableFlight: true},
		Flight: agency.DefaultFlightSettings()}
	c.Flight.Markups["china"] = agency.Markup{Unit: "percent", Value: "3", Limit: "50"}
	return agency.Detail{Summary: agency.Summary{ID: 5, Code: "KT000001", Name: "Kowloon Tours", Status: agency.StatusActive, Currency: "CNY",
		Balance: "0.00", CreditLimit: "0.00", Available: "0.00"}, Config: c, CreditPeriodUnit: "month", APIKeys: []auth.APIKey{}}
}

// managerIdentity adds the user lookup the page layout makes.
type managerIdentity struct{ *fakeIdentity }

func (managerIdentity) User(_ context.Context, id int64) (auth.User, error) {
	return auth.User{ID: id, Username: "u"}, nil
}

// managerFixture is the portal with fake services; tokens name the users.
func managerFixture(t *testing.T, withSite bool) (http.Handler, *fakeManager, *fakeWallets) {
	t.Helper()
	demo := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true, SettlementCurrency: "CNY"}}
	blueSky := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{IsShowBill: true, SettlementCurrency: "CNY"}}
	operator := auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, EnableFlightService: true}}
	finance := auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true}}
	provider := auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 0}
	id := &fakeIdentity{sessions: map[string]auth.Principal{
		"demo-super":    principal(1, demo),
		"bluesky-super": principal(2, blueSky),
		"demo-operator": principal(3, operator),
		"demo-finance":  principal(4, finance),
		"provider":      principal(5, provider),
	}}
	wl := &fakeWallets{}
	m := &fakeManager{detail: managerDetail(), funds: wl}
	s := &Server{identity: managerIdentity{id}, agencies: fakeAgencies{1: {ID: 1, Name: "Demo Travel", SettlementCurrency: "CNY", AllowedHostsJSON: `[]`}},
		manager: m, wallets: wl, now: time.Now}
	if withSite {
		db := storetest.Open(t, store.SQLite)
		s.site = testSite(db, approxRates)
	}
	return portal(s), m, wl
}

func send(h http.Handler, token, method, path string, form url.Values) *http.Response {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return serveAs(h, token, req)
}

func TestAgencyManagerAccess(t *testing.T) {
	t.Parallel()
	h, m, _ := managerFixture(t, true)
	settings := url.Values{"section": {"settings"}, "settings.settlementCurrency": {"USD"}}
	checkRefusals(t, h, []refusal{
		{"logged out list", "", "GET", "/agency-manager", nil, "error:router.login"},
		{"logged out detail", "", "GET", "/agency-manager/agencies/5", nil, "error:router.login"},
		{"operator list", "demo-operator", "GET", "/agency-manager", nil, "error:router.notRole"},
		{"operator detail", "demo-operator", "GET", "/agency-manager/agencies/5", nil, "error:router.notRole"},
		{"blue sky list", "bluesky-super", "GET", "/agency-manager", nil, "error:router.notRole"},
		{"blue sky detail", "bluesky-super", "GET", "/agency-manager/agencies/5", nil, "error:router.notRole"},
		{"blue sky config", "bluesky-super", "POST", "/agency-manager/agencies/5/config", settings, "error:router.notRole"},
		{"blue sky create", "bluesky-super", "POST", "/agency-manager/agencies", url.Values{"name": {"X"}}, "error:router.notRole"},
		{"operator wallet", "demo-operator", "GET", "/bills/wallet", nil, "error:router.notRole"},
	})
	if len(m.configs) != 0 || len(m.creates) != 0 {
		t.Fatalf("refused users reached the service: %d configs, %d creates", len(m.configs), len(m.creates))
	}
}

func TestAgencyConfigFlashes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		changed   bool
		form      url.Values
		wantFlash string
	}{
		{"new settlement currency", true, url.Values{"section": {"settings"}, "settings.settlementCurrency": {"USD"}, "settings.emailLanguage": {"en"}},
			"info:" + agency.SettlementCurrencyChanged},
		{"same currency", false, url.Values{"section": {"settings"}, "settings.settlementCurrency": {"CNY"}, "settings.emailLanguage": {"en"}},
			"success:manager.saved"},
		{"markups", false, url.Values{"section": {"markups"}, "flight.markups.domestic.unit": {"amount"}, "flight.markups.domestic.value": {"12"}},
			"success:manager.saved"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, m, _ := managerFixture(t, false)
			m.changed = tt.changed
			res := send(h, "demo-super", "POST", "/agency-manager/agencies/5/config", tt.form)
			if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/agency-manager/agencies/5?section="+tt.form.Get("section")+"#"+tt.form.Get("section") {
				t.Fatalf("status %d location %q", res.StatusCode, res.Header.Get("Location"))
			}
			if got := flashOf(res); got != tt.wantFlash {
				t.Fatalf("flash %q, want %q", got, tt.wantFlash)
			}
			if len(m.configs) != 1 {
				t.Fatalf("SetConfig called %d times", len(m.configs))
			}
			c := m.configs[0]
			switch tt.form.Get("section") {
			case "settings":
				if c.Settings.SettlementCurrency != tt.form.Get("settings.settlementCurrency") {
					t.Fatalf("currency %q", c.Settings.SettlementCurrency)
				}
				// The other sections keep what the agency had.
				if c.Flight.Markups["china"].Value != "3" {
					t.Fatalf("markups lost: %+v", c.Flight.Markups)
				}
			case "markups":
				if c.Flight.Markups["domestic"].Value != "12" || c.Settings.SettlementCurrency != "CNY" || !c.Settings.EnableFlight {
					t.Fatalf("config %+v", c)
				}
			}
		})
	}
}

var idempotencyField = regexp.MustCompile(`name="idempotencyKey" value="([^"]+)"`)

func TestTopUpFormPostsIdempotencyKey(t *testing.T) {
	t.Parallel()
	// The add-funds form is on the money tab.
	h, _, wl := managerFixture(t, true)
	res := send(h, "demo-super", "GET", "/agency-manager/agencies/5?section=funds", nil)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("detail status %d", res.StatusCode)
	}
	m := idempotencyField.FindSubmatch(body)
	if m == nil {
		t.Fatal("the add-funds form has no idempotency key")
	}
	key := string(m[1])
	if again := idempotencyField.FindSubmatch(body2(t, h)); again == nil || string(again[1]) == key {
		t.Fatal("each rendering of the form should get its own key")
	}
	form := url.Values{"idempotencyKey": {key}, "currencyReceived": {"USD"}, "amountReceived": {"100"}, "exchangeRate": {"7.8"},
		"feePercent": {"1"}, "reference": {"HSBC-1"}, "sendEmail": {"1"}}
	for i, wantFlash := range []string{"success:manager.funds.added", "success:manager.funds.replayed"} {
		res := send(h, "demo-super", "POST", "/agency-manager/agencies/5/funds", form)
		if res.StatusCode != http.StatusSeeOther || flashOf(res) != wantFlash {
			t.Fatalf("post %d: status %d flash %q, want %q", i, res.StatusCode, flashOf(res), wantFlash)
		}
	}
	if len(wl.topUps) != 2 {
		t.Fatalf("%d top-ups", len(wl.topUps))
	}
	got := wl.topUps[0]
	if got.IdempotencyKey != key || wl.topUps[1].IdempotencyKey != key {
		t.Fatalf("keys %q, %q; want the form's %q", got.IdempotencyKey, wl.topUps[1].IdempotencyKey, key)
	}
	if got.AgencyID != 5 || got.Currency != "CNY" || got.CurrencyReceived != "USD" || got.AmountReceived != "100" ||
		got.ExchangeRate != "7.8" || got.FeePercent != "1" || got.Reference != "HSBC-1" || !got.SendEmail {
		t.Fatalf("top-up %+v", got)
	}

	// A post without a key never reaches the ledger.
	form.Del("idempotencyKey")
	res = send(h, "demo-super", "POST", "/agency-manager/agencies/5/funds", form)
	if res.StatusCode != http.StatusOK || len(wl.topUps) != 2 {
		t.Fatalf("keyless post: status %d, %d top-ups", res.StatusCode, len(wl.topUps))
	}
}

func body2(t *testing.T, h http.Handler) []byte {
	t.Helper()
	res := send(h, "demo-super", "GET", "/agency-manager/agencies/5?section=funds", nil)
	b, _ := io.ReadAll(res.Body)
	return b
}

func TestAgencyManagerOtherAgencyIsNotFound(t *testing.T) {
	t.Parallel()
	h, _, wl := managerFixture(t, true)
	for _, tt := range []struct{ method, path string }{
		{"GET", "/agency-manager/agencies/6"},
		{"POST", "/agency-manager/agencies/6/funds"},
		{"GET", "/agency-manager/agencies/x"},
	} {
		res := send(h, "demo-finance", tt.method, tt.path, url.Values{"idempotencyKey": {"k"}})
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("%s %s: status %d, want 404", tt.method, tt.path, res.StatusCode)
		}
	}
	if len(wl.topUps) != 0 {
		t.Fatal("a top-up reached the ledger for an agency outside the caller's reach")
	}
}

func TestAgencyCreateErrorsInline(t *testing.T) {
	t.Parallel()
	h, m, _ := managerFixture(t, true)
	m.createErr = fault.Validation(map[string]string{"contactEmail": "agency.error.contactEmail", "superUser.username": "user.error.usernameTaken"})
	res := send(h, "provider", "POST", "/agency-manager/agencies", url.Values{"name": {"Kowloon Tours"}, "contactEmail": {"bad"},
		"superUser.username": {"kowloon-admin"}, "superUser.password": {"secret-1"}, "settings.isShowBill": {"1"}})
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, want := range []string{"Email format error", "This username is already taken", `value="Kowloon Tours"`, `value="kowloon-admin"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(string(body), "secret-1") {
		t.Error("the password was echoed back")
	}
	if r := m.creates[0]; !r.Config.Settings.IsShowBill || r.Config.Settings.CanCreateSubAgency || r.SuperUser.Password != "secret-1" {
		t.Fatalf("request %+v", r)
	}
}

func TestBalanceChart(t *testing.T) {
	t.Parallel()
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now := from.AddDate(0, 0, 90)
	if c := balanceChart(ledger.Statement{Currency: "CNY"}, from, now); !c.Empty {
		t.Fatal("no entries should be an empty chart")
	}
	st := ledger.Statement{Currency: "CNY", Opening: 10000, Entries: []ledger.Entry{
		{PaidAt: from.AddDate(0, 0, 45), BalanceAfter: 87220},
		{PaidAt: from.AddDate(0, 0, 60), BalanceAfter: -5000},
	}}
	c := balanceChart(st, from, now)
	if c.Empty || len(c.Dots) != 2 || len(c.Rows) != 3 || !c.ShowZero {
		t.Fatalf("chart %+v", c)
	}
	if c.MaxLabel != "872.20" || c.MinLabel != "-50.00" || c.Rows[1].Balance != "872.20" {
		t.Fatalf("labels %q %q rows %+v", c.MaxLabel, c.MinLabel, c.Rows)
	}
	if c.Dots[0].Y != chartTop || c.Dots[1].Y != chartBottom || c.Dots[0].X != (chartLeft+chartRight)/2 {
		t.Fatalf("dots %+v", c.Dots)
	}
	if !strings.HasPrefix(c.Points, "96,") || !strings.HasSuffix(c.Points, "624,200") {
		t.Fatalf("points %q", c.Points)
	}
}

func TestDisplayAmount(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, cur, want string }{
		{"772.2", "CNY", "772.20"}, {"1234567.8", "USD", "1,234,567.80"}, {"-5000", "CNY", "-5,000.00"}, {"1000", "JPY", "1,000"},
	} {
		if got := displayAmount(tt.in, tt.cur); got != tt.want {
			t.Errorf("displayAmount(%q, %s) = %q, want %q", tt.in, tt.cur, got, tt.want)
		}
	}
}

// The detail page shows one tab of forms at a time, chosen by ?section=,
// and the message of a save beside the form saved, not at the page top.
func TestAgencyDetailTabs(t *testing.T) {
	t.Parallel()
	h, _, _ := managerFixture(t, true)
	get := func(path, flash string) string {
		t.Helper()
		req := httptest.NewRequest("GET", path, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "demo-super"})
		if flash != "" {
			req.AddCookie(&http.Cookie{Name: flashCookie, Value: flash})
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, rec.Code)
		}
		return rec.Body.String()
	}
	body := get("/agency-manager/agencies/5", "")
	if !strings.Contains(body, `id="profile"`) || strings.Contains(body, `id="funds"`) || strings.Contains(body, `id="markups"`) {
		t.Error("the first tab is not the profile alone")
	}
	if !strings.Contains(body, `href="/agency-manager/agencies/5?section=money#money"`) {
		t.Error("no link to the money tab")
	}
	body = get("/agency-manager/agencies/5?section=funds", "success:manager.credit.saved")
	for _, want := range []string{`id="credit"`, `id="funds"`, `href="/agency-manager/agencies/5?section=money#money" aria-current="page"`} {
		if !strings.Contains(body, want) {
			t.Errorf("money tab lacks %q", want)
		}
	}
	if strings.Contains(body, `id="profile"`) {
		t.Error("the money tab shows the profile form")
	}
	// The message sits in the funds section, after its heading.
	head := strings.Index(body, `id="funds-title"`)
	msg := strings.Index(body, "The credit line was saved")
	if head < 0 || msg < head {
		t.Errorf("the saved message is not beside the funds form (heading at %d, message at %d)", head, msg)
	}
}
