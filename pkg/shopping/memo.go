package shopping

import "sync"

// memo caches a function of the airport data, which never changes while the
// server runs: a search asks the same few routes hundreds of times. It is
// emptied when full, which bounds it without bookkeeping.
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	m   map[K]V
	max int
	fn  func(K) V
}

func newMemo[K comparable, V any](max int, fn func(K) V) *memo[K, V] {
	return &memo[K, V]{m: make(map[K]V), max: max, fn: fn}
}

func (c *memo[K, V]) get(k K) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = c.fn(k)
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
