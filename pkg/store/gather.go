package store

import "sync"

// Gatherer is the queue of a group commit: requests that arrive while the
// previous group is being written form the next group, up to max, without
// waiting for more (a lone request goes at once). One goroutine writes the
// groups in order; the ledger's transfers and the user log use it.
type Gatherer[T any] struct {
	reqs chan T
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
	// mu keeps Submit's send and Stop apart: a request queued after the
	// final drain would wait for ever.
	mu      sync.RWMutex
	stopped bool
	max     int
	write   func(group []T)
	alone   func(r T)
}

// Gather starts a gatherer: write gets each group, alone each request still
// queued when Stop is called.
func Gather[T any](max int, write func(group []T), alone func(r T)) *Gatherer[T] {
	g := &Gatherer[T]{reqs: make(chan T, max*4), stop: make(chan struct{}), max: max, write: write, alone: alone}
	g.wg.Add(1)
	go g.loop()
	return g
}

// Submit queues r; false when the gatherer has stopped (the caller writes r
// itself) or done is closed first.
func (g *Gatherer[T]) Submit(r T, done <-chan struct{}) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.stopped {
		return false
	}
	select {
	case g.reqs <- r:
		return true
	case <-done:
		return false
	}
}

// Stop writes what is queued, one by one, and ends the gatherer; later calls
// do nothing.
func (g *Gatherer[T]) Stop() {
	g.once.Do(func() {
		g.mu.Lock()
		g.stopped = true
		g.mu.Unlock()
		close(g.stop)
		g.wg.Wait()
	})
}

func (g *Gatherer[T]) loop() {
	defer g.wg.Done()
	for {
		var first T
		select {
		case first = <-g.reqs:
		case <-g.stop:
			for {
				select {
				case r := <-g.reqs:
					g.alone(r)
				default:
					return
				}
			}
		}
		group := []T{first}
	gather:
		for len(group) < g.max {
			select {
			case r := <-g.reqs:
				group = append(group, r)
			default:
				break gather
			}
		}
		g.write(group)
	}
}
