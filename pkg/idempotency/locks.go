// Package idempotency serialises the requests that share an
// Idempotency-Key, across every instance on one database: the first runs,
// the replays wait for it and then run against what it left (an order
// already paid, a transfer already posted), so each service's own replay
// rule answers them with the first request's outcome instead of a status
// conflict. A lock is a row that its holder renews while it runs; a killed
// holder's row lapses after the lease and the next replay goes ahead.
package idempotency

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/turns"
)

// Defaults: the lease is short so a crashed holder delays a retry by
// seconds; the holder renews it well before it lapses.
const (
	DefaultLease = 15 * time.Second
	DefaultWait  = 60 * time.Second
)

// Locks hands out the per-key locks.
type Locks struct {
	db    *store.DB
	lease time.Duration
	// Wait is how long a replay waits for the first request before it is
	// answered "still in progress".
	wait time.Duration
	now  func() time.Time
	// every paces a holder's renewals (a time.Ticker's channel and stop);
	// a test gives its own ticks.
	every func(time.Duration) (<-chan time.Time, func())
	// local queues this instance's requests for one key, so that only one
	// of them polls the database while the others wait on a channel.
	local turns.Queue[lockKey]
}

type lockKey struct{ scope, key string }

// New returns the locks on db.
func New(db *store.DB) *Locks {
	return &Locks{db: db, lease: DefaultLease, wait: DefaultWait, now: time.Now, every: ticker}
}

func ticker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// SetTimes sets the lease and the longest wait, for tests.
func (l *Locks) SetTimes(lease, wait time.Duration) { l.lease, l.wait = lease, wait }

// ErrInProgress answers a replay whose first request is still running after
// the longest wait.
func ErrInProgress() error {
	return fault.New(fault.CodeConflict, http.StatusConflict, "idempotency.error.inProgress")
}

// Acquire waits until the caller holds key in scope and returns the
// function that releases it. It answers ErrInProgress when another holder
// kept the key past the longest wait, and ctx's error when ctx ends first.
func (l *Locks) Acquire(ctx context.Context, scope, key string) (release func(), err error) {
	_, release, err = l.Hold(ctx, scope, key)
	return release, err
}

// held is a lock held by a request, in its context: the request's last
// write may release it (ReleaseItem), and then release only lets go here.
type held struct {
	scope, key, token string
	gone              atomic.Bool
}

type heldKey struct{}

// ReleaseItem is the release of the lock ctx holds as a WITH item, named
// released, with ? marks for args: a request whose last write is one
// statement (a booking's order) lets the key go with it, a round trip
// fewer. A replay let in by that commit finds what the request wrote. The
// caller calls Released once the statement committed; ok is false when
// ctx holds no lock.
func ReleaseItem(ctx context.Context) (item string, args []any, ok bool) {
	h, _ := ctx.Value(heldKey{}).(*held)
	if h == nil || h.gone.Load() {
		return "", nil, false
	}
	return `released AS (` + releaseText + `)`, []any{h.scope, h.key, h.token}, true
}

// releaseText lets go of a lock its holder (the token) still holds.
const releaseText = `DELETE FROM idempotency_locks WHERE scope = ? AND idem_key = ? AND token = ?`

// Released says that a statement with ReleaseItem committed: the release
// function then does not delete the lock again.
func Released(ctx context.Context) {
	if h, _ := ctx.Value(heldKey{}).(*held); h != nil {
		h.gone.Store(true)
	}
}

// Hold is Acquire, with a context carrying the lock for ReleaseItem.
func (l *Locks) Hold(ctx context.Context, scope, key string) (_ context.Context, release func(), err error) {
	k := lockKey{scope, key}
	wait, cancel := context.WithTimeout(ctx, l.wait)
	defer cancel()
	unlockLocal, err := l.local.Take(wait, k)
	if err != nil {
		return ctx, nil, l.waitErr(ctx)
	}
	token := newToken()
	delay := 5 * time.Millisecond
	for {
		ok, err := l.try(ctx, k, token)
		if err != nil {
			unlockLocal()
			return ctx, nil, err
		}
		if ok {
			break
		}
		select {
		case <-time.After(delay):
		case <-wait.Done():
			unlockLocal()
			return ctx, nil, l.waitErr(ctx)
		}
		delay = min(delay*2, 200*time.Millisecond)
	}
	stop := make(chan struct{})
	renewed := make(chan struct{})
	go l.renew(k, token, stop, renewed)
	h := &held{scope: scope, key: key, token: token}
	var once sync.Once
	return context.WithValue(ctx, heldKey{}, h), func() {
		once.Do(func() {
			close(stop)
			<-renewed
			if h.gone.Load() {
				unlockLocal()
				return
			}
			// The release must happen even when the request's context is
			// gone (the client hung up after the work was done).
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if _, err := l.db.ExecContext(rctx, l.db.Rebind(releaseText), k.scope, k.key, token); err != nil {
				slog.WarnContext(rctx, "idempotency: release failed; the lock lapses with its lease", "err", err)
			}
			unlockLocal()
		})
	}, nil
}

func (l *Locks) waitErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return ErrInProgress()
}

// try takes the key when nobody holds it or its holder's lease lapsed.
func (l *Locks) try(ctx context.Context, k lockKey, token string) (bool, error) {
	now := l.now()
	res, err := l.db.ExecContext(ctx, l.db.Rebind(`INSERT INTO idempotency_locks (scope, idem_key, token, expires_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (scope, idem_key) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
		WHERE idempotency_locks.expires_at < ?`), k.scope, k.key, token, now.Add(l.lease).UnixMilli(), now.UnixMilli())
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return false, err
		}
		return false, fmt.Errorf("idempotency: take %s/%s: %w", k.scope, k.key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("idempotency: take %s/%s: %w", k.scope, k.key, err)
	}
	return n == 1, nil
}

// renew extends the lease at a third of its length until stop closes.
func (l *Locks) renew(k lockKey, token string, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick, stopTicks := l.every(l.lease / 3)
	defer stopTicks()
	for {
		select {
		case <-stop:
			return
		case <-tick:
			ctx, cancel := context.WithTimeout(context.Background(), l.lease/3)
			_, err := l.db.ExecContext(ctx, l.db.Rebind(`UPDATE idempotency_locks SET expires_at = ? WHERE scope = ? AND idem_key = ? AND token = ?`),
				l.now().Add(l.lease).UnixMilli(), k.scope, k.key, token)
			cancel()
			if err != nil {
				slog.Warn("idempotency: renewing a lock failed", "scope", k.scope, "err", err)
			}
		}
	}
}

func newToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
