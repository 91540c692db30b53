// Package money holds amounts as integer minor units with their currency, and
// the spec's §9 rules for converting and showing them. Nothing else in Voyage
// rounds money.
package money

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Amount is a sum of money in minor units (cents, fen) of its currency.
type Amount struct {
	Minor    int64
	Currency string
}

// exponents are ISO 4217 minor-unit exponents that differ from 2.
var exponents = map[string]int32{"JPY": 0, "KRW": 0}

// Exponent is the number of decimals of a currency's minor unit.
func Exponent(currency string) int32 {
	if e, ok := exponents[currency]; ok {
		return e
	}
	return 2
}

// Decimal returns the amount in major units.
func (a Amount) Decimal() decimal.Decimal {
	return decimal.New(a.Minor, -Exponent(a.Currency))
}

// String is the amount as a plain decimal with its currency's digits, as the
// API returns it ("1234.50").
func (a Amount) String() string {
	return a.Decimal().StringFixed(Exponent(a.Currency))
}

// Parse reads a decimal string into an amount, refusing more digits than the
// currency has.
func Parse(s, currency string) (Amount, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return Amount{}, fmt.Errorf("money: %q is not a number", s)
	}
	exp := Exponent(currency)
	scaled := d.Shift(exp)
	if !scaled.Equal(scaled.Truncate(0)) {
		return Amount{}, fmt.Errorf("money: %q has more than %d decimals for %s", s, exp, currency)
	}
	if !scaled.IsInteger() || scaled.Abs().GreaterThan(decimal.New(1, 17)) {
		return Amount{}, fmt.Errorf("money: %q is out of range", s)
	}
	return Amount{Minor: scaled.IntPart(), Currency: currency}, nil
}

// ForDisplay converts a price in the base currency to the display currency
// (spec §9): divided by the display currency's rate and rounded up, so a shown
// price is never below what is charged, to two decimals.
func ForDisplay(base decimal.Decimal, rate decimal.Decimal) decimal.Decimal {
	if rate.Sign() <= 0 {
		return base.RoundCeil(2)
	}
	return base.DivRound(rate, 16).RoundCeil(2)
}

// GroupThousands puts commas between groups of three digits of a whole
// number written in digits: "1234567" → "1,234,567".
func GroupThousands(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// FormatDisplay writes a display value with two decimals and thousands
// separators: 1234567.8 → "1,234,567.80".
func FormatDisplay(v decimal.Decimal) string {
	s := v.StringFixed(2)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	out := GroupThousands(intPart) + "." + frac
	if neg {
		out = "-" + out
	}
	return out
}

// ForSettlement rounds a converted settlement amount the spec's way: two
// decimals when it is under 10, whole units otherwise.
func ForSettlement(v decimal.Decimal) decimal.Decimal {
	if v.Abs().LessThan(decimal.NewFromInt(10)) {
		return v.Round(2)
	}
	return v.Round(0)
}

// Convert changes an amount into another currency at rate (units of `to` per
// unit of `from`), rounded the spec's settlement way (ForSettlement) and then
// to the target currency's minor unit.
func Convert(a Amount, rate decimal.Decimal, to string) Amount {
	v := ForSettlement(a.Decimal().Mul(rate))
	return Amount{Minor: v.Shift(Exponent(to)).Round(0).IntPart(), Currency: to}
}

// Percent is percent % of a, rounded half up to the minor unit: a fee is
// never a fraction of a cent.
func Percent(a Amount, percent decimal.Decimal) Amount {
	v := decimal.NewFromInt(a.Minor).Mul(percent).Div(decimal.NewFromInt(100)).Round(0)
	return Amount{Minor: v.IntPart(), Currency: a.Currency}
}

// ConvertUp changes an amount into another currency through a common base:
// fromRate and toRate are what one unit of each is worth in the base (the
// site's rates). Rounded up to the target's minor unit, so a price shown in
// the settlement currency is never below what the supplier charges.
func ConvertUp(a Amount, fromRate, toRate decimal.Decimal, to string) Amount {
	if a.Currency == to {
		return a
	}
	v := a.Decimal().Mul(fromRate).DivRound(toRate, 12).Shift(Exponent(to)).RoundCeil(0)
	return Amount{Minor: v.IntPart(), Currency: to}
}
