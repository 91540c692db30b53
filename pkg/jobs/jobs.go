// Package jobs runs Voyage's background work on River, on whichever engine the
// store uses. The workers of other packages (ticketing, deadlines, webhooks)
// register here too, each with its time limit.
package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/mail"
	"github.com/voyage/voyage/pkg/store"
)

// Config tunes the queue.
type Config struct {
	Workers int
	// PollInterval is how often an idle queue looks for jobs on SQLite, whose
	// River driver cannot be woken by the database. On PostgreSQL instances
	// wake each other with LISTEN/NOTIFY and poll only as a fallback
	// (listenPollInterval).
	PollInterval    time.Duration
	CleanupInterval time.Duration
	// Retention keeps ended sessions this long so an old token still gets the
	// precise "expired" answer rather than "unknown".
	Retention time.Duration
	// RescueAfter is how long a job may stay running before it is taken for
	// one whose process died and is queued again (DefaultRescueAfter). It
	// must exceed every kind's timeout by rescueMargin.
	RescueAfter time.Duration
	// PostgresURL is the database's URL when the store is PostgreSQL: the
	// workers then connect through pgx, whose River driver listens for new
	// jobs. Empty keeps them on the store's own pool, polling.
	PostgresURL string
	// Mail delivers the email outbox; nil leaves emails pending.
	Mail         mail.Sender
	MailFrom     string
	MailInterval time.Duration
	// Register adds the workers of other packages (orders, webhooks) and
	// returns their periodic jobs, if any.
	Register []func(*Workers) []*river.PeriodicJob
	// Middleware runs around every insert and every job's work, on every
	// client (the tracing's spans, pkg/tracing).
	Middleware []rivertype.Middleware
}

// listenPollInterval is how often a PostgreSQL instance looks for jobs
// without being told: insert notifications are rate-limited per client, so
// a job committed just after a suppressed one waits at most this long.
const listenPollInterval = time.Second

// stopCancelWait is how long Stop waits for the jobs it cancelled, once its
// caller's time is up, to record their attempts.
const stopCancelWait = 2 * time.Second

// Job kinds' time limits in this package.
const (
	cleanupTimeout = 30 * time.Second
	mailTimeout    = 40 * time.Second
)

// Queue is the running River client.
type Queue struct {
	// Client queues jobs in the callers' database/sql transactions and
	// reads and retries jobs for the admin. On SQLite it also works them.
	Client *river.Client[*sql.Tx]
	// runner works the jobs: Client itself, or on PostgreSQL a client on
	// a pgx pool that can listen.
	runner interface {
		Start(context.Context) error
		Stop(context.Context) error
		StopAndCancel(context.Context) error
	}
	db       *store.DB
	pool     *pgxpool.Pool
	workers  *Workers
	rescue   time.Duration
	now      func() time.Time
	dialect  store.Dialect
	listener bool
	// stopLoops ends the running loops (Workers.Loop); loops is closed
	// when they have all returned.
	stopLoops context.CancelFunc
	loops     chan struct{}
	// consoles are the job consoles built on this queue (Console), whose
	// background work Close ends.
	consoles []*Console
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
	if cfg.RescueAfter <= 0 {
		cfg.RescueAfter = DefaultRescueAfter
	}
	workers := NewWorkers()
	Add(workers, &CleanupWorker{db: db, retention: cfg.Retention, now: time.Now}, cleanupTimeout)
	periodic := []*river.PeriodicJob{Every(cfg.CleanupInterval, CleanupArgs{})}
	if cfg.Mail != nil {
		Add(workers, &MailWorker{db: db, sender: cfg.Mail, from: cfg.MailFrom}, mailTimeout)
		periodic = append(periodic, Every(cfg.MailInterval, MailArgs{}))
	}
	for _, reg := range cfg.Register {
		periodic = append(periodic, reg(workers)...)
	}
	if longest := workers.Longest(); cfg.RescueAfter < longest+rescueMargin {
		return nil, fmt.Errorf("jobs: rescue_after %s must be at least %s: the longest job timeout (%s) and %s to record its end",
			cfg.RescueAfter, longest+rescueMargin, longest, rescueMargin)
	}
	q := &Queue{db: db, workers: workers, rescue: cfg.RescueAfter, now: time.Now, dialect: db.Dialect}
	runConfig := func(poll time.Duration) *river.Config {
		return &river.Config{
			Logger: slog.Default(),
			Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}},
			// A busy queue fetches again after the cooldown, at most as many
			// jobs as it has free workers: River's 100 ms default held
			// ticketing to ten jobs a tick, about 100 orders/s, behind what
			// the API books.
			FetchCooldown:        10 * time.Millisecond,
			FetchPollInterval:    poll,
			RescueStuckJobsAfter: cfg.RescueAfter,
			Workers:              workers.River(),
			PeriodicJobs:         periodic,
			Middleware:           cfg.Middleware,
		}
	}
	if db.Dialect != store.Postgres || cfg.PostgresURL == "" {
		client, err := river.NewClient(db.RiverDriver(), runConfig(cfg.PollInterval))
		if err != nil {
			return nil, fmt.Errorf("jobs: new river client: %w", err)
		}
		q.Client, q.runner = client, client
		return q, nil
	}

	pool, err := openPool(cfg.PostgresURL, cfg.Workers)
	if err != nil {
		return nil, err
	}
	runner, err := river.NewClient[pgx.Tx](riverpgxv5.New(pool), runConfig(listenPollInterval))
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("jobs: new river client (pgx): %w", err)
	}
	// The services queue jobs inside their own database/sql transactions, so
	// inserts go through an insert-only client on the store's pool. Its
	// driver cannot listen, but it can notify: every insert sends the
	// notification the runners listen for, delivered at the commit.
	inserter, err := river.NewClient(db.RiverDriver(), &river.Config{
		Logger:        slog.Default(),
		FetchCooldown: 10 * time.Millisecond,
		Workers:       workers.River(),
		Middleware:    cfg.Middleware,
	})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("jobs: new river client: %w", err)
	}
	q.Client, q.runner, q.pool, q.listener = inserter, runner, pool, true
	return q, nil
}

// openPool connects pgx to the store's database. lib/pq's own settings are
// left out: pgx would send them to the server as run-time parameters, which
// the server refuses.
func openPool(rawURL string, workers int) (*pgxpool.Pool, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("jobs: parse database URL: %w", err)
	}
	q := u.Query()
	for _, k := range []string{"binary_parameters", "disable_prepared_binary_result", "fallback_application_name"} {
		q.Del(k)
	}
	u.RawQuery = q.Encode()
	pc, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, fmt.Errorf("jobs: database URL: %w", err)
	}
	// Fetching, completing and the listener; the jobs' own queries go
	// through the store's pool.
	pc.MaxConns = int32(min(max(workers/5, 4), 20))
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return nil, fmt.Errorf("jobs: connect pgx: %w", err)
	}
	return pool, nil
}

// Listening reports whether the workers are woken by the database
// (PostgreSQL through pgx) rather than polling.
func (q *Queue) Listening() bool { return q.listener }

// RescueAfter is the queue's rescue time.
func (q *Queue) RescueAfter() time.Duration { return q.rescue }

// Start begins working jobs until Stop.
func (q *Queue) Start(ctx context.Context) error {
	if err := q.runner.Start(ctx); err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	if q.loops != nil {
		return nil
	}
	// The loops outlive ctx's values but not its end: Stop, or ctx
	// cancelled, ends them.
	lctx, cancel := context.WithCancel(ctx)
	// The channel, not the field: a Stop that gave up waiting clears the
	// field while these loops are still ending.
	done := make(chan struct{})
	q.stopLoops, q.loops = cancel, done
	var wg sync.WaitGroup
	for _, run := range q.workers.loops {
		wg.Go(func() { run(lctx) })
	}
	go func() { wg.Wait(); close(done) }()
	return nil
}

// Stop stops fetching new jobs and waits for running ones to finish, or for
// ctx to end (River's soft stop); the jobs still running then are cancelled.
func (q *Queue) Stop(ctx context.Context) error {
	// The loops end beside the runner, not after it: a runner slow to
	// stop would leave them no time before ctx ends.
	if q.loops != nil {
		q.stopLoops()
	}
	err := q.runner.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		// The jobs still running past the caller's time are cancelled, so
		// each records its attempt as failed and is retried at once on
		// another instance, instead of being rescued only after
		// rescue_after.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopCancelWait)
		if cerr := q.runner.StopAndCancel(cctx); cerr != nil {
			slog.Warn("jobs: cancel the jobs still running at stop", "err", cerr)
		}
		cancel()
	}
	if q.loops != nil {
		select {
		case <-q.loops:
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
		}
		q.loops = nil
	}
	q.Close()
	if err != nil {
		return fmt.Errorf("jobs: stop: %w", err)
	}
	return nil
}

// Close releases the pgx pool of a queue that was never started (Stop does
// it otherwise).
func (q *Queue) Close() {
	for _, c := range q.consoles {
		c.close()
	}
	if q.pool != nil {
		q.pool.Close()
	}
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
