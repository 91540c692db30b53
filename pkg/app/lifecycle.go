package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/jobs"
)

// Readiness and graceful shutdown. /healthz is liveness: the process
// answers. /readyz says whether this instance should be sent traffic: not
// while it drains, not while its database does not answer, and not while
// the database's schema is behind the migrations this binary embeds.

// readyPingTimeout bounds each of the probe's two database questions: a
// database that does not answer within it counts as unreachable, well
// inside a load balancer's check timeout (2 s in scripts/cluster.sh).
const readyPingTimeout = time.Second

// Readiness reasons, in /readyz's "reason" field.
const (
	reasonDraining         = "draining"
	reasonDatabase         = "database_unreachable"
	reasonMigrationsBehind = "migrations_behind"
)

// closeWhileDraining answers with Connection: close once the instance
// drains, so that a client or balancer holding a keep-alive connection
// opens its next one elsewhere. Idle connections are left open until the
// drain delay ends: closing them at once could race a request a balancer
// sends before its next check sees the 503.
func (a *App) closeWhileDraining(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.draining.Load() {
			w.Header().Set("Connection", "close")
		}
		next.ServeHTTP(w, r)
	})
}

// readiness is /readyz's answer.
type readiness struct {
	Ready bool `json:"ready"`
	// Reason says why not: draining, database_unreachable or
	// migrations_behind.
	Reason string `json:"reason,omitempty"`
	// Migrations are the newest migration applied to the database and the
	// newest this binary embeds, when the database answered.
	Migrations *migrationVersions `json:"migrations,omitempty"`
}

type migrationVersions struct {
	Database int64 `json:"database"`
	Binary   int64 `json:"binary"`
}

// Draining reports whether the instance was told to stop.
func (a *App) Draining() bool { return a.draining.Load() }

// ready answers 200 when the instance should take traffic and 503 with the
// reason when not. A database ahead of the binary is ready: during a
// rolling upgrade the new release migrates first and the old instances keep
// serving until their turn (migrations must keep the previous release
// working, docs/OPERATIONS.md).
func (a *App) ready(w http.ResponseWriter, r *http.Request) {
	answer := func(status int, body readiness) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	}
	if a.draining.Load() {
		answer(http.StatusServiceUnavailable, readiness{Reason: reasonDraining})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), readyPingTimeout)
	err := a.DB.PingContext(ctx)
	cancel()
	if err != nil {
		slog.WarnContext(r.Context(), "readiness: database unreachable", "err", err)
		answer(http.StatusServiceUnavailable, readiness{Reason: reasonDatabase})
		return
	}
	ctx, cancel = context.WithTimeout(r.Context(), readyPingTimeout)
	have, want, err := a.DB.MigrationVersions(ctx)
	cancel()
	if err != nil {
		slog.WarnContext(r.Context(), "readiness: read the migration version", "err", err)
		answer(http.StatusServiceUnavailable, readiness{Reason: reasonDatabase})
		return
	}
	versions := &migrationVersions{Database: have, Binary: want}
	if have < want {
		answer(http.StatusServiceUnavailable, readiness{Reason: reasonMigrationsBehind, Migrations: versions})
		return
	}
	answer(http.StatusOK, readiness{Ready: true, Migrations: versions})
}

// shutdown drains the instance and stops it: /readyz answers 503 at once;
// for http.drain_delay the server goes on accepting and serving (a load
// balancer checking /readyz takes it out meanwhile, and a request it still
// sends is answered, not refused); then the listener closes, River stops
// fetching jobs, and the requests in flight and the running jobs get
// http.shutdown_grace to finish. It returns nil, so the process exits 0,
// unless a request had to be cut off (jobs cut off are retried elsewhere).
func (a *App) shutdown(srv *http.Server, errc <-chan error, queue *jobs.Queue) error {
	a.draining.Store(true)
	drain, grace := a.Cfg.HTTP.DrainDelay, a.Cfg.HTTP.ShutdownGrace
	slog.Info("draining: /readyz answers 503", "drain_delay", drain, "shutdown_grace", grace)
	if drain > 0 {
		after := a.drainTimer
		if after == nil {
			after = time.After
		}
		select {
		case <-after(drain):
		case err := <-errc:
			// The server failed while draining: nothing more to wait for.
			slog.Error("server failed while draining", "err", err)
		}
	}

	slog.Info("shutting down: no new connections; finishing requests and jobs", "shutdown_grace", grace)
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	jobsDone := make(chan error, 1)
	if queue != nil {
		// River's soft stop: no new job is fetched, the running ones
		// finish (alongside the requests, within the same grace).
		go func() { jobsDone <- queue.Stop(ctx) }()
	} else {
		jobsDone <- nil
	}
	var errs []error
	if err := srv.Shutdown(ctx); err != nil {
		// Past the grace: the requests still running are cut off.
		_ = srv.Close()
		errs = append(errs, fmt.Errorf("app: requests still running after the %s shutdown grace were cut off: %w", grace, err))
	}
	switch err := <-jobsDone; {
	case errors.Is(err, context.DeadlineExceeded):
		// A job past the grace was cancelled and its attempt recorded:
		// River runs it again on another instance, so nothing is lost and
		// the stop still counts as clean. (A job may run up to 45 s, longer
		// than a sensible grace.)
		slog.Warn("jobs still running at the end of the shutdown grace were cancelled; they are retried", "shutdown_grace", grace)
	case err != nil:
		errs = append(errs, err)
	}
	if len(errs) == 0 && a.Shopping != nil {
		// A search keeps calling its suppliers after the request that
		// started it answered, and its client pages it through other
		// instances: it gets the rest of the grace to finish and store its
		// answers (Close cancels what is left). No search starts now that
		// the server is shut.
		searches := make(chan struct{})
		go func() { a.Shopping.Wait(); close(searches) }()
		select {
		case <-searches:
		case <-ctx.Done():
			slog.Warn("searches still running after the shutdown grace are cancelled")
		}
	}
	if len(errs) > 0 {
		slog.Error("stopped before everything finished", "err", errors.Join(errs...))
		return errors.Join(errs...)
	}
	slog.Info("stopped: every request and job finished")
	return nil
}
