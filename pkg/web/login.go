package web

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/templates"
)

// loginPage shows the login form; a user already logged in goes to their
// landing page instead.
func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	if v := viewerFrom(r.Context()); v.LoggedIn {
		http.Redirect(w, r, v.Principal.Subject.LandingPath(), http.StatusSeeOther)
		return
	}
	render(w, r, http.StatusOK, templates.LoginPage(s.page(w, r, "login"), templates.LoginForm{}))
}

// login checks the form, opens a session and sends the user to the landing
// page of spec §2; errors come back inline on the form.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	form := templates.LoginForm{Username: r.PostFormValue("username")}
	if s.identity == nil {
		form.ErrorKey = "error.internal"
		s.loginAnswer(w, r, form)
		return
	}
	res, err := s.identity.Login(r.Context(), form.Username, r.PostFormValue("password"), s.meta(r))
	if err == nil {
		s.setSession(w, res)
		s.redirectWithFlash(w, r, res.Principal.Subject.LandingPath(), templates.Flash{Kind: "success", Key: "login.message.success"})
		return
	}
	form.Errors, form.ErrorKey = throttledFormErrors(r.Context(), "portal login", err)
	render(w, r, formStatus(w, fault.From(err)), templates.LoginPage(s.page(w, r, "login"), form))
}

// loginAnswer shows the form again with its errors. The status is 200, as
// for htmx answers: the page is a normal result for the user, and an error
// status would only add a console error in the browser.
func (s *Server) loginAnswer(w http.ResponseWriter, r *http.Request, form templates.LoginForm) {
	render(w, r, http.StatusOK, templates.LoginPage(s.page(w, r, "login"), form))
}

// formStatus is the status of a form shown again with fe's error: 200, but
// 429 with Retry-After when the throttle asks the user to wait, so that
// scripts driving the form are told to slow down as API callers are.
func formStatus(w http.ResponseWriter, fe *fault.Error) int {
	secs := fe.RetryAfterSeconds()
	if secs == 0 {
		return http.StatusOK
	}
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	return http.StatusTooManyRequests
}

// logout ends the session, from the user menu's form.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if !v.LoggedIn {
		s.clearSession(w)
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	if err := s.identity.Logout(r.Context(), v.Principal, s.meta(r)); err != nil {
		slog.ErrorContext(r.Context(), "portal logout", "err", err)
		s.ServerError(w, r)
		return
	}
	s.clearSession(w)
	s.redirectWithFlash(w, r, "/", templates.Flash{Kind: "success", Key: "login.message.logout"})
}

// throttledFormErrors is formErrors for the forms the login throttle
// guards: its message carries the wait (i18n.WithArgs).
func throttledFormErrors(ctx context.Context, what string, err error) (map[string]string, string) {
	fields, key := formErrors(ctx, what, err)
	if fe := fault.From(err); len(fe.Fields) == 0 && fe.Code != fault.CodeInternal {
		key = i18n.WithArgs(fe.Key, fe.Args...)
	}
	return fields, key
}
