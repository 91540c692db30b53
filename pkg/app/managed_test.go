package app_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

// TestManagedAgencyAPI covers what a manager does inside an agency it
// manages (the routes behind the CLI's remote mode and the TUI): dry runs of
// the money moves change nothing, wallet entries and users are the managed
// agency's, and nobody reaches an agency outside their network.
func TestManagedAgencyAPI(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo := loginAs(t, srv, "demo-super", "demo-pass-1")    // Demo Travel (2), parent of Demo Sub (3)
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1") // Blue Sky (222)
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		as := func(token string) []string { return bearer(token) }

		// Credit preview: the figures, nothing changed; the checks of the real run.
		resp, env := call(t, srv, "POST", "/base/v2/agencies/3/credit/preview", "en", `{"creditLimit":"800","creditPeriod":2,"creditPeriodUnit":"week"}`, as(demo.Token)...)
		var cp struct {
			Agency, CreditLimit, NewCreditLimit, NewAvailable, CreditPeriodUnit string
			CreditPeriod                                                        int
		}
		_ = json.Unmarshal(env.Data, &cp)
		if resp.StatusCode != 200 || cp.NewCreditLimit != "800.00" || cp.CreditLimit != "0.00" || cp.NewAvailable != "800.00" || cp.CreditPeriod != 2 || cp.CreditPeriodUnit != "week" {
			t.Errorf("credit preview: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "POST", "/base/v2/agencies/3/credit/preview", "zh-cn", `{"creditLimit":"-1"}`, as(demo.Token)...)
		if resp.StatusCode != 400 || env.Code != 100001 || !strings.Contains(string(env.Data), "creditLimit") {
			t.Errorf("bad credit preview: %d %+v", resp.StatusCode, env)
		}
		if resp, _ := call(t, srv, "POST", "/base/v2/agencies/222/credit/preview", "en", `{"creditLimit":"1"}`, as(demo.Token)...); resp.StatusCode != 404 {
			t.Errorf("credit preview of another network's agency: %d", resp.StatusCode)
		}

		// Funds preview (the provider's top-up, which may carry a fee): the
		// figures, the key's state, nothing posted.
		body := `{"currency":"CNY","amount":"90","amountReceived":"100","exchangeRate":"1","feePercent":"10","reference":"BANK-7"}`
		resp, env = call(t, srv, "POST", "/base/v2/agencies/3/balance/preview", "en", body, append(as(provider.Token), "Idempotency-Key", "prev-1")...)
		var fp struct {
			Credited, Fee, NewBalance string
			KeyUsed                   bool `json:"idempotencyKeyUsed"`
		}
		_ = json.Unmarshal(env.Data, &fp)
		if resp.StatusCode != 200 || fp.Credited != "90.00" || fp.Fee != "10.00" || fp.NewBalance != "90.00" || fp.KeyUsed {
			t.Errorf("funds preview: %d %s", resp.StatusCode, env.Data)
		}
		if b := walletMinor(t, a, 3); b != 0 {
			t.Fatalf("a preview moved money: %d", b)
		}
		if resp, env := call(t, srv, "POST", "/base/v2/agencies/3/balance/preview", "en", body, as(provider.Token)...); resp.StatusCode != 400 || !strings.Contains(string(env.Data), "Idempotency-Key") {
			t.Errorf("funds preview without a key: %d %s", resp.StatusCode, env.Data)
		}
		if resp, _ := call(t, srv, "POST", "/base/v2/agencies/3/balance/preview", "en", body, append(as(blue.Token), "Idempotency-Key", "prev-1")...); resp.StatusCode != 403 {
			t.Errorf("funds preview by an agency that manages none: %d", resp.StatusCode)
		}
		call(t, srv, "POST", "/base/v2/agencies/3/balance", "en", strings.Replace(body, `"90"`, `"90.00"`, 1), append(as(provider.Token), "Idempotency-Key", "prev-1")...)
		_, env = call(t, srv, "POST", "/base/v2/agencies/3/balance/preview", "en", body, append(as(provider.Token), "Idempotency-Key", "prev-1")...)
		_ = json.Unmarshal(env.Data, &fp)
		if !fp.KeyUsed || fp.NewBalance != "180.00" {
			t.Errorf("preview of a used key: %s", env.Data)
		}

		// Wallet entries of a managed agency.
		resp, env = call(t, srv, "GET", "/base/v2/agencies/3/wallet/entries?pageSize=5", "en", "", as(demo.Token)...)
		var entries struct {
			Items []struct {
				Type   string
				Amount struct{ Amount string }
			}
			Total int
		}
		_ = json.Unmarshal(env.Data, &entries)
		if resp.StatusCode != 200 || entries.Total != 1 || entries.Items[0].Type != "top-up" || entries.Items[0].Amount.Amount != "90.00" {
			t.Errorf("entries: %d %s", resp.StatusCode, env.Data)
		}
		for _, tok := range []string{blue.Token, loginAs(t, srv, "sub-super", "demo-pass-1").Token} {
			if resp, _ := call(t, srv, "GET", "/base/v2/agencies/3/wallet/entries", "en", "", as(tok)...); resp.StatusCode != 404 && resp.StatusCode != 403 {
				t.Errorf("entries seen from outside: %d", resp.StatusCode)
			}
		}

		// Users of a managed agency, managed as its super admin would.
		resp, env = call(t, srv, "POST", "/base/v2/agencies/3/users", "en",
			`{"username":"sub.op","email":"sub.op@example.com","role":["operator"],"password":"sub-pass-1"}`, as(provider.Token)...)
		var u struct {
			ID           int64
			AgencyID     int64
			IsSuperAdmin bool
			Status       string
		}
		_ = json.Unmarshal(env.Data, &u)
		if resp.StatusCode != 201 || u.AgencyID != 3 || u.IsSuperAdmin || u.Status != "active" {
			t.Fatalf("create user: %d %s", resp.StatusCode, env.Data)
		}
		loginAs(t, srv, "sub.op", "sub-pass-1")
		resp, env = call(t, srv, "GET", "/base/v2/agencies/3/users?role=operator", "en", "", as(demo.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"sub.op"`) || strings.Contains(string(env.Data), "demo-operator") {
			t.Errorf("list users: %d %s", resp.StatusCode, env.Data)
		}
		if resp, _ := call(t, srv, "GET", "/base/v2/agencies/3/users", "en", "", as(blue.Token)...); resp.StatusCode != 403 {
			t.Errorf("users seen by an agency that manages none: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "GET", "/base/v2/agencies/222/users", "en", "", as(demo.Token)...); resp.StatusCode != 404 {
			t.Errorf("users of another network: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "POST", "/base/v2/agencies/222/users", "en", `{"username":"x.y","email":"x@example.com","role":["operator"],"password":"sub-pass-1"}`, as(demo.Token)...); resp.StatusCode != 404 {
			t.Errorf("user created in another network: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/222/users/%d/deactivate", u.ID), "en", "", as(provider.Token)...); resp.StatusCode != 404 {
			t.Errorf("deactivate through the wrong agency: %d", resp.StatusCode)
		}
		resp, env = call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/3/users/%d/deactivate", u.ID), "en", "", as(demo.Token)...)
		_ = json.Unmarshal(env.Data, &u)
		if resp.StatusCode != 200 || u.Status != "inactive" {
			t.Errorf("deactivate: %d %s", resp.StatusCode, env.Data)
		}
		if resp, _ := call(t, srv, "POST", "/base/v2/login", "en", `{"username":"sub.op","password":"sub-pass-1"}`); resp.StatusCode == 200 {
			t.Errorf("a deactivated user logged in")
		}

		// API keys carry their roles; the rate history takes a limit.
		call(t, srv, "POST", "/base/v2/agencies/3/apikey", "en", `{"name":"ci","roles":["finance"]}`, as(demo.Token)...)
		_, env = call(t, srv, "GET", "/base/v2/agencies/3/apikeys", "en", "", as(demo.Token)...)
		if !strings.Contains(string(env.Data), `"roles":["finance"]`) {
			t.Errorf("api keys: %s", env.Data)
		}
		call(t, srv, "PUT", "/base/v2/exchangeRates/USD", "en", `{"rate":"7.3"}`, as(provider.Token)...)
		_, env = call(t, srv, "GET", "/base/v2/exchangeRates?currency=usd&limit=1", "en", "", as(demo.Token)...)
		var rates []struct{ Rate string }
		_ = json.Unmarshal(env.Data, &rates)
		if len(rates) != 1 || rates[0].Rate != "7.3" {
			t.Errorf("rate history limit 1: %s", env.Data)
		}

		// The order list takes an agency filter, within what the caller sees.
		if resp, env := call(t, srv, "GET", "/order/v2/flight/orders?agencyId=x", "en", "", as(demo.Token)...); resp.StatusCode != 400 || !strings.Contains(string(env.Data), "agencyId") {
			t.Errorf("bad agencyId: %d %s", resp.StatusCode, env.Data)
		}
		// An agency outside the caller's tree is refused alike on every
		// line (booking.Viewer.List), in the caller's language.
		for _, list := range []string{"/order/v2/flight/orders", "/order/v2/train/orders"} {
			resp, env := call(t, srv, "GET", list+"?agencyId=222", "zh-cn", "", as(demo.Token)...)
			if resp.StatusCode != 400 || !strings.Contains(string(env.Data), "无权查看该代理") {
				t.Errorf("%s of another network's agency: %d %s", list, resp.StatusCode, env.Data)
			}
			resp, env = call(t, srv, "GET", list+"?agencyId=3", "en", "", as(demo.Token)...)
			if resp.StatusCode != 200 {
				t.Errorf("%s of a sub-agency: %d %s", list, resp.StatusCode, env.Data)
			}
		}
	})
}
