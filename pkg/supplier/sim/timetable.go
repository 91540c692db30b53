package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/geo"
)

// The timetable is the same for every profile, seed and instance: it is the
// simulated world's schedule, derived only from pkg/geo's real routes. So the
// gds and ndc suppliers sell the same CA937 and the engine can merge them.
// The seed varies loads, fares and failures, never which flights exist.

// pairKey is an airport pair.
type pairKey struct{ origin, dest string }

// network indexes geo's routes and airlines as the simulator asks for them
// (by pair, by origin, by code) on every search. It is built once from the
// embedded data and never changes.
type network struct {
	pairs    map[pairKey][]string // carriers flying the pair nonstop, sorted
	from     map[string][]geo.Route
	airlines map[string]geo.Airline
	airports map[string]geo.Airport
}

var theNetwork = sync.OnceValue(func() *network {
	n := &network{
		pairs:    make(map[pairKey][]string),
		from:     make(map[string][]geo.Route),
		airlines: make(map[string]geo.Airline),
		airports: make(map[string]geo.Airport),
	}
	for _, r := range geo.Routes() {
		k := pairKey{r.Origin, r.Destination}
		if !slices.Contains(n.pairs[k], r.Carrier) {
			n.pairs[k] = append(n.pairs[k], r.Carrier)
			n.from[r.Origin] = append(n.from[r.Origin], r)
		}
	}
	for _, cs := range n.pairs {
		slices.Sort(cs)
	}
	for _, a := range geo.Airlines() {
		n.airlines[a.Code] = a
	}
	for _, a := range geo.Airports() {
		n.airports[a.Code] = a
	}
	return n
})

// routesFrom lists the nonstop routes from an airport, one per carrier and
// destination.
func routesFrom(airport string) []geo.Route { return theNetwork().from[airport] }

// airportOf is an airport's data (zero when unknown).
func airportOf(code string) (geo.Airport, bool) {
	a, ok := theNetwork().airports[code]
	return a, ok
}

// airlineOf is a carrier's data (zero when unknown).
func airlineOf(code string) (geo.Airline, bool) {
	a, ok := theNetwork().airlines[code]
	return a, ok
}

// carriersOn lists the carriers flying origin→dest nonstop.
func carriersOn(origin, dest string) []string {
	return theNetwork().pairs[pairKey{origin, dest}]
}

// slot is one daily departure of a route.
type slot struct {
	dep      int // minutes after local midnight at the origin
	number   int
	block    int   // scheduled block time, minutes
	days     uint8 // bit per time.Weekday operated
	aircraft string
}

// pattern is a carrier's timetable on one directional airport pair.
type pattern struct {
	carrier, origin, dest string
	km                    float64
	locO, locD            *time.Location
	slots                 []slot // by departure time
}

// flight is one dated departure.
type flight struct {
	carrier        string
	number         int
	origin, dest   string
	depart, arrive time.Time // local times of origin and destination
	block          int
	aircraft       string
	km             float64
}

// code is the flight number as printed, e.g. "CA937".
func (f flight) code() string { return f.carrier + strconv.Itoa(f.number) }

// wide reports a twin-aisle aircraft (premium economy and first cabins).
func (f flight) wide() bool { return isWide(f.aircraft) }

var timetable sync.Map // carrier|origin|dest → *pattern (memoised pure function)

// patternFor is a carrier's timetable from origin to dest; empty when the
// carrier does not fly the pair.
func patternFor(carrier, origin, dest string) *pattern {
	key := carrier + "|" + origin + "|" + dest
	if p, ok := timetable.Load(key); ok {
		return p.(*pattern)
	}
	p := buildPattern(carrier, origin, dest)
	actual, _ := timetable.LoadOrStore(key, p)
	return actual.(*pattern)
}

var locations sync.Map // airport → *time.Location

func location(airport string) *time.Location {
	if l, ok := locations.Load(airport); ok {
		return l.(*time.Location)
	}
	l := geo.Location(airport)
	if l == nil {
		l = time.UTC
	}
	locations.Store(airport, l)
	return l
}

func buildPattern(carrier, origin, dest string) *pattern {
	p := &pattern{carrier: carrier, origin: origin, dest: dest, locO: location(origin), locD: location(dest)}
	if !slices.Contains(carriersOn(origin, dest), carrier) {
		return p
	}
	ao, ok1 := airportOf(origin)
	ad, ok2 := airportOf(dest)
	if !ok1 || !ok2 {
		return p
	}
	al, _ := airlineOf(carrier)
	km := geo.DistanceKm(origin, dest)
	p.km = km

	// Both directions share the route's size, days and number range.
	lo, hi := origin, dest
	if lo > hi {
		lo, hi = hi, lo
	}
	route := seeded(0).Str("route").Str(carrier).Str(lo).Str(hi)
	dir := seeded(0).Str("dir").Str(carrier).Str(origin).Str(dest)

	hubO, hubD := slices.Contains(al.Hubs, origin), slices.Contains(al.Hubs, dest)
	freq := baseFrequency(km) * rankFactor(ao.Rank) * rankFactor(ad.Rank)
	if hubO || hubD {
		freq *= 1.3
	} else {
		freq *= 0.6 // a foreign or fifth-freedom route
	}
	switch {
	case al.Rank > 0 && al.Rank <= 10:
		freq *= 1.25
	case al.Rank > 0 && al.Rank <= 50:
	default:
		freq *= 0.8
	}
	freq *= 0.75 + 0.5*route.Unit(0)

	n := 1
	days := uint8(0x7f)
	switch {
	case freq < 0.85:
		// Thin route: a few days a week, the same days both ways.
		ops := min(max(int(math.Round(freq/0.85*7)), 2), 6)
		days = 0
		for _, d := range route.Rng().Perm(7)[:ops] {
			days |= 1 << d
		}
	case km > 9000:
	case km > 4000:
		if freq >= 4.5 && route.Unit(1) < 0.4 {
			n = 2
		}
	case km > 1500:
		n = min(max(int(math.Round(freq)), 1), 4)
	default:
		n = min(max(int(math.Round(freq)), 1), 14)
	}

	block := blockMinutes(ao, ad, km)
	deps := departures(n, km, block, utcShift(p.locO, p.locD), dir.Rng())

	// Flight numbers: long-haul low, short-haul 3-4 digits; odd away
	// from the hub (or the alphabetically first airport), even back.
	var base int
	switch {
	case km > 4000:
		base = 11 + route.Intn(2, 489)*2
	case km > 1500:
		base = 101 + route.Intn(2, 944)*2
	default:
		base = 101 + route.Intn(2, 4894)*2
	}
	outbound := origin == lo
	if hubO != hubD {
		outbound = hubO
	}
	if !outbound {
		base++
	}

	// Chinese and Japanese domestic trunk routes see wide-bodies.
	trunk := ao.Rank > 0 && ao.Rank <= 30 && ad.Rank > 0 && ad.Rank <= 30 && !al.LowCost &&
		ao.Country == ad.Country && (ao.Country == "CN" || ao.Country == "JP")
	fleet := route.Draw(3)
	for i, dep := range deps {
		h := dir.Num(uint64(i))
		p.slots = append(p.slots, slot{
			dep:      dep,
			number:   base + 2*i,
			block:    block + 5*(h.Intn(0, 3)-1),
			days:     days,
			aircraft: aircraftFor(al.LowCost, km, trunk, fleet, h),
		})
	}
	return p
}

// baseFrequency is daily flights of an average carrier between average
// airports by distance.
func baseFrequency(km float64) float64 {
	return stepped(km, []band{{700, 3.5}, {1500, 3.0}, {3000, 1.6}, {4000, 1.1}}, 0.9)
}

// rankFactor weighs an airport's size (rank 1 = busiest).
func rankFactor(rank int) float64 {
	switch {
	case rank <= 0:
		return 0.55
	case rank <= 10:
		return 1.8
	case rank <= 30:
		return 1.45
	case rank <= 100:
		return 1.1
	case rank <= 300:
		return 0.85
	default:
		return 0.7
	}
}

// departures spreads n daily departures (minutes after local midnight).
// Short and medium haul fly in banks between 06:00 and 22:30. Long-haul
// picks among a morning, afternoon, evening and after-midnight red-eye bank
// a time that also arrives between 05:30 and 23:20 local (shift is the
// destination's UTC offset minus the origin's, minutes). Nothing leaves
// between 01:00 and 05:30 except those red-eyes.
func departures(n int, km float64, block, shift int, r *rand.Rand) []int {
	out := make([]int, 0, n)
	if km > 4000 {
		banks := [][2]int{{480, 720}, {720, 960}, {1080, 1435}, {0, 150}}
		arrivesWell := func(dep int) bool {
			arr := ((dep+block+shift)%1440 + 1440) % 1440
			return arr >= 330 && arr <= 1400
		}
		var fallback []int
		for _, b := range r.Perm(len(banks)) {
			lo, hi := banks[b][0], banks[b][1]
			dep := -1
			for try := 0; try < 12 && dep < 0; try++ {
				if d := round5(lo + r.IntN(hi-lo)); arrivesWell(d) {
					dep = d
				}
			}
			if dep < 0 {
				fallback = append(fallback, round5(lo+r.IntN(hi-lo)))
				continue
			}
			if out = append(out, dep); len(out) == n {
				break
			}
		}
		for len(out) < n {
			out, fallback = append(out, fallback[0]), fallback[1:]
		}
	} else {
		start, end := 360+r.IntN(30), 1350
		span := float64(end-start) / float64(n)
		for i := 0; i < n; i++ {
			out = append(out, round5(start+int((float64(i)+0.15+0.7*r.Float64())*span)))
		}
	}
	slices.Sort(out)
	// Two departures of one carrier never leave in the same minute.
	for i := 1; i < len(out); i++ {
		if out[i] <= out[i-1] {
			out[i] = out[i-1] + 5
		}
	}
	for i := range out {
		out[i] %= 1440
	}
	return out
}

// utcShift is how many minutes the destination's clock is ahead of the
// origin's (taken in January; daylight saving moves it an hour at most).
func utcShift(o, d *time.Location) int {
	ref := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	_, oo := ref.In(o).Zone()
	_, od := ref.In(d).Zone()
	return (od - oo) / 60
}

func round5(m int) int { return (m + 2) / 5 * 5 }

// blockMinutes is taxi plus cruise at 800 km/h, with the prevailing
// westerlies: up to 5% faster eastbound and slower westbound, plus a few
// minutes of schedule padding at congested airports and in China; rounded
// to 5 minutes.
func blockMinutes(a, b geo.Airport, km float64) int {
	east := eastness(a.Lat, a.Lon, b.Lat, b.Lon)
	m := 30 + km/800*60*(1-0.05*east) + congestion(a.Rank) + congestion(b.Rank)
	if a.Country == "CN" && b.Country == "CN" {
		m += 15 // China's crowded airspace: timetables are padded
	}
	return max(round5(int(m)), 40)
}

func congestion(rank int) float64 {
	switch {
	case rank > 0 && rank <= 20:
		return 5
	case rank > 0 && rank <= 60:
		return 3
	}
	return 0
}

// eastness is the mean eastward component of the great-circle track:
// 1 due east, -1 due west.
func eastness(lat1, lon1, lat2, lon2 float64) float64 {
	b1 := bearing(lat1, lon1, lat2, lon2)
	b2 := bearing(lat2, lon2, lat1, lon1) + math.Pi // final course
	return (math.Sin(b1) + math.Sin(b2)) / 2
}

func bearing(lat1, lon1, lat2, lon2 float64) float64 {
	r := math.Pi / 180
	p1, p2, dl := lat1*r, lat2*r, (lon2-lon1)*r
	y := math.Sin(dl) * math.Cos(p2)
	x := math.Cos(p1)*math.Sin(p2) - math.Sin(p1)*math.Cos(p2)*math.Cos(dl)
	return math.Atan2(y, x)
}

// Aircraft are ICAO type designators.
var (
	narrowFull = []string{"A320", "A321", "B738", "A20N", "A21N", "B38M"}
	narrowLCC  = []string{"A320", "A20N", "B738", "B38M", "A321"}
	wideMedium = []string{"A333", "B789", "A359", "B788"}
	wideLong   = []string{"B77W", "A359", "B789", "A35K"}
	wideLCC    = []string{"A333", "B789"}
)

var wideTypes = map[string]bool{"A333": true, "A359": true, "A35K": true, "B788": true, "B789": true, "B77W": true}

func isWide(t string) bool { return wideTypes[t] }

// aircraftFor picks a type by distance; fleet is the route's own choice so
// a route keeps one family, h varies it per departure on trunk routes.
func aircraftFor(lowCost bool, km float64, trunk bool, fleet uint64, h mix) string {
	pick := func(list []string) string { return list[fleet%uint64(len(list))] }
	switch {
	case lowCost && km > 4500:
		return pick(wideLCC)
	case lowCost:
		return pick(narrowLCC)
	case km < 1200:
		if trunk && h.Unit(5) < 0.35 {
			return pick(wideMedium)
		}
		return pick(narrowFull)
	case km < 3500:
		if trunk && h.Unit(5) < 0.5 {
			return pick(wideMedium)
		}
		return pick(narrowFull)
	case km < 7000:
		return pick(wideMedium)
	default:
		return pick(wideLong)
	}
}

// on lists the pattern's flights leaving on a local date (a civil date at
// UTC midnight).
func (p *pattern) on(day time.Time) []flight {
	if len(p.slots) == 0 {
		return nil
	}
	out := make([]flight, 0, len(p.slots))
	for _, s := range p.slots {
		if f, ok := p.flight(s, day); ok {
			out = append(out, f)
		}
	}
	return out
}

// find is the flight with a number on a local date.
func (p *pattern) find(number int, day time.Time) (flight, bool) {
	for _, s := range p.slots {
		if s.number == number {
			return p.flight(s, day)
		}
	}
	return flight{}, false
}

func (p *pattern) flight(s slot, day time.Time) (flight, bool) {
	if s.days&(1<<day.Weekday()) == 0 {
		return flight{}, false
	}
	y, m, d := day.Date()
	dep := time.Date(y, m, d, s.dep/60, s.dep%60, 0, 0, p.locO)
	return flight{
		carrier:  p.carrier,
		number:   s.number,
		origin:   p.origin,
		dest:     p.dest,
		depart:   dep,
		arrive:   dep.Add(time.Duration(s.block) * time.Minute).In(p.locD),
		block:    s.block,
		aircraft: s.aircraft,
		km:       p.km,
	}, true
}

// civil parses a YYYY-MM-DD date as UTC midnight.
func civil(date string) (time.Time, error) { return time.Parse(time.DateOnly, date) }

// civilOf is the local date of a time as UTC midnight.
func civilOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
