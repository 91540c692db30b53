package sim

import (
	"cmp"
	"slices"
	"time"

	"github.com/voyage/voyage/pkg/geo"
)

const (
	// maxOptions is how many itineraries a journey keeps, shortest first.
	maxOptions = 60
	// maxCombos is how many multi-journey combinations a search keeps
	// (before NDC's brands multiply them).
	maxCombos = 120
	// minLeadTime: flights leaving sooner than this are not sold.
	minLeadTime = 2 * time.Hour
	// maxLayover bounds a connection.
	maxLayover = 24 * time.Hour
	// minStopover separates one journey's arrival from the next's departure.
	minStopover = 2 * time.Hour
)

// option is one way to fly a journey in a cabin, with the fare class the
// party gets.
type option struct {
	legs    []flight
	class   int
	minutes int // first departure to last arrival
	vc      string
}

// query is a journey as the itinerary search needs it.
type query struct {
	origins, dests []string // airports
	day            time.Time
	cabin          string
	seats          int
	carriers       map[string]bool // nil: any
	direct         bool            // nonstop flights only
}

// sells reports whether the profile sells a carrier.
func (s *Supplier) sells(carrier string) bool {
	al, ok := airlineOf(carrier)
	switch s.profile {
	case ProfileLCC:
		return ok && al.LowCost
	case ProfileNDC:
		return ndcCarriers[carrier]
	}
	return ok && !al.LowCost
}

func (q *query) allowed(carrier string) bool { return q.carriers == nil || q.carriers[carrier] }

// canConnect reports whether two carriers' flights may make one itinerary:
// online for ndc, online or alliance interline for gds.
func (s *Supplier) canConnect(c1, c2 string) bool {
	if c1 == c2 {
		return true
	}
	if s.profile != ProfileGDS {
		return false
	}
	a1, a2 := airline(c1), airline(c2)
	return a1.Alliance != "" && a1.Alliance == a2.Alliance
}

func isHub(carrier, airport string) bool { return slices.Contains(airline(carrier).Hubs, airport) }

// minConnect is the minimum connection time at a hub: the airport's own,
// else 60 minutes when all three airports are in one country, 90 otherwise.
func minConnect(hub, origin, dest string) time.Duration {
	a, _ := airportOf(hub)
	if a.MinConnect > 0 {
		return time.Duration(a.MinConnect) * time.Minute
	}
	if country(origin) == a.Country && country(dest) == a.Country {
		return 60 * time.Minute
	}
	return 90 * time.Minute
}

// options finds a journey's itineraries: nonstop flights of the profile's
// carriers and, except for lcc, one-stop connections through a hub of one
// of the two carriers, keeping the maxOptions shortest.
func (s *Supplier) options(q *query, now time.Time) []option {
	var out []option
	add := func(legs ...flight) {
		if legs[0].depart.Before(now.Add(minLeadTime)) {
			return
		}
		o := option{legs: legs, minutes: int(legs[len(legs)-1].arrive.Sub(legs[0].depart).Minutes())}
		avs := make([]avail, len(legs))
		for i, f := range legs {
			if !offersCabin(f, q.cabin) {
				return
			}
			avs[i] = s.availability(f, q.cabin, now)
		}
		if o.class, _ = pickClass(avs, q.seats); o.class < 0 {
			return
		}
		best := legs[0]
		for _, f := range legs[1:] {
			if f.km > best.km {
				best = f
			}
		}
		o.vc = best.carrier
		out = append(out, o)
	}
	for _, org := range q.origins {
		for _, dst := range q.dests {
			if org == dst {
				continue
			}
			for _, c := range carriersOn(org, dst) {
				if s.sells(c) && q.allowed(c) {
					for _, f := range patternFor(c, org, dst).on(q.day) {
						add(f)
					}
				}
			}
			if s.profile != ProfileLCC && !q.direct {
				s.connections(q, org, dst, add)
			}
		}
	}
	slices.SortFunc(out, func(a, b option) int {
		return cmp.Or(cmp.Compare(a.minutes, b.minutes), a.legs[0].depart.Compare(b.legs[0].depart), compareLegs(a.legs, b.legs))
	})
	if len(out) > maxOptions {
		out = out[:maxOptions]
	}
	return out
}

func compareLegs(a, b []flight) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := cmp.Or(cmp.Compare(a[i].carrier, b[i].carrier), cmp.Compare(a[i].number, b[i].number),
			cmp.Compare(a[i].origin, b[i].origin), cmp.Compare(a[i].dest, b[i].dest)); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// connections adds one-stop itineraries org→hub→dst: both legs must exist,
// the carriers may connect, the hub is one of theirs, the detour is sane,
// and the layover is at least the hub's minimum connection time and at most
// 24 hours (each first leg takes the two earliest onward flights).
func (s *Supplier) connections(q *query, org, dst string, add func(...flight)) {
	orgCity, dstCity := geo.CityOf(org), geo.CityOf(dst)
	direct := geo.DistanceKm(org, dst)
	for _, r1 := range routesFrom(org) {
		c1, hub := r1.Carrier, r1.Destination
		if hub == dst || !s.sells(c1) || !q.allowed(c1) {
			continue
		}
		onward := carriersOn(hub, dst)
		if len(onward) == 0 {
			continue
		}
		if c := geo.CityOf(hub); c == orgCity || c == dstCity {
			continue
		}
		if geo.DistanceKm(org, hub)+geo.DistanceKm(hub, dst) > 1.45*direct+300 {
			continue
		}
		var firsts []flight
		for _, c2 := range onward {
			if !s.sells(c2) || !q.allowed(c2) || !s.canConnect(c1, c2) || !isHub(c1, hub) && !isHub(c2, hub) {
				continue
			}
			if firsts == nil {
				if firsts = patternFor(c1, org, hub).on(q.day); len(firsts) == 0 {
					break
				}
			}
			mct := minConnect(hub, org, dst)
			p2 := patternFor(c2, hub, dst)
			for _, f1 := range firsts {
				d := civilOf(f1.arrive)
				seconds := append(p2.on(d), p2.on(d.AddDate(0, 0, 1))...)
				taken := 0
				for _, f2 := range seconds {
					gap := f2.depart.Sub(f1.arrive)
					if gap < mct || gap > maxLayover {
						continue
					}
					add(f1, f2)
					if taken++; taken == 2 {
						break
					}
				}
			}
		}
	}
}

// combos pairs the journeys' options into multi-journey itineraries sold on
// one fare: every journey with the same validating carrier, in time order,
// the few shortest of each carrier per journey, the maxCombos shortest in
// all.
func combos(per [][]option) [][]option {
	k := map[int]int{2: 6, 3: 3}[len(per)]
	if k == 0 {
		k = 2
	}
	var vcs []string
	for _, o := range per[0] {
		if !slices.Contains(vcs, o.vc) {
			vcs = append(vcs, o.vc)
		}
	}
	slices.Sort(vcs)
	var out [][]option
	for _, vc := range vcs {
		lists := make([][]option, len(per))
		ok := true
		for j, opts := range per {
			for _, o := range opts {
				if o.vc == vc && len(lists[j]) < k {
					lists[j] = append(lists[j], o)
				}
			}
			ok = ok && len(lists[j]) > 0
		}
		if !ok {
			continue
		}
		var walk func(j int, acc []option)
		walk = func(j int, acc []option) {
			if j == len(lists) {
				out = append(out, slices.Clone(acc))
				return
			}
			for _, o := range lists[j] {
				if j > 0 {
					prev := acc[j-1].legs
					if o.legs[0].depart.Sub(prev[len(prev)-1].arrive) < minStopover {
						continue
					}
				}
				walk(j+1, append(acc, o))
			}
		}
		walk(0, make([]option, 0, len(lists)))
	}
	total := func(c []option) int {
		t := 0
		for _, o := range c {
			t += o.minutes
		}
		return t
	}
	slices.SortStableFunc(out, func(a, b []option) int { return cmp.Compare(total(a), total(b)) })
	if len(out) > maxCombos {
		out = out[:maxCombos]
	}
	return out
}
