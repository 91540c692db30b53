package web

import (
	"net/http"

	"github.com/voyage/voyage/templates"
)

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	p := s.page(w, r, "home")
	form := templates.ApplicationForm{Submitted: r.URL.Query().Get("applied") == "1"}
	render(w, r, http.StatusOK, templates.HomePage(p, form))
}

func (s *Server) legal(which string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := s.page(w, r, which)
		render(w, r, http.StatusOK, templates.LegalPage(p, which))
	}
}
