package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/benchprof"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func apiDo(tb testing.TB, c *http.Client, method, url, token, body string, hdr ...string) (int, envelope) {
	req := newRequest(tb, method, url, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, raw := send(tb, c, req, hdr...)
	var env envelope
	_ = json.Unmarshal(raw, &env)
	return res.StatusCode, env
}

// timedParallel runs op on 16 clients (8 a core on 2 cores) for b.N ops
// numbered from 1 and answers the latency of each op that succeeded; a
// client stops at its first failure.
func timedParallel(b *testing.B, op func(i int64) bool) []time.Duration {
	var n atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			if !op(n.Add(1)) {
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	return lat
}

// bookAndPay books body at ordersURL (a line's order collection) under key
// and pays the order from the wallet, with the header pairs payHdr; it
// reports a failed step as an error.
func bookAndPay(b *testing.B, c *http.Client, ordersURL, token, body, key string, payHdr ...string) bool {
	code, env := apiDo(b, c, "POST", ordersURL, token, body, "Idempotency-Key", key)
	if code != 201 {
		b.Errorf("create: %d %+v", code, env)
		return false
	}
	var o struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal(env.Data, &o)
	code, env = apiDo(b, c, "POST", fmt.Sprintf("%s/%d/payment", ordersURL, o.ID), token, `{"channel":"balance"}`, payHdr...)
	if code != 200 {
		b.Errorf("pay: %d %+v", code, env)
		return false
	}
	return true
}

// BenchmarkOrdersCreateAndPay books and pays orders from the balance through
// the API on each engine (sqlite: the embedded default's one connection),
// 16 clients at a time: one op is a create and a payment. Reports orders/s
// and the p99 of the pair, and issued/s: every paid order ticketed by the
// job queue, from the first booking to the last ticket; cpu-ms/order, the
// machine's CPU per order. With VOYAGE_BENCH_STATEMENTS=1 (PostgreSQL) also
// statements/order, every statement PostgreSQL received while the orders
// were made (River's and the ticketing's included) per order;
// VOYAGE_BENCH_SQL=file writes the most frequent there.
func BenchmarkOrdersCreateAndPay(b *testing.B) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		b.Run(string(d), func(b *testing.B) { benchOrdersCreateAndPay(b, d) })
	}
}

func benchOrdersCreateAndPay(b *testing.B, engine store.Dialect) {
	// Counting statements relays every message to PostgreSQL through this
	// process, a fifth of its CPU: only on request, so that the timed runs
	// pay for nothing the commit before the counter did not.
	dsn := storetest.DSN(b, engine)
	var counter *pgCounter
	if engine == store.Postgres && (os.Getenv("VOYAGE_BENCH_STATEMENTS") != "" || os.Getenv("VOYAGE_BENCH_SQL") != "") {
		counter, dsn = countStatements(b, dsn)
	}
	// The 16 clients share one session, which the API's limiter holds to 50
	// requests a second: off here, where the order path's capacity is the
	// figure (on a quiet machine the benchmark ran into the 429s).
	a, _ := newAppOn(b, dsn, func(c *config.Config) { c.HTTP.RateLimit.Enabled = false })
	// Under the runtime settings voyage serve applies.
	b.Cleanup(a.Cfg.Runtime.Apply())
	// Ticketing works the queue as under voyage serve: its jobs compete with
	// the bookings for the same cores and database.
	runJobs(b, a)
	if err := demo.Seed(context.Background(), a.DB, a.Site); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	c := srv.Client()
	c.Transport.(*http.Transport).MaxIdleConnsPerHost = 64

	_, env := apiDo(b, c, "POST", srv.URL+"/base/v2/login", "", `{"username":"demo-operator","password":"demo-pass-1"}`)
	var me meData
	_ = json.Unmarshal(env.Data, &me)
	fund(b, a, me.Company.ID, "100000000")
	date := time.Now().AddDate(0, 0, 20).Format(time.DateOnly)
	_, env = apiDo(b, c, "POST", srv.URL+"/shopping/v2/flight/async-shopping", me.Token, fmt.Sprintf(`{"journeys":[{"origin":"PEK","destination":"SHA","date":%q}],
		"passengers":{"adult":1,"child":0,"infant":0},"cabinClass":"economy","bookingType":"oneway"}`, date))
	var st shopping.Started
	_ = json.Unmarshal(env.Data, &st)
	var quoteID string
	// The search runs on the engine's goroutines: the setup polls until it
	// is complete (time passing is not what it waits for).
	for deadline := time.Now().Add(30 * time.Second); quoteID == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		_, env = apiDo(b, c, "POST", srv.URL+"/shopping/v2/flight/async-shopping/solutions", me.Token, fmt.Sprintf(`{"searchId":%q,"sort":"price"}`, st.SearchID))
		var p shopping.Page
		_ = json.Unmarshal(env.Data, &p)
		if !p.Complete {
			continue
		}
		for _, s := range p.Items {
			_, env = apiDo(b, c, "POST", srv.URL+"/shopping/v2/flight/solutions/"+s.ID+"/verification", me.Token, "")
			var v shopping.Verification
			_ = json.Unmarshal(env.Data, &v)
			if v.QuoteID != "" && v.Solution != nil && v.Solution.TicketingSpeed[:min(7, len(v.Solution.TicketingSpeed))] != "special" {
				quoteID = v.QuoteID
				break
			}
		}
	}
	if quoteID == "" {
		b.Fatal("no quote")
	}
	body := fmt.Sprintf(adultBody, quoteID)
	b.ResetTimer()
	if counter != nil {
		counter.start()
	}
	stopProfile := benchprof.Start(b)
	cpu0 := benchprof.ReadCPU()
	start := time.Now()
	lat := timedParallel(b, func(i int64) bool {
		return bookAndPay(b, c, srv.URL+"/order/v2/flight/orders", me.Token, body, fmt.Sprintf("bench-%d-%d", start.UnixNano(), i))
	})
	elapsed := time.Since(start)
	cpu := cpu0.Since()
	stopProfile()
	var statements int64
	if counter != nil {
		statements = counter.stop()
	}
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	if counter != nil {
		b.ReportMetric(float64(statements)/float64(len(lat)), "statements/order")
		if path := os.Getenv("VOYAGE_BENCH_SQL"); path != "" {
			report := fmt.Sprintf("statements while making %d orders: %d\n%s\n", len(lat), statements, strings.Join(counter.top(60), "\n"))
			if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
				b.Error(err)
			}
		}
	}
	// The CPU an order costs: all of it (PostgreSQL, this process, the
	// ticketing running alongside), and this process's share (the API, the
	// simulated airline, the clients, and the statement counter if on).
	b.ReportMetric(float64(cpu.Machine.Microseconds())/1000/float64(len(lat)), "cpu-ms/order")
	b.ReportMetric(float64(cpu.Process.Microseconds())/1000/float64(len(lat)), "go-cpu-ms/order")
	reportPaidOrders(b, lat, elapsed, "orders/s")
	// The ticketing jobs the payments queued run on the same two cores while
	// orders are made: the figure that matters end to end is how soon every
	// paid order is issued.
	reportIssued(b, len(lat), start, func() int {
		var issued int
		if err := a.DB.GetContext(context.Background(), &issued, a.DB.Rebind(`SELECT COUNT(*) FROM flight_orders WHERE agency_id = ? AND status = ?`),
			me.Company.ID, string(flight.Issued)); err != nil {
			b.Fatal(err)
		}
		return issued
	})
}

// reportPaidOrders sorts the latencies of the paid orders and reports their
// rate (as unit) and the p50 and p99.
func reportPaidOrders(b *testing.B, lat []time.Duration, elapsed time.Duration, unit string) {
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), unit)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// reportIssued waits up to 5 minutes for the job queue to issue the paid
// orders (issued counts them) and reports issued/s since start; polling
// every 20 ms is its resolution.
func reportIssued(b *testing.B, paid int, start time.Time, issuedCount func() int) {
	var issued int
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if issued = issuedCount(); issued >= paid {
			break
		}
	}
	if issued < paid {
		b.Fatalf("%d of %d paid orders issued after 5 minutes", issued, paid)
	}
	b.ReportMetric(float64(issued)/time.Since(start).Seconds(), "issued/s")
}
