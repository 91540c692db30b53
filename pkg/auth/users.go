package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// User statuses (spec §3). Only active and testing users may log in.
const (
	StatusActive   = "active"
	StatusInactive = "inactive"
	StatusTesting  = "testing"
)

// User is a row of the users table.
type User struct {
	ID              int64     `db:"id"`
	AgencyID        int64     `db:"agency_id"`
	Username        string    `db:"username"`
	Email           string    `db:"email"`
	Nickname        string    `db:"nickname"`
	AreaCode        string    `db:"area_code"`
	Mobile          string    `db:"mobile"`
	RolesJSON       string    `db:"roles"`
	PermissionsJSON string    `db:"permissions"`
	Status          string    `db:"status"`
	IsSuperAdmin    bool      `db:"is_super_admin"`
	AvatarType      string    `db:"avatar_type"`
	DateFormat      string    `db:"date_format"`
	TimeZone        string    `db:"time_zone"` // IANA name; "" is the agency's zone
	DefaultRegion   string    `db:"default_region"`
	FavCitiesJSON   string    `db:"fav_cities"`
	FavCountryJSON  string    `db:"fav_countries"`
	FavPassengers   string    `db:"fav_passengers"`
	PasswordHash    string    `db:"password_hash"`
	PasswordChanged time.Time `db:"password_changed_at"`
	CreatedAt       time.Time `db:"created_at"`
	UpdatedAt       time.Time `db:"updated_at"`
}

// Roles decodes the user's role list.
func (u User) Roles() []string { return jsonList(u.RolesJSON) }

// Permissions decodes the user's permission list.
func (u User) Permissions() []string { return jsonList(u.PermissionsJSON) }

// FavouriteCities and FavouriteCountries are the profile's frequent info.
func (u User) FavouriteCities() []string    { return jsonList(u.FavCitiesJSON) }
func (u User) FavouriteCountries() []string { return jsonList(u.FavCountryJSON) }

// FavouritePassengers are the ids of the often-used passengers the user
// favours.
func (u User) FavouritePassengers() []int64 {
	out := []int64{}
	_ = json.Unmarshal([]byte(u.FavPassengers), &out)
	return out
}

// CanLogIn reports whether the status allows a login.
func (u User) CanLogIn() bool { return u.Status == StatusActive || u.Status == StatusTesting }

func jsonList(s string) []string {
	out := []string{}
	_ = json.Unmarshal([]byte(s), &out)
	return out
}

func toJSON(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

const userColumns = `id, agency_id, username, email, nickname, area_code, mobile, roles, permissions, status,
	is_super_admin, avatar_type, date_format, default_region, fav_cities, fav_countries, fav_passengers, password_hash,
	password_changed_at, created_at, updated_at, time_zone`

// NewUser is what creating a user needs.
type NewUser struct {
	AgencyID     int64
	Username     string
	Email        string
	Nickname     string
	AreaCode     string
	Mobile       string
	Roles        []string
	Permissions  []string
	Status       string
	IsSuperAdmin bool
	Password     string
}

var usernamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._@-]{2,49}$`)

// NormalizeUsername is the stored, case-insensitive form of a username.
func NormalizeUsername(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidEmail is the spec's email format rule.
func ValidEmail(s string) bool {
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return false
	}
	domain := s[strings.LastIndex(s, "@")+1:]
	return strings.Contains(domain, ".") && !strings.HasSuffix(domain, ".")
}

var mobilePattern = regexp.MustCompile(`^[0-9][0-9 -]{4,19}$`)
var areaCodePattern = regexp.MustCompile(`^[0-9]{1,4}$`)

// ValidateUser checks the spec §5 user rules and returns field → catalog key.
// creating adds the rules that apply only to a new user.
func ValidateUser(u NewUser, creating bool) map[string]string {
	errs := map[string]string{}
	if creating {
		if !usernamePattern.MatchString(NormalizeUsername(u.Username)) {
			errs["username"] = "login.error.usernameFormat"
		}
		if u.Email == "" || !ValidEmail(u.Email) {
			errs["email"] = "user.error.email"
		}
		if key := PasswordRuleKey(u.Password); key != "" {
			errs["password"] = key
		}
	}
	if len(u.Roles) == 0 {
		errs["role"] = "user.error.role"
	}
	for _, r := range u.Roles {
		if !slices.Contains(Roles, r) {
			errs["role"] = "user.error.role"
		}
	}
	switch u.Status {
	case StatusActive, StatusInactive, StatusTesting:
	default:
		errs["status"] = "user.error.status"
	}
	if u.Mobile != "" && !mobilePattern.MatchString(u.Mobile) {
		errs["mobile"] = "user.error.mobile"
	}
	if u.AreaCode != "" && !areaCodePattern.MatchString(u.AreaCode) {
		errs["areaCode"] = "user.error.areaCode"
	}
	if len([]rune(u.Nickname)) > 50 {
		errs["nickname"] = "error.field.tooLong"
	}
	return errs
}

// queryer is a database or a transaction.
type queryer interface {
	sqlx.ExtContext
	Rebind(string) string
}

func getUser(ctx context.Context, q queryer, where string, arg any) (User, error) {
	var u User
	err := sqlx.GetContext(ctx, q, &u, q.Rebind(`SELECT `+userColumns+` FROM users WHERE `+where), arg)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fault.NotFound("error.notFound")
	}
	if err != nil {
		return User{}, fmt.Errorf("auth: get user: %w", err)
	}
	return u, nil
}

// CreateUser inserts a user in tx; the password is hashed here.
func CreateUser(ctx context.Context, tx *sqlx.Tx, u NewUser, now time.Time) (User, error) {
	u.Username = NormalizeUsername(u.Username)
	u.Email = strings.TrimSpace(u.Email)
	if u.Status == "" {
		u.Status = StatusActive
	}
	if u.AreaCode == "" {
		u.AreaCode = "86"
	}
	if errs := ValidateUser(u, true); len(errs) > 0 {
		return User{}, fault.Validation(errs)
	}
	hash, err := HashPassword(u.Password)
	if err != nil {
		return User{}, err
	}
	var id int64
	err = tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO users (agency_id, username, email, nickname, area_code, mobile,
		roles, permissions, status, is_super_admin, password_hash, password_changed_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		u.AgencyID, u.Username, u.Email, strings.TrimSpace(u.Nickname), u.AreaCode, strings.TrimSpace(u.Mobile),
		toJSON(u.Roles), toJSON(u.Permissions), u.Status, u.IsSuperAdmin, hash, now, now, now)
	if store.IsUniqueViolation(err) {
		return User{}, fault.Validation(map[string]string{"username": "user.error.usernameTaken"})
	}
	if err != nil {
		return User{}, fmt.Errorf("auth: create user %s: %w", u.Username, err)
	}
	return getUser(ctx, tx, "id = ?", id)
}
