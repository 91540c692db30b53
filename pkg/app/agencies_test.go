package app_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

const kowloon = `{"name":"Kowloon Tours","contactName":"Lee","contactEmail":"lee@kowloon.example","contactPhone":"+852 2123 4567",
	"config":{"settings":{"enableFlightService":true,"enableTrainService":false,"isShowBill":true,"canCreateSubAgency":%t},"flight":{},"train":{}},
	"superUser":{"username":"%s","email":"admin@kowloon.example","password":"start-pass-1"}}`

func createSub(t *testing.T, srv *httptest.Server, token, username string, canCreate bool) int64 {
	t.Helper()
	resp, env := call(t, srv, "POST", "/base/v2/agencies", "en", fmt.Sprintf(kowloon, canCreate, username), bearer(token)...)
	if resp.StatusCode != 201 {
		t.Fatalf("create agency: %d %+v", resp.StatusCode, env)
	}
	var d struct{ ID int64 }
	_ = json.Unmarshal(env.Data, &d)
	return d.ID
}

func TestAgencyManagementAPI(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, demo meData) {
		id := createSub(t, srv, demo.Token, "kowloon-admin", false)
		kid := fmt.Sprint(id)

		_, env := call(t, srv, "GET", "/base/v2/agencies?keyword=kowloon", "en", "", bearer(demo.Token)...)
		var page struct {
			Items []struct {
				ID                    int64
				Code, Balance, Status string
			}
			Total int
		}
		_ = json.Unmarshal(env.Data, &page)
		if page.Total != 1 || page.Items[0].ID != id || page.Items[0].Balance != "0.00" || len(page.Items[0].Code) != 8 {
			t.Fatalf("list = %s", env.Data)
		}

		resp, env := call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/config", "en",
			`{"settings":{"settlementCurrency":"HKD","enableFlightService":true,"enableTrainService":false,"isShowBill":true,"canCreateSubAgency":false},"flight":{"markups":{"international":{"unit":"percent","value":"2.5","limit":"300"}}},"train":{}}`, bearer(demo.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(env.Message+string(env.Data), "settlement currency has changed") {
			t.Errorf("config with a new currency: %d %s", resp.StatusCode, env.Data)
		}
		// The agency's restrictions reach its users with their session.
		resp, _ = call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/config", "en",
			`{"settings":{"settlementCurrency":"HKD","enableFlightService":true,"enableTrainService":false,"isShowBill":true,"canCreateSubAgency":false,"disablePayment":true,"hidePnrBooking":true},"flight":{},"train":{}}`, bearer(demo.Token)...)
		kowloonAdmin := loginAs(t, srv, "kowloon-admin", "start-pass-1")
		_, env = call(t, srv, "GET", "/base/v2/me", "en", "", bearer(kowloonAdmin.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"restrictions":{"disablePayment":true,"showOnlyOwnOrders":false,"hidePnrBooking":true,"hideMainlandContent":false}`) {
			t.Errorf("restrictions in /me: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/config", "en", `{"settings":{"enableFlightService":true,"enableTrainService":false,"isShowBill":true,"canCreateSubAgency":false},"flight":{"maxResponseTime":900},"train":{}}`, bearer(demo.Token)...)
		if resp.StatusCode != 400 || !strings.Contains(string(env.Data), "1 to 60 seconds") {
			t.Errorf("bad config: %d %s", resp.StatusCode, env.Data)
		}

		// Money comes from the provider: a parent funds its sub-agencies out
		// of its own wallet (TestParentFundsSubAgencyFromItsWallet).
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		resp, env = call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/credit", "en", `{"creditLimit":"8000","creditPeriod":1,"creditPeriodUnit":"month"}`, bearer(provider.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"creditLimit":"8000.00"`) {
			t.Errorf("credit: %d %s", resp.StatusCode, env.Data)
		}

		topUp := `{"currencyReceived":"USD","amountReceived":"100.00","exchangeRate":"7.8","feePercent":"1","reference":"HSBC-9"}`
		resp, env = call(t, srv, "POST", "/base/v2/agencies/"+kid+"/balance", "en", topUp, bearer(provider.Token)...)
		if resp.StatusCode != 400 || !strings.Contains(string(env.Data), "Idempotency-Key") {
			t.Errorf("top-up without a key: %d %s", resp.StatusCode, env.Data)
		}
		key := append(bearer(provider.Token), "Idempotency-Key", "wire-1")
		resp, env = call(t, srv, "POST", "/base/v2/agencies/"+kid+"/balance", "en", topUp, key...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"credited":"772.20"`) {
			t.Fatalf("top-up: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "POST", "/base/v2/agencies/"+kid+"/balance", "en", topUp, key...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"replayed":true`) {
			t.Errorf("replayed top-up: %d %s", resp.StatusCode, env.Data)
		}
		resp, _ = call(t, srv, "POST", "/base/v2/agencies/"+kid+"/balance", "en", strings.Replace(topUp, "100.00", "200.00", 1), key...)
		if resp.StatusCode != 409 {
			t.Errorf("same key, other body: %d", resp.StatusCode)
		}

		resp, env = call(t, srv, "POST", "/base/v2/agencies/"+kid+"/apikey", "en", `{"name":"erp"}`, bearer(demo.Token)...)
		var k struct{ Key, Prefix string }
		_ = json.Unmarshal(env.Data, &k)
		if resp.StatusCode != 201 || !strings.HasPrefix(k.Key, k.Prefix) {
			t.Fatalf("api key: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "GET", "/base/v2/wallet", "en", "", "X-Api-Key", k.Key)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"balance":{"amount":"772.20","currency":"HKD"}`) ||
			!strings.Contains(string(env.Data), `"available":{"amount":"8772.20","currency":"HKD"}`) {
			t.Errorf("wallet by API key: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "GET", "/base/v2/wallet/entries?type=top-up", "en", "", "X-Api-Key", k.Key)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"paymentReference":"HSBC-9"`) || !strings.Contains(string(env.Data), `"total":1`) {
			t.Errorf("entries: %d %s", resp.StatusCode, env.Data)
		}
		_, env = call(t, srv, "GET", "/base/v2/agencies/"+kid, "en", "", bearer(demo.Token)...)
		if !strings.Contains(string(env.Data), `"prefix":"`+k.Prefix) || strings.Contains(string(env.Data), k.Key) {
			t.Errorf("detail must list the key's prefix, never the key: %s", env.Data)
		}

		_, env = call(t, srv, "GET", "/base/v2/agencies/"+kid+"/apikeys", "en", "", bearer(demo.Token)...)
		var keys []struct {
			ID     int64
			Prefix string
		}
		_ = json.Unmarshal(env.Data, &keys)
		if len(keys) != 1 || keys[0].Prefix != k.Prefix || strings.Contains(string(env.Data), k.Key) {
			t.Errorf("key list: %s", env.Data)
		}
		keyPath := fmt.Sprint("/base/v2/agencies/", kid, "/apikeys/", keys[0].ID)
		if resp, _ := call(t, srv, "DELETE", keyPath, "en", "", bearer(loginAs(t, srv, "bluesky-super", "demo-pass-1").Token)...); resp.StatusCode != 403 && resp.StatusCode != 404 {
			t.Errorf("a stranger revokes the key: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "DELETE", keyPath, "en", "", bearer(demo.Token)...); resp.StatusCode != 200 {
			t.Errorf("revoke: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "GET", "/base/v2/wallet", "en", "", "X-Api-Key", k.Key); resp.StatusCode != 401 {
			t.Errorf("a revoked key still works: %d", resp.StatusCode)
		}

		resp, env = call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/status", "en", `{"status":"blocked"}`, bearer(demo.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"status":"blocked"`) {
			t.Errorf("block: %d %s", resp.StatusCode, env.Data)
		}
		if resp, env := call(t, srv, "POST", "/base/v2/login", "en", `{"username":"kowloon-admin","password":"start-pass-1"}`); resp.StatusCode != 403 {
			t.Errorf("a blocked agency's user logs in: %d %+v", resp.StatusCode, env)
		}
		if resp, _ := call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/status", "en", `{"status":"asleep"}`, bearer(demo.Token)...); resp.StatusCode != 400 {
			t.Errorf("unknown status: %d", resp.StatusCode)
		}
		call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/status", "en", `{"status":"active"}`, bearer(demo.Token)...)
		loginAs(t, srv, "kowloon-admin", "start-pass-1")

		resp, _ = call(t, srv, "DELETE", "/base/v2/agencies/"+kid, "en", "", bearer(demo.Token)...)
		if resp.StatusCode != 409 {
			t.Errorf("delete with history: %d", resp.StatusCode)
		}
		empty := createSub(t, srv, demo.Token, "empty-admin", false)
		if resp, _ := call(t, srv, "DELETE", fmt.Sprint("/base/v2/agencies/", empty), "en", "", bearer(demo.Token)...); resp.StatusCode != 200 {
			t.Errorf("delete an empty agency: %d", resp.StatusCode)
		}
	})
}

// TestAgencyEndpointsFromOutside calls every agency endpoint on Demo Sub
// Travel as a stranger agency, as the sub-agency itself and as a sibling
// sub-agency that may manage agencies of its own: nothing is seen and nothing
// changes.
func TestAgencyEndpointsFromOutside(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, demo meData) {
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		createSub(t, srv, demo.Token, "sibling-admin", true)
		sibling := loginAs(t, srv, "sibling-admin", "start-pass-1")
		stranger := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		operator := loginAs(t, srv, "demo-operator", "demo-pass-1")
		target := fmt.Sprint("/base/v2/agencies/", sub.Company.ID)

		endpoints := []struct{ method, path, body string }{
			{"GET", target, ""},
			{"PUT", target, `{"name":"Taken","contactName":"x","contactEmail":"x@x.example","contactPhone":"1"}`},
			{"DELETE", target, ""},
			{"PUT", target + "/config", `{"settings":{"disablePayment":true,"enableFlightService":true,"enableTrainService":false,"isShowBill":true,"canCreateSubAgency":false},"flight":{},"train":{}}`},
			{"PUT", target + "/credit", `{"creditLimit":"99999"}`},
			{"POST", target + "/balance", `{"amountReceived":"1000","exchangeRate":"1","reference":"x"}`},
			{"POST", target + "/apikey", `{}`},
			{"POST", target + "/superuser/password", `{"password":"taken-pass"}`},
			{"GET", target + "/apikeys", ""},
			{"PUT", target + "/status", `{"status":"blocked"}`},
		}
		for _, who := range []struct {
			name  string
			token string
		}{{"stranger", stranger.Token}, {"the sub-agency itself", sub.Token}, {"sibling", sibling.Token}, {"operator", operator.Token}} {
			for _, e := range endpoints {
				resp, env := call(t, srv, e.method, e.path, "en", e.body, append(bearer(who.token), "Idempotency-Key", "k-"+who.name)...)
				if resp.StatusCode != 404 && resp.StatusCode != 403 {
					t.Errorf("%s %s %s: %d %+v", who.name, e.method, e.path, resp.StatusCode, env)
				}
			}
			_, env := call(t, srv, "GET", "/base/v2/agencies", "en", "", bearer(who.token)...)
			if strings.Contains(string(env.Data), "Demo Sub Travel") {
				t.Errorf("%s lists Demo Sub Travel", who.name)
			}
		}
		// Nothing changed: the parent still sees the agency as it was.
		_, env := call(t, srv, "GET", target, "en", "", bearer(demo.Token)...)
		for _, want := range []string{`"name":"Demo Sub Travel"`, `"creditLimit":"0.00"`, `"balance":"0.00"`, `"apiKeys":[]`, `"disablePayment":false`} {
			if !strings.Contains(string(env.Data), want) {
				t.Errorf("after outside calls the agency lacks %s: %s", want, env.Data)
			}
		}
		loginAs(t, srv, "sub-super", "demo-pass-1")
	})
}
