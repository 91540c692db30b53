package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"riverqueue.com/riverui"
)

// Console is River's own web UI (riverui) on this queue's jobs: the job
// list by state, a job's arguments, attempts and errors, and the cancel,
// retry and delete actions, the queues and their pause. It is an
// http.Handler serving the UI and its JSON API below the prefix it was
// built with; who may reach it is the caller's rule (pkg/web mounts it for
// the provider's SuperUser behind the portal's login).
//
// It reads and acts through the queue's database/sql client, whose driver
// is River's for either engine: riverui has a PostgreSQL and a SQLite
// implementation of its queries, so the console works on both.
type Console struct {
	ui *riverui.Handler
	// started starts riverui's count caches on the first request, with
	// ctx: they query every job state's count every ten seconds, which an
	// instance nobody looks at should not pay for.
	started sync.Once
	ctx     context.Context
	stop    context.CancelFunc
}

// Console builds the job console served below prefix (such as
// "/admin/jobs"). The queue's Close stops its background work.
func (q *Queue) Console(prefix string) (*Console, error) {
	ui, err := riverui.NewHandler(&riverui.HandlerOpts{
		Endpoints: riverui.NewEndpoints(q.Client, nil),
		Logger:    slog.Default(),
		Prefix:    prefix,
	})
	if err != nil {
		return nil, fmt.Errorf("jobs: job console: %w", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	c := &Console{ui: ui, ctx: ctx, stop: stop}
	q.consoles = append(q.consoles, c)
	return c, nil
}

// ServeHTTP serves the console's pages, assets and API.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.started.Do(func() {
		// The counts are answered from the database when no cache holds
		// them, so a console whose caches could not start still works.
		if err := c.ui.Start(c.ctx); err != nil {
			slog.ErrorContext(r.Context(), "jobs: start the job console's count caches", "err", err)
		}
	})
	c.ui.ServeHTTP(w, r)
}

// close ends the console's background work.
func (c *Console) close() { c.stop() }
