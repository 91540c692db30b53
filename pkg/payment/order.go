package payment

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// HeldOrder is Held for a line whose whole order a gateway payment holds
// (a flight order, a train order): the order waits in the line's holding
// status under the payment's key, with the line's status check queued in
// the same commit. Paid and Unpaid read it again in their transaction and
// move it only while it is still held by that key, so a status check
// racing the payer's own answer moves it once.
type HeldOrder[O any] struct {
	Order *O    // for Hold: the order to be paid (nil for the status check)
	ID    int64 // the order's id
	DB    *store.DB
	// Load reads order id in tx.
	Load func(ctx context.Context, db *store.DB, tx *sqlx.Tx, id int64) (O, error)
	// Payment is the order's payment fields: the channel it is paid by
	// and its payment key, which Hold sets.
	Payment func(o *O) (channel string, key *string)
	// Holding says whether o waits in the line's holding status.
	Holding func(o O) bool
	// Price is the order's price out of the agency's wallet, as the
	// wallet payment posts it too (the line's type, key, booking and
	// description): what the ledger records of a gateway payment, the
	// same whether it pays the order or goes back to the wallet.
	Price func(o O) ledger.Transfer
	// Move is the line's status move for a step of the protocol, in tx:
	// StepHold (by the payer), StepPaid (res is the gateway's answer),
	// StepUnpaid.
	Move func(ctx context.Context, tx *sqlx.Tx, o *O, step Step, res ChargeResult) error
	// Check queues the line's status check of the held order.
	Check func(ctx context.Context, tx *sqlx.Tx, o O) error
}

// Step is a step of the protocol a line's order moves on.
type Step int

// The protocol's steps (HeldOrder.Move).
const (
	// StepHold: the payment is asked for; the order waits held by it.
	StepHold Step = iota
	// StepPaid: the gateway took the money.
	StepPaid
	// StepUnpaid: it did not; the order is to be paid again.
	StepUnpaid
)

func (h HeldOrder[O]) heldBy(o O, key string) bool {
	_, k := h.Payment(&o)
	return h.Holding(o) && *k == key
}

// taken is the ledger's record of the gateway payment key for o.
func (h HeldOrder[O]) taken(o O, key string, res ChargeResult) Taken {
	channel, _ := h.Payment(&o)
	t := h.Price(o)
	t.Reference, t.CreatedBy = res.Reference, "system"
	t.Detail = map[string]string{"channel": channel}
	return Taken{Channel: channel, Key: key, Reference: res.Reference, Pay: t}
}

// CheckWith is the status check of the order h.ID, with the gateways this
// server has: nothing when the order is no longer held. A channel gone from
// the configuration is a nil gateway, which releases it. An error means
// "ask again later".
func (h HeldOrder[O]) CheckWith(ctx context.Context, p Protocol, gateways map[string]Gateway) error {
	o, err := h.Load(ctx, h.DB, nil, h.ID)
	if err != nil || !h.Holding(o) {
		return err
	}
	channel, key := h.Payment(&o)
	return p.Check(ctx, gateways[channel], *key, h)
}

// Hold holds the order being paid and queues its status check.
func (h HeldOrder[O]) Hold(ctx context.Context, tx *sqlx.Tx, key string) error {
	_, k := h.Payment(h.Order)
	*k = key
	if err := h.Move(ctx, tx, h.Order, StepHold, ChargeResult{}); err != nil {
		return err
	}
	return h.Check(ctx, tx, *h.Order)
}

// Paid moves the order on if it is still held by key.
func (h HeldOrder[O]) Paid(ctx context.Context, tx *sqlx.Tx, key string, res ChargeResult) (Taken, bool, error) {
	o, err := h.Load(ctx, h.DB, tx, h.ID)
	if err != nil || !h.heldBy(o, key) {
		return h.taken(o, key, res), false, err
	}
	if err := h.Move(ctx, tx, &o, StepPaid, res); err != nil {
		return Taken{}, true, err
	}
	return h.taken(o, key, res), true, nil
}

// Unpaid puts the order back to be paid if it is still held by key.
func (h HeldOrder[O]) Unpaid(ctx context.Context, tx *sqlx.Tx, key string) error {
	o, err := h.Load(ctx, h.DB, tx, h.ID)
	if err != nil || !h.heldBy(o, key) {
		return err
	}
	return h.Move(ctx, tx, &o, StepUnpaid, ChargeResult{})
}
