package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Waiting is how many jobs of a kind are in a state not yet finished.
type Waiting struct {
	Kind  string `db:"kind"`
	State string `db:"state"`
	Count int64  `db:"n"`
}

// Backlog is the jobs not finished, by kind and state, across every
// instance, and how long the oldest job due at now has waited past its
// scheduled time (zero when none is): an available job, or a scheduled or
// retryable one whose time has come but that River's leader has not made
// available yet. A queue nobody works, or works too slowly, or whose
// leader is gone, shows here first. Both queries read River's fetch index
// (state first), so the finished jobs kept for a day are not read.
func (q *Queue) Backlog(ctx context.Context, now time.Time) ([]Waiting, time.Duration, error) {
	var out []Waiting
	if err := q.db.SelectContext(ctx, &out, `SELECT kind, state, COUNT(*) AS n FROM river_job
		WHERE state IN ('available', 'running', 'retryable', 'scheduled') GROUP BY kind, state`); err != nil {
		return nil, 0, fmt.Errorf("jobs: backlog: %w", err)
	}
	var oldest time.Time
	err := q.db.GetContext(ctx, &oldest, q.db.Rebind(`SELECT scheduled_at FROM river_job
		WHERE state IN ('available', 'retryable', 'scheduled') AND scheduled_at <= ? ORDER BY scheduled_at LIMIT 1`), now.UTC())
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return out, 0, nil
	case err != nil:
		return nil, 0, fmt.Errorf("jobs: oldest job due: %w", err)
	}
	return out, max(now.Sub(oldest), 0), nil
}
