package sim

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// Fares are computed in CNY (the simulator's home market) as floats, then
// rounded and converted once into the configured currency's minor units.

// class is a booking class (RBD) and its price relative to the cabin's
// middle class.
type class struct {
	code byte
	mult float64
}

// classes per cabin, most expensive first. A cheaper class is open only
// while every dearer one is (nested availability).
var classes = map[string][]class{
	supplier.CabinEconomy: {{'Y', 1.9}, {'B', 1.6}, {'M', 1.4}, {'H', 1.25}, {'K', 1.12},
		{'L', 1.0}, {'Q', 0.9}, {'T', 0.8}, {'V', 0.72}},
	supplier.CabinPremiumEconomy: {{'W', 1.15}, {'E', 0.95}},
	supplier.CabinBusiness:       {{'J', 1.3}, {'C', 1.15}, {'D', 1.0}, {'I', 0.88}, {'Z', 0.78}},
	supplier.CabinFirst:          {{'F', 1.15}, {'A', 0.95}},
}

// cabinMult prices a cabin's middle class against economy's.
var cabinMult = map[string]float64{
	supplier.CabinEconomy:        1,
	supplier.CabinPremiumEconomy: 1.6,
	supplier.CabinBusiness:       3.5,
	supplier.CabinFirst:          6,
}

// cabinLetters encode a cabin in a Ref.
var cabinLetters = map[string]byte{
	supplier.CabinEconomy: 'Y', supplier.CabinPremiumEconomy: 'W',
	supplier.CabinBusiness: 'C', supplier.CabinFirst: 'F',
}

// normCabin maps a requested cabin onto the four the simulator sells:
// empty is economy; premium_first and premium_business are sold as first
// and business (the offer's segments say which).
func normCabin(c string) (string, error) {
	switch c {
	case "", supplier.CabinEconomy:
		return supplier.CabinEconomy, nil
	case supplier.CabinPremiumEconomy, supplier.CabinBusiness, supplier.CabinFirst:
		return c, nil
	case supplier.CabinPremiumBusiness:
		return supplier.CabinBusiness, nil
	case supplier.CabinPremiumFirst:
		return supplier.CabinFirst, nil
	}
	return "", fmt.Errorf("cabin %q: %w", c, supplier.ErrRejected)
}

// firstCarriers still fly a first cabin on their long-haul wide-bodies.
var firstCarriers = set("AA", "AF", "BA", "CA", "CX", "EK", "EY", "JL", "LH", "LX", "MU", "NH", "QF", "QR", "SQ", "TG", "KE", "OZ", "CZ")

// peCarriers sell a premium economy cabin on their long-haul wide-bodies.
var peCarriers = set("AA", "AC", "AF", "AY", "BA", "CA", "CI", "CX", "CZ", "DL", "EK", "IB", "JL", "KL",
	"LH", "MU", "NH", "NZ", "OS", "QF", "SQ", "TG", "UA", "VS", "BR", "LO", "AI")

// premiumCarriers price above the market.
var premiumCarriers = set("BA", "LH", "LX", "SQ", "EK", "QR", "CX", "AF", "KL", "QF", "JL", "NH", "OS", "EY")

// fuelFactor scales the carrier-imposed surcharge (YQ/YR); 1 is CNY
// 0.085/km. Carriers not listed get a stable 0.4–1.1.
var fuelFactor = map[string]float64{
	"BA": 1.9, "IB": 1.4, "LH": 1.3, "LX": 1.3, "OS": 1.3, "AF": 1.3, "KL": 1.3,
	"CX": 1.2, "CA": 1.0, "MU": 1.0, "CZ": 1.0, "HU": 0.9, "EK": 0.9, "QR": 0.8,
	"AA": 0.6, "UA": 0.6, "DL": 0.6, "SQ": 0.5, "AY": 0.9, "JL": 0.7, "NH": 0.7,
}

// airportTax is the departure charge in CNY for an economy passenger
// leaving a country on an international flight (domestic: 60%, China
// domestic: the CAAC's CNY 50). Great Britain's is its Air Passenger Duty.
var airportTax = map[string]float64{
	"CN": 90, "HK": 120, "MO": 100, "TW": 150, "JP": 180, "KR": 130, "SG": 330,
	"TH": 150, "MY": 80, "VN": 110, "PH": 100, "ID": 100, "IN": 150, "AE": 250,
	"QA": 200, "TR": 100, "DE": 180, "FR": 150, "NL": 200, "IT": 150, "ES": 110,
	"CH": 150, "AT": 120, "FI": 80, "US": 280, "CA": 200, "AU": 420, "NZ": 150,
	"RU": 100,
}

// europe is where short-haul gds fares in the lowest classes carry no bag
// and youth fares are filed.
var europe = set("GB", "DE", "FR", "NL", "IT", "ES", "CH", "AT", "BE", "DK", "SE", "NO", "FI",
	"IE", "PT", "PL", "CZ", "HU", "GR")

// cnyPer is the simulator's own approximate exchange rate: CNY per unit of
// each supported currency (spec §9). Simulated fares are invented anyway;
// real rates are pkg/money's business.
var cnyPer = map[string]float64{
	"CNY": 1, "USD": 7.2, "EUR": 7.8, "HKD": 0.92, "JPY": 0.048, "GBP": 9.1, "AUD": 4.7,
	"CAD": 5.25, "THB": 0.2, "SGD": 5.35, "CHF": 8.1, "DKK": 1.05, "MOP": 0.89, "MYR": 1.55,
	"NOK": 0.68, "NZD": 4.3, "PHP": 0.125, "RUB": 0.08, "SEK": 0.68, "TWD": 0.22,
	"KRW": 0.0052, "ZAR": 0.39, "ILS": 1.95,
}

// currency converts CNY amounts into minor units of the offers' currency.
type currency struct {
	code  string
	rate  float64 // CNY per unit
	scale float64 // minor units per unit
}

func newCurrency(code string) (currency, error) {
	rate, ok := cnyPer[code]
	if !ok {
		return currency{}, fmt.Errorf("sim: currency %q not supported", code)
	}
	return currency{code: code, rate: rate, scale: math.Pow10(int(money.Exponent(code)))}, nil
}

// minor converts CNY into minor units, rounded to whole units of the
// currency (or to 10 yuan for fares in CNY when tens is set).
func (c currency) minor(cny float64, tens bool) int64 {
	if c.code == "CNY" {
		if tens {
			return int64(math.Round(cny/10)) * 10 * int64(c.scale)
		}
		return int64(math.Round(cny)) * int64(c.scale)
	}
	return int64(math.Round(cny/c.rate)) * int64(c.scale)
}

// capacity is the seats in a cabin.
func capacity(cabin string, wide bool) int {
	switch cabin {
	case supplier.CabinPremiumEconomy:
		return 24
	case supplier.CabinBusiness:
		if wide {
			return 36
		}
		return 8
	case supplier.CabinFirst:
		return 8
	}
	if wide {
		return 260
	}
	return 150
}

// offersCabin reports whether a flight has the cabin.
func offersCabin(f flight, cabin string) bool {
	if cabin == supplier.CabinEconomy {
		return true
	}
	al, _ := airlineOf(f.carrier)
	if al.LowCost {
		return false
	}
	switch cabin {
	case supplier.CabinPremiumEconomy:
		return f.wide() && f.km > 2500 && peCarriers[f.carrier]
	case supplier.CabinFirst:
		return f.wide() && f.km > 3000 && firstCarriers[f.carrier]
	}
	return true
}

// avail is a flight's inventory in one cabin as seen at a moment.
type avail struct {
	cheapest int // index of the cheapest open class
	seats    int // seats in that class
	left     int // seats left in the cabin
}

// seatsAt is what a class has for sale.
func (a avail) seatsAt(idx int) int {
	switch {
	case idx > a.cheapest:
		return 0
	case idx == a.cheapest:
		return a.seats
	}
	return min(9, a.left)
}

// availability derives a flight's load from the seed: a final load factor
// per flight and date, of which a share is booked by now growing towards
// departure; the fuller the flight and the nearer the date, the dearer the
// cheapest open class.
func (s *Supplier) availability(f flight, cabin string, now time.Time) avail {
	n := len(classes[cabin])
	days := daysOut(now, f.depart)
	h := seeded(s.seed).Str("load").Str(f.carrier).Num(uint64(f.number)).Str(f.depart.Format(time.DateOnly)).Str(cabin)
	final := finalLoad[cabin][0] + finalLoad[cabin][1]*h.Unit(0)
	booked := final * (1 - 0.6*math.Min(days, 90)/90)
	left := max(int(float64(capacity(cabin, f.wide()))*(1-booked)), 0)
	if left == 0 {
		return avail{cheapest: -1}
	}
	p := booked + apPressure(days)
	q := math.Min(math.Max((1.15-p)/0.85, 0), 1)
	return avail{
		cheapest: int(math.Round(q * float64(n-1))),
		seats:    min(1+h.Intn(1, 9), left),
		left:     left,
	}
}

// finalLoad is the range of load factors at departure per cabin: economy
// sometimes sells out, the front of the plane seldom does.
var finalLoad = map[string][2]float64{
	supplier.CabinEconomy:        {0.5, 0.52},
	supplier.CabinPremiumEconomy: {0.4, 0.55},
	supplier.CabinBusiness:       {0.35, 0.6},
	supplier.CabinFirst:          {0.2, 0.65},
}

// apPressure closes cheap classes as departure nears.
func apPressure(days float64) float64 {
	return stepped(days, []band{{3, 0.35}, {7, 0.25}, {14, 0.15}, {21, 0.08}, {45, 0}}, -0.05)
}

// apMult is the advance-purchase price effect beyond class availability.
func apMult(days float64) float64 {
	return stepped(days, []band{{3, 1.15}, {7, 1.08}, {14, 1.03}, {21, 1}, {60, 0.95}}, 0.92)
}

// band is a step function's value v for arguments below a bound; bands are
// listed by ascending bound.
type band struct{ below, v float64 }

// stepped is the value of the first of bands whose bound x is below, or
// rest past the last.
func stepped(x float64, bands []band, rest float64) float64 {
	for _, b := range bands {
		if x < b.below {
			return b.v
		}
	}
	return rest
}

func daysOut(now, depart time.Time) float64 { return math.Max(depart.Sub(now).Hours()/24, 0) }

// pickClass is the cheapest class open on every leg with seats for the
// party, or -1. Cheaper classes without enough seats are skipped: a request
// for more seats than a fare has left does not get that fare.
func pickClass(avs []avail, seats int) (idx, left int) {
	idx = math.MaxInt
	for _, a := range avs {
		idx = min(idx, a.cheapest)
	}
	for ; idx >= 0; idx-- {
		left = math.MaxInt
		for _, a := range avs {
			left = min(left, a.seatsAt(idx))
		}
		if left >= seats {
			return idx, left
		}
	}
	return -1, 0
}

// brand is an NDC fare family.
type brand struct {
	name string
	code string // fare basis suffix
	mult float64
}

// brandNames are the carriers' own family names; the rest say Basic,
// Classic, Flex.
var brandNames = map[string][3]string{
	"LH": {"Light", "Classic", "Flex"}, "LX": {"Light", "Classic", "Flex"}, "OS": {"Light", "Classic", "Flex"},
	"BA": {"Basic", "Standard", "Flex"}, "IB": {"Basic", "Standard", "Flex"},
	"AF": {"Light", "Standard", "Flex"}, "KL": {"Light", "Standard", "Flex"},
	"SQ": {"Lite", "Standard", "Flex"}, "CX": {"Essential", "Standard", "Flex"},
	"EK": {"Special", "Saver", "Flex"}, "QF": {"Sale", "Saver", "Flex"},
}

var brandCodes = [3]string{"BS", "CL", "FX"}
var brandMults = [3]float64{1, 1.18, 1.55}

func brandOf(carrier string, i int) brand {
	names, ok := brandNames[carrier]
	if !ok {
		names = [3]string{"Basic", "Classic", "Flex"}
	}
	return brand{name: names[i], code: brandCodes[i], mult: brandMults[i]}
}

// ndcCarriers sell NDC content through the "ndc" profile: the carriers with
// mature NDC APIs and aggregator connections.
var ndcCarriers = set("BA", "LH", "AF", "KL", "SQ", "QF", "AA", "UA", "EK", "LX", "OS", "IB", "AY", "CX", "CA", "MU", "CZ")

// taxes of one traveller, CNY.
type taxes struct{ airport, fuel, other float64 }

// legTaxes are one departure's charges for an adult.
func (s *Supplier) legTaxes(f flight, cabin string) taxes {
	co, cd := country(f.origin), country(f.dest)
	premium := cabin != supplier.CabinEconomy
	var t taxes
	switch {
	case co == "CN" && cd == "CN":
		t.airport = 50
		if s.profile != ProfileLCC {
			t.fuel = 10
			if f.km > 800 {
				t.fuel = 20
			}
		}
		return t
	case co == "GB":
		t.airport = 130
		if f.km > 2000 {
			t.airport = 860
		}
		if premium {
			t.airport *= 2.2
		}
	default:
		tax, ok := airportTax[co]
		if !ok {
			tax = 120
		}
		if co == cd {
			tax *= 0.6
		}
		t.airport = tax
	}
	if s.profile != ProfileLCC && co != cd {
		ff, ok := fuelFactor[f.carrier]
		if !ok {
			ff = 0.4 + 0.7*seeded(0).Str("yq").Str(f.carrier).Unit(0)
		}
		t.fuel = math.Round(f.km*0.085*ff/10) * 10
		if premium {
			t.fuel *= 1.5
		}
	}
	if co != cd {
		t.other = float64(40 + seeded(0).Str("arrival").Str(cd).Intn(0, 80))
	}
	return t
}

func country(airport string) string {
	a, _ := airportOf(airport)
	return a.Country
}

func set(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, i := range items {
		m[i] = true
	}
	return m
}

// fareBasis writes a realistic code: class, season (H high, L low),
// weekday (W Fri/Sun, X otherwise), advance-purchase days for the cheap
// classes, the origin country and, for NDC, the brand: "QLX7CN".
func fareBasis(cabin string, idx int, f flight, brandCode string) string {
	cls := classes[cabin]
	b := []byte{cls[idx].code}
	switch f.depart.Month() {
	case time.January, time.February, time.July, time.August, time.December:
		b = append(b, 'H')
	default:
		b = append(b, 'L')
	}
	switch f.depart.Weekday() {
	case time.Friday, time.Sunday:
		b = append(b, 'W')
	default:
		b = append(b, 'X')
	}
	if cabin == supplier.CabinEconomy {
		switch len(cls) - 1 - idx {
		case 0:
			b = append(b, "21"...)
		case 1:
			b = append(b, "14"...)
		case 2:
			b = append(b, '7')
		}
	}
	b = append(b, country(f.origin)...)
	b = append(b, brandCode...)
	return string(b)
}

// position is where a class sits in its cabin: 0 the dearest, 1 the
// cheapest.
func position(cabin string, idx int) float64 {
	n := len(classes[cabin])
	if n <= 1 {
		return 0
	}
	return float64(idx) / float64(n-1)
}

func allDomesticCN(js []jspec) bool {
	for _, j := range js {
		for _, f := range j.legs {
			if country(f.origin) != "CN" || country(f.dest) != "CN" {
				return false
			}
		}
	}
	return true
}

func maxKm(js []jspec) float64 {
	var km float64
	for _, j := range js {
		for _, f := range j.legs {
			km = math.Max(km, f.km)
		}
	}
	return km
}

// baggage is the free allowance of an offer.
func (s *Supplier) baggage(sp *spec, vc string) supplier.Baggage {
	domCN := allDomesticCN(sp.journeys)
	long := maxKm(sp.journeys) > 4000
	idx := sp.journeys[0].class
	cabin := sp.cabin
	if s.profile == ProfileLCC {
		return supplier.Baggage{CabinPieces: 1, CabinKg: 7}
	}
	switch cabin {
	case supplier.CabinFirst:
		if domCN {
			return supplier.Baggage{CheckedKg: 40, CabinPieces: 2, CabinKg: 8}
		}
		return supplier.Baggage{CheckedPieces: 3, CheckedKg: 32, CabinPieces: 2, CabinKg: 8}
	case supplier.CabinBusiness:
		if domCN {
			return supplier.Baggage{CheckedKg: 30, CabinPieces: 2, CabinKg: 8}
		}
		return supplier.Baggage{CheckedPieces: 2, CheckedKg: 32, CabinPieces: 2, CabinKg: 8}
	}
	if s.profile == ProfileNDC {
		if sp.brand == 0 {
			return supplier.Baggage{CabinPieces: 1, CabinKg: 8}
		}
		return supplier.Baggage{CheckedPieces: sp.brand, CheckedKg: 23, CabinPieces: 1, CabinKg: 8}
	}
	switch {
	case cabin == supplier.CabinPremiumEconomy:
		return supplier.Baggage{CheckedPieces: 2, CheckedKg: 23, CabinPieces: 1, CabinKg: 10}
	case domCN:
		return supplier.Baggage{CheckedKg: 20, CabinPieces: 1, CabinKg: 5}
	case long && airline(vc).Country == "CN":
		return supplier.Baggage{CheckedPieces: 2, CheckedKg: 23, CabinPieces: 1, CabinKg: 7}
	case !long && europe[airline(vc).Country] && position(cabin, idx) > 0.7:
		return supplier.Baggage{CabinPieces: 1, CabinKg: 8}
	}
	return supplier.Baggage{CheckedPieces: 1, CheckedKg: 23, CabinPieces: 1, CabinKg: 7}
}

func airline(code string) geo.Airline {
	a, _ := airlineOf(code)
	return a
}

// conditions are an offer's change and refund rules; base is the adult
// base fare in CNY, fees come back in CNY.
func (s *Supplier) conditions(sp *spec, base float64) (refundable bool, refundFee float64, changeable bool, changeFee float64) {
	pct := func(p, floor float64) float64 { return math.Round(math.Max(base*p, floor)/10) * 10 }
	switch s.profile {
	case ProfileLCC:
		fee := 250.0
		if maxKm(sp.journeys) > 1500 {
			fee = 400
		}
		return false, 0, true, fee
	case ProfileNDC:
		switch sp.brand {
		case 0:
			return false, 0, false, 0
		case 1:
			return true, pct(0.35, 300), true, pct(0.10, 150)
		}
		return true, pct(0.05, 100), true, 0
	}
	r := position(sp.cabin, sp.journeys[0].class)
	front := sp.cabin == supplier.CabinBusiness || sp.cabin == supplier.CabinFirst
	switch {
	case r <= 0.25:
		return true, pct(0.05, 100), true, 0
	case r <= 0.6 || front:
		return true, pct(0.25, 200), true, pct(0.10, 150)
	case allDomesticCN(sp.journeys):
		return true, pct(0.5, 200), true, pct(0.2, 200)
	}
	return false, 0, true, pct(0.20, 300)
}

// restrictions are who may fly the fare: China domestic gds fares take a
// national ID or a passport; a few carriers' cheapest fares are for some
// nationalities only or exclude some; rare European youth fares.
func (s *Supplier) restrictions(sp *spec, vc string) supplier.Restrictions {
	var r supplier.Restrictions
	first := sp.journeys[0].legs[0]
	if s.profile == ProfileGDS && allDomesticCN(sp.journeys) {
		r.Documents = []string{"idcard", "passport"}
	}
	if s.profile != ProfileLCC && sp.journeys[0].class == len(classes[sp.cabin])-1 {
		h := seeded(s.seed).Str("restrict").Str(vc).Str(first.depart.Format(time.DateOnly))
		al := airline(vc)
		switch {
		case al.Country == "CN" && !allDomesticCN(sp.journeys) && h.Intn(0, 5) == 0:
			r.EligibleCountries = []string{"CN"}
		case h.Intn(1, 9) == 0:
			pool := []string{"BD", "IN", "NG", "PK", "RU", "US"}
			a := seeded(0).Str("inel").Str(vc).Intn(0, len(pool))
			r.IneligibleCountries = []string{pool[a], pool[(a+2)%len(pool)]}
			slices.Sort(r.IneligibleCountries)
		case sp.cabin == supplier.CabinEconomy && europe[al.Country] && maxKm(sp.journeys) < 3000 && h.Intn(2, 17) == 0:
			r.MinAge, r.MaxAge = 12, 25
		}
	}
	if sp.flags&flagDocs != 0 {
		// The narrowed rule after a document restriction change.
		if len(r.Documents) == 1 && r.Documents[0] == "passport" {
			r.Documents = []string{"chinese-passport"}
		} else {
			r.Documents = []string{"passport"}
		}
	}
	return r
}

// ticketingMinutes is how long issuing takes: gds normal (2 h), some fares
// preference (1 h) or special (48 h); ndc fast and lcc website, 30 min.
func (s *Supplier) ticketingMinutes(sp *spec, vc string) int {
	if s.profile != ProfileGDS {
		return 30
	}
	h := seeded(s.seed).Str("ticketing").Str(vc).Num(uint64(sp.journeys[0].class)).Str(sp.journeys[0].legs[0].depart.Format(time.DateOnly))
	switch u := h.Unit(0); {
	case u < 0.05:
		return 2880
	case u < 0.25:
		return 60
	}
	return 120
}
