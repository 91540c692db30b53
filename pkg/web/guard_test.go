package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/templates"
)

// fakeIdentity answers Authenticate from a token table; the other Identity
// methods are not used by these tests and panic through the nil embed.
type fakeIdentity struct {
	Identity
	sessions  map[string]auth.Principal
	failures  map[string]error
	loggedOut []int64
	sso       func(auth.SSORequest) (auth.LoginResult, error)
}

func (f *fakeIdentity) Authenticate(_ context.Context, token string) (auth.Principal, error) {
	if err, ok := f.failures[token]; ok {
		return auth.Principal{}, err
	}
	if p, ok := f.sessions[token]; ok {
		return p, nil
	}
	return auth.Principal{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "axios.login.timeout")
}

func (f *fakeIdentity) Logout(_ context.Context, p auth.Principal, _ auth.Meta) error {
	f.loggedOut = append(f.loggedOut, p.SessionID)
	return nil
}

func (f *fakeIdentity) SingleLogin(_ context.Context, r auth.SSORequest, _ auth.Meta) (auth.LoginResult, error) {
	return f.sso(r)
}

type fakeAgencies map[int64]agency.Agency

func (f fakeAgencies) Get(_ context.Context, id int64) (agency.Agency, error) {
	if a, ok := f[id]; ok {
		return a, nil
	}
	return agency.Agency{}, fault.NotFound("")
}

func subject(roles []string, flight, train bool) auth.Subject {
	return auth.Subject{Roles: roles, ProxyLevel: 1, Common: auth.CommonConfig{EnableFlightService: flight, EnableTrainService: train, IsShowBill: true}}
}

func principal(id int64, s auth.Subject) auth.Principal {
	return auth.Principal{UserID: id, Username: "u", AgencyID: 1, SessionID: id * 10, Subject: s}
}

func guardFixture() (*Server, *fakeIdentity) {
	id := &fakeIdentity{
		sessions: map[string]auth.Principal{
			"operator":     principal(1, subject([]string{auth.RoleOperator}, true, true)),
			"finance":      principal(2, subject([]string{auth.RoleFinance}, true, true)),
			"super":        principal(3, subject([]string{auth.RoleSuperUser}, true, true)),
			"operator-off": principal(4, subject([]string{auth.RoleOperator}, false, false)),
			"finance-perm": {UserID: 5, SessionID: 50, Subject: auth.Subject{Roles: []string{auth.RoleFinance}, Permissions: []string{"wallet:read"}}},
			"iframe":       {UserID: 6, AgencyID: 2, SessionID: 60, Iframe: true, Subject: subject([]string{auth.RoleOperator}, true, false)},
		},
		failures: map[string]error{
			"expired":  fault.New(fault.CodeSessionExpired, http.StatusUnauthorized, "axios.login.timeout"),
			"replaced": fault.New(fault.CodeLoggedOutByOther, http.StatusUnauthorized, "session.error.replaced"),
		},
	}
	s := &Server{identity: id, agencies: fakeAgencies{
		1: {ID: 1, Name: "Demo Travel", AllowedHostsJSON: `[]`},
		2: {ID: 2, Name: "Framed", AllowedHostsJSON: `["https://erp.example","bad; script-src *"]`},
	}}
	return s, id
}

// okHandler records the principal the guard put in the context.
func okHandler(got *auth.Principal) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := auth.PrincipalFrom(r.Context()); ok {
			*got = p
		}
		w.WriteHeader(http.StatusOK)
	})
}

func flashOf(res *http.Response) string {
	for _, c := range res.Cookies() {
		if c.Name == flashCookie {
			return c.Value
		}
	}
	return ""
}

func TestGuardDecisions(t *testing.T) {
	tests := []struct {
		token, method, path string
		wantFlash           string // "" → the request passes
	}{
		{"", "GET", "/", ""},
		{"", "GET", "/terms", ""},
		{"", "GET", "/privacy", ""},
		{"", "GET", "/profile", ""},
		{"", "GET", "/login", ""},
		{"", "GET", "/no/such/page", ""},
		{"", "GET", "/flight/orders", "error:router.login"},
		{"", "GET", "/bills/wallet", "error:router.login"},
		{"", "GET", "/users", "error:router.login"},
		{"", "POST", "/flight/booking", "error:router.login"},
		{"operator", "GET", "/flight/booking", ""},
		{"operator", "GET", "/flight/orders/42", ""},
		{"operator", "GET", "/train/booking", ""},
		{"operator", "GET", "/train/orders", ""},
		{"operator", "GET", "/users", ""},
		{"operator", "GET", "/bills/wallet", "error:router.notRole"},
		{"operator", "GET", "/agency-manager", "error:router.notRole"},
		{"operator", "GET", "/company", "error:router.notRole"},
		{"operator", "GET", "/user-log", "error:router.notRole"},
		{"finance", "GET", "/bills/statements", ""},
		{"finance", "GET", "/agency-manager/statements", ""},
		{"finance", "GET", "/agency-manager/bills/7", ""},
		{"finance", "GET", "/flight/booking", "error:router.notRole"},
		{"finance", "GET", "/train/booking", "error:router.notRole"},
		{"finance", "GET", "/train/orders", ""},
		{"finance-perm", "GET", "/agency-manager/bills/7", "error:router.notRole"},
		{"super", "GET", "/flight/booking", ""},
		{"super", "GET", "/bills/wallet", ""},
		{"super", "GET", "/company", ""},
		{"super", "GET", "/user-log", ""},
		{"super", "GET", "/agency-manager", ""},
		{"operator-off", "GET", "/flight/booking", "error:router.notRole"},
		{"operator-off", "GET", "/flight/group/order/3", "error:router.notRole"},
		{"operator-off", "GET", "/train/orders", "error:router.notRole"},
		{"operator-off", "GET", "/profile", ""},
		{"expired", "GET", "/", "error:axios.login.timeout"},
		{"expired", "GET", "/flight/booking", "error:axios.login.timeout"},
		{"unknown-token", "GET", "/profile", "error:axios.login.timeout"},
		{"replaced", "GET", "/terms", "error:session.error.replaced"},
		{"replaced", "POST", "/logout", "error:session.error.replaced"},
	}
	for _, tt := range tests {
		t.Run(tt.token+" "+tt.method+" "+tt.path, func(t *testing.T) {
			s, _ := guardFixture()
			var got auth.Principal
			req := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.token != "" {
				req.AddCookie(&http.Cookie{Name: SessionCookie, Value: tt.token})
			}
			rec := httptest.NewRecorder()
			s.Guard(okHandler(&got)).ServeHTTP(rec, req)
			res := rec.Result()
			if tt.wantFlash == "" {
				if res.StatusCode != http.StatusOK {
					t.Fatalf("status %d (Location %q, flash %q), want the request to pass", res.StatusCode, res.Header.Get("Location"), flashOf(res))
				}
				if want := s.identity.(*fakeIdentity).sessions[tt.token]; got.UserID != want.UserID {
					t.Errorf("principal in context = %+v, want user %d", got, want.UserID)
				}
				return
			}
			if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
				t.Fatalf("status %d Location %q, want 303 to /", res.StatusCode, res.Header.Get("Location"))
			}
			if f := flashOf(res); f != tt.wantFlash {
				t.Errorf("flash %q, want %q", f, tt.wantFlash)
			}
			ended := strings.HasPrefix(tt.wantFlash, "error:axios") || strings.HasPrefix(tt.wantFlash, "error:session")
			cleared := slices.ContainsFunc(res.Cookies(), func(c *http.Cookie) bool { return c.Name == SessionCookie && c.MaxAge < 0 })
			if ended != cleared {
				t.Errorf("session cookie cleared = %v, want %v", cleared, ended)
			}
		})
	}
}

func TestGuardLeavesAPIAndStaticAlone(t *testing.T) {
	s, _ := guardFixture()
	for _, p := range []string{"/base/v2/me", "/order/v2/list", "/static/app.css", "/healthz", "/openapi.json"} {
		req := httptest.NewRequest("GET", p, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "expired"})
		rec := httptest.NewRecorder()
		var got auth.Principal
		s.Guard(okHandler(&got)).ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: status %d, want the guard to pass it through", p, rec.Code)
		}
	}
}

func TestGuardDropsDeadSessionOnLoginPost(t *testing.T) {
	s, _ := guardFixture()
	req := httptest.NewRequest("POST", "/login", nil)
	req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "expired"})
	rec := httptest.NewRecorder()
	var got auth.Principal
	s.Guard(okHandler(&got)).ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || got.UserID != 0 {
		t.Fatalf("status %d principal %+v: a login post with a dead cookie must reach the handler anonymously", rec.Code, got)
	}
}

func TestGuardIframeSessionHeaders(t *testing.T) {
	s, _ := guardFixture()
	req := httptest.NewRequest("GET", "/flight/booking", nil)
	req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "iframe"})
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Security-Policy", server.ContentSecurityPolicy)
	rec.Header().Set("X-Frame-Options", "SAMEORIGIN")
	var got auth.Principal
	s.Guard(okHandler(&got)).ServeHTTP(rec, req)
	csp := rec.Header().Get("Content-Security-Policy")
	if !strings.HasSuffix(csp, "frame-ancestors 'self' https://erp.example") {
		t.Errorf("CSP %q: want frame-ancestors with the agency's host only", csp)
	}
	if rec.Header().Get("X-Frame-Options") != "" {
		t.Error("X-Frame-Options kept for an iframe session")
	}
}

func TestIframeCSPKeepsOtherDirectives(t *testing.T) {
	directives := func(csp string) []string {
		var out []string
		for _, d := range strings.Split(csp, ";") {
			if d = strings.TrimSpace(d); d != "" && !strings.HasPrefix(d, "frame-ancestors") {
				out = append(out, d)
			}
		}
		return out
	}
	got := iframeCSP([]string{"https://a.example", "https://b.example:8443", "*.c.example", "x 'unsafe-inline'", "https://d.example; script-src *"})
	if !slices.Equal(directives(got), directives(server.ContentSecurityPolicy)) {
		t.Errorf("directives changed:\n got %q\nwant %q", got, server.ContentSecurityPolicy)
	}
	if !strings.HasSuffix(got, "; frame-ancestors 'self' https://a.example https://b.example:8443 *.c.example") {
		t.Errorf("frame-ancestors wrong in %q", got)
	}
}

func TestSingleLoginEntry(t *testing.T) {
	s, id := guardFixture()
	id.sso = func(r auth.SSORequest) (auth.LoginResult, error) {
		if r.Code != "c1" || r.Timestamp != 1700000000 || r.UserID != 6 || r.Signature != "sig" {
			return auth.LoginResult{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "sso.error.invalid")
		}
		p := id.sessions["iframe"]
		return auth.LoginResult{Token: "new", Principal: p, Company: auth.Company{ID: 2, HideSSOMessage: false}}, nil
	}
	q := url.Values{"code": {"c1"}, "signature": {"sig"}, "timestamp": {"1700000000"}, "userid": {"6"}, "tab": {"2"}}
	req := httptest.NewRequest("GET", "/flight/orders?"+q.Encode(), nil)
	req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "operator"})
	rec := httptest.NewRecorder()
	s.Guard(http.NotFoundHandler()).ServeHTTP(rec, req)
	res := rec.Result()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/flight/orders?tab=2" {
		t.Fatalf("status %d Location %q, want 303 to the page without the single-login parameters", res.StatusCode, res.Header.Get("Location"))
	}
	if f := flashOf(res); f != "success:login.message.success" {
		t.Errorf("flash %q", f)
	}
	if !slices.Equal(id.loggedOut, []int64{10}) {
		t.Errorf("logged out sessions %v, want the previous session 10", id.loggedOut)
	}
	token := ""
	for _, c := range res.Cookies() {
		if c.Name == SessionCookie && c.MaxAge >= 0 {
			token = c.Value
		}
	}
	if token != "new" {
		t.Errorf("session cookie %q, want the new token", token)
	}

	// Hidden message (agency 222's branding) and a bad signature.
	id.sso = func(r auth.SSORequest) (auth.LoginResult, error) {
		if r.Signature != "sig" {
			return auth.LoginResult{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "sso.error.used")
		}
		return auth.LoginResult{Token: "t", Principal: id.sessions["iframe"], Company: auth.Company{HideSSOMessage: true}}, nil
	}
	rec = httptest.NewRecorder()
	s.Guard(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("GET", "/?"+q.Encode(), nil))
	if res := rec.Result(); res.Header.Get("Location") != "/?tab=2" || flashOf(res) != "" {
		t.Errorf("hidden message: Location %q flash %q", res.Header.Get("Location"), flashOf(res))
	}
	q.Set("signature", "forged")
	rec = httptest.NewRecorder()
	s.Guard(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("GET", "/flight/booking?"+q.Encode(), nil))
	if res := rec.Result(); res.Header.Get("Location") != "/" {
		t.Errorf("failed single login: Location %q, want /", res.Header.Get("Location"))
	}
}

func TestMenusFollowPermissions(t *testing.T) {
	keys := func(items []templates.NavItem) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.Key)
		}
		return out
	}
	provider := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 0,
		Common: auth.CommonConfig{EnableFlightService: true, EnableTrainService: true, CanCreateSubAgency: true}}
	tests := []struct {
		name     string
		v        viewer
		top      []string
		userMenu []string
	}{
		{"visitor", viewer{}, nil, nil},
		{"operator", viewer{LoggedIn: true, Principal: principal(1, subject([]string{auth.RoleOperator}, true, true))},
			[]string{"nav.flights", "nav.groupTicket", "nav.trains", "nav.myBookings"}, []string{"nav.account"}},
		{"finance", viewer{LoggedIn: true, Principal: principal(2, subject([]string{auth.RoleFinance}, true, true))},
			[]string{"nav.trains", "nav.wallet"}, []string{"nav.account"}},
		{"provider", viewer{LoggedIn: true, Principal: principal(3, provider)},
			[]string{"nav.flights", "nav.groupTicket", "nav.trains", "nav.myBookings", "nav.wallet", "nav.agencyManagement"},
			[]string{"nav.userManagement", "nav.userLog", "nav.companyProfile", "nav.account"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keys(topNavFor(tt.v)); !slices.Equal(got, tt.top) {
				t.Errorf("top bar %v, want %v", got, tt.top)
			}
			if got := keys(userMenuFor(tt.v)); !slices.Equal(got, tt.userMenu) {
				t.Errorf("user menu %v, want %v", got, tt.userMenu)
			}
		})
	}
}
