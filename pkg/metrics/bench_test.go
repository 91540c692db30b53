package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/voyage/voyage/pkg/metrics"
)

// BenchmarkHTTP is what counting costs one request: a mux with one
// pattern route served with metrics off (the baseline: a nil *Metrics, as
// without metrics.addr) and on. Run with -count to interleave them.
func BenchmarkHTTP(b *testing.B) {
	for _, c := range []struct {
		name string
		m    *metrics.Metrics
	}{{"off", nil}, {"on", metrics.New()}} {
		b.Run(c.name, func(b *testing.B) {
			mux := http.NewServeMux()
			mux.HandleFunc("GET /order/v2/flight/orders/{id}", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
			h := c.m.HTTP(mux)(c.m.Routed(mux))
			r := httptest.NewRequest("GET", "/order/v2/flight/orders/42", nil)
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, r)
			}
		})
	}
}
