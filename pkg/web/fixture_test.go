package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/store"
)

// testSite is the site settings the pages need, on db; rates are the
// approximate amounts' exchange rates, nil for none.
func testSite(db *store.DB, rates map[string]string) *siteinfo.Service {
	return siteinfo.New(config.SiteConfig{Name: "Voyage", ShortName: "Voyage", DefaultCurrency: "CNY", DefaultLanguage: "en",
		Currencies: config.Currencies, Rates: rates}, db)
}

// inEnglish serves h with every request read in English, unless the
// request asks for a language with Accept-Language (a test of a page in
// Chinese).
func inEnglish(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lang := i18n.Negotiate("", r.Header.Get("Accept-Language"), i18n.EN)
		h.ServeHTTP(w, r.WithContext(i18n.WithLocalizer(r.Context(), refusalCatalog, lang)))
	})
}

// portal is s as Register mounts it, behind its guard, in English.
func portal(s *Server) http.Handler {
	mux := http.NewServeMux()
	s.Register(mux)
	return inEnglish(s.Guard(mux))
}

// crossOriginPortal is portal as the app serves it: cross-site posts are
// refused before the portal.
func crossOriginPortal(s *Server) http.Handler {
	mux := http.NewServeMux()
	s.Register(mux)
	return inEnglish(server.CrossOrigin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
	}))(s.Guard(mux)))
}

// portalEnv is a portal on a test database holding orders of one line,
// known by name.
type portalEnv struct {
	h      http.Handler
	db     *store.DB
	ids    map[string]int64      // the order's name (its booking number, its agency's token) → its id
	hrefOf func(id int64) string // the order's page
}

// href is the page of the order named name.
func (e *portalEnv) href(name string) string { return e.hrefOf(e.ids[name]) }

// page GETs path as token and answers the status and body.
func (e *portalEnv) page(t *testing.T, token, path string, hdr ...string) (int, string) {
	return pageAs(t, e.h, token, path, hdr...)
}

// okPage is the body of page, which must answer 200.
func (e *portalEnv) okPage(t *testing.T, token, path string, hdr ...string) string {
	t.Helper()
	code, body := e.page(t, token, path, hdr...)
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	return body
}

// refusal is a request a route's rule turns away with wantFlash
// ("error:<key>").
type refusal struct {
	name, token, method, path string
	form                      url.Values
	wantFlash                 string
}

// checkRefusals sends each refusal to h and checks the answer is the
// rule's (checkRefused).
func checkRefusals(t *testing.T, h http.Handler, rs []refusal) {
	t.Helper()
	for _, tt := range rs {
		t.Run(tt.name, func(t *testing.T) {
			checkRefused(t, tt.method, send(h, tt.token, tt.method, tt.path, tt.form), tt.wantFlash)
		})
	}
}

// serveAs has h answer req, sent as the session token ("" for a visitor).
func serveAs(h http.Handler, token string, req *http.Request) *http.Response {
	if token != "" {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: token})
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}
