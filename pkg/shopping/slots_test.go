package shopping

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestSlotsServeCompletingBuildsFirst(t *testing.T) {
	t.Parallel()
	s := newSlots(2)
	ctx := context.Background()
	for range 2 {
		if err := s.acquire(ctx, false); err != nil {
			t.Fatal(err)
		}
	}

	// Both slots busy: an encoding queues first, then two builds. Released
	// slots go to the builds in their order, then to the encoding.
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	queued := 0
	wait := func(name string, high bool) {
		queued++
		wg.Go(func() {
			if err := s.acquire(ctx, high); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
		})
		waitQueued(t, s, queued)
	}
	wait("encode", false)
	wait("build1", true)
	wait("build2", true)
	for n := 1; n <= 3; n++ {
		s.release()
		waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(order) == n })
	}
	wg.Wait()
	if want := []string{"build1", "build2", "encode"}; !slices.Equal(order, want) {
		t.Fatalf("slots went to %v, want %v", order, want)
	}

	// A waiter whose context ends leaves the queue; the slot released later
	// is free, not lost to it.
	cctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() { errc <- s.acquire(cctx, true) }()
	waitQueued(t, s, 1)
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("acquire with an ended context succeeded")
	}
	s.release()
	s.release()
	short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	defer stop()
	for i := range 2 {
		if err := s.acquire(short, false); err != nil {
			t.Fatalf("slot %d after releasing everything: %v", i+1, err)
		}
	}
	if err := s.acquire(short, false); err == nil {
		t.Fatal("a third slot out of two")
	}
}

// waitQueued waits until n acquires wait on s.
func waitQueued(t *testing.T, s *slots, n int) {
	t.Helper()
	waitFor(t, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.high)+len(s.low) == n
	})
}

// waitFor polls cond: what it waits for is other goroutines reaching a
// point (queued on s), which no clock the test moves would hasten.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}
