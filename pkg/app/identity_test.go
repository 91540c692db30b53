package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
)

// seeded starts the app on each engine with the demo agencies and users.
func seeded(t *testing.T, fn func(t *testing.T, a *app.App, srv *httptest.Server)) {
	onEachEngine(t, newSeededApp, nil, fn)
}

// asOperator runs test in parallel on each seeded engine with Demo
// Travel's operator logged in.
func asOperator(t *testing.T, test func(t *testing.T, a *app.App, srv *httptest.Server, op meData)) {
	t.Helper()
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		test(t, a, srv, loginAs(t, srv, "demo-operator", "demo-pass-1"))
	})
}

// asSuperUser runs test in parallel on each seeded engine with Demo
// Travel's SuperUser logged in.
func asSuperUser(t *testing.T, test func(t *testing.T, a *app.App, srv *httptest.Server, super meData)) {
	t.Helper()
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		test(t, a, srv, loginAs(t, srv, "demo-super", "demo-pass-1"))
	})
}

type meData struct {
	Token    string `json:"token"`
	UserInfo struct {
		ID       int64    `json:"id"`
		Username string   `json:"username"`
		Role     []string `json:"role"`
		AgencyID int64    `json:"agencyId"`
		Config   struct {
			DateFormat    string `json:"dateFormat"`
			DefaultRegion string `json:"defaultRegion"`
		} `json:"config"`
	} `json:"userInfo"`
	Company struct {
		ID         int64  `json:"id"`
		Name       string `json:"name"`
		ProxyLevel int    `json:"proxyLevel"`
		Config     struct {
			CommonConfig auth.CommonConfig `json:"commonConfig"`
		} `json:"config"`
		Branding struct {
			Theme                  string `json:"theme"`
			HideSingleLoginMessage bool   `json:"hideSingleLoginMessage"`
		} `json:"branding"`
	} `json:"company"`
	Permissions []string `json:"permissions"`
	Iframe      bool     `json:"iframe"`
}

// loginAs logs a demo user in through the API and returns the session.
func loginAs(t testing.TB, srv *httptest.Server, username, password string) meData {
	t.Helper()
	return okData[meData](t, srv, "login "+username, "POST", "/base/v2/login", fmt.Sprintf(`{"username":%q,"password":%q}`, username, password))
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

func TestLoginMeLogout(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, me meData) {
		if me.Token == "" || me.UserInfo.Username != "demo-super" || me.Company.Name != "Demo Travel" || me.Company.ProxyLevel != 1 ||
			!me.Company.Config.CommonConfig.EnableFlightService || me.UserInfo.Config.DefaultRegion != "86" || me.UserInfo.Config.DateFormat != "yyyy-MM-dd" {
			t.Fatalf("login answer = %+v", me)
		}
		resp, env := call(t, srv, "GET", "/base/v2/me", "en", "", bearer(me.Token)...)
		var got meData
		_ = json.Unmarshal(env.Data, &got)
		if resp.StatusCode != 200 || got.UserInfo.ID != me.UserInfo.ID || got.Token != "" {
			t.Fatalf("GET /me = %d %+v", resp.StatusCode, env)
		}

		resp, _ = call(t, srv, "DELETE", "/base/v2/me", "en", "", bearer(me.Token)...)
		if resp.StatusCode != 200 {
			t.Fatalf("logout: %d", resp.StatusCode)
		}
		resp, env = call(t, srv, "GET", "/base/v2/me", "en", "", bearer(me.Token)...)
		if resp.StatusCode != 401 || env.Code != 200006 {
			t.Errorf("after logout: %d %+v, want 401 200006", resp.StatusCode, env)
		}
		resp, env = call(t, srv, "GET", "/base/v2/me", "zh-cn", "")
		if resp.StatusCode != 401 || env.Code != 200006 || env.Message != "请登录" {
			t.Errorf("no token: %d %+v", resp.StatusCode, env)
		}
	})
}

func TestLoginErrorsAreTranslated(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		tests := []struct {
			lang, body string
			status     int
			code       int
			message    string
		}{
			{"en", `{"username":"demo-super","password":"nope-nope"}`, 401, 200001, "Invalid username or password"},
			{"zh-cn", `{"username":"demo-super","password":"nope-nope"}`, 401, 200001, "用户名或密码错误"},
			{"zh-tw", `{"username":"ghost-user","password":"nope-nope"}`, 401, 200001, "使用者名稱或密碼錯誤"},
			{"en", `{"username":"a b","password":"x"}`, 400, 100001, ""},
			{"en", `{"username":`, 400, 100001, ""},
		}
		for _, tt := range tests {
			resp, env := call(t, srv, "POST", "/base/v2/login", tt.lang, tt.body)
			if resp.StatusCode != tt.status || env.Code != tt.code || (tt.message != "" && env.Message != tt.message) {
				t.Errorf("%s %s: %d %+v", tt.lang, tt.body, resp.StatusCode, env)
			}
		}
		resp, env := call(t, srv, "POST", "/base/v2/login", "en", `{"username":"a b","password":""}`)
		if !strings.Contains(string(env.Data), "Username Format Error") || resp.StatusCode != 400 {
			t.Errorf("bad username: %s", env.Data)
		}
	})
}

func TestSingleLoginAPI(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ts := time.Now().Unix()
		body := func(code string, uid int64, secret string) string {
			return fmt.Sprintf(`{"code":%q,"timestamp":%d,"userid":%d,"signature":%q}`, code, ts, uid, auth.SSOSignature(secret, code, ts, uid))
		}
		resp, env := call(t, srv, "POST", "/base/v2/single-login", "en", body("erp-1", op.UserInfo.ID, "demo-sso-secret"))
		var me meData
		_ = json.Unmarshal(env.Data, &me)
		if resp.StatusCode != 200 || me.Token == "" || !me.Iframe || me.UserInfo.Username != "demo-operator" {
			t.Fatalf("single login: %d %+v", resp.StatusCode, env)
		}
		resp, env = call(t, srv, "POST", "/base/v2/single-login", "en", body("erp-1", op.UserInfo.ID, "demo-sso-secret"))
		if resp.StatusCode != 401 || env.Message != "The single login link has already been used." {
			t.Errorf("replayed code: %d %+v", resp.StatusCode, env)
		}
		// Blue Sky's secret cannot log into Demo Travel's user.
		resp, _ = call(t, srv, "POST", "/base/v2/single-login", "en", body("erp-2", op.UserInfo.ID, "bluesky-sso-secret"))
		if resp.StatusCode != 401 {
			t.Errorf("another agency's secret: %d", resp.StatusCode)
		}
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		if blue.Company.ID != 222 || blue.Company.Branding.Theme != "sky" || !blue.Company.Branding.HideSingleLoginMessage {
			t.Errorf("agency 222 branding = %+v", blue.Company)
		}
	})
}

func TestSessionsAndPasswordAPI(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		first := loginAs(t, srv, "demo-finance", "demo-pass-1")
		second := loginAs(t, srv, "demo-finance", "demo-pass-1")
		other := loginAs(t, srv, "bluesky-super", "demo-pass-1")

		_, env := call(t, srv, "GET", "/base/v2/me/sessions", "en", "", bearer(first.Token)...)
		var sessions []auth.SessionInfo
		_ = json.Unmarshal(env.Data, &sessions)
		if len(sessions) != 2 {
			t.Fatalf("sessions = %s", env.Data)
		}
		var secondID int64
		for _, s := range sessions {
			if !s.Current {
				secondID = s.ID
			}
		}
		// Another agency's user cannot end this user's session.
		resp, env := call(t, srv, "DELETE", fmt.Sprintf("/base/v2/me/sessions/%d", secondID), "en", "", bearer(other.Token)...)
		if resp.StatusCode != 404 || env.Code != 100004 {
			t.Errorf("ending another user's session: %d %+v", resp.StatusCode, env)
		}
		if resp, _ := call(t, srv, "GET", "/base/v2/me", "en", "", bearer(second.Token)...); resp.StatusCode != 200 {
			t.Fatal("the session ended anyway")
		}
		resp, _ = call(t, srv, "DELETE", fmt.Sprintf("/base/v2/me/sessions/%d", secondID), "en", "", bearer(first.Token)...)
		if resp.StatusCode != 200 {
			t.Fatalf("end own session: %d", resp.StatusCode)
		}
		if resp, _ := call(t, srv, "GET", "/base/v2/me", "en", "", bearer(second.Token)...); resp.StatusCode != 401 {
			t.Errorf("ended session still works: %d", resp.StatusCode)
		}

		resp, env = call(t, srv, "PUT", "/base/v2/me/password", "en", `{"oldPassword":"demo-pass-1","password":"n3w-pass","confirmPassword":"other"}`, bearer(first.Token)...)
		if resp.StatusCode != 400 || !strings.Contains(string(env.Data), "The two passwords do not match") {
			t.Errorf("mismatched confirmation: %d %s", resp.StatusCode, env.Data)
		}
		resp, _ = call(t, srv, "PUT", "/base/v2/me/password", "en", `{"oldPassword":"demo-pass-1","password":"n3w-pass","confirmPassword":"n3w-pass"}`, bearer(first.Token)...)
		if resp.StatusCode != 200 {
			t.Fatalf("change password: %d", resp.StatusCode)
		}
		loginAs(t, srv, "demo-finance", "n3w-pass")
	})
}

func TestResetSuperAdminPasswordAPI(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		parent := loginAs(t, srv, "demo-super", "demo-pass-1")
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		operator := loginAs(t, srv, "demo-operator", "demo-pass-1")
		path := fmt.Sprintf("/base/v2/agencies/%d/superuser/password", sub.Company.ID)
		body := `{"password":"reset-pass-9"}`

		if resp, env := call(t, srv, "POST", path, "en", body, bearer(blue.Token)...); resp.StatusCode != 404 {
			t.Errorf("another agency resets the sub-agency: %d %+v", resp.StatusCode, env)
		}
		if resp, env := call(t, srv, "POST", path, "en", body, bearer(operator.Token)...); resp.StatusCode != 403 || env.Code != 200003 {
			t.Errorf("an operator resets: %d %+v", resp.StatusCode, env)
		}
		if resp, _ := call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/%d/superuser/password", parent.Company.ID), "en", body, bearer(sub.Token)...); resp.StatusCode != 404 {
			t.Errorf("a sub-agency resets its parent: %d", resp.StatusCode)
		}
		loginAs(t, srv, "sub-super", "demo-pass-1") // unchanged so far
		if resp, env := call(t, srv, "POST", path, "en", body, bearer(parent.Token)...); resp.StatusCode != 200 {
			t.Fatalf("parent resets: %d %+v", resp.StatusCode, env)
		}
		loginAs(t, srv, "sub-super", "reset-pass-9")
		if resp, _ := call(t, srv, "POST", path, "en", `{"password":"reset-pass-8"}`, bearer(provider.Token)...); resp.StatusCode != 200 {
			t.Errorf("provider resets: %d", resp.StatusCode)
		}
	})
}

func TestAPIKeyAuthentication(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, me meData) {
		k, err := a.Auth.CreateAPIKey(context.Background(), me.Company.ID, "erp", []string{auth.RoleSuperUser}, me.UserInfo.ID)
		if err != nil {
			t.Fatal(err)
		}
		// An API key acts for the agency but is not a user: /me is for users.
		resp, env := call(t, srv, "GET", "/base/v2/me", "en", "", "X-Api-Key", k.Key)
		if resp.StatusCode != 403 || env.Code != 200003 {
			t.Errorf("API key on /me: %d %+v", resp.StatusCode, env)
		}
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		resp, _ = call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/%d/superuser/password", sub.Company.ID), "en", `{"password":"by-api-key"}`, "X-Api-Key", k.Key)
		if resp.StatusCode != 200 {
			t.Errorf("API key with SuperUser role on an agency route: %d", resp.StatusCode)
		}
		if err := a.Auth.RevokeAPIKey(context.Background(), me.Company.ID, k.ID); err != nil {
			t.Fatal(err)
		}
		resp, env = call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/%d/superuser/password", sub.Company.ID), "en", `{"password":"by-api-key"}`, "X-Api-Key", k.Key)
		if resp.StatusCode != 401 || env.Code != 200006 {
			t.Errorf("revoked key: %d %+v", resp.StatusCode, env)
		}
		resp, _ = call(t, srv, "GET", "/base/v2/me", "en", "", "Authorization", "Basic abc")
		if resp.StatusCode != 401 {
			t.Errorf("basic auth: %d", resp.StatusCode)
		}
	})
}

func TestUserLogRecordsIdentityEvents(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		call(t, srv, "POST", "/base/v2/login", "en", `{"username":"demo-operator","password":"wrong-pass"}`)
		me := loginAs(t, srv, "demo-operator", "demo-pass-1")
		call(t, srv, "DELETE", "/base/v2/me", "en", "", bearer(me.Token)...)
		var actions []string
		if err := a.DB.Select(&actions, a.DB.Rebind(`SELECT action FROM user_logs WHERE agency_id = ? AND username = ? ORDER BY id`), me.Company.ID, "demo-operator"); err != nil {
			t.Fatal(err)
		}
		if strings.Join(actions, ",") != "login.failed,login,logout" {
			t.Errorf("user log = %v", actions)
		}
	})
}
