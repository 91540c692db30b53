package shopping_test

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/benchprof"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/supplier/sim"
)

// simSources are the three simulated suppliers answering at once.
func simSources(tb testing.TB) map[string]shopping.Source {
	tb.Helper()
	out := map[string]shopping.Source{}
	for _, p := range sim.Profiles {
		s, err := sim.New(sim.Steady(string(p), 1))
		if err != nil {
			tb.Fatal(err)
		}
		out[string(p)] = shopping.Source{Supplier: s, OneWayOnly: p == sim.ProfileLCC}
	}
	return out
}

// memo answers a request the way its supplier first did, at once and without
// recomputing: benchmarks then time the engine, not the simulator.
// A sync.Map: thousands of calls answer at the same instant in the
// concurrent benchmarks, and a mutex there made them a convoy.
type memo struct {
	supplier.Supplier
	cache sync.Map // sim.SearchKey → []supplier.Offer
}

func (m *memo) Search(ctx context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	k := sim.SearchKey(req)
	if o, ok := m.cache.Load(k); ok {
		return o.([]supplier.Offer), nil
	}
	o, err := m.Supplier.Search(ctx, req)
	m.cache.Store(k, o)
	return o, err
}

func memoSources(tb testing.TB) map[string]shopping.Source {
	out := simSources(tb)
	for k, s := range out {
		s.Supplier = &memo{Supplier: s.Supplier}
		out[k] = s
	}
	return out
}

// asServed runs a benchmark under the runtime settings voyage serve applies
// (config runtime.*: the collector's target), the engine's real conditions.
func asServed(b *testing.B) {
	cfg, err := config.Load("", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cfg.Runtime.Apply())
}

func benchWorld(b *testing.B) *world {
	asServed(b)
	db := storetest.Open(b, store.SQLite)
	return unbounded(newWorld(b, db, nil, memoSources(b)))
}

// unbounded lifts the engine's admission bound: the benchmarks measure what
// the engine does with the searches they start, and a burst of 200 may
// begin before the last one's answers are stored.
func unbounded(w *world) *world {
	w.eng.SetCapacity(1 << 30)
	return w
}

func returnTrip(from, to string, out, back int) shopping.Request {
	return shopping.Request{BookingType: shopping.Return, Passengers: supplier.Passengers{Adult: 1}, Journeys: []supplier.JourneyQuery{
		{Origin: from, Destination: to, Date: time.Now().AddDate(0, 0, out).Format(time.DateOnly)},
		{Origin: to, Destination: from, Date: time.Now().AddDate(0, 0, back).Format(time.DateOnly)}}}
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// runSearch does one search to completion, polling every millisecond, and
// says when the first results and the complete answer were seen.
func runSearch(tb testing.TB, w *world, req shopping.Request) (first, complete time.Duration, total int) {
	return runSearchEvery(tb, w, req, time.Millisecond)
}

func runSearchEvery(tb testing.TB, w *world, req shopping.Request, every time.Duration) (first, complete time.Duration, total int) {
	start := time.Now()
	st, err := w.eng.Start(context.Background(), w.who(), req)
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID}, "en")
		if err != nil {
			tb.Fatal(err)
		}
		if first == 0 && p.Total > 0 {
			first = time.Since(start)
		}
		if p.Complete {
			return first, time.Since(start), p.Total
		}
		// A client's polling interval: the benchmark measures wall time
		// to the results, so it polls as a client would.
		time.Sleep(every)
	}
}

// BenchmarkEngineOverhead is the engine's own time for PEK→LHR return over
// the three simulated suppliers answering at once: to the first results and
// to the complete answer.
func BenchmarkEngineOverhead(b *testing.B) {
	w := benchWorld(b)
	req := returnTrip("PEK", "LHR", 30, 37)
	runSearch(b, w, req) // fills the memo
	var firsts, completes []time.Duration
	total := 0
	for b.Loop() {
		f, c, n := runSearch(b, w, req)
		firsts, completes, total = append(firsts, f), append(completes, c), n
	}
	b.ReportMetric(float64(pct(firsts, .5).Microseconds())/1000, "ms-first-p50")
	b.ReportMetric(float64(pct(completes, .5).Microseconds())/1000, "ms-complete-p50")
	b.ReportMetric(float64(pct(completes, .99).Microseconds())/1000, "ms-complete-p99")
	b.ReportMetric(float64(total), "solutions")
}

// routes are 100 fixed city pairs: trunk, long-haul and regional routes over
// the busiest airports.
var routes = func() [][2]string {
	hubs := []string{"PEK", "PVG", "CAN", "HKG", "NRT", "ICN", "SIN", "BKK", "DXB", "DOH", "IST", "LHR", "CDG", "FRA", "AMS", "MAD", "JFK", "LAX", "ORD", "SYD"}
	var all [][2]string
	for _, a := range hubs {
		for _, c := range hubs {
			if a != c {
				all = append(all, [2]string{a, c})
			}
		}
	}
	// Every third or fourth of the 380 ordered pairs: 100 routes mixing
	// regional and long-haul trips.
	out := make([][2]string, 0, 100)
	for i := 0; len(out) < 100; i++ {
		out = append(out, all[(i*19)%len(all)])
	}
	return out
}()

// BenchmarkConcurrentSearches runs 200 searches at once (suppliers answering
// at once) and reports throughput, p99 to completion and the heap held per
// search session.
func BenchmarkConcurrentSearches(b *testing.B) {
	w := benchWorld(b)
	const n = 200
	var lat []time.Duration
	var mu sync.Mutex
	var errs int
	var before, after runtime.MemStats
	perSession := -1.0
	for i := range n {
		r := routes[i%len(routes)]
		runSearch(b, w, returnTrip(r[0], r[1], 20+i%30, 27+i%30)) // fills the memo
	}
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := routes[i%len(routes)]
				_, c, total := runSearch(b, w, returnTrip(r[0], r[1], 20+i%30, 27+i%30))
				mu.Lock()
				lat = append(lat, c)
				if total == 0 {
					errs++
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(n)/elapsed.Seconds(), "searches/s")
		if perSession < 0 {
			// The first burst's: later ones may find the cache at its bound
			// letting earlier searches go.
			perSession = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n / 1024
		}
	}
	b.ReportMetric(float64(pct(lat, .99).Microseconds())/1000, "ms-p99")
	b.ReportMetric(float64(pct(lat, .5).Microseconds())/1000, "ms-p50")
	b.ReportMetric(perSession, "KiB/session")
	b.ReportMetric(float64(errs), "empty-searches")
}

// slow answers like a real supplier: after a latency drawn from the
// simulator profile's mean and spread, fixed per request so a benchmark can
// say how long each search had to wait for its slowest answer.
type slow struct {
	supplier.Supplier
	name         string
	mean, jitter time.Duration
}

func (s *slow) latency(req supplier.SearchRequest) time.Duration {
	h := fnv.New64a()
	h.Write([]byte(s.name))
	h.Write([]byte(sim.SearchKey(req)))
	frac := float64(h.Sum64()%10001) / 10000
	return s.mean - s.jitter + time.Duration(frac*2*float64(s.jitter))
}

func (s *slow) Search(ctx context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	t := time.NewTimer(s.latency(req))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.Supplier.Search(ctx, req)
}

// BenchmarkConcurrentSearchesLatency starts 200 searches at once against
// suppliers answering with their profiles' latency (GDS 1.2 s ± 0.4, NDC
// 0.8 s ± 0.3, LCC 0.5 s ± 0.2), each search polled every 50 ms, and reports
// how long after its slowest supplier answer each search was complete: the
// engine's overhead above supplier latency under load.
func BenchmarkConcurrentSearchesLatency(b *testing.B) {
	for _, engine := range []store.Dialect{store.SQLite, store.Postgres} {
		b.Run(string(engine), func(b *testing.B) { concurrentSearchesLatency(b, engine) })
	}
}

func concurrentSearchesLatency(b *testing.B, engine store.Dialect) {
	asServed(b)
	db := storetest.Open(b, engine)
	sources := memoSources(b)
	slowed := map[string]*slow{}
	for name, src := range sources {
		mean, jitter := sim.Profile(name).DefaultLatency()
		sl := &slow{Supplier: src.Supplier, name: name, mean: mean, jitter: jitter}
		slowed[name] = sl
		src.Supplier = sl
		sources[name] = src
	}
	w := unbounded(newWorld(b, db, nil, sources))
	const n = 200
	reqs := make([]shopping.Request, n)
	waits := make([]time.Duration, n)
	for i := range n {
		r := routes[i%len(routes)]
		reqs[i] = returnTrip(r[0], r[1], 20+i%30, 27+i%30)
		for _, c := range w.eng.Plan(reqs[i], "CNY") {
			waits[i] = max(waits[i], slowed[c.Source].latency(c.Req))
		}
	}
	// Fill the memo so the simulator's own work is not timed.
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { runSearchEvery(b, w, reqs[i], 50*time.Millisecond) })
	}
	wg.Wait()
	var over, lat []time.Duration
	var mu sync.Mutex
	var errs int
	var cpu time.Duration
	stopProfile := benchprof.Start(b)
	defer stopProfile()
	for b.Loop() {
		cpu0 := benchprof.ProcessCPU() // the engine's and the benchmark's, not the database server's
		start := time.Now()
		for i := range n {
			wg.Go(func() {
				_, c, total := runSearchEvery(b, w, reqs[i], 50*time.Millisecond)
				mu.Lock()
				lat = append(lat, c)
				over = append(over, c-waits[i])
				if total == 0 {
					errs++
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		cpu += benchprof.ProcessCPU() - cpu0
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "searches/s")
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n*b.N), "cpu-ms/search")
	b.ReportMetric(float64(pct(over, .99).Microseconds())/1000, "ms-over-latency-p99")
	b.ReportMetric(float64(pct(over, .5).Microseconds())/1000, "ms-over-latency-p50")
	b.ReportMetric(float64(pct(lat, .99).Microseconds())/1000, "ms-complete-p99")
	b.ReportMetric(float64(errs), "empty-searches")
}

// BenchmarkInterliningStudy measures, over the 100 fixed routes as returns,
// how often separate tickets beat the cheapest single ticket: two one-ways
// (one out, one back, no self-transfer: the published 21% compares this), and
// any combination, self-transfers through a connecting city included.
func BenchmarkInterliningStudy(b *testing.B) {
	for b.Loop() {
		st := interliningStudy(b)
		b.ReportMetric(100*float64(st.oneWayPairs)/float64(st.compared), "%-oneway-pair-cheaper")
		b.ReportMetric(100*float64(st.any)/float64(st.compared), "%-interline-cheaper")
		b.ReportMetric(float64(st.compared), "routes")
	}
}

type study struct{ oneWayPairs, any, compared int }

func interliningStudy(t testing.TB) (out study) {
	db := storetest.Open(t, store.SQLite)
	w := newWorld(t, db, nil, simSources(t))
	w.eng = shopping.New(simSources(t), shopping.Options{Sessions: shopping.NewSQLSessions(db), Quotes: shopping.NewQuotes(db),
		Agencies: w.agencies, Looks: &noLooks{n: map[string]int{}}, Catalog: i18n.MustLoad(),
		Rates: func(context.Context) (map[string]string, error) { return map[string]string{"CNY": "1"}, nil }})
	for i, r := range routes {
		req := returnTrip(r[0], r[1], 21+i%20, 28+i%20)
		st := w.start(t, req)
		var p shopping.Page
		var err error
		for {
			p, err = w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID, Sort: shopping.SortPrice, PageSize: 100}, "en")
			if err != nil {
				break
			}
			if p.Complete {
				break
			}
			// The simulated suppliers answer with their real latency on
			// the engine's goroutines: the study waits for that work.
			time.Sleep(time.Millisecond)
		}
		if err != nil {
			continue
		}
		// Pages come cheapest first: the first of each kind is its best.
		bestSingle, bestMulti, bestPair := "", "", ""
		for page := 1; ; page++ {
			for _, s := range p.Items {
				switch {
				case s.Tickets == 1:
					bestSingle = cmp.Or(bestSingle, s.Total.Amount)
				case s.Tickets == 2 && !selfTransfer(s):
					bestPair = cmp.Or(bestPair, s.Total.Amount)
					fallthrough
				default:
					bestMulti = cmp.Or(bestMulti, s.Total.Amount)
				}
			}
			if (bestSingle != "" && bestMulti != "" && bestPair != "") || page*100 >= p.Total {
				break
			}
			p, _ = w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID, Sort: shopping.SortPrice, PageSize: 100, Page: page + 1}, "en")
		}
		if bestSingle == "" {
			continue
		}
		out.compared++
		if bestMulti != "" && less(bestMulti, bestSingle) {
			out.any++
		}
		if bestPair != "" && less(bestPair, bestSingle) {
			out.oneWayPairs++
		}
	}
	return out
}

func selfTransfer(s shopping.Solution) bool {
	for _, j := range s.Journeys {
		if j.SelfTransfer {
			return true
		}
	}
	return false
}

func less(a, b string) bool {
	var x, y float64
	fmt.Sscan(a, &x)
	fmt.Sscan(b, &y)
	return x < y
}
