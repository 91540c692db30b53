package auth

import "time"

// A user as user management writes it out and takes it in: the agency API
// answers and reads these, and the admin terminal prints and sends them
// (its -o json is the API's JSON), so both use these types.

// ManagedUser is a user of an agency as user management shows it. Spec §3
// User.
type ManagedUser struct {
	// ID is the user's id, for PUT /base/v2/users/{id} and
	// POST /base/v2/users/{id}/deactivate.
	ID int64 `json:"id"`
	// AgencyID is the id of the agency the user belongs to.
	AgencyID int64 `json:"agencyId"`
	// IsSuperAdmin is whether the user is the agency's super admin, the
	// user created with the agency: it cannot be deactivated or lose the
	// SuperUser role.
	IsSuperAdmin bool `json:"isSuperAdmin"`
	// Username is the login name, lower-case; it never changes.
	Username string `json:"username"`
	// Email is the user's email address; it never changes.
	Email string `json:"email"`
	// Nickname is the name shown for the user; empty when none was given.
	Nickname string `json:"nickname"`
	// Mobile is the user's mobile number without the country calling code;
	// empty when none was given.
	Mobile string `json:"mobile"`
	// AreaCode is the country calling code of mobile, digits without the +
	// (86 unless set otherwise).
	AreaCode string `json:"areaCode"`
	// Role is the user's roles: operator (flights, group flights, trains),
	// finance (bills, wallet, statements, agency management) and SuperUser
	// (everything, plus users, company and the user log).
	Role []string `json:"role"`
	// Status is active, inactive (may not log in) or testing (a test
	// account, which may log in as an active one).
	Status string `json:"status" jsonschema:"enum=active,enum=inactive,enum=testing"`
	// CreatedAt is when the user was created (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt"`
}

// ManagedUserOf is user u as user management shows it.
func ManagedUserOf(u User) ManagedUser {
	return ManagedUser{ID: u.ID, AgencyID: u.AgencyID, IsSuperAdmin: u.IsSuperAdmin, Username: u.Username, Email: u.Email, Nickname: u.Nickname, Mobile: u.Mobile, AreaCode: u.AreaCode,
		Role: u.Roles(), Status: u.Status, CreatedAt: u.CreatedAt}
}

// CreateUserRequest is a new user as user management takes it (POST
// /base/v2/users).
type CreateUserRequest struct {
	// Username is the login name: 3 to 50 characters, letters, digits and
	// . _ @ -, starting with a letter or digit; case-insensitive (stored
	// lower-case), unique across the platform and never changed after.
	Username string `json:"username"`
	// Email is the user's email address; required, never changed after.
	Email string `json:"email"`
	// Nickname is the name shown for the user, at most 50 characters;
	// optional.
	Nickname string `json:"nickname"`
	// Mobile is the user's mobile number without the country calling code:
	// 5 to 20 digits, spaces or dashes, starting with a digit; optional.
	Mobile string `json:"mobile"`
	// AreaCode is the country calling code of mobile, 1 to 4 digits without
	// the +; empty means 86.
	AreaCode string `json:"areaCode"`
	// Role is the user's roles, at least one of operator, finance and
	// SuperUser.
	Role []string `json:"role"`
	// Status is the user's status: active (the default), inactive (may not
	// log in) or testing (a test account, which may log in).
	Status string `json:"status" jsonschema:"enum=active,enum=inactive,enum=testing"`
	// Password is the user's first password, 6 to 15 characters and not
	// one of the 10,000 most common.
	Password string `json:"password"`
}

// NewUser is the request as the identity service takes it.
func (req CreateUserRequest) NewUser() NewUser {
	return NewUser{Username: req.Username, Email: req.Email, Nickname: req.Nickname,
		Mobile: req.Mobile, AreaCode: req.AreaCode, Roles: req.Role, Status: req.Status, Password: req.Password}
}
