package app_test

import (
	"testing"
	"time"
)

// until calls check until it returns nil, for at most within, then fails
// the test with check's last error (which says what it saw).
//
// What these tests wait for is another goroutine's work seen from outside:
// a job on River's worker goroutines, a search's supplier calls, a server
// shutting down. Time passing is not what they need, so no clock the test
// moves could make it happen sooner; the helper polls, first often, then
// every 100 ms.
func until(t testing.TB, within time.Duration, check func() error) {
	t.Helper()
	deadline := time.Now().Add(within)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %v", within, err)
		}
		// Not a clock: the work is on another goroutine; this only spaces
		// the checks (see above).
		time.Sleep(wait)
	}
}
