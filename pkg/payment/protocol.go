package payment

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// Held is a booking of any line (a flight order, a train order, one
// installment of a group) as a gateway payment moves it: what the line does
// at each step of the one protocol (Protocol.Take, Protocol.Check). Each
// runs in a transaction the protocol opens.
type Held interface {
	// Hold marks the booking held by the payment (key), so no other payment
	// and no deadline takes it, and queues the line's status check: a crash
	// after the gateway took the money still ends in Check.
	Hold(ctx context.Context, tx *sqlx.Tx, key string) error
	// Paid moves the booking held by key on (paid, due for ticketing) and
	// answers the ledger's record of the payment. held is false, and
	// nothing moved, when the booking is no longer held by key (released
	// meanwhile, paid already, ended): the money then goes back to the
	// agency's wallet.
	Paid(ctx context.Context, tx *sqlx.Tx, key string, res ChargeResult) (t Taken, held bool, err error)
	// Unpaid puts the booking held by key back to be paid (the payment did
	// not happen); nothing when it is no longer held by key.
	Unpaid(ctx context.Context, tx *sqlx.Tx, key string) error
}

// Protocol is the one way a gateway payment is taken, the same on every
// line: the database the bookings are held in and the ledger that records
// what the gateway took.
type Protocol struct {
	DB     *store.DB
	Ledger *ledger.Ledger
	// Log hears of gateways that did not answer (nil: slog's default).
	Log *slog.Logger
}

// Pay is a booking's payment through gw as every line takes it: scope
// names what is paid (Key's scope), key is the caller's idempotency key, so
// a replay asks the gateway with the same payment key ("" makes this
// attempt a key of its own). The answer is what the caller is told: nil
// when the booking is paid; the spec's "Pay Fail" (402) when the gateway
// declined, the booking to be paid again; its "Timeout" (504) when the
// gateway did not answer, the booking held until the status check settles
// or releases it; a *PendingError (ErrPending) when a real channel waits
// for the payer, the booking held until the channel's notification or the
// status check says what became of it.
func (p Protocol) Pay(ctx context.Context, gw Gateway, scope, key string, c Charge, b Held) error {
	c.Key = Key(scope, key)
	if key == "" {
		c.Key = scope + "-" + rand.Text()
	}
	err := p.Take(ctx, gw, c, b)
	switch {
	case errors.Is(err, ErrPending):
		// The payer finishes it at the channel: the caller shows how.
		return err
	case errors.Is(err, ErrDeclined):
		return fault.New(fault.CodePaymentFailed, http.StatusPaymentRequired, "order.error.payFail")
	case errors.Is(err, ErrPaymentTimeout):
		Logger(p.Log).WarnContext(ctx, "payment: the gateway did not answer; the status check will settle it", "payment", c.Key, "channel", c.Channel, "err", err)
		return &fault.Error{Code: fault.CodePaymentFailed, Status: http.StatusGatewayTimeout, Key: "order.error.payTimeout", Err: err}
	}
	return err
}

// Take holds the booking with its status check queued in the same commit,
// asks the gateway, then settles or releases. ErrDeclined: the payment did
// not happen and the booking is to be paid again. ErrPaymentTimeout
// (wrapping the gateway's error): the gateway did not answer; the booking
// stays held and the status check settles or releases it. ErrPending: the
// channel waits for the payer; the booking stays held likewise.
func (p Protocol) Take(ctx context.Context, gw Gateway, c Charge, b Held) error {
	if err := p.DB.InTx(ctx, func(tx *sqlx.Tx) error { return b.Hold(ctx, tx, c.Key) }); err != nil {
		return err
	}
	res, err := gw.Charge(ctx, c)
	switch {
	case err == nil:
		return p.settle(ctx, b, c.Key, res)
	case errors.Is(err, ErrDeclined):
		if rerr := p.release(ctx, b, c.Key); rerr != nil {
			return rerr
		}
		return ErrDeclined
	case errors.Is(err, ErrPaymentTimeout), errors.Is(err, ErrPending):
		// Held: the status check (or the channel's notification) settles
		// or releases it.
		return err
	}
	return fmt.Errorf("%w: %w", ErrPaymentTimeout, err)
}

// Check is the status check of a held booking: it asks the gateway what
// became of the payment key and settles or releases the booking. An error
// means "ask again later".
func (p Protocol) Check(ctx context.Context, gw Gateway, key string, b Held) error {
	if gw == nil {
		// The channel is gone from this server's configuration: nothing can
		// say the payment happened.
		return p.release(ctx, b, key)
	}
	res, err := gw.Status(ctx, key)
	switch {
	case err == nil:
		return p.settle(ctx, b, key, res)
	case errors.Is(err, ErrDeclined), errors.Is(err, ErrUnknownPayment):
		return p.release(ctx, b, key)
	}
	return fmt.Errorf("payment %s: status: %w", key, err)
}

// settle moves the booking held by key on and records the payment in the
// same commit (SettleTx); a booking no longer held by key gets the money in
// its agency's wallet instead (PutBack): once, however often this runs.
func (p Protocol) settle(ctx context.Context, b Held, key string, res ChargeResult) error {
	var back *Taken
	err := p.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		t, held, err := b.Paid(ctx, tx, key, res)
		if err != nil {
			return err
		}
		if !held {
			back = &t
			return nil
		}
		return SettleTx(ctx, p.Ledger, tx, t)
	})
	if err == nil && back != nil {
		return PutBack(ctx, p.Ledger, *back)
	}
	return err
}

func (p Protocol) release(ctx context.Context, b Held, key string) error {
	return p.DB.InTx(ctx, func(tx *sqlx.Tx) error { return b.Unpaid(ctx, tx, key) })
}
