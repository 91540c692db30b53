package agency

import (
	"context"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// Every authenticated request reads its agency (the session's company) and
// most services read it again; those hot reads go through Cached, which
// keeps a row for a short time. This process forgets a row as soon as it
// changes it; another instance's change shows after at most the TTL.

type cachedRow struct {
	a  Agency
	at time.Time
}

type rowCache struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[int64]cachedRow
	// gen counts the changes of each agency, so that a read that raced a
	// change is not kept.
	gen map[int64]uint64
}

// CacheFor turns the hot-read cache on, rows kept for ttl (0 turns it off).
func (s *Store) CacheFor(ttl time.Duration) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	s.cache.ttl, s.cache.m, s.cache.gen = ttl, map[int64]cachedRow{}, map[int64]uint64{}
}

// Cached is Get for the hot paths (authentication, the caller's agency in a
// service): a row read within the TTL is answered from memory.
func (s *Store) Cached(ctx context.Context, id int64) (Agency, error) {
	return s.CachedIn(ctx, s.db, id)
}

// CachedIn is Cached reading through q on a miss: inside a transaction
// (SQLite's one connection is the transaction's until it ends).
func (s *Store) CachedIn(ctx context.Context, q sqlx.QueryerContext, id int64) (Agency, error) {
	c := &s.cache
	c.mu.Lock()
	row, ok := c.m[id] // empty while the cache is off
	ttl, gen := c.ttl, c.gen[id]
	c.mu.Unlock()
	now := s.now()
	if ok && now.Sub(row.at) < ttl {
		return row.a, nil
	}
	a, err := s.getIn(ctx, q, id)
	if err != nil || ttl <= 0 {
		return a, err
	}
	c.mu.Lock()
	if c.gen[id] == gen {
		c.m[id] = cachedRow{a: a, at: now}
	}
	c.mu.Unlock()
	return a, nil
}

// Forget drops agency id from the cache; every change to an agency's row
// calls it once the change is committed.
func (s *Store) Forget(id int64) {
	c := &s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		return
	}
	delete(c.m, id)
	c.gen[id]++
}
