package turns

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestQueue: callers on one key go one at a time; other keys do not wait
// for them; a caller whose context ends while waiting gives back the turn
// it already took; a key nobody waits on is forgotten.
func TestQueue(t *testing.T) {
	var q Queue[int64]
	ctx := context.Background()
	// taken reports whether Take(keys) returns within wait, and its
	// release when it does; one still waiting releases when it gets its
	// turn. A caller that must not wait is given seconds (it returns at
	// once unless the queue is wrong), one that must wait a fraction.
	// late counts the callers still waiting when taken gave up on them.
	var late sync.WaitGroup
	taken := func(ctx context.Context, wait time.Duration, keys ...int64) (func(), bool, error) {
		type res struct {
			release func()
			err     error
		}
		ch := make(chan res, 1)
		go func() {
			r, err := q.Take(ctx, keys...)
			ch <- res{r, err}
		}()
		select {
		case r := <-ch:
			return r.release, true, r.err
		case <-time.After(wait):
			late.Go(func() {
				if r := <-ch; r.release != nil {
					r.release()
				}
			})
			return nil, false, nil
		}
	}

	first, err := q.Take(ctx, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := taken(ctx, 200*time.Millisecond, 2, 3); ok {
		t.Fatal("key 2 taken while its turn is held")
	}
	other, ok, err := taken(ctx, 5*time.Second, 3, 4)
	if !ok || err != nil {
		t.Fatalf("keys 3 and 4 waited for 1 and 2: returned %v, %v", ok, err)
	}
	other()

	// Waiting for 2 while holding 5: its context ends, and 5 is free again.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := q.Take(short, 5, 2); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Take past its deadline: %v, want deadline exceeded", err)
	}
	five, ok, err := taken(ctx, 5*time.Second, 5)
	if !ok || err != nil {
		t.Fatalf("key 5 still held by a caller that gave up: returned %v, %v", ok, err)
	}
	five()

	first()
	// The waiter on 2 and 3 now runs and gives its turns back.
	left := make(chan struct{})
	go func() { late.Wait(); close(left) }()
	select {
	case <-left:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiter on 2 and 3 never had its turn")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if n := len(q.by); n != 0 {
		t.Fatalf("%d keys' turns kept after every caller left", n)
	}
}
