package shopping

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

// An incremental build, answers added a few at a time as they arrive, must
// end with exactly the solutions of building every answer at once.
//
// The simulators fly different flights on different days, and an order
// dependence shows only on some of them: several departure days.
func TestBuilderIncrementalMatchesFullBuild(t *testing.T) {
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
	summary := func(vs []*view) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = v.id() + " " + v.opt.itineraryKey() + " " + v.speed + " " + v.stops + " " + time.Duration(v.total).String()
		}
		slices.Sort(out)
		return out
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
			got = b.views(now)
		}
		if g, w := summary(got), summary(want); !slices.Equal(g, w) {
			t.Fatalf("seed %d: incremental build has %d solutions, full build %d; first differences: %v",
				seed, len(g), len(w), firstDiff(g, w))
		}
		// A rebuild with nothing new keeps every view (and any Solution it
		// already made).
		again := b.views(now)
		for i := range again {
			if again[i] != got[i] {
				t.Fatalf("seed %d: view %d rebuilt with no new answers", seed, i)
			}
		}
	}
}

func firstDiff(a, b []string) []string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return []string{a[i], b[i]}
		}
	}
	return nil
}
