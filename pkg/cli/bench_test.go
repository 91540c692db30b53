package cli

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// BenchmarkStatementsExport exports CSV statements for N agencies with 100
// wallet entries each (SQLite) and reports the time and the peak heap. The
// export streams one agency at a time, so the peak must not grow with N.
func BenchmarkStatementsExport(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("agencies=%d/entries=100", n), func(b *testing.B) {
			ctx := context.Background()
			cfg, err := config.Load("", nil)
			if err != nil {
				b.Fatal(err)
			}
			cfg.DB = storetest.DSN(b, store.SQLite)
			a, err := app.New(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			seedEntries(b, a, n, 100)
			backend, err := admin.NewLocal(ctx, a, "bench")
			if err != nil {
				b.Fatal(err)
			}
			from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)
			var peak atomic.Uint64
			b.ResetTimer()
			for b.Loop() {
				runtime.GC()
				stop := sampleHeap(&peak)
				opts := statementsOpts{all: true, format: "csv", out: b.TempDir(), lang: "en", create: true}
				count, _, err := runStatements(ctx, backend, opts, from, to, true, func(statementLine, int, int) error { return nil })
				stop()
				if err != nil || count != n {
					b.Fatalf("exported %d of %d: %v", count, n, err)
				}
			}
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
		})
	}
}

// sampleHeap records the largest live heap until stop is called.
func sampleHeap(peak *atomic.Uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// seedEntries creates n agencies under a provider, each with `per` top-ups
// written straight into the ledger tables with their running balances.
func seedEntries(b *testing.B, a *app.App, n, per int) int64 {
	ctx := context.Background()
	var providerID int64
	st := agency.NewStore(a.DB)
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	err := a.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		p, err := st.Create(ctx, tx, agency.New{Name: "Provider"})
		if err != nil {
			return err
		}
		providerID = p.ID
		var funding int64
		if err := tx.GetContext(ctx, &funding, `INSERT INTO ledger_accounts (kind, currency, created_at, updated_at) VALUES ('funding', 'CNY', ?, ?) RETURNING id`, at, at); err != nil {
			return err
		}
		var fundingBal int64
		for i := 0; i < n; i++ {
			ag, err := st.Create(ctx, tx, agency.New{ParentID: &p.ID, Name: fmt.Sprint("Agency ", i)})
			if err != nil {
				return err
			}
			var wallet int64
			if err := tx.GetContext(ctx, &wallet, `INSERT INTO ledger_accounts (agency_id, kind, currency, created_at, updated_at) VALUES (?, 'wallet', 'CNY', ?, ?) RETURNING id`, ag.ID, at, at); err != nil {
				return err
			}
			var bal int64
			for j := 0; j < per; j++ {
				amt := int64(100_00 + j)
				bal += amt
				fundingBal -= amt
				if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_transfers (agency_id, idempotency_key, request_hash, from_account, to_account, amount,
					currency, payment_type, reference, description, from_balance, to_balance, created_at) VALUES (?, ?, 'h', ?, ?, ?, 'CNY', 'top-up', ?, 'top-up', ?, ?, ?)`,
					ag.ID, fmt.Sprint("k", j), funding, wallet, amt, fmt.Sprint("REF-", j), fundingBal, bal, at.Add(time.Duration(j)*time.Minute)); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE ledger_accounts SET balance = ? WHERE id = ?`, bal, wallet); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE ledger_accounts SET balance = ? WHERE id = ?`, fundingBal, funding)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return providerID
}
