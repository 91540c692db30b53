package app_test

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

// TestCommonPasswordsRefusedHTTP: wherever a password is set, over the API
// and on the portal, one of the 10,000 most common passwords is refused
// with a translated field message, and nothing changes.
func TestCommonPasswordsRefusedHTTP(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, super meData) {
		operator := loginAs(t, srv, "demo-operator", "demo-pass-1")
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")

		// Own password change.
		resp, env := call(t, srv, "PUT", "/base/v2/me/password", "zh-tw",
			`{"oldPassword":"demo-pass-1","password":"qwerty123","confirmPassword":"qwerty123"}`, bearer(operator.Token)...)
		if resp.StatusCode != 400 {
			t.Errorf("password change: %d", resp.StatusCode)
		}
		wantFieldMessage(t, env, "password", "此密碼是最常見的密碼之一，請換一個。")
		// A user's password set by the super admin.
		resp, env = call(t, srv, "PUT", fmt.Sprintf("/base/v2/users/%d", operator.UserInfo.ID), "zh-cn", `{"password":"iloveyou"}`, bearer(super.Token)...)
		if resp.StatusCode != 400 {
			t.Errorf("user update: %d", resp.StatusCode)
		}
		wantFieldMessage(t, env, "password", "该密码是最常见的密码之一，请换一个。")
		// A sub-agency's super admin reset by its parent.
		resp, env = call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/%d/superuser/password", sub.Company.ID), "en", `{"password":"1q2w3e4r"}`, bearer(super.Token)...)
		if resp.StatusCode != 400 {
			t.Errorf("super admin reset: %d", resp.StatusCode)
		}
		wantFieldMessage(t, env, "password", "This password is one of the most common ones. Please choose another.")
		for _, who := range []struct{ user, pw string }{{"demo-operator", "demo-pass-1"}, {"sub-super", "demo-pass-1"}} {
			loginAs(t, srv, who.user, who.pw)
		}

		// The portal's forms: add a user, change one's own password.
		p := from(t, srv, "127.0.0.70")
		if resp, _ := p.do("POST", "/login", "en", url.Values{"username": {"demo-super"}, "password": {"demo-pass-1"}}); resp.StatusCode != 303 {
			t.Fatalf("portal login: %d", resp.StatusCode)
		}
		_, page := p.do("POST", "/users", "en", url.Values{"username": {"common-one"}, "email": {"c@demo.example"}, "roles": {"operator"},
			"status": {"active"}, "password": {"football1"}})
		if !strings.Contains(page, "This password is one of the most common ones.") {
			t.Error("portal user form does not refuse a common password")
		}
		_, page = p.do("POST", "/profile/password", "en", url.Values{"oldPassword": {"demo-pass-1"}, "password": {"abc123456"}, "confirmPassword": {"abc123456"}})
		if !strings.Contains(page, "This password is one of the most common ones.") {
			t.Error("portal password form does not refuse a common password")
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM users WHERE username = ?`, "common-one"); n != 0 {
			t.Error("the portal created a user with a common password")
		}
		loginAs(t, srv, "demo-super", "demo-pass-1")
	})
}
