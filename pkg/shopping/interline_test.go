package shopping

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"testing"
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
