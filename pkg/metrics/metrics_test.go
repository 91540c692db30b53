package metrics_test

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"gopkg.in/yaml.v3"
	_ "modernc.org/sqlite" // the pool the DBStats collector reads

	"github.com/voyage/voyage/pkg/metrics"
	"github.com/voyage/voyage/pkg/metrics/metricstest"
	"github.com/voyage/voyage/pkg/supplier"
)

// everything is a Metrics with every instrument used once and every probe
// answering, and what it gathers by name.
func everything(t *testing.T) (*metrics.Metrics, map[string]*dto.MetricFamily) {
	t.Helper()
	m := metrics.New()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	m.Watch(db, metrics.Probes{
		Jobs: func(context.Context) ([]metrics.JobCount, time.Duration, error) {
			return []metrics.JobCount{{Kind: "order_ticket", State: "retryable", Count: 3}}, time.Minute, nil
		},
		SettlementLag:   func(context.Context) (time.Duration, error) { return 0, nil },
		LedgerImbalance: func(context.Context) (map[string]int64, error) { return map[string]int64{"CNY": 0}, nil },
	})
	m.Searched(true)
	m.Booked("flight", "", "ok")
	m.Paid("flight", "balance", "ok")
	m.Refunded("train", "balance", "ok")
	m.Transferred("top-up")
	_, _ = m.Supplier("gds", fakeSupplier{}).Search(context.Background(), supplier.SearchRequest{})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /x", func(http.ResponseWriter, *http.Request) {})
	m.HTTP(mux)(m.Routed(mux)).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil))
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		out[f.GetName()] = f
	}
	// A probe that fails shows as such.
	failing := metrics.New()
	failing.Watch(db, metrics.Probes{SettlementLag: func(context.Context) (time.Duration, error) { return 0, errors.New("down") }})
	ff, err := failing.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ff {
		out[f.GetName()] = f
	}
	return m, out
}

// fakeSupplier answers searches as told, in the test's goroutine.
type fakeSupplier struct {
	supplier.Supplier
	err error
}

func (f fakeSupplier) Name() string { return "fake" }
func (f fakeSupplier) Search(ctx context.Context, _ supplier.SearchRequest) ([]supplier.Offer, error) {
	return nil, f.err
}

// TestLabelsAreBounded: a value that is not a name from code or
// configuration (an id, a number, someone's text) becomes "other".
func TestLabelsAreBounded(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"flight", "flight"},
		{"origin-flight", "origin-flight"},
		{"payment_channel_refund", "payment_channel_refund"},
		{"F26120300000042", "other"},
		{"train-12", "other"},
		{"demo operator", "other"},
		{"", "other"},
		{"Alipay", "other"},
		{strings.Repeat("a", 41), "other"},
	} {
		if got := metrics.Name(c.in); got != c.want {
			t.Errorf("Name(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSupplierOutcomes: each way a supplier call ends has its outcome.
func TestSupplierOutcomes(t *testing.T) {
	m := metrics.New()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want string
	}{
		{context.Background(), nil, "ok"},
		{context.Background(), errors.New("502 from the GDS"), "error"},
		{context.Background(), context.DeadlineExceeded, "timeout"},
		{cancelled, errors.New("request aborted"), "canceled"},
	} {
		_, _ = m.Supplier("ndc", fakeSupplier{err: c.err}).Search(c.ctx, supplier.SearchRequest{})
		fams, _ := m.Registry().Gather()
		if got := value(fams, "voyage_supplier_calls_total", map[string]string{"supplier": "ndc", "operation": "search", "outcome": c.want}); got != 1 {
			t.Errorf("%v: %s calls counted %v, want 1", c.err, c.want, got)
		}
	}
}

// TestRoutes: a request is counted under its mux pattern, whether the mux
// served it or a middleware answered first; one no route takes under
// "other".
func TestRoutes(t *testing.T) {
	m := metrics.New()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /orders/{id}", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusAccepted) })
	refuse := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Refuse") != "" {
				// A middleware answering before the mux, on a copy of
				// the request as most do.
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), struct{}{}, 1)))
		})
	}
	h := m.HTTP(mux)(refuse(m.Routed(mux)))
	for _, r := range []*http.Request{httptest.NewRequest("GET", "/orders/123", nil), httptest.NewRequest("GET", "/orders/9", nil),
		httptest.NewRequest("GET", "/orders/77", nil), httptest.NewRequest("BREW", "/nowhere/5", nil)} {
		if r.URL.Path == "/orders/77" {
			r.Header.Set("Refuse", "1")
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	fams, _ := m.Registry().Gather()
	for _, c := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"route": "/orders/{id}", "method": "GET", "code": "202"}, 2},
		{map[string]string{"route": "/orders/{id}", "method": "GET", "code": "429"}, 1},
		{map[string]string{"route": "other", "method": "other", "code": "404"}, 1},
	} {
		if got := value(fams, "voyage_http_requests_total", c.labels); got != c.want {
			t.Errorf("%v: %v, want %v", c.labels, got, c.want)
		}
	}
	if got := value(fams, "voyage_http_request_duration_seconds", map[string]string{"route": "/orders/{id}", "status": "2xx"}); got != 2 {
		t.Errorf("2xx durations observed %v, want 2", got)
	}
}

// TestNilCountsNothing: without metrics every hook is safe to call.
func TestNilCountsNothing(t *testing.T) {
	var m *metrics.Metrics
	m.Searched(true)
	m.Booked("flight", "", "ok")
	m.Paid("flight", "balance", "ok")
	m.Refunded("flight", "balance", "ok")
	m.Transferred("top-up")
	s := fakeSupplier{}
	if got := m.Supplier("gds", s); got != supplier.Supplier(s) {
		t.Error("a supplier was wrapped without metrics")
	}
	mux := http.NewServeMux()
	if m.Routed(mux) != http.Handler(mux) {
		t.Error("the mux was wrapped without metrics")
	}
}

// rule is one alert of docs/alerts/voyage-rules.yml.
type rule struct {
	Alert       string            `yaml:"alert"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// TestAlertRules checks the shipped alert rules as far as promtool's
// absence allows: the file is Prometheus' rule-file shape, every alert has
// a severity, a summary and a duration, its brackets balance, and every
// metric and label it names is one these instruments serve.
func TestAlertRules(t *testing.T) {
	raw, err := os.ReadFile("../../docs/alerts/voyage-rules.yml")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Groups []struct {
			Name  string `yaml:"name"`
			Rules []rule `yaml:"rules"`
		} `yaml:"groups"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("voyage-rules.yml: %v", err)
	}
	_, fams := everything(t)
	names := regexp.MustCompile(`\b((?:voyage|go_sql)_[a-z_]+)(\{[^}]*\})?`)
	matcher := regexp.MustCompile(`([a-z_]+)\s*(?:=~|!~|!=|=)`)
	by := regexp.MustCompile(`\bby \(([a-z_, ]+)\)`)
	seen := map[string]bool{}
	n := 0
	for _, g := range file.Groups {
		for _, r := range g.Rules {
			n++
			if r.Alert == "" || seen[r.Alert] {
				t.Errorf("rule %q: no name, or a name used twice", r.Alert)
			}
			seen[r.Alert] = true
			if _, err := time.ParseDuration(r.For); err != nil {
				t.Errorf("%s: for %q: %v", r.Alert, r.For, err)
			}
			if sev := r.Labels["severity"]; sev != "critical" && sev != "warning" {
				t.Errorf("%s: severity %q", r.Alert, sev)
			}
			if r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Errorf("%s: no summary or description", r.Alert)
			}
			if strings.Count(r.Expr, "(") != strings.Count(r.Expr, ")") || strings.Count(r.Expr, "{") != strings.Count(r.Expr, "}") ||
				strings.Count(r.Expr, "[") != strings.Count(r.Expr, "]") {
				t.Errorf("%s: brackets do not balance in %s", r.Alert, r.Expr)
			}
			found := names.FindAllStringSubmatch(r.Expr, -1)
			if len(found) == 0 {
				t.Errorf("%s: names no metric of ours", r.Alert)
			}
			labels := map[string]bool{}
			for _, f := range found {
				name := f[1]
				fam := fams[name]
				if fam == nil {
					t.Errorf("%s: metric %s is not served", r.Alert, name)
					continue
				}
				for _, m := range fam.Metric {
					for _, l := range m.Label {
						labels[l.GetName()] = true
					}
				}
				for _, mm := range matcher.FindAllStringSubmatch(f[2], -1) {
					if !labelOf(fam, mm[1]) {
						t.Errorf("%s: %s has no label %s", r.Alert, name, mm[1])
					}
				}
			}
			for _, b := range by.FindAllStringSubmatch(r.Expr, -1) {
				for _, l := range strings.Split(b[1], ",") {
					if l = strings.TrimSpace(l); !labels[l] && l != "instance" {
						t.Errorf("%s: groups by %s, which none of its metrics has", r.Alert, l)
					}
				}
			}
		}
	}
	if n < 5 {
		t.Errorf("%d alert rules read, want the file's", n)
	}
	for _, must := range []string{"VoyageJobsStuck", "VoyageSupplierErrors", "VoyagePaymentSettlementLag", "VoyageLedgerImbalance"} {
		if !seen[must] {
			t.Errorf("no %s alert", must)
		}
	}
}

func labelOf(f *dto.MetricFamily, name string) bool {
	for _, m := range f.Metric {
		for _, l := range m.Label {
			if l.GetName() == name {
				return true
			}
		}
	}
	return false
}

// value sums name's series (a counter's, a gauge's or a histogram's count)
// whose labels include labels.
func value(fams []*dto.MetricFamily, name string, labels map[string]string) float64 {
	for _, f := range fams {
		if f.GetName() == name {
			return metricstest.Sum(f, labels)
		}
	}
	return 0
}
