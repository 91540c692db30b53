package shopping

import (
	"slices"
	"sync"
)

// scratch is a pool of slices for work that ends with the call that does
// it, shared between searches: a search does such work in full once or
// twice, so slices kept per search would be made anew almost every time.
type scratch[T any] struct{ pool sync.Pool }

// get is an empty slice with room for n, and its holder to give back.
func (s *scratch[T]) get(n int) (*[]T, []T) {
	held, _ := s.pool.Get().(*[]T)
	if held == nil {
		held = new([]T)
	}
	return held, slices.Grow((*held)[:0], n)
}

// put gives back held with used, the slice get gave as it ended up,
// emptied so that the pool keeps no search's values alive.
func (s *scratch[T]) put(held *[]T, used []T) {
	clear(used)
	*held = used[:0]
	s.pool.Put(held)
}
