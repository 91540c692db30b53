package web

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/server"
)

// SessionCookie is the login cookie. It is the same name as api.SessionCookie
// (the API accepts the portal's cookie); duplicated here so the portal does
// not depend on the API package.
const SessionCookie = "voyage_session"

// Authenticator resolves a session token; it is all the navigation guard
// needs of pkg/auth.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (auth.Principal, error)
}

// Identity is what the portal's login, logout, single-login and account pages
// need of pkg/auth; *auth.Service implements it.
type Identity interface {
	Authenticator
	Login(ctx context.Context, username, password string, m auth.Meta) (auth.LoginResult, error)
	SingleLogin(ctx context.Context, r auth.SSORequest, m auth.Meta) (auth.LoginResult, error)
	Logout(ctx context.Context, p auth.Principal, m auth.Meta) error
	ChangePassword(ctx context.Context, p auth.Principal, current, next, confirm string, m auth.Meta) error
	Sessions(ctx context.Context, p auth.Principal) ([]auth.SessionInfo, error)
	EndSession(ctx context.Context, p auth.Principal, id int64, m auth.Meta) error
	User(ctx context.Context, id int64) (auth.User, error)
}

// Agencies looks up the logged-in user's agency (name, branding, the hosts
// that may frame the portal); *agency.Store implements it.
type Agencies interface {
	Get(ctx context.Context, id int64) (agency.Agency, error)
}

// viewer is who is looking at a portal page.
type viewer struct {
	LoggedIn  bool
	Principal auth.Principal
	Agency    agency.Agency // zero when logged out or not found
	// Ended is the message of a session that has just ended (expired,
	// revoked, replaced): the guard dropped its cookie and the caller is
	// now a visitor.
	Ended string
}

type viewerKey struct{}

func withViewer(ctx context.Context, v viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// today is the viewer's agency's date (booking.Today): the first day a
// departure may be, the issue date of its documents.
func (s *Server) today(v viewer) time.Time { return booking.Today(s.now(), v.Agency) }

func viewerFrom(ctx context.Context) viewer {
	v, _ := ctx.Value(viewerKey{}).(viewer)
	return v
}

// sessionEnded reports the codes that force a logout (spec §8).
func sessionEnded(code int) bool {
	return code == fault.CodeSessionExpired || code == fault.CodeSessionInvalid || code == fault.CodeLoggedOutByOther
}

// endedSessionKey is the message of a forced logout: 201001 says another
// login replaced the session, the others ask to log in again.
func endedSessionKey(fe *fault.Error) string {
	switch {
	case fe.Code == fault.CodeLoggedOutByOther:
		return "session.error.replaced"
	case fe.Key == "login.error.agencyBlocked":
		return fe.Key
	}
	return "axios.login.timeout"
}

// allowed reports whether v may open href; menus use it so they never
// offer a page that bounces.
func allowed(href string, v viewer) bool {
	rt, ok := routeFor(http.MethodGet, href)
	return !ok || rt.Access.Public() || (v.LoggedIn && rt.Access.Allows(v.Principal.Subject))
}

// portalPath reports whether path is the portal's to guard: the API, static
// files and the operational endpoints authenticate (or not) on their own.
func portalPath(p string) bool {
	for _, prefix := range []string{"/static/", "/base/", "/order/", "/shopping/", "/payment/"} {
		if strings.HasPrefix(p, prefix) {
			return false
		}
	}
	switch p {
	case "/healthz", "/readyz", "/openapi.json":
		return false
	}
	return true
}

func (s *Server) meta(r *http.Request) auth.Meta {
	return auth.Meta{IP: clientIP(r), UserAgent: r.UserAgent()}
}

// setSession stores a new session's token. Iframe sessions live inside an
// agency's page, a third-party context where a Lax cookie is never sent; on
// HTTPS they use SameSite=None with a partitioned (CHIPS) cookie, which the
// browser keeps apart per embedding site.
func (s *Server) setSession(w http.ResponseWriter, res auth.LoginResult) {
	c := &http.Cookie{
		Name: SessionCookie, Value: res.Token, Path: "/", Expires: res.ExpiresAt,
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode,
	}
	if res.Principal.Iframe && s.secureCookies {
		c.SameSite, c.Partitioned = http.SameSiteNoneMode, true
	}
	http.SetCookie(w, c)
}

// clearSession deletes the session cookie (both forms setSession may have
// used).
func (s *Server) clearSession(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	if s.secureCookies {
		http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
			HttpOnly: true, Secure: true, SameSite: http.SameSiteNoneMode, Partitioned: true})
	}
}

// hostSource is what may stand in a CSP frame-ancestors list: a scheme and
// host (wildcard subdomain and port allowed). Anything else, such as a space
// or a semicolon that would smuggle in a directive, is dropped.
var hostSource = regexp.MustCompile(`^(https?://)?(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?$`)

// iframeCSP is pkg/server's policy with frame-ancestors widened to the
// agency's allowed hosts: an iframe session may be embedded by its agency's
// own site and nobody else's.
func iframeCSP(hosts []string) string {
	var out []string
	for _, d := range strings.Split(server.ContentSecurityPolicy, ";") {
		d = strings.TrimSpace(d)
		if d == "" || strings.HasPrefix(d, "frame-ancestors") {
			continue
		}
		out = append(out, d)
	}
	ancestors := "frame-ancestors 'self'"
	for _, h := range hosts {
		if hostSource.MatchString(h) {
			ancestors += " " + h
		}
	}
	return strings.Join(append(out, ancestors), "; ")
}

// allowFraming replaces the baseline framing headers for an iframe session.
func allowFraming(w http.ResponseWriter, a agency.Agency) {
	w.Header().Set("Content-Security-Policy", iframeCSP(a.AllowedHosts()))
	w.Header().Del("X-Frame-Options")
}
