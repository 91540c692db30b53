package shopping

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// An incremental build, answers added a few at a time as they arrive, must
// end with exactly the solutions of building every answer at once.
//
// The simulators fly different flights on different days, and an order
// dependence shows only on some of them: several departure days.
func TestBuilderIncrementalMatchesFullBuild(t *testing.T) {
	t.Parallel()
	for _, days := range []int{9, 30, 47, 64, 101} {
		t.Run(strconv.Itoa(days), func(t *testing.T) { testIncrementalBuild(t, days) })
	}
}

func testIncrementalBuild(t *testing.T, days int) {
	req, parts, p := simPartsIn(t, days)
	now := time.Now()
	want := build(req, parts, p, now)
	if len(want) < 100 {
		t.Fatalf("only %d solutions from the simulators", len(want))
	}
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, 1))
		shuffled := slices.Clone(parts)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		b := newBuilder(req, p, false)
		var got []*view
		for n := 0; n < len(shuffled); {
			n = min(len(shuffled), n+1+r.IntN(8))
			b.add(shuffled[:n])
			got = b.views(now, false)
		}
		if g, w := summary(got), summary(want); !slices.Equal(g, w) {
			t.Fatalf("seed %d: incremental build has %d solutions, full build %d; first differences: %v",
				seed, len(g), len(w), firstDiff(g, w))
		}
		// A rebuild with nothing new keeps every view (and any Solution it
		// already made).
		again := b.views(now, false)
		for i := range again {
			if again[i] != got[i] {
				t.Fatalf("seed %d: view %d rebuilt with no new answers", seed, i)
			}
		}
	}
}

// A builder takes the tables a finished one released (see tables): what
// the last search numbered in them must change nothing in the next one's
// solutions, and the pool must hold none of its options.
//
// The tables passed from one search to the next are kept out of the pool
// until the end: a table in the pool that a builder still fills is the next
// builder's too.
func TestBuilderOnReleasedTables(t *testing.T) {
	t.Parallel()
	now := time.Now()
	for _, c := range []struct{ before, after int }{{30, 47}, {47, 47}, {101, 9}} {
		t.Run(fmt.Sprintf("%d then %d", c.before, c.after), func(t *testing.T) {
			req, parts, p := simPartsIn(t, c.before)
			first := newBuilder(req, p, false)
			first.add(parts)
			if len(first.views(now, false)) == 0 {
				t.Fatal("the first search has no solutions")
			}
			// As release gives them back, but kept here.
			used := first.tables
			first.tables = nil
			used.reset()

			req, parts, p = simPartsIn(t, c.after)
			want := build(req, parts, p, now)
			b := newBuilderOn(req, p, false, used)
			b.add(parts)
			if g, w := summary(b.views(now, false)), summary(want); !slices.Equal(g, w) {
				t.Fatalf("on released tables: %d solutions, on new ones %d; first differences: %v", len(g), len(w), firstDiff(g, w))
			}

			// What release gives the pool, looked at before another
			// parallel search can take it from there.
			if b.detach() != used || b.tables != nil {
				t.Fatal("a released builder keeps its tables, or gives others")
			}
			if n := len(used.joined) + len(used.flights) + len(used.brands) + len(used.itineraries) + len(used.digested) + used.viewLists.n +
				len(used.made) + len(used.combined) + len(used.all); n != 0 {
				t.Fatalf("released tables hold %d entries", n)
			}
			for _, v := range used.made[:cap(used.made)] {
				if v != nil {
					t.Fatal("released tables' list of views keeps one")
				}
			}
			for _, sl := range used.viewLists.slots {
				if sl.vl != nil {
					t.Fatal("released tables' lists keep a view's")
				}
			}
			for _, o := range slices.Concat(used.combined[:cap(used.combined)], used.all[:cap(used.all)]) {
				if o != nil {
					t.Fatal("released tables' lists of options keep one")
				}
			}
		})
	}
}

// summary is what two builds must agree on, view by view, in a stable order.
func summary(vs []*view) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.id() + " " + itineraryText(v.opt) + " " + v.speedName() + " " + stopCounts[v.stops] + " " + time.Duration(v.total).String()
	}
	slices.Sort(out)
	return out
}

func firstDiff(a, b []string) []string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return []string{a[i], b[i]}
		}
	}
	return nil
}

// A journey's pool is cut to its maxPoolPerJourney cheapest options; only
// the self-transfer combinations that can make the cut are made options.
// The cut must keep what it keeps with every combination made.
func TestPoolMakesOnlyTheCombinationsItKeeps(t *testing.T) {
	t.Parallel()
	for _, days := range []int{9, 30, 47, 64, 101} {
		req, parts, p := simPartsIn(t, days)
		b := newBuilder(req, p, false)
		b.add(parts)
		b.options(false)
		made := 0
		for j := range req.Journeys {
			if len(b.combos[j]) == 0 {
				t.Fatalf("%d days: journey %d has no self-transfer combinations", days, j)
			}
			all := make([]*option, len(b.combos[j]))
			for i, c := range b.combos[j] {
				all[i] = c.option()
			}
			n := pooled(b.combos[j], poolCut(b.oneways[j], b.combos[j], maxPoolPerJourney))
			made += n
			every := slices.Concat(b.oneWays(j, math.MaxInt64, nil), all)
			some := b.pool(j, maxPoolPerJourney, nil)
			cut := func(pool []*option) []string {
				kept := combineJourneys([][]*option{pool}, len(pool), nil)
				var ids []string
				for _, trip := range kept {
					ids = append(ids, trip[0].idOf())
				}
				return ids
			}
			if g, w := cut(some), cut(every); !slices.Equal(g, w) {
				t.Fatalf("%d days, journey %d: pool with %d of %d combinations differs: %v", days, j, n, len(all), firstDiff(g, w))
			}
		}
		if made == 0 {
			t.Logf("%d days: no combination made the cut", days)
		}
	}
}

func TestPooled(t *testing.T) {
	t.Parallel()
	opts := func(totals ...int64) []oneway {
		out := make([]oneway, len(totals))
		for i, v := range totals {
			out[i] = oneway{priced: &priced{total: v}}
		}
		return out
	}
	combos := func(totals ...int64) []combo {
		out := make([]combo, len(totals))
		for i, v := range totals {
			out[i] = combo{total: v}
		}
		return out
	}
	for _, c := range []struct {
		name    string
		oneways []oneway
		combos  []combo
		n, want int
	}{
		{"room for all", opts(5, 6), combos(1, 9), 4, 2},
		{"the cheapest only", opts(1, 2, 3), combos(2, 4, 5), 3, 1},
		{"ties at the cut kept", opts(1, 3), combos(2, 3, 3, 4), 3, 3},
		{"none cheap enough", opts(1, 2), combos(3, 4), 2, 0},
		{"no one-ways", nil, combos(1, 2, 3), 2, 2},
	} {
		if got := pooled(c.combos, poolCut(c.oneways, c.combos, c.n)); got != c.want {
			t.Errorf("%s: pooled = %d, want %d", c.name, got, c.want)
		}
	}
}

// A journey's pool takes the one-way offers that can be among its n
// cheapest, ties at the cut included, each the same option every time.
func TestCheapestOneWays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		totals []int64
		n      int
		want   []int64
	}{
		{"room for all", []int64{5, 3, 4}, 3, []int64{5, 3, 4}},
		{"the cheapest only", []int64{5, 1, 4, 2}, 2, []int64{1, 2}},
		{"ties at the cut kept", []int64{3, 1, 3, 7, 3}, 2, []int64{3, 1, 3, 3}},
		{"none", nil, 2, nil},
	} {
		req := &Request{Journeys: make([]supplier.JourneyQuery, 2)}
		b := newBuilder(req, &Policy{}, false)
		for _, v := range c.totals {
			o := &supplier.Offer{Segments: []supplier.Segment{{FlightNumber: "CA937"}}, Journeys: [][]int{{0}}}
			b.oneways[0] = append(b.oneways[0], oneway{priced: &priced{offer: o, total: v}})
		}
		first := b.pool(0, c.n, nil)
		var got []int64
		for _, o := range first {
			got = append(got, o.total)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if again := b.pool(0, c.n, nil); !slices.Equal(again, first) {
			t.Errorf("%s: the options were made again", c.name)
		}
	}
}

// itineraryText is an option's itinerary as text: its flights by journey,
// departures in minutes, cabins, and the package it guarantees. Builders
// number journeys in the order they see them, so two builders are compared
// by this, not by their numbers.
func itineraryText(o *option) string {
	o = o.full()
	var b []byte
	for _, g := range o.groups {
		for _, i := range g {
			s := o.segs[i]
			b = fmt.Appendf(b, "%s@%d/%s;", s.FlightNumber, s.DepartAt.Unix()/60, s.Cabin)
		}
		b = append(b, '|')
	}
	bag, cond, brand := packageOf(o)
	return string(fmt.Appendf(b, "%d/%d|%v%v|%s", bag.CheckedPieces, bag.CheckedKg, cond.Refundable, cond.Changeable, brand))
}

// Two options share an itinerary number exactly when they share an
// itinerary's text: the same flights by journey, cabins, bags, rules and
// brand.
func TestItineraryNumbersMatchTheirText(t *testing.T) {
	t.Parallel()
	// A three-journey trip's itineraries are numbered by digest, a
	// return's packed (see itinerary.packed).
	date := func(days int) string { return time.Now().AddDate(0, 0, days).Format(time.DateOnly) }
	multi := func(t *testing.T) (*Request, []Part, *Policy) {
		return simPartsFor(t, Multi, []supplier.JourneyQuery{{Origin: "PEK", Destination: "LHR", Date: date(20)},
			{Origin: "LHR", Destination: "CDG", Date: date(24)}, {Origin: "CDG", Destination: "PEK", Date: date(29)}})
	}
	for _, days := range []int{9, 47, 0} {
		var req *Request
		var parts []Part
		var p *Policy
		if days == 0 {
			req, parts, p = multi(t)
		} else {
			req, parts, p = simPartsIn(t, days)
		}
		b := newBuilder(req, p, false)
		b.add(parts)
		opts := b.options(false)
		for j := range req.Journeys {
			// The pools' options too: one-ways and self-transfers.
			opts = b.oneWays(j, math.MaxInt64, opts)
			opts = b.interline(j, len(b.combos[j]), opts)
		}
		byNumber, byText := map[int32]string{}, map[string]int32{}
		for _, o := range opts {
			n, text := b.itineraryOf(o), itineraryText(o)
			if was, ok := byNumber[n]; ok && was != text {
				t.Fatalf("%d days: number %d for %q and %q", days, n, was, text)
			}
			if was, ok := byText[text]; ok && was != n {
				t.Fatalf("%d days: %q numbered %d and %d", days, text, was, n)
			}
			byNumber[n], byText[text] = text, n
		}
		if len(byNumber) < 100 {
			t.Fatalf("%d days: only %d itineraries", days, len(byNumber))
		}
		if days == 0 && (len(b.digested) == 0 || len(b.itineraries) == 0) {
			// The one-journey pool options pack; the whole trips do not.
			t.Fatalf("multi-city: %d packed and %d digested itineraries, want both", len(b.itineraries), len(b.digested))
		}
	}
}

// A trip joined from journeys says which of them is a self-transfer.
func TestJoinKeepsEachJourneysSelfTransfer(t *testing.T) {
	t.Parallel()
	req, parts, p := simPartsIn(t, 30)
	b := newBuilder(req, p, false)
	b.add(parts)
	b.options(false)
	if len(b.oneways[0]) == 0 || len(b.combos[1]) == 0 {
		t.Fatal("no one-way out or self-transfer back")
	}
	out, back := b.oneWays(0, math.MaxInt64, nil)[0], b.interline(1, 1, nil)[0]
	// A trip as the builder makes it, with its parts, reads as the trip
	// joined.
	now := time.Now()
	v := (&merged{option: b.trip([]*option{out, back}), sources: []string{"interline"}}).view(req, p, now)
	js := v.solution(req, p).Journeys
	if len(js) != 2 || js[0].SelfTransfer || !js[1].SelfTransfer || !v.solution(req, p).SelfTransfer {
		t.Fatalf("journeys %+v, want the second alone a self-transfer", js)
	}
	joined := (&merged{option: join(out, back), sources: []string{"interline"}}).view(req, p, now)
	if got, want := v.solution(req, p), joined.solution(req, p); !reflect.DeepEqual(got, want) {
		t.Fatalf("the trip's solution\n%+v\nthe joined one's\n%+v", got, want)
	}
	if v.opt.outboundKey() != joined.opt.outboundKey() || itineraryText(v.opt) != itineraryText(joined.opt) ||
		!reflect.DeepEqual(v.offers(), joined.offers()) {
		t.Fatal("the trip and the joined trip differ in outbound, itinerary or offers")
	}
	// The figures filters and sorts read are the same too.
	v.opt, joined.opt = nil, nil
	if !reflect.DeepEqual(v, joined) {
		t.Fatalf("the trip's view\n%+v\nthe joined one's\n%+v", v, joined)
	}
	if trip := join(back, back); trip.self != 3 {
		t.Fatalf("both journeys self-transfers: %b", trip.self)
	}
}

// Each facet counts the solutions every other filter keeps, its own left
// out, so a person sees what ticking one more box would give.
func TestQueryFacetsLeaveTheirOwnFilterOut(t *testing.T) {
	t.Parallel()
	mk := func(id string, carriers []string, stops, dep, speed uint8, total int64) *view {
		return &view{opt: &option{notes: &optionNotes{id: id}}, viewLists: &viewLists{carriers: carriers}, stops: stops, depBucket: dep, arrBucket: dep, speed: speed, total: total}
	}
	views := []*view{
		mk("a", []string{"CA"}, 0, 1, 0, 100),
		mk("b", []string{"CA", "BA"}, 1, 1, 2, 200),
		mk("c", []string{"BA"}, 1, 2, 2, 300),
		mk("d", []string{"MU"}, 2, 3, 7, 400),
	}
	counts := func(fs []Facet) string {
		var b []byte
		for _, f := range fs {
			b = fmt.Appendf(b, "%s=%d ", f.Value, f.Count)
		}
		return string(b)
	}
	for _, c := range []struct {
		name                          string
		f                             Filters
		ids, airlines, stops, buckets string
		speeds                        string
	}{
		{name: "none", ids: "a b c d", airlines: "BA=2 CA=2 MU=1 ", stops: "0=1 1=2 2=1 ", buckets: "06-12=2 12-18=1 18-24=1 ",
			speeds: "fast-standard=1 normal-standard=2 special-before-4=1 "},
		{name: "one stop", f: Filters{Stops: []string{"1"}}, ids: "b c", airlines: "BA=2 CA=1 ", stops: "0=1 1=2 2=1 ",
			buckets: "06-12=1 12-18=1 ", speeds: "normal-standard=2 "},
		{name: "stops and a bucket", f: Filters{Stops: []string{"1", "2"}, DepartureBuckets: []string{"12-18", "18-24"}}, ids: "c d",
			airlines: "BA=1 MU=1 ", stops: "1=1 2=1 ", buckets: "06-12=1 12-18=1 18-24=1 ", speeds: "normal-standard=1 special-before-4=1 "},
		{name: "a speed and an airline", f: Filters{TicketingSpeed: []string{SpeedNormal}, Airlines: []string{"CA"}}, ids: "b",
			airlines: "BA=2 CA=1 ", stops: "1=1 ", buckets: "06-12=1 ", speeds: "fast-standard=1 normal-standard=1 "},
		{name: "an unknown value", f: Filters{Stops: []string{"9"}}, ids: "", airlines: "", stops: "0=1 1=2 2=1 ", buckets: "", speeds: ""},
	} {
		got, order, facets := query(views, c.f, bounds{depFrom: -1, depTo: -1, arrFrom: -1, arrTo: -1}, SortPrice, "en")
		order.sortFirst(got, len(got))
		var ids []byte
		for _, v := range got {
			ids = fmt.Appendf(ids, "%s ", v.id())
		}
		if string(ids) != c.ids+map[bool]string{true: " ", false: ""}[c.ids != ""] {
			t.Errorf("%s: solutions %q, want %q", c.name, ids, c.ids)
		}
		for _, f := range []struct{ what, got, want string }{
			{"airlines", counts(facets.Airlines), c.airlines}, {"stops", counts(facets.Stops), c.stops},
			{"departure buckets", counts(facets.DepartureBuckets), c.buckets}, {"speeds", counts(facets.TicketingSpeed), c.speeds},
		} {
			if f.got != f.want {
				t.Errorf("%s: %s facet %q, want %q", c.name, f.what, f.got, f.want)
			}
		}
	}
}

// Views with the same lists share them, and lists that differ anywhere,
// even where their strings read alike run together, are not shared.
func TestListerSharesEqualListsOnly(t *testing.T) {
	t.Parallel()
	var l lister
	src := []string{"gds"}
	first := l.get(src, []string{"CA", "BA"}, []string{"FRA"})
	if again := l.get(src, []string{"CA", "BA"}, []string{"FRA"}); again != first {
		t.Fatal("the same lists were not shared")
	}
	for _, c := range []struct {
		name                        string
		sources, carriers, layovers []string
	}{
		{"strings split elsewhere", src, []string{"CAB", "A"}, []string{"FRA"}},
		{"a string moved to the next list", src, []string{"CA"}, []string{"BA", "FRA"}},
		{"another supplier", []string{"ndc"}, []string{"CA", "BA"}, []string{"FRA"}},
		{"no layover", src, []string{"CA", "BA"}, nil},
	} {
		got := l.get(c.sources, c.carriers, c.layovers)
		if got == first {
			t.Errorf("%s: shares the lists of %v", c.name, *first)
		}
		if !slices.Equal(got.sources, c.sources) || !slices.Equal(got.carriers, c.carriers) || !slices.Equal(got.layovers, c.layovers) {
			t.Errorf("%s: got %v", c.name, *got)
		}
	}
}

// An itinerary packs into 64 bits only when every field fits, and two
// itineraries differing in any one field pack differently.
func TestItineraryPacked(t *testing.T) {
	t.Parallel()
	base := itinerary{journeys: [MaxJourneys]int32{7, 9}, checkedPieces: 1, checkedKg: 23, brand: 3, refundable: true}
	k, ok := base.packed()
	if !ok {
		t.Fatal("a plain return does not pack")
	}
	for _, c := range []struct {
		name   string
		change func(*itinerary)
		fits   bool
	}{
		{"outbound", func(it *itinerary) { it.journeys[0] = 8 }, true},
		{"inbound", func(it *itinerary) { it.journeys[1] = 1<<20 - 1 }, true},
		{"pieces", func(it *itinerary) { it.checkedPieces = 15 }, true},
		{"kilograms", func(it *itinerary) { it.checkedKg = 255 }, true},
		{"brand", func(it *itinerary) { it.brand = 1023 }, true},
		{"refundable", func(it *itinerary) { it.refundable = false }, true},
		{"changeable", func(it *itinerary) { it.changeable = true }, true},
		{"no inbound", func(it *itinerary) { it.journeys[1] = 0 }, true},
		{"a third journey", func(it *itinerary) { it.journeys[2] = 1 }, false},
		{"a fifth journey", func(it *itinerary) { it.journeys[4] = 1 }, false},
		{"too many flights", func(it *itinerary) { it.journeys[0] = 1 << 20 }, false},
		{"too many pieces", func(it *itinerary) { it.checkedPieces = 16 }, false},
		{"too heavy", func(it *itinerary) { it.checkedKg = 256 }, false},
		{"negative kilograms", func(it *itinerary) { it.checkedKg = -1 }, false},
		{"too many brands", func(it *itinerary) { it.brand = 1024 }, false},
	} {
		it := base
		c.change(&it)
		got, fits := it.packed()
		if fits != c.fits {
			t.Errorf("%s: fits %v, want %v", c.name, fits, c.fits)
		}
		if fits && got == k {
			t.Errorf("%s: packs as the plain return", c.name)
		}
	}
	// Random itineraries at the edges of each field: one key each.
	rng := rand.New(rand.NewPCG(3, 4))
	edge := func(bits int) int { return []int{0, 1, 1<<bits - 2, 1<<bits - 1}[rng.IntN(4)] }
	seen := map[uint64]itinerary{}
	for range 20000 {
		it := itinerary{journeys: [MaxJourneys]int32{int32(edge(20)), int32(edge(20))}, checkedPieces: edge(4),
			checkedKg: edge(8), brand: int32(edge(10)), refundable: rng.IntN(2) == 0, changeable: rng.IntN(2) == 0}
		k, ok := it.packed()
		if !ok {
			t.Fatalf("%+v does not pack", it)
		}
		if was, dup := seen[k]; dup && was != it {
			t.Fatalf("%+v and %+v pack alike", was, it)
		}
		seen[k] = it
	}
}

// A rebuild combines the journeys again; a trip of the same parts as one
// an earlier rebuild made is that trip, so that its view, and the Solution
// a page made of it, carry over.
func TestTripsCarryOverRebuilds(t *testing.T) {
	t.Parallel()
	req, parts, p := simPartsIn(t, 30)
	// One supplier's one-way answers last: they change the pools.
	var first, last []Part
	for _, part := range parts {
		if strings.HasPrefix(part.Name, "oneway/ndc/") {
			last = append(last, part)
		} else {
			first = append(first, part)
		}
	}
	if len(last) == 0 {
		t.Fatal("no one-way answers from ndc")
	}
	now := time.Now()
	b := newBuilder(req, p, false)
	b.add(first)
	b.views(now, false)
	before := map[string]*option{}
	for _, o := range b.combined {
		before[fmt.Sprint(o.parts)] = o
	}
	b.add(append(first, last...))
	b.views(now, false)
	again, kept := 0, 0
	for _, o := range b.combined {
		if was, ok := before[fmt.Sprint(o.parts)]; ok {
			again++
			if was == o {
				kept++
			}
		}
	}
	if again < 100 || kept != again {
		t.Fatalf("of %d trips (%d before), %d of the same parts as before, %d of them the same trip", len(b.combined), len(before), again, kept)
	}
}
