package shopping

import (
	"context"
	"runtime"
	"sync"
)

// slots orders two kinds of CPU-heavy work of an instance's searches, one
// slot per core: the build that completes a search (its poller waits for
// it) and the encoding of answers for the session store (only another
// instance's poller reads them). When answers land for many searches at
// once, the completing builds go first; the encoding waits until no build
// does. Without the order, 200 searches answered at once shared the CPU
// evenly between the two and all finished late.
type slots struct {
	mu   sync.Mutex
	free int
	// Waiters by priority, first come first served within one.
	high, low []chan struct{}
}

func newSlots(n int) *slots {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return &slots{free: n}
}

// acquire waits for a slot, ahead of every low-priority waiter when high.
// It fails only when ctx ends first.
func (s *slots) acquire(ctx context.Context, high bool) error {
	s.mu.Lock()
	if s.free > 0 {
		// A free slot means nobody waits: release hands slots to waiters.
		s.free--
		s.mu.Unlock()
		return nil
	}
	ready := make(chan struct{})
	if high {
		s.high = append(s.high, ready)
	} else {
		s.low = append(s.low, ready)
	}
	s.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		removed := s.remove(ready, high)
		s.mu.Unlock()
		if !removed {
			// Handed a slot as ctx ended: give it on.
			<-ready
			s.release()
		}
		return ctx.Err()
	}
}

// remove takes ready out of its queue; false when it was handed a slot
// already. Called with s.mu held.
func (s *slots) remove(ready chan struct{}, high bool) bool {
	q := &s.low
	if high {
		q = &s.high
	}
	for i, c := range *q {
		if c == ready {
			*q = append((*q)[:i], (*q)[i+1:]...)
			return true
		}
	}
	return false
}

// release hands the slot to the first high waiter, else the first low one,
// else frees it.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case len(s.high) > 0:
		close(s.high[0])
		s.high = s.high[1:]
	case len(s.low) > 0:
		close(s.low[0])
		s.low = s.low[1:]
	default:
		s.free++
	}
}
