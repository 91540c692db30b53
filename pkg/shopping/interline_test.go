package shopping

import (
	"cmp"
	"container/heap"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// refHeap is a heap of combinations as container/heap drives it, the way
// they were kept before binaryHeap.
type refHeap []combo

func (h refHeap) Len() int           { return len(h) }
func (h refHeap) Less(i, j int) bool { return h[i].total > h[j].total }
func (h refHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)        { *h = append(*h, x.(combo)) }
func (h *refHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Which combinations are kept, ties at the cut included, is the same as
// with container/heap: the same legs keep the same solutions.
func TestComboHeapKeepsAsContainerHeap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		limit := 1 + rng.IntN(20)
		var got binaryHeap[combo]
		var want refHeap
		for range rng.IntN(80) {
			// Few distinct totals: ties everywhere.
			c := combo{first: &priced{}, total: int64(rng.IntN(12))}
			got.push(c)
			if len(got) > limit {
				got.pop()
			}
			heap.Push(&want, c)
			if want.Len() > limit {
				heap.Pop(&want)
			}
		}
		if !slices.Equal([]combo(got), []combo(want)) {
			t.Fatalf("round %d, limit %d: kept\n%v\nwant\n%v", round, limit, got, want)
		}
	}
}

// A self-transfer made from its two legs is the option joining their
// single-offer options made: the same tickets, segments, journey group,
// flag, total and class.
func TestComboOptionIsTheLegsJoined(t *testing.T) {
	t.Parallel()
	req, parts, p := simParts(t)
	b := newBuilder(req, p, false)
	b.add(parts)
	b.options(false)
	n := 0
	for j := range req.Journeys {
		for _, c := range b.combos[j] {
			got := c.option()
			want := join(single(c.first), single(c.second))
			want.groups = [][]int{append(slices.Clone(want.groups[0]), want.groups[1]...)}
			want.self = 1
			if !slices.Equal(got.tickets, want.tickets) || !slices.Equal(got.segs, want.segs) ||
				!slices.EqualFunc(got.groups, want.groups, slices.Equal) || got.self != want.self ||
				got.total != want.total || got.classIndex() != want.classIndex() {
				t.Fatalf("journey %d: %+v %+v\nwant %+v %+v", j, *got, *got.optionLists, *want, *want.optionLists)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no self-transfer to compare")
	}
	t.Logf("%d self-transfers compared", n)
}

// interlineEveryPair is interlineCount as it was before it stopped early:
// every first leg, and every second leg in each one's window.
func interlineEveryPair(pools legPools, limit int) []combo {
	var h binaryHeap[combo]
	vias := slices.Sorted(maps.Keys(pools))
	for _, via := range vias {
		firsts, seconds := pools[via][0], pools[via][1]
		slices.SortFunc(firsts, (*priced).byPrice)
		slices.SortFunc(seconds, func(a, b *priced) int {
			return cmp.Or(a.offer.Segments[0].DepartAt.Compare(b.offer.Segments[0].DepartAt), a.byPrice(b))
		})
		mct := minConnect(via)
		for _, f := range firsts {
			fs := &f.offer.Segments[len(f.offer.Segments)-1]
			if fs.Destination != via {
				continue
			}
			kept := 0
			for _, s := range seconds {
				ss := &s.offer.Segments[0]
				if ss.DepartAt.Before(fs.ArriveAt.Add(mct)) || ss.DepartAt.After(fs.ArriveAt.Add(maxLayover)) ||
					ss.Origin != via || !separateTickets(f, s) || !compatible(f, s) {
					continue
				}
				t := f.total + s.total
				if len(h) >= limit && t >= h[0].total || kept >= perFirstLeg {
					continue
				}
				kept++
				h.push(combo{first: f, second: s, total: t})
				if len(h) > limit {
					h.pop()
				}
			}
		}
	}
	out := []combo(h)
	slices.SortFunc(out, func(a, b combo) int { return cmp.Compare(a.total, b.total) })
	return out
}

// interlineCount stops early (a first leg with its three, the first legs
// too dear to beat what is kept): it keeps exactly the combinations that
// weighing every pair keeps, however full the heap gets.
func TestInterlineKeepsWhatEveryPairKeeps(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	date := time.Now().AddDate(0, 0, 30)
	for round := range 300 {
		pools := legPools{}
		for _, via := range []string{"DXB", "IST"}[:1+rng.IntN(2)] {
			first := legFares("PEK", via, date, 1+rng.IntN(60), []string{"CA", "EK", "TK"})
			second := legFares(via, "LHR", date, 1+rng.IntN(60), []string{"BA", "EK", "TK"})
			for _, p := range append(slices.Clone(first), second...) {
				// Few distinct prices: ties at the heap's cut.
				p.total = int64(1+rng.IntN(8))*100000 + int64(rng.IntN(4))*25000
			}
			pools[via] = [2][]*priced{first, second}
		}
		limit := 1 + rng.IntN(40)
		want := interlineEveryPair(pools, limit)
		got, _ := interlineCount(pools, limit)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, limit %d: kept %d combinations, want %d\n%v\n%v", round, limit, len(got), len(want), got, want)
		}
	}
}
