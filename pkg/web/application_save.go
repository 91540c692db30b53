package web

import (
	"errors"
	"log/slog"
	"net"
	"net/http"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/partnership"
	"github.com/voyage/voyage/templates"
)

// applicationSave takes the partnership form. Without JavaScript it answers
// with a redirect (success) or the page with errors; under htmx it answers
// with the form section only, always 200 so htmx swaps it in.
func (s *Server) applicationSave(w http.ResponseWriter, r *http.Request) {
	htmx := r.Header.Get("HX-Request") == "true"
	var form templates.ApplicationForm
	if err := r.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		status := http.StatusBadRequest
		if errors.As(err, &tooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		form.ErrorKey = "application.error.failed"
		s.applicationAnswer(w, r, htmx, status, form)
		return
	}
	form.Values = partnership.Application{
		Name: r.PostForm.Get("name"), Email: r.PostForm.Get("email"), Phone: r.PostForm.Get("phone"),
		Country: r.PostForm.Get("country"), CompanyName: r.PostForm.Get("companyName"),
		CompanyAddress: r.PostForm.Get("companyAddress"), Website: r.PostForm.Get("website"), Remark: r.PostForm.Get("remark"),
	}.Normalize()
	_, err := s.applications.Submit(r.Context(), form.Values, partnership.Meta{
		Lang: i18n.Lang(r.Context()), IP: clientIP(r), UserAgent: r.UserAgent(),
	})
	if err == nil {
		if htmx {
			render(w, r, http.StatusOK, templates.ApplicationSection(templates.ApplicationForm{Submitted: true}))
			return
		}
		http.Redirect(w, r, "/?applied=1#apply", http.StatusSeeOther)
		return
	}
	fe := fault.From(err)
	switch {
	case len(fe.Fields) > 0:
		form.Errors = fe.Fields
	case fe.Code == fault.CodeRateLimited:
		form.ErrorKey = fe.Key
	default:
		slog.ErrorContext(r.Context(), "store partnership application", "err", err)
		form.ErrorKey = "application.error.failed"
	}
	s.applicationAnswer(w, r, htmx, fe.Status, form)
}

func (s *Server) applicationAnswer(w http.ResponseWriter, r *http.Request, htmx bool, status int, form templates.ApplicationForm) {
	if htmx {
		render(w, r, http.StatusOK, templates.ApplicationSection(form))
		return
	}
	if status == http.StatusBadRequest {
		status = http.StatusUnprocessableEntity
	}
	render(w, r, status, templates.HomePage(s.page(w, r, "home"), form))
}

// clientIP is the peer address. Deployments behind a proxy terminate there;
// trusting X-Forwarded-For from anyone would let a client pick its own IP and
// dodge the per-IP limits.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
