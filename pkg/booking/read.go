package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
)

// Reader reads one booking of a line's table, by id or by the idempotency
// key its agency created it with. The row type and how it becomes a booking
// are the line's; how it is found, prepared and told missing is the same for
// every line.
type Reader[R, B any] struct {
	what     string // the booking's name in errors: "train order"
	byID     *store.Statement
	byKey    *store.Statement
	notFound func() error
	decode   func(R) (B, error)
}

// NewReader declares the reader's statements over table's columns; call it
// once, at package level, as a store.Statement is declared. notFound is the
// line's answer for an id that is not there.
func NewReader[R, B any](table, columns, what string, notFound func() error, decode func(R) (B, error)) Reader[R, B] {
	return Reader[R, B]{
		what: what,
		byID: store.NewStatement(`SELECT ` + columns + ` FROM ` + table + ` WHERE id = ?`),
		// The lines' idempotency indexes are partial (idempotency_key <>
		// ''): the plan PostgreSQL keeps for a prepared statement does not
		// know the key is never empty (a create refuses an empty one), so
		// the statement states the predicate or it scans the agency's
		// bookings.
		byKey: store.NewStatement(`SELECT ` + columns + ` FROM ` + table + `
		WHERE agency_id = ? AND idempotency_key = ? AND idempotency_key <> ''`),
		notFound: notFound, decode: decode,
	}
}

// Load reads booking id, in tx or on the pool when tx is nil.
func (r Reader[R, B]) Load(ctx context.Context, db *store.DB, tx *sqlx.Tx, id int64) (B, error) {
	var row R
	var zero B
	err := db.GetStmt(ctx, tx, &row, r.byID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return zero, r.notFound()
	}
	if err != nil {
		return zero, fmt.Errorf("%s %d: load: %w", r.what, id, err)
	}
	return r.decode(row)
}

// ByKey finds the booking an agency created with idempotency key; false
// when there is none.
func (r Reader[R, B]) ByKey(ctx context.Context, db *store.DB, agencyID int64, key string) (B, bool, error) {
	var row R
	var zero B
	err := db.GetStmt(ctx, nil, &row, r.byKey, agencyID, key)
	if errors.Is(err, sql.ErrNoRows) {
		return zero, false, nil
	}
	if err != nil {
		return zero, false, fmt.Errorf("%s: find idempotency key: %w", r.what, err)
	}
	b, err := r.decode(row)
	return b, err == nil, err
}
