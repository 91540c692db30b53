package booking

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Inserter queues River jobs inside a transaction (river.Client does): a
// line's deadlines, ticketing and status checks are queued in the commit
// that makes them due.
type Inserter interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Notifier sends an agency's webhook events in the transaction that makes
// them true (pkg/webhook).
type Notifier interface {
	NotifyTx(ctx context.Context, tx *sqlx.Tx, agencyID int64, event string, data any) error
}

// Enqueue queues args on jobs in tx, due at at (zero: now; River merges
// this with the job's own InsertOpts field by field). Without a queue (a
// tool that runs no jobs) it says so in the log and queues nothing.
func Enqueue(ctx context.Context, jobs Inserter, log *slog.Logger, tx *sqlx.Tx, args river.JobArgs, at time.Time) error {
	if jobs == nil {
		log.WarnContext(ctx, "booking: no job queue; job not queued", "kind", args.Kind())
		return nil
	}
	var opts *river.InsertOpts
	if !at.IsZero() {
		opts = &river.InsertOpts{ScheduledAt: at}
	}
	if _, err := jobs.InsertTx(ctx, tx.Tx, args, opts); err != nil {
		return fmt.Errorf("queue %s: %w", args.Kind(), err)
	}
	return nil
}

// SweepOpts are the insert options of a line's periodic sweep that runs
// every period: one sweep per period however many instances schedule it
// (River elects one scheduler, but a new leader's run-on-start can land in
// the same period), and one attempt: the next period's sweep is the retry,
// so a failing database does not pile up retrying sweeps.
func SweepOpts(every time.Duration) river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByPeriod: every}}
}
