package agency

import "time"

// SetClock makes the store read the time from now (the cache's TTL, the
// rows' stamps), so a test moves time rather than waiting for it.
func (s *Store) SetClock(now func() time.Time) { s.now = now }
