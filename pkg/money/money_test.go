package money

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/i18n"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestForDisplay(t *testing.T) {
	tests := []struct{ base, rate, want string }{
		{"710", "7.1", "100.00"},
		{"100", "7.1", "14.09"},      // 14.0845… rounds up
		{"100", "7", "14.29"},        // 14.2857… rounds up
		{"0.01", "7.1", "0.01"},      // never shown as zero when charged
		{"1000", "0.047", "21276.6"}, // JPY-like rate
		{"50", "1", "50.00"},
		{"50", "0", "50.00"}, // missing rate: shown in base
	}
	for _, tt := range tests {
		got := ForDisplay(d(tt.base), d(tt.rate))
		if !got.Equal(d(tt.want)) {
			t.Errorf("ForDisplay(%s, %s) = %s, want %s", tt.base, tt.rate, got, tt.want)
		}
	}
}

func TestFormatDisplay(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0.00"},
		{"999.5", "999.50"},
		{"1000", "1,000.00"},
		{"1234567.8", "1,234,567.80"},
		{"-1234.5", "-1,234.50"},
		{"100000", "100,000.00"},
	}
	for _, tt := range tests {
		if got := FormatDisplay(d(tt.in)); got != tt.want {
			t.Errorf("FormatDisplay(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestForSettlement(t *testing.T) {
	tests := []struct{ in, want string }{
		{"9.876", "9.88"},
		{"9.994", "9.99"},
		{"10.4", "10"},
		{"10.5", "11"},
		{"1234.56", "1235"},
		{"-9.876", "-9.88"},
	}
	for _, tt := range tests {
		if got := ForSettlement(d(tt.in)); !got.Equal(d(tt.want)) {
			t.Errorf("ForSettlement(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseAndString(t *testing.T) {
	tests := []struct {
		in, cur string
		minor   int64
		str     string
		kind    ErrorKind
	}{
		{in: "1234.50", cur: "CNY", minor: 123450, str: "1234.50"},
		{in: "0.1", cur: "USD", minor: 10, str: "0.10"},
		{in: " 7 ", cur: "USD", minor: 700, str: "7.00"},
		{in: "1500", cur: "JPY", minor: 1500, str: "1500"},
		{in: "1500.00", cur: "JPY", minor: 1500, str: "1500"}, // no more precision than the yen has
		{in: "1.000", cur: "CNY", minor: 100, str: "1.00"},
		{in: "-3.25", cur: "EUR", minor: -325, str: "-3.25"},
		{in: "1.234", cur: "CNY", kind: TooManyDecimals},
		{in: "1.005", cur: "CNY", kind: TooManyDecimals},
		{in: "12.5", cur: "JPY", kind: TooManyDecimals},
		{in: "abc", cur: "CNY", kind: Malformed},
		{in: "", cur: "CNY", kind: Malformed},
		{in: "1e5", cur: "CNY", kind: Malformed},
		{in: "1E5", cur: "CNY", kind: Malformed},
		{in: "1e30", cur: "CNY", kind: Malformed},
		{in: "+5", cur: "CNY", kind: Malformed},
		{in: ".5", cur: "CNY", kind: Malformed},
		{in: "5.", cur: "CNY", kind: Malformed},
		{in: "1,000", cur: "CNY", kind: Malformed},
		{in: "0x10", cur: "CNY", kind: Malformed},
		{in: "--1", cur: "CNY", kind: Malformed},
		{in: "1 000", cur: "CNY", kind: Malformed},
		{in: "１２", cur: "CNY", kind: Malformed}, // full-width digits
		{in: "1000000000000000.00", cur: "CNY", minor: 100000000000000000, str: "1000000000000000.00"},
		{in: "1000000000000000.01", cur: "CNY", kind: OutOfRange},
		{in: "99999999999999999999999", cur: "CNY", kind: OutOfRange},
	}
	for _, tt := range tests {
		a, err := Parse(tt.in, tt.cur)
		var pe *ParseError
		switch {
		case tt.kind == 0 && err != nil:
			t.Errorf("Parse(%q, %s) err = %v", tt.in, tt.cur, err)
		case tt.kind != 0 && (!errors.As(err, &pe) || pe.Kind != tt.kind):
			t.Errorf("Parse(%q, %s) = %v, %v; want error kind %d", tt.in, tt.cur, a, err, tt.kind)
		case err == nil && (a.Minor != tt.minor || a.String() != tt.str):
			t.Errorf("Parse(%q, %s) = %d %q, want %d %q", tt.in, tt.cur, a.Minor, a.String(), tt.minor, tt.str)
		}
	}
}

// TestParseSign: the positive and non-negative variants refuse with their
// own kinds, after the malformed and decimal checks.
func TestParseSign(t *testing.T) {
	tests := []struct {
		in          string
		pos, nonneg ErrorKind
	}{
		{"1", 0, 0},
		{"0", NotPositive, 0},
		{"0.00", NotPositive, 0},
		{"-0", NotPositive, 0},
		{"-1", NotPositive, Negative},
		{"1.005", TooManyDecimals, TooManyDecimals},
		{"-1e5", Malformed, Malformed},
	}
	kind := func(err error) ErrorKind {
		var pe *ParseError
		if errors.As(err, &pe) {
			return pe.Kind
		}
		if err != nil {
			return -1
		}
		return 0
	}
	for _, tt := range tests {
		_, perr := ParsePositive(tt.in, "CNY")
		_, nerr := ParseNonNegative(tt.in, "CNY")
		if kind(perr) != tt.pos || kind(nerr) != tt.nonneg {
			t.Errorf("%q: positive %v, non-negative %v; want kinds %d, %d", tt.in, perr, nerr, tt.pos, tt.nonneg)
		}
	}
}

// TestParseErrorKeys: every kind has its own message, and the decimals
// message names the currency and its places in every language.
func TestParseErrorKeys(t *testing.T) {
	cat := i18n.MustLoad()
	seen := map[string]ErrorKind{}
	for _, k := range []ErrorKind{Malformed, TooManyDecimals, OutOfRange, Negative, NotPositive} {
		key := (&ParseError{Kind: k, Currency: "CNY"}).Key()
		for _, lang := range i18n.Supported() {
			if !cat.Has(lang, key) {
				t.Errorf("kind %d: key %q missing in %s", k, key, lang)
			}
		}
		msg := cat.T(i18n.EN, key)
		if prev, dup := seen[msg]; dup {
			t.Errorf("kinds %d and %d share the message %q", prev, k, msg)
		}
		seen[msg] = k
	}
	_, err := Parse("1.005", "CNY")
	if got := cat.T(i18n.EN, ErrorKey(err, "x")); got != "CNY allows at most 2 decimal places" {
		t.Errorf("1.005 CNY: %q", got)
	}
	if got := cat.T(i18n.ZhCN, ErrorKey(err, "x")); !strings.Contains(got, "CNY") || !strings.Contains(got, "2") || strings.Contains(got, "{{") {
		t.Errorf("1.005 CNY in zh-cn: %q", got)
	}
	_, err = Parse("1.5", "JPY")
	if got := cat.T(i18n.EN, ErrorKey(err, "x")); !strings.Contains(got, "JPY") || strings.Contains(got, "{{") {
		t.Errorf("1.5 JPY: %q", got)
	}
	if ErrorKey(errors.New("other"), "fallback") != "fallback" {
		t.Error("ErrorKey of a foreign error is not the fallback")
	}
}

func TestConvertAndPercent(t *testing.T) {
	tests := []struct {
		amount   Amount
		rate, to string
		want     int64
	}{
		{Amount{1000_00, "USD"}, "7.1", "CNY", 7100_00},
		{Amount{1_23, "USD"}, "7.1", "CNY", 8_73},      // 8.733 < 10 → two decimals
		{Amount{12_34, "USD"}, "7.1", "CNY", 88_00},    // 87.614 ≥ 10 → whole units
		{Amount{100_00, "CNY"}, "20.5", "JPY", 2050},   // JPY has no minor unit
		{Amount{5000, "JPY"}, "0.0468", "CNY", 234_00}, // 234.0
	}
	for _, tt := range tests {
		got := Convert(tt.amount, decimal.RequireFromString(tt.rate), tt.to)
		if got.Minor != tt.want || got.Currency != tt.to {
			t.Errorf("Convert(%v, %s) = %v, want %d %s", tt.amount, tt.rate, got, tt.want, tt.to)
		}
	}
	for _, tt := range []struct {
		minor   int64
		percent string
		want    int64
	}{{100_00, "1.5", 1_50}, {333, "1", 3}, {350, "1", 4}, {100_00, "0", 0}} {
		if got := Percent(Amount{tt.minor, "CNY"}, decimal.RequireFromString(tt.percent)); got.Minor != tt.want {
			t.Errorf("Percent(%d, %s) = %d, want %d", tt.minor, tt.percent, got.Minor, tt.want)
		}
	}
}

func TestConvertUp(t *testing.T) {
	cny, usd := decimal.NewFromInt(1), decimal.RequireFromString("7.2")
	cases := []struct {
		a    Amount
		from decimal.Decimal
		want int64
	}{
		{Amount{720000, "CNY"}, cny, 100000}, // exact
		{Amount{100, "CNY"}, cny, 14},        // 0.1389 → 0.14, never below cost
		{Amount{5000, "USD"}, usd, 5000},     // same currency untouched
	}
	for _, c := range cases {
		if got := ConvertUp(c.a, c.from, usd, "USD"); got.Minor != c.want || got.Currency != "USD" {
			t.Errorf("ConvertUp(%v) = %v, want %d USD", c.a, got, c.want)
		}
	}
}

// TestStringAsDecimal: String writes what decimal's StringFixed writes for
// the same minor units, at the edges of int64 and of each currency's digits.
func TestStringAsDecimal(t *testing.T) {
	minors := []int64{0, 1, -1, 5, -5, 9, 10, 99, 100, 101, -101, 1234, 123450, -325, 1000000000000000,
		100000000000000000, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	// Seeded, so that a failure is the same on the next run; the second
	// draw is any int64, either sign.
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		minors = append(minors, r.Int64N(2_000_000_000)-1_000_000_000, int64(r.Uint64()))
	}
	for _, cur := range []string{"CNY", "JPY", "USD", "KRW"} {
		for _, m := range minors {
			a := Amount{Minor: m, Currency: cur}
			if got, want := a.String(), a.Decimal().StringFixed(Exponent(cur)); got != want {
				t.Errorf("Amount{%d, %s}.String() = %q, want %q", m, cur, got, want)
			}
		}
	}
	for exp := int32(0); exp <= 18; exp++ {
		for _, m := range minors {
			if got, want := string(appendFixed(nil, m, exp)), decimal.New(m, -exp).StringFixed(exp); got != want {
				t.Errorf("appendFixed(%d, %d) = %q, want %q", m, exp, got, want)
			}
		}
	}
}

// BenchmarkString is one price's text, which a results page writes for
// every fare, tax and total it shows.
func BenchmarkString(b *testing.B) {
	a := Amount{Minor: 1234550, Currency: "CNY"}
	for b.Loop() {
		_ = a.String()
	}
}
