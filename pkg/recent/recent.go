// Package recent holds, in memory and bounded, what this instance wrote
// last and is likely to read back within seconds: the booking after a
// price check, the payment after a booking, the ticketing after a payment.
// A reader must not trust a copy beyond what the store would answer: each
// user says how it proves its copy current (a versioned write, a condition
// on the row) or why the value cannot change once stored.
package recent

import "sync"

// Map is a bounded map safe for concurrent use. Full, it lets go of any
// quarter of its entries: most have been read back or will never be, and
// which ones is not worth tracking.
type Map[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]V
}

// New returns a Map of at most max entries.
func New[K comparable, V any](max int) *Map[K, V] {
	return &Map[K, V]{max: max, m: make(map[K]V)}
}

// Put keeps v under k.
func (r *Map[K, V]) Put(k K, v V) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.m[k]; !ok && len(r.m) >= r.max {
		n := 0
		for old := range r.m {
			delete(r.m, old)
			if n++; n >= max(r.max/4, 1) {
				break
			}
		}
	}
	r.m[k] = v
}

// Get is the value kept under k.
func (r *Map[K, V]) Get(k K) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.m[k]
	return v, ok
}

// Take is Get, and lets the value go.
func (r *Map[K, V]) Take(k K) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.m[k]
	delete(r.m, k)
	return v, ok
}

// Delete lets the value under k go.
func (r *Map[K, V]) Delete(k K) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, k)
}

// Len is how many values are kept.
func (r *Map[K, V]) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.m)
}

// DeleteFunc lets go of every value for which del is true.
func (r *Map[K, V]) DeleteFunc(del func(K, V) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, v := range r.m {
		if del(k, v) {
			delete(r.m, k)
		}
	}
}
