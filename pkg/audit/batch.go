package audit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/store"
)

// Group insert: the router records every state-changing call once the call
// is done, one row each. Under load, callers that arrive together share one
// multi-row INSERT and one commit; each still waits for its own row, so the
// user log reads what was just done.

// Batch turns group inserts on, up to max rows a statement, and returns the
// function that turns them off after writing what is queued.
func (l *Log) Batch(max int) (stop func()) {
	if max < 2 {
		return func() {}
	}
	l.batch = store.Group("user_logs", max, 30*time.Second,
		func(ctx context.Context, e Entry) error { return Write(ctx, l.db, e) },
		func(ctx context.Context, es []Entry) error { return writeMany(ctx, l, es) })
	return l.batch.Stop
}

func writeMany(ctx context.Context, l *Log, batch []Entry) error {
	rows := make([]string, 0, len(batch))
	args := make([]any, 0, len(batch)*9)
	now := time.Now().UTC()
	for _, e := range batch {
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		rows = append(rows, "(?, ?, ?, ?, ?, ?, ?, ?, ?)")
		args = append(args, e.AgencyID, e.UserID, e.Username, e.Action, e.Target, input.Clip(e.Detail, 500), e.Facts, e.IP, e.CreatedAt)
	}
	_, err := l.db.ExecContext(ctx, l.db.Rebind(`INSERT INTO user_logs (agency_id, user_id, username, action, target, detail, facts, ip, created_at)
		VALUES `+strings.Join(rows, ", ")), args...)
	if err != nil {
		return fmt.Errorf("audit: write %d entries: %w", len(batch), err)
	}
	return nil
}
