package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

const controlMsg = "This field contains characters that are not allowed (control characters such as NUL)."

// fieldsOf is the field errors of a 100001 envelope.
func fieldsOf(t *testing.T, env envelope) map[string]string {
	t.Helper()
	var vd struct{ Fields map[string]string }
	if err := json.Unmarshal(env.Data, &vd); err != nil {
		t.Fatalf("no field errors in %s", env.Data)
	}
	return vd.Fields
}

// TestControlCharactersRefused: a NUL (or another control character) in any
// text answered 500 on PostgreSQL and was stored raw on SQLite. Now every
// edge refuses it with a 400 naming the field, and nothing is stored: JSON
// bodies, query strings, the address itself, portal forms and the anonymous
// partnership form, through the API and the portal.
func TestControlCharactersRefused(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()

		// The anonymous partnership form through the API: a NUL, a bell,
		// an escape deep in a field; each named, in the request's language.
		for _, tt := range []struct{ body, lang, field, msg string }{
			{`{"name":"Li\u0000","country":"CN","phone":"12345678"}`, "en", "name", controlMsg},
			{`{"name":"Li","country":"CN","phone":"12345678","remark":"ring\u0007"}`, "zh-cn", "remark", "此项包含不允许的字符（如 NUL 等控制字符）。"},
			{`{"name":"Li","country":"CN","phone":"12345678","companyAddress":"\u001b[31m"}`, "zh-tw", "companyAddress", "此欄位包含不允許的字元（如 NUL 等控制字元）。"},
			// After Chinese text, as much as before it: the check once
			// stopped at the first non-ASCII character (a 500 on
			// PostgreSQL, stored raw on SQLite).
			{`{"name":"中\u0000文","country":"CN","phone":"12345678"}`, "zh-cn", "name", "此项包含不允许的字符（如 NUL 等控制字符）。"},
			{`{"name":"Li","country":"CN","phone":"12345678","companyName":"北京\u0085旅行社"}`, "en", "companyName", controlMsg},
		} {
			resp, env := call(t, srv, "POST", "/base/v2/applications", tt.lang, tt.body)
			if resp.StatusCode != 400 || env.Code != 100001 || fieldsOf(t, env)[tt.field] != tt.msg {
				t.Errorf("%s: status %d code %d fields %s", tt.body, resp.StatusCode, env.Code, env.Data)
			}
		}
		// Multi-line text keeps its line breaks and tabs.
		resp, env := call(t, srv, "POST", "/base/v2/applications", "en",
			`{"name":"Li","country":"CN","phone":"12345678","remark":"line one\r\nline two\ttabbed"}`)
		if resp.StatusCode != 201 {
			t.Fatalf("a multi-line remark: status %d %s %s", resp.StatusCode, env.Message, env.Data)
		}

		// The same form in the portal, without JavaScript and under htmx.
		c := browser(t)
		res, body := postForm(t, c, srv.URL+"/applications", url.Values{"name": {"Li"}, "country": {"CN"},
			"phone": {"12345678"}, "companyName": {"Blue\x00Sea"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, controlMsg) || !strings.Contains(body, "BlueSea") {
			t.Errorf("portal partnership form: status %d, message shown %v", res.StatusCode, strings.Contains(body, controlMsg))
		}
		res, body = postForm(t, c, srv.URL+"/applications", url.Values{"name": {"Li\x01"}, "country": {"CN"}, "phone": {"12345678"}},
			"Accept-Language", "en", "HX-Request", "true")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, controlMsg) {
			t.Errorf("htmx partnership form: status %d, message shown %v", res.StatusCode, strings.Contains(body, controlMsg))
		}
		res, body = postForm(t, c, srv.URL+"/applications", url.Values{"name": {"李\x00四"}, "country": {"CN"}, "phone": {"12345678"}},
			"Accept-Language", "en", "HX-Request", "true")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, controlMsg) {
			t.Errorf("htmx partnership form: status %d, message shown %v", res.StatusCode, strings.Contains(body, controlMsg))
		}
		wantApplications(t, a, 1, "the forms with control characters (only the multi-line remark is kept)")

		// A logged-in JSON update: refused, the profile unchanged.
		me := loginAs(t, srv, "demo-operator", "demo-pass-1")
		resp, env = call(t, srv, "PUT", "/base/v2/me", "en", `{"nickname":"Op\u0000erator","mobile":"13800000000"}`, bearer(me.Token)...)
		if resp.StatusCode != 400 || fieldsOf(t, env)["nickname"] != controlMsg {
			t.Errorf("PUT /me: status %d %s", resp.StatusCode, env.Data)
		}
		var nickname string
		if err := a.DB.GetContext(ctx, &nickname, a.DB.Rebind(`SELECT nickname FROM users WHERE id = ?`), me.UserInfo.ID); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsRune(nickname, 0) {
			t.Errorf("a NUL was stored: %q", nickname)
		}

		// Query strings and the address itself.
		super := loginAs(t, srv, "demo-super", "demo-pass-1")
		for path, field := range map[string]string{
			"/base/v2/agencies?keyword=a%00b":        "keyword",
			"/order/v2/flight/orders?keyword=%1b":    "keyword",
			"/base/v2/users?page=1&keyword=%FF%FE":   "keyword", // not UTF-8
			"/base/v2/agencies/1%00":                 "path",
			"/base/v2/agencies?keyword=%E4%B8%AD%00": "keyword", // 中 then NUL
		} {
			resp, env := call(t, srv, "GET", path, "en", "", bearer(super.Token)...)
			if resp.StatusCode != 400 || fieldsOf(t, env)[field] != controlMsg {
				t.Errorf("GET %s: status %d code %d %s", path, resp.StatusCode, env.Code, env.Data)
			}
		}

		// A portal form of a logged-in page, and the login form: a 400 page
		// that names the field.
		res, body = postForm(t, browser(t), srv.URL+"/login", url.Values{"username": {"demo\x00super"}, "password": {"x"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "“username”") {
			t.Errorf("portal login: status %d\n%s", res.StatusCode, body)
		}
	})
}
