// Package turns queues the callers of one process per key, so that of the
// requests contending for one database row (a busy agency's wallet, a
// replayed Idempotency-Key) only one at a time goes to the database while
// the others wait on a channel here. The row stays what serialises them
// across processes; waiting here is cheaper than waiting there, where each
// waiter is a server process asleep on a lock, woken and rechecking the
// row when the one before it commits.
package turns

import (
	"context"
	"sync"
)

// Queue holds the turns by key. The zero Queue is ready to use.
type Queue[K comparable] struct {
	mu sync.Mutex
	by map[K]*turn
}

// turn is one key's: its channel holds the one token, the right to go;
// users counts the holder and the waiters, so an idle key's turn is
// dropped.
type turn struct {
	ch    chan struct{}
	users int
}

func (q *Queue[K]) join(k K) *turn {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.by == nil {
		q.by = map[K]*turn{}
	}
	t := q.by[k]
	if t == nil {
		t = &turn{ch: make(chan struct{}, 1)}
		t.ch <- struct{}{}
		q.by[k] = t
	}
	t.users++
	return t
}

func (q *Queue[K]) leave(k K, t *turn) {
	q.mu.Lock()
	defer q.mu.Unlock()
	t.users--
	if t.users == 0 {
		delete(q.by, k)
	}
}

// Take waits for the turn of each key, taken in the order given (callers
// that take several give them in one order, as the database locks their
// rows, so two cannot wait for each other), and returns what gives them
// back. When ctx ends first it gives back what it took and answers ctx's
// error.
func (q *Queue[K]) Take(ctx context.Context, keys ...K) (release func(), err error) {
	held := make([]*turn, 0, len(keys))
	release = func() {
		for i, t := range held {
			t.ch <- struct{}{}
			q.leave(keys[i], t)
		}
	}
	for _, k := range keys {
		t := q.join(k)
		select {
		case <-t.ch:
			held = append(held, t)
		case <-ctx.Done():
			q.leave(k, t)
			release()
			return nil, ctx.Err()
		}
	}
	return release, nil
}
