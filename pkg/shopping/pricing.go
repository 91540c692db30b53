package shopping

import (
	"slices"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// Policy is what an agency's settings do to content: which suppliers and
// airlines it sees, what it hides, its markups and fees, and the currency it
// settles in.
type Policy struct {
	Currency        string
	Rates           map[string]decimal.Decimal // currency → worth of one unit in the site's default currency
	Markups         map[string]agency.Markup   // route class → markup
	ServiceFees     agency.ServiceFees
	Suppliers       []string // enabled; empty = all
	AirlineFilter   agency.AirlineFilter
	HideMainland    bool
	FreeBaggageOnly bool
	FareBasisOnly   bool
	ShowSuppliers   bool
	PopularOnly     bool
	MaxResponse     int // seconds

	// rules are Markups parsed once (prepare): markup runs for every
	// solution of every rebuild.
	rules map[string]markupRule
	// fees are ServiceFees parsed once (prepare), when feesParsed: every
	// solution a page shows states them.
	fees       serviceFees
	feesParsed bool
}

// markupRule is a parsed Markup.
type markupRule struct {
	percent bool
	value   decimal.Decimal // percent
	amount  int64           // minor units
	limit   int64           // 0 = no cap
	// num/den is value as a fraction of integers when it has few enough
	// decimals (den > 0): money.Percent's result in integer arithmetic,
	// without the big-number allocations of decimal, for every solution
	// of every rebuild.
	num, den int64
}

// percentOf is money.Percent(price, r.value) in minor units: rounded half
// away from zero, as decimal's Round.
func (r *markupRule) percentOf(price int64) int64 {
	if r.den == 0 || price > maxExactPrice || price < -maxExactPrice {
		return money.Percent(money.Amount{Minor: price}, r.value).Minor
	}
	n := price * r.num
	q, rem := n/r.den, n%r.den
	if rem < 0 {
		rem = -rem
	}
	if 2*rem >= r.den {
		if n < 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

// maxExactPrice keeps price × num within int64 (num is below 10^8).
const maxExactPrice = 1 << 36

// prepare parses the markups and the service fees.
func (p *Policy) prepare() {
	p.fees, p.feesParsed = p.parseFees(), true
	p.rules = make(map[string]markupRule, len(p.Markups))
	for class, m := range p.Markups {
		v, err := decimal.NewFromString(m.Value)
		if err != nil || v.IsZero() {
			continue
		}
		r := markupRule{percent: m.Unit == "percent", value: v}
		if exp := v.Exponent(); r.percent && exp >= -4 && v.Abs().LessThan(decimal.NewFromInt(10000)) {
			// value = coefficient × 10^exp; the percentage divides by 100.
			r.num, r.den = v.Coefficient().Int64(), 100
			for range -exp {
				r.den *= 10
			}
			for range max(exp, 0) {
				r.num *= 10
			}
		}
		if !r.percent {
			a, err := money.Parse(m.Value, p.Currency)
			if err != nil {
				continue
			}
			r.amount = a.Minor
		}
		if lim, err := money.Parse(m.Limit, p.Currency); err == nil && lim.Minor > 0 {
			r.limit = lim.Minor
		}
		p.rules[class] = r
	}
}

// PolicyFor derives the policy from an agency's configuration and the rates in
// force.
func PolicyFor(c agency.Config, rates map[string]string) Policy {
	p := Policy{
		Currency:        c.Settings.SettlementCurrency,
		Rates:           map[string]decimal.Decimal{},
		Markups:         c.Flight.Markups,
		ServiceFees:     c.Flight.ServiceFees,
		Suppliers:       c.Flight.Suppliers,
		AirlineFilter:   c.Flight.AirlineFilter,
		HideMainland:    c.Settings.HideMainland,
		FreeBaggageOnly: c.Flight.FreeBaggageOnly,
		FareBasisOnly:   c.Flight.FareBasisOnly,
		ShowSuppliers:   c.Flight.ShowSuppliers,
		PopularOnly:     c.Flight.SearchMode == "popular",
		MaxResponse:     c.Flight.MaxResponseTime,
	}
	if p.Currency == "" {
		p.Currency = "CNY"
	}
	if p.MaxResponse <= 0 {
		p.MaxResponse = 20
	}
	for cur, r := range rates {
		if d, err := decimal.NewFromString(r); err == nil && d.IsPositive() {
			p.Rates[cur] = d
		}
	}
	p.prepare()
	return p
}

// convert turns minor units of from into minor units of the settlement
// currency, rounded up so a price shown is never below what the supplier
// charges. ok is false when either rate is unknown.
func (p *Policy) convert(minor int64, from string) (int64, bool) {
	if from == p.Currency {
		return minor, true
	}
	rf, ok1 := p.Rates[from]
	rt, ok2 := p.Rates[p.Currency]
	if !ok1 || !ok2 {
		return 0, false
	}
	return money.ConvertUp(money.Amount{Minor: minor, Currency: from}, rf, rt, p.Currency).Minor, true
}

// admits says whether an offer survives the agency's content settings.
func (p *Policy) admits(o *supplier.Offer) bool {
	if len(p.Suppliers) > 0 && !slices.Contains(p.Suppliers, o.Supplier) {
		return false
	}
	if p.FreeBaggageOnly && o.Baggage.CheckedPieces == 0 && o.Baggage.CheckedKg == 0 {
		return false
	}
	filtered := p.AirlineFilter.Mode == "whitelist" || p.AirlineFilter.Mode == "blacklist"
	if !p.HideMainland && !p.FareBasisOnly && !filtered {
		return true
	}
	// By pointer: a segment is some 200 bytes, and every offer of a search
	// comes through here.
	for i := range o.Segments {
		s := &o.Segments[i]
		if p.HideMainland && (geo.IsMainland(s.Origin) || geo.IsMainland(s.Destination)) {
			return false
		}
		if p.FareBasisOnly && s.FareBasis == "" {
			return false
		}
		switch p.AirlineFilter.Mode {
		case "whitelist":
			if !slices.Contains(p.AirlineFilter.Airlines, s.Carrier) {
				return false
			}
		case "blacklist":
			if slices.Contains(p.AirlineFilter.Airlines, s.Carrier) {
				return false
			}
		}
	}
	return true
}

// markup is the agency's adjustment of one traveller's price for a route
// class: a percentage or an amount, its size capped by the limit (0 means no
// cap); never taking the price below zero.
func (p *Policy) markup(class string, price int64) int64 {
	r, ok := p.rules[class]
	if !ok {
		return 0
	}
	adj := r.amount
	if r.percent {
		adj = r.percentOf(price)
	}
	if r.limit > 0 {
		adj = max(-r.limit, min(adj, r.limit))
	}
	if price+adj < 0 {
		adj = -price
	}
	return adj
}

// serviceFees are the agency's service fees in minor units of the
// settlement currency.
type serviceFees struct{ refund, change, void int64 }

func (p *Policy) serviceFees() serviceFees {
	if p.feesParsed {
		return p.fees
	}
	return p.parseFees()
}

func (p *Policy) parseFees() serviceFees {
	return serviceFees{refund: p.fee(p.ServiceFees.Refund), change: p.fee(p.ServiceFees.Change), void: p.fee(p.ServiceFees.Void)}
}

// fee is one of the agency's service fees in the settlement currency.
func (p *Policy) fee(s string) int64 {
	a, err := money.Parse(s, p.Currency)
	if err != nil || a.Minor < 0 {
		return 0
	}
	return a.Minor
}

func (p *Policy) money(minor int64) Money {
	return money.Of(minor, p.Currency)
}

// routeClasses are the route classes from the narrowest to the widest.
var routeClasses = []string{"china", "domestic", "international", "intercontinental"}

// routeClass is the widest class of a solution's journeys, as its place in
// routeClasses: a trip that crosses continents anywhere is priced as
// intercontinental.
func routeClass(segs []*supplier.Segment, journeys [][]int) uint8 {
	var best uint8
	for _, j := range journeys {
		if len(j) == 0 {
			continue
		}
		best = max(best, pairClass(segs[j[0]].Origin, segs[j[len(j)-1]].Destination))
	}
	return best
}

// Ticketing-speed products (spec §9).
const (
	SpeedFast       = "fast-standard"       // 30 min
	SpeedPreference = "preference-standard" // 60 min
	SpeedNormal     = "normal-standard"     // 2 h
	SpeedWebsite    = "website"             // 30 min, airline website fares
	SpeedSpecial    = "special-standard"    // within 48 h
	Special48       = "special-48"
	SpecialBefore24 = "special-before-24"
	SpecialBefore4  = "special-before-4"
)

// SpeedProducts lists the products in the order the filter shows them.
var SpeedProducts = []string{SpeedFast, SpeedPreference, SpeedNormal, SpeedWebsite, SpeedSpecial, Special48, SpecialBefore24, SpecialBefore4}

// speedProduct names the ticketing product of a solution from how long its
// slowest ticket takes to issue and how soon it departs. Special fares (more
// than 2 h to issue) are sold as special-standard when departure leaves room
// for the whole 48 h; closer to departure the supplier issues them at the
// latest 24 h or 4 h before the flight, which the product name says.
func speedProduct(lcc bool, minutes int, untilDeparture float64) string {
	switch {
	case lcc && minutes <= 30:
		return SpeedWebsite
	case minutes <= 30:
		return SpeedFast
	case minutes <= 60:
		return SpeedPreference
	case minutes <= 120:
		return SpeedNormal
	case untilDeparture >= 96:
		return SpeedSpecial
	case untilDeparture >= 48:
		return Special48
	case untilDeparture >= 24:
		return SpecialBefore24
	default:
		return SpecialBefore4
	}
}

// pairClasses are the route classes of airport pairs (two country and two
// continent lookups each, for every solution priced), as places in
// routeClasses, by pairKey: hashing the two strings of a pair was most of
// looking one up.
var pairClasses = newMemo(10000, func(k uint64) uint8 { return classOfPair(unpackPair(k)) })

// pairClass is the route class of a pair of airports, as its place in
// routeClasses: remembered for codes that pack (pairKey), and worked out
// for the others.
func pairClass(origin, destination string) uint8 {
	if k, ok := pairKey(origin, destination); ok {
		return pairClasses.get(k)
	}
	return classOfPair(origin, destination)
}

func classOfPair(origin, destination string) uint8 {
	return placeIn(routeClasses, geo.RouteClass(origin, destination))
}

// pairKey packs two codes of up to three bytes (an airport's) in a word:
// each code's bytes and length in a half.
func pairKey(a, b string) (uint64, bool) {
	if len(a) > 3 || len(b) > 3 {
		return 0, false
	}
	return packCode(a) | packCode(b)<<32, true
}

func packCode(s string) uint64 {
	k := uint64(len(s)) << 24
	for i := 0; i < len(s); i++ {
		k |= uint64(s[i]) << (8 * i)
	}
	return k
}

func unpackPair(k uint64) (string, string) {
	code := func(h uint64) string {
		b := make([]byte, h>>24&0xff)
		for i := range b {
			b[i] = byte(h >> (8 * i))
		}
		return string(b)
	}
	return code(k & 0xffffffff), code(k >> 32)
}
