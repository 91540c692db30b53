package shopping

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"testing"
)

// refHeap is comboHeap as container/heap drives it, the way the
// combinations were kept before comboHeap had a push of its own.
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
		var got comboHeap
		var want refHeap
		for range rng.IntN(80) {
			// Few distinct totals: ties everywhere.
			c := combo{first: &priced{}, total: int64(rng.IntN(12))}
			got.push(c)
			if got.Len() > limit {
				got.dropTop()
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
