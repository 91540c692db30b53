package shopping_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
)

// fake is a supplier the test scripts: what it answers, when, and how.
type fake struct {
	name   string
	gate   chan struct{} // when set, Search waits for it to close
	hang   bool          // Search waits for the deadline
	err    error
	answer func(req supplier.SearchRequest) []supplier.Offer
	price  func(o supplier.Offer) (supplier.PriceResult, error)
	calls  atomic.Int32
}

func (f *fake) Name() string { return f.name }
func (f *fake) Search(ctx context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	f.calls.Add(1)
	if f.hang {
		<-ctx.Done()
		return nil, fmt.Errorf("fake: %w", supplier.ErrTimeout)
	}
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return nil, fmt.Errorf("fake: %w", supplier.ErrTimeout)
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	if f.answer == nil {
		return nil, nil
	}
	return f.answer(req), nil
}
func (f *fake) Price(ctx context.Context, o supplier.Offer, _ supplier.Passengers) (supplier.PriceResult, error) {
	if f.price != nil {
		return f.price(o)
	}
	return supplier.PriceResult{Status: supplier.PriceOK, Offer: o}, nil
}
func (f *fake) Book(context.Context, supplier.BookRequest) (supplier.Booking, error) {
	return supplier.Booking{}, supplier.ErrNotSupported
}
func (f *fake) Ticket(context.Context, string) ([]supplier.Ticket, error) {
	return nil, supplier.ErrNotSupported
}
func (f *fake) Cancel(context.Context, string) error { return supplier.ErrNotSupported }
func (f *fake) Void(context.Context, string) error   { return supplier.ErrNotSupported }
func (f *fake) RefundQuote(context.Context, string) (supplier.Quote, error) {
	return supplier.Quote{}, supplier.ErrNotSupported
}
func (f *fake) Refund(context.Context, string, string) error { return supplier.ErrNotSupported }
func (f *fake) ChangeQuotes(context.Context, string, []supplier.JourneyQuery) ([]supplier.Quote, error) {
	return nil, supplier.ErrNotSupported
}
func (f *fake) Change(context.Context, string, string) (supplier.Booking, error) {
	return supplier.Booking{}, supplier.ErrNotSupported
}

// flight builds a one-segment offer leaving at local time hh:mm on date.
func flight(sup, number, from, to, date string, hh, mm, minutes int, cny int64) supplier.Offer {
	d, _ := time.Parse(time.DateOnly, date)
	dep := time.Date(d.Year(), d.Month(), d.Day(), hh, mm, 0, 0, geo.Location(from))
	arr := dep.Add(time.Duration(minutes) * time.Minute).In(geo.Location(to))
	return supplier.Offer{
		Supplier: sup, Ref: sup + ":" + number + ":" + date,
		Segments: []supplier.Segment{{Carrier: number[:2], FlightNumber: number, Origin: from, Destination: to, DepartAt: dep, ArriveAt: arr,
			DurationMinutes: minutes, Cabin: supplier.CabinEconomy, BookingClass: "Y", FareBasis: "YOW"}},
		Journeys: [][]int{{0}}, Currency: "CNY", ValidatingCarrier: number[:2],
		Fares:            []supplier.PaxFare{{Type: supplier.Adult, Count: 1, Base: cny*100 - 20000, Taxes: 20000}},
		Baggage:          supplier.Baggage{CheckedPieces: 1, CabinPieces: 1},
		TicketingMinutes: 120, ExpiresAt: time.Now().Add(time.Hour),
	}
}

// world is an engine over fake suppliers with one agency.
type world struct {
	db       *store.DB
	eng      *shopping.Engine
	agencies *agency.Store
	admin    *agency.Service
	root     agency.Agency
	agency   agency.Agency
	other    agency.Agency
	now      atomic.Int64 // unix nanos; 0 = real time
	// stop cancels the engine's searches, as a server shutting down does.
	stop context.CancelFunc
}

// start starts the search req as the world's agency.
func (w *world) start(t testing.TB, req shopping.Request) shopping.Started {
	t.Helper()
	st, err := w.eng.Start(context.Background(), w.who(), req)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func (w *world) who() auth.Principal { return auth.Principal{UserID: 0, AgencyID: w.agency.ID} }

func (w *world) clock() time.Time {
	if n := w.now.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Now()
}

type noLooks struct {
	mu sync.Mutex
	n  map[string]int
}

func (l *noLooks) CountLook(_ context.Context, _ int64, c string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n[c]++
	return nil
}

func newWorld(t testing.TB, db *store.DB, cfg func(*agency.Config), sources map[string]shopping.Source) *world {
	t.Helper()
	ctx := context.Background()
	w := &world{db: db, agencies: agency.NewStore(db)}
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if w.root, err = w.agencies.Create(ctx, tx, agency.New{Name: "Provider", EnableFlightService: true}); err != nil {
			return err
		}
		if w.agency, err = w.agencies.Create(ctx, tx, agency.New{ParentID: &w.root.ID, Name: "Agency", EnableFlightService: true}); err != nil {
			return err
		}
		w.other, err = w.agencies.Create(ctx, tx, agency.New{ParentID: &w.root.ID, Name: "Other", EnableFlightService: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg != nil {
		c := w.agency.Config()
		cfg(&c)
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("config: %v", errs)
		}
		w.admin = agency.NewService(db, w.agencies, nil)
		provider := auth.Principal{AgencyID: w.root.ID, Subject: auth.Subject{ProxyLevel: 0, Roles: []string{"SuperUser"}}}
		if _, _, err := w.admin.SetConfig(ctx, provider, w.agency.ID, c); err != nil {
			t.Fatal(err)
		}
	}
	// Registered after the database's cleanup, so it runs before: searches
	// still running stop and store their answers, then the database closes.
	base, stop := context.WithCancel(ctx)
	w.stop = stop
	// The session store groups its inserts, as voyage serve's does.
	sessions := shopping.NewSQLSessions(db)
	stopGroup := sessions.Group(32)
	w.eng = shopping.New(sources, shopping.Options{
		Sessions: sessions, Quotes: shopping.NewQuotes(db), Agencies: w.agencies, Base: base,
		Looks: &noLooks{n: map[string]int{}}, Now: w.clock, Catalog: i18n.MustLoad(),
		Rates: func(context.Context) (map[string]string, error) {
			return map[string]string{"CNY": "1", "USD": "7.2"}, nil
		},
	})
	t.Cleanup(func() {
		stop()
		w.eng.Wait()
		stopGroup()
	})
	return w
}

var day = time.Now().AddDate(0, 0, 30).Format(time.DateOnly)

func oneWay(from, to string) shopping.Request {
	return shopping.Request{Journeys: []supplier.JourneyQuery{{Origin: from, Destination: to, Date: day}},
		Passengers: supplier.Passengers{Adult: 1}, BookingType: shopping.OneWay}
}

// poll asks w's engine for a page until cond holds or ten seconds pass.
func poll(t *testing.T, w *world, id string, q shopping.Query, cond func(shopping.Page) bool) shopping.Page {
	t.Helper()
	q.SearchID = id
	return pollQuery(t, w, w.eng, q, cond)
}

// pollQuery asks e for a page until cond holds or ten seconds pass. The
// suppliers answer on the engine's goroutines and a page is what a client
// sees of them, so the test polls as a client does: it waits for their
// work, not for time to pass.
func pollQuery(t *testing.T, w *world, e *shopping.Engine, q shopping.Query, cond func(shopping.Page) bool) shopping.Page {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, err := e.Solutions(context.Background(), w.who(), q, "en")
		if err != nil {
			t.Fatalf("poll: %v", err)
		}
		if cond(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("poll: condition not met; last page complete=%v partial=%v lost=%v total=%d suppliers=%+v",
				p.Complete, p.Partial, p.LostSuppliers, p.Total, p.Suppliers)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// arrived waits until the answer to part reached search id on w's engine:
// the supplier answers on the engine's goroutine, and the test waits for
// it, not for time to pass.
func arrived(t *testing.T, w *world, id, part string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !w.eng.Arrived(id, part) {
		if time.Now().After(deadline) {
			t.Fatalf("the answer to %s never arrived", part)
		}
		// Not a clock: the supplier's goroutine delivers the answer; this
		// only spaces the checks.
		time.Sleep(time.Millisecond)
	}
}

// pollError polls until the search answers an error (or ten seconds pass,
// answering nil) and returns it. The search fails on the engine's
// goroutines (a hung supplier's deadline is a real context's), so the
// test polls for it as a client does.
func pollError(w *world, id string) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: id}, "en"); err != nil {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

func status(p shopping.Page, name string) string {
	for _, s := range p.Suppliers {
		if s.Name == name {
			return s.Status
		}
	}
	return ""
}

func direct(sup string, price int64, numbers ...string) func(supplier.SearchRequest) []supplier.Offer {
	return func(req supplier.SearchRequest) []supplier.Offer {
		j := req.Journeys[0]
		if len(req.Journeys) != 1 || j.Origin != "PEK" || j.Destination != "LHR" {
			return nil
		}
		var out []supplier.Offer
		for i, n := range numbers {
			out = append(out, flight(sup, n, "PEK", "LHR", j.Date, 8+i*3, 0, 660, price+int64(i)*100))
		}
		return out
	}
}

func TestEngineStreamsLateFailingAndDuplicateAnswers(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		late := &fake{name: "ndc", gate: make(chan struct{}), answer: direct("ndc", 4000, "CA937", "BA38")}
		fast := &fake{name: "gds", answer: direct("gds", 5000, "CA937", "CA855")}
		broken := &fake{name: "lcc", err: fmt.Errorf("boom: %w", supplier.ErrUnavailable)}
		w := newWorld(t, db, func(c *agency.Config) { c.Flight.ShowSuppliers = true }, map[string]shopping.Source{
			"gds": {Supplier: fast}, "ndc": {Supplier: late}, "lcc": {Supplier: broken, OneWayOnly: true}})
		st := w.start(t, oneWay("PEK", "LHR"))
		// First the fast supplier's answer and the failure, the late one pending.
		p := poll(t, w, st.SearchID, shopping.Query{Sort: shopping.SortPrice}, func(p shopping.Page) bool {
			return status(p, "gds") == "done" && status(p, "lcc") == "failed"
		})
		if p.Complete || status(p, "ndc") != "pending" {
			t.Fatalf("complete=%v ndc=%s; want incomplete with ndc pending", p.Complete, status(p, "ndc"))
		}
		if p.Total != 2 || p.Items[0].Total.Amount != "5000.00" || p.Items[0].Source != "gds" {
			t.Fatalf("before ndc answers: total=%d first=%+v", p.Total, p.Items[0].Total)
		}
		close(late.gate)
		p = poll(t, w, st.SearchID, shopping.Query{Sort: shopping.SortPrice}, func(p shopping.Page) bool { return p.Complete })
		// CA937 from both: merged, ndc's cheaper price kept, both sources remembered.
		if p.Total != 3 {
			t.Fatalf("after ndc: %d solutions, want 3 (CA937 merged)", p.Total)
		}
		first := p.Items[0]
		if first.Segments[0].FlightNumber != "CA937" || first.Total.Amount != "4000.00" || !slices.Equal(first.Sources, []string{"gds", "ndc"}) {
			t.Fatalf("merged CA937 = %s %s sources %v", first.Segments[0].FlightNumber, first.Total.Amount, first.Sources)
		}
		if first.Segments[0].CarrierName != "Air China" || first.Segments[0].DestinationName == "LHR" {
			t.Fatalf("names not filled: %+v", first.Segments[0])
		}
		if status(p, "ndc") != "done" || status(p, "lcc") != "failed" {
			t.Fatalf("statuses %+v", p.Suppliers)
		}
	})
}

// A search with results is rebuilt at most every half second while
// suppliers still answer; a supplier whose answer waits for that rebuild
// shows as pending, never as done with its flights missing.
func TestEngineStatusesFollowTheSolutions(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		fast := &fake{name: "gds", answer: direct("gds", 5000, "CA937")}
		second := &fake{name: "ndc", gate: make(chan struct{}), answer: direct("ndc", 4000, "BA38")}
		last := &fake{name: "lcc", gate: make(chan struct{}), answer: direct("lcc", 3000, "U2801")}
		w := newWorld(t, db, func(c *agency.Config) { c.Flight.ShowSuppliers = true }, map[string]shopping.Source{
			"gds": {Supplier: fast}, "ndc": {Supplier: second}, "lcc": {Supplier: last, OneWayOnly: true}})
		st := w.start(t, oneWay("PEK", "LHR"))
		poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Total == 1 })
		close(second.gate)
		held := false
		p := poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool {
			ndc := status(p, "ndc")
			if ndc == "done" && p.Total != 2 {
				t.Fatalf("ndc shows done with %d solutions, want its flight listed too", p.Total)
			}
			if ndc == "pending" && p.Total == 1 {
				held = true
			}
			return ndc == "done"
		})
		if p.Complete || p.Total != 2 || status(p, "lcc") != "pending" {
			t.Fatalf("after ndc: complete=%v total=%d lcc=%s", p.Complete, p.Total, status(p, "lcc"))
		}
		if !held {
			t.Log("ndc's answer was built at once; the held-back case did not occur")
		}
		close(last.gate)
		p = poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
		if p.Total != 3 || status(p, "lcc") != "done" {
			t.Fatalf("complete: total=%d lcc=%s", p.Total, status(p, "lcc"))
		}
	})
}

// A page read in one language and then in another, with nothing else
// changed, names the airlines and airports in the second: the solutions
// kept between polls are kept per language.
func TestEnginePageFollowsTheLanguage(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: &fake{name: "gds", answer: direct("gds", 5000, "CA937")}}})
		st := w.start(t, oneWay("PEK", "LHR"))
		poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
		names := func(lang string) string {
			p, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID}, lang)
			if err != nil || len(p.Items) != 1 {
				t.Fatalf("%s: %v, %d items", lang, err, len(p.Items))
			}
			s := p.Items[0].Segments[0]
			return s.CarrierName + " " + s.OriginName
		}
		en, zh, again := names("en"), names("zh-cn"), names("en")
		if !strings.HasPrefix(en, "Air China ") {
			t.Errorf("en: %q", en)
		}
		if zh == en || !strings.HasPrefix(zh, "中国国际航空") {
			t.Errorf("zh-cn: %q, en %q", zh, en)
		}
		if again != en {
			t.Errorf("en again: %q, first %q", again, en)
		}
	})
}

// A server shutting down cancels the searches in flight and waits for them:
// every supplier call ends up stored, answered or timed out, for the
// instance that serves the search next.
func TestEngineShutdownStoresEveryAnswer(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db, nil, map[string]shopping.Source{
			"gds": {Supplier: &fake{name: "gds", answer: direct("gds", 5000, "CA937")}},
			"ndc": {Supplier: &fake{name: "ndc", hang: true}}})
		st := w.start(t, oneWay("PEK", "LHR"))
		poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Total == 1 })
		w.stop()
		w.eng.Wait()
		sessions := shopping.NewSQLSessions(db)
		sess, err := sessions.Get(context.Background(), st.SearchID)
		if err != nil {
			t.Fatal(err)
		}
		parts, err := sessions.Parts(context.Background(), st.SearchID, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		by := map[string]int{}
		for _, p := range parts {
			if !strings.HasPrefix(p.Name, "batch:") {
				by[p.Supplier+" "+p.Status]++
			}
		}
		if half := sess.Parts / 2; by["gds done"] != half || by["ndc timeout"] != half {
			t.Fatalf("stored after shutdown: %v, want %d done from gds and %d timed out from ndc", by, half, half)
		}
	})
}

// A search asks each supplier for the trip, each journey alone, and the
// legs through connecting airports; only the legs are asked nonstop.
func TestEnginePlanAsksLegsDirect(t *testing.T) {
	t.Parallel()
	eng := shopping.New(map[string]shopping.Source{"gds": {Supplier: &fake{name: "gds"}}}, shopping.Options{})
	req := oneWay("PEK", "LHR")
	req.BookingType = shopping.Return
	req.Journeys = append(req.Journeys, supplier.JourneyQuery{Origin: "LHR", Destination: "PEK", Date: time.Now().AddDate(0, 0, 37).Format(time.DateOnly)})
	kinds := map[string]int{}
	for _, c := range eng.Plan(req, "CNY") {
		kind := strings.SplitN(c.Part, "/", 2)[0]
		kinds[kind]++
		if c.Req.Direct != (kind == "leg") {
			t.Errorf("%s: direct=%v", c.Part, c.Req.Direct)
		}
	}
	if kinds["main"] != 1 || kinds["oneway"] != 2 || kinds["leg"] == 0 {
		t.Fatalf("planned calls by kind: %v", kinds)
	}
}

// The engine keeps a search built in memory while it is used: one idle for
// CacheIdle, or the oldest past the bound, leaves (unless its suppliers are
// still answering), and the next poll rebuilds it from the store with the
// same solutions.
func TestEngineCacheLetsIdleSearchesGo(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		gate := make(chan struct{})
		defer close(gate)
		w := newWorld(t, db, nil, map[string]shopping.Source{
			"gds": {Supplier: &fake{name: "gds", answer: direct("gds", 5000, "CA937", "CA855")}},
			"ndc": {Supplier: &fake{name: "ndc", answer: func(req supplier.SearchRequest) []supplier.Offer {
				if req.Journeys[0].Destination == "JFK" {
					<-gate // the PEK-JFK search keeps running
				}
				return nil
			}}}})
		ctx := context.Background()
		start := func(to string) (string, shopping.Page) {
			t.Helper()
			req := oneWay("PEK", to)
			st, err := w.eng.Start(ctx, w.who(), req)
			if err != nil {
				t.Fatal(err)
			}
			if to == "JFK" {
				return st.SearchID, shopping.Page{}
			}
			p := poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
			return st.SearchID, p
		}
		done, page := start("LHR")
		running, _ := start("JFK")
		if page.Total != 2 || !w.eng.Cached(done) || !w.eng.Cached(running) {
			t.Fatalf("fresh searches: total %d, cached %v %v", page.Total, w.eng.Cached(done), w.eng.Cached(running))
		}

		// Idle for longer than CacheIdle: the finished search leaves on the
		// next sweep, the running one stays.
		// (Any poll sweeps; this one's answer does not matter: on this clock
		// the running search is past its deadline.)
		w.now.Store(time.Now().Add(shopping.CacheIdle + time.Minute).UnixNano())
		_, _ = w.eng.Solutions(ctx, w.who(), shopping.Query{SearchID: running}, "en")
		if w.eng.Cached(done) || !w.eng.Cached(running) {
			t.Fatalf("after idling: cached done=%v running=%v, want false true", w.eng.Cached(done), w.eng.Cached(running))
		}
		again, err := w.eng.Solutions(ctx, w.who(), shopping.Query{SearchID: done}, "en")
		if err != nil || !again.Complete || again.Total != page.Total || again.Items[0].ID != page.Items[0].ID {
			t.Fatalf("rebuilt from the store: %+v, %v; want the same %d solutions", again, err, page.Total)
		}
		if !w.eng.Cached(done) {
			t.Fatal("a polled search is not cached again")
		}

		// Past the bound the least recently used finished searches go.
		w.now.Store(0)
		if _, err := w.eng.Solutions(ctx, w.who(), shopping.Query{SearchID: done}, "en"); err != nil {
			t.Fatal(err)
		}
		w.eng.SetMaxCached(4)
		var ids []string
		for range 4 {
			id, _ := start("LHR")
			ids = append(ids, id)
		}
		if !w.eng.Cached(running) || w.eng.Cached(done) || w.eng.Cached(ids[0]) || !w.eng.Cached(ids[3]) {
			t.Fatalf("past the bound: running %v, oldest %v %v, newest %v", w.eng.Cached(running), w.eng.Cached(done),
				w.eng.Cached(ids[0]), w.eng.Cached(ids[3]))
		}
		if p, err := w.eng.Solutions(ctx, w.who(), shopping.Query{SearchID: ids[0]}, "en"); err != nil || p.Total != 2 {
			t.Fatalf("a trimmed search polled again: %v, %v", p.Total, err)
		}
	})
}

// Under load a search with results is rebuilt every second, not every half
// second, as its suppliers answer; its complete answer is built at once.
func TestEngineBusyRebuildsLessOften(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		second := &fake{name: "ndc", gate: make(chan struct{}), answer: direct("ndc", 4000, "BA38")}
		last := &fake{name: "lcc", gate: make(chan struct{}), answer: direct("lcc", 3000, "U2801")}
		w := newWorld(t, db, func(c *agency.Config) { c.Flight.ShowSuppliers = true }, map[string]shopping.Source{
			"gds": {Supplier: &fake{name: "gds", answer: direct("gds", 5000, "CA937")}}, "ndc": {Supplier: second},
			"lcc": {Supplier: last, OneWayOnly: true}})
		w.eng.SetBusyAt(0) // this one search is load enough
		// The engine's clock stands still unless the test moves it: only
		// that lets a rebuild happen.
		t0 := time.Now()
		w.now.Store(t0.UnixNano())
		st := w.start(t, oneWay("PEK", "LHR"))
		q := shopping.Query{SearchID: st.SearchID}
		page := func() shopping.Page {
			t.Helper()
			p, err := w.eng.Solutions(context.Background(), w.who(), q, "en")
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		// The first build, at t0, shows gds's flight once its whole-trip
		// answer has arrived (a build with nothing would hold the next one
		// back too).
		arrived(t, w, st.SearchID, "main/gds")
		if p := page(); p.Total != 1 {
			t.Fatalf("gds's answer shows %d solutions, want 1", p.Total)
		}
		close(second.gate)
		// Only a whole-trip answer is worth a rebuild under load.
		arrived(t, w, st.SearchID, "main/ndc")
		w.now.Store(t0.Add(time.Second - time.Nanosecond).UnixNano())
		if p := page(); p.Total != 1 || status(p, "ndc") != "pending" {
			t.Fatalf("just before a second after the last build: %d solutions, ndc %s; want no rebuild", p.Total, status(p, "ndc"))
		}
		w.now.Store(t0.Add(time.Second).UnixNano())
		p := page()
		if p.Total != 2 || status(p, "ndc") != "done" || p.Complete {
			t.Fatalf("a second after the last build: %d solutions, ndc %s, complete %v; want 2, done, not complete", p.Total, status(p, "ndc"), p.Complete)
		}
		close(last.gate)
		p = poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
		if p.Total != 3 {
			t.Fatalf("complete with %d solutions, want 3", p.Total)
		}
	})
}

func TestEngineTimeoutAndNothingFound(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		slow := &fake{name: "gds", hang: true}
		empty := &fake{name: "ndc"}
		w := newWorld(t, db, func(c *agency.Config) { c.Flight.MaxResponseTime = 1 }, map[string]shopping.Source{
			"gds": {Supplier: slow}, "ndc": {Supplier: empty}})
		st := w.start(t, oneWay("PEK", "LHR"))
		err := pollError(w, st.SearchID)
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.CodeNoFlight {
			t.Fatalf("after the timeout with no offers: %v, want code %d", err, fault.CodeNoFlight)
		}
	})
}

func TestEngineStaleAndForeignSearch(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: &fake{name: "gds", answer: direct("gds", 3000, "CA937")}}})
		st := w.start(t, oneWay("PEK", "LHR"))
		p := poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
		id := p.Items[0].ID
		// Another agency neither polls nor verifies it.
		stranger := auth.Principal{AgencyID: w.other.ID}
		if _, err := w.eng.Solutions(context.Background(), stranger, shopping.Query{SearchID: st.SearchID}, "en"); !isCode(err, fault.CodeNotFound) {
			t.Fatalf("stranger poll: %v", err)
		}
		if _, err := w.eng.Verify(context.Background(), stranger, id, "en"); !isCode(err, fault.CodeNotFound) {
			t.Fatalf("stranger verify: %v", err)
		}
		// The parent agency may.
		parent := auth.Principal{AgencyID: w.root.ID}
		if _, err := w.eng.Solutions(context.Background(), parent, shopping.Query{SearchID: st.SearchID}, "en"); err != nil {
			t.Fatalf("parent poll: %v", err)
		}
		w.now.Store(time.Now().Add(shopping.StaleAfter + time.Second).UnixNano())
		if _, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID}, "en"); !isCode(err, fault.CodeQuoteExpired) {
			t.Fatalf("stale poll: %v, want %d", err, fault.CodeQuoteExpired)
		}
	})
}

func isCode(err error, code int) bool {
	fe, ok := fault.As(err)
	return ok && fe.Code == code
}

func TestEngineRejectsBadJourneys(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: &fake{name: "gds"}}})
		past := time.Now().AddDate(0, 0, -1).Format(time.DateOnly)
		cases := []struct {
			name  string
			req   shopping.Request
			field string
			key   string
		}{
			{"no journeys", shopping.Request{}, "journeys", "flight.booking.journeyError.empty"},
			{"same city", oneWay("PEK", "PKX"), "journeys[0].destination", "order.flight.booking.journeyError.rules"},
			{"unknown airport", oneWay("PEK", "QQQ"), "journeys[0].destination", "shopping.error.airport"},
			{"past date", shopping.Request{Journeys: []supplier.JourneyQuery{{Origin: "PEK", Destination: "LHR", Date: past}}}, "journeys[0].date", "shopping.error.datePast"},
			{"infants", shopping.Request{Journeys: oneWay("PEK", "LHR").Journeys, Passengers: supplier.Passengers{Adult: 1, Infant: 2}}, "passengers", "shopping.error.infants"},
			{"six flights", shopping.Request{BookingType: shopping.Multi, Journeys: slices.Repeat(oneWay("PEK", "LHR").Journeys, 6)}, "journeys", "shopping.error.tooManyJourneys"},
		}
		for _, c := range cases {
			_, err := w.eng.Start(context.Background(), w.who(), c.req)
			fe, ok := fault.As(err)
			if !ok || fe.Fields[c.field] != c.key {
				t.Errorf("%s: %v, want %s=%s", c.name, err, c.field, c.key)
			}
		}
		var n int
		if err := db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM search_sessions`); err != nil || n != 0 {
			t.Fatalf("rejected searches stored %d sessions (%v)", n, err)
		}
	})
}

// Another instance (a second engine on the same database) serves the polls
// of a search the first one started.
func TestEngineAnotherInstancePolls(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		sources := map[string]shopping.Source{"gds": {Supplier: &fake{name: "gds", answer: direct("gds", 3000, "CA937", "CA855")}}}
		w := newWorld(t, db, nil, sources)
		other := shopping.New(sources, shopping.Options{Sessions: shopping.NewSQLSessions(db), Quotes: shopping.NewQuotes(db), Agencies: w.agencies,
			Looks: &noLooks{n: map[string]int{}}, Catalog: i18n.MustLoad(),
			Rates: func(context.Context) (map[string]string, error) { return map[string]string{"CNY": "1"}, nil }})
		st := w.start(t, oneWay("PEK", "LHR"))
		p := pollOn(t, w, other, st.SearchID, func(p shopping.Page) bool { return p.Complete })
		if p.Total != 2 {
			t.Fatalf("other instance sees %d solutions, want 2", p.Total)
		}
		v, err := other.Verify(context.Background(), w.who(), p.Items[0].ID, "en")
		if err != nil || v.Status != supplier.PriceOK {
			t.Fatalf("verify on the other instance: %+v %v", v, err)
		}
	})
}

// Legs from two suppliers combine through a hub into a self-transfer that
// respects the connection time; a return is also built from two one-ways.
func TestEngineInterlinesAndCombinesOneWays(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		// gds flies PEK→X (any hub asked) early and X→LHR late; lcc the reverse
		// pattern; neither sells PEK→LHR on one ticket.
		legs := func(sup string, carrier string, base int64) func(supplier.SearchRequest) []supplier.Offer {
			return func(req supplier.SearchRequest) []supplier.Offer {
				if len(req.Journeys) != 1 {
					return nil
				}
				j := req.Journeys[0]
				if geo.Resolve(j.Origin) == nil || geo.Resolve(j.Destination) == nil {
					return nil
				}
				from, to := geo.Resolve(j.Origin)[0], geo.Resolve(j.Destination)[0]
				if (from == "PEK" && to == "LHR") || (from == "LHR" && to == "PEK") {
					return nil
				}
				mins := int(30 + geo.DistanceKm(from, to)/800*60)
				return []supplier.Offer{
					flight(sup, carrier+"1", from, to, j.Date, 1, 0, mins, base),
					flight(sup, carrier+"2", from, to, j.Date, 9, 0, mins, base+500),
					flight(sup, carrier+"3", from, to, j.Date, 19, 0, mins, base+200),
				}
			}
		}
		oneways := func(req supplier.SearchRequest) []supplier.Offer {
			var out []supplier.Offer
			for _, j := range req.Journeys {
				from, to := geo.Resolve(j.Origin)[0], geo.Resolve(j.Destination)[0]
				if (from == "PEK" && to == "LHR") || (from == "LHR" && to == "PEK") {
					out = append(out, flight("lcc", "U2"+from[:1], from, to, j.Date, 10, 0, 660, 2500))
				}
			}
			return out
		}
		gds := &fake{name: "gds", answer: legs("gds", "CA", 1500)}
		lcc := &fake{name: "lcc", answer: func(r supplier.SearchRequest) []supplier.Offer {
			return append(legs("lcc", "EK", 1200)(r), oneways(r)...)
		}}
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: gds}, "lcc": {Supplier: lcc, OneWayOnly: true}})

		st := w.start(t, oneWay("PEK", "LHR"))
		p := poll(t, w, st.SearchID, shopping.Query{Sort: shopping.SortPrice, PageSize: 100}, func(p shopping.Page) bool { return p.Complete })
		selfTransfers := 0
		for _, s := range p.Items {
			if !s.SelfTransfer {
				continue
			}
			selfTransfers++
			if s.Source != "interline" || s.Tickets != 2 || len(s.Journeys) != 1 || !s.Journeys[0].SelfTransfer || s.Protection == "" {
				t.Fatalf("self-transfer solution = %+v", s)
			}
			a, b := s.Segments[0], s.Segments[1]
			if a.Destination != b.Origin {
				t.Fatalf("legs do not connect: %s-%s then %s-%s", a.Origin, a.Destination, b.Origin, b.Destination)
			}
			ap, _ := geo.AirportByCode(a.Destination)
			mct := time.Duration(max(ap.MinConnect, 1)) * time.Minute
			if b.DepartAt.Sub(a.ArriveAt) < mct+30*time.Minute {
				t.Fatalf("connection at %s of %v, under the %v minimum plus the self-transfer buffer", a.Destination, b.DepartAt.Sub(a.ArriveAt), mct)
			}
		}
		if selfTransfers == 0 {
			t.Fatalf("no self-transfer among %d solutions", p.Total)
		}

		back := time.Now().AddDate(0, 0, 37).Format(time.DateOnly)
		rt := shopping.Request{BookingType: shopping.Return, Journeys: []supplier.JourneyQuery{
			{Origin: "PEK", Destination: "LHR", Date: day}, {Origin: "LHR", Destination: "PEK", Date: back}}}
		st = w.start(t, rt)
		p = poll(t, w, st.SearchID, shopping.Query{Sort: shopping.SortPrice}, func(p shopping.Page) bool { return p.Complete })
		if p.Total == 0 || len(p.Items[0].Journeys) != 2 || p.Items[0].Tickets < 2 {
			t.Fatalf("return from one-ways: %+v", p.Items)
		}
		if p.Items[0].Journeys[1].DepartAt.Format(time.DateOnly) != back {
			t.Fatalf("inbound leaves %v, want %s", p.Items[0].Journeys[1].DepartAt, back)
		}
	})
}

// The agency's settings shape what it sees: markups with their limit,
// hidden mainland content, an airline blacklist.
func TestEngineAppliesAgencySettings(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		answer := func(req supplier.SearchRequest) []supplier.Offer {
			j := req.Journeys[0]
			if len(req.Journeys) != 1 {
				return nil
			}
			from, to := geo.Resolve(j.Origin)[0], geo.Resolve(j.Destination)[0]
			return []supplier.Offer{
				flight("gds", "CA937", from, to, j.Date, 14, 0, 660, 5000),
				flight("gds", "BA38", from, to, j.Date, 11, 0, 660, 6000),
			}
		}
		w := newWorld(t, db, func(c *agency.Config) {
			c.Flight.Markups["intercontinental"] = agency.Markup{Unit: "percent", Value: "10", Limit: "300"}
			c.Flight.AirlineFilter = agency.AirlineFilter{Mode: "blacklist", Airlines: []string{"BA"}}
			c.Settings.HideMainland = true
		}, map[string]shopping.Source{"gds": {Supplier: &fake{name: "gds", answer: answer}}})
		// PEK is mainland China: hidden, so nothing is found.
		st := w.start(t, oneWay("PEK", "LHR"))
		err := pollError(w, st.SearchID)
		if !isCode(err, fault.CodeNoFlight) {
			t.Fatalf("mainland route for an agency hiding mainland content: %v", err)
		}
		// HKG→LHR: BA blacklisted, CA's 5000 + 10% capped at 300.
		st = w.start(t, oneWay("HKG", "LHR"))
		p := poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
		if p.Total != 1 || p.Items[0].Segments[0].Carrier != "CA" {
			t.Fatalf("blacklist: %+v", p.Items)
		}
		pl := p.Items[0].PriceDetail.PriceList[0]
		if pl.Price != "5000.00" || pl.SalePrice != "5300.00" || p.Items[0].Total.Amount != "5300.00" {
			t.Fatalf("markup: %+v total %s", pl, p.Items[0].Total.Amount)
		}
	})
}

// Verification reports the supplier's outcome, stores a quote only for a
// bookable price, and maps a supplier time-out to 400003.
func TestEngineVerifyOutcomes(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var mode atomic.Value
		mode.Store("ok")
		f := &fake{name: "gds", answer: direct("gds", 3000, "CA937"), price: func(o supplier.Offer) (supplier.PriceResult, error) {
			switch mode.Load() {
			case "up":
				o.Fares = slices.Clone(o.Fares)
				o.Fares[0].Base += 12300
				return supplier.PriceResult{Status: supplier.PriceChanged, Offer: o}, nil
			case "gone":
				return supplier.PriceResult{}, fmt.Errorf("x: %w", supplier.ErrOfferGone)
			case "slow":
				return supplier.PriceResult{}, fmt.Errorf("x: %w", supplier.ErrTimeout)
			}
			return supplier.PriceResult{Status: supplier.PriceOK, Offer: o}, nil
		}}
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: f}})
		st := w.start(t, oneWay("PEK", "LHR"))
		p := poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
		id := p.Items[0].ID
		quotes := func() int {
			var n int
			_ = db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM flight_quotes`)
			return n
		}
		v, err := w.eng.Verify(context.Background(), w.who(), id, "en")
		if err != nil || v.Status != supplier.PriceOK || v.QuoteID == "" || v.Solution.Total.Amount != "3000.00" || quotes() != 1 {
			t.Fatalf("ok: %+v %v", v, err)
		}
		mode.Store("up")
		v, err = w.eng.Verify(context.Background(), w.who(), id, "en")
		if err != nil || v.Status != supplier.PriceChanged || v.Solution.Total.Amount != "3123.00" || v.PreviousTotal.Amount != "3000.00" || quotes() != 2 {
			t.Fatalf("price changed: %+v %v", v, err)
		}
		mode.Store("gone")
		v, err = w.eng.Verify(context.Background(), w.who(), id, "en")
		if err != nil || v.Status != supplier.PriceInvalid || v.QuoteID != "" || quotes() != 2 {
			t.Fatalf("invalid: %+v %v", v, err)
		}
		// An integrator reads no expiry for a quote that was not made.
		if b, _ := json.Marshal(v); strings.Contains(string(b), "quoteExpiresAt") {
			t.Errorf("an invalid solution's answer has an expiry: %s", b)
		}
		mode.Store("slow")
		if _, err = w.eng.Verify(context.Background(), w.who(), id, "en"); !isCode(err, fault.CodeSearchTimeout) {
			t.Fatalf("time-out: %v", err)
		}
		if _, err = w.eng.Verify(context.Background(), w.who(), st.SearchID+"_nosuch", "en"); !isCode(err, fault.CodeNotFound) {
			t.Fatalf("unknown solution: %v", err)
		}
	})
}

// A page made again takes the Solutions it shares with the page before
// from it (see Engine.Solutions), each under its own id, and only in the
// language they were made in: asked for in another language, a page is
// made in it; asked for again in the first, it is what it was.
func TestPageMadeAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t, storetest.Open(t, store.SQLite), nil, simSources(t))
	st, err := w.eng.Start(ctx, w.who(), oneWay("PEK", "SHA"))
	if err != nil {
		t.Fatal(err)
	}
	en := poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete })
	if len(en.Items) == 0 {
		t.Fatal("no solutions")
	}
	page := func(lang string) shopping.Page {
		p, err := w.eng.Solutions(ctx, w.who(), shopping.Query{SearchID: st.SearchID}, lang)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	zh, again := page(i18n.ZhCN), page(i18n.EN)
	for i, want := range en.Items {
		if got := zh.Items[i]; got.ID != want.ID || got.Segments[0].OriginName == want.Segments[0].OriginName {
			t.Fatalf("solution %d in Chinese: %s from %q, in English %s from %q", i, got.ID, got.Segments[0].OriginName, want.ID, want.Segments[0].OriginName)
		}
		if got := again.Items[i]; got.ID != want.ID || got.Segments[0].OriginName != want.Segments[0].OriginName || got.Total != want.Total {
			t.Fatalf("solution %d asked for again in English: %s from %q, first %s from %q", i, got.ID, got.Segments[0].OriginName, want.ID, want.Segments[0].OriginName)
		}
	}
	// Sorted otherwise, the page has some of the same solutions, taken from
	// the page before: each the one with its id.
	byPrice, err := w.eng.Solutions(ctx, w.who(), shopping.Query{SearchID: st.SearchID, Sort: shopping.SortPrice}, i18n.EN)
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]shopping.Solution{}
	for _, s := range again.Items {
		before[s.ID] = s
	}
	seen, same := map[string]bool{}, 0
	for _, s := range byPrice.Items {
		if seen[s.ID] {
			t.Fatalf("solution %s twice on the page sorted by price", s.ID)
		}
		seen[s.ID] = true
		if b, ok := before[s.ID]; ok {
			same++
			if !reflect.DeepEqual(b, s) {
				t.Fatalf("solution %s sorted by price differs from the same solution on the page before", s.ID)
			}
		}
	}
	if same == 0 {
		t.Fatal("the page sorted by price shares no solution with the page before")
	}
}

// While a supplier is still answering, the solutions are a preview: the
// one-ways of each journey are combined into the cheapest hundred trips
// only. The complete answer combines them all, and so does the search
// whose time to answer is over with a supplier still silent, though no
// answer came since the preview.
func TestEnginePreviewCombinesTheCheapestTrips(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		back := time.Now().AddDate(0, 0, 37).Format(time.DateOnly)
		// Twelve one-ways each way: 144 returns.
		oneways := func(req supplier.SearchRequest) []supplier.Offer {
			var out []supplier.Offer
			for _, j := range req.Journeys {
				if j.Date != day && j.Date != back || len(j.Origin) != 3 || len(j.Destination) != 3 {
					continue
				}
				if !(j.Origin == "PEK" && j.Destination == "LHR" || j.Origin == "LHR" && j.Destination == "PEK") {
					continue
				}
				for i := range 12 {
					out = append(out, flight("lcc", fmt.Sprintf("U2%d%02d", len(out)/12, i), j.Origin, j.Destination, j.Date, 6+i, 0, 660, 1000+int64(i)*100))
				}
			}
			return out
		}
		lcc := &fake{name: "lcc", answer: oneways}
		silent := &fake{name: "gds", gate: make(chan struct{})}
		w := newWorld(t, db, nil, map[string]shopping.Source{"lcc": {Supplier: lcc, OneWayOnly: true}, "gds": {Supplier: silent}})
		rt := shopping.Request{BookingType: shopping.Return, Passengers: supplier.Passengers{Adult: 1}, Journeys: []supplier.JourneyQuery{
			{Origin: "PEK", Destination: "LHR", Date: day}, {Origin: "LHR", Destination: "PEK", Date: back}}}
		q := shopping.Query{Sort: shopping.SortPrice}

		st := w.start(t, rt)
		p := poll(t, w, st.SearchID, q, func(p shopping.Page) bool { return p.Total > 0 })
		if p.Complete || p.Total != 100 {
			t.Fatalf("preview: complete=%v total=%d, want 100 of the 144 trips while gds answers", p.Complete, p.Total)
		}
		if got := p.Items[0].Total.Amount; got != "2000.00" {
			t.Fatalf("preview's cheapest = %s, want the two cheapest one-ways, 2000.00", got)
		}
		// gds never answers: past the time to answer (20 s and the grace),
		// the search is built whole from the answers it has.
		w.now.Store(time.Now().Add(30 * time.Second).UnixNano())
		p = poll(t, w, st.SearchID, q, func(p shopping.Page) bool { return p.Total != 100 })
		if p.Total != 144 {
			t.Fatalf("past the time to answer: total=%d, want all 144 trips", p.Total)
		}
		w.now.Store(0)

		// A search whose suppliers all answer: complete, whole.
		close(silent.gate)
		st = w.start(t, rt)
		p = poll(t, w, st.SearchID, q, func(p shopping.Page) bool { return p.Complete })
		if p.Total != 144 || p.Items[0].Total.Amount != "2000.00" {
			t.Fatalf("complete: total=%d cheapest=%s, want 144 from 2000.00", p.Total, p.Items[0].Total.Amount)
		}
	})
}
