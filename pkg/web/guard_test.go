package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
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

// managing is a user of an agency that may create sub-agencies.
func managing(role string) auth.Subject {
	s := subject([]string{role}, true, true)
	s.Common.CanCreateSubAgency = true
	return s
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
			"provider-op":  {UserID: 7, AgencyID: 3, SessionID: 70, Subject: auth.Subject{Roles: []string{auth.RoleOperator}, Common: auth.CommonConfig{EnableFlightService: true}}},
			"finance-manager": {UserID: 8, AgencyID: 1, SessionID: 80, Subject: auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1,
				Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true}}},
			"super-manager": {UserID: 9, AgencyID: 1, SessionID: 90, Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1,
				Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true, EnableFlightService: true}}},
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

// withSite gives s the site settings the pages need, on a test database.
func withSite(t *testing.T, s *Server) {
	t.Helper()
	db := storetest.Open(t, store.SQLite)
	s.site = testSite(db, nil)
	s.now = time.Now
}

// tableWith is the guard in front of every route of the table, each served
// by h behind its rule, as Register mounts them; requests are in English.
func tableWith(s *Server, h http.Handler) http.Handler {
	hs := map[string]http.Handler{}
	for _, rt := range Routes {
		hs[rt.Name] = h
	}
	mux := http.NewServeMux()
	s.mount(mux, hs)
	return tableWithMux(mux, s)
}

var refusalCatalog = i18n.MustLoad()

func withEnglish(ctx context.Context) context.Context {
	return i18n.WithLocalizer(ctx, refusalCatalog, i18n.EN)
}

// checkRefused checks res is the answer to a request the route's rule
// turned away with flash ("error:<key>"): a page opened in the browser goes
// home with the message (spec §2); a form post is answered in place, 401
// without a login (or after a dead session) and 403 without the rule, with
// the message on the page and no redirect.
func checkRefused(t *testing.T, method string, res *http.Response, flash string) {
	t.Helper()
	if method == http.MethodGet || method == http.MethodHead {
		// A signed-in user refused for the role goes to their own home in
		// the portal (TestRefusedUserGoesToOwnHome says which), never the
		// public home page; anyone else to the public home page.
		loc := res.Header.Get("Location")
		home := loc == "/"
		if flash == "error:router.notRole" {
			home = slices.Contains(landingPaths, loc)
		}
		if res.StatusCode != http.StatusSeeOther || !home || flashOf(res) != flash {
			t.Fatalf("status %d Location %q flash %q, want 303 home with %s", res.StatusCode, loc, flashOf(res), flash)
		}
		return
	}
	want := http.StatusUnauthorized
	if flash == "error:router.notRole" {
		want = http.StatusForbidden
	}
	b, _ := io.ReadAll(res.Body)
	msg := i18n.T(i18n.WithLocalizer(context.Background(), refusalCatalog, i18n.EN), strings.TrimPrefix(flash, "error:"))
	if res.StatusCode != want || res.Header.Get("Location") != "" || !strings.Contains(string(b), msg) {
		t.Fatalf("status %d Location %q, want %d in place with %q:\n%.400s", res.StatusCode, res.Header.Get("Location"), want, msg, b)
	}
}

// landingPaths are the signed-in homes of auth.Subject.LandingPath.
var landingPaths = []string{"/flight/booking", "/bills/statements", "/train/booking", "/profile"}

// A user refused a page lands on their own portal home, with the message:
// an operator on the flight booking page, finance on the statements, a
// user with no service on the profile, and a refusal of the home page
// itself on the profile (no loop).
func TestRefusedUserGoesToOwnHome(t *testing.T) {
	t.Parallel()
	s, _ := guardFixture()
	withSite(t, s)
	h := tableWith(s, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	for _, tt := range []struct{ token, path, want string }{
		{"operator", "/bills/wallet", "/flight/booking"},
		{"operator", "/users", "/flight/booking"},
		{"finance", "/flight/booking", "/bills/statements"},
		{"finance", "/agency-manager", "/bills/statements"},
		{"operator-off", "/flight/booking", "/profile"},
		{"operator-off", "/train/orders", "/profile"},
	} {
		req := httptest.NewRequest("GET", tt.path, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: tt.token})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != tt.want || flashOf(res) != "error:router.notRole" {
			t.Errorf("%s GET %s: status %d Location %q flash %q, want 303 to %s with router.notRole", tt.token, tt.path, res.StatusCode, res.Header.Get("Location"), flashOf(res), tt.want)
		}
	}
	// The htmx answer redirects there too.
	req := httptest.NewRequest("GET", "/flight/orders/voyage", nil)
	req.Header.Set("HX-Request", "true")
	req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "finance"})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Result().Header.Get("HX-Redirect"); got != "/bills/statements" {
		t.Errorf("htmx refusal HX-Redirect = %q, want /bills/statements", got)
	}
}

func TestGuardDecisions(t *testing.T) {
	t.Parallel()
	s, _ := guardFixture()
	withSite(t, s)
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
		{"", "POST", "/login", ""},
		{"", "POST", "/applications", ""},
		{"", "POST", "/prefs/lang", ""},
		{"", "GET", "/flight/orders", "error:router.login"},
		{"", "GET", "/bills/wallet", "error:router.login"},
		{"", "GET", "/users", "error:router.login"},
		{"", "POST", "/flight/orders/42/actions/cancel", "error:router.login"},
		{"", "POST", "/users/7", "error:router.login"},
		{"", "POST", "/profile/password", "error:router.login"},
		{"", "POST", "/logout", "error:router.login"},
		{"operator", "GET", "/flight/booking", ""},
		{"operator", "GET", "/flight/orders/42", ""},
		{"operator", "POST", "/flight/orders/42/actions/cancel", ""},
		{"operator", "GET", "/train/booking", ""},
		{"operator", "GET", "/train/orders", ""},
		{"operator", "POST", "/profile/password", ""},
		// User management is the SuperUser's: the table says so, where
		// the handler used to.
		{"operator", "GET", "/users", "error:router.notRole"},
		{"operator", "POST", "/users/7", "error:router.notRole"},
		{"operator", "POST", "/flight/orders/42/actions/approve", "error:router.notRole"},
		{"operator", "GET", "/bills/wallet", "error:router.notRole"},
		{"operator", "GET", "/agency-manager", "error:router.notRole"},
		{"operator", "GET", "/company", "error:router.notRole"},
		{"operator", "GET", "/user-log", "error:router.notRole"},
		{"provider-op", "POST", "/flight/orders/42/actions/approve", ""},
		{"provider-op", "POST", "/flight/orders/42/actions/resolve_failed", ""},
		{"finance", "GET", "/bills/statements", ""},
		{"finance", "POST", "/bills/statements", ""},
		// Finance of an agency that may not create sub-agencies manages
		// none.
		{"finance", "GET", "/agency-manager", "error:router.notRole"},
		{"finance", "GET", "/agency-manager/bills/7", "error:router.notRole"},
		{"finance-manager", "GET", "/agency-manager/statements", ""},
		{"finance-manager", "GET", "/agency-manager/bills/7", ""},
		{"finance-manager", "POST", "/agency-manager/agencies/5/funds", ""},
		{"finance-manager", "POST", "/agency-manager/agencies/5/password", "error:router.notRole"},
		{"finance", "GET", "/flight/booking", "error:router.notRole"},
		{"finance", "POST", "/flight/orders/42/actions/cancel", "error:router.notRole"},
		{"finance", "GET", "/train/booking", "error:router.notRole"},
		{"finance", "GET", "/train/orders", ""},
		{"finance-perm", "GET", "/agency-manager/bills/7", "error:router.notRole"},
		{"super", "GET", "/flight/booking", ""},
		{"super", "GET", "/bills/wallet", ""},
		{"super", "GET", "/company", ""},
		{"super", "POST", "/company/logo", ""},
		{"super", "GET", "/user-log", ""},
		{"super", "POST", "/agency-manager/agencies/5/status", "error:router.notRole"},
		{"super-manager", "GET", "/agency-manager", ""},
		{"super-manager", "POST", "/agency-manager/agencies/5/password", ""},
		{"operator-off", "GET", "/flight/booking", "error:router.notRole"},
		{"operator-off", "GET", "/flight/group/order/3", "error:router.notRole"},
		{"operator-off", "GET", "/train/orders", "error:router.notRole"},
		{"operator-off", "GET", "/profile", ""},
		{"expired", "GET", "/", "error:axios.login.timeout"},
		{"expired", "GET", "/flight/booking", "error:axios.login.timeout"},
		{"expired", "POST", "/flight/orders/42/actions/cancel", "error:axios.login.timeout"},
		{"unknown-token", "GET", "/profile", "error:axios.login.timeout"},
		{"replaced", "GET", "/terms", "error:session.error.replaced"},
		{"replaced", "POST", "/logout", "error:session.error.replaced"},
	}
	for _, tt := range tests {
		t.Run(tt.token+" "+tt.method+" "+tt.path, func(t *testing.T) {
			var got auth.Principal
			reached := false
			h := tableWith(s, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reached = true
				okHandler(&got).ServeHTTP(w, r)
			}))
			req := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.token != "" {
				req.AddCookie(&http.Cookie{Name: SessionCookie, Value: tt.token})
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if tt.wantFlash == "" {
				if res.StatusCode != http.StatusOK || !reached {
					t.Fatalf("status %d (Location %q, flash %q), want the request to pass", res.StatusCode, res.Header.Get("Location"), flashOf(res))
				}
				if want := s.identity.(*fakeIdentity).sessions[tt.token]; got.UserID != want.UserID {
					t.Errorf("principal in context = %+v, want user %d", got, want.UserID)
				}
				return
			}
			if reached {
				t.Fatal("a refused request reached the handler")
			}
			checkRefused(t, tt.method, res, tt.wantFlash)
			ended := strings.HasPrefix(tt.wantFlash, "error:axios") || strings.HasPrefix(tt.wantFlash, "error:session")
			cleared := slices.ContainsFunc(res.Cookies(), func(c *http.Cookie) bool { return c.Name == SessionCookie && c.MaxAge < 0 })
			if ended != cleared {
				t.Errorf("session cookie cleared = %v, want %v", cleared, ended)
			}
		})
	}
}

// An htmx request the rule refuses gets the status and HX-Redirect home,
// where the message waits, not the home page swapped into its target.
func TestGuardRefusesHtmxWithStatus(t *testing.T) {
	t.Parallel()
	s, _ := guardFixture()
	withSite(t, s)
	h := tableWith(s, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("a refused htmx request reached the handler") }))
	for _, tt := range []struct {
		token, method, path string
		status              int
		flash, home         string
	}{
		{"", "GET", "/flight/orders?group=reviewing", http.StatusUnauthorized, "error:router.login", "/"},
		{"expired", "GET", "/flight/orders", http.StatusUnauthorized, "error:axios.login.timeout", "/"},
		{"finance", "GET", "/flight/orders/voyage", http.StatusForbidden, "error:router.notRole", "/bills/statements"},
		{"operator", "POST", "/users/7/deactivate", http.StatusForbidden, "error:router.notRole", "/flight/booking"},
	} {
		req := httptest.NewRequest(tt.method, tt.path, nil)
		req.Header.Set("HX-Request", "true")
		if tt.token != "" {
			req.AddCookie(&http.Cookie{Name: SessionCookie, Value: tt.token})
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode != tt.status || res.Header.Get("HX-Redirect") != tt.home || flashOf(res) != tt.flash || res.Header.Get("Location") != "" {
			t.Errorf("%s %s as %q: status %d HX-Redirect %q flash %q, want %d to %s with %s", tt.method, tt.path, tt.token,
				res.StatusCode, res.Header.Get("HX-Redirect"), flashOf(res), tt.status, tt.home, tt.flash)
		}
	}
}

func TestGuardLeavesAPIAndStaticAlone(t *testing.T) {
	t.Parallel()
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

func TestGuardDropsDeadSessionOnPublicPosts(t *testing.T) {
	t.Parallel()
	s, _ := guardFixture()
	for _, path := range []string{"/login", "/applications", "/prefs/lang", "/prefs/currency"} {
		req := httptest.NewRequest("POST", path, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "expired"})
		rec := httptest.NewRecorder()
		got, reached := auth.Principal{}, false
		tableWith(s, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reached = true
			okHandler(&got).ServeHTTP(w, r)
		})).ServeHTTP(rec, req)
		cleared := slices.ContainsFunc(rec.Result().Cookies(), func(c *http.Cookie) bool { return c.Name == SessionCookie && c.MaxAge < 0 })
		if rec.Code != http.StatusOK || !reached || got.UserID != 0 || !cleared {
			t.Errorf("POST %s: status %d principal %+v cleared %v: a public post with a dead cookie must reach the handler anonymously", path, rec.Code, got, cleared)
		}
	}
}

func TestGuardIframeSessionHeaders(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
		// Finance may not book trains (the booking page is an operator's),
		// so the entry that led to a refusal is gone.
		{"finance", viewer{LoggedIn: true, Principal: principal(2, subject([]string{auth.RoleFinance}, true, true))},
			[]string{"nav.wallet"}, []string{"nav.account"}},
		// An agency that may create sub-agencies manages them: its super
		// user and finance see Agency Management, its operator does not.
		{"agency super user managing sub-agencies", viewer{LoggedIn: true, Principal: principal(4, managing(auth.RoleSuperUser))},
			[]string{"nav.flights", "nav.groupTicket", "nav.trains", "nav.myBookings", "nav.wallet", "nav.agencyManagement"},
			[]string{"nav.userManagement", "nav.userLog", "nav.companyProfile", "nav.account"}},
		{"agency finance managing sub-agencies", viewer{LoggedIn: true, Principal: principal(5, managing(auth.RoleFinance))},
			[]string{"nav.wallet", "nav.agencyManagement"}, []string{"nav.account"}},
		{"agency operator of a managing agency", viewer{LoggedIn: true, Principal: principal(6, managing(auth.RoleOperator))},
			[]string{"nav.flights", "nav.groupTicket", "nav.trains", "nav.myBookings"}, []string{"nav.account"}},
		// The job console is the provider's SuperUser's alone: its
		// finance and operators, and an agency's SuperUser, see no entry.
		{"provider", viewer{LoggedIn: true, Principal: principal(3, provider)},
			[]string{"nav.flights", "nav.groupTicket", "nav.trains", "nav.myBookings", "nav.wallet", "nav.agencyManagement"},
			[]string{"nav.userManagement", "nav.userLog", "nav.companyProfile", "nav.jobConsole", "nav.account"}},
		{"provider finance", viewer{LoggedIn: true, Principal: principal(7, auth.Subject{Roles: []string{auth.RoleFinance}, Common: provider.Common})},
			[]string{"nav.wallet", "nav.agencyManagement"}, []string{"nav.account"}},
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
