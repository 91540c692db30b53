package sim

import "time"

// DefaultLatency is the profile's typical answer time and its spread, for
// callers that scale it (configuration's latency_scale).
func (p Profile) DefaultLatency() (mean, jitter time.Duration) {
	d := profileDefaults[p]
	return d.latency, d.jitter
}
