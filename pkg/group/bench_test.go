package group

import (
	"bytes"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/benchprof"
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
	stopWatch := benchprof.WatchHeap(100 * time.Microsecond)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ps, err := s.ParseList(bytes.NewReader(data), int64(len(data)), o, 0, listDay)
		if err != nil || len(ps) != 500 {
			b.Fatalf("%d passengers, %v", len(ps), err)
		}
	}
	b.StopTimer()
	if p := stopWatch(); p > 0 {
		b.ReportMetric(float64(p)/(1<<20), "heap-peak-MB")
	}
}
