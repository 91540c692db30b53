package display

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/money"
)

// Currency is the footer's display currency and the site's rates (what one
// unit of each currency is worth in the site's default currency, as
// siteinfo serves them). Amounts stay in their settlement currency; the
// display currency only adds an approximate figure beside them.
type Currency struct {
	Code  string
	Rates map[string]string
}

type currencyKey struct{}

// WithCurrency puts the display currency into ctx.
func WithCurrency(ctx context.Context, c Currency) context.Context {
	return context.WithValue(ctx, currencyKey{}, c)
}

// CurrencyFrom is the request's display currency (zero when none was set).
func CurrencyFrom(ctx context.Context) Currency {
	c, _ := ctx.Value(currencyKey{}).(Currency)
	return c
}

func (c Currency) rate(code string) (decimal.Decimal, bool) {
	s, ok := c.Rates[code]
	if !ok {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil && d.IsPositive()
}

// Convert is amount of currency from in the display currency, through the
// site's base: amount × rate(from) ÷ rate(display), rounded up to two
// decimals as spec §9 shows converted prices (money.ForDisplay). ok is false
// when there is nothing to show: no display currency, the same currency, or
// no rate for either side.
func (c Currency) Convert(amount decimal.Decimal, from string) (decimal.Decimal, bool) {
	if c.Code == "" || from == "" || c.Code == from {
		return decimal.Decimal{}, false
	}
	rf, ok := c.rate(from)
	if !ok {
		return decimal.Decimal{}, false
	}
	rt, ok := c.rate(c.Code)
	if !ok {
		return decimal.Decimal{}, false
	}
	return money.ForDisplay(amount.Mul(rf), rt), true
}

// Approx is amount of currency from as the display currency shows it,
// marked approximate: "≈ USD 123.45"; "" when there is nothing to convert
// (see Convert) and for zero, which is zero in every currency (a column of
// empty balances would otherwise repeat "≈ USD 0.00").
func (c Currency) Approx(amount decimal.Decimal, from string) string {
	if amount.IsZero() {
		return ""
	}
	// A debit or a negative balance converts as its size with the sign
	// kept, so -1,000 shows as far from zero as 1,000 does.
	v, ok := c.Convert(amount.Abs(), from)
	if !ok {
		return ""
	}
	out := money.FormatDisplay(v)
	if money.Exponent(c.Code) == 0 {
		// A currency without minor units shows none (JPY, KRW): rounded up
		// as the two-decimal figure is.
		out = money.FormatDisplay(v.RoundCeil(0))
		out, _, _ = strings.Cut(out, ".")
	}
	if amount.IsNegative() {
		out = "-" + out
	}
	return "≈ " + c.Code + " " + out
}

// Approx is a displayed amount ("1,234.50", grouping commas allowed) of
// currency in the request's display currency, or "" (see Currency.Convert;
// an amount that does not parse shows nothing either).
func Approx(ctx context.Context, amount, currency string) string {
	d, err := decimal.NewFromString(strings.ReplaceAll(strings.TrimSpace(amount), ",", ""))
	if err != nil {
		return ""
	}
	return CurrencyFrom(ctx).Approx(d, strings.TrimSpace(currency))
}

// ApproxAmount is Approx for an amount in minor units.
func ApproxAmount(ctx context.Context, a money.Amount) string {
	return CurrencyFrom(ctx).Approx(a.Decimal(), a.Currency)
}
