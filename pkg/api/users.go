package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

// managedUser is the answer of a step that changes a user: the user as
// the API writes it, or the step's error.
func managedUser(u auth.User, err error) (ManagedUser, error) {
	if err != nil {
		return ManagedUser{}, err
	}
	return auth.ManagedUserOf(u), nil
}

// ManagedUser and CreateUserRequest are a user as user management writes
// it out and takes it in (auth.ManagedUser).
type (
	ManagedUser       = auth.ManagedUser
	CreateUserRequest = auth.CreateUserRequest
)

// UpdateUserRequest is PUT /base/v2/users/{id}: the create body less username
// and email. Absent fields keep their value. Username and email never change:
// if sent they must equal the current value, otherwise the request is refused
// (user.error.usernameFixed / user.error.emailFixed).
type UpdateUserRequest struct {
	Username *string `json:"username,omitempty" jsonschema_description:"cannot change; refused when different"`
	Email    *string `json:"email,omitempty" jsonschema_description:"cannot change; refused when different"`
	// Nickname is the user's new nickname, at most 50 characters.
	Nickname *string `json:"nickname,omitempty"`
	// Mobile is the user's new mobile number without the country calling
	// code: 5 to 20 digits, spaces or dashes, starting with a digit; ""
	// clears it.
	Mobile *string `json:"mobile,omitempty"`
	// AreaCode is the country calling code of mobile, 1 to 4 digits
	// without the +.
	AreaCode *string `json:"areaCode,omitempty"`
	// Role replaces the user's roles: at least one of operator, finance and
	// SuperUser. Nobody may drop their own SuperUser role, and the agency's
	// super admin keeps it.
	Role *[]string `json:"role,omitempty"`
	// Status is the user's new status: active, inactive (may not log in;
	// the user's sessions end at once) or testing (a test account, which
	// may log in). Nobody may deactivate themself or the super admin.
	Status   *string `json:"status,omitempty" jsonschema:"enum=active,enum=inactive,enum=testing"`
	Password string  `json:"password,omitempty" jsonschema_description:"sets a new password and ends the user's sessions; not for one's own account"`
}

var pagingParams = []Param{
	{Name: "page", Type: "integer", Description: "1-based page; default 1"},
	{Name: "pageSize", Type: "integer", Description: "items per page; default 20, at most 100"},
}

// pageFromQuery reads page and pageSize; missing or unusable values fall back
// to the defaults and pageSize is capped at 100.
func pageFromQuery(r *http.Request) (int, int) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	size, _ := strconv.Atoi(r.URL.Query().Get("pageSize"))
	return auth.ClampPage(page, size)
}

var usersQuery = append([]Param{
	{Name: "keyword", Type: "string", Description: "part of the username, nickname or email"},
	{Name: "status", Type: "string", Description: "active, inactive or testing"},
	{Name: "role", Type: "string", Description: "operator, finance or SuperUser"},
}, pagingParams...)

// userPage is a page of agencyID's users filtered by the request's query.
func (s Services) userPage(r *http.Request, agencyID int64) (UserPage, error) {
	q := r.URL.Query()
	page, size := pageFromQuery(r)
	keyword := q.Get("keyword")
	if keyword == "" {
		keyword = q.Get("username")
	}
	users, total, err := s.Auth.ListUsers(r.Context(), agencyID, auth.UserFilter{
		Keyword: keyword, Status: q.Get("status"), Role: q.Get("role"), Page: page, PageSize: size})
	if err != nil {
		return UserPage{}, err
	}
	return UserPageOf(users, total, page, size), nil
}

// UserPageOf is a page of users as the API writes it.
func UserPageOf(users []auth.User, total, page, size int) UserPage {
	out := UserPage{Items: make([]ManagedUser, 0, len(users)), Total: total, Page: page, PageSize: size}
	for _, u := range users {
		out.Items = append(out.Items, auth.ManagedUserOf(u))
	}
	return out
}

// registerUsers adds user management and the user log. The spec leaves the
// role of the users route open (§2 "not listed"); managing users is an
// administrator's job, so these routes need a SuperUser, as the user log and
// company routes do. Every route works only inside the caller's own agency.
func registerUsers(rt *Router, s Services) {
	superOnly := func(op Operation) Operation {
		op.Tag = "users"
		op.Role = auth.RoleSuperUser
		op.UserOnly = true
		op.Errors = append(op.Errors, fault.CodeNoAccess, fault.CodeSessionInvalid)
		return op
	}

	rt.Handle("GET /base/v2/users", superOnly(Operation{
		ID:       "listUsers",
		Summary:  "The users of the caller's agency, filtered by keyword (username, nickname or email), status and role",
		Response: UserPage{}, Query: usersQuery,
	}), func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.userPage(r, Principal(r).AgencyID)
	})

	rt.Handle("POST /base/v2/users", superOnly(Operation{
		ID: "createUser", SelfAudited: true, Status: http.StatusCreated,
		Summary: "Create a user in the caller's agency; a role is required, the password is 6–15 characters and not one of the 10,000 most common",
		Request: CreateUserRequest{}, Response: ManagedUser{},
	}), withBodyAudited(func(ctx context.Context, p auth.Principal, req CreateUserRequest, m auth.Meta) (ManagedUser, error) {
		return managedUser(s.Auth.CreateUserIn(ctx, p, req.NewUser(), m))
	}))

	rt.Handle("PUT /base/v2/users/{id}", superOnly(Operation{
		ID: "updateUser", SelfAudited: true,
		Summary: "Update a user of the caller's agency: nickname, mobile, area code, roles, status, password. " +
			"Username and email cannot change; nobody can deactivate themself or drop their own SuperUser role",
		Request: UpdateUserRequest{}, Response: ManagedUser{},
		Errors: []int{fault.CodeNotFound},
	}), onIDWithAudited(func(ctx context.Context, p auth.Principal, id int64, req UpdateUserRequest, m auth.Meta) (ManagedUser, error) {
		return managedUser(s.Auth.UpdateUser(ctx, p, id, auth.UserChanges{Username: req.Username, Email: req.Email,
			Nickname: req.Nickname, Mobile: req.Mobile, AreaCode: req.AreaCode, Roles: req.Role, Status: req.Status, Password: req.Password}, m))
	}))

	rt.Handle("POST /base/v2/users/{id}/deactivate", superOnly(Operation{
		ID: "deactivateUser", SelfAudited: true,
		Summary:  "Deactivate a user of the caller's agency: status inactive, and the user's sessions end at once",
		Response: ManagedUser{},
		Errors:   []int{fault.CodeNotFound},
	}), onIDAudited(func(ctx context.Context, p auth.Principal, id int64, m auth.Meta) (ManagedUser, error) {
		return managedUser(s.Auth.DeactivateUser(ctx, p, id, m))
	}))

	rt.Handle("GET /base/v2/user-logs", superOnly(Operation{
		ID:       "listUserLogs",
		Summary:  "The user log of the caller's agency, newest first: logins, password changes and every state-changing call; each entry's summary is the sentence the portal shows, in the request's language",
		Response: UserLogPage{},
		Query: append([]Param{
			{Name: "username", Type: "string", Description: "exact username"},
			{Name: "action", Type: "string", Description: "exact action, such as login or user.create"},
			{Name: "from", Type: "string", Description: "first day, YYYY-MM-DD" + daysNote},
			{Name: "to", Type: "string", Description: "last day, YYYY-MM-DD, inclusive" + daysNote},
		}, pagingParams...),
	}), func(w http.ResponseWriter, r *http.Request) (any, error) {
		q := r.URL.Query()
		page, size := pageFromQuery(r)
		loc, err := s.agencyZone(r)
		if err != nil {
			return nil, err
		}
		errs := map[string]string{}
		from, to := dayFilter(r, loc, "user.error.logDate", errs)
		if len(errs) > 0 {
			return nil, fault.Validation(errs)
		}
		entries, total, err := s.Auth.UserLog(r.Context(), Principal(r).AgencyID, audit.Filter{
			Username: q.Get("username"), Action: q.Get("action"), From: from, To: to, Page: page, PageSize: size})
		if err != nil {
			return nil, err
		}
		for i := range entries {
			entries[i].Summary = audit.Sentence(r.Context(), entries[i])
		}
		return UserLogPage{Items: entries, Total: total, Page: page, PageSize: size}, nil
	})
}
