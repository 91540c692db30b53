package web

import (
	"net/http"

	"github.com/voyage/voyage/pkg/config"
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

// inEnglish serves h with every request read in English.
func inEnglish(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(withEnglish(r.Context())))
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
