// Copied from pkg/supplier/sim (unexported there): the same hashing keeps
// the two simulators' determinism alike.

package railsim

// mix is a running FNV-1a hash over the parts that identify a random
// decision. Every random choice of the simulator is a hash of what it is
// about (route, flight, date, seed…) rather than a draw from one shared
// stream, so a result never depends on the order things were enumerated in:
// adding a route does not move the price of another.
type mix uint64

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// seeded starts a hash from a seed.
func seeded(seed uint64) mix { return mix(fnvOffset).num(seed) }

// str adds a string (with a terminator, so "ab"+"c" ≠ "a"+"bc").
func (m mix) str(s string) mix {
	for i := 0; i < len(s); i++ {
		m ^= mix(s[i])
		m *= fnvPrime
	}
	m ^= 0xff
	m *= fnvPrime
	return m
}

// num adds an integer.
func (m mix) num(n uint64) mix {
	for i := 0; i < 8; i++ {
		m ^= mix(n & 0xff)
		m *= fnvPrime
		n >>= 8
	}
	return m
}

// sum is the finished 64-bit hash.
func (m mix) sum() uint64 { return fmix(uint64(m)) }

// draw is the k-th independent value derived from the hash.
func (m mix) draw(k uint64) uint64 { return fmix(uint64(m) + (k+1)*0x9e3779b97f4a7c15) }

// unit is the k-th value as a float in [0, 1).
func (m mix) unit(k uint64) float64 { return float64(m.draw(k)>>11) / (1 << 53) }

// intn is the k-th value in [0, n).
func (m mix) intn(k uint64, n int) int { return int(m.draw(k) % uint64(n)) }

// fmix is splitmix64's finaliser: it spreads FNV's weak low bits.
func fmix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
