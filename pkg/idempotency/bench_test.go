package idempotency_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// BenchmarkAcquireRelease is what the lock adds to a request with an
// Idempotency-Key: an acquire and a release of a fresh key (the first
// request's path: one upsert, one delete), from 1 or 16 callers at once, on
// each engine. ns/op is the wall time per lock with that many callers.
func BenchmarkAcquireRelease(b *testing.B) {
	for _, d := range storetest.Engines {
		for _, callers := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/callers=%d", d, callers), func(b *testing.B) {
				db := storetest.Open(b, d)
				if d == store.Postgres {
					db.SetMaxOpenConns(callers + 4)
				}
				l := idempotency.New(db)
				ctx := context.Background()
				var n atomic.Int64
				if callers == 1 {
					for b.Loop() {
						release, err := l.Acquire(ctx, "agency:1", fmt.Sprint("key-", n.Add(1)))
						if err != nil {
							b.Fatal(err)
						}
						release()
					}
					return
				}
				b.SetParallelism(max(1, callers/runtime.GOMAXPROCS(0)))
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						release, err := l.Acquire(ctx, "agency:1", fmt.Sprint("key-", n.Add(1)))
						if err != nil {
							b.Error(err)
							return
						}
						release()
					}
				})
			})
		}
	}
}
