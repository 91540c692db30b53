// Package simcall is how the simulators (pkg/supplier/sim and
// pkg/supplier/rail/railsim) answer a call: the knobs for latency and
// failures, read from a Config where zero means the default and a negative
// value none, and the wait itself. Both simulators share it so that a
// flight and a train search hang, lag and fail alike.
package simcall

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/voyage/voyage/pkg/supplier/simhash"
)

// maxHang bounds a simulated time-out when the context has no deadline.
const maxHang = 2 * time.Minute

// Knobs are a simulator's latency (a mean and a uniform ± spread) and the
// shares of calls that fail or never answer (0..1).
type Knobs struct {
	Latency     time.Duration
	Jitter      time.Duration
	ErrorRate   float64
	TimeoutRate float64
}

// Read takes the knobs from a Config's fields, each falling back to def's;
// the spread never exceeds the latency.
func Read(latency, jitter time.Duration, errorRate, timeoutRate float64, def Knobs) (Knobs, error) {
	k := Knobs{Latency: OrDefault(latency, def.Latency)}
	k.Jitter = min(OrDefault(jitter, def.Jitter), k.Latency)
	var err error
	if k.ErrorRate, err = Rate("ErrorRate", errorRate, def.ErrorRate); err != nil {
		return Knobs{}, err
	}
	if k.TimeoutRate, err = Rate("TimeoutRate", timeoutRate, def.TimeoutRate); err != nil {
		return Knobs{}, err
	}
	return k, nil
}

// OrDefault reads a duration field: zero is def, negative is none.
func OrDefault(v, def time.Duration) time.Duration {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Rate reads the rate field called name: zero is def, negative is none,
// over 1 an error.
func Rate(name string, v, def float64) (float64, error) {
	switch {
	case v == 0:
		return def, nil
	case v < 0:
		return 0, nil
	case v > 1:
		return 0, fmt.Errorf("%s %v is over 1", name, v)
	}
	return v, nil
}

// Answer plays one call: a possible hang until the context is done (at
// most maxHang), the latency (cut short by the context), a possible
// failure. h draws the latency's spread; fail draws the hang and the
// failure, so a simulator can draw those per process while h stays the
// same everywhere. A non-nil timedOut is why the call timed out (the
// context's error, or DeadlineExceeded after maxHang); failed says the
// source answered with a failure.
func (k Knobs) Answer(ctx context.Context, h, fail simhash.Mix) (timedOut error, failed bool) {
	if err := ctx.Err(); err != nil {
		return err, false
	}
	if k.TimeoutRate > 0 && fail.Unit(0) < k.TimeoutRate {
		if wait(ctx, maxHang) {
			return ctx.Err(), false
		}
		return context.DeadlineExceeded, false
	}
	d := k.Latency
	if k.Jitter > 0 {
		d += time.Duration((2*h.Unit(1) - 1) * float64(k.Jitter))
	}
	if d > 0 && wait(ctx, d) {
		return ctx.Err(), false
	}
	return nil, k.ErrorRate > 0 && fail.Unit(2) < k.ErrorRate
}

// wait holds for d or until the context is done, and says whether the
// context cut it short.
func wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return true
	case <-t.C:
		return false
	}
}

// Attempts numbers a simulator's calls among those with the same key and
// draws, with a run picked when the simulator is made, whether each one
// hangs or fails. The counts restart with the process: without the run,
// the retry of a call that hung, taken up by another (or a restarted)
// instance, was that instance's first attempt and drew the same hang, so
// a paid order could fail every retry of its ticketing (chaos runs, first
// flights, then trains).
type Attempts struct {
	// counts is a fixed table: collisions only shift attempt numbers,
	// memory stays bounded under load.
	counts [4096]atomic.Uint32
	run    uint64
}

// NewAttempts returns a table with a random run.
func NewAttempts() *Attempts {
	var b [8]byte
	_, _ = crand.Read(b[:])
	return &Attempts{run: binary.LittleEndian.Uint64(b[:])}
}

// Draw plays the next attempt of (op, key): h is the same on every
// instance for the same seed, operation, key and attempt, so the answers a
// caller prices from it agree; fail, for Answer, is h drawn with this
// process's run.
func (a *Attempts) Draw(seed uint64, op, key string) (h, fail simhash.Mix) {
	k := simhash.Seeded(0).Str(op).Str(key).Sum()
	n := uint64(a.counts[k%uint64(len(a.counts))].Add(1))
	h = simhash.Seeded(seed).Str(op).Str(key).Num(n)
	return h, h.Num(a.run)
}
