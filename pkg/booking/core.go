package booking

import (
	"context"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
)

// Core is what every line's service holds beside its own rules: its
// bookings, its clock and log, and the job queue and webhook seam, which
// are set after the services are built (the queue's workers call the
// services). A line's Service embeds it.
type Core[B any] struct {
	Books Books[B]
	// Now is the line's clock (time.Now unless a test moves it).
	Now func() time.Time
	Log *slog.Logger

	jobs   Inserter
	notify Notifier
}

// NewCore is a line's core; a nil now is time.Now, a nil log slog's
// default.
func NewCore[B any](books Books[B], now func() time.Time, log *slog.Logger) Core[B] {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return Core[B]{Books: books, Now: now, Log: log}
}

// SetQueue sets the job queue.
func (c *Core[B]) SetQueue(q Inserter) { c.jobs = q }

// SetNotifier sets where webhook events go.
func (c *Core[B]) SetNotifier(n Notifier) { c.notify = n }

// Enqueue queues args in tx, due at at (zero: now); see Enqueue.
func (c *Core[B]) Enqueue(ctx context.Context, tx *sqlx.Tx, args river.JobArgs, at time.Time) error {
	return Enqueue(ctx, c.jobs, c.Log, tx, args, at)
}

// NotifyTx queues the agency's webhook event in tx; nothing where no
// webhooks are set (a tool that sends none).
func (c *Core[B]) NotifyTx(ctx context.Context, tx *sqlx.Tx, agencyID int64, event string, data any) error {
	if c.notify == nil {
		return nil
	}
	return c.notify.NotifyTx(ctx, tx, agencyID, event, data)
}
