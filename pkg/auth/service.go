package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/recent"
	"github.com/voyage/voyage/pkg/store"
)

// Company is what authentication needs to know of a user's agency.
type Company struct {
	ID             int64
	ParentID       *int64
	ProxyLevel     int
	Common         CommonConfig
	SingleSession  bool
	SSOSecret      string
	Status         string
	HideSSOMessage bool
}

// Companies looks agencies up; pkg/agency implements it.
type Companies interface {
	Company(ctx context.Context, id int64) (Company, error)
	// IsWithin reports whether id is root or one of root's descendants.
	IsWithin(ctx context.Context, root, id int64) (bool, error)
}

// Principal is who a request acts as: a logged-in user or an agency's API key.
type Principal struct {
	UserID   int64
	Username string
	// Nickname is the user's display name ("" for an API key): read with
	// the session, so pages need not load the user again to greet them.
	Nickname  string
	AgencyID  int64
	SessionID int64
	APIKeyID  int64
	Iframe    bool
	Subject   Subject
	// TimeZone is the user's own time zone (IANA), "" for the agency's:
	// read with the session, as the nickname is.
	TimeZone string
}

type principalKey struct{}

// WithPrincipal stores p in ctx.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the request's principal, if authenticated.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// Session revoke reasons; "replaced" is the one-session-per-user rule and
// answers 201001 rather than 200006.
const (
	revokedLogout   = "logout"
	revokedReplaced = "replaced"
	revokedPassword = "password"
	revokedByUser   = "revoked"
	revokedDisabled = "disabled"
)

// Service logs users in and out and authenticates requests.
type Service struct {
	db        *store.DB
	companies Companies
	idle      time.Duration
	max       time.Duration
	now       func() time.Time
	// sessions are the sessions read lately with their users, by token
	// hash (see sessionCacheFor).
	sessions *recent.Map[string, cachedSession]
}

// sessionCacheFor is how long a session read from the store, with its
// user, answers the requests that carry its token. Every request reads its
// session; a client making several a second (a portal polling a search, an
// agency's booking script) reads it once a second instead. A logout, a
// revocation or a change to the user made through this instance is seen
// at once (forget); another instance's within this second, as agencies
// are (agency.Store.CacheFor).
const sessionCacheFor = time.Second

// maxCachedSessions bounds the sessions kept.
const maxCachedSessions = 4096

type cachedSession struct {
	s  sessionRow
	u  User
	at time.Time
}

// NewService returns the service; idle and max bound a session's life.
func NewService(db *store.DB, companies Companies, idle, max time.Duration) *Service {
	return &Service{db: db, companies: companies, idle: idle, max: max, now: time.Now,
		sessions: recent.New[string, cachedSession](maxCachedSessions)}
}

// ForgetUser drops the cached sessions of a user whose row changed (a
// nickname, a time zone, roles, a status) or whose sessions were revoked:
// the next request reads them again.
func (s *Service) ForgetUser(userID int64) {
	s.sessions.DeleteFunc(func(_ string, c cachedSession) bool { return c.u.ID == userID })
}

// forgetSession drops a session revoked through this instance.
func (s *Service) forgetSession(id int64) {
	s.sessions.DeleteFunc(func(_ string, c cachedSession) bool { return c.s.ID == id })
}

// SetClock replaces the clock, for tests.
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Meta is what the server knows about the caller.
type Meta struct {
	IP        string
	UserAgent string
}

// LoginResult is a new session.
type LoginResult struct {
	Token     string
	ExpiresAt time.Time
	User      User
	Principal Principal
	Company   Company
}

func errBadCredentials() error {
	return fault.New(fault.CodeBadCredentials, http.StatusUnauthorized, "login.error.invalid")
}

// Login checks a username and password and opens a session.
func (s *Service) Login(ctx context.Context, username, password string, m Meta) (LoginResult, error) {
	username = NormalizeUsername(username)
	errs := map[string]string{}
	if username == "" {
		errs["username"] = "login.error.usernameRequired"
	} else if !usernamePattern.MatchString(username) {
		errs["username"] = "login.error.usernameFormat"
	}
	if password == "" {
		errs["password"] = "login.error.passwordRequired"
	}
	if len(errs) > 0 {
		return LoginResult{}, fault.Validation(errs)
	}
	now := s.now().UTC()
	keys, err := s.loginKeys(ctx, username, m.IP, now)
	if err != nil {
		return LoginResult{}, err
	}
	if err := s.chargeAttempt(ctx, now, keys...); err != nil {
		return LoginResult{}, err
	}
	u, err := getUser(ctx, s.db, "username = ?", username)
	if fe, ok := fault.As(err); ok && fe.Code == fault.CodeNotFound {
		SpendPasswordTime(password)
		return LoginResult{}, errBadCredentials()
	}
	if err != nil {
		return LoginResult{}, err
	}
	ok, rehash, err := VerifyPassword(u.PasswordHash, password)
	if err != nil {
		return LoginResult{}, err
	}
	if !ok || !u.CanLogIn() {
		return LoginResult{}, s.recordFailure(ctx, u.AgencyID, username, m, now)
	}
	company, err := s.companies.Company(ctx, u.AgencyID)
	if err != nil {
		return LoginResult{}, err
	}
	if company.Status == "blocked" {
		// The password was right: the attempt is no guess to count.
		if err := s.db.InTx(ctx, func(tx *sqlx.Tx) error { return settleLogin(ctx, tx, keys, now) }); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, fault.New(fault.CodeNoAccess, http.StatusForbidden, "login.error.agencyBlocked")
	}
	var res LoginResult
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if rehash {
			if h, err := HashPassword(password); err == nil {
				if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET password_hash = ? WHERE id = ?`), h, u.ID); err != nil {
					return fmt.Errorf("auth: rehash: %w", err)
				}
			}
		}
		if err := settleLogin(ctx, tx, keys, now); err != nil {
			return err
		}
		if err := rememberAddress(ctx, tx, username, m.IP, now); err != nil {
			return err
		}
		r, err := s.openSession(ctx, tx, u, company, m, false, now)
		if err != nil {
			return err
		}
		res = r
		return audit.Write(ctx, tx, audit.Entry{AgencyID: u.AgencyID, UserID: &u.ID, Username: u.Username, Action: audit.ActionLogin, IP: m.IP, Detail: m.UserAgent, CreatedAt: now})
	})
	// Its other sessions are replaced (openSession).
	s.ForgetUser(u.ID)
	return res, err
}

// loginKeys are the throttle counts a login attempt is charged to: the
// address's, and the account's, or from an address the account logged in
// from before, the account-at-that-address's.
func (s *Service) loginKeys(ctx context.Context, username, ip string, now time.Time) ([]throttleKey, error) {
	known, err := s.knownAddress(ctx, username, ip, now)
	if err != nil {
		return nil, err
	}
	if known {
		return []throttleKey{addressKey(ip), knownAddressKey(username, ip)}, nil
	}
	return []throttleKey{addressKey(ip), accountKey(username)}, nil
}

// settleLogin takes a right password's attempt off the counts: the account's
// failures are forgotten, the address's attempt refunded.
func settleLogin(ctx context.Context, tx *sqlx.Tx, keys []throttleKey, now time.Time) error {
	for _, k := range keys {
		var err error
		if k.limit.scope == addressLimit.scope {
			err = refundAttempt(ctx, tx, k, now)
		} else {
			err = clearThrottle(ctx, tx, k)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// openSession stores a new session for u (ending the user's others when the
// agency allows one session per user) and returns its token.
func (s *Service) openSession(ctx context.Context, tx *sqlx.Tx, u User, c Company, m Meta, iframe bool, now time.Time) (LoginResult, error) {
	if c.SingleSession {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND revoked_at IS NULL`),
			now, revokedReplaced, u.ID); err != nil {
			return LoginResult{}, fmt.Errorf("auth: end other sessions: %w", err)
		}
	}
	token, hash, err := NewToken()
	if err != nil {
		return LoginResult{}, err
	}
	expires := now.Add(s.max)
	idle := minTime(now.Add(s.idle), expires)
	var id int64
	err = tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO sessions (token_hash, user_id, agency_id, created_at, last_seen_at, idle_expires_at,
		expires_at, ip, user_agent, iframe) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		hash, u.ID, u.AgencyID, now, now, idle, expires, m.IP, input.Clip(m.UserAgent, 300), iframe)
	if err != nil {
		return LoginResult{}, fmt.Errorf("auth: store session: %w", err)
	}
	p := principalFor(u, c)
	p.SessionID = id
	p.Iframe = iframe
	return LoginResult{Token: token, ExpiresAt: expires, User: u, Principal: p, Company: c}, nil
}

func principalFor(u User, c Company) Principal {
	return Principal{
		UserID: u.ID, Username: u.Username, Nickname: u.Nickname, AgencyID: u.AgencyID, TimeZone: u.TimeZone,
		Subject: Subject{Roles: u.Roles(), Permissions: u.Permissions(), ProxyLevel: c.ProxyLevel, Common: c.Common},
	}
}

// recordFailure writes a failed login of an existing user to its agency's
// user log (the throttle counted it already) and returns the error the
// caller sees.
func (s *Service) recordFailure(ctx context.Context, agencyID int64, username string, m Meta, now time.Time) error {
	err := audit.Write(ctx, s.db, audit.Entry{AgencyID: agencyID, Username: username, Action: audit.ActionLoginFailed, IP: m.IP, Detail: m.UserAgent, CreatedAt: now})
	if err != nil {
		return err
	}
	return errBadCredentials()
}

type sessionRow struct {
	ID            int64      `db:"id"`
	UserID        int64      `db:"user_id"`
	CreatedAt     time.Time  `db:"created_at"`
	LastSeenAt    time.Time  `db:"last_seen_at"`
	IdleExpiresAt time.Time  `db:"idle_expires_at"`
	ExpiresAt     time.Time  `db:"expires_at"`
	RevokedAt     *time.Time `db:"revoked_at"`
	RevokeReason  string     `db:"revoke_reason"`
	IP            string     `db:"ip"`
	UserAgent     string     `db:"user_agent"`
	Iframe        bool       `db:"iframe"`
}

const sessionColumns = `id, user_id, created_at, last_seen_at, idle_expires_at, expires_at, revoked_at, revoke_reason, ip, user_agent, iframe`

// sessionUserQuery reads a session by its token hash with its user, the
// columns named s.… and u.… for the two halves of the answer. Every request
// runs it: it is a prepared statement.
var sessionUserQuery = store.NewStatement(`SELECT ` + prefixed("s", sessionColumns) + `, ` + prefixed("u", userColumns) +
	` FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`)

func prefixed(table, columns string) string {
	var out []string
	for _, c := range strings.Split(columns, ",") {
		c = strings.TrimSpace(c)
		out = append(out, fmt.Sprintf(`%s.%s AS "%s.%s"`, table, c, table, c))
	}
	return strings.Join(out, ", ")
}

// touchEvery limits how often a busy session's idle deadline is pushed back:
// one write a minute per session instead of one per request.
const touchEvery = time.Minute

// Authenticate resolves a session token: 200006 when unknown or revoked,
// 201001 when a newer login ended it, 200005 when it expired.
func (s *Service) Authenticate(ctx context.Context, token string) (Principal, error) {
	if token == "" {
		return Principal{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "axios.login.timeout")
	}
	h := HashToken(token)
	now := s.now().UTC()
	c, fromCopy := s.sessions.Get(h)
	if fromCopy && (now.Sub(c.at) >= sessionCacheFor || now.Before(c.at)) {
		fromCopy = false
	}
	if !fromCopy {
		var err error
		if c, err = s.readSession(ctx, h, now); err != nil {
			return Principal{}, err
		}
	}
	if err := c.refusal(now); err != nil {
		if !fromCopy {
			return Principal{}, err
		}
		// Refused on a copy: the store has the last word (another
		// instance may have kept the session alive meanwhile).
		if c, err = s.readSession(ctx, h, now); err != nil {
			return Principal{}, err
		}
		if err := c.refusal(now); err != nil {
			return Principal{}, err
		}
	}
	row, u := c.s, c.u
	company, err := s.companies.Company(ctx, u.AgencyID)
	if err != nil {
		return Principal{}, err
	}
	if company.Status == "blocked" {
		return Principal{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "login.error.agencyBlocked")
	}
	if now.Sub(row.LastSeenAt) >= touchEvery {
		idle := minTime(now.Add(s.idle), row.ExpiresAt)
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE sessions SET last_seen_at = ?, idle_expires_at = ? WHERE id = ?`), now, idle, row.ID); err != nil {
			return Principal{}, fmt.Errorf("auth: touch session: %w", err)
		}
		c.s.LastSeenAt, c.s.IdleExpiresAt = now, idle
		s.sessions.Put(h, c)
	}
	p := principalFor(u, company)
	p.SessionID = row.ID
	p.Iframe = row.Iframe
	return p, nil
}

// refusal is why the session cannot be used at now, nil when it can.
func (c cachedSession) refusal(now time.Time) error {
	switch {
	case c.s.RevokedAt != nil && c.s.RevokeReason == revokedReplaced:
		return fault.New(fault.CodeLoggedOutByOther, http.StatusUnauthorized, "session.error.replaced")
	case c.s.RevokedAt != nil:
		return fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "axios.login.timeout")
	case !now.Before(c.s.ExpiresAt) || !now.Before(c.s.IdleExpiresAt):
		return fault.New(fault.CodeSessionExpired, http.StatusUnauthorized, "axios.login.timeout")
	case !c.u.CanLogIn():
		return fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "axios.login.timeout")
	}
	return nil
}

// readSession reads the session of token hash h with its user, one round
// trip, and keeps it for sessionCacheFor.
func (s *Service) readSession(ctx context.Context, h string, now time.Time) (cachedSession, error) {
	var su struct {
		S sessionRow `db:"s"`
		U User       `db:"u"`
	}
	err := s.db.GetStmt(ctx, nil, &su, sessionUserQuery, h)
	if errors.Is(err, sql.ErrNoRows) {
		s.sessions.Delete(h)
		return cachedSession{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "axios.login.timeout")
	}
	if err != nil {
		return cachedSession{}, fmt.Errorf("auth: find session: %w", err)
	}
	c := cachedSession{s: su.S, u: su.U, at: now}
	s.sessions.Put(h, c)
	return c, nil
}

// Logout ends the principal's session.
func (s *Service) Logout(ctx context.Context, p Principal, m Meta) error {
	if p.SessionID == 0 {
		return nil
	}
	now := s.now().UTC()
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE id = ? AND revoked_at IS NULL`),
			now, revokedLogout, p.SessionID); err != nil {
			return fmt.Errorf("auth: logout: %w", err)
		}
		return audit.Write(ctx, tx, audit.Entry{AgencyID: p.AgencyID, UserID: &p.UserID, Username: p.Username, Action: audit.ActionLogout, IP: m.IP, CreatedAt: now})
	})
	s.forgetSession(p.SessionID)
	return err
}

// SessionInfo is one of a user's open sessions.
type SessionInfo struct {
	// ID is the session's id, for DELETE /base/v2/me/sessions/{id}.
	ID int64 `json:"id"`
	// CreatedAt is when the session was opened by a login (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt"`
	// LastSeenAt is when the session last made a request, to within a
	// minute.
	LastSeenAt time.Time `json:"lastSeenAt"`
	// ExpiresAt is when the session ends unless used: the earlier of its
	// idle timeout, which each use pushes back, and its longest lifetime.
	ExpiresAt time.Time `json:"expiresAt"`
	// IP is the client address the session was opened from.
	IP string `json:"ip"`
	// UserAgent is the User-Agent header of the login, at most 300
	// characters.
	UserAgent string `json:"userAgent"`
	// Current is whether this is the session making the request.
	Current bool `json:"current"`
}

// Sessions lists the principal's user's open sessions, newest first.
func (s *Service) Sessions(ctx context.Context, p Principal) ([]SessionInfo, error) {
	now := s.now().UTC()
	var rows []sessionRow
	err := s.db.SelectContext(ctx, &rows, s.db.Rebind(`SELECT `+sessionColumns+` FROM sessions
		WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? AND idle_expires_at > ? ORDER BY id DESC`), p.UserID, now, now)
	if err != nil {
		return nil, fmt.Errorf("auth: list sessions: %w", err)
	}
	out := make([]SessionInfo, 0, len(rows))
	for _, r := range rows {
		out = append(out, SessionInfo{ID: r.ID, CreatedAt: r.CreatedAt, LastSeenAt: r.LastSeenAt, ExpiresAt: minTime(r.ExpiresAt, r.IdleExpiresAt),
			IP: r.IP, UserAgent: r.UserAgent, Current: r.ID == p.SessionID})
	}
	return out, nil
}

// EndSession ends one of the principal's user's sessions; another user's
// session is not found.
func (s *Service) EndSession(ctx context.Context, p Principal, id int64, m Meta) error {
	now := s.now().UTC()
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL`),
			now, revokedByUser, id, p.UserID)
		if err != nil {
			return fmt.Errorf("auth: end session: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fault.NotFound("")
		}
		return audit.Write(ctx, tx, audit.Entry{AgencyID: p.AgencyID, UserID: &p.UserID, Username: p.Username, Action: audit.ActionSessionRevoke,
			Target: fmt.Sprintf("session:%d", id), IP: m.IP, CreatedAt: now})
	})
	s.forgetSession(id)
	return err
}

// ChangePassword sets a new password after checking the current one; the
// user's other sessions end.
func (s *Service) ChangePassword(ctx context.Context, p Principal, current, next, confirm string, m Meta) error {
	if p.UserID == 0 {
		return fault.Forbidden()
	}
	errs := map[string]string{}
	if key := PasswordRuleKey(next); key != "" {
		errs["password"] = key
	}
	if next != confirm {
		errs["confirmPassword"] = "password.error.confirm"
	}
	u, err := getUser(ctx, s.db, "id = ?", p.UserID)
	if err != nil {
		return err
	}
	// The current password is a secret a stolen session could guess at: it
	// is throttled like a login, per user across sessions and addresses.
	now := s.now().UTC()
	key := passwordKey(u.ID)
	if err := s.chargeAttempt(ctx, now, key); err != nil {
		return err
	}
	if ok, _, err := VerifyPassword(u.PasswordHash, current); err != nil {
		return err
	} else if !ok {
		errs["oldPassword"] = "password.error.old"
	} else if err := s.db.InTx(ctx, func(tx *sqlx.Tx) error { return clearThrottle(ctx, tx, key) }); err != nil {
		return err
	}
	if len(errs) > 0 {
		return fault.Validation(errs)
	}
	hash, err := HashPassword(next)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET password_hash = ?, password_changed_at = ?, updated_at = ? WHERE id = ?`), hash, now, now, u.ID); err != nil {
			return fmt.Errorf("auth: change password: %w", err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND id <> ? AND revoked_at IS NULL`),
			now, revokedPassword, u.ID, p.SessionID); err != nil {
			return fmt.Errorf("auth: end other sessions: %w", err)
		}
		return audit.Write(ctx, tx, audit.Entry{AgencyID: u.AgencyID, UserID: &u.ID, Username: u.Username, Action: audit.ActionPasswordChange, Target: "user:" + u.Username, IP: m.IP, CreatedAt: now})
	})
	s.ForgetUser(u.ID)
	return err
}

// ResetSuperAdminPassword sets the password of agency's super admin. Only the
// provider or a higher-tier partner of the agency may: the actor's agency
// must be an ancestor, not the agency itself.
func (s *Service) ResetSuperAdminPassword(ctx context.Context, actor Principal, agencyID int64, password string, m Meta) error {
	if actor.AgencyID == agencyID {
		return fault.Forbidden()
	}
	within, err := s.companies.IsWithin(ctx, actor.AgencyID, agencyID)
	if err != nil {
		return err
	}
	if !within {
		return fault.NotFound("")
	}
	if key := PasswordRuleKey(password); key != "" {
		return fault.Validation(map[string]string{"password": key})
	}
	hash, err := HashPassword(password)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	var id int64
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM users WHERE agency_id = ? AND is_super_admin = TRUE ORDER BY id LIMIT 1`), agencyID)
		if errors.Is(err, sql.ErrNoRows) {
			return fault.NotFound("user.error.noSuperAdmin")
		}
		if err != nil {
			return fmt.Errorf("auth: find super admin: %w", err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET password_hash = ?, password_changed_at = ?, updated_at = ? WHERE id = ?`), hash, now, now, id); err != nil {
			return fmt.Errorf("auth: reset password: %w", err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND revoked_at IS NULL`), now, revokedPassword, id); err != nil {
			return fmt.Errorf("auth: end sessions: %w", err)
		}
		entry := audit.Entry{Username: actor.Username, Action: audit.ActionPasswordReset, Target: fmt.Sprintf("agency:%d", agencyID), IP: m.IP, CreatedAt: now}
		if actor.UserID != 0 {
			entry.UserID = &actor.UserID
		}
		// Both sides keep a line: the actor's agency and the agency reset.
		for _, a := range []int64{actor.AgencyID, agencyID} {
			entry.AgencyID = a
			if err := audit.Write(ctx, tx, entry); err != nil {
				return err
			}
		}
		return nil
	})
	s.ForgetUser(id)
	return err
}

// User loads a user by id.
func (s *Service) User(ctx context.Context, id int64) (User, error) {
	return getUser(ctx, s.db, "id = ?", id)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
