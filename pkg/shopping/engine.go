// Package shopping is the flight search engine: it fans a search out to the
// agency's suppliers, stores each answer in a search session as it arrives,
// merges identical itineraries, builds virtual-interlining combinations,
// prices everything for the agency and serves filtered, sorted pages to the
// poller. It also checks a chosen solution's price again (verification) and
// keeps the verified quote for booking.
package shopping

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/supplier"
)

// Timing rules (spec §4, §9).
const (
	// StaleAfter: results are re-queried 10 minutes after the search.
	StaleAfter = 10 * time.Minute
	// QuoteValidity: a verified price holds for 15 minutes.
	QuoteValidity = 15 * time.Minute
	// completeGrace: after the agency's maximum response time plus this, a
	// part nobody stored (its instance died) counts as timed out.
	completeGrace = 5 * time.Second
)

// Source is a supplier as the engine uses it.
type Source struct {
	Supplier supplier.Supplier
	// OneWayOnly sources answer each journey with separate one-way offers
	// (low-cost carriers); the engine does not ask them per journey again.
	OneWayOnly bool
}

// Agencies is what the engine needs of the agency service.
type Agencies interface {
	Get(ctx context.Context, id int64) (agency.Agency, error)
	IsWithin(ctx context.Context, root, id int64) (bool, error)
}

// Looks counts the look-to-book figures.
type Looks interface {
	CountLook(ctx context.Context, agencyID int64, counter string) error
}

// Rates are the exchange rates in force (currency → worth of one unit in the
// site's default currency).
type Rates func(ctx context.Context) (map[string]string, error)

// Engine is the shopping engine.
type Engine struct {
	sources  map[string]Source
	names    []string
	sessions SessionStore
	quotes   *Quotes
	agencies Agencies
	looks    Looks
	rates    Rates
	now      func() time.Time
	// base is cancelled when the server shuts down: searches in flight stop.
	base    context.Context
	log     *slog.Logger
	catalog *i18n.Catalog

	mu        sync.Mutex
	cache     map[string]*state
	lastSweep time.Time
	// parallel bounds the calls of one search to one supplier running at
	// once. Per supplier, not per search: a search asks each supplier for
	// about fifteen things (the trip, each journey, the legs through two
	// connecting airports), and a bound on the total made the last calls
	// wait for the first ones, doubling the search's time.
	parallel int
	// runs are the searches calling suppliers and storing their answers.
	runs sync.WaitGroup
	// maxCached is the cache's bound (the constant; tests lower it).
	maxCached int
	// running counts the searches calling their suppliers and storing their
	// answers; past busyAt the instance is busy (see busyPerCore), and at
	// capacity it takes no new search (see admit).
	running  atomic.Int64
	busyAt   int64
	capacity int64
	// cpu orders completing builds before encoding for the store (slots.go).
	cpu *slots
	// onSearch is Options.OnSearch (nil: nobody counts).
	onSearch func(admitted bool)
}

// Options configure an engine.
type Options struct {
	Sessions SessionStore
	Quotes   *Quotes
	Agencies Agencies
	Looks    Looks
	Rates    Rates
	Now      func() time.Time
	Base     context.Context
	Logger   *slog.Logger
	// Catalog translates the self-transfer protection terms.
	Catalog *i18n.Catalog
	// MaxSearches is how many searches the instance runs at once (config
	// shopping.max_searches); 0 is searchesPerCore for each core.
	MaxSearches int
	// OnSearch, when set, is told of every search admitted (true) or
	// refused for want of room (false): the metrics' count.
	OnSearch func(admitted bool)
}

// searchesPerCore is the default capacity per core (see admission.go).
// On 2 cores shared with other work, 300 return searches started at once
// against the simulators with their real latency all stored every answer
// (the slowest complete after 8 s); of 400, 20 lost answers, batches having
// waited more than 10 s for the CPU. 100 per core keeps a margin below that.
const searchesPerCore = 100

// New returns an engine over the given sources (keyed by name).
func New(sources map[string]Source, o Options) *Engine {
	e := &Engine{sources: sources, sessions: o.Sessions, quotes: o.Quotes, agencies: o.Agencies, looks: o.Looks, rates: o.Rates,
		now: o.Now, base: o.Base, log: o.Logger, catalog: o.Catalog, cache: map[string]*state{}, parallel: 16,
		maxCached: maxCached, busyAt: int64(busyPerCore * runtime.GOMAXPROCS(0)), cpu: newSlots(0),
		capacity: int64(o.MaxSearches), onSearch: o.OnSearch}
	if e.capacity <= 0 {
		e.capacity = int64(searchesPerCore * runtime.GOMAXPROCS(0))
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.base == nil {
		e.base = context.Background()
	}
	if e.log == nil {
		e.log = slog.Default()
	}
	for n := range sources {
		e.names = append(e.names, n)
	}
	slices.Sort(e.names)
	return e
}

// Wait returns when every search has stopped calling suppliers and stored
// what they answered. A server cancels Options.Base and waits before it
// closes the database, or the last answers are lost.
func (e *Engine) Wait() { e.runs.Wait() }

// Suppliers are the configured supplier names.
func (e *Engine) Suppliers() []string { return slices.Clone(e.names) }

// Started is the answer to a new search: its id, to poll its solutions
// with, and until when its results hold.
type Started struct {
	// SearchID identifies the search: pass it as searchId to POST
	// /shopping/v2/flight/async-shopping/solutions.
	SearchID string `json:"searchId"`
	// ExpiresAt is when the search's results expire, 10 minutes after it
	// started (RFC 3339, UTC): polls and price checks after it answer
	// 400002.
	ExpiresAt time.Time `json:"expiresAt"`
}

// policy loads the agency's settings as the engine applies them.
func (e *Engine) policy(ctx context.Context, agencyID int64) (Policy, agency.Agency, error) {
	a, err := e.agencies.Get(ctx, agencyID)
	if err != nil {
		return Policy{}, a, fmt.Errorf("shopping: load agency: %w", err)
	}
	rates, err := e.rates(ctx)
	if err != nil {
		return Policy{}, a, fmt.Errorf("shopping: load rates: %w", err)
	}
	return PolicyFor(a.Config(), rates), a, nil
}

// newID is a random, unguessable search id.
func newID() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b)
	return idEncoding.EncodeToString(b)
}

// call is one supplier request of a search.
type call struct {
	part   string
	source string
	req    supplier.SearchRequest
}

// plan lists the supplier calls of a search: the whole trip from every
// supplier, each journey alone (for combining one-ways), and the legs through
// connecting airports for interlining.
func (e *Engine) plan(req *Request, p *Policy) []call {
	// Each journey's connection points, and the calls counted, first: a
	// search makes about forty calls, and appending them one by one made
	// three times their size in garbage.
	vias := make([][]string, len(req.Journeys))
	perSupplier := 1 + len(req.Journeys)
	if len(req.Exact) == 0 {
		for j, q := range req.Journeys {
			vias[j] = connectionPoints(q.Origin, q.Destination, maxVias)
			perSupplier += 3 * len(vias[j])
		}
	}
	calls := make([]call, 0, len(e.names)*perSupplier)
	whole := supplier.SearchRequest{Journeys: req.Journeys, Passengers: req.Passengers, Cabin: req.CabinClass, Currency: p.Currency}
	var carriers []string
	for _, x := range req.Exact {
		if c := x.FlightNumber[:min(2, len(x.FlightNumber))]; !slices.Contains(carriers, c) {
			carriers = append(carriers, c)
		}
	}
	whole.Carriers = carriers
	for _, name := range e.names {
		if len(p.Suppliers) > 0 && !slices.Contains(p.Suppliers, name) {
			continue
		}
		src := e.sources[name]
		calls = append(calls, call{part: "main/" + name, source: name, req: whole})
		if len(req.Journeys) > 1 && !src.OneWayOnly {
			for j, q := range req.Journeys {
				one := whole
				one.Journeys = []supplier.JourneyQuery{q}
				calls = append(calls, call{part: fmt.Sprintf("oneway/%s/%d", name, j), source: name, req: one})
			}
		}
		if len(req.Exact) > 0 {
			continue
		}
		for j, q := range req.Journeys {
			date, err := time.Parse(time.DateOnly, q.Date)
			if err != nil {
				continue
			}
			for _, via := range vias[j] {
				leg := whole
				leg.Carriers = nil
				// Interlining combines nonstop legs only.
				leg.Direct = true
				leg.Journeys = []supplier.JourneyQuery{{Origin: q.Origin, Destination: via, Date: q.Date}}
				calls = append(calls, call{part: legPartName(name, legKey{j, via, 1}, q.Date), source: name, req: leg})
				// The second leg may leave the next day after a long first leg.
				for _, d := range []time.Time{date, date.AddDate(0, 0, 1)} {
					leg2 := leg
					leg2.Journeys = []supplier.JourneyQuery{{Origin: via, Destination: q.Destination, Date: d.Format(time.DateOnly)}}
					calls = append(calls, call{part: legPartName(name, legKey{j, via, 2}, d.Format(time.DateOnly)), source: name, req: leg2})
				}
			}
		}
	}
	return calls
}

// popular says whether a route is served in "popular routes" search mode:
// both ends among the 100 busiest airports.
func popular(req *Request) bool {
	for _, j := range req.Journeys {
		for _, code := range []string{j.Origin, j.Destination} {
			ok := false
			for _, a := range geo.Resolve(code) {
				if ap, found := geo.AirportByCode(a); found && ap.Rank > 0 && ap.Rank <= 100 {
					ok = true
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// Start validates a search, stores its session and calls the suppliers in
// the background; the caller polls Solutions with the returned id.
func (e *Engine) Start(ctx context.Context, who auth.Principal, req Request) (Started, error) {
	now := e.now()
	if errs := req.Normalize(now); len(errs) > 0 {
		return Started{}, fault.Validation(errs)
	}
	// Before anything is read or written for it: a search refused costs
	// nothing.
	if !e.admit() {
		if e.onSearch != nil {
			e.onSearch(false)
		}
		return Started{}, e.busyError(now)
	}
	admitted := false
	defer func() {
		if !admitted {
			e.running.Add(-1)
		}
	}()
	p, _, err := e.policy(ctx, who.AgencyID)
	if err != nil {
		return Started{}, err
	}
	calls := e.plan(&req, &p)
	if p.PopularOnly && !popular(&req) {
		calls = nil
	}
	var names []string
	for _, c := range calls {
		if !slices.Contains(names, c.source) {
			names = append(names, c.source)
		}
	}
	s := Session{ID: newID(), AgencyID: who.AgencyID, UserID: who.UserID, Request: req, Parts: len(calls), Suppliers: names,
		CreatedAt: now, ExpiresAt: now.Add(StaleAfter)}
	if err := e.sessions.Create(ctx, s); err != nil {
		return Started{}, err
	}
	if err := e.looks.CountLook(ctx, who.AgencyID, "searches"); err != nil {
		e.log.WarnContext(ctx, "look-to-book count failed", "err", err)
	}
	st := e.remember(s, p, true)
	admitted = true
	if e.onSearch != nil {
		e.onSearch(true)
	}
	e.runs.Go(func() {
		defer e.running.Add(-1)
		defer st.running.Store(false)
		e.run(st, calls, time.Duration(p.MaxResponse)*time.Second)
	})
	return Started{SearchID: s.ID, ExpiresAt: s.ExpiresAt}, nil
}

// flushEvery is how long answers gather before they are stored together:
// a stored batch costs a write whatever its size (at 40 ms a search made 15
// of them, and SQLite spent more on them than on the bytes), and another
// instance's poller, the only one reading the store while the search runs,
// polls every 700 ms from the portal. The last answer is stored at once.
const flushEvery = 200 * time.Millisecond

// run calls the suppliers of a search concurrently under the agency's maximum
// response time. Answers are stored in batches as they arrive: whatever came
// in during the last flushEvery is written as one row.
func (e *Engine) run(st *state, calls []call, limit time.Duration) {
	s := st.sess
	ctx, cancel := context.WithTimeout(e.base, limit)
	defer cancel()
	answers := make(chan Part, len(calls))
	sems := map[string]chan struct{}{}
	for _, c := range calls {
		if sems[c.source] == nil {
			sems[c.source] = make(chan struct{}, e.parallel)
		}
	}
	for i := range calls {
		// The goroutine takes the call by pointer: a copy of each call (its
		// request) in its closure was about a hundredth of what a search
		// allocated.
		c := &calls[i]
		sem := sems[c.source]
		go func() {
			part := Part{Name: c.part, Supplier: c.source, Status: PartDone}
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				part.Status = PartTimeout
				answers <- part
				return
			}
			offers, err := e.sources[c.source].Supplier.Search(ctx, c.req)
			if strings.HasPrefix(c.part, "leg/") {
				// Interlining combines nonstop legs only; the rest is not kept.
				offers = nonstop(offers)
			}
			part.Offers = offers
			switch {
			case err == nil:
			case errors.Is(err, supplier.ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
				part.Status = PartTimeout
			case len(offers) == 0:
				part.Status = PartFailed
			}
			if err != nil {
				e.log.Info("supplier search failed", "search", s.ID, "part", c.part, "err", err)
			}
			answers <- part
		}()
	}
	// This instance's pollers get each answer as it arrives. The store, for
	// the other instances, gets them in batches from one writer that takes
	// whatever arrived while it gathered or wrote: a busy database then
	// delays only the other instances' view, and makes fewer, larger writes.
	toStore := make(chan Part, len(calls))
	stored := make(chan struct{})
	go func() {
		defer close(stored)
		e.store(ctx, st, toStore)
	}()
	for range calls {
		p := <-answers
		st.mu.Lock()
		st.local = append(st.local, p)
		st.mu.Unlock()
		toStore <- p
	}
	close(toStore)
	<-stored
}

// nonstop are the one-segment offers of an answer, in a new slice when some
// are dropped: the answer itself is not changed, as a supplier that caches
// may share it between searches.
func nonstop(offers []supplier.Offer) []supplier.Offer {
	n := 0
	for i := range offers {
		if len(offers[i].Segments) == 1 {
			n++
		}
	}
	if n == len(offers) {
		return offers
	}
	out := make([]supplier.Offer, 0, n)
	for i := range offers {
		if len(offers[i].Segments) == 1 {
			out = append(out, offers[i])
		}
	}
	return out
}

// store writes a search's answers in batches until parts is closed.
func (e *Engine) store(ctx context.Context, st *state, parts <-chan Part) {
	id := st.sess.ID
	batch := 0
	for p := range parts {
		pending := []Part{p}
		timer := time.NewTimer(flushEvery)
	gather:
		for {
			select {
			case q, ok := <-parts:
				if !ok {
					break gather
				}
				pending = append(pending, q)
			case <-timer.C:
				break gather
			}
		}
		timer.Stop()
		batch++
		// Stored even after the deadline: the poller must learn the parts
		// ended. A short context of its own keeps a dead database from
		// holding the search.
		name := fmt.Sprintf("b%d", batch)
		sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), storeWait)
		if err := e.storeBatch(sctx, id, name, pending); err != nil {
			e.log.Error("store supplier answers", "search", id, "parts", len(pending), "err", err)
			e.lose(ctx, st, name, pending)
		}
		scancel()
	}
}

// storeWait is how long a batch may wait for the CPU and the store before
// it is given up.
const storeWait = 10 * time.Second

// lose records that a batch of answers could not be stored. This instance
// has them and still shows them, but every other instance, and this one
// once the search has left its cache, reads the store, and would show the
// search complete without them. So the search says which suppliers lost
// answers: here at once, and in the store with a record of the batch's
// parts without their offers (small enough to write where the batch could
// not be), which also completes the search there without waiting for its
// deadline. The record takes the batch's name: if the batch was written
// after all (its write timed out after committing), the record is dropped
// as a repeat and the answers stand.
func (e *Engine) lose(ctx context.Context, st *state, name string, parts []Part) {
	lost := make([]Part, len(parts))
	st.mu.Lock()
	for i, p := range parts {
		lost[i] = Part{Name: p.Name, Supplier: p.Supplier, Status: p.Status}
		// A failure or a time-out keeps its status: no answer was lost.
		if len(p.Offers) > 0 {
			lost[i].Status = PartLost
			st.lost[p.Supplier] = true
		}
	}
	st.mu.Unlock()
	b, done, err := encodeBatch(name, lost)
	if err == nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeWait)
		err = e.sessions.AddBatch(sctx, st.sess.ID, b)
		cancel()
		done()
	}
	if err != nil {
		e.log.Error("record lost supplier answers", "search", st.sess.ID, "batch", name, "err", err)
	}
}

// storeBatch encodes answers, when no search waits to be completed, and
// writes them.
func (e *Engine) storeBatch(ctx context.Context, id, name string, parts []Part) error {
	if err := e.cpu.acquire(ctx, false); err != nil {
		return fmt.Errorf("shopping: store answers %s: %w", name, err)
	}
	b, done, err := encodeBatch(name, parts)
	e.cpu.release()
	if err != nil {
		return err
	}
	defer done()
	return e.sessions.AddBatch(ctx, id, b)
}

// state is a search session as this instance has read it, with its built
// solutions, so a poll reads only the answers that arrived since the last one.
type state struct {
	mu      sync.Mutex
	sess    Session
	policy  Policy
	parts   []Part
	lastSeq int64
	// built numbers the builds, -1 before the first; preview says the
	// last one was made while suppliers were still answering (see
	// previewCombined), so the complete answer is built again.
	built   int
	preview bool
	builtAt time.Time
	b       *builder
	views   []*view
	byID    map[string]*view
	// sols are the Solutions of the views on the page last made, in
	// solsLang.
	sols     map[*view]*Solution
	solsLang string
	// lastUsed is when a caller last asked for the search (unix nanos, read
	// by the cache sweep without st.mu).
	lastUsed atomic.Int64
	// running is set while the search calls its suppliers: such a search
	// stays cached, its answers arriving through local.
	running atomic.Bool
	// received are the names of the parts taken in (duplicates of a part
	// are dropped); pending, those of them not built yet.
	received map[string]bool
	pending  []Part
	answered int // supplier answers received
	// statusBy are the whole-trip answers built, per part name: a supplier
	// shows as done once its answer is in the solutions.
	statusBy map[string]Part
	// lost are the suppliers with answers this instance could not store, or
	// read as lost from the store; unanswered, those with parts nobody
	// stored by the deadline (set once, when the search completes).
	lost       map[string]bool
	unanswered []string
	// local are answers this instance received and no poll has taken yet;
	// runsHere says this instance calls the suppliers, so every answer
	// arrives that way and the store is only for other instances.
	local    []Part
	runsHere bool
	// last is the latest page query's answer (see answer).
	last lastQuery
	// rangesVal are the ranges of the build numbered rangesOf (see ranges).
	rangesVal Ranges
	rangesOf  int
}

// remember caches a search's state; runs says this instance is about to
// call its suppliers.
func (e *Engine) remember(s Session, p Policy, runs bool) *state {
	e.mu.Lock()
	defer e.mu.Unlock()
	// The parts' lists are sized for the parts the search asked for (a
	// stored session's count bounded, as any row read back): grown part by
	// part they were a sixtieth of what a search allocated.
	n := min(max(s.Parts, 0), 1024)
	st := &state{sess: s, policy: p, built: -1, rangesOf: -2, statusBy: map[string]Part{}, received: make(map[string]bool, n),
		lost: map[string]bool{}, runsHere: runs, parts: make([]Part, 0, n), pending: make([]Part, 0, n)}
	st.running.Store(runs)
	st.lastUsed.Store(e.now().UnixNano())
	e.cache[s.ID] = st
	if len(e.cache) > e.maxCached {
		e.trim()
	}
	return st
}

// The cache of built searches. A complete search holds about 0.4 MB built
// (a return between two hubs over the three simulators, the benchmark's),
// and its suppliers' answers besides: about 3 MB more for that search's
// 1,335 offers (which the benchmarks' memo shares between searches, so
// their heap profiles do not show it). A poll, a verification or a booking
// of one that left the cache rebuilds it from the session store in a few
// milliseconds; memory is what runs out, and 1,000 such searches are about
// 3.5 GB live.
const (
	// cacheIdle: a search nobody asked about for this long leaves.
	cacheIdle = 2 * time.Minute
	// maxCached bounds the searches kept; past it the least recently used
	// go first.
	maxCached = 1000
	// sweepEvery spaces the sweeps for idle searches.
	sweepEvery = 30 * time.Second
)

// sweep drops the idle searches. Called with e.mu held.
func (e *Engine) sweep(now time.Time) {
	for k, v := range e.cache {
		if !v.running.Load() && now.Sub(time.Unix(0, v.lastUsed.Load())) > cacheIdle {
			delete(e.cache, k)
		}
	}
}

// trim drops the least recently used searches not running, down to nine
// tenths of maxCached, so that it runs once per hundred new searches, not
// on each. Called with e.mu held.
func (e *Engine) trim() {
	type entry struct {
		id   string
		used int64
	}
	idle := make([]entry, 0, len(e.cache))
	for k, v := range e.cache {
		if !v.running.Load() {
			idle = append(idle, entry{k, v.lastUsed.Load()})
		}
	}
	slices.SortFunc(idle, func(a, b entry) int { return cmp.Compare(a.used, b.used) })
	for _, x := range idle {
		if len(e.cache) <= e.maxCached*9/10 {
			break
		}
		delete(e.cache, x.id)
	}
}

// load returns the state of a search the caller may see.
func (e *Engine) load(ctx context.Context, who auth.Principal, id string) (*state, error) {
	now := e.now()
	e.mu.Lock()
	st := e.cache[id]
	if now.Sub(e.lastSweep) > sweepEvery {
		e.lastSweep = now
		e.sweep(now)
	}
	e.mu.Unlock()
	if st == nil {
		s, err := e.sessions.Get(ctx, id)
		if errors.Is(err, ErrNoSession) {
			return nil, fault.NotFound("shopping.error.noSearch")
		}
		if err != nil {
			return nil, err
		}
		p, _, err := e.policy(ctx, s.AgencyID)
		if err != nil {
			return nil, err
		}
		st = e.remember(s, p, false)
	}
	if st.sess.AgencyID != who.AgencyID {
		ok, err := e.agencies.IsWithin(ctx, who.AgencyID, st.sess.AgencyID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fault.NotFound("shopping.error.noSearch")
		}
	}
	st.lastUsed.Store(now.UnixNano())
	return st, nil
}

// ErrStale is the answer for a search older than StaleAfter: prices may have
// changed; the client searches again.
func errStale() *fault.Error {
	return fault.New(fault.CodeQuoteExpired, http.StatusConflict, "shopping.error.stale")
}

// refresh reads new answers and rebuilds the solutions when there are any
// and it is time (see rebuildEvery). Called with st.mu held.
func (e *Engine) refresh(ctx context.Context, st *state) error {
	parts := st.local
	st.local = nil
	if !st.runsHere {
		stored, err := e.sessions.Parts(ctx, st.sess.ID, st.lastSeq, st.received)
		if err != nil {
			return err
		}
		parts = append(parts, stored...)
	}
	for _, p := range parts {
		st.lastSeq = max(st.lastSeq, p.Seq)
		if st.received[p.Name] {
			continue
		}
		st.received[p.Name] = true
		if isBatchMarker(p) {
			// Only for the next read of the store to skip the batch.
			continue
		}
		if p.Status == PartLost {
			st.lost[p.Supplier] = true
		}
		st.answered++
		st.pending = append(st.pending, p)
	}
	// Nothing new to build, unless the time to answer ran out on a
	// preview (read only then: polls mostly find nothing new).
	if len(st.pending) == 0 && st.built >= 0 && !(st.preview && e.arrived(st)) {
		return nil
	}
	now := e.now()
	final := e.arrived(st)
	if !final {
		every, first := rebuildEvery, time.Duration(0)
		if e.busy() {
			every, first = e.busyEvery(), busyFirstEvery
			// Past the first results, only a supplier's whole-trip answer
			// (which the progress display shows as done) is worth a
			// rebuild before the search completes: one-ways and legs wait
			// for it or for the complete answer.
			if len(st.views) > 0 && !hasWholeTrip(st.pending) {
				return nil
			}
		}
		if since := now.Sub(st.builtAt); len(st.views) > 0 && since < every || len(st.views) == 0 && since < first {
			return nil
		}
	} else {
		// The build that completes the search goes ahead of encoding.
		if err := e.cpu.acquire(ctx, true); err != nil {
			return err
		}
		defer e.cpu.release()
	}
	for _, p := range st.pending {
		// Only whole-trip answers show (see statuses).
		if isWholeTrip(p) {
			st.statusBy[p.Name] = p
		}
	}
	st.parts = append(st.parts, st.pending...)
	st.pending = st.pending[:0]
	st.builtAt = now
	if len(st.sess.Request.Exact) == 0 {
		if st.b == nil {
			st.b = newBuilder(&st.sess.Request, &st.policy, false)
		}
		st.b.add(st.parts)
		st.views = st.b.views(now, !final)
		st.preview = !final
	} else {
		// An accurate search falls back to matching loosely when nothing
		// matches exactly, which needs every answer at once.
		st.views = build(&st.sess.Request, st.parts, &st.policy, now)
	}
	// Indexed by id when a verification asks (see find): an id is a
	// digest, and most solutions are never verified.
	st.byID = nil
	st.built++
	return nil
}

// find is the solution of the built ones with the given id, nil when none.
// Every view it may return has its id computed. Called with st.mu held.
func (st *state) find(id string) *view {
	if st.byID == nil {
		st.byID = make(map[string]*view, len(st.views))
		for _, v := range st.views {
			st.byID[v.id()] = v
		}
	}
	return st.byID[id]
}

// rebuildEvery spaces the rebuilds of a search whose suppliers are still
// answering: a rebuild combines the journeys and interlines again, and a
// search whose answers trickle in over a second would otherwise be rebuilt
// on every poll of a fast client. The portal polls every 700 ms, so it sees
// every rebuild anyway. Until there are results, and for the complete
// answer, there is no wait. Parts not built yet are pending: their
// suppliers show as pending too, so a supplier never shows as done with its
// answers missing from the solutions.
const rebuildEvery = 500 * time.Millisecond

// Under load (more than busyPerCore searches per core calling their
// suppliers at once) the CPU is what every search waits for, and the
// rebuilds of searches still filling in take it from the ones completing:
// those with results are rebuilt every second, those without at most every
// busyFirstEvery. The complete answer is still built at once. With 200
// searches at once on 2 cores this took a fifth of the CPU per search.
const (
	busyPerCore    = 25
	busyFirstEvery = 200 * time.Millisecond
)

// busyEvery spaces the rebuilds of a search still filling in under load:
// every second, and longer as the load grows past busy (the searches then
// take longer too, and were each rebuilt a dozen times, most of the CPU of
// an overloaded instance), at most maxBusyEvery.
func (e *Engine) busyEvery() time.Duration {
	every := 2 * rebuildEvery
	if e.busyAt > 0 {
		every = every * time.Duration(e.running.Load()) / time.Duration(e.busyAt)
	}
	return min(max(every, 2*rebuildEvery), maxBusyEvery)
}

const maxBusyEvery = 4 * time.Second

// hasWholeTrip says whether parts hold a supplier's whole-trip answer.
func hasWholeTrip(parts []Part) bool {
	return slices.ContainsFunc(parts, isWholeTrip)
}

// isWholeTrip says whether p is a supplier's whole-trip answer.
func isWholeTrip(p Part) bool { return strings.HasPrefix(p.Name, "main/") }

// busy says whether the instance is under load (see busyPerCore).
func (e *Engine) busy() bool {
	return e.running.Load() > e.busyAt
}

// build is the whole pipeline from supplier answers to priced solutions:
// whole-trip offers as they are, one-way offers and interlined legs combined
// journey by journey. An accurate search whose flights no answer matches
// exactly takes those that match loosely.
func build(req *Request, parts []Part, p *Policy, now time.Time) []*view {
	vs := buildOnce(req, parts, p, now, false)
	if len(vs) == 0 && len(req.Exact) > 0 {
		vs = buildOnce(req, parts, p, now, true)
	}
	return vs
}

// buildOnce is a builder's views of every part, its tables given back.
func buildOnce(req *Request, parts []Part, p *Policy, now time.Time, relaxed bool) []*view {
	b := newBuilder(req, p, relaxed)
	defer b.release()
	b.add(parts)
	return b.views(now, false)
}

// complete says whether the solutions are final: every answer taken in is
// built, and every supplier call has answered or the time to answer is over.
// The instance that calls the suppliers has their answers before the store
// does: it says complete only once they are stored or known lost (see lose),
// or it would tell a poller, which then stops, of a loss too late. The last
// answer is stored at once, well within a portal's poll interval.
func (e *Engine) complete(st *state) bool {
	if st.runsHere && st.running.Load() {
		return false
	}
	// A preview built just before the time to answer ran out is not the
	// complete answer: the next poll builds that (see refresh).
	return len(st.pending) == 0 && !st.preview && e.arrived(st)
}

// arrived says whether every supplier call has answered, or the time to
// answer is over.
func (e *Engine) arrived(st *state) bool {
	if st.answered >= st.sess.Parts {
		return true
	}
	return e.now().After(st.sess.CreatedAt.Add(time.Duration(st.policy.MaxResponse)*time.Second + completeGrace))
}

// statuses aggregates the parts per supplier for the progress display. A
// supplier whose whole-trip answer this instance has shows it, with its
// flights; one whose answer was lost, or that nobody stored by the deadline
// (a supplier's own time-out is stored as one), shows as lost.
func (e *Engine) statuses(st *state, complete bool) []SupplierStatus {
	out := make([]SupplierStatus, 0, len(st.sess.Suppliers))
	for _, name := range st.sess.Suppliers {
		s := SupplierStatus{Name: name, Status: "pending"}
		if p, ok := st.statusBy["main/"+name]; ok {
			s.Status = p.Status
			s.Count = len(p.Offers)
		} else if complete {
			s.Status = PartLost
		}
		out = append(out, s)
	}
	return out
}

// losses are the suppliers some of whose answers the search lost: not
// stored, or, once it is complete, not stored by its deadline. Called with
// st.mu held.
func (e *Engine) losses(st *state, complete bool) []string {
	if complete && st.unanswered == nil {
		st.unanswered = e.unansweredBy(st)
	}
	out := []string{}
	for _, name := range st.sess.Suppliers {
		if st.lost[name] || slices.Contains(st.unanswered, name) {
			out = append(out, name)
		}
	}
	return out
}

// unansweredBy names the suppliers of the parts not received when the
// search completed (an empty list, not nil, when there are none). Which
// parts a search asked for is not stored, only how many: the plan is made
// again, and when it no longer matches (the supplier settings changed
// since), every supplier counts as having lost answers, as any may have.
func (e *Engine) unansweredBy(st *state) []string {
	out := []string{}
	if st.answered >= st.sess.Parts {
		return out
	}
	calls := e.plan(&st.sess.Request, &st.policy)
	if len(calls) != st.sess.Parts {
		return append(out, st.sess.Suppliers...)
	}
	for _, c := range calls {
		if !st.received[c.part] && !slices.Contains(out, c.source) {
			out = append(out, c.source)
		}
	}
	return out
}
