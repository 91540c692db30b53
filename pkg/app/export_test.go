package app

import "time"

// HoldDrain makes a's drain delay end when the returned func is called
// rather than after http.drain_delay, so a test sees the draining instance
// without waiting real seconds.
func HoldDrain(a *App) (release func()) {
	ch := make(chan time.Time)
	a.drainTimer = func(time.Duration) <-chan time.Time { return ch }
	return func() { close(ch) }
}
