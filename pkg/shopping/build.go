package shopping

import (
	"cmp"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"hash/maphash"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

// priced is an offer with its price per traveller type converted to the
// settlement currency.
type priced struct {
	offer *supplier.Offer
	// fare (base) and taxes per traveller, by paxIndex of the traveller
	// type: arrays, not maps, because a search prices thousands of offers.
	fare  [3]int64
	taxes [3]int64
	total int64 // all travellers, settlement currency
}

// option is one way to fly some journeys: one ticket, or several that Voyage
// combined (interlining).
type option struct {
	// *optionLists are the option's own tickets, segments and journeys,
	// nil for a trip (see parts).
	*optionLists
	// parts, for a trip made of one option per journey (builder.trip), are
	// those options, and the trip has no lists of its own: a search
	// combines hundreds of trips and pages to a few, so a trip's lists are
	// made for the solutions someone reads (full). The figures a view
	// needs come from the parts (see fill).
	parts []*option
	total int64
	// journeys number each journey's flights and brand the brand its
	// tickets share (see builder.number); itinerary numbers the whole
	// (builder.itineraryOf).
	journeys  [MaxJourneys]int32
	brand     int32
	itinerary int32
	self      uint8 // bit j: a self-transfer inside journey j
	// class is the route class's place in routeClasses plus one, once
	// computed (classIndex).
	class uint8
	// notes are what was worked out on first use, nil until then: a search
	// makes about two thousand options, the notes are for the few hundred
	// paged to, sorted on a tie, or a trip's parts.
	notes *optionNotes
}

// optionLists are an option's tickets and segments, and its journeys as
// segment indexes.
type optionLists struct {
	tickets []*priced
	// segs point into the tickets' offers: joining trips copies pointers,
	// not 200-byte segments.
	segs   []*supplier.Segment
	groups [][]int // segment indexes per journey
}

// optionNotes are an option's id and outbound key (idOf, outboundKey), and
// its figures as a trip's part (figures): an option lives through every
// rebuild of its search, so each is worked out once.
type optionNotes struct {
	id, outbound string
	fig          *figures
}

// noted are o's notes, made on first use.
func (o *option) noted() *optionNotes {
	if o.notes == nil {
		o.notes = &optionNotes{}
	}
	return o.notes
}

// listed is an option with its lists, in one allocation.
type listed struct {
	option
	lists optionLists
}

// newListed is an option with (empty) lists of its own.
func newListed() *option {
	l := &listed{}
	l.optionLists = &l.lists
	return &l.option
}

// full is o with its own segments, journeys and tickets: a trip's made by
// joining its parts.
func (o *option) full() *option {
	if o.parts == nil {
		return o
	}
	return join(o.parts...)
}

// ticketsIn are o's tickets, a trip's collected into buf.
func (o *option) ticketsIn(buf []*priced) []*priced {
	if o.parts == nil {
		return o.tickets
	}
	buf = buf[:0]
	for _, p := range o.parts {
		buf = append(buf, p.tickets...)
	}
	return buf
}

// classOf is the option's route class, computed once.
func (o *option) classOf() string { return routeClasses[o.classIndex()] }

// classIndex is the route class's place in routeClasses.
func (o *option) classIndex() uint8 {
	if o.class == 0 {
		o.class = routeClass(o.segs, o.groups) + 1
	}
	return o.class - 1
}

func (o *option) departs() time.Time {
	if o.parts != nil {
		return o.parts[0].departs()
	}
	return o.segs[0].DepartAt
}

func (o *option) arrives() time.Time {
	if o.parts != nil {
		return o.parts[len(o.parts)-1].arrives()
	}
	return o.segs[len(o.segs)-1].ArriveAt
}

// price converts an offer; ok is false when a rate is missing.
func (p *Policy) price(o *supplier.Offer) (*priced, bool) {
	pr := &priced{}
	return pr, p.priceInto(pr, o)
}

// priceInto makes pr, a zero priced, the price of o, and says whether o's
// currency converts.
func (p *Policy) priceInto(pr *priced, o *supplier.Offer) bool {
	pr.offer = o
	for k := range o.Fares {
		f := &o.Fares[k]
		i := paxIndex(f.Type)
		if i < 0 {
			continue
		}
		base, ok1 := p.convert(f.Base, o.Currency)
		tax, ok2 := p.convert(f.Taxes, o.Currency)
		if !ok1 || !ok2 {
			return false
		}
		pr.fare[i] += base
		pr.taxes[i] += tax
		pr.total += (base + tax) * int64(f.Count)
	}
	return true
}

// single is one offer as an option: in one allocation with its slices when
// they fit, up to six segments (a return with two stops a way). A search
// makes a thousand, and four allocations each were a tenth of its garbage.
func single(pr *priced) *option {
	if len(pr.offer.Segments) > len(singleBuf{}.segs) {
		o := newListed()
		o.tickets, o.segs, o.groups, o.total = []*priced{pr}, segmentsOf(pr.offer), pr.offer.Journeys, pr.total
		return o
	}
	return fillSingle(&singleBuf{}, pr)
}

// fillSingle makes sb, a zero singleBuf, the option of pr.
func fillSingle(sb *singleBuf, pr *priced) *option {
	o := pr.offer
	sb.tickets[0] = pr
	for i := range o.Segments {
		sb.segs[i] = &o.Segments[i]
	}
	sb.lists = optionLists{tickets: sb.tickets[:], segs: sb.segs[:len(o.Segments):len(o.Segments)], groups: o.Journeys}
	sb.option = option{optionLists: &sb.lists, total: pr.total}
	return &sb.option
}

// singleBuf is an option of one offer of up to six segments, with its
// slices.
type singleBuf struct {
	option
	lists   optionLists
	tickets [1]*priced
	segs    [6]*supplier.Segment
}

// segmentsOf points at an offer's segments.
func segmentsOf(o *supplier.Offer) []*supplier.Segment {
	out := make([]*supplier.Segment, len(o.Segments))
	for i := range o.Segments {
		out[i] = &o.Segments[i]
	}
	return out
}

// join concatenates options covering consecutive journeys into one, with
// lists of its own: the legs of a self-transfer, and a trip someone reads
// (see full).
func join(parts ...*option) *option {
	// Sized up front: a search joins hundreds of legs.
	var nsegs, ngroups, nidx, ntickets int
	for _, p := range parts {
		nsegs, ngroups, ntickets = nsegs+len(p.segs), ngroups+len(p.groups), ntickets+len(p.tickets)
		for _, g := range p.groups {
			nidx += len(g)
		}
	}
	// One allocation for a trip of the usual size (a return of up to
	// three segments a way, in up to four tickets): six allocations each
	// were a tenth of a search's garbage when every trip was joined.
	var out *option
	var idx []int
	if nsegs <= len(joinedBuf{}.segs) && ngroups <= len(joinedBuf{}.groups) &&
		ntickets <= len(joinedBuf{}.tickets) && nidx <= len(joinedBuf{}.idx) {
		jb := &joinedBuf{}
		out = &jb.option
		out.optionLists = &jb.lists
		out.segs, out.groups, out.tickets = jb.segs[:0:nsegs], jb.groups[:0:ngroups], jb.tickets[:0:ntickets]
		idx = jb.idx[:0:nidx]
	} else {
		out = newListed()
		out.segs, out.groups, out.tickets = make([]*supplier.Segment, 0, nsegs), make([][]int, 0, ngroups), make([]*priced, 0, ntickets)
		idx = make([]int, 0, nidx)
	}
	out.summarize(parts)
	for _, p := range parts {
		// The journeys before p's shift its self-transfers' bits.
		out.self |= p.self << len(out.groups)
		base := len(out.segs)
		out.segs = append(out.segs, p.segs...)
		for _, g := range p.groups {
			start := len(idx)
			for _, x := range g {
				idx = append(idx, x+base)
			}
			out.groups = append(out.groups, idx[start:len(idx):len(idx)])
		}
		out.tickets = append(out.tickets, p.tickets...)
		out.total += p.total
	}
	return out
}

// summarize gives o, made of parts, their class, brand and journeys'
// numbers.
func (o *option) summarize(parts []*option) {
	// A trip is as wide as its widest journey: its class follows from
	// its parts' without looking the airports up again.
	var class uint8
	for _, p := range parts {
		class = max(class, p.classIndex())
	}
	o.class = class + 1
	o.brand = parts[0].brand
	n := 0
	for _, p := range parts {
		if p.brand != o.brand {
			o.brand = 0
		}
		for g := range min(len(p.groups), MaxJourneys) {
			if n < MaxJourneys {
				o.journeys[n] = p.journeys[g]
				n++
			}
		}
	}
}

// joinedBuf is a joined option with room for the slices of a return of up
// to three segments a way (the usual trip; others get their own).
type joinedBuf struct {
	option
	lists   optionLists
	segs    [6]*supplier.Segment
	groups  [2][]int
	tickets [4]*priced
	idx     [6]int
}

// journeyEnds are the cities of each journey's origin and destination, as
// journeyOf compares them.
func journeyEnds(req *Request) [][2]string {
	ends := make([][2]string, len(req.Journeys))
	for j, q := range req.Journeys {
		ends[j] = [2]string{cityCode(q.Origin), cityCode(q.Destination)}
	}
	return ends
}

// journeyOf says which journey of the request a one-journey offer answers,
// -1 when none; b.ends are the request's journeyEnds, worked out once
// rather than for every offer.
func (b *builder) journeyOf(o *supplier.Offer) int {
	if len(o.Journeys) != 1 || len(o.Segments) == 0 {
		return -1
	}
	first, last := &o.Segments[0], &o.Segments[len(o.Segments)-1]
	// The offer's day and cities worked out once, not for every journey
	// compared.
	var buf [len(time.DateOnly)]byte
	date := first.DepartAt.AppendFormat(buf[:0], time.DateOnly)
	var from, to string
	for j, q := range b.req.Journeys {
		if string(date) != q.Date {
			continue
		}
		if from == "" {
			from, to = b.origins.of(first.Origin), b.destinations.of(last.Destination)
		}
		if from == b.ends[j][0] && to == b.ends[j][1] {
			return j
		}
	}
	return -1
}

// cityMemo is cityCode remembering the airport last asked: an answer's
// offers mostly fly between the same two airports, and the airports' table
// is large enough that looking each offer's up missed the cache (two thirds
// of journeyOf).
type cityMemo struct{ airport, city string }

func (m *cityMemo) of(airport string) string {
	if airport != m.airport {
		m.airport, m.city = airport, cityCode(airport)
	}
	return m.city
}

// onDate says whether t falls on date (YYYY-MM-DD) in t's own zone, without
// the garbage of formatting it: a search asks for every offer.
func onDate(t time.Time, date string) bool {
	var buf [len(time.DateOnly)]byte
	return string(t.AppendFormat(buf[:0], time.DateOnly)) == date
}

// builder keeps a search's answers priced and sorted into pools, so a
// rebuild while suppliers are still answering prices only the answers that
// arrived since the last one, redoes the interlining of a journey only when
// its legs changed, and keeps the solutions that did not change.
type builder struct {
	// touched keeps readAhead's loads from being optimised away.
	touched uint64
	req     *Request
	ends    [][2]string // journeyEnds(req)
	p       *Policy
	relaxed bool
	used    int // parts taken so far
	full    []*option
	// oneways are the one-journey offers per journey, and combos the
	// self-transfer combinations of each journey's legs, cheapest first:
	// both are made options only when they can be used (see pool).
	oneways    [][]oneway
	legs       map[legKey][]*priced
	legsDirty  []bool
	combos     [][]combo
	poolsDirty bool
	// tables are the builder's look-up tables and lists (see tables);
	// pools the journeys' pools of the last rebuild, refilled by the next.
	*tables
	pools [][]*option
	// selfTransfers are each journey's interlined options of the last
	// rebuild, by their legs.
	selfTransfers []map[[2]*priced]*option
	// newViews, prices, singles and trips are where views, priced offers,
	// options of one offer and options of several journeys are made, lists
	// the views' lists, and partLists the trips' parts (see block).
	newViews  block[view]
	prices    block[priced]
	singles   block[singleBuf]
	trips     block[option]
	lists     lister
	partLists block[*option]

	// origins and destinations are journeyOf's.
	origins, destinations cityMemo
}

// single is single(pr), made in a block: a search makes several hundred.
func (b *builder) single(pr *priced) *option {
	if len(pr.offer.Segments) > len(singleBuf{}.segs) {
		return single(pr)
	}
	return fillSingle(b.singles.one(), pr)
}

// trip is options covering consecutive journeys as one, holding them as its
// parts (see full), copied: combineJourneys's slices are reused. Trips and
// their lists are made in blocks: a search makes several hundred.
func (b *builder) trip(parts []*option) *option {
	o := b.trips.one()
	o.parts = b.partLists.cut(parts)
	o.summarize(parts)
	for _, p := range parts {
		o.total += p.total
	}
	return o
}

func newBuilder(req *Request, p *Policy, relaxed bool) *builder {
	return newBuilderOn(req, p, relaxed, tablesPool.Get().(*tables))
}

// newBuilderOn is a builder on the tables given, empty (see release).
func newBuilderOn(req *Request, p *Policy, relaxed bool, t *tables) *builder {
	J := len(req.Journeys)
	b := &builder{req: req, ends: journeyEnds(req), p: p, relaxed: relaxed, oneways: make([][]oneway, J), legs: map[legKey][]*priced{},
		legsDirty: make([]bool, J), combos: make([][]combo, J), selfTransfers: make([]map[[2]*priced]*option, J), tables: t}
	b.lists.byHash = &t.viewLists
	// Itineraries are numbered from one (see newItinerary).
	t.slots, t.made = append(t.slots, 0), append(t.made, nil)
	return b
}

// tables are a builder's look-up tables, which outlive it: a complete
// search drops its builder (see Engine.Solutions), and the next search's
// takes the tables, emptied, at the size the last one grew them to. Made
// anew for every search, the tables were about a tenth of the bytes a
// search allocated, nearly all of it memory the process had never touched.
type tables struct {
	// joined are the trips made, by a key of their parts, in a table
	// sized for joinedRoom.
	joined     map[uint64]*option
	joinedRoom int
	// flights number the texts of journeys' flights, brands the brands,
	// and itineraries the itineraries: flights by a 128-bit digest of
	// their text, so that no string is kept for each (see number), and
	// itineraries by themselves packed in 64 bits, or by a digest where
	// they do not fit (see itineraryOf). itineraryRoom is how many
	// itineraries the table was last sized for (see dedupe).
	flights       map[[2]uint64]int32
	brands        map[string]int32
	itineraries   map[uint64]int32
	digested      map[[2]uint64]int32
	itineraryRoom int
	// viewLists are the lister's (see lister.byHash).
	viewLists listTable
	// made are the views last made, and slots dedupe's scratch, by
	// itinerary number: numbers are dense, so slices, not maps (a map per
	// rebuild was a tenth of its CPU). combined are the options of the
	// journeys combined (see options), all those and the whole-trip ones
	// (see every). Lists as long as the tables are large: made anew for
	// each search, they were a fiftieth of what it allocated.
	made     []*view
	slots    []int32
	combined []*option
	all      []*option
}

var tablesPool = sync.Pool{New: func() any {
	return &tables{flights: map[[2]uint64]int32{}, brands: map[string]int32{}, itineraries: map[uint64]int32{}}
}}

// release gives the builder's tables back, emptied so that the pool keeps
// none of its options alive; the builder is not used again. A nil builder
// (a search that never built) has none to give.
func (b *builder) release() {
	if t := b.detach(); t != nil {
		tablesPool.Put(t)
	}
}

// detach takes the builder's tables from it, emptied (nil when it has
// none): release gives them to the pool, a test looks at them first.
func (b *builder) detach() *tables {
	if b == nil || b.tables == nil {
		return nil
	}
	t := b.tables
	b.tables, b.lists.byHash = nil, nil
	t.reset()
	return t
}

// emptied is s with no elements, its whole array zeroed so that it keeps
// nothing alive.
func emptied[T any](s []T) []T {
	clear(s[:cap(s)])
	return s[:0]
}

// reset empties the tables, keeping their room; the lists' arrays are
// zeroed whole, so that they keep nothing alive.
func (t *tables) reset() {
	clear(t.joined)
	clear(t.flights)
	clear(t.brands)
	clear(t.itineraries)
	clear(t.digested)
	t.viewLists.reset()
	t.made, t.slots, t.combined, t.all = emptied(t.made), t.slots[:0], emptied(t.combined), emptied(t.all)
}

// add prices and sorts parts[b.used:], the answers not seen yet.
func (b *builder) add(parts []Part) {
	J := len(b.req.Journeys)
	for i := b.used; i < len(parts); i++ {
		part := &parts[i]
		leg, isLeg := parseLegPart(part.Name)
		// Each list takes a part's offers at once, grown once for them:
		// appended one by one, their growth was a thirtieth of what a
		// search allocated.
		legOK := isLeg && leg.journey >= 0 && leg.journey < J
		switch {
		case legOK:
			b.legs[leg] = slices.Grow(b.legs[leg], len(part.Offers))
		case isWholeTrip(*part):
			b.full = slices.Grow(b.full, len(part.Offers))
		}
		grown := -1 // the journey whose one-ways have room for the part's
		for k := range part.Offers {
			b.touched += readAheadAt(part.Offers, k)
			o := &part.Offers[k]
			if len(o.Segments) == 0 || !b.p.admits(o) || !matchesExact(b.req, o, b.relaxed) {
				continue
			}
			var price priced
			if !b.p.priceInto(&price, o) {
				continue
			}
			pr := b.prices.one()
			*pr = price
			switch {
			case isLeg:
				if len(o.Segments) == 1 && legOK {
					b.legs[leg] = append(b.legs[leg], pr)
					b.legsDirty[leg.journey] = true
				}
			case len(o.Journeys) == J && J > 0:
				b.full = append(b.full, b.number(b.single(pr)))
			default:
				if j := b.journeyOf(o); j >= 0 {
					if j != grown {
						b.oneways[j] = slices.Grow(b.oneways[j], len(part.Offers)-k)
						grown = j
					}
					b.oneways[j] = append(b.oneways[j], oneway{priced: pr})
					b.poolsDirty = true
				}
			}
		}
	}
	b.used = len(parts)
}

// options are every way to fly the whole trip from the answers added.
func (b *builder) options(preview bool) []*option {
	J := len(b.req.Journeys)
	limit := maxCombined
	if preview {
		limit = previewCombined
	}
	// An exact itinerary is the PNR's flights as they are: no interlining.
	// Nor is a preview interlined: its legs wait for the complete answer.
	if len(b.req.Exact) == 0 && !preview {
		for j := range J {
			if b.legsDirty[j] {
				b.combos[j], _ = interlineCount(legsFor(b.legs, j), maxInterlinePerJourney)
				b.legsDirty[j] = false
				b.poolsDirty = true
			}
		}
	}
	if J == 1 {
		if b.poolsDirty {
			b.combined = b.pool(0, math.MaxInt, b.combined[:0])
			b.poolsDirty = false
		}
		return b.every()
	}
	if b.poolsDirty {
		// combineJourneys sorts and trims its pools: the builder's own
		// slices, refilled.
		if b.pools == nil {
			b.pools = make([][]*option, J)
		}
		for j := range J {
			b.pools[j] = b.pool(j, maxPoolPerJourney, b.pools[j][:0])
		}
		s := combiningPool.Get().(*combining)
		trips := combineJourneys(b.pools, limit, s)
		// A trip made of the same options as before is the same option, so
		// its view (and the Solution it built) carries over. Trips are found
		// by a key of their parts (partsKey): of two that share one, only the last
		// is found again, and the other is made anew, which costs a view.
		// Every trip the search made is kept: one the last rebuild left out
		// may come back.
		b.joined = withRoom(b.joined, &b.joinedRoom, len(trips), 2*len(trips))
		b.combined = slices.Grow(b.combined[:0], len(trips))[:len(trips)]
		for i, t := range trips {
			d := partsKey(t)
			o, ok := b.joined[d]
			if !ok || !slices.Equal(o.parts, t) {
				o = b.trip(t)
				b.joined[d] = o
			}
			b.combined[i] = o
		}
		s.release()
		combiningPool.Put(s)
		// A preview's trips are only the cheapest: the pools stay dirty,
		// as a preview's legs do, so that the complete answer combines
		// them again, whether or not answers came since.
		b.poolsDirty = preview
	}
	return b.every()
}

// partsKey is a trip's key in joined: its parts' addresses mixed (an
// option does not move, and lives as long as the builder), which two trips
// share only by chance; joined holds the last, and the other is made anew.
// maphash.Comparable of the parts as an array, through the generic hasher
// of a map of them, took 14 ns a trip and this 2 (a micro-benchmark, not
// kept); a search looks up a thousand trips or more.
func partsKey(parts []*option) uint64 {
	var h uint64
	for _, p := range parts {
		h = mix2(h, uint64(uintptr(unsafe.Pointer(p))), 0)
	}
	return h
}

// every is the whole-trip options then the combined ones, in a slice the
// builder reuses: the rebuild reads it through once (see views), and the
// list of a complete search's thousand options made anew for each was a
// fiftieth of what a search allocated.
func (b *builder) every() []*option {
	b.all = append(append(b.all[:0], b.full...), b.combined...)
	return b.all
}

// pool appends to out journey j's options that can be among its n
// cheapest: its one-way offers and self-transfer combinations up to the
// n-th cheapest total of both, ties included, so that the pool's cut (by
// total, then id) keeps what it would with every one of them made an
// option. A long-haul journey has a few hundred one-way offers and
// combinations and a pool of sixty; making each an option was a tenth of
// a search's CPU.
func (b *builder) pool(j, n int, out []*option) []*option {
	cut := poolCut(b.oneways[j], b.combos[j], n)
	return b.interline(j, pooled(b.combos[j], cut), b.oneWays(j, cut, out))
}

// poolCut is the n-th cheapest total of a journey's one-way offers and
// combinations, the most a pool of n can take; the largest total when
// there are no more than n.
func poolCut(oneways []oneway, combos []combo, n int) int64 {
	if len(oneways)+len(combos) <= n {
		return math.MaxInt64
	}
	totals := make([]int64, 0, len(oneways)+len(combos))
	for _, o := range oneways {
		totals = append(totals, o.total)
	}
	for _, c := range combos {
		totals = append(totals, c.total)
	}
	slices.Sort(totals)
	return totals[n-1]
}

// pooled is how many of a journey's combinations (cheapest first) cost no
// more than cut.
func pooled(combos []combo, cut int64) int {
	return sort.Search(len(combos), func(i int) bool { return combos[i].total > cut })
}

// oneWays appends to out the options of journey j's one-way offers that
// cost no more than cut. An offer's option is made once, so that its trips
// and views carry over between rebuilds.
func (b *builder) oneWays(j int, cut int64, out []*option) []*option {
	for i := range b.oneways[j] {
		w := &b.oneways[j][i]
		if w.total > cut {
			continue
		}
		if w.opt == nil {
			w.opt = b.number(b.single(w.priced))
		}
		out = append(out, w.opt)
	}
	return out
}

// oneway is a one-way offer priced, with its option once made (see
// oneWays).
type oneway struct {
	*priced
	opt *option
}

// interline appends journey j's first n combinations, made options, to
// out; a combination made before is the same option, so its view carries
// over.
func (b *builder) interline(j, n int, out []*option) []*option {
	combos := b.combos[j][:n]
	kept := make(map[[2]*priced]*option, len(combos))
	for _, c := range combos {
		k := [2]*priced{c.first, c.second}
		o, ok := b.selfTransfers[j][k]
		if !ok {
			o = b.number(c.option())
		}
		kept[k] = o
		out = append(out, o)
	}
	b.selfTransfers[j] = kept
	return out
}

// views are the priced solutions of the answers added; a solution whose
// cheapest offer and sellers are those of the view last made for its
// itinerary is that view, with the Solution it may already have built.
func (b *builder) views(now time.Time, preview bool) []*view {
	held, buf := mergedScratch.get(0)
	ms := b.dedupe(b.options(preview), buf)
	defer mergedScratch.put(held, ms)
	out := make([]*view, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		v := b.made[m.key]
		if v == nil || v.opt != m.option || !slices.Equal(v.sources, m.sources) {
			v = b.newViews.one()
			m.fill(v, b.req, b.p, now, &b.lists)
			b.made[m.key] = v
		}
		out = append(out, v)
	}
	return out
}

// matchesExact keeps only the flights of an accurate search. Relaxed, a
// flight matches on carrier, airports and date (a source that numbers the
// same service differently, as the simulators do for real flight numbers).
func matchesExact(req *Request, o *supplier.Offer, relaxed bool) bool {
	if len(req.Exact) == 0 {
		return true
	}
	for _, s := range o.Segments {
		found := false
		for _, e := range req.Exact {
			if !onDate(s.DepartAt, e.Date) {
				continue
			}
			if relaxed {
				found = s.Carrier == e.FlightNumber[:min(2, len(e.FlightNumber))] && s.Origin == e.Origin && s.Destination == e.Destination
			} else {
				found = s.FlightNumber == e.FlightNumber && (e.BookingClass == "" || e.BookingClass == s.BookingClass)
			}
			if found {
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Bounds of the combination work per search. maxCombined keeps the
// cheapest 650 trips built from separate journeys: with the whole-trip
// offers, a busy long-haul return (PEK⇄LHR over the three simulators) shows
// about 1,000 ways to fly.
const (
	maxInterlinePerJourney = 150
	maxPoolPerJourney      = 60
	maxCombined            = 650
)

// previewCombined bounds the trips combined for a preview, the solutions
// shown while suppliers are still answering: the cheapest, enough to fill
// the largest page. A preview lasts until the complete answer, about a
// second later, which combines the journeys again with more answers. Built
// to maxCombined, the preview of the benchmark's long-haul returns made 321
// trips, of which the complete answer kept 46, for 8% of the search's CPU:
// work for solutions nobody would page to.
const previewCombined = maxPageSize

// combineJourneys builds whole trips from per-journey options, cheapest first,
// keeping a beam of the cheapest partial trips so five journeys stay cheap.
// A trip is its options in journey order (join makes it one option). The
// trips are cut from s's slices and hold until s is used again: a caller
// that keeps one copies it (nil s: made for this call).
func combineJourneys(pools [][]*option, limit int, s *combining) [][]*option {
	if s == nil {
		s = &combining{}
	}
	for j := range pools {
		// Ties broken by id: the same answers give the same trips whatever
		// order they arrived in.
		slices.SortFunc(pools[j], func(a, b *option) int {
			// Not cmp.Or: its arguments are all evaluated, and an id is a
			// SHA-256 only a tie needs.
			if c := cmp.Compare(a.total, b.total); c != 0 {
				return c
			}
			return strings.Compare(a.idOf(), b.idOf())
		})
		if len(pools[j]) > maxPoolPerJourney {
			pools[j] = pools[j][:maxPoolPerJourney]
		}
		if len(pools[j]) == 0 {
			return nil
		}
	}
	// Each level's partial trips are cut from one flat slice, sized up
	// front so that appending never moves what was cut: hundreds of
	// two-pointer slices per rebuild were a tenth of its garbage.
	beam, flat := s.beam[:0], slices.Grow(s.flat[:0], len(pools[0]))
	for _, o := range pools[0] {
		flat = append(flat, o)
		beam = append(beam, flat[len(flat)-1:len(flat):len(flat)])
	}
	var buf [16]*priced
	next, nextFlat := s.next[:0], s.nextFlat[:0]
	for j := 1; j < len(pools); j++ {
		pool := pools[j]
		// The beam and the pool are both cheapest first, so the cheapest
		// pairs come off a heap holding each partial trip's next candidate:
		// a return looks at a few hundred of its 3,600 pairs.
		s.sums, s.held, s.tickets = s.sums[:0], s.held[:0], s.tickets[:0]
		s.h = s.h[:0]
		for bi, partial := range beam {
			start := len(s.tickets)
			for _, p := range partial {
				s.tickets = append(s.tickets, p.tickets...)
			}
			s.sums = append(s.sums, sumTotal(partial))
			s.held = append(s.held, s.tickets[start:len(s.tickets):len(s.tickets)])
			s.h.push(pair{bi, 0, s.sums[bi] + pool[0].total})
		}
		next, nextFlat = slices.Grow(next[:0], limit), slices.Grow(nextFlat[:0], limit*(j+1))
		for len(next) < limit && len(s.h) > 0 {
			p := s.h.pop()
			if p.next+1 < len(pool) {
				s.h.push(pair{p.partial, p.next + 1, s.sums[p.partial] + pool[p.next+1].total})
			}
			partial, o := beam[p.partial], pool[p.next]
			// The next journey leaves after the previous one lands, with
			// time to get through the airport.
			if o.departs().Before(partial[len(partial)-1].arrives().Add(2*time.Hour)) ||
				!compatible(append(append(buf[:0], s.held[p.partial]...), o.tickets...)...) {
				continue
			}
			start := len(nextFlat)
			nextFlat = append(append(nextFlat, partial...), o)
			next = append(next, nextFlat[start:len(nextFlat):len(nextFlat)])
		}
		beam, next = next, beam
		flat, nextFlat = nextFlat, flat
	}
	s.beam, s.flat, s.next, s.nextFlat = beam, flat, next, nextFlat
	return beam
}

// combining is what combineJourneys works in: two levels of partial trips
// and their flat slices, and each partial trip's total and tickets. A
// search combines its journeys a few times, most of them once or twice in
// full: the slices are shared between searches (combiningPool), or each
// would be made anew for almost every combination.
type combining struct {
	beam, next     [][]*option
	flat, nextFlat []*option
	sums           []int64
	held           [][]*priced
	tickets        []*priced
	h              binaryHeap[pair]
}

var combiningPool = sync.Pool{New: func() any { return new(combining) }}

// release drops what s points at, so that a pooled s keeps no search's
// options alive.
func (s *combining) release() {
	clear(s.beam[:cap(s.beam)])
	clear(s.next[:cap(s.next)])
	clear(s.flat[:cap(s.flat)])
	clear(s.nextFlat[:cap(s.nextFlat)])
	clear(s.held[:cap(s.held)])
	clear(s.tickets[:cap(s.tickets)])
}

// pair is a partial trip (beam index) and an option of the next journey
// (pool index) with their total.
type pair struct {
	partial, next int
	total         int64
}

// before orders pairs cheapest first (see binaryHeap), ties by place.
func (a pair) before(b pair) bool {
	if a.total != b.total {
		return a.total < b.total
	}
	if a.partial != b.partial {
		return a.partial < b.partial
	}
	return a.next < b.next
}

func sumTotal(parts []*option) int64 {
	var t int64
	for _, p := range parts {
		t += p.total
	}
	return t
}

// number gives each of o's journeys the number of its flights' text, the
// same number for the same flights in the same cabins whoever sells them,
// and returns o. A trip joined from options takes their numbers (join): its
// itinerary is compared without a text of its own.
func (b *builder) number(o *option) *option {
	var buf [256]byte
	for j, g := range o.groups[:min(len(o.groups), MaxJourneys)] {
		// A departure is its instant in minutes, the same flight whatever
		// zone a source wrote it in.
		// Each string is its length and bytes, so no two keys read alike.
		k := buf[:0]
		for _, i := range g {
			s := o.segs[i]
			k = binary.AppendUvarint(k, uint64(len(s.FlightNumber)))
			k = append(k, s.FlightNumber...)
			k = binary.LittleEndian.AppendUint64(k, uint64(s.DepartAt.Unix()/60))
			k = binary.AppendUvarint(k, uint64(len(s.Cabin)))
			k = append(k, s.Cabin...)
		}
		d := [2]uint64{maphash.Bytes(itinerarySeeds[0], k), maphash.Bytes(itinerarySeeds[1], k)}
		n, ok := b.flights[d]
		if !ok {
			n = int32(len(b.flights) + 1)
			b.flights[d] = n
		}
		o.journeys[j] = n
	}
	// The brand its tickets share, as packageOf says.
	brand := o.tickets[0].offer.Brand
	for _, t := range o.tickets[1:] {
		if t.offer.Brand != brand {
			brand = ""
		}
	}
	o.brand = 0
	if brand != "" {
		n, ok := b.brands[brand]
		if !ok {
			n = int32(len(b.brands) + 1)
			b.brands[brand] = n
		}
		o.brand = n
	}
	return o
}

// outboundKey names the flights of the option's first journey, whatever
// follows them or whoever sells them: a departure is its instant in
// minutes, as in number.
func (o *option) outboundKey() string {
	if o.parts != nil {
		return o.parts[0].outboundKey()
	}
	n := o.noted()
	if n.outbound == "" {
		b := make([]byte, 0, 64)
		first := o.segs
		if len(o.groups) > 0 {
			first = nil
			for _, i := range o.groups[0] {
				first = append(first, o.segs[i])
			}
		}
		for _, s := range first {
			b = append(b, s.Carrier...)
			b = append(b, s.FlightNumber...)
			b = append(b, '@')
			b = strconv.AppendInt(b, s.DepartAt.Unix()/60, 36)
			b = append(b, ';')
		}
		n.outbound = string(b)
	}
	return n.outbound
}

func (o *option) idOf() string {
	n := o.noted()
	if n.id == "" {
		n.id = idOf(o)
	}
	return n.id
}

// itinerary identifies what a traveller gets: the same flights in the same
// cabins with the same bags, rules and brand are the same thing, whoever
// sells them. Its journeys and brand are the builder's numbers (number).
type itinerary struct {
	journeys                 [MaxJourneys]int32
	checkedPieces, checkedKg int
	brand                    int32
	refundable, changeable   bool
}

// itineraryOf is o's itinerary's number, the same for every option of the
// search with that itinerary: worked out once per option, so that a rebuild
// compares numbers. A map of whole itineraries was a tenth of a search's
// garbage: an itinerary of one or two journeys is kept as itself packed in
// 64 bits (see packed), and a longer one by a 128-bit digest, which two
// itineraries of one search share with odds of about one in 10^32.
func (b *builder) itineraryOf(o *option) int32 {
	if o.itinerary == 0 {
		bag, cond, _ := packageOf(o)
		it := itinerary{journeys: o.journeys, checkedPieces: bag.CheckedPieces, checkedKg: bag.CheckedKg,
			brand: o.brand, refundable: cond.Refundable, changeable: cond.Changeable}
		var n int32
		var ok bool
		if p, fits := it.packed(); fits {
			if n, ok = b.itineraries[p]; !ok {
				n = b.newItinerary()
				b.itineraries[p] = n
			}
		} else {
			k := [2]uint64{maphash.Comparable(itinerarySeeds[0], it), maphash.Comparable(itinerarySeeds[1], it)}
			if n, ok = b.digested[k]; !ok {
				if b.digested == nil {
					b.digested = map[[2]uint64]int32{}
				}
				n = b.newItinerary()
				b.digested[k] = n
			}
		}
		o.itinerary = n
	}
	return o.itinerary
}

// newItinerary numbers a new itinerary.
func (b *builder) newItinerary() int32 {
	n := int32(len(b.slots))
	b.slots = append(b.slots, 0)
	b.made = append(b.made, nil)
	return n
}

// packed is it in 64 bits, exactly, when it fits: two journeys' numbers
// (20 bits each; a journey's flights are numbered from one, a search has a
// few hundred), up to 15 checked pieces and 255 kg, a brand numbered below
// 1,024, and the two conditions.
func (it *itinerary) packed() (uint64, bool) {
	for _, j := range it.journeys[2:] {
		if j != 0 {
			return 0, false
		}
	}
	if uint32(it.journeys[0]) >= 1<<20 || uint32(it.journeys[1]) >= 1<<20 || uint(it.checkedPieces) >= 1<<4 ||
		uint(it.checkedKg) >= 1<<8 || uint32(it.brand) >= 1<<10 {
		return 0, false
	}
	k := uint64(it.journeys[0]) | uint64(it.journeys[1])<<20 | uint64(it.checkedPieces)<<40 |
		uint64(it.checkedKg)<<44 | uint64(it.brand)<<52
	if it.refundable {
		k |= 1 << 62
	}
	if it.changeable {
		k |= 1 << 63
	}
	return k, true
}

// packageOf is what a multi-ticket option guarantees: the least generous
// baggage and rules of its tickets.
func packageOf(o *option) (supplier.Baggage, supplier.Conditions, string) {
	var buf [8]*priced
	tickets := o.ticketsIn(buf[:0])
	first := tickets[0].offer
	bag, cond, brand := first.Baggage, first.Conditions, first.Brand
	for _, t := range tickets[1:] {
		b, c := t.offer.Baggage, t.offer.Conditions
		bag.CheckedPieces = min(bag.CheckedPieces, b.CheckedPieces)
		bag.CheckedKg = min(bag.CheckedKg, b.CheckedKg)
		bag.CabinPieces = min(bag.CabinPieces, b.CabinPieces)
		bag.CabinKg = min(bag.CabinKg, b.CabinKg)
		cond.Refundable = cond.Refundable && c.Refundable
		cond.Changeable = cond.Changeable && c.Changeable
		if t.offer.Brand != brand {
			brand = ""
		}
	}
	return bag, cond, brand
}

// merged is an option with the other suppliers that offered the same thing.
type merged struct {
	*option
	key     int32 // the itinerary's number
	sources []string
}

// mergedScratch holds the slices dedupe fills, which live until the views
// are made.
var mergedScratch scratch[merged]

// itinerarySeeds seed the two halves of an itinerary's digest.
var itinerarySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// withRoom is m moved to a table sized for size entries when a rebuild
// needs room for more than *room, the size m was last made for, and m
// otherwise. The first rebuild with results, and the one completing the
// search, each bring hundreds of trips and itineraries: their tables are
// sized once for them, with room for the next, not grown step by step
// (their growth was a tenth of a search's garbage).
func withRoom[K comparable, V any](m map[K]V, room *int, need, size int) map[K]V {
	if need <= *room {
		return m
	}
	*room = size
	sized := make(map[K]V, size)
	maps.Copy(sized, m)
	return sized
}

// dedupe merges identical itineraries, keeping the cheapest and remembering
// every supplier that offered them.
func (b *builder) dedupe(opts []*option, out []merged) []merged {
	// Most of a large rebuild's options are new itineraries; their numbers'
	// slices get room with their table.
	b.itineraries = withRoom(b.itineraries, &b.itineraryRoom, len(opts), len(opts)*3/2)
	b.slots = slices.Grow(b.slots, max(0, b.itineraryRoom-len(b.slots)))
	b.made = slices.Grow(b.made, max(0, b.itineraryRoom-len(b.made)))
	for _, o := range opts {
		k := b.itineraryOf(o)
		src := sourceOf(o)
		if i := b.slots[k]; i > 0 {
			m := &out[i-1]
			if !slices.Contains(m.sources, src) {
				m.sources = append(m.sources, src)
			}
			if o.total < m.total || (o.total == m.total && o.idOf() < m.option.idOf()) {
				m.option = o
			}
			continue
		}
		// One source is the usual case: its list is shared (clipped, so
		// that a second source appends to a copy).
		b.slots[k] = int32(len(out) + 1)
		out = append(out, merged{option: o, key: k, sources: oneSource(src)})
	}
	for i := range out {
		b.slots[out[i].key] = 0
		slices.Sort(out[i].sources)
	}
	return out
}

// oneSource is the one-element source list of a supplier name, shared.
func oneSource(src string) []string {
	if l, ok := sourceLists.Load(src); ok {
		return l.([]string)
	}
	l := []string{src}
	sourceLists.Store(src, l)
	return l[:1:1]
}

var sourceLists sync.Map // supplier name → []string{name}

func sourceOf(o *option) string {
	if o.parts != nil || len(o.tickets) > 1 {
		return "interline"
	}
	return o.tickets[0].offer.Supplier
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// idOf is a solution's stable id within its search: a digest of the offers it
// sells, the same on every instance and every poll.
func idOf(o *option) string {
	b := make([]byte, 0, 256)
	var buf [8]*priced
	for _, t := range o.ticketsIn(buf[:0]) {
		b = append(b, t.offer.Supplier...)
		b = append(b, 0)
		b = append(b, t.offer.Ref...)
		b = append(b, 0)
	}
	sum := sha256.Sum256(b)
	return idEncoding.EncodeToString(sum[:10])
}

// minuteOfDay is t's wall clock (in its own offset, the airport's) as
// minutes since midnight.
func minuteOfDay(t time.Time) int {
	// One Clock, not Hour and Minute, which each work out the date again:
	// every option's figures read two.
	h, m, _ := t.Clock()
	return h*60 + m
}

// bucketOf is the spec's time-of-day bucket of a local minute of the day
// (see minuteOfDay), as its place in Buckets: six hours each.
func bucketOf(minute uint16) uint8 {
	return uint8(min(minute/360, 3))
}

// Buckets are the time-of-day filter values (spec §9).
var Buckets = []string{"00-06", "06-12", "12-18", "18-24"}

// view is a solution ready to filter and sort: the figures those need are
// computed for every solution, the Solution a person reads only for the ones
// on the page asked for. Narrow: a search keeps a thousand views.
type view struct {
	opt *option
	// lists are shared with the other views that have the same (see
	// lister).
	*viewLists
	total int64
	// departs is the first departure in Unix nanoseconds, compared as an
	// instant by the sorts.
	departs int64
	// duration is the journeys' minutes, longest the longest journey's,
	// depMinute and arrMinute the first journey's local departure and
	// arrival (minutes of the day).
	duration, longest int32
	// Minutes of a day fit 16 bits, which make a view 48 bytes, not 56.
	depMinute, arrMinute uint16
	// stops (0, 1, 2 or more), the first journey's departure and arrival
	// buckets (places in Buckets) and the ticketing speed (its place in
	// SpeedProducts).
	stops, depBucket, arrBucket, speed uint8
}

// viewLists are a view's lists: the suppliers that offered it (see dedupe),
// its carriers, and its layovers (the airports where it changes planes).
type viewLists struct{ sources, carriers, layovers []string }

// lister hands out viewLists, one for each set of lists: a long-haul
// return's nine hundred views have under two hundred, and lists of their
// own were a tenth of its garbage.
type lister struct {
	// byHash finds the lists made: a builder's is its tables' (see
	// newBuilder), so it is not grown anew for each search.
	byHash *listTable
	strs   block[string]
	lists  block[viewLists]
}

// listTable finds viewLists by a hash of their strings, open-addressed: a
// map keyed by the lists' bytes had every view copy them into a key, and
// every new set of lists allocate one, a tenth of BenchmarkBuild.
type listTable struct {
	slots []listSlot // a power of two, at most half full
	n     int
}

type listSlot struct {
	h  uint64
	vl *viewLists // nil: an empty slot
}

// reset empties t, keeping its room and holding no lists.
func (t *listTable) reset() {
	clear(t.slots)
	t.n = 0
}

func (t *listTable) grow() {
	old := t.slots
	t.slots = make([]listSlot, max(256, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, sl := range old {
		if sl.vl == nil {
			continue
		}
		i := sl.h & mask
		for t.slots[i].vl != nil {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}

// get are the lists given, shared (nil l: made for the caller). sources is
// kept as it is; carriers and layovers are copied.
func (l *lister) get(sources, carriers, layovers []string) *viewLists {
	if l == nil {
		return &viewLists{sources: sources, carriers: slices.Clone(carriers), layovers: slices.Clone(layovers)}
	}
	if l.byHash == nil {
		l.byHash = &listTable{}
	}
	t := l.byHash
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	h := mix2(hashList(hashList(hashList(distinctSeed, sources), carriers), layovers), 0, distinctSeed)
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for ; t.slots[i].vl != nil; i = (i + 1) & mask {
		if vl := t.slots[i].vl; t.slots[i].h == h && slices.Equal(vl.sources, sources) && slices.Equal(vl.carriers, carriers) &&
			slices.Equal(vl.layovers, layovers) {
			return vl
		}
	}
	vl := l.lists.one()
	*vl = viewLists{sources: sources, carriers: l.strs.cut(carriers), layovers: l.strs.cut(layovers)}
	t.slots[i] = listSlot{h, vl}
	t.n++
	return vl
}

// hashList mixes a list's length and each string into h, a string as its
// bytes eight at a time, the last few with its length (carriers, airports
// and suppliers are a few bytes). One multiplication a word: get's mix2
// finishes the hash.
func hashList(h uint64, list []string) uint64 {
	h = (h ^ uint64(len(list))) * 0x9e3779b97f4a7c15
	for _, s := range list {
		b := unsafe.Slice(unsafe.StringData(s), len(s))
		for ; len(b) >= 8; b = b[8:] {
			h = (h ^ h>>32 ^ binary.LittleEndian.Uint64(b)) * 0x9e3779b97f4a7c15
		}
		w := uint64(len(s)) << 56
		for i, c := range b {
			w |= uint64(c) << (8 * i)
		}
		h = (h ^ h>>32 ^ w) * 0x9e3779b97f4a7c15
	}
	return h
}

// speedName is the view's ticketing product.
func (v *view) speedName() string { return SpeedProducts[v.speed] }

var paxTypes = []string{supplier.Adult, supplier.Child, supplier.Infant}

// paxIndex is a traveller type's place in paxTypes, -1 for an unknown one.
func paxIndex(typ string) int {
	switch typ {
	case supplier.Adult:
		return 0
	case supplier.Child:
		return 1
	case supplier.Infant:
		return 2
	}
	return -1
}

func paxCount(req *Request, typ string) int {
	switch typ {
	case supplier.Adult:
		return req.Passengers.Adult
	case supplier.Child:
		return req.Passengers.Child
	}
	return req.Passengers.Infant
}

func (m *merged) view(req *Request, p *Policy, now time.Time) *view {
	v := &view{}
	m.fill(v, req, p, now, nil)
	return v
}

// fill makes v, a zero view, the view of m; its lists come from lists
// (nil: made for it).
func (m *merged) fill(v *view, req *Request, p *Policy, now time.Time, lists *lister) {
	o := m.option
	// The id (a digest) is left to the solutions someone reads or a sort
	// tie needs: most of a search's solutions are never paged to.
	v.opt = o
	// The lists are gathered on the stack (see measure) and shared.
	var f figures
	var cbuf, lbuf [8]string
	carriers, layovers := cbuf[:0], lbuf[:0]
	if o.parts == nil {
		carriers, layovers = f.measure(o, carriers, layovers)
	} else {
		// A trip's parts are the options of a few dozen trips each: their
		// figures are worked out once, not by reading their flights again
		// for every trip.
		for _, part := range o.parts {
			carriers, layovers = f.add(part.figures(), carriers, layovers)
		}
		head := o.parts[0].figures()
		f.dep, f.arr = head.dep, head.arr
	}
	first := o.departs()
	v.departs = first.UnixNano()
	class := o.classOf()
	for i, typ := range paxTypes {
		if n := paxCount(req, typ); n > 0 {
			v.total += (f.price[i] + p.markup(class, f.price[i])) * int64(n)
		}
	}
	v.speed = placeIn(SpeedProducts, speedProduct(!f.notLCC, int(f.minutes), first.Sub(now).Hours()))
	v.viewLists = lists.get(m.sources, carriers, layovers)
	v.duration, v.longest = f.duration, f.longest
	v.stops = uint8(min(f.stops, 2))
	v.depBucket, v.arrBucket = bucketOf(f.dep), bucketOf(f.arr)
	v.depMinute, v.arrMinute = f.dep, f.arr
}

// figures are what a view reads of an option's flights and tickets.
type figures struct {
	// carriers and layovers in the order the flights have them (kept for
	// a trip's part, see figures).
	carriers, layovers []string
	// price per traveller type (paxIndex), every ticket's fare and taxes.
	price [3]int64
	// duration is the journeys' minutes, longest the longest journey's,
	// stops the most stops on one journey.
	duration, longest, stops int32
	// minutes is the slowest ticket's time to issue; notLCC, that some
	// ticket is not a low-cost carrier's (so zero figures add up).
	minutes int32
	notLCC  bool
	// dep and arr are the first journey's local departure and arrival,
	// minutes of the day: all a view reads of them (two times were a
	// quarter of the figures' bytes).
	dep, arr uint16
}

// figures are o's figures, worked out on first use (o is a trip's part).
func (o *option) figures() *figures {
	notes := o.noted()
	if notes.fig == nil {
		var cbuf, lbuf [8]string
		var f figures
		carriers, layovers := f.measure(o, cbuf[:0], lbuf[:0])
		// Its lists share one allocation with it.
		fb := &figuresBuf{figures: f}
		lists := append(fb.lists[:0], carriers...)
		lists = append(lists, layovers...)
		n := len(carriers)
		fb.carriers, fb.layovers = lists[:n:n], lists[n:len(lists):len(lists)]
		notes.fig = &fb.figures
	}
	return notes.fig
}

// figuresBuf is figures with room for the lists of most options.
type figuresBuf struct {
	figures
	lists [4]string
}

// measure works out f from o's own flights and tickets, its lists appended
// to the ones given and returned, not kept in f: lists f kept would be
// taken for lists that outlive the call, and moved off the stack.
func (f *figures) measure(o *option, carriers, layovers []string) ([]string, []string) {
	for _, t := range o.tickets {
		for i := range f.price {
			f.price[i] += t.fare[i] + t.taxes[i]
		}
		f.minutes = max(f.minutes, int32(t.offer.TicketingMinutes))
		f.notLCC = f.notLCC || t.offer.Supplier != "lcc"
	}
	for _, s := range o.segs {
		if !slices.Contains(carriers, s.Carrier) {
			carriers = append(carriers, s.Carrier)
		}
	}
	for _, g := range o.groups {
		f.stops = max(f.stops, int32(len(g)-1))
		d := int32(o.segs[g[len(g)-1]].ArriveAt.Sub(o.segs[g[0]].DepartAt).Minutes())
		f.duration += d
		f.longest = max(f.longest, d)
		for _, k := range g[:len(g)-1] {
			if c := o.segs[k].Destination; !slices.Contains(layovers, c) {
				layovers = append(layovers, c)
			}
		}
	}
	g := o.groups[0]
	f.dep, f.arr = uint16(minuteOfDay(o.segs[g[0]].DepartAt)), uint16(minuteOfDay(o.segs[g[len(g)-1]].ArriveAt))
	return carriers, layovers
}

// add takes in the figures of a trip's next part, its lists as measure's.
func (f *figures) add(p *figures, carriers, layovers []string) ([]string, []string) {
	for i := range f.price {
		f.price[i] += p.price[i]
	}
	f.minutes = max(f.minutes, p.minutes)
	f.notLCC = f.notLCC || p.notLCC
	for _, c := range p.carriers {
		if !slices.Contains(carriers, c) {
			carriers = append(carriers, c)
		}
	}
	for _, c := range p.layovers {
		if !slices.Contains(layovers, c) {
			layovers = append(layovers, c)
		}
	}
	f.duration += p.duration
	f.longest = max(f.longest, p.longest)
	f.stops = max(f.stops, p.stops)
	return carriers, layovers
}

// placeIn is s's place in a short list a view keeps places in (the
// ticketing products, the route classes), 0 when it is not there.
func placeIn(list []string, s string) uint8 {
	return uint8(max(slices.Index(list, s), 0))
}

// block hands out values, and short lists, that live as long as what keeps
// them, from blocks: a search makes about a thousand views and as many
// options, keeps two lists of strings per view and its trips' parts, and
// one allocation each was a tenth of its CPU. A block lives while anything
// made in it does, a few rebuilds at most.
type block[T any] struct{ free []T }

// one is a zero T in the block.
func (b *block[T]) one() *T {
	if len(b.free) == 0 {
		b.free = make([]T, blockValues)
	}
	v := &b.free[0]
	b.free = b.free[1:]
	return v
}

// cut is a copy of ss in the block (made for it when the block is nil).
func (b *block[T]) cut(ss []T) []T {
	if len(ss) == 0 {
		return nil
	}
	if b == nil {
		return slices.Clone(ss)
	}
	if len(b.free) < len(ss) {
		b.free = make([]T, max(blockItems, len(ss)))
	}
	out := b.free[:len(ss):len(ss)]
	copy(out, ss)
	b.free = b.free[len(ss):]
	return out
}

// The sizes of blocks: of values (one), and of the elements of lists (cut).
const (
	blockValues = 64
	blockItems  = 256
)

// id is the solution's id within its search (see idOf), computed on first
// use. Called with the search's lock held.
func (v *view) id() string { return v.opt.idOf() }

// offers are the tickets' offers as the suppliers sold them.
func (v *view) offers() []supplier.Offer {
	var buf [8]*priced
	tickets := v.opt.ticketsIn(buf[:0])
	out := make([]supplier.Offer, len(tickets))
	for i, t := range tickets {
		out[i] = *t.offer
	}
	return out
}

// solution is the solution as the API shows it (names left to localize).
// Not kept on the view: most views are never shown, and the Solutions of
// those that were, kept for good, were a sixth of what a search kept; a
// poll keeps those of the page it made (state.sols).
func (v *view) solution(req *Request, p *Policy) Solution {
	o := v.opt.full()
	var list []PaxPrice
	for i, typ := range paxTypes {
		n := paxCount(req, typ)
		if n == 0 {
			continue
		}
		var fare, taxes int64
		for _, t := range o.tickets {
			fare += t.fare[i]
			taxes += t.taxes[i]
		}
		price := fare + taxes
		sale := price + p.markup(o.classOf(), price)
		list = append(list, PaxPrice{PassengerType: typ, Count: n, Fare: p.money(fare).Amount, Taxes: p.money(taxes).Amount,
			Price: p.money(price).Amount, SalePrice: p.money(sale).Amount, Currency: p.Currency})
	}
	bag, cond, brand := packageOf(o)
	fees := p.serviceFees()
	var refundFee, changeFee int64
	minutes := 0
	expires := time.Time{}
	var restr supplier.Restrictions
	for i, t := range o.tickets {
		// Converted here, for the solutions someone reads, not for every
		// offer priced: the fees made a priced offer 80 bytes, not 64, and a
		// search prices over a thousand.
		rf, _ := p.convert(t.offer.Conditions.RefundFee, t.offer.Currency)
		cf, _ := p.convert(t.offer.Conditions.ChangeFee, t.offer.Currency)
		refundFee += rf
		changeFee += cf
		minutes = max(minutes, t.offer.TicketingMinutes)
		if expires.IsZero() || t.offer.ExpiresAt.Before(expires) {
			expires = t.offer.ExpiresAt
		}
		restr = mergeRestrictions(restr, t.offer.Restrictions, i == 0)
	}
	segs := make([]SegmentView, len(o.segs))
	for i, s := range o.segs {
		segs[i] = SegmentView{Segment: *s}
	}
	journeys := make([]JourneyView, len(o.groups))
	selfTransfer := false
	for i, g := range o.groups {
		first, last := o.segs[g[0]], o.segs[g[len(g)-1]]
		journeys[i] = JourneyView{Segments: g, Origin: first.Origin, Destination: last.Destination, DepartAt: first.DepartAt,
			ArriveAt: last.ArriveAt, DurationMinutes: int(last.ArriveAt.Sub(first.DepartAt).Minutes()), Stops: len(g) - 1,
			SelfTransfer: o.self&(1<<i) != 0}
		selfTransfer = selfTransfer || journeys[i].SelfTransfer
	}
	sol := Solution{
		ID: v.id(), Segments: segs, Journeys: journeys,
		PriceDetail:      PriceDetail{ProductType: v.speedName(), PriceList: list},
		Total:            p.money(v.total),
		Source:           sourceOf(o),
		Tickets:          len(o.tickets),
		TicketingSpeed:   v.speedName(),
		TicketingMinutes: minutes,
		Brand:            brand,
		Baggage:          bag,
		Conditions: ConditionsView{
			Refundable: cond.Refundable, RefundFee: p.money(refundFee + fees.refund),
			Changeable: cond.Changeable, ChangeFee: p.money(changeFee + fees.change),
			VoidFee: p.money(fees.void),
		},
		Restrictions: restr,
		SelfTransfer: selfTransfer,
		ExpiresAt:    expires,
	}
	if p.ShowSuppliers {
		sol.Sources = v.sources
	}
	return sol
}

// mergeRestrictions is what a traveller must satisfy to fly every ticket.
func mergeRestrictions(acc, r supplier.Restrictions, first bool) supplier.Restrictions {
	if first {
		out := r
		out.Documents = slices.Clone(r.Documents)
		out.EligibleCountries = slices.Clone(r.EligibleCountries)
		out.IneligibleCountries = slices.Clone(r.IneligibleCountries)
		return out
	}
	acc.MinAge = max(acc.MinAge, r.MinAge)
	if r.MaxAge > 0 && (acc.MaxAge == 0 || r.MaxAge < acc.MaxAge) {
		acc.MaxAge = r.MaxAge
	}
	acc.Documents = intersect(acc.Documents, r.Documents)
	// One ticket of the solution wanting identity documents is enough: its
	// airline refuses the booking without them.
	acc.IdentityDocumentsRequired = acc.IdentityDocumentsRequired || r.IdentityDocumentsRequired
	acc.EligibleCountries = intersect(acc.EligibleCountries, r.EligibleCountries)
	for _, c := range r.IneligibleCountries {
		if !slices.Contains(acc.IneligibleCountries, c) {
			acc.IneligibleCountries = append(acc.IneligibleCountries, c)
		}
	}
	return acc
}

// intersect of two allow-lists where empty means "any".
func intersect(a, b []string) []string {
	if len(a) == 0 {
		return slices.Clone(b)
	}
	if len(b) == 0 {
		return a
	}
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// compatible says whether one traveller can hold every ticket: the tickets'
// accepted documents must overlap (an empty list accepts any).
func compatible(tickets ...*priced) bool {
	var base []string
	for _, t := range tickets {
		if d := t.offer.Restrictions.Documents; len(d) > 0 {
			base = d
			break
		}
	}
	if base == nil {
		return true
	}
	// Some document every ticket accepts; checked without building the
	// intersection, since combining calls this for every pair it weighs.
	for _, doc := range base {
		all := true
		for _, t := range tickets {
			if d := t.offer.Restrictions.Documents; len(d) > 0 && !slices.Contains(d, doc) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// airportName is an airport's (or city's) name in lang.
func airportName(code, lang string) string { return geo.AirportName(code, lang) }

func airlineName(code, lang string) string { return geo.AirlineName(code, lang) }

// NamedIn answers segments with their carrier's and airports' names in
// lang. Orders keep the names of the language they were booked in; every
// reader gets its own.
func NamedIn(segs []SegmentView, lang string) []SegmentView {
	out := make([]SegmentView, len(segs))
	for i, s := range segs {
		s.CarrierName = airlineName(s.Carrier, lang)
		s.OriginName = airportName(s.Origin, lang)
		s.DestinationName = airportName(s.Destination, lang)
		out[i] = s
	}
	return out
}
