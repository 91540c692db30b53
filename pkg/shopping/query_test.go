package shopping

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"
)

// sortFirst puts the first k solutions in the order a full sort gives, for
// every order and k, and sorting the rest's first ones later continues it:
// over solutions with ties in every key but the id.
func TestSortFirstIsTheFullSortsBeginning(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	views := make([]*view, 300)
	ids := r.Perm(len(views))
	for i := range views {
		// Few distinct values, so that totals, durations and departures
		// tie often and the ids decide.
		views[i] = &view{opt: &option{notes: &optionNotes{id: fmt.Sprintf("%04d", ids[i])}},
			total: int64(1000 + 100*r.IntN(8)), duration: int32(600 + 60*r.IntN(5)), departs: int64(r.IntN(6)) * 3600e9}
	}
	for _, by := range []string{SortDefault, SortPrice, SortTime} {
		o := orderOf(views, by)
		want := slices.Clone(views)
		slices.SortFunc(want, o.compare)
		for _, k := range []int{0, 1, 2, 20, 149, 150, 151, 299, 300, 400} {
			got := slices.Clone(views)
			r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			o.sortFirst(got, k)
			n := min(k, len(views))
			if !slices.Equal(got[:n], want[:n]) {
				t.Fatalf("%s, k=%d: the first ones are not the full sort's", by, k)
			}
			// The rest are the others, and their first ones continue the
			// order.
			o.sortFirst(got[n:], 37)
			if m := min(n+37, len(views)); !slices.Equal(got[:m], want[:m]) {
				t.Fatalf("%s, k=%d then 37 more: not the full sort's", by, k)
			}
		}
	}
}

// The default order weighs each hour beyond the fastest as 3% of the
// cheapest price.
func TestDefaultOrderWeighsHoursAgainstPrice(t *testing.T) {
	t.Parallel()
	mk := func(id string, total int64, minutes int32) *view {
		return &view{opt: &option{notes: &optionNotes{id: id}}, total: total, duration: minutes}
	}
	for _, c := range []struct {
		name string
		a, b *view
		want int
	}{
		// 10 hours slower weighs 30% of 1000: 1300 against 1200.
		{"a slow cheap one after a dearer fast one", mk("a", 1000, 1200), mk("b", 1200, 600), 1},
		{"a slightly slower cheaper one first", mk("a", 1000, 660), mk("b", 1200, 600), -1},
		{"a tie decided by total", mk("a", 1000, 1200), mk("b", 1300, 600), -1},
	} {
		o := orderOf([]*view{c.a, c.b}, SortDefault)
		if got := o.compare(c.a, c.b); got != c.want {
			t.Errorf("%s: compare = %d, want %d", c.name, got, c.want)
		}
	}
}

// The airline and layover facets count each solution that has the value,
// with or without a filter of another group, and a solution that fails
// only the facet's own filter: over a search's solutions, most of which
// share their lists with others (the lister's), so that a count kept by
// list must still count each solution.
func TestFacetsCountEverySolutionWithTheValue(t *testing.T) {
	t.Parallel()
	req, parts, p := simParts(t)
	b := newBuilder(req, p, false)
	b.add(parts)
	views := b.views(time.Now(), false)
	shared := map[*string]bool{}
	for _, v := range views {
		if len(v.carriers) > 0 {
			shared[unsafe.SliceData(v.carriers)] = true
		}
	}
	if len(shared) == 0 || len(shared) >= len(views)/2 {
		t.Fatalf("%d carrier lists for %d solutions: the test needs lists shared", len(shared), len(views))
	}
	every := func(*view) bool { return true }
	oneStop := func(v *view) bool { return v.stops == 1 }
	carrier := views[0].carriers[0]
	flies := func(v *view) bool { return slices.Contains(v.carriers, carrier) }
	for _, c := range []struct {
		name string
		f    Filters
		// The solutions each facet counts: a solution that fails only
		// the facet's own filter counts for it.
		airlines, layovers func(v *view) bool
	}{
		{"no filter", Filters{}, every, every},
		{"one stop", Filters{Stops: []string{"1"}}, oneStop, oneStop},
		{"one airline", Filters{Airlines: []string{carrier}}, every, flies},
	} {
		bnd, errs := boundsOf(c.f, p.Currency)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		_, _, facets := query(views, c.f, bnd, SortDefault, "en")
		airlines, layovers := map[string]int{}, map[string]int{}
		for _, v := range views {
			for _, x := range v.carriers {
				if c.airlines(v) {
					airlines[x]++
				}
			}
			for _, x := range v.layovers {
				if c.layovers(v) {
					layovers[x]++
				}
			}
		}
		for _, g := range []struct {
			name   string
			got    []Facet
			counts map[string]int
		}{{"airlines", facets.Airlines, airlines}, {"layovers", facets.Layovers, layovers}} {
			got := map[string]int{}
			for _, f := range g.got {
				got[f.Value] = f.Count
			}
			if len(g.counts) == 0 || !maps.Equal(got, g.counts) {
				t.Errorf("%s: %s facet %v, want %v", c.name, g.name, got, g.counts)
			}
		}
	}
}
