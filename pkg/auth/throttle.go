package auth

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// limit is the throttle rule of one kind of secret check. A subject (an
// account, an address) may fail free times without waiting; after that every
// further attempt waits base, doubled with every failure, up to max. One
// failure is forgotten per leak of quiet, so a user's occasional typos never
// add up, while a guesser who keeps going keeps waiting.
//
// The wait is a delay, never a lockout: whoever comes after it is let
// through, and the right secret then works.
type limit struct {
	scope string
	free  int
	base  time.Duration
	max   time.Duration
	leak  time.Duration
}

// The throttles. An account is throttled across addresses, so spreading the
// guesses over many addresses gains nothing; an address is throttled across
// accounts, so trying one password on many accounts gains nothing.
var (
	// accountLimit counts a username's failed logins from every address
	// it never logged in from.
	accountLimit = limit{scope: "account", free: 5, base: 5 * time.Second, max: 15 * time.Minute, leak: 15 * time.Minute}
	// knownAddressLimit counts a username's failed logins from an address
	// it logged in from before (see knownAddressFor). Such a login skips
	// accountLimit: a guesser elsewhere who keeps the account waiting does
	// not keep its user out at the usual desk.
	knownAddressLimit = limit{scope: "known", free: 10, base: 5 * time.Second, max: 15 * time.Minute, leak: 15 * time.Minute}
	// addressLimit counts an address's failed logins, whatever the
	// username. It is higher than an account's: one office address serves
	// many users.
	addressLimit = limit{scope: "address", free: 20, base: 5 * time.Second, max: 15 * time.Minute, leak: 15 * time.Minute}
	// passwordLimit counts a user's wrong current passwords when changing
	// the password: the check a stolen session would guess at.
	passwordLimit = limit{scope: "password", free: 5, base: 5 * time.Second, max: 15 * time.Minute, leak: 15 * time.Minute}
	// ssoLimit counts an address's single-login entries with a bad
	// signature, an unknown user or a replayed code.
	ssoLimit = limit{scope: "sso", free: 20, base: 5 * time.Second, max: 15 * time.Minute, leak: 15 * time.Minute}
	// apiKeyLimit counts an address's unknown or revoked API keys.
	apiKeyLimit = limit{scope: "apikey", free: 20, base: 5 * time.Second, max: 15 * time.Minute, leak: 15 * time.Minute}
)

// knownAddressFor is how long an address a user logged in from stays known.
const knownAddressFor = 30 * 24 * time.Hour

// throttleKeep is how long a throttle row outlives its last attempt. Any
// row's count has leaked away by then: a count never exceeds its limit's
// ceiling (29 failures at most here), and one leaks per 15 minutes.
const throttleKeep = 24 * time.Hour

// wait is how long the attempt after failures failures must wait.
func (l limit) wait(failures int) time.Duration {
	if failures < l.free {
		return 0
	}
	w := l.base
	for i := l.free; i < failures && w < l.max; i++ {
		w *= 2
	}
	return min(w, l.max)
}

// ceiling is the count past which the wait no longer grows; counts are kept
// at most there, so a burst of failures does not take days to leak away.
func (l limit) ceiling() int {
	n := l.free
	for l.wait(n) < l.max {
		n++
	}
	return n + 1
}

// settled is the count left of failures after the quiet since last.
func (l limit) settled(failures int, last, now time.Time) int {
	if quiet := now.Sub(last); quiet > 0 && l.leak > 0 {
		failures -= int(quiet / l.leak)
	}
	return max(failures, 0)
}

// throttleKey is one throttle count: a limit and whom it counts.
type throttleKey struct {
	limit   limit
	subject string
}

func accountKey(username string) throttleKey { return throttleKey{accountLimit, username} }
func knownAddressKey(username, ip string) throttleKey {
	return throttleKey{knownAddressLimit, username + " " + ip}
}
func addressKey(ip string) throttleKey { return throttleKey{addressLimit, ip} }
func passwordKey(userID int64) throttleKey {
	return throttleKey{passwordLimit, strconv.FormatInt(userID, 10)}
}
func ssoKey(ip string) throttleKey           { return throttleKey{ssoLimit, ip} }
func apiKeyAddressKey(ip string) throttleKey { return throttleKey{apiKeyLimit, ip} }

// dbTime is t as the database keeps it: PostgreSQL keeps microseconds,
// rounded, so a time stored and read back could come back a little later
// than the clock's own and look like a wait still to run.
func dbTime(t time.Time) time.Time { return t.Truncate(time.Microsecond) }

type throttleRow struct {
	Failures     int       `db:"failures"`
	LastAt       time.Time `db:"last_at"`
	BlockedUntil time.Time `db:"blocked_until"`
}

// lockThrottle reads key's row in tx, creating it, and holds it: on
// PostgreSQL the no-op update takes the row lock until tx ends, so instances
// sharing the database count one attempt after another; SQLite's
// transactions take the single write lock when they begin.
func lockThrottle(ctx context.Context, tx *sqlx.Tx, k throttleKey, now time.Time) (throttleRow, error) {
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO auth_throttle (scope, subject, failures, last_at, blocked_until) VALUES (?, ?, 0, ?, ?)
		ON CONFLICT (scope, subject) DO UPDATE SET failures = auth_throttle.failures`), k.limit.scope, k.subject, now, now)
	if err != nil {
		return throttleRow{}, fmt.Errorf("auth: lock throttle %s: %w", k.limit.scope, err)
	}
	var r throttleRow
	err = tx.GetContext(ctx, &r, tx.Rebind(`SELECT failures, last_at, blocked_until FROM auth_throttle WHERE scope = ? AND subject = ?`), k.limit.scope, k.subject)
	if err != nil {
		return throttleRow{}, fmt.Errorf("auth: read throttle %s: %w", k.limit.scope, err)
	}
	return r, nil
}

func saveThrottle(ctx context.Context, tx *sqlx.Tx, k throttleKey, r throttleRow) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE auth_throttle SET failures = ?, last_at = ?, blocked_until = ? WHERE scope = ? AND subject = ?`),
		r.Failures, r.LastAt, r.BlockedUntil, k.limit.scope, k.subject)
	if err != nil {
		return fmt.Errorf("auth: save throttle %s: %w", k.limit.scope, err)
	}
	return nil
}

// chargeAttempt admits one attempt at a secret under every key, or refuses
// it with the longest wait still due under any of them. An admitted attempt
// is counted as a failure before the secret is checked, so attempts made at
// once, on one instance or many, are counted one after another and cannot
// slip through together; the caller settles it with clearThrottle or
// refundAttempt when the secret was right. A refused attempt counts nothing:
// someone who retries too early only waits the rest of the wait.
func (s *Service) chargeAttempt(ctx context.Context, now time.Time, keys ...throttleKey) error {
	// One order of locks for every caller, or two charges could deadlock.
	keys = slices.SortedFunc(slices.Values(keys), func(a, b throttleKey) int {
		return cmp.Or(cmp.Compare(a.limit.scope, b.limit.scope), cmp.Compare(a.subject, b.subject))
	})
	now = dbTime(now)
	var wait time.Duration
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		rows := make([]throttleRow, len(keys))
		for i, k := range keys {
			r, err := lockThrottle(ctx, tx, k, now)
			if err != nil {
				return err
			}
			if w := r.BlockedUntil.Sub(now); w > wait {
				wait = w
			}
			rows[i] = r
		}
		if wait > 0 {
			return nil
		}
		for i, k := range keys {
			n := min(k.limit.settled(rows[i].Failures, rows[i].LastAt, now)+1, k.limit.ceiling())
			r := throttleRow{Failures: n, LastAt: now, BlockedUntil: now.Add(k.limit.wait(n))}
			if err := saveThrottle(ctx, tx, k, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if wait > 0 {
		return errThrottled(wait)
	}
	return nil
}

// refundAttempt takes back the failure chargeAttempt counted for an attempt
// whose secret was right, leaving the count as the other attempts made it.
// An address's count is refunded rather than cleared: one good login of the
// guesser's own account must not wipe the address's failures on others.
func refundAttempt(ctx context.Context, tx *sqlx.Tx, k throttleKey, now time.Time) error {
	now = dbTime(now)
	r, err := lockThrottle(ctx, tx, k, now)
	if err != nil {
		return err
	}
	r.Failures = max(k.limit.settled(r.Failures, r.LastAt, now)-1, 0)
	// The wait this attempt's charge set goes with it: the next attempt
	// may come at once, as it could have before this one; what other
	// attempts failed meanwhile still counts.
	r.BlockedUntil = minTime(minTime(r.BlockedUntil, r.LastAt.Add(k.limit.wait(r.Failures))), now)
	return saveThrottle(ctx, tx, k, r)
}

// clearThrottle forgets key's failures: its secret was given right.
func clearThrottle(ctx context.Context, tx *sqlx.Tx, k throttleKey) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM auth_throttle WHERE scope = ? AND subject = ?`), k.limit.scope, k.subject); err != nil {
		return fmt.Errorf("auth: clear throttle %s: %w", k.limit.scope, err)
	}
	return nil
}

// knownAddress reports whether username logged in from ip within
// knownAddressFor.
func (s *Service) knownAddress(ctx context.Context, username, ip string, now time.Time) (bool, error) {
	var one int
	err := s.db.GetContext(ctx, &one, s.db.Rebind(`SELECT 1 FROM auth_login_addresses WHERE username = ? AND ip = ? AND last_login_at > ?`),
		username, ip, now.Add(-knownAddressFor))
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("auth: known address: %w", err)
	}
	return true, nil
}

// rememberAddress notes that username logged in from ip.
func rememberAddress(ctx context.Context, tx *sqlx.Tx, username, ip string, now time.Time) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO auth_login_addresses (username, ip, last_login_at) VALUES (?, ?, ?)
		ON CONFLICT (username, ip) DO UPDATE SET last_login_at = excluded.last_login_at`), username, ip, now)
	if err != nil {
		return fmt.Errorf("auth: remember address: %w", err)
	}
	return nil
}

// errThrottled is the 429 of a throttled attempt: it says when to try again,
// and Retry-After says it to programs.
func errThrottled(wait time.Duration) error {
	fe := fault.RateLimited("", wait)
	secs := fe.RetryAfterSeconds()
	switch {
	case secs <= 1:
		fe.Key = "auth.throttle.second"
	case secs <= 120:
		fe.Key, fe.Args = "auth.throttle.seconds", []any{"count", secs}
	default:
		fe.Key, fe.Args = "auth.throttle.minutes", []any{"count", (secs + 59) / 60}
	}
	return fe
}

// PurgeThrottle deletes throttle counts that have leaked away and login
// addresses no longer known; the clean-up job calls it.
func PurgeThrottle(ctx context.Context, db *store.DB, now time.Time) (int64, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM auth_throttle WHERE last_at < ? AND blocked_until < ?`), now.Add(-throttleKeep), now)
	if err != nil {
		return 0, fmt.Errorf("auth: purge throttle: %w", err)
	}
	n, _ := res.RowsAffected()
	res, err = db.ExecContext(ctx, db.Rebind(`DELETE FROM auth_login_addresses WHERE last_login_at < ?`), now.Add(-knownAddressFor))
	if err != nil {
		return 0, fmt.Errorf("auth: purge login addresses: %w", err)
	}
	m, _ := res.RowsAffected()
	return n + m, nil
}
