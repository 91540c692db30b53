package web

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/templates"
)

// UserAdmin is what user management and the user log need of pkg/auth;
// *auth.Service implements it. Every call stays inside the actor's agency.
type UserAdmin interface {
	ListUsers(ctx context.Context, agencyID int64, f auth.UserFilter) ([]auth.User, int, error)
	User(ctx context.Context, id int64) (auth.User, error)
	CreateUserIn(ctx context.Context, actor auth.Principal, n auth.NewUser, m auth.Meta) (auth.User, error)
	UpdateUser(ctx context.Context, actor auth.Principal, id int64, c auth.UserChanges, m auth.Meta) (auth.User, error)
	DeactivateUser(ctx context.Context, actor auth.Principal, id int64, m auth.Meta) (auth.User, error)
	UserLog(ctx context.Context, agencyID int64, f audit.Filter) ([]audit.Entry, int, error)
}

// CompanyAdmin is what the company profile page needs of pkg/agency;
// *agency.Store implements it.
type CompanyAdmin interface {
	Get(ctx context.Context, id int64) (agency.Agency, error)
	UpdateCompany(ctx context.Context, actor auth.Principal, agencyID int64, u agency.CompanyUpdate, m auth.Meta) (agency.Agency, error)
	SetLogo(ctx context.Context, actor auth.Principal, agencyID int64, data []byte, m auth.Meta) (string, error)
}

// adminViewer is the caller of a SuperUser page, whom the route's rule
// (SuperUserOnly) has admitted; without the services the page answers 500.
func (s *Server) adminViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	ready := s.userAdmin != nil && s.companyAdmin != nil
	if !ready {
		slog.ErrorContext(r.Context(), "admin pages: services not configured")
	}
	return s.lineViewer(w, r, ready)
}

// usersPage is GET /users; ?edit=<id> opens the edit form of a user.
func (s *Server) usersPage(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	view := templates.UsersView{Create: adminNewUserForm()}
	if raw := r.URL.Query().Get("edit"); raw != "" {
		u, err := s.adminAgencyUser(r.Context(), v, raw)
		if err != nil {
			s.adminFault(w, r, pathUsers, err, "users: load user to edit")
			return
		}
		form := adminEditForm(u)
		view.Edit = &form
	}
	s.usersAnswer(w, r, v, view)
}

func adminNewUserForm() templates.UserForm {
	return templates.UserForm{AreaCode: "86", Status: auth.StatusActive}
}

func adminEditForm(u auth.User) templates.UserForm {
	return templates.UserForm{ID: u.ID, Username: u.Username, Email: u.Email, Nickname: u.Nickname, AreaCode: u.AreaCode,
		Mobile: u.Mobile, Roles: u.Roles(), Status: u.Status}
}

// usersAnswer lists the users the query asks for around the forms of view.
func (s *Server) usersAnswer(w http.ResponseWriter, r *http.Request, v viewer, view templates.UsersView) {
	ctx := r.Context()
	q := r.URL.Query()
	f := templates.UserListFilter{Keyword: adminClip(q.Get("keyword"), 64), Status: q.Get("status")}
	switch f.Status {
	case auth.StatusActive, auth.StatusInactive, auth.StatusTesting:
	default:
		f.Status = ""
	}
	page, _ := strconv.Atoi(q.Get("page"))
	page, size := auth.ClampPage(page, 0)
	f.Page = page
	users, total, err := s.userAdmin.ListUsers(ctx, v.Principal.AgencyID, auth.UserFilter{Keyword: f.Keyword, Status: f.Status, Page: page, PageSize: size})
	if err != nil {
		slog.ErrorContext(ctx, "users: list", "err", err)
		s.ServerError(w, r)
		return
	}
	view.Filter, view.Total = f, total
	view.Pager = templates.NewPager(f.PageURL(1), page, size, total)
	for _, u := range users {
		view.Rows = append(view.Rows, templates.UserRow{ID: u.ID, Username: u.Username, Nickname: u.Nickname, Email: u.Email,
			AreaCode: u.AreaCode, Mobile: u.Mobile, Roles: u.Roles(), Status: u.Status, CreatedAt: u.CreatedAt, Self: u.ID == v.Principal.UserID})
	}
	render(w, r, http.StatusOK, templates.UsersPage(s.page(w, r, "users"), view))
}

// userCreate takes the add-user form.
func (s *Server) userCreate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	form := templates.UserForm{
		Username: adminClip(r.PostFormValue("username"), 64), Email: adminClip(r.PostFormValue("email"), 200),
		Nickname: r.PostFormValue("nickname"), AreaCode: strings.TrimSpace(r.PostFormValue("areaCode")),
		Mobile: strings.TrimSpace(r.PostFormValue("mobile")), Roles: r.PostForm["roles"], Status: r.PostFormValue("status"),
	}
	_, err := s.userAdmin.CreateUserIn(r.Context(), v.Principal, auth.NewUser{
		Username: form.Username, Email: form.Email, Nickname: form.Nickname, AreaCode: form.AreaCode, Mobile: form.Mobile,
		Roles: form.Roles, Status: form.Status, Password: r.PostFormValue("password"),
	}, s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, pathUsers, templates.Flash{Kind: "success", Key: "admin.users.flash.created"})
		return
	}
	form.Errors, form.ErrorKey = formErrors(r.Context(), "users: create", err)
	// 200 like the login form: the errors are shown inline.
	s.usersAnswer(w, r, v, templates.UsersView{Create: form})
}

// userUpdate takes a user's edit form. Username and email are not read: they
// cannot change.
func (s *Server) userUpdate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	id, err := adminID(r.PathValue("id"))
	if err != nil {
		s.NotFound(w, r)
		return
	}
	nickname, areaCode, mobile, status := r.PostFormValue("nickname"), r.PostFormValue("areaCode"), r.PostFormValue("mobile"), r.PostFormValue("status")
	roles := r.PostForm["roles"]
	if roles == nil {
		roles = []string{}
	}
	_, err = s.userAdmin.UpdateUser(r.Context(), v.Principal, id, auth.UserChanges{
		Nickname: &nickname, AreaCode: &areaCode, Mobile: &mobile, Roles: &roles, Status: &status,
	}, s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, pathUsers, templates.Flash{Kind: "success", Key: "admin.users.flash.saved"})
		return
	}
	if fe := fault.From(err); fe.Code == fault.CodeNotFound {
		// Another agency's user, or none: the address names nothing the
		// caller has.
		s.NotFound(w, r)
		return
	} else if len(fe.Fields) == 0 {
		s.adminFault(w, r, pathUsers, err, "users: update")
		return
	}
	u, lerr := s.adminAgencyUser(r.Context(), v, r.PathValue("id"))
	if lerr != nil {
		s.adminFault(w, r, pathUsers, lerr, "users: reload user")
		return
	}
	form := adminEditForm(u)
	form.Nickname, form.AreaCode, form.Mobile, form.Roles, form.Status = nickname, areaCode, mobile, roles, status
	form.Errors, form.ErrorKey = formErrors(r.Context(), "users: update", err)
	s.usersAnswer(w, r, v, templates.UsersView{Create: adminNewUserForm(), Edit: &form})
}

// userDeactivate makes a user inactive, from the list's confirmation.
func (s *Server) userDeactivate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	id, err := adminID(r.PathValue("id"))
	if err == nil {
		_, err = s.userAdmin.DeactivateUser(r.Context(), v.Principal, id, s.meta(r))
	}
	if fault.From(err).Code == fault.CodeNotFound {
		s.NotFound(w, r)
		return
	}
	if err != nil {
		s.adminFault(w, r, pathUsers, err, "users: deactivate")
		return
	}
	s.redirectWithFlash(w, r, pathUsers, templates.Flash{Kind: "success", Key: "admin.users.flash.deactivated"})
}

// adminAgencyUser loads user raw of the viewer's agency; any other is not found.
func (s *Server) adminAgencyUser(ctx context.Context, v viewer, raw string) (auth.User, error) {
	id, err := adminID(raw)
	if err != nil {
		return auth.User{}, err
	}
	u, err := s.userAdmin.User(ctx, id)
	if err != nil {
		return auth.User{}, err
	}
	if u.AgencyID != v.Principal.AgencyID {
		return auth.User{}, fault.NotFound("")
	}
	return u, nil
}

func adminID(raw string) (int64, error) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, fault.NotFound("")
	}
	return id, nil
}

// adminFault sends the user back to to with err's message as a flash; a
// field error shows its first field's message.
func (s *Server) adminFault(w http.ResponseWriter, r *http.Request, to string, err error, what string) {
	fe := fault.From(err)
	key := fe.Key
	for _, k := range fe.Fields {
		key = k
		break
	}
	if fe.Code == fault.CodeInternal || key == "" {
		slog.ErrorContext(r.Context(), what, "err", err)
		key = "error.internal"
	}
	s.redirectWithFlash(w, r, to, templates.Flash{Kind: "error", Key: key})
}

// adminClip trims s and cuts it to n runes.
func adminClip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// adminLogActions are the user-log actions the filter offers, listed by
// what they read as (audit.ActionName): identity, users and profile, the
// agencies managed, then flight, train and group orders. Router-recorded
// actions are the OpenAPI operation ids.
var adminLogActions = []string{
	audit.ActionLogin, audit.ActionLoginFailed, audit.ActionLogout, audit.ActionSingleLogin,
	audit.ActionPasswordChange, audit.ActionPasswordReset, audit.ActionSessionRevoke,
	auth.ActionUserCreate, auth.ActionUserUpdate, auth.ActionUserDeactivate, auth.ActionUserStatus,
	agency.ActionCompanyUpdate, agency.ActionCompanyLogo,
	"profile.update", "profile.avatar", "profile.config",
	"profile.passenger.create", "profile.passenger.update", "profile.passenger.delete",
	"profile.card.create", "profile.card.update", "profile.card.delete",
	"agency.create", "agency.update", "agency.config", "agency.credit", "agency.funds", "agency.active", "agency.blocked", "agency.delete",
	"createAgencyAPIKey", "revokeAgencyAPIKey", "rotateAgencyWebhookSecret", "redeliverAgencyWebhook",
	"createStatement", "createSubStatement", "setExchangeRate", "retryJob", "retryStuckJobs",
	"createFlightOrder", "payFlightOrder", "cancelFlightOrder", "refundFlightOrder", "changeFlightOrder", "voidFlightOrder",
	"confirmFlightOrder", "flightOrderAction", "reviewFlightOrder", "recordFlightDisruption",
	"createTrainOrder", "payTrainOrder", "cancelTrainOrder", "trainRefundQuote", "trainChangeQuote", "confirmTrainQuote",
	"dropTrainQuote", "confirmTrainTickets",
	"group.request", "group.quote", "group.accept", "group.decline", "group.confirm", "group.upload", "group.apply",
	"group.grant", "group.refuse", "group.pay", "group.cancel", "group.close", "group.expire", "group.miss", "group.ticketed",
	"quoteGroupOrder", "closeGroupOrder", "groupOrderSeats",
}

// userLogPage is GET /user-log: the agency's log, newest first. Dates are
// days in the user's time zone; to is inclusive.
func (s *Server) userLogPage(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	q := r.URL.Query()
	f := templates.UserLogFilter{Username: adminClip(q.Get("username"), 64), Action: adminClip(q.Get("action"), 64),
		From: adminClip(q.Get("from"), 10), To: adminClip(q.Get("to"), 10)}
	page, _ := strconv.Atoi(q.Get("page"))
	page, size := auth.ClampPage(page, 0)
	f.Page = page
	view := templates.UserLogView{Filter: f, Errors: map[string]string{}}
	for _, a := range adminLogActions {
		view.Actions = append(view.Actions, templates.UserLogAction{Code: a, Label: audit.ActionName(ctx, a)})
	}
	af := audit.Filter{Username: f.Username, Action: f.Action, Page: page, PageSize: size}
	af.From, af.To = viewerDays(ctx, f.From, f.To, "user.error.logDate", view.Errors)
	if len(view.Errors) == 0 {
		entries, total, err := s.userAdmin.UserLog(ctx, v.Principal.AgencyID, af)
		if err != nil {
			slog.ErrorContext(ctx, "user log: list", "err", err)
			s.ServerError(w, r)
			return
		}
		view.Total = total
		for _, e := range entries {
			view.Rows = append(view.Rows, templates.UserLogRow{At: e.CreatedAt, Username: e.Username, Action: e.Action,
				Sentence: audit.Sentence(ctx, e), IP: e.IP})
		}
	}
	view.Pager = templates.NewPager(f.PageURL(1), page, size, view.Total)
	render(w, r, http.StatusOK, templates.UserLogPage(s.page(w, r, "user-log"), view))
}
