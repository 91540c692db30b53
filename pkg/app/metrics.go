package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/metrics"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
)

// newMetrics is the app's own registry when metrics.addr is set, else nil
// (every hook then counts nothing and costs a nil check).
func newMetrics(addr string) *metrics.Metrics {
	if addr == "" {
		return nil
	}
	return metrics.New()
}

// countSuppliers has every supplier call of sources counted (the seam all
// of shopping's, the lines' and the post-sale steps' calls go through).
func (a *App) countSuppliers(sources map[string]shopping.Source) {
	if a.Metrics == nil {
		return
	}
	for name, s := range sources {
		s.Supplier = a.Metrics.Supplier(name, s.Supplier)
		sources[name] = s
	}
}

// searchCounter is shopping's admission hook, nil without metrics.
func (a *App) searchCounter() func(admitted bool) {
	if a.Metrics == nil {
		return nil
	}
	return a.Metrics.Searched
}

// lineCounter is what the product lines count their bookings, payments and
// refunds through, nil without metrics.
func (a *App) lineCounter() booking.Counter {
	if a.Metrics == nil {
		return nil
	}
	return a.Metrics
}

// watch counts the ledger's transfers and registers what is read from the
// database at scrape time: the pool, the job queue, the payments waiting
// to settle, the ledger's balance.
func (a *App) watch() {
	if a.Metrics == nil {
		return
	}
	a.Ledger.OnPosted(a.Metrics.Transferred)
	a.Metrics.Watch(a.DB.DB.DB, metrics.Probes{
		Jobs: func(ctx context.Context) ([]metrics.JobCount, time.Duration, error) {
			waiting, age, err := a.Queue.Backlog(ctx, time.Now())
			out := make([]metrics.JobCount, len(waiting))
			for i, w := range waiting {
				out[i] = metrics.JobCount{Kind: w.Kind, State: w.State, Count: w.Count}
			}
			return out, age, err
		},
		SettlementLag: func(ctx context.Context) (time.Duration, error) {
			return payment.SettlementLag(ctx, a.DB, time.Now())
		},
		LedgerImbalance: a.Ledger.Imbalance,
	})
}

// serveMetrics serves /metrics on metrics.addr, apart from the public
// port, until the returned stop is called; nothing without metrics.
func (a *App) serveMetrics(ctx context.Context) (stop func(), err error) {
	if a.Metrics == nil {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", a.Cfg.Metrics.Addr)
	if err != nil {
		return nil, fmt.Errorf("app: listen for metrics on %s: %w", a.Cfg.Metrics.Addr, err)
	}
	a.metricsAddr.Store(ln.Addr().String())
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.Metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: a.Cfg.HTTP.ReadHeaderTimeout, WriteTimeout: a.Cfg.HTTP.WriteTimeout,
		ErrorLog: slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn), BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("metrics server stopped", "err", err)
		}
	}()
	slog.Info("voyage metrics", "addr", "http://"+ln.Addr().String()+"/metrics")
	// Stopped last, after the public server and the jobs: a scrape during
	// the shutdown still answers.
	return func() { _ = srv.Close() }, nil
}

// MetricsAddr is the address the metrics are served at once Serve has
// started (empty without metrics): the bound port when metrics.addr asked
// for port 0.
func (a *App) MetricsAddr() string {
	addr, _ := a.metricsAddr.Load().(string)
	return addr
}
