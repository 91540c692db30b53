package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/templates"
)

// CurrencyCookie holds the footer's display currency.
const CurrencyCookie = "currency"

const prefMaxAge = 365 * 24 * time.Hour

func (s *Server) prefsLang(w http.ResponseWriter, r *http.Request) {
	lang := i18n.Normalize(r.PostFormValue("lang"))
	if lang == "" {
		s.redirectWithFlash(w, r, safeNext(r.PostFormValue("next")), templates.Flash{Kind: "error", Key: "error.validation"})
		return
	}
	s.setCookie(w, server.LangCookie, lang, prefMaxAge)
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

func (s *Server) prefsCurrency(w http.ResponseWriter, r *http.Request) {
	cur := strings.ToUpper(strings.TrimSpace(r.PostFormValue("currency")))
	info, err := s.site.Get(r.Context())
	if err != nil || !slices.Contains(info.Currencies, cur) {
		s.redirectWithFlash(w, r, safeNext(r.PostFormValue("next")), templates.Flash{Kind: "error", Key: "error.validation"})
		return
	}
	s.setCookie(w, CurrencyCookie, cur, prefMaxAge)
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

// currency is the display currency: the cookie if it names a site currency,
// else the site default.
func (s *Server) currency(r *http.Request, info siteinfo.Info) string {
	if c, err := r.Cookie(CurrencyCookie); err == nil && slices.Contains(info.Currencies, c.Value) {
		return c.Value
	}
	return info.DefaultCurrency
}

// safeNext keeps redirects on this site: only a local absolute path passes.
func safeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") ||
		strings.HasPrefix(next, "/\\") || u.Scheme != "" || u.Host != "" {
		return "/"
	}
	return u.RequestURI()
}

func (s *Server) setCookie(w http.ResponseWriter, name, value string, maxAge time.Duration) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: "/", MaxAge: int(maxAge.Seconds()),
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode,
	})
}
