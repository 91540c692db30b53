// Package payment is the seam to the payment gateways that every product
// line (flights, trains, groups) takes money through: the channels, a
// charge and its result, the gateway's errors and the built-in test gateway.
package payment

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Payment channels (spec §3), in the payment configuration's order.
const (
	ChannelBalance = "balance"
)

// Channels is the spec's payment call configuration list.
var Channels = []string{"balance", "yeepay-alipay", "yeepay-credit-card", "yeepay-debit-card", "yeepay-wechat", "airwallex", "stripe", "alipay"}

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

// Test outcomes of the test gateway.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
	OutcomeTimeout = "timeout"
)

// TestGateway is the built-in gateway for development and tests: it succeeds
// unless the charge asks for failure or a time-out. A time-out charge is
// recorded as paid, as a real gateway that took the money but lost the
// answer would be, so the status check finds it.
type TestGateway struct {
	// FeePercent is the transaction fee in percent (whole numbers).
	FeePercent int64

	mu       sync.Mutex
	payments map[string]ChargeResult
	declined map[string]bool
}

// NewTestGateway returns an empty test gateway.
func NewTestGateway() *TestGateway {
	return &TestGateway{payments: map[string]ChargeResult{}, declined: map[string]bool{}}
}

// Charge implements Gateway.
func (g *TestGateway) Charge(ctx context.Context, c Charge) (ChargeResult, error) {
	if err := ctx.Err(); err != nil {
		return ChargeResult{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if r, ok := g.payments[c.Key]; ok {
		return r, nil
	}
	if g.declined[c.Key] {
		return ChargeResult{}, ErrDeclined
	}
	switch c.TestOutcome {
	case OutcomeFailure:
		g.declined[c.Key] = true
		return ChargeResult{}, ErrDeclined
	case OutcomeTimeout:
		g.payments[c.Key] = ChargeResult{Reference: fmt.Sprintf("test-%s", c.Key), Fee: c.Amount * g.FeePercent / 100}
		return ChargeResult{}, ErrPaymentTimeout
	}
	r := ChargeResult{Reference: fmt.Sprintf("test-%s", c.Key), Fee: c.Amount * g.FeePercent / 100}
	g.payments[c.Key] = r
	return r, nil
}

// Status implements Gateway.
func (g *TestGateway) Status(ctx context.Context, key string) (ChargeResult, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r, ok := g.payments[key]; ok {
		return r, nil
	}
	if g.declined[key] {
		return ChargeResult{}, ErrDeclined
	}
	return ChargeResult{}, ErrUnknownPayment
}
