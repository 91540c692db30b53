package shopping

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/money"
)

// TestMarkupPercentExact: the integer path of a percentage markup gives
// money.Percent's result to the minor unit, halves and negatives included.
func TestMarkupPercentExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, pct := range []string{"3", "2.5", "-1.75", "0.0001", "12.3456", "-10", "150", "33.33", "9999"} {
		p := Policy{Currency: "CNY", Markups: map[string]agency.Markup{"china": {Unit: "percent", Value: pct}}}
		p.prepare()
		rule := p.rules["china"]
		if rule.den == 0 {
			t.Fatalf("%s%%: no integer form", pct)
		}
		d := decimal.RequireFromString(pct)
		prices := []int64{0, 1, 2, 50, 199, 200, 10000, 12345, 99999999, 1 << 35}
		for range 2000 {
			prices = append(prices, r.Int64N(1<<30), -r.Int64N(1<<20))
		}
		for _, price := range prices {
			want := money.Percent(money.Amount{Minor: price, Currency: "CNY"}, d).Minor
			if got := rule.percentOf(price); got != want {
				t.Fatalf("%s%% of %d = %d, money.Percent says %d", pct, price, got, want)
			}
		}
	}
}
