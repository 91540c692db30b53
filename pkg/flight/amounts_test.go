package flight

import (
	"testing"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
)

// TestReviewAmountMessages: a provider's refund or change figures say what is
// wrong with them; "1e5" is not taken as 100000.
func TestReviewAmountMessages(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	for _, tt := range []struct{ in, cur, want string }{
		{"1.005", "CNY", "CNY allows at most 2 decimal places"},
		{"1e5", "CNY", "Enter the amount as a plain number, such as 1234.50"},
		{"-1", "CNY", "Please enter an amount of zero or more"},
		{"7.5", "JPY", "JPY amounts are whole numbers, without decimals"},
	} {
		_, err := amountOr(tt.in, tt.cur, 0, "refundAmount")
		fe, ok := fault.As(err)
		if !ok || cat.T(i18n.EN, fe.Fields["refundAmount"]) != tt.want {
			t.Errorf("%q %s: %v, want %q", tt.in, tt.cur, err, tt.want)
		}
	}
	if v, err := amountOr("", "CNY", 42, "fee"); v != 42 || err != nil {
		t.Errorf("empty = %d, %v; want the default", v, err)
	}
	if v, err := amountOr("0", "CNY", 42, "fee"); v != 0 || err != nil {
		t.Errorf("zero = %d, %v", v, err)
	}
}
