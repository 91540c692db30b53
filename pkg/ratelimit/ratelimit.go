// Package ratelimit limits how fast one caller (an API key, a session) may
// call the API: a token bucket of Burst requests refilled at Rate per
// second, kept as a GCRA "theoretical arrival time" per caller. The counters
// live in the process (Memory) or in Redis (Redis), where every instance of
// the site shares them.
package ratelimit

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Limit is a bucket: Burst requests at once, refilled at Rate per second.
type Limit struct {
	Rate  float64
	Burst int
}

// Result is the outcome of one request.
type Result struct {
	Allowed bool
	// Limit is the bucket's size (the RateLimit-Limit header).
	Limit int
	// Remaining is how many more requests would be let through now.
	Remaining int
	// RetryAfter is how long a refused caller must wait; 0 when allowed.
	RetryAfter time.Duration
	// Reset is how long until the bucket is full again.
	Reset time.Duration
}

// Limiter takes one request of key against l.
type Limiter interface {
	Take(ctx context.Context, key string, l Limit) (Result, error)
}

// params are the bucket's emission interval (µs between two requests at
// the steady rate) and its size, both at least 1.
func (l Limit) params() (interval, burst int64) {
	return max(int64(math.Round(1e6/l.Rate)), 1), max(int64(l.Burst), 1)
}

// gcra applies one request at now (µs) to the stored arrival time tat (µs,
// 0 when none) and returns the result and the new tat (unchanged when
// refused).
func gcra(now, tat int64, l Limit) (Result, int64) {
	interval, burst := l.params()
	if tat < now {
		tat = now
	}
	next := tat + interval
	allowAt := next - burst*interval
	if now < allowAt {
		return Result{Limit: int(burst), RetryAfter: time.Duration(allowAt-now) * time.Microsecond,
			Reset: time.Duration(tat-now) * time.Microsecond}, tat
	}
	return Result{Allowed: true, Limit: int(burst), Remaining: int((now - allowAt) / interval),
		Reset: time.Duration(next-now) * time.Microsecond}, next
}

// Memory keeps the buckets in this process.
type Memory struct {
	mu    sync.Mutex
	tat   map[string]int64
	now   func() time.Time
	sweep int64
}

// NewMemory is an in-process limiter.
func NewMemory() *Memory { return &Memory{tat: map[string]int64{}, now: time.Now} }

// Take applies one request of key.
func (m *Memory) Take(_ context.Context, key string, l Limit) (Result, error) {
	now := m.now().UnixMicro()
	m.mu.Lock()
	defer m.mu.Unlock()
	r, tat := gcra(now, m.tat[key], l)
	m.tat[key] = tat
	// Buckets full again are forgotten now and then, so idle callers do
	// not accumulate.
	if now-m.sweep > int64(time.Minute/time.Microsecond) {
		m.sweep = now
		for k, t := range m.tat {
			if t <= now {
				delete(m.tat, k)
			}
		}
	}
	return r, nil
}

// takeScript is gcra in Lua, on the Redis server's clock so instances with
// skewed clocks agree. KEYS[1] the bucket; ARGV rate interval (µs), burst.
var takeScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local nxt = tat + interval
local allowAt = nxt - burst * interval
if now < allowAt then
  return {0, allowAt - now, tat - now, 0}
end
redis.call('SET', KEYS[1], nxt, 'PX', math.floor((nxt - now) / 1000) + 1000)
return {1, 0, nxt - now, math.floor((now - allowAt) / interval)}
`)

// Redis keeps the buckets in Redis under Prefix.
type Redis struct {
	Client *redis.Client
	Prefix string
}

// Take applies one request of key.
func (r Redis) Take(ctx context.Context, key string, l Limit) (Result, error) {
	interval, burst := l.params()
	v, err := takeScript.Run(ctx, r.Client, []string{r.Prefix + key}, interval, burst).Int64Slice()
	if err != nil {
		return Result{}, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(v) != 4 {
		return Result{}, fmt.Errorf("ratelimit: redis answered %v", v)
	}
	return Result{Allowed: v[0] == 1, Limit: int(burst), Remaining: int(v[3]),
		RetryAfter: time.Duration(v[1]) * time.Microsecond, Reset: time.Duration(v[2]) * time.Microsecond}, nil
}
