package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Shift is one step on a booking's timeline: in status From, Action led to
// To, taken by Actor at At. A step that keeps the status (a passenger
// list's upload) has From == To; a booking's first step has no From.
type Shift[S, A ~string] struct {
	ID       int64
	Action   A
	From, To S
	Actor    string
	Remark   string
	At       time.Time
}

// Moved writes a status move in tx the one way every line does: save, the
// line's write of the booking guarded on its status still being sh.From
// (Guarded), then the step on the line's timeline t. When save wrote
// nothing, because another writer moved the booking first, it answers
// stale (the line's "not now" error) and writes nothing more.
//
// The flight line writes its move and its timeline entry in one statement
// on PostgreSQL (pkg/flight saveMoved), the order path's hottest write; its
// rule is this one.
func Moved[S, A ~string](ctx context.Context, tx *sqlx.Tx, t Timeline, sh Shift[S, A], save func() (bool, error), stale error) error {
	saved, err := save()
	if err != nil {
		return err
	}
	if !saved {
		return stale
	}
	return Add(ctx, tx, t, sh)
}

// Guarded runs update in tx, a line's write of one booking whose last
// condition is its status (…WHERE id = ? AND status = ?), and answers
// whether it wrote the booking: false when the booking was no longer in
// the status the line read it in.
func Guarded(ctx context.Context, tx *sqlx.Tx, update string, args ...any) (bool, error) {
	res, err := tx.ExecContext(ctx, tx.Rebind(update), args...)
	if err != nil {
		return false, fmt.Errorf("save: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("save: %w", err)
	}
	return n == 1, nil
}
