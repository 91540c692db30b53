package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// Job is a background job that did not end well, as the provider sees it:
// which kind, for what, how often tried, what went wrong.
type Job struct {
	// ID identifies the job, for POST /base/v2/jobs/{id}/retry.
	ID int64 `json:"id"`
	// Kind is what the job does: order_ticket, order_deadline,
	// order_post_sale, order_finish_pending, train_ticket,
	// train_after_sale, group_ticket, a channel payment's status check
	// (order_payment_check, train_payment_check, group_payment_check),
	// payment_channel_refund, payment_reconcile, webhook_deliver,
	// deliver_email, or one of the periodic sweeps (order_deadline_sweep,
	// train_sweep, group_deadline_sweep, webhook_sweep,
	// payment_reconcile_day, cleanup_expired).
	Kind string `json:"kind"`
	// State is where the job is: running (past its timeout: its process
	// most likely died), retryable (failed, to be tried again at
	// scheduledAt), discarded (given up on after its last attempt); after
	// a retry, available (waiting for a worker) or any later state.
	State string `json:"state"`
	// Args is the job's arguments as queued, a JSON object such as the id
	// of the order or delivery it works on.
	Args string `json:"args"`
	// Attempt is how many times the job has been started.
	Attempt int `json:"attempt"`
	// MaxAttempts is how many attempts the job gets before it is discarded.
	MaxAttempts int `json:"maxAttempts"`
	// AttemptedAt is when the last attempt started (RFC 3339); absent when
	// the job has never run.
	AttemptedAt *time.Time `json:"attemptedAt,omitempty"`
	// AttemptedBy is the server instance that ran it last.
	AttemptedBy string `json:"attemptedBy,omitempty"`
	// ScheduledAt is when the job is (or was) due to run: for a retryable
	// job, its next attempt (RFC 3339, UTC).
	ScheduledAt time.Time `json:"scheduledAt"`
	// CreatedAt is when the job was queued (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt"`
	// Errors are the failed attempts' errors, oldest first.
	Errors []string `json:"errors"`
	// Overdue is how long a running job has been running past its
	// timeout, as a duration such as "1m30s": its process most likely died
	// with it. Absent for a job that is not running late.
	Overdue string `json:"overdue,omitempty"`
}

// Stuck states: a running job past its timeout (its process died), one
// waiting to be tried again after failing, one given up on.
const (
	StateRunning   = string(rivertype.JobStateRunning)
	StateRetryable = string(rivertype.JobStateRetryable)
	StateDiscarded = string(rivertype.JobStateDiscarded)
)

// stuckLimit bounds the list: beyond a few hundred the provider has an
// outage to fix, not jobs to pick.
const stuckLimit = 500

// Stuck lists the jobs that need a look, oldest first: running longer than
// their kind's timeout, retryable after a failure, or discarded.
func (q *Queue) Stuck(ctx context.Context) ([]Job, error) {
	res, err := q.Client.JobList(ctx, river.NewJobListParams().
		States(rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateDiscarded).
		OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(stuckLimit))
	if err != nil {
		return nil, fmt.Errorf("jobs: list: %w", err)
	}
	now := q.now()
	out := []Job{}
	for _, row := range res.Jobs {
		if row.State == rivertype.JobStateRunning {
			if _, overdue := q.overdue(row, now); !overdue {
				continue
			}
		}
		out = append(out, q.view(row, now))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// overdue is how long row has been running past its kind's timeout, and
// whether it has.
func (q *Queue) overdue(row *rivertype.JobRow, now time.Time) (time.Duration, bool) {
	if row.State != rivertype.JobStateRunning || row.AttemptedAt == nil {
		return 0, false
	}
	timeout, ok := q.workers.Timeout(row.Kind)
	if !ok {
		timeout = q.workers.Longest()
	}
	late := now.Sub(*row.AttemptedAt) - timeout
	return late, late > 0
}

func (q *Queue) view(row *rivertype.JobRow, now time.Time) Job {
	j := Job{ID: row.ID, Kind: row.Kind, State: string(row.State), Args: string(row.EncodedArgs), Attempt: row.Attempt,
		MaxAttempts: row.MaxAttempts, AttemptedAt: row.AttemptedAt, ScheduledAt: row.ScheduledAt.UTC(), CreatedAt: row.CreatedAt.UTC(),
		Errors: []string{}}
	// PostgreSQL's jsonb spaces the arguments out; the same job reads the
	// same on either engine.
	var args bytes.Buffer
	if json.Compact(&args, row.EncodedArgs) == nil {
		j.Args = args.String()
	}
	if n := len(row.AttemptedBy); n > 0 {
		j.AttemptedBy = row.AttemptedBy[n-1]
	}
	for _, e := range row.Errors {
		j.Errors = append(j.Errors, e.Error)
	}
	if late, ok := q.overdue(row, now); ok {
		j.Overdue = late.Round(time.Second).String()
	}
	return j
}

func errJobNotFound() error { return fault.NotFound("") }

// errNotStuck refuses to retry a job that is not stuck: still running
// within its time, waiting to run, or done.
func errNotStuck() error { return fault.Conflict("jobs.error.notStuck") }

// Retry makes a stuck job available at once. A running job is retried only
// when it has run past its timeout and the margin its worker has to record
// its end: its process is gone, and this does what the rescuer would do a
// little later. A job that exhausted its attempts gets one more.
func (q *Queue) Retry(ctx context.Context, id int64) (Job, error) {
	row, err := q.Client.JobGet(ctx, id)
	if errors.Is(err, river.ErrNotFound) {
		return Job{}, errJobNotFound()
	}
	if err != nil {
		return Job{}, fmt.Errorf("jobs: get %d: %w", id, err)
	}
	switch row.State {
	case rivertype.JobStateRetryable, rivertype.JobStateDiscarded:
		row, err = q.Client.JobRetry(ctx, id)
		if err != nil {
			return Job{}, fmt.Errorf("jobs: retry %d: %w", id, err)
		}
	case rivertype.JobStateRunning:
		late, ok := q.overdue(row, q.now())
		if !ok || late < rescueMargin {
			return Job{}, errNotStuck()
		}
		if err := q.requeue(ctx, row); err != nil {
			return Job{}, err
		}
		if row, err = q.Client.JobGet(ctx, id); err != nil {
			return Job{}, fmt.Errorf("jobs: get %d: %w", id, err)
		}
	default:
		return Job{}, errNotStuck()
	}
	return q.view(row, q.now()), nil
}

// requeue makes a dead run's job available, as River's rescuer does, but
// now. River's client has no call for it (JobRetry leaves running jobs
// alone, as it must for live ones); the update only applies if the job is
// still in the same attempt, so a run that ended meanwhile wins.
func (q *Queue) requeue(ctx context.Context, row *rivertype.JobRow) error {
	// River's SQLite driver keeps times as text in SQLite's own format and
	// compares them as text: the database writes the time, as River does.
	now := "now()"
	if q.db.Dialect == store.SQLite {
		now = "datetime('now', 'subsec')"
	}
	maxAttempts := max(row.MaxAttempts, row.Attempt+1)
	res, err := q.db.ExecContext(ctx, q.db.Rebind(`UPDATE river_job SET state = 'available', scheduled_at = `+now+`, max_attempts = ?
		WHERE id = ? AND state = 'running' AND attempt = ?`), maxAttempts, row.ID, row.Attempt)
	if err != nil {
		return fmt.Errorf("jobs: requeue %d: %w", row.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotStuck()
	}
	return nil
}

// RetryStuck retries every job Stuck lists and answers them as they are
// now; jobs that ended meanwhile are left out.
func (q *Queue) RetryStuck(ctx context.Context) ([]Job, error) {
	stuck, err := q.Stuck(ctx)
	if err != nil {
		return nil, err
	}
	out := []Job{}
	for _, j := range stuck {
		r, err := q.Retry(ctx, j.ID)
		if fe, ok := fault.As(err); ok && (fe.Code == fault.CodeConflict || fe.Code == fault.CodeNotFound) {
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}
