package shopping

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/money"
)

// TestMarkupPercentExact: the integer path of a percentage markup gives
// money.Percent's result to the minor unit, halves and negatives included.
func TestMarkupPercentExact(t *testing.T) {
	t.Parallel()
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

// A solution's refund and change fees are the suppliers' plus the agency's
// service fees, and its void fee the agency's alone.
func TestSolutionStatesServiceFees(t *testing.T) {
	t.Parallel()
	req, parts, _ := simPartsIn(t, 30)
	cfg := agency.Config{Settings: agency.Settings{SettlementCurrency: "CNY"}}
	cfg.Flight.ServiceFees = agency.ServiceFees{Refund: "30", Change: "20.50", Void: "15"}
	p := PolicyFor(cfg, map[string]string{"CNY": "1"})
	plain := PolicyFor(agency.Config{Settings: agency.Settings{SettlementCurrency: "CNY"}}, map[string]string{"CNY": "1"})
	now := time.Now()
	with, without := build(req, parts, &p, now), build(req, parts, &plain, now)
	if len(with) == 0 || len(with) != len(without) {
		t.Fatalf("%d and %d solutions", len(with), len(without))
	}
	for i := range with {
		a, b := with[i].solution(req, &p).Conditions, without[i].solution(req, &plain).Conditions
		if a.RefundFee.Amount != plus(t, b.RefundFee.Amount, "30") || a.ChangeFee.Amount != plus(t, b.ChangeFee.Amount, "20.50") ||
			a.VoidFee.Amount != "15.00" || b.VoidFee.Amount != "0.00" {
			t.Fatalf("solution %d: with fees %+v, without %+v", i, a, b)
		}
	}
}

func plus(t *testing.T, a, b string) string {
	t.Helper()
	x, err1 := money.Parse(a, "CNY")
	y, err2 := money.Parse(b, "CNY")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return money.Amount{Minor: x.Minor + y.Minor, Currency: "CNY"}.String()
}
