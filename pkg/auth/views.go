package auth

import "time"

// A user as user management writes it out and takes it in: the agency API
// answers and reads these, and the admin terminal prints and sends them
// (its -o json is the API's JSON), so both use these types.

// ManagedUser is a user as user management shows it (spec §3 User).
type ManagedUser struct {
	ID           int64     `json:"id"`
	AgencyID     int64     `json:"agencyId"`
	IsSuperAdmin bool      `json:"isSuperAdmin"`
	Username     string    `json:"username"`
	Email        string    `json:"email"`
	Nickname     string    `json:"nickname"`
	Mobile       string    `json:"mobile"`
	AreaCode     string    `json:"areaCode"`
	Role         []string  `json:"role"`
	Status       string    `json:"status" jsonschema:"enum=active,enum=inactive,enum=testing"`
	CreatedAt    time.Time `json:"createdAt"`
}

// ManagedUserOf is user u as user management shows it.
func ManagedUserOf(u User) ManagedUser {
	return ManagedUser{ID: u.ID, AgencyID: u.AgencyID, IsSuperAdmin: u.IsSuperAdmin, Username: u.Username, Email: u.Email, Nickname: u.Nickname, Mobile: u.Mobile, AreaCode: u.AreaCode,
		Role: u.Roles(), Status: u.Status, CreatedAt: u.CreatedAt}
}

// CreateUserRequest is a new user as user management takes it (POST
// /base/v2/users).
type CreateUserRequest struct {
	Username string   `json:"username"`
	Email    string   `json:"email"`
	Nickname string   `json:"nickname"`
	Mobile   string   `json:"mobile"`
	AreaCode string   `json:"areaCode"`
	Role     []string `json:"role"`
	Status   string   `json:"status" jsonschema:"enum=active,enum=inactive,enum=testing"`
	Password string   `json:"password"`
}

// NewUser is the request as the identity service takes it.
func (req CreateUserRequest) NewUser() NewUser {
	return NewUser{Username: req.Username, Email: req.Email, Nickname: req.Nickname,
		Mobile: req.Mobile, AreaCode: req.AreaCode, Roles: req.Role, Status: req.Status, Password: req.Password}
}
