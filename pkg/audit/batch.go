package audit

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
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
	l    *Log
	reqs chan logReq
	max  int
	stop chan struct{}
	wg   sync.WaitGroup
}

// Batch turns group inserts on, up to max rows a statement, and returns the
// function that turns them off after writing what is queued.
func (l *Log) Batch(max int) (stop func()) {
	if max < 2 {
		return func() {}
	}
	b := &logBatcher{l: l, reqs: make(chan logReq, max*4), max: max, stop: make(chan struct{})}
	l.batch = b
	b.wg.Add(1)
	go b.loop()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(b.stop)
			b.wg.Wait()
		})
	}
}

func (b *logBatcher) submit(ctx context.Context, e Entry) error {
	r := logReq{e: e, done: make(chan error, 1)}
	select {
	case b.reqs <- r:
	case <-b.stop:
		return Write(ctx, b.l.db, e)
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *logBatcher) loop() {
	defer b.wg.Done()
	for {
		var first logReq
		select {
		case first = <-b.reqs:
		case <-b.stop:
			for {
				select {
				case r := <-b.reqs:
					r.done <- Write(context.Background(), b.l.db, r.e)
				default:
					return
				}
			}
		}
		batch := []logReq{first}
	gather:
		for len(batch) < b.max {
			select {
			case r := <-b.reqs:
				batch = append(batch, r)
			default:
				break gather
			}
		}
		b.run(batch)
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
	args := make([]any, 0, len(batch)*8)
	now := time.Now().UTC()
	for _, r := range batch {
		e := r.e
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		rows = append(rows, "(?, ?, ?, ?, ?, ?, ?, ?)")
		args = append(args, e.AgencyID, e.UserID, e.Username, e.Action, e.Target, truncate(e.Detail, 500), e.IP, e.CreatedAt)
	}
	_, err := l.db.ExecContext(ctx, l.db.Rebind(`INSERT INTO user_logs (agency_id, user_id, username, action, target, detail, ip, created_at)
		VALUES `+strings.Join(rows, ", ")), args...)
	if err != nil {
		return fmt.Errorf("audit: write %d entries: %w", len(batch), err)
	}
	return nil
}
