package web

import (
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/templates"
)

// singleLoginParams are the query parameters of a single-login entry.
var singleLoginParams = []string{"code", "signature", "timestamp", "userid"}

func hasSingleLogin(q url.Values) bool {
	for _, k := range singleLoginParams {
		if q.Get(k) == "" {
			return false
		}
	}
	return true
}

// singleLogin is the single-login entry of spec §2: any portal page opened
// with code, signature, timestamp and userid logs the current user out,
// opens an iframe-mode session for the signed user and reloads the page
// without the four parameters.
func (s *Server) singleLogin(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	if s.identity == nil {
		s.redirectWithFlash(w, r, pathHome, templates.Flash{Kind: "error", Key: "sso.error.invalid"})
		return
	}
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		if p, err := s.identity.Authenticate(ctx, c.Value); err == nil {
			if err := s.identity.Logout(ctx, p, s.meta(r)); err != nil {
				slog.WarnContext(ctx, "single login: end previous session", "err", err)
			}
		}
	}
	s.clearSession(w)
	// Malformed numbers become 0, which SingleLogin rejects as invalid.
	ts, _ := strconv.ParseInt(q.Get("timestamp"), 10, 64)
	uid, _ := strconv.ParseInt(q.Get("userid"), 10, 64)
	res, err := s.identity.SingleLogin(ctx, auth.SSORequest{Code: q.Get("code"), Signature: q.Get("signature"), Timestamp: ts, UserID: uid}, s.meta(r))
	if fe, ok := fault.As(err); ok && fe.RetryAfter > 0 {
		// Throttled: the wait is part of the message, which a flash (a key
		// alone) cannot carry; the login page shows it with the 429.
		render(w, r, formStatus(w, fe), templates.LoginPage(s.page(w, r, "login"), templates.LoginForm{ErrorKey: i18n.WithArgs(fe.Key, fe.Args...)}))
		return
	}
	if err != nil {
		s.redirectWithFlash(w, r, pathHome, templates.Flash{Kind: "error", Key: singleLoginErrorKey(r, err)})
		return
	}
	s.setSession(w, res)
	if s.agencies != nil {
		if a, err := s.agencies.Get(ctx, res.Principal.AgencyID); err == nil {
			allowFraming(w, a)
		}
	}
	for _, k := range singleLoginParams {
		q.Del(k)
	}
	u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	to := safeNext(u.RequestURI())
	if res.Company.HideSSOMessage {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	s.redirectWithFlash(w, r, to, templates.Flash{Kind: "success", Key: "login.message.success"})
}

func singleLoginErrorKey(r *http.Request, err error) string {
	fe := fault.From(err)
	if fe.Code == fault.CodeInternal {
		slog.ErrorContext(r.Context(), "single login", "err", err)
		return "error.internal"
	}
	if len(fe.Fields) > 0 || !i18n.Has(r.Context(), fe.Key) {
		return "sso.error.invalid"
	}
	return fe.Key
}
