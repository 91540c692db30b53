package ledger_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/benchprof"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// BenchmarkTransfers posts wallet payments with balance limits and
// idempotency keys on, from 1 or 16 concurrent writers, over 10 (hot) or
// 1,000 (spread) agency wallets, and reports transfers per second and the
// 99th percentile latency of one Post.
func BenchmarkTransfers(b *testing.B) {
	for _, d := range storetest.Engines {
		modes := []bool{false}
		if d == store.Postgres {
			modes = append(modes, true)
		}
		for _, batched := range modes {
			for _, accounts := range []int{10, 1000} {
				for _, writers := range []int{1, 16} {
					name := fmt.Sprintf("%s/writers=%d/accounts=%d", d, writers, accounts)
					if batched {
						name += "/group-commit"
					}
					b.Run(name, func(b *testing.B) { benchTransfers(b, d, writers, accounts, batched) })
				}
			}
		}
	}
}

func benchTransfers(b *testing.B, d store.Dialect, writers, accounts int, batched bool) {
	ctx := context.Background()
	db := storetest.Open(b, d)
	if d == store.Postgres {
		db.SetMaxOpenConns(writers + 4)
	}
	l := ledger.New(db)
	ids := agencies(b, db, accounts)
	for _, id := range ids {
		mustPost(b, ctx, l, topUp(id, "seed", 1_000_000_000_00))
		if err := l.SetCreditLimit(ctx, id, "CNY", 1000_00); err != nil {
			b.Fatal(err)
		}
	}
	if batched {
		stop := l.StartBatching(64)
		defer stop()
	}
	var next atomic.Int64
	latencies := make([][]time.Duration, writers)
	stopProfile := benchprof.Start(b)
	cpu0 := benchprof.ReadCPU()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				n := next.Add(1)
				if n > int64(b.N) {
					return
				}
				id := ids[int(n)%len(ids)]
				t0 := time.Now()
				if _, err := l.Post(ctx, pay(id, fmt.Sprint("b", n), 1_00)); err != nil {
					b.Error(err)
					return
				}
				latencies[w] = append(latencies[w], time.Since(t0))
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	reportTransfers(b, slices.Concat(latencies...), elapsed, cpu0.Since())
	stopProfile()
}

// reportTransfers reports transfers per second, the 99th percentile
// latency, and the CPU each transfer cost the machine (this process and
// the database server) and this process alone.
func reportTransfers(b *testing.B, latencies []time.Duration, elapsed time.Duration, cpu benchprof.CPU) {
	if len(latencies) == 0 {
		return
	}
	slices.Sort(latencies)
	n := float64(len(latencies))
	b.ReportMetric(n/elapsed.Seconds(), "transfers/s")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(cpu.Machine.Microseconds())/n, "cpu-µs/transfer")
	b.ReportMetric(float64(cpu.Process.Microseconds())/n, "go-cpu-µs/transfer")
}
