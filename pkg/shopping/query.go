package shopping

import (
	"cmp"
	"context"
	"github.com/voyage/voyage/pkg/input"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
)

// Sort orders.
const (
	SortDefault = "default"
	SortPrice   = "price"
	SortTime    = "time"
)

// GroupOutbound is Query.GroupBy's one grouping: by outbound flights.
const GroupOutbound = "outbound"

// Paging bounds of the solutions list.
const (
	defaultPageSize = 20
	maxPageSize     = input.MaxPageSize
)

// Solutions answers a poll: the solutions found so far, filtered, sorted and
// paged, with facet counts and each supplier's progress.
func (e *Engine) Solutions(ctx context.Context, who auth.Principal, q Query, lang string) (Page, error) {
	if errs := q.normalize(); len(errs) > 0 {
		return Page{}, fault.Validation(errs)
	}
	st, err := e.load(ctx, who, q.SearchID)
	if err != nil {
		return Page{}, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if e.now().After(st.sess.ExpiresAt) {
		return Page{}, errStale()
	}
	if err := e.refresh(ctx, st); err != nil {
		return Page{}, err
	}
	complete := e.complete(st)
	if complete {
		// The builder is kept for rebuilds while answers arrive; a
		// complete search keeps its views alone. Its options, pools and
		// numbers were about half of what a cached search held, and the
		// searches a busy instance keeps cached are most of its heap (so
		// of the collector's work). An answer stored after all (another
		// instance's, late) is built again from every part.
		st.b.release()
		st.b = nil
		// Nor does it need the list the parts waited in.
		st.pending = nil
	}
	lost := e.losses(st, complete)
	// With answers lost, "no flight found" would claim what nobody knows:
	// the empty page says the search is partial instead.
	if complete && len(st.views) == 0 && len(lost) == 0 {
		return Page{}, fault.New(fault.CodeNoFlight, http.StatusNotFound, "shopping.error.noFlight")
	}
	b, errs := boundsOf(q.Filters, st.policy.Currency)
	if len(errs) > 0 {
		return Page{}, fault.Validation(errs)
	}
	items, starts, facets := st.answer(q, b, lang)
	total := len(items)
	page := st.last.page
	if page == nil || st.last.pageNo != q.Page || st.last.pageSize != q.PageSize {
		from, to := pageBounds(total, starts, q)
		st.last.sortTo(to)
		page = make([]Solution, 0, to-from)
		// A page is made again on every rebuild, and most of its solutions
		// are the same views as before: their Solutions, localized, are
		// kept, for the page last made only (see view.solution).
		// The page holds them, the map points into it: the page is never
		// appended to, and a poll that makes the next page copies from it.
		kept := make(map[*view]*Solution, to-from)
		for _, v := range items[from:to] {
			if sol, ok := st.sols[v]; ok && st.solsLang == lang {
				page = append(page, *sol)
			} else {
				page = append(page, e.localize(st, v.solution(&st.sess.Request, &st.policy), lang))
			}
			kept[v] = &page[len(page)-1]
		}
		st.sols, st.solsLang = kept, lang
		st.last.page, st.last.pageNo, st.last.pageSize = page, q.Page, q.PageSize
	}
	return Page{
		Complete: complete, Items: page, Total: total, Groups: len(starts), Page: q.Page, PageSize: q.PageSize, Currency: st.policy.Currency,
		SearchedAt: st.sess.CreatedAt, StaleAt: st.sess.ExpiresAt, Facets: facets, Ranges: st.ranges(), Suppliers: e.statuses(st, complete),
		Partial: len(lost) > 0, LostSuppliers: lost,
	}, nil
}

// answer is query over the search's solutions, kept until the solutions or
// the question change: a browser polls the same filters every second or so
// while suppliers are still answering. Called with st.mu held.
func (st *state) answer(q Query, b bounds, lang string) ([]*view, []int, Facets) {
	c := &st.last
	if c.items != nil && c.built == st.built && c.sort == q.Sort && c.groupBy == q.GroupBy && c.lang == lang && sameFilters(c.filters, q.Filters) {
		return c.items, c.starts, c.facets
	}
	// Solutions are put in order as pages need them (sortTo); groups need
	// every one in order.
	items, order, facets := query(st.views, q.Filters, b, q.Sort, lang)
	*c = lastQuery{built: st.built, filters: q.Filters, sort: q.Sort, groupBy: q.GroupBy, lang: lang, items: items, facets: facets, order: order}
	if q.GroupBy == GroupOutbound {
		c.sortTo(len(items))
		c.items, c.starts = gatherOutbound(items)
	}
	return c.items, c.starts, c.facets
}

// pageBounds are the items of q's page: pageSize items, or with groups
// (starts, where each begins) pageSize whole groups.
func pageBounds(total int, starts []int, q Query) (from, to int) {
	if q.GroupBy == "" {
		from = min((q.Page-1)*q.PageSize, total)
		return from, min(from+q.PageSize, total)
	}
	at := func(group int) int {
		if group >= len(starts) {
			return total
		}
		return starts[group]
	}
	return at((q.Page - 1) * q.PageSize), at(q.Page * q.PageSize)
}

// gatherOutbound reorders sorted solutions so each outbound's follow the
// first (best) of them, groups in the order of their best, and says where
// each group starts. The sort holds inside a group.
func gatherOutbound(vs []*view) ([]*view, []int) {
	// Two passes, no slice per group: number the groups, then place each
	// solution after the ones before it in its group.
	group := make(map[string]int32, len(vs)/4)
	of := make([]int32, len(vs))
	var sizes []int
	for i, v := range vs {
		k := v.opt.outboundKey()
		g, ok := group[k]
		if !ok {
			g = int32(len(sizes))
			group[k] = g
			sizes = append(sizes, 0)
		}
		of[i] = g
		sizes[g]++
	}
	starts := make([]int, len(sizes))
	next := make([]int, len(sizes))
	at := 0
	for g, n := range sizes {
		starts[g], next[g] = at, at
		at += n
	}
	out := make([]*view, len(vs))
	for i, v := range vs {
		out[next[of[i]]] = v
		next[of[i]]++
	}
	return out, starts
}

// lastQuery is the latest answer of a search's solutions.
type lastQuery struct {
	built   int
	filters Filters
	sort    string
	groupBy string
	lang    string
	items   []*view
	// order is items' order, and sorted how many of them are in it: the
	// rest are sorted when a page reaches them (sortTo).
	order  viewOrder
	sorted int
	// starts are where each group of items begins, with groupBy.
	starts []int
	facets Facets
	// page is the last page of items asked for, localized.
	page             []Solution
	pageNo, pageSize int
}

// sortTo puts the first n items in order.
func (c *lastQuery) sortTo(n int) {
	if n > c.sorted {
		c.order.sortFirst(c.items[c.sorted:], n-c.sorted)
		c.sorted = min(n, len(c.items))
	}
}

func sameFilters(a, b Filters) bool {
	return slices.Equal(a.Airlines, b.Airlines) && slices.Equal(a.Stops, b.Stops) && slices.Equal(a.DepartureBuckets, b.DepartureBuckets) &&
		slices.Equal(a.ArrivalBuckets, b.ArrivalBuckets) && slices.Equal(a.TicketingSpeed, b.TicketingSpeed) &&
		slices.Equal(a.Layovers, b.Layovers) && a.PriceMin == b.PriceMin && a.PriceMax == b.PriceMax && a.MaxDuration == b.MaxDuration &&
		a.DepartFrom == b.DepartFrom && a.DepartTo == b.DepartTo && a.ArriveFrom == b.ArriveFrom && a.ArriveTo == b.ArriveTo
}

// bounds are the range filters read: prices in minor units, times as
// minutes of the day (-1 for no bound).
type bounds struct {
	priceMin, priceMax       int64
	hasPriceMin, hasPriceMax bool
	longest                  int
	depFrom, depTo           int
	arrFrom, arrTo           int
}

// boundsOf reads the range filters in the settlement currency.
func boundsOf(f Filters, currency string) (bounds, map[string]string) {
	errs := map[string]string{}
	b := bounds{longest: f.MaxDuration, depFrom: -1, depTo: -1, arrFrom: -1, arrTo: -1}
	if s := strings.TrimSpace(f.PriceMin); s != "" {
		a, err := money.ParseNonNegative(s, currency)
		if err != nil {
			errs["filters.priceMin"] = "results.error.price"
		}
		b.priceMin, b.hasPriceMin = a.Minor, true
	}
	if s := strings.TrimSpace(f.PriceMax); s != "" {
		a, err := money.ParseNonNegative(s, currency)
		if err != nil {
			errs["filters.priceMax"] = "results.error.price"
		}
		b.priceMax, b.hasPriceMax = a.Minor, true
	}
	if b.hasPriceMin && b.hasPriceMax && b.priceMax < b.priceMin && len(errs) == 0 {
		errs["filters.priceMax"] = "results.error.priceOrder"
	}
	if f.MaxDuration < 0 || f.MaxDuration > 7*24*60 {
		errs["filters.maxDuration"] = "results.error.duration"
	}
	for _, t := range []struct {
		name string
		s    string
		to   *int
	}{{"departFrom", f.DepartFrom, &b.depFrom}, {"departTo", f.DepartTo, &b.depTo}, {"arriveFrom", f.ArriveFrom, &b.arrFrom}, {"arriveTo", f.ArriveTo, &b.arrTo}} {
		if t.s == "" {
			continue
		}
		c, err := time.Parse("15:04", t.s)
		if err != nil {
			errs["filters."+t.name] = "results.error.time"
			continue
		}
		*t.to = c.Hour()*60 + c.Minute()
	}
	return b, errs
}

// within reports whether v passes the range filters.
func (b bounds) within(v *view) bool {
	if b.hasPriceMin && v.total < b.priceMin || b.hasPriceMax && v.total > b.priceMax {
		return false
	}
	if b.longest > 0 && int(v.longest) > b.longest {
		return false
	}
	return inWindow(int(v.depMinute), b.depFrom, b.depTo) && inWindow(int(v.arrMinute), b.arrFrom, b.arrTo)
}

// inWindow reports whether minute m of the day lies in [from, to]; a window
// whose end comes before its start runs over midnight (22:00–02:00).
func inWindow(m, from, to int) bool {
	switch {
	case from < 0 && to < 0:
		return true
	case to < 0:
		return m >= from
	case from < 0:
		return m <= to
	case from <= to:
		return m >= from && m <= to
	default:
		return m >= from || m <= to
	}
}

// ranges are rangesOf the built solutions, worked out once per build: a
// browser polls many times between two. Called with st.mu held.
func (st *state) ranges() Ranges {
	if st.rangesOf != st.built {
		st.rangesOf, st.rangesVal = st.built, rangesOf(st.views, &st.policy)
	}
	return st.rangesVal
}

// rangesOf bounds the range filters over every solution found.
func rangesOf(views []*view, p *Policy) Ranges {
	if len(views) == 0 {
		return Ranges{}
	}
	lo, hi := views[0].total, views[0].total
	short, long := views[0].longest, views[0].longest
	for _, v := range views {
		lo, hi = min(lo, v.total), max(hi, v.total)
		short, long = min(short, v.longest), max(long, v.longest)
	}
	return Ranges{PriceMin: p.money(lo).Amount, PriceMax: p.money(hi).Amount, DurationMin: int(short), DurationMax: int(long)}
}

func (q *Query) normalize() map[string]string {
	errs := map[string]string{}
	if q.SearchID == "" {
		errs["searchId"] = "shopping.error.searchId"
	}
	if q.Sort == "" {
		q.Sort = SortDefault
	}
	if q.Sort != SortDefault && q.Sort != SortPrice && q.Sort != SortTime {
		errs["sort"] = "shopping.error.sort"
	}
	if q.GroupBy != "" && q.GroupBy != GroupOutbound {
		errs["groupBy"] = "shopping.error.groupBy"
	}
	if q.Page == 0 {
		q.Page = 1
	}
	if q.PageSize == 0 {
		q.PageSize = defaultPageSize
	}
	if q.Page < 1 || q.Page > input.MaxPage {
		errs["page"] = input.PageKey
	}
	if q.PageSize < 1 || q.PageSize > maxPageSize {
		errs["pageSize"] = input.PageSizeKey
	}
	return errs
}

// localize is s, a Solution a view has just made, with the names a person
// reads in lang and its public id (search id + solution digest). s's
// segments are named in place: s is the caller's alone.
func (e *Engine) localize(st *state, s Solution, lang string) Solution {
	s.ID = st.sess.ID + "_" + s.ID
	for i := range s.Segments {
		seg := &s.Segments[i]
		seg.CarrierName = airlineName(seg.Carrier, lang)
		seg.OriginName = airportName(seg.Origin, lang)
		seg.DestinationName = airportName(seg.Destination, lang)
	}
	if s.SelfTransfer && e.catalog != nil {
		s.Protection = e.catalog.T(lang, "shopping.protection")
	}
	return s
}

// query filters and counts facets, and returns the solutions kept, in no
// order, with the order sortBy names for them (see sortFirst). A facet's
// counts apply every other filter but its own, so a person sees what
// ticking one more box would give.
func query(views []*view, f Filters, b bounds, sortBy, lang string) ([]*view, viewOrder, Facets) {
	// A group has one value per solution, a place in its list of values
	// (one), or several strings (many): a query runs over every solution
	// on every rebuild, so the first kind is matched and counted by place,
	// without a string or a map.
	type group struct {
		sel []string
		// values, one and chosen (the values sel picks, by place) for
		// one value; many for several.
		values []string
		one    func(v *view) uint8
		chosen [maxValues]bool
		many   func(v *view) []string
	}
	groups := []group{
		{sel: f.Airlines, many: func(v *view) []string { return v.carriers }},
		{sel: f.Stops, values: stopCounts, one: func(v *view) uint8 { return v.stops }},
		{sel: f.DepartureBuckets, values: Buckets, one: func(v *view) uint8 { return v.depBucket }},
		{sel: f.ArrivalBuckets, values: Buckets, one: func(v *view) uint8 { return v.arrBucket }},
		{sel: f.TicketingSpeed, values: SpeedProducts, one: func(v *view) uint8 { return v.speed }},
		{sel: f.Layovers, many: func(v *view) []string { return v.layovers }},
	}
	for i := range groups {
		for k, value := range groups[i].values {
			groups[i].chosen[k] = slices.Contains(groups[i].sel, value)
		}
	}
	matches := func(g *group, v *view) bool {
		if len(g.sel) == 0 {
			return true
		}
		if g.one != nil {
			return g.chosen[g.one(v)]
		}
		for _, x := range g.many(v) {
			if slices.Contains(g.sel, x) {
				return true
			}
		}
		return false
	}
	var placed [6][maxValues]int
	named := [6]map[string]int{}
	for i := range groups {
		if groups[i].many != nil {
			named[i] = map[string]int{}
		}
	}
	count := func(i int, v *view) {
		if g := &groups[i]; g.one != nil {
			placed[i][g.one(v)]++
			return
		}
		for _, x := range groups[i].many(v) {
			named[i][x]++
		}
	}
	out := make([]*view, 0, len(views))
	for _, v := range views {
		if !b.within(v) {
			continue
		}
		failed := -1
		for i := range groups {
			if !matches(&groups[i], v) {
				if failed >= 0 {
					failed = -2
					break
				}
				failed = i
			}
		}
		switch {
		case failed == -1:
			out = append(out, v)
			for i := range groups {
				count(i, v)
			}
		case failed >= 0:
			// Fails only its own group's filter: it counts for that facet.
			count(failed, v)
		}
	}
	order := orderOf(out, sortBy)
	facets := Facets{
		Airlines:         facetList(named[0], func(c string) string { return airlineName(c, lang) }),
		Stops:            placedFacets(placed[1][:], stopCounts),
		DepartureBuckets: placedFacets(placed[2][:], Buckets),
		ArrivalBuckets:   placedFacets(placed[3][:], Buckets),
		TicketingSpeed:   placedFacets(placed[4][:], SpeedProducts),
		Layovers:         facetList(named[5], func(c string) string { return airportName(c, lang) + " (" + c + ")" }),
	}
	return out, order, facets
}

// maxValues bounds the values of a group counted by place (SpeedProducts
// has the most).
const maxValues = 8

// placedFacets are the values counted by place, in their order, those no
// solution has left out.
func placedFacets(counts []int, values []string) []Facet {
	out := []Facet{}
	for k, v := range values {
		if counts[k] > 0 {
			out = append(out, Facet{Value: v, Label: v, Count: counts[k]})
		}
	}
	return out
}

// stopCounts are the stops filter's values: a solution's most stops on a
// journey, "2" for two or more.
var stopCounts = []string{"0", "1", "2"}

// facetList orders facet values by count, then name.
func facetList(counts map[string]int, label func(string) string) []Facet {
	out := []Facet{}
	for v, n := range counts {
		out = append(out, Facet{Value: v, Label: label(v), Count: n})
	}
	slices.SortFunc(out, func(a, b Facet) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	})
	return out
}

// viewOrder orders solutions. "price" is cheapest first; "time" is
// earliest departure first; "default" balances the two: each hour a
// solution takes beyond the fastest one weighs as 3% of the cheapest price,
// so a cheap 30-hour detour does not top the list over a slightly dearer
// nonstop.
type viewOrder struct {
	by string
	// cheapest and fastest are the default order's references: those of
	// the solutions it orders.
	cheapest int64
	fastest  int32
}

// orderOf is the order by of vs, with the default order's references
// worked out.
func orderOf(vs []*view, by string) viewOrder {
	o := viewOrder{by: by}
	if by != SortPrice && by != SortTime && len(vs) > 0 {
		o.cheapest, o.fastest = vs[0].total, vs[0].duration
		for _, v := range vs {
			o.cheapest = min(o.cheapest, v.total)
			o.fastest = min(o.fastest, v.duration)
		}
	}
	return o
}

func (o *viewOrder) compare(a, b *view) int {
	switch o.by {
	case SortPrice:
	case SortTime:
		if c := cmp.Compare(a.departs, b.departs); c != 0 {
			return c
		}
	default:
		if sa, sb := o.score(a), o.score(b); sa != sb {
			if sa < sb {
				return -1
			}
			return 1
		}
	}
	if c := cmp.Compare(a.total, b.total); c != 0 {
		return c
	}
	if c := cmp.Compare(a.departs, b.departs); c != 0 {
		return c
	}
	return strings.Compare(a.id(), b.id())
}

// score is v's place in the default order, lowest first.
func (o *viewOrder) score(v *view) float64 {
	return float64(v.total) + float64(o.cheapest)*0.03*float64(v.duration-o.fastest)/60
}

// sortFirst orders vs so that vs[:k] are, in order, the k solutions that
// come first; the rest are left in no order. A poll reads a page of twenty
// of some nine hundred solutions: they are picked with a heap of twenty, in
// about one comparison per solution, a tenth of sorting them all.
func (o *viewOrder) sortFirst(vs []*view, k int) {
	k = min(k, len(vs))
	if k <= 0 {
		return
	}
	if k >= len(vs)/2 {
		slices.SortFunc(vs, o.compare)
		return
	}
	// vs[:k] is a heap whose top is the last of the k first found so far;
	// a solution before it takes its place.
	h := vs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		o.siftDown(h, i)
	}
	for i := k; i < len(vs); i++ {
		if o.compare(vs[i], h[0]) < 0 {
			h[0], vs[i] = vs[i], h[0]
			o.siftDown(h, 0)
		}
	}
	slices.SortFunc(vs[:k], o.compare)
}

// siftDown moves h[i] down the heap h, whose top comes last in the order.
func (o *viewOrder) siftDown(h []*view, i int) {
	for {
		j := 2*i + 1
		if j >= len(h) {
			return
		}
		if j+1 < len(h) && o.compare(h[j+1], h[j]) > 0 {
			j++
		}
		if o.compare(h[j], h[i]) <= 0 {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
