package idempotency

import "time"

// SetClock makes the locks read the time from now and renew a held lock on
// each value sent on ticks, so a test moves time rather than waiting for it.
func (l *Locks) SetClock(now func() time.Time, ticks <-chan time.Time) {
	l.now = now
	l.every = func(time.Duration) (<-chan time.Time, func()) { return ticks, func() {} }
}
