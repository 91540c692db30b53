package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/metrics/metricstest"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/train"
)

// TestMetrics runs a search, a booking and its payment through the API of
// a server with metrics on (a flight, and a train refunded in part), scrapes the metrics port and finds each count
// moved, with no label naming a booking, an id or a user; the public port
// has no /metrics.
func TestMetrics(t *testing.T) {
	t.Parallel()
	onEachEngine(t, newSeededApp, func(c *config.Config) {
		c.Addr, c.Metrics.Addr = "127.0.0.1:0", "127.0.0.1:0"
	}, func(t *testing.T, a *app.App, srv *httptest.Server) {
		public := serve(t, a)
		scrape := func() map[string]*dto.MetricFamily {
			t.Helper()
			return scrapeMetrics(t, "http://"+a.MetricsAddr()+"/metrics")
		}
		before := scrape()

		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		fund(t, a, op.Company.ID, "50000")
		quoteID, _ := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "metrics-order")
		resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"balance"}`,
			append(bearer(op.Token), "Idempotency-Key", "metrics-pay")...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("pay: %d %+v", resp.StatusCode, env)
		}
		// A train booked, paid, issued (the queue Serve works) and one
		// passenger refunded: the refund's count.
		offer := secondClassOffer(t, srv, op.Token, 3, 2)
		resp, env, tr := bookTrain(t, srv, op.Token, offer.ID, twoPassengers, "metrics-train")
		if resp.StatusCode != 201 {
			t.Fatalf("book a train: %d %+v", resp.StatusCode, env)
		}
		if resp, env, _ := payTrain(t, srv, op.Token, tr.ID, "metrics-train-pay"); resp.StatusCode != 200 {
			t.Fatalf("pay the train: %d %+v", resp.StatusCode, env)
		}
		waitTrain(t, srv, op.Token, tr.ID, train.Issued)
		if resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/refund", tr.ID), "en", `{"passengers":[2]}`, bearer(op.Token)...); resp.StatusCode != 200 {
			t.Fatalf("refund quote: %d %+v", resp.StatusCode, env)
		}
		if resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/confirmation", tr.ID), "en", "", bearer(op.Token)...); resp.StatusCode != 200 {
			t.Fatalf("confirm the refund: %d %+v", resp.StatusCode, env)
		}
		// A request that matches no route is counted as one, not by its path.
		if resp, _ := rawGet(t, srv, fmt.Sprintf("/no-such-page/%d", o.ID)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("unknown page: %d", resp.StatusCode)
		}

		after := scrape()
		for _, c := range []struct {
			name   string
			labels map[string]string
		}{
			{"voyage_http_requests_total", map[string]string{"route": "/order/v2/flight/orders/{id}/payment", "method": "POST", "code": "200"}},
			{"voyage_http_requests_total", map[string]string{"route": "/order/v2/flight/orders", "method": "POST", "code": "201"}},
			{"voyage_http_request_duration_seconds", map[string]string{"route": "/base/v2/login", "method": "POST", "status": "2xx"}},
			{"voyage_searches_total", map[string]string{"outcome": "admitted"}},
			{"voyage_supplier_calls_total", map[string]string{"operation": "search", "outcome": "ok"}},
			{"voyage_supplier_call_duration_seconds", map[string]string{"operation": "price", "outcome": "ok"}},
			{"voyage_supplier_calls_total", map[string]string{"operation": "book", "outcome": "ok"}},
			{"voyage_bookings_total", map[string]string{"line": "flight", "channel": "none", "outcome": "ok"}},
			{"voyage_payments_total", map[string]string{"line": "flight", "channel": "balance", "outcome": "ok"}},
			{"voyage_ledger_transfers_total", map[string]string{"type": "top-up"}},
			{"voyage_ledger_transfers_total", map[string]string{"type": "origin-flight"}},
			{"voyage_bookings_total", map[string]string{"line": "train", "outcome": "ok"}},
			{"voyage_payments_total", map[string]string{"line": "train", "channel": "balance", "outcome": "ok"}},
			{"voyage_refunds_total", map[string]string{"line": "train", "channel": "balance", "outcome": "ok"}},
			{"voyage_ledger_transfers_total", map[string]string{"type": "refund-train"}},
		} {
			if was, now := count(before, c.name, c.labels), count(after, c.name, c.labels); now <= was {
				t.Errorf("%s%v: %v before, %v after the booking", c.name, c.labels, was, now)
			}
		}
		// The unknown page is counted under the portal's catch-all
		// pattern, its path nowhere (the label check below).
		if count(after, "voyage_http_requests_total", map[string]string{"route": "/", "code": "404"}) < 1 {
			t.Errorf("the unknown page was not counted under the route /")
		}
		// What is read at scrape time: the ledger balances (every
		// currency's sum zero), the pool, the queue (Serve works it).
		for _, name := range []string{"voyage_ledger_imbalance_minor_units", "voyage_payment_settlement_lag_seconds",
			"voyage_jobs_oldest_due_age_seconds", "go_sql_max_open_connections", "go_goroutines"} {
			if after[name] == nil {
				t.Errorf("%s not served", name)
			}
		}
		if got := count(after, "voyage_ledger_imbalance_minor_units", map[string]string{"currency": "CNY"}); got != 0 {
			t.Errorf("ledger imbalance CNY = %v, want 0", got)
		}
		if after["voyage_probe_errors"] != nil {
			t.Errorf("a probe failed: %v", after["voyage_probe_errors"])
		}

		// No label value names the booking, its number, the user or any
		// id: no digits at all, but in a status code and a route's API
		// version.
		digits, code, version := regexp.MustCompile(`[0-9]`), regexp.MustCompile(`^([1-5][0-9][0-9]|other)$`), regexp.MustCompile(`/v[0-9]+/`)
		for name, f := range after {
			if !strings.HasPrefix(name, "voyage_") {
				continue
			}
			for _, m := range f.Metric {
				for _, l := range m.Label {
					v := l.GetValue()
					if l.GetName() == "code" && code.MatchString(v) {
						continue
					}
					if l.GetName() == "status" && strings.HasSuffix(v, "xx") && len(v) == 3 {
						continue
					}
					if l.GetName() == "route" {
						v = version.ReplaceAllString(v, "/")
					}
					if digits.MatchString(v) || strings.Contains(v, o.BookingNumber) || strings.Contains(v, offer.TrainNumber) || strings.Contains(v, "demo-operator") ||
						strings.Contains(v, "no-such-page") || strings.Contains(v, quoteID) {
						t.Errorf("%s{%s=%q}: a label names a request's data", name, l.GetName(), v)
					}
				}
			}
		}

		// The public port has no metrics.
		for _, base := range []string{srv.URL, "http://" + public} {
			resp, err := http.Get(base + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s/metrics = %d, want 404", base, resp.StatusCode)
			}
		}
	})
}

// TestNoMetricsByDefault: without metrics.addr nothing is counted or served.
func TestNoMetricsByDefault(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t, store.SQLite, func(c *config.Config) { c.Addr = "127.0.0.1:0" })
	if a.Metrics != nil {
		t.Fatal("metrics built without metrics.addr")
	}
	serve(t, a)
	if a.MetricsAddr() != "" {
		t.Fatalf("metrics served at %s without metrics.addr", a.MetricsAddr())
	}
}

// serve runs a.Serve (the public port, the metrics port, the job queue)
// until the test ends, answering the public address.
func serve(t *testing.T, a *app.App) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, func(addr string) { addrc <- addr }) }()
	var addr string
	select {
	case addr = <-addrc:
	case err := <-done:
		cancel()
		t.Fatalf("serve: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return addr
}

// scrapeMetrics reads what Prometheus would from url.
func scrapeMetrics(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return fams
}

// count sums the value (a counter's, a gauge's, a histogram's count) of
// the series of name whose labels include labels.
func count(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	return metricstest.Sum(fams[name], labels)
}
