package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// approxRates are the site's rates in the page tests: a US dollar is worth
// 7.1 yuan, so with USD chosen in the footer 1,000.00 CNY shows
// "≈ USD 140.85" beside it.
var approxRates = map[string]string{"USD": "7.1"}

// getAs GETs path as token with the footer's display currency set to
// currency ("" leaves the site's default) and answers the body.
func getAs(t *testing.T, h http.Handler, token, path, currency string) string {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	if currency != "" {
		req.AddCookie(&http.Cookie{Name: CurrencyCookie, Value: currency})
	}
	res := serveAs(h, token, req)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s as %s: %d", path, token, res.StatusCode)
	}
	return billBody(t, res)
}

// approxAfter matches amount followed by its approximate figure want, the
// way the templates' approx writes it.
func approxAfter(amount, want string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(amount) + `(?:\s|<span class="mgr-currency">CNY</span>|CNY)*<span class="approx" title="[^"]*CNY">` + regexp.QuoteMeta(want) + `</span>`)
}

// entryWallets is a CNY wallet in debt with a top-up and a payment.
type entryWallets struct{ fakeWallets }

func (entryWallets) WalletBalance(_ context.Context, _ int64, currency string) (ledger.Balance, error) {
	return ledger.Balance{Currency: currency, Balance: -150000, CreditLimit: 500000}, nil
}

func (entryWallets) Entries(context.Context, int64, ledger.EntryFilter) ([]ledger.Entry, int, error) {
	at := time.Now().Add(-time.Hour)
	return []ledger.Entry{
		{ID: 2, Type: ledger.TypeOriginFlight, Amount: -250000, Currency: "CNY", BalanceAfter: -150000, PaidAt: at, OrderID: "F1"},
		{ID: 1, Type: ledger.TypeTopUp, Amount: 100000, Currency: "CNY", BalanceAfter: 100000, PaidAt: at.Add(-time.Hour), Reference: "WIRE-1"},
	}, 2, nil
}

func (entryWallets) BuildStatement(_ context.Context, agencyID int64, currency string, from, to time.Time) (ledger.Statement, error) {
	return ledger.Statement{AgencyID: agencyID, Currency: currency, From: from, To: to}, nil
}

func walletFixture(t *testing.T) http.Handler {
	t.Helper()
	fin := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{IsShowBill: true, SettlementCurrency: "CNY"}}
	id := &fakeIdentity{sessions: map[string]auth.Principal{"demo-super": principal(1, fin)}}
	s := &Server{identity: managerIdentity{id}, agencies: fakeAgencies{1: {ID: 1, Name: "Demo Travel", SettlementCurrency: "CNY", AllowedHostsJSON: `[]`}},
		wallets: entryWallets{}, now: time.Now}
	s.site = testSite(storetest.Open(t, store.SQLite), approxRates)
	return portal(s)
}

// TestApproxAmounts: with US dollars chosen in the footer, every page that
// shows money in the settlement currency adds the approximate dollar figure
// after the amount; with the settlement currency chosen (or none), nothing
// is added.
func TestApproxAmounts(t *testing.T) {
	t.Parallel()
	manager, m, _ := managerFixture(t, true)
	m.detail.Balance, m.detail.CreditLimit, m.detail.Available = "-1,500.00", "5,000.00", "3,500.00"
	bills, _ := billsFixture(t)
	trains := trainFixture(t)
	groups := groupFixture(t, storetest.Open(t, store.SQLite))
	groups.quote(t, "operator")

	for _, tt := range []struct {
		name, token, path string
		h                 http.Handler
		want              [][2]string // amount as shown, its approximate figure
		bare              []string    // amounts shown without one (zero is zero in any currency)
	}{
		{"agency list", "demo-super", "/agency-manager", manager, [][2]string{
			{"-1,500.00", "≈ USD -211.27"}, {"5,000.00", "≈ USD 704.23"}, {"3,500.00", "≈ USD 492.96"}}, nil},
		{"agency detail", "demo-super", "/agency-manager/agencies/5", manager, [][2]string{
			{"-1,500.00 CNY", "≈ USD -211.27"}, {"5,000.00 CNY", "≈ USD 704.23"}, {"3,500.00 CNY", "≈ USD 492.96"}}, nil},
		{"wallet", "demo-super", "/bills/wallet", walletFixture(t), [][2]string{
			{"-1,500.00", "≈ USD -211.27"}, {"5,000.00", "≈ USD 704.23"}, {"3,500.00", "≈ USD 492.96"},
			{"-2,500.00", "≈ USD -352.12"}, {"+1,000.00", "≈ USD 140.85"}, {"1,000.00", "≈ USD 140.85"}}, nil},
		{"transactions", "demo-super", "/bills/transactions", bills, [][2]string{{"1,000.00 CNY", "≈ USD 140.85"}}, nil},
		{"statements", "demo-super", "/bills/statements", bills, [][2]string{{"1,000.00", "≈ USD 140.85"}}, []string{`class="num">0.00</td>`}},
		{"statement", "demo-super", "/bills/statements/3", bills, [][2]string{{"+1,000.00", "≈ USD 140.85"}, {"1,000.00", "≈ USD 140.85"}},
			[]string{`<dd id="statement-opening">0.00 <span class="mgr-currency">CNY</span></dd>`}},
		{"train orders", "operator", "/train/orders", trains.h, [][2]string{{"553.00 CNY", "≈ USD 77.89"}}, nil},
		{"train order", "operator", trains.href("T0001"), trains.h, [][2]string{{"553.00 CNY", "≈ USD 77.89"}}, nil},
		{"group orders", "operator", "/flight/group/order", groups.h, [][2]string{{"10,000.00 CNY", "≈ USD 1,408.46"}}, nil},
		{"group order", "operator", groups.href("operator"), groups.h, [][2]string{
			{"10,000.00 CNY", "≈ USD 1,408.46"}, {"1,000.00 CNY", "≈ USD 140.85"}, {"2,000.00 CNY", "≈ USD 281.70"},
			{"3,000.00 CNY", "≈ USD 422.54"}, {"5,000.00 CNY", "≈ USD 704.23"}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := getAs(t, tt.h, tt.token, tt.path, "USD")
			for _, w := range tt.want {
				if !approxAfter(w[0], w[1]).MatchString(body) {
					t.Errorf("%s: no %q after %q", tt.path, w[1], w[0])
				}
			}
			for _, b := range tt.bare {
				if !strings.Contains(body, b) {
					t.Errorf("%s: no %s", tt.path, b)
				}
			}
			for _, cur := range []string{"", "CNY"} {
				if body := getAs(t, tt.h, tt.token, tt.path, cur); regexp.MustCompile(`class="approx"|≈`).MatchString(body) {
					t.Errorf("%s with the display currency %q shows an approximate amount", tt.path, cur)
				}
			}
		})
	}
}
