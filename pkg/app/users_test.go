package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
)

type userPage struct {
	Items    []auth.ManagedUser `json:"items"`
	Total    int                `json:"total"`
	Page     int                `json:"page"`
	PageSize int                `json:"pageSize"`
}

type logJSON struct {
	AgencyID int64  `json:"agencyId"`
	Username string `json:"username"`
	Action   string `json:"action"`
	Target   string `json:"target"`
}

type logPage struct {
	Items    []logJSON `json:"items"`
	Total    int       `json:"total"`
	Page     int       `json:"page"`
	PageSize int       `json:"pageSize"`
}

type fieldsJSON struct {
	Fields map[string]string `json:"fields"`
}

// userSessions are the demo logins the user-management tests act as.
type userSessions struct {
	super, operator, blue meData
}

func loginUsers(t *testing.T, srv *httptest.Server) userSessions {
	return userSessions{
		super:    loginAs(t, srv, "demo-super", "demo-pass-1"),
		operator: loginAs(t, srv, "demo-operator", "demo-pass-1"),
		blue:     loginAs(t, srv, "bluesky-super", "demo-pass-1"),
	}
}

// withUsers runs test in parallel on each seeded engine, with Demo
// Travel's SuperUser and operator and Blue Sky's SuperUser logged in.
func withUsers(t *testing.T, test func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions)) {
	t.Helper()
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		test(t, a, srv, loginUsers(t, srv))
	})
}

func listUsers(t *testing.T, srv *httptest.Server, token, query string) userPage {
	t.Helper()
	return okData[userPage](t, srv, "list users"+query, "GET", "/base/v2/users"+query, "", bearer(token)...)
}

func usernames(p userPage) []string {
	var out []string
	for _, u := range p.Items {
		out = append(out, u.Username)
	}
	return out
}

// userRow reads a user straight from the database.
func userRow(t *testing.T, a *app.App, username string) (id int64, nickname, status, roles string) {
	t.Helper()
	var row struct {
		ID       int64  `db:"id"`
		Nickname string `db:"nickname"`
		Status   string `db:"status"`
		Roles    string `db:"roles"`
	}
	if err := a.DB.GetContext(context.Background(), &row, a.DB.Rebind(`SELECT id, nickname, status, roles FROM users WHERE username = ?`), username); err != nil {
		t.Fatalf("user %s: %v", username, err)
	}
	return row.ID, row.Nickname, row.Status, row.Roles
}

func countRows(t *testing.T, a *app.App, query string, args ...any) int {
	t.Helper()
	var n int
	if err := a.DB.GetContext(context.Background(), &n, a.DB.Rebind(query), args...); err != nil {
		t.Fatal(err)
	}
	return n
}

// wantBadFilter asks for a list at path with a filter that is not valid:
// the answer is 400 with msg on field.
func wantBadFilter(t *testing.T, srv *httptest.Server, token, path, field, msg string) {
	t.Helper()
	resp, env := call(t, srv, "GET", path, "en", "", bearer(token)...)
	if resp.StatusCode != 400 {
		t.Errorf("%s: %d, want 400", path, resp.StatusCode)
	}
	wantFieldMessage(t, env, field, msg)
}

func wantFieldMessage(t *testing.T, env envelope, field, msg string) {
	t.Helper()
	if env.Code != 100001 {
		t.Fatalf("code %d (%s), want 100001", env.Code, env.Message)
	}
	var f fieldsJSON
	if err := json.Unmarshal(env.Data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Fields[field] != msg {
		t.Errorf("fields.%s = %q, want %q (all: %v)", field, f.Fields[field], msg, f.Fields)
	}
}

// TestUserRoutesAccess: every user-management route needs a login (401) and
// a SuperUser (403 200003 for an operator).
func TestUserRoutesAccess(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		finance, _, _, _ := userRow(t, a, "demo-finance")
		routes := []struct{ method, path, body string }{
			{"GET", "/base/v2/users", ""},
			{"POST", "/base/v2/users", `{"username":"x-user","email":"x@demo.example","role":["operator"],"password":"pass-word-1"}`},
			{"PUT", fmt.Sprintf("/base/v2/users/%d", finance), `{"nickname":"x"}`},
			{"POST", fmt.Sprintf("/base/v2/users/%d/deactivate", finance), ""},
			{"GET", "/base/v2/user-logs", ""},
		}
		for _, r := range routes {
			t.Run(r.method+" "+r.path, func(t *testing.T) {
				resp, env := call(t, srv, r.method, r.path, "en", r.body)
				if resp.StatusCode != 401 || env.Code == 0 {
					t.Errorf("no token: %d code %d", resp.StatusCode, env.Code)
				}
				resp, env = call(t, srv, r.method, r.path, "en", r.body, bearer(s.operator.Token)...)
				if resp.StatusCode != 403 || env.Code != 200003 {
					t.Errorf("operator: %d code %d, want 403 200003", resp.StatusCode, env.Code)
				}
			})
		}
		if _, nick, status, _ := userRow(t, a, "demo-finance"); nick != "Demo Finance" || status != "active" {
			t.Errorf("refused calls changed demo-finance: %q %q", nick, status)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM users WHERE username = ?`, "x-user"); n != 0 {
			t.Error("refused create stored a user")
		}
	})
}

func TestListUsersAPI(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {

		p := listUsers(t, srv, s.super.Token, "")
		if got := usernames(p); !slices.Equal(got, []string{"demo-super", "demo-operator", "demo-finance"}) || p.Total != 3 || p.Page != 1 || p.PageSize != 20 {
			t.Fatalf("demo list = %v total %d page %d size %d", got, p.Total, p.Page, p.PageSize)
		}
		op := p.Items[1]
		if op.Email != "operator@demo-travel.example" || op.Nickname != "Demo Operator" || op.Mobile != "13800138000" || op.AreaCode != "86" ||
			!slices.Equal(op.Role, []string{"operator"}) || op.Status != "active" || op.CreatedAt.IsZero() || op.ID == 0 {
			t.Errorf("operator item = %+v", op)
		}
		var raw struct {
			Data map[string]json.RawMessage `json:"data"`
		}
		_, env := call(t, srv, "GET", "/base/v2/users", "en", "", bearer(s.super.Token)...)
		_ = json.Unmarshal([]byte(`{"data":`+string(env.Data)+`}`), &raw)
		for _, k := range []string{"items", "total", "page", "pageSize"} {
			if _, ok := raw.Data[k]; !ok {
				t.Errorf("paging shape lacks %s", k)
			}
		}

		if got := usernames(listUsers(t, srv, s.super.Token, "?keyword=FIN")); !slices.Equal(got, []string{"demo-finance"}) {
			t.Errorf("keyword list = %v", got)
		}
		if got := usernames(listUsers(t, srv, s.super.Token, "?role=SuperUser")); !slices.Equal(got, []string{"demo-super"}) {
			t.Errorf("role list = %v", got)
		}
		p = listUsers(t, srv, s.super.Token, "?page=2&pageSize=2")
		if got := usernames(p); !slices.Equal(got, []string{"demo-finance"}) || p.Total != 3 || p.Page != 2 || p.PageSize != 2 {
			t.Errorf("page 2 = %v %+v", got, p)
		}
		if p = listUsers(t, srv, s.super.Token, "?pageSize=1000"); p.PageSize != 100 {
			t.Errorf("pageSize capped at %d, want 100", p.PageSize)
		}
		wantBadFilter(t, srv, s.super.Token, "/base/v2/users?status=gone", "status", "Please choose a status: active, inactive or testing")

		// Another agency never sees Demo Travel's users, whatever it asks.
		for _, q := range []string{"", "?keyword=demo", "?role=operator", "?pageSize=100"} {
			p := listUsers(t, srv, s.blue.Token, q)
			for _, u := range p.Items {
				if u.Username != "bluesky-super" {
					t.Errorf("bluesky list%s shows %s", q, u.Username)
				}
			}
		}
		if p := listUsers(t, srv, s.blue.Token, ""); p.Total != 1 {
			t.Errorf("bluesky total = %d, want 1", p.Total)
		}
	})
}

func TestCreateUserAPI(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		before := countRows(t, a, `SELECT COUNT(*) FROM users`)
		invalid := []struct {
			name, body, field, msg string
		}{
			{"missing role", `{"username":"new-agent","email":"new@demo.example","password":"pass-word-1"}`, "role", "Please assign a role for this user"},
			{"empty role", `{"username":"new-agent","email":"new@demo.example","role":[],"password":"pass-word-1"}`, "role", "Please assign a role for this user"},
			{"bad email", `{"username":"new-agent","email":"new@","role":["operator"],"password":"pass-word-1"}`, "email", "Email format error"},
			{"duplicate username", `{"username":"Demo-Operator","email":"new@demo.example","role":["operator"],"password":"pass-word-1"}`, "username", "This username is already taken"},
			{"another agency's username", `{"username":"bluesky-super","email":"new@demo.example","role":["operator"],"password":"pass-word-1"}`, "username", "This username is already taken"},
			{"short password", `{"username":"new-agent","email":"new@demo.example","role":["operator"],"password":"123"}`, "password", "The password must be 6 to 15 characters"},
			{"common password", `{"username":"new-agent","email":"new@demo.example","role":["operator"],"password":"Password1"}`, "password", "This password is one of the most common ones. Please choose another."},
		}
		for _, tt := range invalid {
			t.Run(tt.name, func(t *testing.T) {
				resp, env := call(t, srv, "POST", "/base/v2/users", "en", tt.body, bearer(s.super.Token)...)
				if resp.StatusCode != 400 {
					t.Errorf("status %d, want 400", resp.StatusCode)
				}
				wantFieldMessage(t, env, tt.field, tt.msg)
			})
		}
		_, env := call(t, srv, "POST", "/base/v2/users", "zh-cn", `{"username":"new-agent","email":"new@demo.example","password":"pass-word-1"}`, bearer(s.super.Token)...)
		wantFieldMessage(t, env, "role", "请为该用户分配角色")
		if n := countRows(t, a, `SELECT COUNT(*) FROM users`); n != before {
			t.Fatalf("invalid creates stored users: %d → %d", before, n)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ?`, "user.create"); n != 0 {
			t.Fatalf("invalid creates logged %d user.create entries", n)
		}

		resp, env := call(t, srv, "POST", "/base/v2/users", "en",
			`{"username":"New-Agent","email":"new@demo.example","nickname":"New Agent","mobile":"13700137000","areaCode":"852","role":["operator","finance"],"status":"testing","password":"pass-word-1"}`,
			bearer(s.super.Token)...)
		if resp.StatusCode != 201 || env.Code != 0 {
			t.Fatalf("create: %d %+v", resp.StatusCode, env)
		}
		var u auth.ManagedUser
		if err := json.Unmarshal(env.Data, &u); err != nil {
			t.Fatal(err)
		}
		if u.ID == 0 || u.Username != "new-agent" || u.AreaCode != "852" || u.Status != "testing" || len(u.Role) != 2 {
			t.Errorf("created %+v", u)
		}
		var agencyID int64
		if err := a.DB.GetContext(context.Background(), &agencyID, a.DB.Rebind(`SELECT agency_id FROM users WHERE id = ?`), u.ID); err != nil || agencyID != s.super.Company.ID {
			t.Errorf("new user in agency %d, want %d (%v)", agencyID, s.super.Company.ID, err)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ? AND agency_id = ? AND username = ?`, "user.create", s.super.Company.ID, "demo-super"); n != 1 {
			t.Errorf("user.create entries = %d, want 1", n)
		}
		loginAs(t, srv, "new-agent", "pass-word-1")
		if !slices.Contains(usernames(listUsers(t, srv, s.super.Token, "")), "new-agent") {
			t.Error("new user not listed")
		}
		if slices.Contains(usernames(listUsers(t, srv, s.blue.Token, "")), "new-agent") {
			t.Error("new user listed to another agency")
		}

		// A user created by Blue Sky lands in Blue Sky, never in Demo Travel.
		resp, env = call(t, srv, "POST", "/base/v2/users", "en", `{"username":"blue-agent","email":"b@blue.example","role":["operator"],"password":"pass-word-1"}`, bearer(s.blue.Token)...)
		if resp.StatusCode != 201 {
			t.Fatalf("bluesky create: %d %+v", resp.StatusCode, env)
		}
		if slices.Contains(usernames(listUsers(t, srv, s.super.Token, "")), "blue-agent") {
			t.Error("Blue Sky's new user listed in Demo Travel")
		}
	})
}

func TestUpdateUserAPI(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		opID, _, _, _ := userRow(t, a, "demo-operator")
		path := fmt.Sprintf("/base/v2/users/%d", opID)

		// Another agency's SuperUser: 404, and the row is unchanged.
		resp, env := call(t, srv, "PUT", path, "en", `{"nickname":"hijacked","role":["SuperUser"],"status":"inactive"}`, bearer(s.blue.Token)...)
		if resp.StatusCode != 404 || env.Code != 100004 {
			t.Fatalf("bluesky PUT: %d code %d, want 404 100004", resp.StatusCode, env.Code)
		}
		if _, nick, status, roles := userRow(t, a, "demo-operator"); nick != "Demo Operator" || status != "active" || roles != `["operator"]` {
			t.Fatalf("bluesky PUT changed the row: %q %q %s", nick, status, roles)
		}
		// An unknown id answers the same.
		resp, _ = call(t, srv, "PUT", "/base/v2/users/999999", "en", `{"nickname":"x"}`, bearer(s.blue.Token)...)
		if resp.StatusCode != 404 {
			t.Errorf("unknown id: %d", resp.StatusCode)
		}

		resp, env = call(t, srv, "PUT", path, "en", `{"email":"changed@demo.example","nickname":"x"}`, bearer(s.super.Token)...)
		if resp.StatusCode != 400 {
			t.Errorf("email change: %d", resp.StatusCode)
		}
		wantFieldMessage(t, env, "email", "The email cannot be changed")
		_, env = call(t, srv, "PUT", path, "en", `{"role":[]}`, bearer(s.super.Token)...)
		wantFieldMessage(t, env, "role", "Please assign a role for this user")
		_, env = call(t, srv, "PUT", fmt.Sprintf("/base/v2/users/%d", s.super.UserInfo.ID), "en", `{"role":["operator"]}`, bearer(s.super.Token)...)
		wantFieldMessage(t, env, "role", "You cannot remove your own SuperUser role")
		_, env = call(t, srv, "PUT", fmt.Sprintf("/base/v2/users/%d", s.super.UserInfo.ID), "en", `{"status":"inactive"}`, bearer(s.super.Token)...)
		wantFieldMessage(t, env, "status", "You cannot deactivate your own account")
		if _, nick, _, _ := userRow(t, a, "demo-operator"); nick != "Demo Operator" {
			t.Fatalf("refused PUT changed the nickname to %q", nick)
		}

		resp, env = call(t, srv, "PUT", path, "en",
			`{"email":"operator@demo-travel.example","nickname":"Olga","mobile":"13900139000","areaCode":"852","role":["operator","finance"]}`, bearer(s.super.Token)...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("update: %d %+v", resp.StatusCode, env)
		}
		var u auth.ManagedUser
		_ = json.Unmarshal(env.Data, &u)
		if u.Nickname != "Olga" || u.Mobile != "13900139000" || u.AreaCode != "852" || len(u.Role) != 2 || u.Email != "operator@demo-travel.example" {
			t.Errorf("updated %+v", u)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ? AND agency_id = ?`, "user.update", s.super.Company.ID); n != 1 {
			t.Errorf("user.update entries = %d, want 1", n)
		}
		// The new role applies to the operator's next request.
		resp, _ = call(t, srv, "GET", "/base/v2/users", "en", "", bearer(s.operator.Token)...)
		if resp.StatusCode != 403 {
			t.Errorf("operator (now operator+finance) listing users: %d, want 403", resp.StatusCode)
		}
	})
}

func TestDeactivateUserAPI(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		opID, _, _, _ := userRow(t, a, "demo-operator")
		path := fmt.Sprintf("/base/v2/users/%d/deactivate", opID)

		resp, env := call(t, srv, "POST", path, "en", "", bearer(s.blue.Token)...)
		if resp.StatusCode != 404 || env.Code != 100004 {
			t.Fatalf("bluesky deactivate: %d code %d, want 404 100004", resp.StatusCode, env.Code)
		}
		if _, _, status, _ := userRow(t, a, "demo-operator"); status != "active" {
			t.Fatalf("bluesky deactivated Demo Travel's operator: %s", status)
		}
		if resp, _ := call(t, srv, "GET", "/base/v2/me", "en", "", bearer(s.operator.Token)...); resp.StatusCode != 200 {
			t.Fatalf("operator's session ended by a refused call: %d", resp.StatusCode)
		}

		resp, env = call(t, srv, "POST", fmt.Sprintf("/base/v2/users/%d/deactivate", s.super.UserInfo.ID), "en", "", bearer(s.super.Token)...)
		if resp.StatusCode != 400 {
			t.Errorf("self deactivate: %d", resp.StatusCode)
		}
		wantFieldMessage(t, env, "status", "You cannot deactivate your own account")

		resp, env = call(t, srv, "POST", path, "en", "", bearer(s.super.Token)...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("deactivate: %d %+v", resp.StatusCode, env)
		}
		var u auth.ManagedUser
		_ = json.Unmarshal(env.Data, &u)
		if u.Status != "inactive" || u.ID != opID {
			t.Errorf("deactivated %+v", u)
		}
		resp, env = call(t, srv, "GET", "/base/v2/me", "en", "", bearer(s.operator.Token)...)
		if resp.StatusCode != 401 || env.Code != 200006 {
			t.Errorf("deactivated user's session: %d code %d, want 401 200006", resp.StatusCode, env.Code)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at IS NULL`, opID); n != 0 {
			t.Errorf("%d sessions still open", n)
		}
		resp, _ = call(t, srv, "POST", "/base/v2/login", "en", `{"username":"demo-operator","password":"demo-pass-1"}`)
		if resp.StatusCode != 401 {
			t.Errorf("deactivated user logs in: %d", resp.StatusCode)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ? AND agency_id = ?`, "user.deactivate", s.super.Company.ID); n != 1 {
			t.Errorf("user.deactivate entries = %d, want 1", n)
		}
	})
}

func TestUserLogsAPI(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		demoID, blueID := s.super.Company.ID, s.blue.Company.ID
		logs := func(token, query string) logPage {
			t.Helper()
			return okData[logPage](t, srv, "user-logs"+query, "GET", "/base/v2/user-logs"+query, "", bearer(token)...)
		}

		p := logs(s.super.Token, "")
		if p.Total < 2 || p.Page != 1 || p.PageSize != 20 {
			t.Fatalf("demo log: %+v", p)
		}
		for _, e := range p.Items {
			if e.AgencyID != demoID {
				t.Errorf("demo log shows agency %d's %s by %s", e.AgencyID, e.Action, e.Username)
			}
		}
		p = logs(s.super.Token, "?username=demo-operator&action=login")
		if p.Total != 1 || len(p.Items) != 1 || p.Items[0].Username != "demo-operator" || p.Items[0].Action != "login" {
			t.Errorf("filtered log: %+v", p)
		}
		// Today on the demo agencies' clock (the default zone), whose days
		// the dates are.
		today := time.Now().In(display.ResolveZone("", "")).Format(time.DateOnly)
		if p := logs(s.super.Token, "?from="+today+"&to="+today); p.Total == 0 {
			t.Error("today's entries missing with to inclusive")
		}
		if p := logs(s.super.Token, "?to=2000-01-01"); p.Total != 0 {
			t.Errorf("entries before 2000: %d", p.Total)
		}
		wantBadFilter(t, srv, s.super.Token, "/base/v2/user-logs?from=23/11/2026", "from", "Please enter the date as YYYY-MM-DD")

		// Blue Sky sees only its own lines, even when it asks by Demo
		// Travel's usernames; Demo Travel never sees Blue Sky's.
		for _, q := range []string{"", "?username=demo-super", "?action=login", "?pageSize=100"} {
			for _, e := range logs(s.blue.Token, q).Items {
				if e.AgencyID != blueID || e.Username != "bluesky-super" {
					t.Errorf("bluesky log%s shows agency %d's %s by %s", q, e.AgencyID, e.Action, e.Username)
				}
			}
		}
		if p := logs(s.blue.Token, "?username=demo-super"); p.Total != 0 {
			t.Errorf("bluesky sees %d of demo-super's entries", p.Total)
		}
		for _, e := range logs(s.super.Token, "?pageSize=100").Items {
			if e.Username == "bluesky-super" {
				t.Errorf("demo log shows bluesky-super's %s", e.Action)
			}
		}
	})
}

// The user log keeps what users changed, not their reads: a search and its
// polls (POSTs that change nothing) leave no entry.
func TestUserLogSkipsSearches(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		st := startSearch(t, srv, op.Token, "en", searchBody("PEK", "SHA"), "search")
		resp, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping/solutions", "en", fmt.Sprintf(`{"searchId":%q}`, st.SearchID), bearer(op.Token)...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("poll: %d %+v", resp.StatusCode, env)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action IN ('asyncShopping', 'asyncShoppingSolutions')`); n != 0 {
			t.Errorf("%d user log entries for a search and its poll, want none", n)
		}
	})
}
