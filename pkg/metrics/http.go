package metrics

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/voyage/voyage/pkg/server"
)

// routeKey carries the slot the mux's pattern is written into.
type routeKey struct{}

// routeSlot is where Routed leaves the pattern that served a request, for
// HTTP, which runs outside the mux (and outside the middlewares that copy
// the request) and so never sees the request the mux matched.
type routeSlot struct{ pattern string }

// HTTP counts and times every request. It is the outermost middleware, so
// that a request refused before the mux (a rate limit, a cross-origin
// post, a panic) is counted too. mux is the server's mux wrapped in Routed,
// whose Handler answers the pattern of a request that never reached it.
func (m *Metrics) HTTP(mux *http.ServeMux) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if m == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			slot := &routeSlot{}
			rec := &server.StatusRecorder{ResponseWriter: w}
			defer func() {
				// Counted even when a handler panics past Recover (an
				// aborted response): the deferred call still runs.
				pattern := slot.pattern
				if pattern == "" {
					// Answered before the mux: the route it would have
					// taken.
					_, pattern = mux.Handler(r)
				}
				s := m.httpSeries(routeOf(pattern), methodOf(r.Method), rec.Status())
				s.requests.Inc()
				s.duration.Observe(time.Since(start).Seconds())
			}()
			next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), routeKey{}, slot)))
		})
	}
}

// httpKey names one route, method and status code's series.
type httpKey struct {
	route, method string
	code          int
}

// httpPair are a key's counter and histogram.
type httpPair struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// httpSeries are key's instruments, looked up once per key: the vectors
// hash their label values on every lookup, and the code's label is a
// string to make.
func (m *Metrics) httpSeries(route, method string, code int) *httpPair {
	k := httpKey{route, method, code}
	if p, ok := m.httpCache.Load(k); ok {
		return p.(*httpPair)
	}
	p := &httpPair{requests: m.httpRequests.WithLabelValues(route, method, codeOf(code)),
		duration: m.httpDuration.WithLabelValues(route, method, classOf(code))}
	actual, _ := m.httpCache.LoadOrStore(k, p)
	return actual.(*httpPair)
}

// Routed wraps the mux: once it has served a request, the pattern it
// matched is left for HTTP. Without metrics it is the mux.
func (m *Metrics) Routed(mux http.Handler) http.Handler {
	if m == nil {
		return mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		if slot, ok := r.Context().Value(routeKey{}).(*routeSlot); ok {
			slot.pattern = r.Pattern
		}
	})
}

// routeOf is a pattern's path ("GET /order/v2/flight/orders/{id}" →
// "/order/v2/flight/orders/{id}"): the method is a label of its own. No
// pattern (no route matched) is Other.
func routeOf(pattern string) string {
	if pattern == "" {
		return Other
	}
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		pattern = strings.TrimLeft(pattern[i+1:], " \t")
	}
	return pattern
}

// methodOf bounds the method label to the standard methods.
func methodOf(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
		http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return Other
}

func codeOf(code int) string {
	if code < 100 || code > 599 {
		return Other
	}
	return strconv.Itoa(code)
}

func classOf(code int) string {
	if code < 100 || code > 599 {
		return Other
	}
	return strconv.Itoa(code/100) + "xx"
}
