package airwallex

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/money"
)

// Airwallex writes amounts in major units as JSON numbers (9.99 for
// $9.99, "specified in major units as defined by ISO 4217": Airwallex,
// "PaymentIntents", https://www.airwallex.com/docs/payments/get-started/using-payments-intent-api);
// Voyage counts minor units with pkg/money's exponents.

// isoExponents are ISO 4217 minor-unit exponents other than 2 among the
// currencies Airwallex accepts. A currency whose exponent here is not
// pkg/money's is refused rather than converted: a three-decimal dinar
// that Voyage counts in hundredths would be charged ten times over or
// under.
var isoExponents = map[string]int32{
	"JPY": 0, "KRW": 0, "VND": 0, "CLP": 0, "ISK": 0, "UGX": 0, "XOF": 0, "XAF": 0, "PYG": 0,
	"KWD": 3, "BHD": 3, "JOD": 3, "OMR": 3, "TND": 3,
}

func exponent(currency string) (int32, error) {
	cur := strings.ToUpper(currency)
	if len(cur) != 3 {
		return 0, fmt.Errorf("currency %q is not an ISO 4217 code", currency)
	}
	iso, ok := isoExponents[cur]
	if !ok {
		iso = 2
	}
	if got := money.Exponent(cur); got != iso {
		return 0, fmt.Errorf("currency %s has %d decimals but Voyage counts it with %d", cur, iso, got)
	}
	return iso, nil
}

// Major is minor units as the JSON number Airwallex reads: 1234 USD is
// 12.34, 5000 JPY is 5000.
func Major(minor int64, currency string) (json.Number, error) {
	exp, err := exponent(currency)
	if err != nil {
		return "", err
	}
	return json.Number(decimal.New(minor, -exp).StringFixed(exp)), nil
}

// Minor reads an amount Airwallex wrote back into minor units, refusing
// more decimals than the currency has.
func Minor(n json.Number, currency string) (int64, error) {
	if n == "" {
		return 0, nil
	}
	exp, err := exponent(currency)
	if err != nil {
		return 0, err
	}
	d, err := decimal.NewFromString(n.String())
	if err != nil {
		return 0, fmt.Errorf("amount %q: %w", n, err)
	}
	scaled := d.Shift(exp)
	if !scaled.IsInteger() {
		return 0, fmt.Errorf("amount %q has more than %d decimals for %s", n, exp, currency)
	}
	return scaled.IntPart(), nil
}
