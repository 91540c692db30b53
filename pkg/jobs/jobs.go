// Package jobs runs Voyage's background work on River, on whichever engine the
// store uses. Workers for later domains (ticketing, deadlines, webhooks,
// statements) register here too.
package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/mail"
	"github.com/voyage/voyage/pkg/store"
)

// Config tunes the queue.
type Config struct {
	Workers int
	// PollInterval is how often an idle queue looks for jobs: the drivers
	// River has for database/sql and SQLite cannot listen for inserts.
	PollInterval    time.Duration
	CleanupInterval time.Duration
	// Retention keeps ended sessions this long so an old token still gets the
	// precise "expired" answer rather than "unknown".
	Retention time.Duration
	// Mail delivers the email outbox; nil leaves emails pending.
	Mail         mail.Sender
	MailFrom     string
	MailInterval time.Duration
	// Register adds the workers of other packages (orders, webhooks) and
	// returns their periodic jobs, if any.
	Register []func(*river.Workers) []*river.PeriodicJob
}

// Queue is the running River client.
type Queue struct {
	Client *river.Client[*sql.Tx]
}

// New builds the River client with every worker and periodic job.
func New(db *store.DB, cfg Config) (*Queue, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = 50
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 200 * time.Millisecond
	}
	if cfg.CleanupInterval <= 0 {
		cfg.CleanupInterval = 15 * time.Minute
	}
	if cfg.Retention <= 0 {
		cfg.Retention = 7 * 24 * time.Hour
	}
	if cfg.MailInterval <= 0 {
		cfg.MailInterval = 30 * time.Second
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &CleanupWorker{db: db, retention: cfg.Retention, now: time.Now})
	periodic := []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(cfg.CleanupInterval),
			func() (river.JobArgs, *river.InsertOpts) { return CleanupArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
	}
	if cfg.Mail != nil {
		river.AddWorker(workers, &MailWorker{db: db, sender: cfg.Mail, from: cfg.MailFrom})
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(cfg.MailInterval),
			func() (river.JobArgs, *river.InsertOpts) { return MailArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}))
	}

	for _, reg := range cfg.Register {
		periodic = append(periodic, reg(workers)...)
	}
	client, err := river.NewClient(db.RiverDriver(), &river.Config{
		Logger: slog.Default(),
		Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}},
		// A busy queue fetches again after the cooldown, at most as many jobs
		// as it has free workers: River's 100 ms default held ticketing to
		// ten jobs a tick, about 100 orders/s, behind what the API books.
		FetchCooldown:     10 * time.Millisecond,
		FetchPollInterval: cfg.PollInterval,
		Workers:           workers,
		PeriodicJobs:      periodic,
	})
	if err != nil {
		return nil, fmt.Errorf("jobs: new river client: %w", err)
	}
	return &Queue{Client: client}, nil
}

// Start begins working jobs until Stop.
func (q *Queue) Start(ctx context.Context) error {
	if err := q.Client.Start(ctx); err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	return nil
}

// Stop stops fetching new jobs and waits for running ones to finish, or for
// ctx to end.
func (q *Queue) Stop(ctx context.Context) error {
	if err := q.Client.Stop(ctx); err != nil {
		return fmt.Errorf("jobs: stop: %w", err)
	}
	return nil
}

// CleanupArgs is the periodic job that removes ended sessions and stale
// search sessions.
type CleanupArgs struct{}

// Kind implements river.JobArgs.
func (CleanupArgs) Kind() string { return "cleanup_expired" }

// InsertOpts keeps at most one cleanup queued at a time, however many
// instances run the periodic schedule.
func (CleanupArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Minute}}
}

// CleanupWorker deletes sessions that ended longer ago than the retention and
// search sessions an hour past their expiry.
type CleanupWorker struct {
	river.WorkerDefaults[CleanupArgs]
	db        *store.DB
	retention time.Duration
	now       func() time.Time
}

// Work implements river.Worker.
func (w *CleanupWorker) Work(ctx context.Context, _ *river.Job[CleanupArgs]) error {
	now := w.now().UTC()
	cutoff := now.Add(-w.retention)
	res, err := w.db.ExecContext(ctx, w.db.Rebind(`
		DELETE FROM sessions
		WHERE expires_at < ? OR idle_expires_at < ? OR (revoked_at IS NOT NULL AND revoked_at < ?)`),
		cutoff, cutoff, cutoff)
	if err != nil {
		return fmt.Errorf("jobs: delete ended sessions: %w", err)
	}
	sessions, _ := res.RowsAffected()
	res, err = w.db.ExecContext(ctx, w.db.Rebind(`DELETE FROM search_sessions WHERE expires_at < ?`), now.Add(-time.Hour))
	if err != nil {
		return fmt.Errorf("jobs: delete stale search sessions: %w", err)
	}
	searches, _ := res.RowsAffected()
	// A quote is bookable for 15 minutes; an order keeps its own copy, so a
	// day later the quote is only clutter.
	res, err = w.db.ExecContext(ctx, w.db.Rebind(`DELETE FROM flight_quotes WHERE expires_at < ?`), now.Add(-24*time.Hour))
	if err != nil {
		return fmt.Errorf("jobs: delete expired quotes: %w", err)
	}
	quotes, _ := res.RowsAffected()
	failures, err := auth.PurgeThrottle(ctx, w.db, now)
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	// A single-login code older than twice the ±5 minute window can no longer
	// be replayed: its signed timestamp is out of the window anyway.
	res, err = w.db.ExecContext(ctx, w.db.Rebind(`DELETE FROM sso_codes WHERE used_at < ?`), now.Add(-time.Hour))
	if err != nil {
		return fmt.Errorf("jobs: delete used single-login codes: %w", err)
	}
	codes, _ := res.RowsAffected()
	slog.InfoContext(ctx, "cleanup done", "sessions_deleted", sessions, "search_sessions_deleted", searches, "quotes_deleted", quotes,
		"throttle_rows_deleted", failures, "sso_codes_deleted", codes)
	return nil
}

// MailArgs is the periodic delivery of the email outbox.
type MailArgs struct{}

// Kind implements river.JobArgs.
func (MailArgs) Kind() string { return "deliver_email" }

// InsertOpts keeps one delivery job pending at a time.
func (MailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 15 * time.Second}}
}

// MailWorker sends pending emails.
type MailWorker struct {
	river.WorkerDefaults[MailArgs]
	db     *store.DB
	sender mail.Sender
	from   string
}

// Work implements river.Worker.
func (w *MailWorker) Work(ctx context.Context, _ *river.Job[MailArgs]) error {
	for {
		n, err := mail.Deliver(ctx, w.db, w.sender, w.from, 50)
		if err != nil {
			return err
		}
		if n < 50 {
			return nil
		}
	}
}
