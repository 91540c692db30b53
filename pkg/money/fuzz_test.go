package money

import (
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

var fuzzCurrencies = []string{"CNY", "USD", "JPY", "EUR", "KRW", "HKD"}

// FuzzParse: Parse never panics; what it accepts is a plain decimal within
// range, equal to the input's value, and survives String → Parse unchanged;
// what it refuses carries a kind with a catalog key.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1234.50", "0", "-0", "-3.25", "1.005", "1e5", "1E-2", "+5", ".5", "5.", " 7 ",
		"1,000", "0x10", "NaN", "Infinity", "１２", "1000000000000000.00", "99999999999999999999", "00000000000001.10",
		"-", "", "1..2", "1.2.3", "\x00", "1\x002"} {
		for i := range fuzzCurrencies {
			f.Add(s, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, s string, cur uint8) {
		currency := fuzzCurrencies[int(cur)%len(fuzzCurrencies)]
		a, err := Parse(s, currency)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Kind < Malformed || pe.Kind > NotPositive || pe.Key() == "" {
				t.Fatalf("Parse(%q, %s): error without a kind: %v", s, currency, err)
			}
			return
		}
		trimmed := strings.TrimSpace(s)
		if strings.ContainsAny(trimmed, "eE+, _xX") || !plainDecimal(trimmed) {
			t.Fatalf("Parse(%q, %s) accepted a non-plain decimal as %d", s, currency, a.Minor)
		}
		if a.Currency != currency {
			t.Fatalf("Parse(%q, %s): currency %s", s, currency, a.Currency)
		}
		if a.Minor > 1e17 || a.Minor < -1e17 {
			t.Fatalf("Parse(%q, %s) = %d, out of bounds", s, currency, a.Minor)
		}
		want := decimal.RequireFromString(trimmed)
		if !a.Decimal().Equal(want) {
			t.Fatalf("Parse(%q, %s) = %s, the input's value is %s", s, currency, a.Decimal(), want)
		}
		back, err := Parse(a.String(), currency)
		if err != nil || back != a {
			t.Fatalf("round trip of %q (%s): String %q parsed as %v, %v", s, currency, a.String(), back, err)
		}
		if _, err := ParsePositive(s, currency); (err == nil) != (a.Minor > 0) {
			t.Fatalf("ParsePositive(%q) = %v for minor %d", s, err, a.Minor)
		}
		if _, err := ParseNonNegative(s, currency); (err == nil) != (a.Minor >= 0) {
			t.Fatalf("ParseNonNegative(%q) = %v for minor %d", s, err, a.Minor)
		}
	})
}
