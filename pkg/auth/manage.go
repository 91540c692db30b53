package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/fault"
)

// User-management actions written to the user log.
const (
	ActionUserCreate     = "user.create"
	ActionUserUpdate     = "user.update"
	ActionUserDeactivate = "user.deactivate"
	ActionUserStatus     = "user.status"
)

// Paging bounds of the list endpoints (API.md).
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// UserFilter narrows ListUsers. Keyword matches username, nickname or email;
// Status and Role match exactly. Page is 1-based.
type UserFilter struct {
	Keyword  string
	Status   string
	Role     string
	Page     int
	PageSize int
}

// ClampPage applies the API's paging defaults and bounds.
func ClampPage(page, size int) (int, int) {
	if page < 1 {
		page = 1
	}
	if size < 1 {
		size = DefaultPageSize
	}
	if size > MaxPageSize {
		size = MaxPageSize
	}
	return page, size
}

// likeEscaper makes a user's keyword literal inside a LIKE pattern.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// ListUsers returns one page of the agency's users, oldest first, and the
// total matching the filter. Only agencyID's users are ever listed.
func (s *Service) ListUsers(ctx context.Context, agencyID int64, f UserFilter) ([]User, int, error) {
	f.Page, f.PageSize = ClampPage(f.Page, f.PageSize)
	where := []string{"agency_id = ?"}
	args := []any{agencyID}
	if kw := strings.ToLower(strings.TrimSpace(f.Keyword)); kw != "" {
		pat := "%" + likeEscaper.Replace(kw) + "%"
		where = append(where, `(username LIKE ? ESCAPE '\' OR LOWER(nickname) LIKE ? ESCAPE '\' OR LOWER(email) LIKE ? ESCAPE '\')`)
		args = append(args, pat, pat, pat)
	}
	if f.Status != "" {
		switch f.Status {
		case StatusActive, StatusInactive, StatusTesting:
		default:
			return nil, 0, fault.Validation(map[string]string{"status": "user.error.status"})
		}
		where = append(where, "status = ?")
		args = append(args, f.Status)
	}
	if f.Role != "" {
		if !slices.Contains(Roles, f.Role) {
			return nil, 0, fault.Validation(map[string]string{"role": "user.error.role"})
		}
		// roles is a JSON list of known names, none of which contains a quote
		// or a LIKE wildcard, so the quoted name matches exactly one element.
		where = append(where, "roles LIKE ?")
		args = append(args, `%"`+f.Role+`"%`)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.GetContext(ctx, &total, s.db.Rebind(`SELECT COUNT(*) FROM users WHERE `+cond), args...); err != nil {
		return nil, 0, fmt.Errorf("auth: count users: %w", err)
	}
	out := []User{}
	err := s.db.SelectContext(ctx, &out, s.db.Rebind(`SELECT `+userColumns+` FROM users WHERE `+cond+` ORDER BY id LIMIT ? OFFSET ?`),
		append(args, f.PageSize, (f.Page-1)*f.PageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("auth: list users: %w", err)
	}
	return out, total, nil
}

// CreateUserIn creates a user in the actor's own agency. The new user is
// never the agency's super admin: that one is made with the agency.
func (s *Service) CreateUserIn(ctx context.Context, actor Principal, n NewUser, m Meta) (User, error) {
	if actor.UserID == 0 || actor.AgencyID == 0 {
		return User{}, fault.Forbidden()
	}
	n.AgencyID = actor.AgencyID
	n.IsSuperAdmin = false
	n.Permissions = nil
	now := s.now().UTC()
	var u User
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if u, err = CreateUser(ctx, tx, n, now); err != nil {
			return err
		}
		return audit.Write(ctx, tx, audit.Entry{AgencyID: actor.AgencyID, UserID: &actor.UserID, Username: actor.Username,
			Action: ActionUserCreate, Target: "user:" + u.Username, Detail: "role: " + strings.Join(u.Roles(), ",") + "; status: " + u.Status,
			IP: m.IP, CreatedAt: now})
	})
	return u, err
}

// UserChanges is an update of a user; nil fields keep their value. Username
// and Email cannot change: they are here only so that a request trying to
// change them is refused rather than silently ignored.
type UserChanges struct {
	Username *string
	Email    *string
	Nickname *string
	Mobile   *string
	AreaCode *string
	Roles    *[]string
	Status   *string
	// Password, when not empty, sets a new password and ends the user's
	// sessions. Users change their own password with ChangePassword, which
	// asks for the current one.
	Password string
}

// UpdateUser changes a user of the actor's agency. A user of another agency
// is not found, so nobody can probe other agencies' user ids.
func (s *Service) UpdateUser(ctx context.Context, actor Principal, id int64, c UserChanges, m Meta) (User, error) {
	return s.changeUser(ctx, actor, id, c, ActionUserUpdate, m)
}

// SetUserStatus sets a user's status; making it inactive ends the user's
// sessions at once.
func (s *Service) SetUserStatus(ctx context.Context, actor Principal, id int64, status string, m Meta) (User, error) {
	action := ActionUserStatus
	if status == StatusInactive {
		action = ActionUserDeactivate
	}
	return s.changeUser(ctx, actor, id, UserChanges{Status: &status}, action, m)
}

// DeactivateUser makes a user inactive and ends their sessions.
func (s *Service) DeactivateUser(ctx context.Context, actor Principal, id int64, m Meta) (User, error) {
	return s.SetUserStatus(ctx, actor, id, StatusInactive, m)
}

func (s *Service) changeUser(ctx context.Context, actor Principal, id int64, c UserChanges, action string, m Meta) (User, error) {
	if actor.UserID == 0 || actor.AgencyID == 0 {
		return User{}, fault.Forbidden()
	}
	now := s.now().UTC()
	var out User
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		u, err := s.agencyUser(ctx, tx, actor.AgencyID, id)
		if err != nil {
			return err
		}
		next, changed, errs := applyChanges(u, c)
		self := u.ID == actor.UserID
		keepsSuper := slices.Contains(next.Roles, RoleSuperUser)
		deactivating := next.Status == StatusInactive && u.Status != StatusInactive
		switch {
		case self && deactivating:
			errs["status"] = "user.error.selfDeactivate"
		case u.IsSuperAdmin && deactivating:
			errs["status"] = "user.error.superAdmin"
		}
		switch {
		case c.Roles == nil || keepsSuper || errs["role"] != "":
		case self && slices.Contains(u.Roles(), RoleSuperUser):
			errs["role"] = "user.error.selfSuperUser"
		case u.IsSuperAdmin:
			errs["role"] = "user.error.superAdmin"
		}
		var hash string
		if c.Password != "" {
			if self {
				errs["password"] = "user.error.ownPassword"
			} else if key := PasswordRuleKey(c.Password); key != "" {
				errs["password"] = key
			}
		}
		if len(errs) > 0 {
			return fault.Validation(errs)
		}
		if c.Password != "" {
			if hash, err = HashPassword(c.Password); err != nil {
				return err
			}
			changed = append(changed, "password")
		}
		if len(changed) == 0 {
			out = u
			return nil
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET nickname = ?, mobile = ?, area_code = ?, roles = ?, status = ?, updated_at = ?
			WHERE id = ? AND agency_id = ?`),
			next.Nickname, next.Mobile, next.AreaCode, toJSON(next.Roles), next.Status, now, u.ID, actor.AgencyID)
		if err != nil {
			return fmt.Errorf("auth: update user %d: %w", u.ID, err)
		}
		if hash != "" {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET password_hash = ?, password_changed_at = ? WHERE id = ?`), hash, now, u.ID); err != nil {
				return fmt.Errorf("auth: set password of user %d: %w", u.ID, err)
			}
		}
		// An inactive user cannot authenticate anyway; revoking the sessions
		// as well makes the end explicit and visible in the session list.
		reason := ""
		switch {
		case deactivating:
			reason = revokedDisabled
		case hash != "":
			reason = revokedPassword
		}
		if reason != "" {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND revoked_at IS NULL`),
				now, reason, u.ID); err != nil {
				return fmt.Errorf("auth: end sessions of user %d: %w", u.ID, err)
			}
		}
		if err := audit.Write(ctx, tx, audit.Entry{AgencyID: actor.AgencyID, UserID: &actor.UserID, Username: actor.Username,
			Action: action, Target: "user:" + u.Username, Detail: "changed: " + strings.Join(changed, ","), IP: m.IP, CreatedAt: now}); err != nil {
			return err
		}
		out, err = getUser(ctx, tx, "id = ?", u.ID)
		return err
	})
	// Its roles, status or sessions may have changed.
	s.ForgetUser(id)
	return out, err
}

// agencyUser loads user id if it belongs to agencyID; otherwise not found.
func (s *Service) agencyUser(ctx context.Context, q queryer, agencyID, id int64) (User, error) {
	u, err := getUser(ctx, q, "id = ?", id)
	if err != nil {
		return User{}, err
	}
	if u.AgencyID != agencyID {
		return User{}, fault.NotFound("")
	}
	return u, nil
}

// applyChanges merges c into u and validates the result. It returns the
// merged user, the names of the fields that changed and the field errors.
func applyChanges(u User, c UserChanges) (NewUser, []string, map[string]string) {
	next := NewUser{AgencyID: u.AgencyID, Username: u.Username, Email: u.Email, Nickname: u.Nickname, AreaCode: u.AreaCode,
		Mobile: u.Mobile, Roles: u.Roles(), Status: u.Status}
	errs := map[string]string{}
	if c.Username != nil && NormalizeUsername(*c.Username) != u.Username {
		errs["username"] = "user.error.usernameFixed"
	}
	if c.Email != nil && !strings.EqualFold(strings.TrimSpace(*c.Email), u.Email) {
		errs["email"] = "user.error.emailFixed"
	}
	var changed []string
	set := func(name string, dst *string, v *string) {
		if v == nil {
			return
		}
		if t := strings.TrimSpace(*v); t != *dst {
			*dst = t
			changed = append(changed, name)
		}
	}
	set("nickname", &next.Nickname, c.Nickname)
	set("mobile", &next.Mobile, c.Mobile)
	set("areaCode", &next.AreaCode, c.AreaCode)
	set("status", &next.Status, c.Status)
	if c.Roles != nil {
		roles := slices.Compact(slices.Sorted(slices.Values(*c.Roles)))
		if roles == nil {
			roles = []string{}
		}
		if !slices.Equal(roles, slices.Sorted(slices.Values(next.Roles))) {
			changed = append(changed, "role")
		}
		next.Roles = roles
	}
	for f, key := range ValidateUser(next, false) {
		errs[f] = key
	}
	return next, changed, errs
}

// UserLog returns one page of agencyID's user log. The filter's agency is
// always agencyID, whatever the caller put there.
func (s *Service) UserLog(ctx context.Context, agencyID int64, f audit.Filter) ([]audit.Entry, int, error) {
	f.AgencyID = agencyID
	f.Page, f.PageSize = ClampPage(f.Page, f.PageSize)
	return audit.List(ctx, s.db, f)
}

// ActAsSuperAdmin is the principal an agency's manager (the provider or a
// parent agency, already checked by the caller) works with inside that
// agency, e.g. to manage its users: the agency's super admin account, with
// the manager's name on the user log.
func (s *Service) ActAsSuperAdmin(ctx context.Context, agencyID int64, sub Subject, by string) (Principal, error) {
	var id int64
	err := s.db.GetContext(ctx, &id, s.db.Rebind(`SELECT id FROM users WHERE agency_id = ? AND is_super_admin = TRUE ORDER BY id LIMIT 1`), agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return Principal{}, fault.NotFound("")
	}
	if err != nil {
		return Principal{}, fmt.Errorf("auth: find super admin of %d: %w", agencyID, err)
	}
	sub.Roles = []string{RoleSuperUser}
	return Principal{UserID: id, AgencyID: agencyID, Username: by, Subject: sub}, nil
}
