// Package clocktest holds a clock that tests move by hand, so that waits,
// windows and signature timestamps run out when the test says and not after
// real seconds. It is safe to share between a service and its fake.
package clocktest

import (
	"sync"
	"time"
)

// Clock is a settable time; its Now is the func a service takes as its clock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New is a clock standing at t0.
func New(t0 time.Time) *Clock { return &Clock{t: t0} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
