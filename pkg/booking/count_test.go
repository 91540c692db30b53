package booking_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/payment"
)

// TestOutcome: how a step ended is named alike on every line, wrapped
// errors included.
func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, "ok"},
		{fmt.Errorf("flight: pay 7: %w", payment.ErrPending), "pending"},
		{payment.ErrPaymentTimeout, "timeout"},
		{fmt.Errorf("gateway: %w", payment.ErrDeclined), "declined"},
		{fault.New(fault.CodePaymentFailed, http.StatusPaymentRequired, "error.payFail"), "declined"},
		{fault.New(fault.CodeInsufficientFund, http.StatusConflict, "error.insufficientFund"), "refused"},
		{fault.Validation(map[string]string{"channel": "error.required"}), "refused"},
		{fault.New(0, http.StatusGatewayTimeout, "error.timeout"), "timeout"},
		{fault.Internal(errors.New("disk full")), "error"},
		{errors.New("connection reset"), "error"},
	} {
		if got := booking.Outcome(c.err); got != c.want {
			t.Errorf("Outcome(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
