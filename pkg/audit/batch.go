package audit

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/store"
)

// Group insert: the router records every state-changing call once the call
// is done, one row each. Under load, callers that arrive together share one
// multi-row INSERT and one commit; each still waits for its own row, so the
// user log reads what was just done.

type logReq struct {
	e    Entry
	done chan error
}

type logBatcher struct {
	l *Log
	g *store.Gatherer[logReq]
}

// Batch turns group inserts on, up to max rows a statement, and returns the
// function that turns them off after writing what is queued.
func (l *Log) Batch(max int) (stop func()) {
	if max < 2 {
		return func() {}
	}
	b := &logBatcher{l: l}
	b.g = store.Gather(max, b.run, func(r logReq) { r.done <- Write(context.Background(), l.db, r.e) })
	l.batch = b
	return b.g.Stop
}

func (b *logBatcher) submit(ctx context.Context, e Entry) error {
	r := logReq{e: e, done: make(chan error, 1)}
	if !b.g.Submit(r, ctx.Done()) {
		if err := ctx.Err(); err != nil {
			return err
		}
		return Write(ctx, b.l.db, e)
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *logBatcher) run(batch []logReq) {
	// Not a caller's context: one caller giving up must not fail the others.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if len(batch) == 1 {
		batch[0].done <- Write(ctx, b.l.db, batch[0].e)
		return
	}
	if err := writeMany(ctx, b.l, batch); err != nil {
		slog.Warn("audit: group insert failed, writing one by one", "entries", len(batch), "err", err)
		for _, r := range batch {
			r.done <- Write(ctx, b.l.db, r.e)
		}
		return
	}
	for _, r := range batch {
		r.done <- nil
	}
}

func writeMany(ctx context.Context, l *Log, batch []logReq) error {
	rows := make([]string, 0, len(batch))
	args := make([]any, 0, len(batch)*9)
	now := time.Now().UTC()
	for _, r := range batch {
		e := r.e
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		rows = append(rows, "(?, ?, ?, ?, ?, ?, ?, ?, ?)")
		args = append(args, e.AgencyID, e.UserID, e.Username, e.Action, e.Target, truncate(e.Detail, 500), e.Facts, e.IP, e.CreatedAt)
	}
	_, err := l.db.ExecContext(ctx, l.db.Rebind(`INSERT INTO user_logs (agency_id, user_id, username, action, target, detail, facts, ip, created_at)
		VALUES `+strings.Join(rows, ", ")), args...)
	if err != nil {
		return fmt.Errorf("audit: write %d entries: %w", len(batch), err)
	}
	return nil
}
