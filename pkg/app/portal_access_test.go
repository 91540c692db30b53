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
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
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
		// Each refused user gets the answer for why: a visitor is asked to
		// log in, a user without the rule is refused, a user of another
		// agency finds nothing.
		type refusal struct {
			who    string
			c      *http.Client
			status int
			body   string
		}
		askLogin := refusal{"visitor", visitor, http.StatusUnauthorized, "Please login"}
		noRole := func(who string, c *http.Client) refusal {
			return refusal{who, c, http.StatusForbidden, "You do not have the access"}
		}
		notFound := func(who string, c *http.Client) refusal {
			return refusal{who, c, http.StatusNotFound, "Page not found"}
		}
		rules := []struct {
			rule, path string
			form       url.Values
			refused    []refusal
		}{
			{"logged in", sessionEnd, nil, []refusal{askLogin}},
			{"SuperUser", deactivate, nil, []refusal{askLogin, noRole("operator", opWeb), notFound("another agency's SuperUser", blueWeb)}},
			{"operator with flights", cancel, confirm, []refusal{askLogin, noRole("finance", finWeb), notFound("another agency's SuperUser", blueWeb)}},
			{"provider operator", approve, nil, []refusal{askLogin, noRole("agency operator", opWeb), noRole("sub-agency SuperUser", subWeb)}},
			{"finance", "/bills/statements", period, []refusal{askLogin, noRole("operator", opWeb)}},
			{"manages agencies", subCredit, credit, []refusal{askLogin, noRole("operator", opWeb), noRole("SuperUser of an agency without sub-agencies", blueWeb)}},
			{"manages agencies", blueCredit, credit, []refusal{notFound("finance of another tree", finWeb)}},
			{"SuperUser managing agencies", subPass, password, []refusal{askLogin, noRole("finance", finWeb)}},
			{"SuperUser managing agencies", bluePass, password, []refusal{notFound("SuperUser of another tree", superWeb)}},
		}
		for _, r := range rules {
			for _, tt := range r.refused {
				t.Run(r.rule+"/"+tt.who, func(t *testing.T) {
					before := portalState(t, a)
					res, body := postForm(t, tt.c, srv.URL+r.path, r.form, "Accept-Language", "en")
					if res.StatusCode != tt.status || res.Header.Get("Location") != "" || !strings.Contains(body, tt.body) {
						t.Errorf("POST %s: status %d Location %q, want %d with %q", r.path, res.StatusCode, res.Header.Get("Location"), tt.status, tt.body)
					}
					if after := portalState(t, a); after != before {
						t.Errorf("POST %s changed the database:\nbefore\n%s\nafter\n%s", r.path, before, after)
					}
				})
			}
		}
		// The refused answers left every session working.
		if res, _ := get(t, opWeb, srv.URL+"/flight/orders", "Accept-Language", "en"); res.StatusCode != http.StatusOK {
			t.Fatalf("the operator's session after the refusals: %d", res.StatusCode)
		}
	})
}
