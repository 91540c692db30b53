package booking

import (
	"errors"
	"net/http"
	"slices"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/payment"
)

// Counter counts the steps every line takes alike (pkg/metrics): a booking
// asked for, a payment, money given back. Deps.Counter nil counts nothing.
type Counter interface {
	Booked(line, channel, outcome string)
	Paid(line, channel, outcome string)
	Refunded(line, channel, outcome string)
}

// Outcome names how a step ended, the same on every line: ok; pending (a
// channel payment waits for the payer); declined (the spec's Pay Fail,
// 402); timeout (the gateway or supplier did not answer, 504); refused
// (any other answer of the caller's: bad input, not allowed, not in this
// status, not enough money); error (the server's own failure).
func Outcome(err error) string {
	if err == nil {
		return "ok"
	}
	if errors.Is(err, payment.ErrPending) {
		return "pending"
	}
	if errors.Is(err, payment.ErrPaymentTimeout) {
		return "timeout"
	}
	if errors.Is(err, payment.ErrDeclined) {
		return "declined"
	}
	fe, ok := fault.As(err)
	switch {
	case !ok:
		return "error"
	case fe.Status == http.StatusPaymentRequired:
		return "declined"
	case fe.Status == http.StatusGatewayTimeout:
		return "timeout"
	case fe.Status >= 500:
		return "error"
	}
	return "refused"
}

// CountBooked counts a booking asked for on the line, as *err says it
// ended; a line's booking step defers it on its named error.
func (c *Core[B]) CountBooked(err *error) {
	if c.Counter != nil {
		c.Counter.Booked(c.Books.Line.Name, "", Outcome(*err))
	}
}

// CountPaid counts a payment through channel asked for on the line, as
// *err says it ended; a line's pay step defers it on its named error.
// A channel the spec does not have (the caller's typing) is "other".
func (c *Core[B]) CountPaid(channel string, err *error) {
	if c.Counter == nil {
		return
	}
	if channel != "" && !slices.Contains(payment.Channels, channel) {
		channel = "other"
	}
	c.Counter.Paid(c.Books.Line.Name, channel, Outcome(*err))
}
