// Package money holds amounts as integer minor units with their currency, and
// the spec's §9 rules for converting and showing them. Nothing else in Voyage
// rounds money.
package money

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/i18n"
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
	var buf [24]byte // a sign, an int64's 19 digits, a point and a leading 0
	return string(appendFixed(buf[:0], a.Minor, Exponent(a.Currency)))
}

// appendFixed appends minor units as a plain decimal with exp (at most 18)
// digits after the point, what decimal's StringFixed writes for them, from
// the integer itself: a search writes every price it shows this way, and
// StringFixed's big integers were a fiftieth of a search's CPU.
func appendFixed(b []byte, minor int64, exp int32) []byte {
	u := uint64(minor)
	if minor < 0 {
		b = append(b, '-')
		u = -u // MinInt64 too: its magnitude fits in a uint64
	}
	if exp <= 0 {
		return strconv.AppendUint(b, u, 10)
	}
	p := uint64(1)
	for range exp {
		p *= 10
	}
	b = strconv.AppendUint(b, u/p, 10)
	b = append(b, '.')
	frac := u % p
	for q := p / 10; q > frac && q > 1; q /= 10 {
		b = append(b, '0')
	}
	return strconv.AppendUint(b, frac, 10)
}

// Why an amount was refused. Each kind has its own catalog key, so the user
// is told what is wrong rather than a blanket "must be greater than zero".
const (
	// Malformed: not a plain decimal ("1e5", "0x10", "1,5", " ", "1.").
	Malformed ErrorKind = iota + 1
	// TooManyDecimals: more decimals than the currency's minor unit.
	TooManyDecimals
	// OutOfRange: too large to be money.
	OutOfRange
	// Negative: below zero where an amount cannot be.
	Negative
	// NotPositive: zero or below where an amount must be above zero.
	NotPositive
)

// ErrorKind says why Parse refused an amount.
type ErrorKind int

// ParseError is Parse's refusal: the input, its currency and why.
type ParseError struct {
	Kind     ErrorKind
	Input    string
	Currency string
}

func (e *ParseError) Error() string {
	switch e.Kind {
	case TooManyDecimals:
		return fmt.Sprintf("money: %q has more than %d decimals for %s", e.Input, Exponent(e.Currency), e.Currency)
	case OutOfRange:
		return fmt.Sprintf("money: %q is out of range", e.Input)
	case Negative:
		return fmt.Sprintf("money: %q is negative", e.Input)
	case NotPositive:
		return fmt.Sprintf("money: %q is not greater than zero", e.Input)
	}
	return fmt.Sprintf("money: %q is not a plain decimal number", e.Input)
}

// Key is the catalog key (with its arguments folded in, i18n.WithArgs) of
// the message that tells the user what is wrong with the amount.
func (e *ParseError) Key() string {
	switch e.Kind {
	case TooManyDecimals:
		if Exponent(e.Currency) == 0 {
			return i18n.WithArgs("money.error.wholeUnits", "currency", e.Currency)
		}
		return i18n.WithArgs("money.error.decimals", "currency", e.Currency, "places", Exponent(e.Currency))
	case OutOfRange:
		return "money.error.range"
	case Negative:
		return "money.error.negative"
	case NotPositive:
		return "money.error.notPositive"
	}
	return "money.error.malformed"
}

// ErrorKey is the catalog key of err when it is a *ParseError, else fallback.
func ErrorKey(err error, fallback string) string {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.Key()
	}
	return fallback
}

// maxMinor bounds an amount: 10^17 minor units, far above any real sum and
// safely inside int64.
var maxMinor = decimal.New(1, 17)

// Parse reads a plain decimal string ("1234.50", "-3.25", "1500"; surrounding
// spaces are ignored) into an amount of currency. Exponents, signs other than
// a leading minus, thousands separators and a bare or trailing point are
// refused as Malformed: "1e5" is not 100000. More decimals than the currency
// has are TooManyDecimals ("1.005" CNY; "1.000" is 1.00).
func Parse(s, currency string) (Amount, error) {
	t := strings.TrimSpace(s)
	if !plainDecimal(t) {
		return Amount{}, &ParseError{Kind: Malformed, Input: s, Currency: currency}
	}
	if len(t) > 64 {
		return Amount{}, &ParseError{Kind: OutOfRange, Input: s, Currency: currency}
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		return Amount{}, &ParseError{Kind: Malformed, Input: s, Currency: currency}
	}
	scaled := d.Shift(Exponent(currency))
	if !scaled.IsInteger() {
		return Amount{}, &ParseError{Kind: TooManyDecimals, Input: s, Currency: currency}
	}
	if scaled.Abs().GreaterThan(maxMinor) {
		return Amount{}, &ParseError{Kind: OutOfRange, Input: s, Currency: currency}
	}
	return Amount{Minor: scaled.IntPart(), Currency: currency}, nil
}

// ParseNonNegative is Parse refusing amounts below zero (Negative).
func ParseNonNegative(s, currency string) (Amount, error) {
	a, err := Parse(s, currency)
	if err == nil && a.Minor < 0 {
		return Amount{}, &ParseError{Kind: Negative, Input: s, Currency: currency}
	}
	return a, err
}

// ParsePositive is Parse refusing zero and amounts below it (NotPositive).
func ParsePositive(s, currency string) (Amount, error) {
	a, err := Parse(s, currency)
	if err == nil && a.Minor <= 0 {
		return Amount{}, &ParseError{Kind: NotPositive, Input: s, Currency: currency}
	}
	return a, err
}

// PlainDecimal reports whether s is written as a plain decimal (an
// optional minus, digits, optionally a point and digits): rates and
// percentages are read with it too, so "1e2" is never 100.
func PlainDecimal(s string) bool { return plainDecimal(s) }

// plainDecimal reports whether s is an optional minus, digits, and
// optionally a point followed by digits.
func plainDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasPoint := strings.Cut(s, ".")
	return allDigits(intPart) && (!hasPoint || allDigits(frac))
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
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
func FormatDisplay(v decimal.Decimal) string { return GroupDecimal(v.StringFixed(2)) }

// GroupDecimal puts thousands separators into a decimal written in digits,
// keeping its sign and its fraction as written: "-1234.50" → "-1,234.50".
func GroupDecimal(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasPoint := strings.Cut(s, ".")
	out := sign + GroupThousands(whole)
	if hasPoint {
		out += "." + frac
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
