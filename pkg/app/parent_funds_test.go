package app_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

// wallet reads the caller's wallet figures as the API shows them.
func wallet(t *testing.T, srv *httptest.Server, token string) string {
	t.Helper()
	resp, env := call(t, srv, "GET", "/base/v2/wallet", "en", "", bearer(token)...)
	if resp.StatusCode != 200 {
		t.Fatalf("wallet: %d %+v", resp.StatusCode, env)
	}
	return string(env.Data)
}

// ledgerSumsToZero fails the test when money was created or lost: every
// currency's accounts sum to zero.
func ledgerSumsToZero(t *testing.T, a *app.App) {
	t.Helper()
	var rows []struct {
		Currency string `db:"currency"`
		Sum      int64  `db:"total"`
	}
	if err := a.DB.SelectContext(context.Background(), &rows, `SELECT currency, SUM(balance) AS total FROM ledger_accounts GROUP BY currency`); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Sum != 0 {
			t.Errorf("the ledger's %s accounts sum to %d, not zero", r.Currency, r.Sum)
		}
	}
}

// TestParentFundsSubAgencyFromItsWallet: a parent agency cannot create
// money. Its top-ups of a sub-agency come out of its own balance (never its
// credit line), and a credit line it grants is held from its balance.
func TestParentFundsSubAgencyFromItsWallet(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		finance := loginAs(t, srv, "demo-finance", "demo-pass-1")
		demo := loginAs(t, srv, "demo-super", "demo-pass-1")
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		target := fmt.Sprint("/base/v2/agencies/", sub.Company.ID)
		parent := fmt.Sprint("/base/v2/agencies/", demo.Company.ID)
		topUp := func(token, key, body string) (int, envelope) {
			resp, env := call(t, srv, "POST", target+"/balance", "en", body, append(bearer(token), "Idempotency-Key", key)...)
			return resp.StatusCode, env
		}
		plain := func(amount string) string {
			return fmt.Sprintf(`{"amountReceived":%q,"exchangeRate":"1","reference":"parent-transfer"}`, amount)
		}
		has := func(who, got string, want ...string) {
			t.Helper()
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: want %s in %s", who, w, got)
				}
			}
		}

		// The attack of the report: an empty parent credits a billion.
		if code, env := topUp(finance.Token, "billion", plain("1000000000")); code != 422 || !strings.Contains(env.Message, "Insufficient") {
			t.Errorf("a parent with nothing tops up a billion: %d %+v", code, env)
		}
		resp, env := call(t, srv, "PUT", target+"/credit", "en", `{"creditLimit":"10000000"}`, bearer(finance.Token)...)
		if resp.StatusCode != 400 || !strings.Contains(string(env.Data), "set aside from your balance") {
			t.Errorf("a parent with nothing grants ten million of credit: %d %s", resp.StatusCode, env.Data)
		}
		has("sub after the refused calls", wallet(t, srv, sub.Token), `"balance":{"amount":"0.00"`, `"creditLimit":{"amount":"0.00"`)

		// The parent's own credit line is not money it can give away.
		if resp, env := call(t, srv, "PUT", parent+"/credit", "en", `{"creditLimit":"50000"}`, bearer(provider.Token)...); resp.StatusCode != 200 {
			t.Fatalf("provider grants the parent credit: %d %s", resp.StatusCode, env.Data)
		}
		if code, env := topUp(finance.Token, "from-credit", plain("100")); code != 422 {
			t.Errorf("a parent tops up out of its credit line: %d %+v", code, env)
		}

		// Money the provider received, then moved on by the parent.
		if resp, env := call(t, srv, "POST", parent+"/balance", "en", plain("1000"), append(bearer(provider.Token), "Idempotency-Key", "bank-1")...); resp.StatusCode != 200 {
			t.Fatalf("provider top-up of the parent: %d %s", resp.StatusCode, env.Data)
		}
		code, env := topUp(finance.Token, "gift-1", plain("300"))
		if code != 200 || !strings.Contains(string(env.Data), `"replayed":false`) || !strings.Contains(string(env.Data), `"credited":"300.00"`) {
			t.Fatalf("parent top-up: %d %+v", code, env)
		}
		if code, env := topUp(finance.Token, "gift-1", plain("300")); code != 200 || !strings.Contains(string(env.Data), `"replayed":true`) {
			t.Errorf("replayed parent top-up: %d %+v", code, env)
		}
		has("parent after giving 300", wallet(t, srv, demo.Token), `"balance":{"amount":"700.00"`)
		has("sub after receiving 300", wallet(t, srv, sub.Token), `"balance":{"amount":"300.00"`)
		_, env = call(t, srv, "GET", "/base/v2/wallet/entries?type=top-up", "en", "", bearer(demo.Token)...)
		has("parent's entries", string(env.Data), `"amount":{"amount":"-300.00"`, `"amount":{"amount":"1000.00"`, `"description":"sub-agency top-up"`)

		// No exchange and no fee between an agency and its sub-agency, and
		// only the wallet the agency sees.
		for _, c := range []struct{ body, want string }{
			{`{"currencyReceived":"USD","amountReceived":"10","exchangeRate":"7.1","reference":"r"}`, "settlement currency"},
			{`{"amountReceived":"10","exchangeRate":"1","feePercent":"2","reference":"r"}`, "No fee"},
			{`{"currency":"USD","amountReceived":"10","exchangeRate":"1","reference":"r"}`, "settlement currency only"},
		} {
			if code, env := topUp(finance.Token, "odd-"+c.want, c.body); code != 400 || !strings.Contains(string(env.Data), c.want) {
				t.Errorf("top-up %s: %d %s", c.body, code, env.Data)
			}
		}
		if resp, env := call(t, srv, "POST", target+"/balance", "en", `{"currency":"USD","amountReceived":"10","exchangeRate":"1","reference":"r"}`,
			append(bearer(provider.Token), "Idempotency-Key", "usd-1")...); resp.StatusCode != 400 || !strings.Contains(string(env.Data), "settlement currency only") {
			t.Errorf("provider top-up into a wallet nobody sees: %d %s", resp.StatusCode, env.Data)
		}

		// A credit line the parent grants is held from its balance.
		if resp, env := call(t, srv, "PUT", target+"/credit", "en", `{"creditLimit":"500"}`, bearer(finance.Token)...); resp.StatusCode != 200 {
			t.Fatalf("parent grants 500: %d %s", resp.StatusCode, env.Data)
		}
		has("parent holding 500", wallet(t, srv, demo.Token), `"balance":{"amount":"200.00"`)
		has("sub with a 500 line", wallet(t, srv, sub.Token), `"available":{"amount":"800.00"`)
		if resp, env := call(t, srv, "PUT", target+"/credit", "en", `{"creditLimit":"800"}`, bearer(finance.Token)...); resp.StatusCode != 400 {
			t.Errorf("parent grants more than it holds: %d %s", resp.StatusCode, env.Data)
		}
		has("parent after the refused raise", wallet(t, srv, demo.Token), `"balance":{"amount":"200.00"`)
		has("sub after the refused raise", wallet(t, srv, sub.Token), `"creditLimit":{"amount":"500.00"`)
		if resp, env := call(t, srv, "PUT", target+"/credit", "en", `{"creditLimit":"100"}`, bearer(finance.Token)...); resp.StatusCode != 200 {
			t.Fatalf("parent lowers the line: %d %s", resp.StatusCode, env.Data)
		}
		has("parent after lowering the line", wallet(t, srv, demo.Token), `"balance":{"amount":"600.00"`)
		has("sub after lowering the line", wallet(t, srv, sub.Token), `"available":{"amount":"400.00"`)
		ledgerSumsToZero(t, a)
	})
}
