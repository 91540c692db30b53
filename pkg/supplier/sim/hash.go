package sim

import "github.com/voyage/voyage/pkg/supplier/simhash"

// mix and seeded name the simulators' shared hashing (pkg/supplier/simhash)
// in this package: every random choice is a hash of what it is about.
type mix = simhash.Mix

func seeded(seed uint64) mix { return simhash.Seeded(seed) }
