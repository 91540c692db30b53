package shopping

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

func TestMarkup(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		m     agency.Markup
		price int64
		want  int64
	}{
		{"percent", agency.Markup{Unit: "percent", Value: "10", Limit: "0"}, 100000, 10000},
		{"percent capped", agency.Markup{Unit: "percent", Value: "10", Limit: "50"}, 100000, 5000},
		{"amount", agency.Markup{Unit: "amount", Value: "25.50", Limit: "0"}, 100000, 2550},
		{"discount capped", agency.Markup{Unit: "amount", Value: "-80", Limit: "30"}, 100000, -3000},
		{"never below zero", agency.Markup{Unit: "amount", Value: "-80", Limit: "0"}, 5000, -5000},
		{"zero", agency.Markup{Unit: "percent", Value: "0", Limit: "0"}, 100000, 0},
	}
	for _, c := range cases {
		p := Policy{Currency: "CNY", Markups: map[string]agency.Markup{"international": c.m}}
		p.prepare()
		if got := p.markup("international", c.price); got != c.want {
			t.Errorf("%s: markup = %d, want %d", c.name, got, c.want)
		}
		if got := p.markup("china", c.price); got != 0 {
			t.Errorf("%s: a class without a markup got %d", c.name, got)
		}
	}
}

func TestConvertRoundsUp(t *testing.T) {
	t.Parallel()
	p := Policy{Currency: "USD", Rates: map[string]decimal.Decimal{"CNY": decimal.NewFromInt(1), "USD": decimal.RequireFromString("7.2"), "JPY": decimal.RequireFromString("0.048")}}
	cases := []struct {
		minor int64
		from  string
		want  int64
		ok    bool
	}{
		{720000, "CNY", 100000, true}, // 7,200.00 CNY = 1,000.00 USD
		{100, "CNY", 14, true},        // 1.00 CNY = 0.1389 USD → 0.14
		{10000, "JPY", 6667, true},    // 10,000 JPY = 480 CNY = 66.666… USD → 66.67
		{5000, "USD", 5000, true},
		{100, "EUR", 0, false}, // no rate
	}
	for _, c := range cases {
		got, ok := p.convert(c.minor, c.from)
		if got != c.want || ok != c.ok {
			t.Errorf("convert %d %s = %d %v, want %d %v", c.minor, c.from, got, ok, c.want, c.ok)
		}
	}
}

func TestSpeedProduct(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lcc     bool
		minutes int
		hours   float64
		want    string
	}{
		{true, 30, 200, SpeedWebsite},
		{false, 30, 200, SpeedFast},
		{false, 60, 200, SpeedPreference},
		{false, 120, 200, SpeedNormal},
		{false, 2880, 200, SpeedSpecial},
		{false, 2880, 60, Special48},
		{false, 2880, 30, SpecialBefore24},
		{false, 2880, 10, SpecialBefore4},
	}
	for _, c := range cases {
		if got := speedProduct(c.lcc, c.minutes, c.hours); got != c.want {
			t.Errorf("speedProduct(%v, %d, %v) = %s, want %s", c.lcc, c.minutes, c.hours, got, c.want)
		}
	}
}

func TestCompatibleDocuments(t *testing.T) {
	t.Parallel()
	ticket := func(docs ...string) *priced {
		return &priced{offer: &supplier.Offer{Restrictions: supplier.Restrictions{Documents: docs}}}
	}
	cases := []struct {
		name    string
		tickets []*priced
		want    bool
	}{
		{"any and any", []*priced{ticket(), ticket()}, true},
		{"any and passport", []*priced{ticket(), ticket("passport")}, true},
		{"overlap", []*priced{ticket("idcard", "passport"), ticket("passport")}, true},
		{"disjoint", []*priced{ticket("idcard"), ticket("passport")}, false},
	}
	for _, c := range cases {
		if got := compatible(c.tickets...); got != c.want {
			t.Errorf("%s: compatible = %v, want %v", c.name, got, c.want)
		}
	}
}

// Each content setting alone keeps out the offers it names, and an agency
// without any keeps every offer.
func TestAdmitsEachSettingAlone(t *testing.T) {
	t.Parallel()
	offer := func(carrier, from, basis string) *supplier.Offer {
		return &supplier.Offer{Supplier: "gds", Baggage: supplier.Baggage{CheckedPieces: 1}, Segments: []supplier.Segment{
			{Carrier: "CA", Origin: "HKG", Destination: "LHR", FareBasis: "Y"},
			{Carrier: carrier, Origin: from, Destination: "CDG", FareBasis: basis}}}
	}
	plain := offer("CA", "LHR", "Y")
	for _, c := range []struct {
		name   string
		policy Policy
		out    *supplier.Offer
	}{
		{"none", Policy{}, nil},
		{"mainland hidden", Policy{HideMainland: true}, offer("CA", "PEK", "Y")},
		{"fare basis only", Policy{FareBasisOnly: true}, offer("CA", "LHR", "")},
		{"blacklist", Policy{AirlineFilter: agency.AirlineFilter{Mode: "blacklist", Airlines: []string{"BA"}}}, offer("BA", "LHR", "Y")},
		{"whitelist", Policy{AirlineFilter: agency.AirlineFilter{Mode: "whitelist", Airlines: []string{"CA"}}}, offer("BA", "LHR", "Y")},
		{"suppliers", Policy{Suppliers: []string{"ndc"}}, plain},
		{"free baggage only", Policy{FreeBaggageOnly: true}, &supplier.Offer{Segments: plain.Segments}},
	} {
		if !c.policy.admits(plain) && c.name != "suppliers" {
			t.Errorf("%s: keeps out an offer it does not name", c.name)
		}
		if c.out != nil && c.policy.admits(c.out) {
			t.Errorf("%s: admits %+v", c.name, c.out.Segments[1])
		}
	}
}

// A solution's refund and change fees are its tickets' own, each converted
// to the settlement currency (rounded up, as prices are), added up, with
// the agency's service fees on top.
func TestSolutionFeesAreTheTicketsConverted(t *testing.T) {
	t.Parallel()
	cfg := agency.Config{Settings: agency.Settings{SettlementCurrency: "CNY"}}
	cfg.Flight.ServiceFees.Refund, cfg.Flight.ServiceFees.Change = "5", "0"
	p := PolicyFor(cfg, map[string]string{"CNY": "1", "USD": "7.2"})
	dep := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Hour)
	leg := func(sup, currency, from, to string, at time.Time, refund, change int64) *priced {
		pr, ok := p.price(&supplier.Offer{Supplier: sup, Ref: sup + from + to, Currency: currency, ValidatingCarrier: "CA",
			Segments: []supplier.Segment{{Carrier: "CA", FlightNumber: "CA1" + from, Origin: from, Destination: to,
				DepartAt: at, ArriveAt: at.Add(2 * time.Hour), Cabin: "Y"}},
			Journeys: [][]int{{0}}, Fares: []supplier.PaxFare{{Type: supplier.Adult, Count: 1, Base: 10000, Taxes: 1000}},
			Conditions: supplier.Conditions{Refundable: true, RefundFee: refund, Changeable: true, ChangeFee: change}})
		if !ok {
			t.Fatalf("%s offer in %s not priced", sup, currency)
		}
		return pr
	}
	first := leg("gds", "USD", "PEK", "SHA", dep, 1000, 555)
	second := leg("ndc", "CNY", "SHA", "CAN", dep.Add(5*time.Hour), 3000, 0)
	req := &Request{Passengers: supplier.Passengers{Adult: 1}}
	m := merged{option: combo{first: first, second: second, total: first.total + second.total}.option(), sources: []string{"interline"}}
	sol := m.view(req, &p, time.Now()).solution(req, &p)
	// 10.00 USD is 72.00 CNY, plus 30.00 CNY and the agency's 5.00;
	// 5.55 USD is 39.96 CNY.
	if got := sol.Conditions.RefundFee.Amount; got != "107.00" {
		t.Errorf("refund fee %s CNY, want 107.00", got)
	}
	if got := sol.Conditions.ChangeFee.Amount; got != "39.96" {
		t.Errorf("change fee %s CNY, want 39.96", got)
	}
}

// A pair of airports is classed as geo classes it, through the memo's
// packed key or, for codes longer than an airport's, without it.
func TestPairClass(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		from, to, want string
	}{
		{"PEK", "SHA", "china"},
		{"JFK", "LAX", "domestic"},
		{"PEK", "NRT", "international"},
		{"PEK", "LHR", "intercontinental"},
		{"LHR", "PEK", "intercontinental"},
		{"HKG", "PEK", "international"},
		{"LGW", "LHR", geo.RouteClass("LGW", "LHR")},
		{"KPEK", "EGLL", geo.RouteClass("KPEK", "EGLL")},
		{"", "LHR", geo.RouteClass("", "LHR")},
	} {
		if c.want != geo.RouteClass(c.from, c.to) {
			t.Fatalf("geo classes %s-%s as %s, the test expects %s", c.from, c.to, geo.RouteClass(c.from, c.to), c.want)
		}
		for range 2 { // the second time from the memo
			if got := routeClasses[pairClass(c.from, c.to)]; got != c.want {
				t.Errorf("pairClass(%q, %q) = %s, want %s", c.from, c.to, got, c.want)
			}
		}
	}
}
