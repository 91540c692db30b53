// Package audit keeps the user log: logins, failed logins, logouts, password
// changes and every state-changing call, with actor, address, time and target.
package audit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/store"
)

// Actions recorded by the identity services; other packages add theirs.
const (
	ActionLogin          = "login"
	ActionLoginFailed    = "login.failed"
	ActionLogout         = "logout"
	ActionSingleLogin    = "login.single"
	ActionPasswordChange = "password.change"
	ActionPasswordReset  = "password.reset"
	ActionSessionRevoke  = "session.revoke"
)

// Entry is one line of the user log: who did what, on what, from which
// address and when.
type Entry struct {
	// ID identifies the entry.
	ID int64 `db:"id" json:"id"`
	// AgencyID is the agency whose log holds the entry.
	AgencyID int64 `db:"agency_id" json:"agencyId"`
	// UserID is the id of the user who acted (possibly a user of another
	// agency, such as the provider's); absent when no user did: a failed
	// login, a call with an API key, or the platform itself.
	UserID *int64 `db:"user_id" json:"userId,omitempty"`
	// Username is who acted: the user's username, "apikey:" and the key's
	// prefix for a call with an API key, or "system" for what the platform
	// did by itself; for a failed login, the username that was tried.
	Username string `db:"username" json:"username"`
	// Action is what was done: login, login.failed, logout, login.single,
	// password.change, password.reset, session.revoke, a dotted name such
	// as user.create, agency.funds or group.pay, or for any other
	// state-changing API call its operation id (createFlightOrder). The
	// list's action filter takes the same values.
	Action string `db:"action" json:"action"`
	// Target is what the action was done to, such as "user:<username>",
	// "agency:<id>", a booking number, or for an API call its method and
	// path ("POST /order/v2/flight/orders"); empty when the action has no
	// target (a login).
	Target string `db:"target" json:"target"`
	// Detail is free text about the action (for a login the browser's
	// user agent, for a user's update the fields changed, for a group
	// order's step the status before and after); often empty.
	Detail string `db:"detail" json:"detail"`
	// Facts are the names and figures the entry's summary mentions, such
	// as the booking number, the amount and its currency, as they were
	// when the entry was written; absent when the summary needs none.
	Facts Facts `db:"facts" json:"facts,omitempty"`
	// IP is the address the request came from; empty for what the
	// platform did by itself.
	IP string `db:"ip" json:"ip"`
	// CreatedAt is when the action happened (RFC 3339, UTC).
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
	// Summary is the entry as a sentence in the request's language, as the
	// portal's user log shows it ("Booked flight order F2611250001").
	Summary string `db:"-" json:"summary,omitempty"`
}

// Write appends e. db is a database or a transaction: an entry is written in
// the same transaction as the change it records, so neither exists alone.
func Write(ctx context.Context, db sqlx.ExtContext, e Entry) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now().UTC()
	}
	if e.IP == "" {
		e.IP, _ = ctx.Value(ipKey{}).(string)
	}
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO user_logs (agency_id, user_id, username, action, target, detail, facts, ip, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), e.AgencyID, e.UserID, e.Username, e.Action, e.Target, input.Clip(e.Detail, 500), e.Facts, e.IP, e.CreatedAt)
	if err != nil {
		return fmt.Errorf("audit: write %s: %w", e.Action, err)
	}
	return nil
}

type ipKey struct{}

// WithIP stores the caller's address for the entries written while serving
// the request, so a service that logs its own change (a group order's step,
// an agency's settings) still says where the change came from.
func WithIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, ipKey{}, ip)
}

// Filter narrows a listing.
type Filter struct {
	AgencyID int64
	Username string
	Action   string
	From, To time.Time
	Page     int
	PageSize int
}

// List returns one page of the agency's log, newest first, and the total.
func List(ctx context.Context, db sqlx.ExtContext, f Filter) ([]Entry, int, error) {
	var w store.Where
	w.And("agency_id = ?", f.AgencyID)
	w.Equal("username", strings.ToLower(f.Username))
	w.Equal("action", f.Action)
	w.Period("created_at", f.From, f.To)
	cond, args := w.SQL(), w.Args
	var total int
	if err := sqlx.GetContext(ctx, db, &total, db.Rebind(`SELECT COUNT(*) FROM user_logs WHERE `+cond), args...); err != nil {
		return nil, 0, fmt.Errorf("audit: count: %w", err)
	}
	out := []Entry{}
	err := sqlx.SelectContext(ctx, db, &out, db.Rebind(`SELECT id, agency_id, user_id, username, action, target, detail, facts, ip, created_at
		FROM user_logs WHERE `+cond+` ORDER BY id DESC LIMIT ? OFFSET ?`), append(args, f.PageSize, (f.Page-1)*f.PageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("audit: list: %w", err)
	}
	return out, total, nil
}

// Log writes entries for callers that are not inside a transaction of their
// own, such as the API router recording each state-changing call.
type Log struct {
	db    sqlx.ExtContext
	batch *store.Grouper[Entry]
}

// NewLog returns a Log on db.
func NewLog(db sqlx.ExtContext) *Log { return &Log{db: db} }

// Record appends e.
func (l *Log) Record(ctx context.Context, e Entry) error {
	if l.batch != nil {
		return l.batch.Write(ctx, e)
	}
	return Write(ctx, l.db, e)
}
