package templates

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/i18n"
)

// UserRoles are the roles a SuperUser may give (spec §6), in the order the
// checkboxes show them.
var UserRoles = auth.Roles

// UserStatuses are a user's statuses (spec §3), in the order the selects
// show them.
var UserStatuses = []string{auth.StatusActive, auth.StatusInactive, auth.StatusTesting}

// UsersView is the user management page: one page of the agency's users,
// the add form and, when a user is being edited, the edit form.
type UsersView struct {
	Filter UserListFilter
	Rows   []UserRow
	Total  int
	Pager  Pager
	Create UserForm
	Edit   *UserForm // nil when no user is being edited
}

// UserListFilter is the list's search box, status filter and page.
type UserListFilter struct {
	Keyword string
	Status  string
	Page    int
}

// Query is the filter as a query string, without the page.
func (f UserListFilter) Query() url.Values {
	q := url.Values{}
	if f.Keyword != "" {
		q.Set("keyword", f.Keyword)
	}
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	return q
}

// PageURL is /users with the filter at page n.
func (f UserListFilter) PageURL(n int) string {
	q := f.Query()
	if n > 1 {
		q.Set("page", strconv.Itoa(n))
	}
	return adminWithQuery("/users", q)
}

// EditURL opens the edit form of user id, keeping the list as it is.
func (f UserListFilter) EditURL(id int64) string {
	q := f.Query()
	if f.Page > 1 {
		q.Set("page", strconv.Itoa(f.Page))
	}
	q.Set("edit", strconv.FormatInt(id, 10))
	return adminWithQuery("/users", q) + "#edit-user"
}

// UserRow is one user of the list.
type UserRow struct {
	ID        int64
	Username  string
	Nickname  string
	Email     string
	AreaCode  string
	Mobile    string
	Roles     []string
	Status    string
	CreatedAt time.Time
	Self      bool // the logged-in user, who cannot deactivate themself
}

// UserForm is the add or edit form's state. Username and Email are read-only
// when editing.
type UserForm struct {
	ID       int64 // 0: a new user
	Username string
	Email    string
	Nickname string
	AreaCode string
	Mobile   string
	Roles    []string
	Status   string
	Errors   map[string]string // field → catalog key
	ErrorKey string            // a message for the whole form
}

// HasRole reports whether role is ticked.
func (f UserForm) HasRole(role string) bool { return slices.Contains(f.Roles, role) }

// Has reports whether the form has an error for field.
func (f UserForm) Has(field string) bool { return hasError(f.Errors, field) }

// UserLogView is the user log page.
type UserLogView struct {
	Filter  UserLogFilter
	Rows    []UserLogRow
	Total   int
	Pager   Pager
	Errors  map[string]string // from, to → catalog key
	Actions []UserLogAction   // the actions the filter offers
}

// UserLogAction is an action the log's filter offers: its code, sent as
// the filter, and what it reads as ("Booked a flight order").
type UserLogAction struct {
	Code  string
	Label string
}

// UserLogFilter is the log's filter form as typed.
type UserLogFilter struct {
	Username string
	Action   string
	From     string // YYYY-MM-DD
	To       string // YYYY-MM-DD, inclusive
	Page     int
}

// PageURL is /user-log with the filter at page n.
func (f UserLogFilter) PageURL(n int) string {
	q := url.Values{}
	for k, v := range map[string]string{"username": f.Username, "action": f.Action, "from": f.From, "to": f.To} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if n > 1 {
		q.Set("page", strconv.Itoa(n))
	}
	return adminWithQuery("/user-log", q)
}

// UserLogRow is one line of the user log.
type UserLogRow struct {
	At       time.Time
	Username string
	Action   string // the code, kept as data-action for scripts and tests
	Sentence string // what happened, in the reader's language
	IP       string
}

// CompanyView is the company profile page.
type CompanyView struct {
	Code       string
	ProxyLevel int
	LogoURL    string // "" when the company has no logo
	Common     auth.CommonConfig
	Form       CompanyInfoForm
	LogoError  string // catalog key of what is wrong with an upload
}

// CompanyInfoForm is the name, alias and address form's state.
type CompanyInfoForm struct {
	Name    string
	Alias   string
	Address string
	Errors  map[string]string // name, alias, address → catalog key
}

// Has reports whether the form has an error for field.
func (f CompanyInfoForm) Has(field string) bool { return hasError(f.Errors, field) }

func adminWithQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

func adminStatusName(ctx context.Context, status string) string {
	return translatedOr(ctx, "admin.status."+status, status)
}

func adminYesNo(ctx context.Context, b bool) string {
	if b {
		return i18n.T(ctx, "admin.common.yes")
	}
	return i18n.T(ctx, "admin.common.no")
}

func adminEnabled(ctx context.Context, b bool) string {
	if b {
		return i18n.T(ctx, "admin.common.enabled")
	}
	return i18n.T(ctx, "admin.common.disabled")
}

func adminMobile(areaCode, mobile string) string {
	switch {
	case mobile == "":
		return ""
	case areaCode == "":
		return mobile
	}
	return "+" + areaCode + " " + mobile
}
