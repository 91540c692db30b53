// Package payment is the seam to the payment gateways that every product
// line (flights, trains, groups) takes money through: the channels, a
// charge and its result, the gateway's errors and the built-in test gateway.
package payment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/store"
)

// Payment channels (spec §3), in the payment configuration's order.
const (
	ChannelBalance = "balance"
)

// Channels are the spec's payment channels: its payment call
// configuration list (balance, the Yeepay ones, airwallex, stripe,
// alipay) in that list's order, then wechat-pay, a channel of the spec
// that list does not name.
var Channels = []string{"balance", "yeepay-alipay", "yeepay-credit-card", "yeepay-debit-card", "yeepay-wechat", "airwallex", "stripe", "alipay", "wechat-pay"}

// Charge asks a gateway to take a payment. Key is stable per order payment so
// a gateway that saw it before answers with the first result.
type Charge struct {
	Key      string
	Channel  string
	OrderID  int64
	Amount   int64
	Currency string
	// TestOutcome drives the test gateway (success, failure, timeout);
	// real gateways ignore it.
	TestOutcome string
	// What it pays, for a real channel's record (ChannelGateway): the
	// line (booking.Line's name), the booking (OrderID) and, for a group,
	// the installment (Stage), of the agency; Subject is what the payer
	// sees; Method picks Yeepay's way of paying.
	Line, Stage, Subject, Method string
	AgencyID                     int64
	// PayBy is the booking's own deadline: the channel's payment closes
	// no later.
	PayBy time.Time
}

// ChargeResult is a gateway's answer.
type ChargeResult struct {
	Reference string
	// Fee is the gateway's transaction fee, in the charge's currency.
	Fee int64
}

// Gateway errors.
var (
	// ErrDeclined: the payment did not happen.
	ErrDeclined = errors.New("payment: declined")
	// ErrPaymentTimeout: the gateway did not answer; the payment may or may
	// not have happened and Status will tell.
	ErrPaymentTimeout = errors.New("payment: gateway timed out")
	// ErrUnknownPayment: Status found no payment for the key.
	ErrUnknownPayment = errors.New("payment: no such payment")
)

// Gateway takes payments for the external channels.
type Gateway interface {
	Charge(ctx context.Context, c Charge) (ChargeResult, error)
	// Status says whether the payment with key happened: the result when it
	// did, ErrDeclined or ErrUnknownPayment when it did not, ErrPaymentTimeout
	// when the gateway still cannot say.
	Status(ctx context.Context, key string) (ChargeResult, error)
}

// MaxKey is the longest payment key: what the ledger records of a payment
// under it ("receipt-" and the key) must fit the ledger's 100-character
// idempotency keys.
const MaxKey = 80

// Key is the gateway key of a payment: scope names what it pays (the line,
// the booking and, for a group, the installment: "order-12",
// "group-7-first"), key is the caller's idempotency key, so a replay asks
// the gateway with the same payment key. A caller's key long enough to push
// it past MaxKey is replaced by its SHA-256, which still makes one key of
// one caller's key.
func Key(scope, key string) string {
	if k := scope + "-" + key; len(k) <= MaxKey {
		return k
	}
	sum := sha256.Sum256([]byte(key))
	return scope + "-h" + hex.EncodeToString(sum[:16])
}

// Test outcomes of the test gateway.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
	OutcomeTimeout = "timeout"
)

// TestGateway is the built-in gateway for development and tests: it succeeds
// unless the charge asks for failure or a time-out. A time-out charge is
// recorded as paid, as a real gateway that took the money but lost the
// answer would be, so the status check finds it. Like a real gateway it
// keeps its payments on its side of the seam (test_gateway_payments), not in
// one instance's memory: after a kill -9, or on another instance, the
// status check learns what became of a key.
type TestGateway struct {
	// FeePercent is the transaction fee in percent (whole numbers).
	FeePercent int64

	db *store.DB
}

// NewTestGateway returns the test gateway keeping its payments in db.
func NewTestGateway(db *store.DB) *TestGateway {
	return &TestGateway{db: db}
}

// Test gateway outcomes as it records them.
const (
	testPaid     = "paid"
	testDeclined = "declined"
)

type testPayment struct {
	Outcome   string `db:"outcome"`
	Fee       int64  `db:"fee"`
	Reference string `db:"reference"`
}

// Charge implements Gateway. The first charge of a key decides what the
// key is; a later one answers the same.
func (g *TestGateway) Charge(ctx context.Context, c Charge) (ChargeResult, error) {
	if err := ctx.Err(); err != nil {
		return ChargeResult{}, err
	}
	outcome := testPaid
	if c.TestOutcome == OutcomeFailure {
		outcome = testDeclined
	}
	r := ChargeResult{Reference: "test-" + c.Key, Fee: c.Amount * g.FeePercent / 100}
	res, err := g.db.ExecContext(ctx, g.db.Rebind(`INSERT INTO test_gateway_payments
		(payment_key, outcome, channel, amount, currency, fee, reference, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (payment_key) DO NOTHING`),
		c.Key, outcome, c.Channel, c.Amount, c.Currency, r.Fee, r.Reference, time.Now().UTC())
	if err != nil {
		return ChargeResult{}, fmt.Errorf("%w: test gateway: %w", ErrPaymentTimeout, err)
	}
	first, err := res.RowsAffected()
	switch {
	case err != nil:
		return ChargeResult{}, fmt.Errorf("%w: test gateway: %w", ErrPaymentTimeout, err)
	case first == 0:
		// A replay: the key's first charge decided it.
		return g.Status(ctx, c.Key)
	case outcome == testDeclined:
		return ChargeResult{}, ErrDeclined
	case c.TestOutcome == OutcomeTimeout:
		return ChargeResult{}, ErrPaymentTimeout
	}
	return r, nil
}

// Status implements Gateway.
func (g *TestGateway) Status(ctx context.Context, key string) (ChargeResult, error) {
	p, ok, err := getRow[testPayment](ctx, g.db, `SELECT outcome, fee, reference FROM test_gateway_payments WHERE payment_key = ?`, key)
	switch {
	case err != nil:
		return ChargeResult{}, fmt.Errorf("%w: test gateway: %w", ErrPaymentTimeout, err)
	case !ok:
		return ChargeResult{}, ErrUnknownPayment
	case p.Outcome == testDeclined:
		return ChargeResult{}, ErrDeclined
	}
	return ChargeResult{Reference: p.Reference, Fee: p.Fee}, nil
}
