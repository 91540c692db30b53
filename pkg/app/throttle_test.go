package app_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/clock/clocktest"
)

// throttleClock is the auth service's clock in these tests: the waits run
// out when the test says, not after real seconds.
func throttleClock(a *app.App) *clocktest.Clock {
	c := clocktest.New(time.Now().UTC())
	a.Auth.SetClock(c.Now)
	return c
}

// onThrottledApp runs test in parallel on each seeded engine, with the
// throttle on a clock the test moves.
func onThrottledApp(t *testing.T, test func(t *testing.T, a *app.App, srv *httptest.Server, clock *clocktest.Clock)) {
	t.Helper()
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		test(t, a, srv, throttleClock(a))
	})
}

// peer is an HTTP client whose connections come from ip, a loopback address
// of its own (all of 127.0.0.0/8 is this machine): the server sees a
// different peer for each, as it would for callers on different hosts.
type peer struct {
	t   *testing.T
	srv *httptest.Server
	c   *http.Client
}

func from(t *testing.T, srv *httptest.Server, ip string) peer {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	jar, _ := cookiejar.New(nil)
	return peer{t: t, srv: srv, c: &http.Client{Transport: tr, Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request; a JSON body is sent as JSON, url.Values as a form.
func (p peer) do(method, path, lang string, body any, hdr ...string) (*http.Response, string) {
	p.t.Helper()
	var rd io.Reader
	ct := ""
	switch b := body.(type) {
	case string:
		rd, ct = strings.NewReader(b), "application/json"
	case url.Values:
		rd, ct = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	}
	req := newRequest(p.t, method, p.srv.URL+path, rd)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("Accept-Language", lang)
	resp, raw := send(p.t, p.c, req, hdr...)
	return resp, string(raw)
}

func (p peer) api(method, path, lang, body string, hdr ...string) (*http.Response, envelope) {
	p.t.Helper()
	resp, raw := p.do(method, path, lang, body, hdr...)
	var env envelope
	if err := json.Unmarshal([]byte(raw), &env); err != nil {
		p.t.Fatalf("%s %s: not an envelope: %s", method, path, raw)
	}
	return resp, env
}

func loginBody(username, password string) string {
	return fmt.Sprintf(`{"username":%q,"password":%q}`, username, password)
}

// wantThrottled checks a 429 answer with Retry-After of secs.
func wantThrottled(t *testing.T, what string, resp *http.Response, code int, secs string) {
	t.Helper()
	if resp.StatusCode != http.StatusTooManyRequests || (code != 0 && code != 200029) || resp.Header.Get("Retry-After") != secs {
		t.Fatalf("%s: %d code %d Retry-After %q, want 429 200029 Retry-After %s", what, resp.StatusCode, code, resp.Header.Get("Retry-After"), secs)
	}
}

// TestLoginThrottleAcrossAddressesHTTP: spreading wrong passwords for one
// account over many addresses no longer escapes the throttle, and the wait
// is a delay, not a lockout.
func TestLoginThrottleAcrossAddressesHTTP(t *testing.T) {
	onThrottledApp(t, func(t *testing.T, a *app.App, srv *httptest.Server, clock *clocktest.Clock) {
		// Ten wrong passwords from five addresses: the first five answer
		// 401, then the account waits whichever address asks.
		for i := 0; i < 10; i++ {
			p := from(t, srv, fmt.Sprintf("127.0.0.%d", 2+i%5))
			resp, env := p.api("POST", "/base/v2/login", "en", loginBody("demo-finance", "wrong-pass"))
			if i < 5 && (resp.StatusCode != 401 || env.Code != 200001) {
				t.Fatalf("attempt %d: %d %+v, want 401", i+1, resp.StatusCode, env)
			}
			if i >= 5 {
				wantThrottled(t, fmt.Sprintf("attempt %d", i+1), resp, env.Code, "5")
			}
		}
		fresh := from(t, srv, "127.0.0.9")
		resp, env := fresh.api("POST", "/base/v2/login", "en", loginBody("demo-finance", "demo-pass-1"))
		wantThrottled(t, "right password from a new address", resp, env.Code, "5")
		if env.Message != "Too many failed attempts. Please try again in 5 seconds." {
			t.Errorf("message %q", env.Message)
		}
		resp, env = fresh.api("POST", "/base/v2/login", "zh-cn", loginBody("demo-finance", "demo-pass-1"))
		if resp.StatusCode != 429 || env.Message != "失败次数过多，请 5 秒后再试。" {
			t.Errorf("zh-cn: %d %q", resp.StatusCode, env.Message)
		}
		resp, env = fresh.api("POST", "/base/v2/login", "zh-tw", loginBody("demo-finance", "demo-pass-1"))
		if resp.StatusCode != 429 || env.Message != "失敗次數過多，請 5 秒後再試。" {
			t.Errorf("zh-tw: %d %q", resp.StatusCode, env.Message)
		}
		// The portal's login form waits too, with the same message.
		resp, page := fresh.do("POST", "/login", "en", url.Values{"username": {"demo-finance"}, "password": {"demo-pass-1"}})
		wantThrottled(t, "portal login", resp, 0, "5")
		if !strings.Contains(page, "Please try again in 5 seconds.") {
			t.Errorf("portal login page lacks the wait")
		}
		// After the wait the right password works.
		clock.Add(5 * time.Second)
		if resp, env := fresh.api("POST", "/base/v2/login", "en", loginBody("demo-finance", "demo-pass-1")); resp.StatusCode != 200 {
			t.Fatalf("after the wait: %d %+v", resp.StatusCode, env)
		}

		// A guesser elsewhere cannot keep the user out at an address the
		// user logged in from: keep the account waiting, then log in
		// from the user's own address at once.
		for i := 0; i < 5; i++ {
			from(t, srv, "127.0.0.30").api("POST", "/base/v2/login", "en", loginBody("demo-finance", "wrong-pass"))
		}
		resp, env = from(t, srv, "127.0.0.31").api("POST", "/base/v2/login", "en", loginBody("demo-finance", "demo-pass-1"))
		if resp.StatusCode != 429 {
			t.Fatalf("the account is not waiting: %d %+v", resp.StatusCode, env)
		}
		if resp, env := fresh.api("POST", "/base/v2/login", "en", loginBody("demo-finance", "demo-pass-1")); resp.StatusCode != 200 {
			t.Errorf("the user's own address is shut out: %d %+v", resp.StatusCode, env)
		}
	})
}

// TestLoginThrottleAcrossAccountsHTTP: trying many usernames from one
// address is throttled, and a forged X-Forwarded-For does not make the
// address someone else.
func TestLoginThrottleAcrossAccountsHTTP(t *testing.T) {
	onThrottledApp(t, func(t *testing.T, a *app.App, srv *httptest.Server, clock *clocktest.Clock) {
		guesser := from(t, srv, "127.0.0.40")
		for i := 0; i < 30; i++ {
			resp, env := guesser.api("POST", "/base/v2/login", "en", loginBody(fmt.Sprintf("agent-%02d", i), "123456789"),
				"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i), "X-Real-Ip", fmt.Sprintf("198.51.100.%d", i))
			switch {
			case i < 20 && (resp.StatusCode != 401 || env.Code != 200001):
				t.Fatalf("username %d: %d %+v, want 401", i, resp.StatusCode, env)
			case i >= 20:
				wantThrottled(t, fmt.Sprintf("username %d", i), resp, env.Code, "5")
			}
		}
		// Every account waits from that address, a real one too; other
		// addresses are not held up.
		resp, env := guesser.api("POST", "/base/v2/login", "en", loginBody("demo-operator", "demo-pass-1"))
		wantThrottled(t, "a real account from the address", resp, env.Code, "5")
		if resp, env := from(t, srv, "127.0.0.41").api("POST", "/base/v2/login", "en", loginBody("demo-operator", "demo-pass-1")); resp.StatusCode != 200 {
			t.Errorf("another address: %d %+v", resp.StatusCode, env)
		}
		clock.Add(5 * time.Second)
		if resp, env := guesser.api("POST", "/base/v2/login", "en", loginBody("demo-operator", "demo-pass-1")); resp.StatusCode != 200 {
			t.Errorf("after the wait: %d %+v", resp.StatusCode, env)
		}
	})
}

// TestPasswordChangeThrottleHTTP: the current-password check of a password
// change is throttled per user, over the API and the portal form.
func TestPasswordChangeThrottleHTTP(t *testing.T) {
	onThrottledApp(t, func(t *testing.T, a *app.App, srv *httptest.Server, clock *clocktest.Clock) {
		p := from(t, srv, "127.0.0.50")
		me := loginAs(t, srv, "demo-operator", "demo-pass-1")
		change := func(old string) (*http.Response, envelope) {
			return p.api("PUT", "/base/v2/me/password", "en",
				fmt.Sprintf(`{"oldPassword":%q,"password":"fresh-pass-7","confirmPassword":"fresh-pass-7"}`, old), bearer(me.Token)...)
		}
		for i := 0; i < 5; i++ {
			if resp, env := change(fmt.Sprintf("guess-%d", i)); resp.StatusCode != 400 || !strings.Contains(string(env.Data), "oldPassword") {
				t.Fatalf("guess %d: %d %+v", i, resp.StatusCode, env)
			}
		}
		resp, env := change("demo-pass-1")
		wantThrottled(t, "sixth try", resp, env.Code, "5")

		// The portal's form, from another session and address, waits too.
		b := from(t, srv, "127.0.0.51")
		if resp, _ := b.do("POST", "/login", "en", url.Values{"username": {"demo-operator"}, "password": {"demo-pass-1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("portal login: %d", resp.StatusCode)
		}
		resp, page := b.do("POST", "/profile/password", "en", url.Values{"oldPassword": {"demo-pass-1"}, "password": {"fresh-pass-7"}, "confirmPassword": {"fresh-pass-7"}})
		wantThrottled(t, "portal password form", resp, 0, "5")
		if !strings.Contains(page, "Please try again in 5 seconds.") {
			t.Error("portal password page lacks the wait")
		}
		clock.Add(5 * time.Second)
		if resp, env := change("demo-pass-1"); resp.StatusCode != 200 {
			t.Errorf("the right password after the wait: %d %+v", resp.StatusCode, env)
		}
	})
}

// TestSecretThrottleSingleLoginAndAPIKeyHTTP: an address that keeps sending
// bad single-login signatures or unknown API keys is answered 429.
func TestSecretThrottleSingleLoginAndAPIKeyHTTP(t *testing.T) {
	onThrottledApp(t, func(t *testing.T, a *app.App, srv *httptest.Server, clock *clocktest.Clock) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		p := from(t, srv, "127.0.0.60")
		sso := func(code, secret string) (*http.Response, envelope) {
			ts := clock.Now().Unix()
			return p.api("POST", "/base/v2/single-login", "en", fmt.Sprintf(`{"code":%q,"timestamp":%d,"userid":%d,"signature":%q}`,
				code, ts, op.UserInfo.ID, auth.SSOSignature(secret, code, ts, op.UserInfo.ID)))
		}
		for i := 0; i < 20; i++ {
			if resp, env := sso(fmt.Sprintf("forged-%d", i), "guessed-secret"); resp.StatusCode != 401 {
				t.Fatalf("forged signature %d: %d %+v", i, resp.StatusCode, env)
			}
		}
		resp, env := sso("erp-ok", "demo-sso-secret")
		wantThrottled(t, "single login after 20 forgeries", resp, env.Code, "5")
		clock.Add(5 * time.Second)
		if resp, env := sso("erp-ok", "demo-sso-secret"); resp.StatusCode != 200 {
			t.Errorf("single login after the wait: %d %+v", resp.StatusCode, env)
		}

		for i := 0; i < 20; i++ {
			if resp, env := p.api("GET", "/base/v2/me/sessions", "en", "", "X-Api-Key", fmt.Sprintf("vk_guess%03d_abcdef", i)); resp.StatusCode != 401 {
				t.Fatalf("unknown key %d: %d %+v", i, resp.StatusCode, env)
			}
		}
		resp, env = p.api("GET", "/base/v2/me/sessions", "en", "", "X-Api-Key", "vk_guess999_abcdef")
		wantThrottled(t, "21st unknown key", resp, env.Code, "5")
	})
}
