package web

import (
	"log/slog"
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/templates"
)

// profile is the account page. The path is public (spec §2 guard); a
// visitor sees a prompt to log in.
func (s *Server) profile(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if !v.LoggedIn {
		render(w, r, http.StatusOK, templates.ProfileLoginPrompt(s.page(w, r, "profile")))
		return
	}
	s.profileAnswer(w, r, http.StatusOK, v, templates.PasswordForm{}, nil)
}

// profileAnswer renders the profile page; edit, when set, puts a refused
// settings form's entries and errors over the stored values.
func (s *Server) profileAnswer(w http.ResponseWriter, r *http.Request, status int, v viewer, pw templates.PasswordForm, edit func(*templates.ProfileSettings)) {
	ctx := r.Context()
	u, err := s.identity.User(ctx, v.Principal.UserID)
	if err != nil {
		slog.ErrorContext(ctx, "profile: load user", "err", err)
		s.ServerError(w, r)
		return
	}
	sessions, err := s.identity.Sessions(ctx, v.Principal)
	if err != nil {
		slog.ErrorContext(ctx, "profile: list sessions", "err", err)
		s.ServerError(w, r)
		return
	}
	pr := templates.Profile{
		Username: u.Username, Email: u.Email, Nickname: u.Nickname, Roles: u.Roles(), Company: v.Agency.Name, Password: pw,
		Settings: profileSettings(u),
	}
	pr.Settings.AgencyZone = display.ZoneName(ctx, display.ResolveZone("", v.Agency.TimeZone), s.now())
	if s.travellers != nil {
		if pr.Settings.Travellers, err = s.travellerNames(ctx, v.Principal); err != nil {
			slog.ErrorContext(ctx, "profile: saved travellers", "err", err)
			s.ServerError(w, r)
			return
		}
	}
	if edit != nil {
		edit(&pr.Settings)
	}
	for _, se := range sessions {
		pr.Sessions = append(pr.Sessions, templates.SessionRow{ID: se.ID, CreatedAt: se.CreatedAt, LastSeenAt: se.LastSeenAt,
			IP: se.IP, UserAgent: se.UserAgent, Current: se.Current})
	}
	pg := s.page(w, r, "profile").WithStyles(travellersCSS)
	render(w, r, status, templates.ProfilePage(pg, pr))
}

// passwordChange takes the profile's change-password form.
func (s *Server) passwordChange(w http.ResponseWriter, r *http.Request) {
	v, ok := s.admitViewer(w, r, anyone)
	if !ok {
		return
	}
	err := s.identity.ChangePassword(r.Context(), v.Principal, r.PostFormValue("oldPassword"), r.PostFormValue("password"),
		r.PostFormValue("confirmPassword"), s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, "/profile", templates.Flash{Kind: "success", Key: "portal.password.changed"})
		return
	}
	var form templates.PasswordForm
	form.Errors, form.ErrorKey = throttledFormErrors(r.Context(), "change password", err)
	// 200 like the login form: the errors are shown inline (429 when the
	// throttle asks to wait).
	s.profileAnswer(w, r, formStatus(w, fault.From(err)), v, form, nil)
}

// sessionEnd ends another of the user's sessions, from the profile's list.
func (s *Server) sessionEnd(w http.ResponseWriter, r *http.Request) {
	v, ok := s.admitViewer(w, r, anyone)
	if !ok {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		s.redirectWithFlash(w, r, "/profile", templates.Flash{Kind: "error", Key: "error.notFound"})
		return
	}
	err = s.identity.EndSession(r.Context(), v.Principal, id, s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, "/profile", templates.Flash{Kind: "success", Key: "portal.sessions.ended"})
		return
	}
	fe := fault.From(err)
	if fe.Code == fault.CodeInternal {
		slog.ErrorContext(r.Context(), "end session", "err", err)
	}
	s.redirectWithFlash(w, r, "/profile", templates.Flash{Kind: "error", Key: fe.Key})
}
