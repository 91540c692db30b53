package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/demo"
)

// portalState is what a portal form could change: users, sessions,
// agencies, wallets and credit, orders, statements, keys.
func portalState(t *testing.T, a *app.App) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT id, status, password_hash, updated_at FROM users ORDER BY id`,
		`SELECT id, revoked_at FROM sessions ORDER BY id`,
		`SELECT id, status, credit_period, updated_at FROM agencies ORDER BY id`,
		`SELECT id, balance, credit_limit FROM ledger_accounts ORDER BY id`,
		`SELECT COUNT(*) FROM ledger_transfers`,
		`SELECT id, status, payment_status FROM flight_orders ORDER BY id`,
		`SELECT COUNT(*) FROM flight_order_events`,
		`SELECT COUNT(*) FROM statements`,
		`SELECT COUNT(*) FROM api_keys`,
	} {
		rows, err := a.DB.QueryxContext(t.Context(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			row, err := rows.SliceScan()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, row...)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestPortalGuardRefusesPosts posts a representative form of each access
// rule of the route table through the whole server: a visitor is asked to
// log in (401), a user without the rule is refused (403), a user of
// another agency finds nothing (404), and none of them changes anything.
func TestPortalGuardRefusesPosts(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		fin := loginAs(t, srv, "demo-finance", "demo-pass-1")
		super := loginAs(t, srv, "demo-super", "demo-pass-1")
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		quoteID, _ := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "guard-1")
		var opSession int64
		if err := a.DB.GetContext(t.Context(), &opSession, a.DB.Rebind(`SELECT MAX(id) FROM sessions WHERE user_id = ?`), op.UserInfo.ID); err != nil {
			t.Fatal(err)
		}

		visitor := browser(t)
		opWeb, finWeb, superWeb := portalAs(t, srv, op.Token), portalAs(t, srv, fin.Token), portalAs(t, srv, super.Token)
		subWeb, blueWeb := portalAs(t, srv, sub.Token), portalAs(t, srv, blue.Token)
		var (
			sessionEnd = fmt.Sprintf("/profile/sessions/%d/end", opSession)
			deactivate = fmt.Sprintf("/users/%d/deactivate", op.UserInfo.ID)
			cancel     = fmt.Sprintf("/flight/orders/%d/actions/cancel", o.ID)
			approve    = fmt.Sprintf("/flight/orders/%d/actions/approve", o.ID)
			subCredit  = fmt.Sprintf("/agency-manager/agencies/%d/credit", sub.Company.ID)
			blueCredit = fmt.Sprintf("/agency-manager/agencies/%d/credit", demo.BlueSkyID)
			subPass    = fmt.Sprintf("/agency-manager/agencies/%d/password", sub.Company.ID)
			bluePass   = fmt.Sprintf("/agency-manager/agencies/%d/password", demo.BlueSkyID)
		)
		confirm := url.Values{"confirm": {"1"}}
		period := url.Values{"from": {"2026-01-01"}, "to": {"2026-01-31"}}
		credit := url.Values{"creditLimit": {"10000000"}, "creditPeriod": {"1"}, "creditPeriodUnit": {"month"}}
		password := url.Values{"password": {"taken-over-1"}}
		const login, notRole, notFound = "Please login", "You do not have the access", "Page not found"
		tests := []struct {
			rule, who string
			c         *http.Client
			path      string
			form      url.Values
			status    int
			body      string
		}{
			{"logged in", "visitor", visitor, sessionEnd, nil, http.StatusUnauthorized, login},
			{"SuperUser", "visitor", visitor, deactivate, nil, http.StatusUnauthorized, login},
			{"SuperUser", "operator", opWeb, deactivate, nil, http.StatusForbidden, notRole},
			{"SuperUser", "another agency's SuperUser", blueWeb, deactivate, nil, http.StatusNotFound, notFound},
			{"operator with flights", "visitor", visitor, cancel, confirm, http.StatusUnauthorized, login},
			{"operator with flights", "finance", finWeb, cancel, confirm, http.StatusForbidden, notRole},
			{"operator with flights", "another agency's SuperUser", blueWeb, cancel, confirm, http.StatusNotFound, notFound},
			{"provider operator", "visitor", visitor, approve, nil, http.StatusUnauthorized, login},
			{"provider operator", "agency operator", opWeb, approve, nil, http.StatusForbidden, notRole},
			{"provider operator", "sub-agency SuperUser", subWeb, approve, nil, http.StatusForbidden, notRole},
			{"finance", "visitor", visitor, "/bills/statements", period, http.StatusUnauthorized, login},
			{"finance", "operator", opWeb, "/bills/statements", period, http.StatusForbidden, notRole},
			{"manages agencies", "visitor", visitor, subCredit, credit, http.StatusUnauthorized, login},
			{"manages agencies", "operator", opWeb, subCredit, credit, http.StatusForbidden, notRole},
			{"manages agencies", "SuperUser of an agency without sub-agencies", blueWeb, subCredit, credit, http.StatusForbidden, notRole},
			{"manages agencies", "finance of another tree", finWeb, blueCredit, credit, http.StatusNotFound, notFound},
			{"SuperUser managing agencies", "visitor", visitor, subPass, password, http.StatusUnauthorized, login},
			{"SuperUser managing agencies", "finance", finWeb, subPass, password, http.StatusForbidden, notRole},
			{"SuperUser managing agencies", "SuperUser of another tree", superWeb, bluePass, password, http.StatusNotFound, notFound},
		}
		for _, tt := range tests {
			t.Run(tt.rule+"/"+tt.who, func(t *testing.T) {
				before := portalState(t, a)
				res, body := postForm(t, tt.c, srv.URL+tt.path, tt.form, "Accept-Language", "en")
				if res.StatusCode != tt.status || res.Header.Get("Location") != "" || !strings.Contains(body, tt.body) {
					t.Errorf("POST %s: status %d Location %q, want %d with %q", tt.path, res.StatusCode, res.Header.Get("Location"), tt.status, tt.body)
				}
				if after := portalState(t, a); after != before {
					t.Errorf("POST %s changed the database:\nbefore\n%s\nafter\n%s", tt.path, before, after)
				}
			})
		}
		// The refused answers left every session working.
		if res, _ := get(t, opWeb, srv.URL+"/flight/orders", "Accept-Language", "en"); res.StatusCode != http.StatusOK {
			t.Fatalf("the operator's session after the refusals: %d", res.StatusCode)
		}
	})
}
