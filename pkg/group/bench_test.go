package group

import (
	"bytes"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/group/grouptest"
)

// BenchmarkParseList500 validates an uploaded list of 500 passengers (400
// adults, 100 children), the largest group: time per upload, allocations,
// and the peak heap while parsing (heap-peak-MB, sampled every 100µs above
// the heap before the loop).
func BenchmarkParseList500(b *testing.B) {
	o := testOrder
	o.Counts = Counts{Adult: 400, Child: 100}
	data := grouptest.Workbook(b, listRows(400, 100, 0))
	s := New(Options{})
	b.ReportMetric(float64(len(data))/1024, "file-kB")
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ps, err := s.ParseList(bytes.NewReader(data), int64(len(data)), o, 0, listDay)
		if err != nil || len(ps) != 500 {
			b.Fatalf("%d passengers, %v", len(ps), err)
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	if p := peak.Load(); p > base {
		b.ReportMetric(float64(p-base)/(1<<20), "heap-peak-MB")
	}
}
