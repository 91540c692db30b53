package api

import "testing"

func TestWithoutName(t *testing.T) {
	for _, c := range []struct{ in, field, want string }{
		{"Credit is the value returned as a voucher.", "Credit", "The value returned as a voucher."},
		{"Errors are the failed attempts' errors, oldest first.", "Errors", "The failed attempts' errors, oldest first."},
		{"KeyUsed: the key was posted before.", "KeyUsed", "The key was posted before."},
		{"Ledger lists the money movements.", "Ledger", "Lists the money movements."},
		{"the 6-character PNR code when present", "RecordLocator", "the 6-character PNR code when present"},
		{"Currency is", "Currency", "Currency is"},
		{"Currencyless is a word.", "Currency", "Currencyless is a word."},
	} {
		if got := withoutName(c.in, c.field); got != c.want {
			t.Errorf("withoutName(%q, %q) = %q, want %q", c.in, c.field, got, c.want)
		}
	}
}
