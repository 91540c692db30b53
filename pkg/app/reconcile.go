package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/payment"
)

// Reconciler is finance's daily channel reconciliation (the portal's
// /bills/reconciliation, `voyage payments reconcile`, the daily job): its
// days are the provider's, on the provider agency's clock (booking.Zone).
func (a *App) Reconciler() payment.Reconciler {
	return payment.Reconciler{DB: a.DB, Ledger: a.Ledger, Zone: a.providerZone}
}

// providerZone is the provider agency's time zone; DefaultZone's until the
// provider exists.
func (a *App) providerZone(ctx context.Context) (*time.Location, error) {
	p, err := a.Agencies.Provider(ctx)
	if err != nil && fault.From(err).Code != fault.CodeNotFound {
		return nil, err
	}
	return booking.Zone(p), nil
}

// reconcileDayEvery is how often the daily reconciliation runs: once a
// day (and when an instance starts, once per day at most).
const reconcileDayEvery = 24 * time.Hour

// reconcileDayArgs is the daily reconciliation of the provider's previous
// day.
type reconcileDayArgs struct{}

// Kind implements river.JobArgs.
func (reconcileDayArgs) Kind() string { return "payment_reconcile_day" }

// InsertOpts: one run per day (booking.SweepOpts).
func (reconcileDayArgs) InsertOpts() river.InsertOpts { return booking.SweepOpts(reconcileDayEvery) }

// dailyReconciliation registers the daily reconciliation's worker and its
// periodic job.
func (a *App) dailyReconciliation(w *jobs.Workers) *river.PeriodicJob {
	return jobs.AddSweep(w, 30*time.Second, reconcileDayEvery, reconcileDayArgs{}, func(ctx context.Context) (int, error) {
		return a.ReconcileYesterday(ctx, slog.Default())
	})
}

// ReconcileYesterday reconciles the provider's previous day and reports
// its differences (ReportDifferences). It answers their number.
func (a *App) ReconcileYesterday(ctx context.Context, log *slog.Logger) (int, error) {
	day, err := a.Reconciler().Yesterday(ctx)
	if err != nil {
		return 0, err
	}
	return a.ReportDifferences(ctx, log, day)
}

// ReportDifferences reconciles day (YYYY-MM-DD on the provider's clock)
// and, when it holds differences, logs them at ERROR with their counts by
// flag, so an alert on the log fires; a clean day logs nothing. It answers
// the number of differences.
func (a *App) ReportDifferences(ctx context.Context, log *slog.Logger, day string) (int, error) {
	rec, err := a.Reconciler().Day(ctx, day)
	if err != nil {
		return 0, err
	}
	if rec.Differences == 0 {
		return 0, nil
	}
	counts := rec.CountFlags()
	attrs := []any{"date", rec.Date, "zone", rec.Zone.String(), "differences", rec.Differences, "transactions", len(rec.Rows),
		"truncated", rec.Truncated}
	for _, f := range payment.Flags {
		if f != payment.FlagMatched {
			attrs = append(attrs, f, counts[f])
		}
	}
	log.ErrorContext(ctx, "payment: the daily channel reconciliation found differences (see /bills/reconciliation)", attrs...)
	return rec.Differences, nil
}
