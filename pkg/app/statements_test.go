package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/display"
)

func download(t *testing.T, srv *httptest.Server, path, lang string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req := newRequest(t, "GET", srv.URL+path, nil)
	req.Header.Set("Accept-Language", lang)
	return send(t, srv.Client(), req, hdr...)
}

func TestStatementsAPI(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, demo meData) {
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		finance := loginAs(t, srv, "demo-finance", "demo-pass-1")
		operator := loginAs(t, srv, "demo-operator", "demo-pass-1")
		subID := fmt.Sprint(sub.Company.ID)

		// The provider funds the parent, which tops the sub-agency up twice
		// out of that money.
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		if resp, env := call(t, srv, "POST", fmt.Sprint("/base/v2/agencies/", demo.Company.ID, "/balance"), "en",
			`{"amountReceived":"5000","exchangeRate":"1","reference":"bank-0"}`, append(bearer(provider.Token), "Idempotency-Key", "bank-0")...); resp.StatusCode != 200 {
			t.Fatalf("provider top-up: %d %+v", resp.StatusCode, env)
		}
		for i, amt := range []string{"1000.00", "250.50"} {
			resp, env := call(t, srv, "POST", "/base/v2/agencies/"+subID+"/balance", "en",
				fmt.Sprintf(`{"amountReceived":%q,"exchangeRate":"1","reference":"wire-%d"}`, amt, i), append(bearer(demo.Token), "Idempotency-Key", fmt.Sprint("k", i))...)
			if resp.StatusCode != 200 {
				t.Fatalf("top-up: %d %+v", resp.StatusCode, env)
			}
		}
		// Today on the demo agencies' clock (the default zone), whose days
		// the dates are.
		today := time.Now().In(display.ResolveZone("", "")).Format(time.DateOnly)
		// From the first of this year: a statement covers at most 366 days,
		// so a fixed first day would be refused a year on.
		from := today[:4] + "-01-01"
		body := fmt.Sprintf(`{"from":%q,"to":%q}`, from, today)

		resp, env := call(t, srv, "POST", "/base/v2/statements", "en", body, bearer(sub.Token)...)
		var st struct {
			ID                             int64
			OpeningBalance, ClosingBalance struct{ Amount, Currency string }
			Entries                        []json.RawMessage
		}
		_ = json.Unmarshal(env.Data, &st)
		if resp.StatusCode != 201 || st.ClosingBalance.Amount != "1250.50" || st.OpeningBalance.Amount != "0.00" || len(st.Entries) != 2 {
			t.Fatalf("own statement: %d %s", resp.StatusCode, env.Data)
		}
		sid := fmt.Sprint(st.ID)
		if resp, _ := call(t, srv, "POST", "/base/v2/statements", "en", `{"from":"2026-05-01","to":"2026-04-01"}`, bearer(sub.Token)...); resp.StatusCode != 400 {
			t.Errorf("backwards period: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "GET", "/base/v2/statements", "en", "", bearer(operator.Token)...); resp.StatusCode != 403 {
			t.Errorf("operator lists statements: %d", resp.StatusCode)
		}

		// Exports: CSV in Chinese, XLSX, PDF.
		resp2, csvBody := download(t, srv, "/base/v2/statements/"+sid+"/export?format=csv", "zh-cn", bearer(sub.Token)...)
		if resp2.StatusCode != 200 || !strings.HasPrefix(resp2.Header.Get("Content-Type"), "text/csv") || !strings.HasPrefix(string(csvBody), "\ufeff支付时间 (UTC+08:00 Asia/Shanghai),") ||
			!strings.Contains(string(csvBody), "1250.50") || !strings.Contains(string(csvBody), "下级代理充值") {
			t.Errorf("csv: %d %q", resp2.StatusCode, csvBody)
		}
		resp2, x := download(t, srv, "/base/v2/statements/"+sid+"/export?format=xlsx", "en", bearer(sub.Token)...)
		if f, err := excelize.OpenReader(bytes.NewReader(x)); resp2.StatusCode != 200 || err != nil {
			t.Errorf("xlsx: %d %v", resp2.StatusCode, err)
		} else {
			rows, _ := f.GetRows("Statement")
			if len(rows) != 3 {
				t.Errorf("xlsx rows = %d", len(rows))
			}
		}
		resp2, pdf := download(t, srv, "/base/v2/statements/"+sid+"/export?format=pdf", "zh-tw", bearer(sub.Token)...)
		if resp2.StatusCode != 200 || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Errorf("pdf: %d", resp2.StatusCode)
		}
		if resp2, _ := download(t, srv, "/base/v2/statements/"+sid+"/export?format=doc", "en", bearer(sub.Token)...); resp2.StatusCode != 400 {
			t.Errorf("bad format: %d", resp2.StatusCode)
		}

		// Nobody else reads the sub-agency's statement through the own-agency routes.
		for _, tok := range []string{demo.Token, blue.Token, finance.Token} {
			if resp, _ := call(t, srv, "GET", "/base/v2/statements/"+sid, "en", "", bearer(tok)...); resp.StatusCode != 404 {
				t.Errorf("another agency reads statement %s: %d", sid, resp.StatusCode)
			}
			if resp2, _ := download(t, srv, "/base/v2/statements/"+sid+"/export?format=csv", "en", bearer(tok)...); resp2.StatusCode != 404 {
				t.Errorf("another agency downloads statement %s: %d", sid, resp2.StatusCode)
			}
		}

		// The parent reads it as a sub-agency bill (SuperUser: empty permission list grants all).
		resp, env = call(t, srv, "GET", "/base/v2/sub/statements/"+subID+"/"+sid, "en", "", bearer(demo.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"amount":"1250.50"`) {
			t.Errorf("parent reads the sub bill: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "GET", "/base/v2/sub/statements?agencyId="+subID, "en", "", bearer(demo.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"total":1`) {
			t.Errorf("parent lists sub statements: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "POST", "/base/v2/sub/statements", "en", fmt.Sprintf(`{"agencyId":%s,"from":%q,"to":%q}`, subID, from, today), bearer(demo.Token)...)
		if resp.StatusCode != 201 {
			t.Errorf("parent creates a sub statement: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "GET", "/base/v2/sub/balance/"+subID, "en", "", bearer(demo.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"balance":{"amount":"1250.50"`) {
			t.Errorf("sub balance: %d %s", resp.StatusCode, env.Data)
		}
		// Strangers, a sibling sub-agency that manages agencies of its own
		// and the sub-agency itself get nothing from the sub routes.
		createSub(t, srv, demo.Token, "sibling-admin", true)
		sibling := loginAs(t, srv, "sibling-admin", "start-pass-1")
		for _, tok := range []string{sibling.Token} {
			if resp, _ := call(t, srv, "GET", "/base/v2/statements/"+sid, "en", "", bearer(tok)...); resp.StatusCode != 404 {
				t.Errorf("sibling reads statement %s: %d", sid, resp.StatusCode)
			}
		}
		for _, who := range []struct{ name, token string }{{"stranger", blue.Token}, {"sub itself", sub.Token}, {"sibling", sibling.Token}} {
			for _, p := range []string{"/base/v2/sub/statements/" + subID + "/" + sid, "/base/v2/sub/statements?agencyId=" + subID, "/base/v2/sub/balance/" + subID} {
				if resp, _ := call(t, srv, "GET", p, "en", "", bearer(who.token)...); resp.StatusCode != 404 && resp.StatusCode != 403 {
					t.Errorf("%s GET %s: %d", who.name, p, resp.StatusCode)
				}
			}
			if resp2, _ := download(t, srv, "/base/v2/sub/statements/"+subID+"/"+sid+"/export?format=csv", "en", bearer(who.token)...); resp2.StatusCode != 404 && resp2.StatusCode != 403 {
				t.Errorf("%s downloads the sub bill: %d", who.name, resp2.StatusCode)
			}
			resp, _ := call(t, srv, "POST", "/base/v2/sub/statements", "en", fmt.Sprintf(`{"agencyId":%s,"from":%q,"to":%q}`, subID, from, today), bearer(who.token)...)
			if resp.StatusCode != 404 && resp.StatusCode != 403 {
				t.Errorf("%s creates a sub statement: %d", who.name, resp.StatusCode)
			}
		}

		resp, env = call(t, srv, "GET", "/base/v2/transactions", "en", "", bearer(sub.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"referenceId":"wire-1"`) || !strings.Contains(string(env.Data), `"total":2`) {
			t.Errorf("transactions: %d %s", resp.StatusCode, env.Data)
		}
		if _, env := call(t, srv, "GET", "/base/v2/transactions", "en", "", bearer(blue.Token)...); strings.Contains(string(env.Data), "wire-1") {
			t.Error("another agency sees the transactions")
		}
		// Under an Idempotency-Key a retry answers the first statement (a
		// retry once made a second one); another key for the same period
		// answers it too: one period, one statement.
		count := func() int {
			var n int
			if err := a.DB.GetContext(context.Background(), &n, a.DB.Rebind(`SELECT COUNT(*) FROM statements WHERE agency_id = ?`), sub.Company.ID); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := count()
		var keyed []int64
		for _, k := range []string{"stmt-1", "stmt-1", "stmt-2"} {
			resp, env := call(t, srv, "POST", "/base/v2/statements", "en", body, append(bearer(sub.Token), "Idempotency-Key", k)...)
			var got struct{ ID int64 }
			_ = json.Unmarshal(env.Data, &got)
			if resp.StatusCode != 201 || got.ID == 0 {
				t.Fatalf("statement under key %s: %d %s", k, resp.StatusCode, env.Data)
			}
			keyed = append(keyed, got.ID)
		}
		if keyed[0] != keyed[1] || keyed[2] != keyed[0] || count() > before+1 {
			t.Errorf("statements under keys stmt-1, stmt-1, stmt-2: ids %v, %d made (want one statement)", keyed, count()-before)
		}
		before = count()
		// The key again for another period: refused, nothing made.
		resp, env = call(t, srv, "POST", "/base/v2/statements", "en", fmt.Sprintf(`{"from":%q,"to":%q}`, today, today),
			append(bearer(sub.Token), "Idempotency-Key", "stmt-1")...)
		if resp.StatusCode != 409 || env.Message != "This Idempotency-Key was already used for a different request" || count() != before {
			t.Errorf("stmt-1 for another period: %d %s, %d made", resp.StatusCode, env.Message, count()-before)
		}
	})
}

func TestExchangeRatesAPI(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		demo := loginAs(t, srv, "demo-super", "demo-pass-1")
		resp, env := call(t, srv, "GET", "/base/v2/exchangeRates", "en", "", bearer(demo.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"currency":"USD","rate":"7.1"`) {
			t.Fatalf("rates: %d %s", resp.StatusCode, env.Data)
		}
		if resp, _ := call(t, srv, "PUT", "/base/v2/exchangeRates/USD", "en", `{"rate":"7.3"}`, bearer(demo.Token)...); resp.StatusCode != 403 {
			t.Errorf("an agency sets a rate: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "PUT", "/base/v2/exchangeRates/USD", "en", `{"rate":"-1"}`, bearer(provider.Token)...); resp.StatusCode != 400 {
			t.Errorf("negative rate: %d", resp.StatusCode)
		}
		resp, env = call(t, srv, "PUT", "/base/v2/exchangeRates/USD", "en", `{"rate":"7.3"}`, bearer(provider.Token)...)
		if resp.StatusCode != 200 || !strings.HasPrefix(string(env.Data), `[{"base":"CNY","currency":"USD","rate":"7.3"`) || !strings.Contains(string(env.Data), `"rate":"7.1"`) {
			t.Errorf("set rate keeps history: %d %s", resp.StatusCode, env.Data)
		}
		_, env = call(t, srv, "GET", "/base/v2/config/getSiteConfig", "en", "")
		if !strings.Contains(string(env.Data), `"USD":"7.3"`) {
			t.Errorf("site config rate map not updated: %s", env.Data)
		}
		resp, env = call(t, srv, "GET", "/base/v2/exchangeRates?currency=XXX", "en", "", bearer(demo.Token)...)
		if resp.StatusCode != 404 || env.Message != "The current currency exchange rate acquisition failed, please choose again" {
			t.Errorf("missing rate: %d %+v", resp.StatusCode, env)
		}
	})
}
