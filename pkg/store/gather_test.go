package store

import (
	"sync"
	"testing"
)

func TestGatherer(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	written := map[int]int{}
	groups := 0
	release := make(chan struct{})
	first := true
	g := Gather(8, func(group []int) {
		if first {
			// Hold the first group so that the others queue up behind it.
			first = false
			<-release
		}
		mu.Lock()
		defer mu.Unlock()
		groups++
		if len(group) > 8 {
			t.Errorf("group of %d, max 8", len(group))
		}
		for _, r := range group {
			written[r]++
		}
	}, func(r int) {
		mu.Lock()
		defer mu.Unlock()
		written[r]++
	})
	if !g.Submit(0, nil) {
		t.Fatal("refused before Stop")
	}
	var wg sync.WaitGroup
	for i := 1; i <= 24; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Submit(i, nil)
		}()
	}
	wg.Wait() // all queued (the queue holds 32) while the first group waits
	close(release)
	g.Stop()
	g.Stop() // a second Stop does nothing
	mu.Lock()
	defer mu.Unlock()
	for i := 0; i <= 24; i++ {
		if written[i] != 1 {
			t.Errorf("request %d written %d times", i, written[i])
		}
	}
	// What Stop found queued went one by one; the rest in groups of 8.
	if groups > 1+24/8 {
		t.Errorf("%d groups for 25 requests gathered 8 at a time", groups)
	}
	if g.Submit(99, nil) {
		t.Error("accepted after Stop")
	}
}
