package payment

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
)

// Held is a booking of any line (a flight order, a train order, one
// installment of a group) as a gateway payment moves it: what the line does
// at each step of the one protocol (Take, Check).
type Held interface {
	// Hold marks the booking held by the payment (key), so no other payment
	// and no deadline takes it, and queues the line's status check, all in
	// tx: a crash after the gateway took the money still ends in Check.
	Hold(ctx context.Context, tx *sqlx.Tx, key string) error
	// Settle records the payment (SettleTx) and moves the booking on, in a
	// transaction of its own; nothing when the booking is no longer held
	// by key. A payment the booking can no longer use goes back to the
	// agency's wallet (PutBack).
	Settle(ctx context.Context, key string, res ChargeResult) error
	// Release puts the booking back to be paid (the payment did not
	// happen); nothing when the booking is no longer held by key.
	Release(ctx context.Context, key string) error
}

// Take is the one protocol of a gateway payment, the same on every line:
// hold the booking with its status check queued in the same commit, ask
// the gateway, then settle or release. ErrDeclined: the payment did not
// happen and the booking is to be paid again. ErrPaymentTimeout (wrapping
// the gateway's error): the gateway did not answer; the booking stays held
// and the status check settles or releases it.
func Take(ctx context.Context, db *store.DB, gw Gateway, c Charge, b Held) error {
	if err := db.InTx(ctx, func(tx *sqlx.Tx) error { return b.Hold(ctx, tx, c.Key) }); err != nil {
		return err
	}
	res, err := gw.Charge(ctx, c)
	switch {
	case err == nil:
		return b.Settle(ctx, c.Key, res)
	case errors.Is(err, ErrDeclined):
		if rerr := b.Release(ctx, c.Key); rerr != nil {
			return rerr
		}
		return ErrDeclined
	case errors.Is(err, ErrPaymentTimeout):
		return err
	}
	return fmt.Errorf("%w: %w", ErrPaymentTimeout, err)
}

// Check is the status check of a held booking: it asks the gateway what
// became of the payment key and settles or releases the booking. An error
// means "ask again later".
func Check(ctx context.Context, gw Gateway, key string, b Held) error {
	if gw == nil {
		// The channel is gone from this server's configuration: nothing can
		// say the payment happened.
		return b.Release(ctx, key)
	}
	res, err := gw.Status(ctx, key)
	switch {
	case err == nil:
		return b.Settle(ctx, key, res)
	case errors.Is(err, ErrDeclined), errors.Is(err, ErrUnknownPayment):
		return b.Release(ctx, key)
	}
	return fmt.Errorf("payment %s: status: %w", key, err)
}
