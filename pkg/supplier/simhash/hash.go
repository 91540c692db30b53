// Package simhash is the simulated suppliers' source of randomness, shared
// by the flight and rail simulators so both draw alike.
package simhash

import "math/rand/v2"

// Mix is a running FNV-1a hash over the parts that identify a random
// decision. Every random choice of the simulator is a hash of what it is
// about (route, flight, date, seed…) rather than a draw from one shared
// stream, so a result never depends on the order things were enumerated in:
// adding a route does not move the price of another.
type Mix uint64

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// Seeded starts a hash from a seed.
func Seeded(seed uint64) Mix { return Mix(fnvOffset).Num(seed) }

// Str adds a string (with a terminator, so "ab"+"c" ≠ "a"+"bc").
func (m Mix) Str(s string) Mix {
	for i := 0; i < len(s); i++ {
		m ^= Mix(s[i])
		m *= fnvPrime
	}
	m ^= 0xff
	m *= fnvPrime
	return m
}

// Num adds an integer.
func (m Mix) Num(n uint64) Mix {
	for i := 0; i < 8; i++ {
		m ^= Mix(n & 0xff)
		m *= fnvPrime
		n >>= 8
	}
	return m
}

// Sum is the finished 64-bit hash.
func (m Mix) Sum() uint64 { return fmix(uint64(m)) }

// Draw is the k-th independent value derived from the hash.
func (m Mix) Draw(k uint64) uint64 { return fmix(uint64(m) + (k+1)*0x9e3779b97f4a7c15) }

// Unit is the k-th value as a float in [0, 1).
func (m Mix) Unit(k uint64) float64 { return float64(m.Draw(k)>>11) / (1 << 53) }

// Intn is the k-th value in [0, n).
func (m Mix) Intn(k uint64, n int) int { return int(m.Draw(k) % uint64(n)) }

// Rng is a PCG stream seeded from the hash, for generating a sequence
// (a route's departure times) in one go.
func (m Mix) Rng() *rand.Rand { return rand.New(rand.NewPCG(m.Draw(100), m.Draw(101))) }

// fmix is splitmix64's finaliser: it spreads FNV's weak low bits.
func fmix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
