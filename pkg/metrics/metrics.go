// Package metrics holds Voyage's Prometheus metrics: one registry per app
// (never the global default one, so that parallel tests and two apps in one
// process do not share counters), the hooks the services count through, and
// the collectors that read the database when scraped.
//
// Every label value is bounded: routes are the mux's patterns, never paths;
// suppliers, lines, channels and job kinds are names from code or
// configuration, and anything that does not look like one is counted as
// "other". No label ever holds an id, a booking number or a user.
//
// A nil *Metrics counts nothing: a server without metrics.addr pays for no
// instrument.
package metrics

import (
	"net/http"
	"regexp"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Other is the label value of anything unknown.
const Other = "other"

// Metrics are one app's instruments and registry.
type Metrics struct {
	reg *prometheus.Registry

	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec
	// httpCache holds each route, method and code's instruments
	// (httpSeries); bounded as the labels are.
	httpCache sync.Map

	searches       *prometheus.CounterVec
	supplierCalls  *prometheus.CounterVec
	supplierTiming *prometheus.HistogramVec

	bookings *prometheus.CounterVec
	payments *prometheus.CounterVec
	refunds  *prometheus.CounterVec

	ledgerTransfers *prometheus.CounterVec
}

// New builds the instruments on a registry of their own, with the Go
// runtime's and the process's collectors.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "voyage_http_requests_total",
		Help: "HTTP requests answered, by route pattern, method and status code.",
	}, []string{"route", "method", "code"})
	m.httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "voyage_http_request_duration_seconds",
		Help: "Time to answer an HTTP request, by route pattern, method and status class.",
		// From a cached page (a millisecond) to a booking waiting on a
		// supplier and a gateway (tens of seconds).
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"route", "method", "status"})
	m.searches = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "voyage_searches_total",
		Help: "Flight searches asked of this instance: admitted, or refused because it runs its maximum (503).",
	}, []string{"outcome"})
	m.supplierCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "voyage_supplier_calls_total",
		Help: "Calls to flight content suppliers, by supplier, operation and outcome (ok, error, timeout, canceled).",
	}, []string{"supplier", "operation", "outcome"})
	m.supplierTiming = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "voyage_supplier_call_duration_seconds",
		Help:    "Time a flight content supplier took to answer, by supplier, operation and outcome.",
		Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 15, 30, 60},
	}, []string{"supplier", "operation", "outcome"})
	m.bookings = lineCounter("voyage_bookings_total",
		"Bookings asked for, by product line, channel (empty: none) and outcome.")
	m.payments = lineCounter("voyage_payments_total",
		"Booking payments asked for, by product line, channel and outcome (ok, pending, declined, timeout, refused, error).")
	m.refunds = lineCounter("voyage_refunds_total",
		"Money given back for a booking (to the wallet, then the channels that took it), by product line, channel and outcome.")
	m.ledgerTransfers = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "voyage_ledger_transfers_total",
		Help: "Ledger transfers written (replays of an idempotency key excluded), by payment type.",
	}, []string{"type"})
	m.reg.MustRegister(m.httpRequests, m.httpDuration, m.searches, m.supplierCalls, m.supplierTiming,
		m.bookings, m.payments, m.refunds, m.ledgerTransfers,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry is where the instruments are; a collector of another package
// registers here.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in Prometheus' exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Searched counts a search admitted (true) or refused.
func (m *Metrics) Searched(admitted bool) {
	if m == nil {
		return
	}
	if admitted {
		m.searches.WithLabelValues("admitted").Inc()
		return
	}
	m.searches.WithLabelValues("refused").Inc()
}

// Booked counts a booking asked for on line.
func (m *Metrics) Booked(line, channel, outcome string) {
	if m != nil {
		countLine(m.bookings, line, channel, outcome)
	}
}

// Paid counts a booking payment asked for on line through channel.
func (m *Metrics) Paid(line, channel, outcome string) {
	if m != nil {
		countLine(m.payments, line, channel, outcome)
	}
}

// Refunded counts money given back for a booking on line.
func (m *Metrics) Refunded(line, channel, outcome string) {
	if m != nil {
		countLine(m.refunds, line, channel, outcome)
	}
}

// lineCounter is a counter of what is asked for on a product line (bookings,
// payments, refunds): by line, channel and outcome.
func lineCounter(name, help string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"line", "channel", "outcome"})
}

// countLine counts one on a lineCounter, each label bounded.
func countLine(c *prometheus.CounterVec, line, channel, outcome string) {
	c.WithLabelValues(Name(line), channelName(channel), outcomeName(outcome)).Inc()
}

// Transferred counts a ledger transfer of paymentType written.
func (m *Metrics) Transferred(paymentType string) {
	if m == nil {
		return
	}
	m.ledgerTransfers.WithLabelValues(Name(paymentType)).Inc()
}

// nameRE is what a name from code or configuration looks like (a line, a
// supplier, a channel, a job kind, a payment type): short, lower case, no
// digits first. A value that is not one (typed by someone, or carrying an
// id) is counted as Other.
var nameRE = regexp.MustCompile(`^[a-z][a-z_-]{0,39}$`)

// Name is v when it looks like a name from code or configuration, else
// Other.
func Name(v string) string {
	if nameRE.MatchString(v) {
		return v
	}
	return Other
}

// channelName allows the empty channel (a booking not paid in the same
// step).
func channelName(v string) string {
	if v == "" {
		return "none"
	}
	return Name(v)
}

// outcomes are the outcomes the services report (pkg/booking.Outcome).
var outcomes = map[string]bool{"ok": true, "pending": true, "declined": true, "timeout": true, "refused": true, "error": true,
	"canceled": true}

func outcomeName(v string) string {
	if outcomes[v] {
		return v
	}
	return Other
}
