package payment

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
)

// HeldOrder is Held for a line whose whole order a gateway payment holds
// (a flight order, a train order): the order waits in the line's holding
// status under the payment's key. Paid and Unpaid read it again in their
// transaction and move it only while it is still held by that key, so a
// status check racing the payer's own answer moves it once.
type HeldOrder[O any] struct {
	Order *O    // for Hold: the order to be paid (nil for the status check)
	ID    int64 // the order's id
	DB    *store.DB
	// Load reads order id in tx.
	Load func(ctx context.Context, db *store.DB, tx *sqlx.Tx, id int64) (O, error)
	// HeldBy says whether o still waits held by the payment key.
	HeldBy func(o O, key string) bool
	// Taken is the ledger's record of the payment key for o: the same
	// whether it pays the order or goes back to the wallet.
	Taken func(o O, key string, res ChargeResult) Taken
	Moves OrderMoves[O]
}

// OrderMoves are Held's steps on a line's order itself.
type OrderMoves[O any] interface {
	Hold(ctx context.Context, tx *sqlx.Tx, o *O, key string) error
	Paid(ctx context.Context, tx *sqlx.Tx, o *O, res ChargeResult) error
	Unpaid(ctx context.Context, tx *sqlx.Tx, o *O) error
}

// Hold holds the order being paid.
func (h HeldOrder[O]) Hold(ctx context.Context, tx *sqlx.Tx, key string) error {
	return h.Moves.Hold(ctx, tx, h.Order, key)
}

// Paid moves the order on if it is still held by key.
func (h HeldOrder[O]) Paid(ctx context.Context, tx *sqlx.Tx, key string, res ChargeResult) (Taken, bool, error) {
	o, err := h.Load(ctx, h.DB, tx, h.ID)
	if err != nil || !h.HeldBy(o, key) {
		return h.Taken(o, key, res), false, err
	}
	if err := h.Moves.Paid(ctx, tx, &o, res); err != nil {
		return Taken{}, true, err
	}
	return h.Taken(o, key, res), true, nil
}

// Unpaid puts the order back to be paid if it is still held by key.
func (h HeldOrder[O]) Unpaid(ctx context.Context, tx *sqlx.Tx, key string) error {
	o, err := h.Load(ctx, h.DB, tx, h.ID)
	if err != nil || !h.HeldBy(o, key) {
		return err
	}
	return h.Moves.Unpaid(ctx, tx, &o)
}
