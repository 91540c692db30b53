package metrics

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// JobCount is how many jobs of a kind are in a state.
type JobCount struct {
	Kind, State string
	Count       int64
}

// Probes read the state of the whole deployment from the database when
// Prometheus scrapes: every instance answers the same figures, so an
// alert on them holds across instances (take max() of them, not sum()).
// Each is one indexed query; a nil probe is not asked.
type Probes struct {
	// Jobs are the River jobs waiting or running, by kind and state, and
	// how long the oldest job due has waited past its time (zero when
	// none waits).
	Jobs func(ctx context.Context) ([]JobCount, time.Duration, error)
	// SettlementLag is how long the oldest channel payment still pending
	// has been past its window (zero when none is): the status checks and
	// the reconcile job should have settled or closed it.
	SettlementLag func(ctx context.Context) (time.Duration, error)
	// LedgerImbalance is, per currency, the sum of every ledger account's
	// balance, which double entry keeps at zero.
	LedgerImbalance func(ctx context.Context) (map[string]int64, error)
	// Timeout bounds one scrape's queries (5 s when zero).
	Timeout time.Duration
}

var (
	jobsDesc = prometheus.NewDesc("voyage_jobs",
		"River jobs not finished, by kind and state (available, running, retryable, scheduled), across every instance.",
		[]string{"kind", "state"}, nil)
	jobsAgeDesc = prometheus.NewDesc("voyage_jobs_oldest_due_age_seconds",
		"How long the oldest River job due (available, or scheduled or retryable past its time) has waited past its scheduled time (0 when none waits).", nil, nil)
	lagDesc = prometheus.NewDesc("voyage_payment_settlement_lag_seconds",
		"How long the oldest channel payment still pending has been past its window (0 when none is).", nil, nil)
	imbalanceDesc = prometheus.NewDesc("voyage_ledger_imbalance_minor_units",
		"Sum of every ledger account's balance in a currency, in minor units; double entry keeps it at 0.",
		[]string{"currency"}, nil)
	probeErrorsDesc = prometheus.NewDesc("voyage_probe_errors",
		"1 when a database probe failed in this scrape (its figures are then missing), by probe.", []string{"probe"}, nil)
)

// Watch registers the database probes and the pool's statistics of db
// (connections open, in use, waits).
func (m *Metrics) Watch(db *sql.DB, p Probes) {
	if m == nil {
		return
	}
	m.reg.MustRegister(collectors.NewDBStatsCollector(db, "voyage"), &probeCollector{p: p})
}

type probeCollector struct{ p Probes }

func (c *probeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- jobsDesc
	ch <- jobsAgeDesc
	ch <- lagDesc
	ch <- imbalanceDesc
	ch <- probeErrorsDesc
}

func (c *probeCollector) Collect(ch chan<- prometheus.Metric) {
	timeout := c.p.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	failed := func(probe string, err error) {
		slog.WarnContext(ctx, "metrics: probe failed", "probe", probe, "err", err)
		ch <- prometheus.MustNewConstMetric(probeErrorsDesc, prometheus.GaugeValue, 1, probe)
	}
	if c.p.Jobs != nil {
		if counts, age, err := c.p.Jobs(ctx); err != nil {
			failed("jobs", err)
		} else {
			// Two kinds with one bucketed name would be one series twice.
			sums := map[[2]string]int64{}
			for _, j := range counts {
				sums[[2]string{Name(j.Kind), Name(j.State)}] += j.Count
			}
			for k, n := range sums {
				ch <- prometheus.MustNewConstMetric(jobsDesc, prometheus.GaugeValue, float64(n), k[0], k[1])
			}
			ch <- prometheus.MustNewConstMetric(jobsAgeDesc, prometheus.GaugeValue, age.Seconds())
		}
	}
	if c.p.SettlementLag != nil {
		if lag, err := c.p.SettlementLag(ctx); err != nil {
			failed("settlement_lag", err)
		} else {
			ch <- prometheus.MustNewConstMetric(lagDesc, prometheus.GaugeValue, lag.Seconds())
		}
	}
	if c.p.LedgerImbalance != nil {
		if sums, err := c.p.LedgerImbalance(ctx); err != nil {
			failed("ledger_imbalance", err)
		} else {
			byLabel := map[string]int64{}
			for cur, sum := range sums {
				if !currencyRE(cur) {
					cur = Other
				}
				byLabel[cur] += sum
			}
			for cur, sum := range byLabel {
				ch <- prometheus.MustNewConstMetric(imbalanceDesc, prometheus.GaugeValue, float64(sum), cur)
			}
		}
	}
}

// currencyRE is an ISO 4217 code's shape.
func currencyRE(c string) bool {
	if len(c) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if c[i] < 'A' || c[i] > 'Z' {
			return false
		}
	}
	return true
}
