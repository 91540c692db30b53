package shopping

import (
	"context"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// PlannedCall is one supplier request a search makes (benchmarks replay the
// plan to know each search's supplier latency).
type PlannedCall struct {
	Part   string
	Source string
	Req    supplier.SearchRequest
}

// Plan lists the supplier calls Start makes for req, for an agency with no
// supplier restrictions.
func (e *Engine) Plan(req Request, currency string) []PlannedCall {
	req.Normalize(time.Now())
	p := Policy{Currency: currency}
	var out []PlannedCall
	for _, c := range e.plan(&req, &p) {
		out = append(out, PlannedCall{Part: c.part, Source: c.source, Req: c.req})
	}
	return out
}

// Cached says whether the engine holds the search built in memory.
func (e *Engine) Cached(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cache[id] != nil
}

// Arrived says whether the answer to part (a call's part name, such as
// "main/gds") reached the search on this instance, built into its
// solutions or not yet.
func (e *Engine) Arrived(id, part string) bool {
	e.mu.Lock()
	st := e.cache[id]
	e.mu.Unlock()
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, parts := range [][]Part{st.local, st.pending, st.parts} {
		for _, p := range parts {
			if p.Name == part {
				return true
			}
		}
	}
	return false
}

// SetMaxCached lowers the cache's bound.
func (e *Engine) SetMaxCached(n int) { e.maxCached = n }

// CacheIdle is how long an unpolled search stays cached.
const CacheIdle = cacheIdle

// SetBusyAt sets how many running searches make the instance busy.
func (e *Engine) SetBusyAt(n int) { e.busyAt = int64(n) }

// SetCapacity sets how many searches the engine runs at once.
func (e *Engine) SetCapacity(n int) { e.capacity = int64(n) }

// BatchParts decodes a batch as a store would read it.
func BatchParts(b Batch) ([]Part, error) { return decodeParts(b.Payload, 0) }

// AddMany writes batches of the searches ids in one statement, as a group
// insert does (PostgreSQL).
func (s *SQLSessions) AddMany(ctx context.Context, ids []string, bs []Batch) error {
	rows := make([]batchRow, len(ids))
	for i := range ids {
		rows[i] = batchRow{id: ids[i], b: bs[i], at: time.Now().UTC()}
	}
	return s.addMany(ctx, rows)
}

// CreateMany creates sessions in one statement, as a group insert does.
func (s *SQLSessions) CreateMany(ctx context.Context, ss ...Session) error {
	rows := make([][]any, len(ss))
	for i := range ss {
		r, err := sessionRow(ss[i])
		if err != nil {
			return err
		}
		rows[i] = r
	}
	return s.createMany(ctx, rows)
}
