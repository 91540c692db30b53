package shopping

import (
	"fmt"
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/fault"
)

// Admission. An instance takes a new search only while fewer than its
// capacity are running. A search runs from its start until its last answer
// is stored: while its suppliers are called, and while its answers wait for
// the CPU to encode them and for the store to write them. The count is thus
// the length of the whole pipeline's queue, and it grows with whatever part
// is overloaded: a starved CPU or a slow database keeps every search in it
// longer. Measures of one stage only come too late: the age of the oldest
// waiting batch is zero while a burst of searches is admitted, and grows
// past the point of no return (a batch is dropped after waiting ten
// seconds, see store) only once the burst's answers arrive.

// admit takes a place for a new search; false when the instance is full.
func (e *Engine) admit() bool {
	for {
		n := e.running.Load()
		if n >= e.capacity {
			return false
		}
		if e.running.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// BusyError refuses a search the instance has no room for: HTTP 503 with
// code 400004, and RetryAfter, when a running search will have ended and
// given its place up.
type BusyError struct {
	RetryAfter time.Duration
	err        *fault.Error
}

func (b *BusyError) Error() string {
	return fmt.Sprintf("shopping: instance busy, retry after %s: %v", b.RetryAfter, b.err)
}

// Unwrap gives the API its code, status and message.
func (b *BusyError) Unwrap() error { return b.err }

// RetryAfterSeconds is the Retry-After header's value, as the API's error
// answer writes it for every fault that carries a wait.
func (b *BusyError) RetryAfterSeconds() int { return int(b.err.RetryAfterSeconds()) }

// busyError is the refusal at now. The wait is until the first running
// search reaches its deadline: it then stops calling its suppliers, and
// frees its place as soon as its last answers are stored.
func (e *Engine) busyError(now time.Time) *BusyError {
	wait := time.Duration(maxRetryAfter) * time.Second
	e.mu.Lock()
	for _, st := range e.cache {
		if !st.running.Load() {
			continue
		}
		// sess and policy do not change once cached.
		end := st.sess.CreatedAt.Add(time.Duration(st.policy.MaxResponse) * time.Second)
		wait = min(wait, end.Sub(now))
	}
	e.mu.Unlock()
	wait = max(wait, time.Second)
	b := &BusyError{RetryAfter: wait, err: fault.New(fault.CodeSearchBusy, http.StatusServiceUnavailable, "shopping.error.busy")}
	b.err.RetryAfter = wait
	b.err.Args = []any{"seconds", b.RetryAfterSeconds()}
	return b
}

// maxRetryAfter bounds the wait asked of a client (seconds): the longest
// maximum response time an agency can set.
const maxRetryAfter = 60
