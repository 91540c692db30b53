package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier/rail/railsim"
	"github.com/voyage/voyage/pkg/train"
)

// trainBenchApp is the app on PostgreSQL with the demo data, under the
// runtime settings voyage serve applies, the rail simulator's latency
// scaled by scale (0: answers at once), and the demo operator's token.
func trainBenchApp(b *testing.B, scale float64) (*httptest.Server, *http.Client, string, int64, func() int) {
	// The 16 clients share one session, which the API's limiter holds to 50
	// requests a second: off here, as in the flight orders' benchmark.
	a, _ := newApp(b, store.Postgres, func(c *config.Config) {
		c.Shopping.Sim.LatencyScale = scale
		c.HTTP.RateLimit.Enabled = false
	})
	b.Cleanup(a.Cfg.Runtime.Apply())
	runJobs(b, a)
	if err := demo.Seed(context.Background(), a.DB, a.Site); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler)
	b.Cleanup(srv.Close)
	c := srv.Client()
	c.Transport.(*http.Transport).MaxIdleConnsPerHost = 128
	_, env := apiDo(b, c, "POST", srv.URL+"/base/v2/login", "", `{"username":"demo-operator","password":"demo-pass-1"}`)
	var me meData
	_ = json.Unmarshal(env.Data, &me)
	issued := func() int {
		var n int
		if err := a.DB.GetContext(context.Background(), &n, a.DB.Rebind(`SELECT COUNT(*) FROM train_orders WHERE status = ?`), string(train.Issued)); err != nil {
			b.Fatal(err)
		}
		return n
	}
	fund(b, a, me.Company.ID, "100000000")
	return srv, c, me.Token, me.Company.ID, issued
}

// trips the search benchmark spreads over: the busiest corridors.
var benchTrips = [][2]string{{"VNP", "AOH"}, {"AOH", "VNP"}, {"BXP", "IZQ"}, {"AOH", "IOQ"}, {"NKH", "HGH"}, {"WHN", "IZQ"}}

// BenchmarkTrainSearch runs waves of 100 concurrent train searches through
// the API on PostgreSQL (one op is one wave) and reports the p50 and p99
// of a search. sim-off: the simulated railway answers at once, so the
// figures are the engine's own time (HTTP, session, checks, offer
// building, sorting). sim-realistic: the railway answers in 600 ms ±
// 200 ms (uniform: p50 600 ms, p99 about 796 ms), the baseline the totals
// are read against; over-sim-ms is the p50 above the simulator's median.
func BenchmarkTrainSearch(b *testing.B) {
	for _, c := range []struct {
		name  string
		scale float64
	}{{"sim-off", 0}, {"sim-realistic", 1}} {
		b.Run(c.name, func(b *testing.B) {
			srv, cl, token, _, _ := trainBenchApp(b, c.scale)
			const concurrent = 100
			var lat []time.Duration
			var mu sync.Mutex
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var wg sync.WaitGroup
				for k := 0; k < concurrent; k++ {
					wg.Add(1)
					go func(k int) {
						defer wg.Done()
						trip := benchTrips[k%len(benchTrips)]
						body := fmt.Sprintf(`{"origin":%q,"destination":%q,"date":%q,"passengers":{"adult":1},"sort":"price"}`,
							trip[0], trip[1], chinaDate(1+k%10))
						t0 := time.Now()
						code, env := apiDo(b, cl, "POST", srv.URL+"/shopping/v2/train/search", token, body)
						d := time.Since(t0)
						if code != 200 {
							b.Errorf("search %v: %d %+v", trip, code, env)
							return
						}
						mu.Lock()
						lat = append(lat, d)
						mu.Unlock()
					}(k)
				}
				wg.Wait()
			}
			b.StopTimer()
			if len(lat) == 0 {
				return
			}
			slices.Sort(lat)
			p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
			b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
			if c.scale > 0 {
				b.ReportMetric(float64((p50-railsim.DefaultLatency).Microseconds())/1000, "over-sim-ms")
			}
		})
	}
}

// BenchmarkTrainBookAndPay books and pays train orders through the API on
// PostgreSQL, 16 clients at a time: one op is a booking (the railway's
// hold) and its payment from the wallet. Reports bookings/s with the p50
// and p99 of the pair, and issued/s: every paid order ticketed by the job
// queue, from the first booking to the last ticket. Bookings spread over
// the offers of several days so no class sells out.
func BenchmarkTrainBookAndPay(b *testing.B) {
	srv, cl, token, _, issuedCount := trainBenchApp(b, 0)
	var offers []string
	for d := 1; d <= 12; d++ {
		_, env := apiDo(b, cl, "POST", srv.URL+"/shopping/v2/train/search", token,
			fmt.Sprintf(`{"origin":"VNP","destination":"AOH","date":%q,"trainTypes":["G"]}`, chinaDate(d)))
		var res train.SearchResult
		_ = json.Unmarshal(env.Data, &res)
		for _, o := range res.Items {
			for _, s := range o.Seats {
				if s.Class == "second" && s.Available >= 100 {
					offers = append(offers, o.ID)
				}
			}
		}
	}
	if len(offers) == 0 {
		b.Fatal("no offers")
	}
	b.ResetTimer()
	start := time.Now()
	lat := timedParallel(b, func(i int64) bool {
		body := fmt.Sprintf(`{"offerId":%q,"seatClass":"second","passengers":[{"type":"adult","surname":"BENCH","givenName":"P%d","documentType":"passport","documentNumber":"E%08d"}],"contact":%s}`,
			offers[int(i)%len(offers)], i, i, trainContact)
		return bookAndPay(b, cl, srv.URL+"/order/v2/train/orders", token, body, fmt.Sprintf("tb-%d-%d", start.UnixNano(), i),
			"Idempotency-Key", fmt.Sprintf("tbp-%d-%d", start.UnixNano(), i))
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	reportPaidOrders(b, lat, elapsed, "bookings/s")
	reportIssued(b, len(lat), start, issuedCount)
}
