package shopping

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

// Virtual interlining: a journey O→D flown as two separately ticketed
// flights O→X and X→D from different carriers or suppliers, through a
// connecting airport X. The engine asks suppliers for the legs as extra
// one-way searches (parts named "leg/…") and combines them here.

// legKey names the leg pool of one journey: leg 1 (O→X) or 2 (X→D) via X.
type legKey struct {
	journey int
	via     string
	leg     int
}

// legPartName is the part name of a leg search, parsed back by parseLegPart.
func legPartName(sup string, k legKey, date string) string {
	return fmt.Sprintf("leg/%s/%d/%s/%d/%s", sup, k.journey, k.via, k.leg, date)
}

func parseLegPart(name string) (legKey, bool) {
	f := strings.Split(name, "/")
	if len(f) != 6 || f[0] != "leg" {
		return legKey{}, false
	}
	j, err1 := strconv.Atoi(f[2])
	l, err2 := strconv.Atoi(f[4])
	if err1 != nil || err2 != nil {
		return legKey{}, false
	}
	return legKey{journey: j, via: f[3], leg: l}, true
}

// legPools are the first and second legs of one journey, per connecting
// airport.
type legPools map[string][2][]*priced

// legsFor gathers journey's legs into new slices, the caller's to sort.
func legsFor(all map[legKey][]*priced, journey int) legPools {
	out := legPools{}
	for k, v := range all {
		if k.journey != journey || k.leg < 1 || k.leg > 2 {
			continue
		}
		p := out[k.via]
		p[k.leg-1] = append(p[k.leg-1], v...)
		out[k.via] = p
	}
	return out
}

// Connection bounds for a self-transfer.
const (
	// selfTransferBuffer is added to the airport's minimum connection time:
	// a self-transfer means collecting bags and checking in again.
	selfTransferBuffer = 30 * time.Minute
	maxLayover         = 12 * time.Hour
	// perFirstLeg keeps the answer varied: at most this many combinations
	// start with the same flight.
	perFirstLeg = 3
)

// minConnect is the time needed to change planes at an airport on separate
// tickets.
func minConnect(airport string) time.Duration {
	mct := 90
	if a, ok := geo.AirportByCode(airport); ok && a.MinConnect > 0 {
		mct = a.MinConnect
	}
	return time.Duration(mct)*time.Minute + selfTransferBuffer
}

// combo is a candidate pair of legs.
type combo struct {
	first, second *priced
	total         int64
}

// before puts the more expensive of two combinations first: a heap of
// the kept combinations drops the most expensive.
func (c combo) before(d combo) bool { return c.total > d.total }

// interlineStats counts the work of the last interline call (benchmarks).
type interlineStats struct{ evaluated int }

// interlineCount returns the kept combinations, cheapest first. It sorts
// the pools' slices in place.
func interlineCount(pools legPools, limit int) ([]combo, interlineStats) {
	var st interlineStats
	vias := make([]string, 0, len(pools))
	most := 0 // the combinations there can be: perFirstLeg for each first leg
	for v, p := range pools {
		vias = append(vias, v)
		most += len(p[0]) * perFirstLeg
	}
	// The heap holds up to limit+1 at once: sized for that, or for fewer
	// when there cannot be so many, it is not grown step by step.
	h := make(binaryHeap[combo], 0, min(limit, most)+1)
	sort.Strings(vias)
	for _, via := range vias {
		p := pools[via]
		firsts, seconds := p[0], p[1]
		if len(firsts) == 0 || len(seconds) == 0 {
			continue
		}
		// Legs arrive in whatever order the suppliers answer, and what is
		// kept depends on the order they are looked at (the heap's cutoff,
		// perFirstLeg): both sides in one total order, so the same legs give
		// the same combinations however they arrived. Second legs by
		// departure, so each first leg scans only its connection window.
		// The pools are the caller's to sort (legsFor makes them anew).
		slices.SortFunc(firsts, (*priced).byPrice)
		slices.SortFunc(seconds, func(a, b *priced) int {
			if c := a.offer.Segments[0].DepartAt.Compare(b.offer.Segments[0].DepartAt); c != 0 {
				return c
			}
			return a.byPrice(b)
		})
		mct := minConnect(via)
		cheapest := seconds[0].total
		for _, s := range seconds[1:] {
			cheapest = min(cheapest, s.total)
		}
		for _, f := range firsts {
			// Firsts come cheapest first and a full heap's dearest only
			// falls: once no second can make a first cheap enough, no
			// later first can either.
			if len(h) >= limit && f.total+cheapest >= h[0].total {
				break
			}
			fs := &f.offer.Segments[len(f.offer.Segments)-1]
			if fs.Destination != via {
				continue
			}
			earliest, latest := fs.ArriveAt.Add(mct), fs.ArriveAt.Add(maxLayover)
			i := sort.Search(len(seconds), func(i int) bool { return !seconds[i].offer.Segments[0].DepartAt.Before(earliest) })
			kept := 0
			for ; i < len(seconds); i++ {
				s := seconds[i]
				ss := &s.offer.Segments[0]
				if ss.DepartAt.After(latest) {
					break
				}
				st.evaluated++
				// The price first: the heap turns most pairs away, and the
				// other tests compare strings.
				t := f.total + s.total
				if len(h) >= limit && t >= h[0].total || ss.Origin != via || !separateTickets(f, s) || !compatible(f, s) {
					continue
				}
				kept++
				h.push(combo{first: f, second: s, total: t})
				if len(h) > limit {
					h.pop()
				}
				if kept == perFirstLeg {
					break
				}
			}
		}
	}
	combos := []combo(h)
	slices.SortFunc(combos, func(a, b combo) int { return cmp.Compare(a.total, b.total) })
	return combos, st
}

// byPrice orders two priced legs cheapest first, ties by who sells them and
// how: never by arrival order. (Not cmp.Or, which would compare the strings
// of every pair, not only of ties.)
func (p *priced) byPrice(q *priced) int {
	if c := cmp.Compare(p.total, q.total); c != 0 {
		return c
	}
	return cmp.Or(strings.Compare(p.offer.Supplier, q.offer.Supplier), strings.Compare(p.offer.Ref, q.offer.Ref),
		strings.Compare(p.offer.ValidatingCarrier, q.offer.ValidatingCarrier), strings.Compare(p.offer.Brand, q.offer.Brand))
}

// option is the combination as one way to fly the journey: the two legs
// joined, as join would join their options, in one journey group flagged
// as a self-transfer. A search makes a few dozen; join's way made both
// legs options first.
func (c combo) option() *option {
	a, b := c.first, c.second
	jb := &comboBuf{}
	o := &jb.option
	o.optionLists = &jb.lists
	// Clipped, as join clips: a list grown later is copied.
	o.tickets = append(jb.tickets[:0:2], a, b)
	o.segs = append(jb.segs[:0:2], &a.offer.Segments[0], &b.offer.Segments[0])
	o.groups = append(jb.groups[:0:1], append(jb.idx[:0:2], 0, 1))
	o.total = a.total + b.total
	o.self = 1
	// A joined option's class is its widest part's (see summarize).
	o.class = max(routeClass(o.segs[:1], a.offer.Journeys), routeClass(o.segs[1:], b.offer.Journeys)) + 1
	return o
}

// comboBuf is a combination's option with its slices: two legs, one
// journey (joinedBuf, with room for a return, was half as large again).
type comboBuf struct {
	option
	lists   optionLists
	segs    [2]*supplier.Segment
	groups  [1][]int
	tickets [2]*priced
	idx     [2]int
}

// separateTickets says whether combining two legs is interlining: a carrier
// that sells both legs on one ticket already offers that connection itself.
func separateTickets(a, b *priced) bool {
	return a.offer.Supplier != b.offer.Supplier || a.offer.ValidatingCarrier != b.offer.ValidatingCarrier
}

// maxVias is how many connecting airports a journey's interlining tries.
const maxVias = 2

// connectionPoints picks the airports worth connecting through from origin to
// destination: big airports with nonstop routes from the origin and to the
// destination, not far off the great circle. Ordered best first.
func connectionPoints(origin, destination string, n int) []string {
	return viaCache.get(viaKey{origin, destination, n})
}

// viaCache keeps the connection points of the routes searched lately:
// scoring every airport reachable from a hub is most of the cost of
// planning a search.
var viaCache = newMemo(10000, func(k viaKey) []string { return findConnectionPoints(k.origin, k.destination, k.n) })

type viaKey struct {
	origin, destination string
	n                   int
}

func findConnectionPoints(origin, destination string, n int) []string {
	oAirports, dAirports := geo.Resolve(origin), geo.Resolve(destination)
	if len(oAirports) == 0 || len(dAirports) == 0 {
		return nil
	}
	o, d := oAirports[0], dAirports[0]
	direct := geo.DistanceKm(o, d)
	if direct < 500 {
		// Nobody connects on a short hop.
		return nil
	}
	from := map[string]int{}
	for _, oa := range oAirports {
		for _, r := range geo.RoutesFrom(oa) {
			from[r.Destination]++
		}
	}
	type cand struct {
		code  string
		score float64
	}
	var cands []cand
	for via, outCount := range from {
		if slices.Contains(oAirports, via) || slices.Contains(dAirports, via) {
			continue
		}
		inCount := 0
		for _, r := range geo.RoutesFrom(via) {
			if slices.Contains(dAirports, r.Destination) {
				inCount++
			}
		}
		if inCount == 0 {
			continue
		}
		detour := (geo.DistanceKm(o, via) + geo.DistanceKm(via, d)) / direct
		if detour > 1.3 {
			continue
		}
		// More carriers on both legs means more fares to combine; a detour
		// costs time.
		cands = append(cands, cand{via, float64(min(outCount, inCount)) / detour / detour})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.code, b.code)
	})
	out := make([]string, 0, n)
	for _, c := range cands {
		if len(out) == n {
			break
		}
		out = append(out, c.code)
	}
	return out
}
