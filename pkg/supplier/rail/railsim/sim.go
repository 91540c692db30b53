// Package railsim is a simulated China Railway supplier behind the rail
// seam (pkg/supplier/rail), on real data: the major high-speed and
// conventional stations (stations.tsv, sources named in stations.go), the
// real corridors between them with their distances (corridors.go),
// timetables by train type with stops and run times from distance and
// speed (timetable.go), seat classes and coach layouts per train type
// (seats.go) and fares by distance and class (fare.go, rates and sources
// stated there).
//
// # Determinism
//
// The timetable and fares do not depend on the seed: it is one simulated
// railway. Seats already sold to others do, per (seed, day, train, class),
// and so do failures and volatility, each a hash of what it concerns: the
// same Config, clock and calls give the same answers. Bookings made here
// take seats from the class's seat map, so a class sells out as bookings
// are made; the Supplier is safe for concurrent use. Bookings and seat maps
// are kept in Config.Records (records.go): in memory by default (a restart
// forgets them), in the database when the app passes sim.NewSQLRecords, so
// every instance on it sees the same bookings and seats.
//
// # Knobs
//
// As in pkg/supplier/sim: a zero Config field means the default, Off (a
// negative value) none. Defaults: latency 600 ms ± 200 ms, ErrorRate 2%,
// TimeoutRate 0.5%, Volatility 5% (the probability that PreBook finds the
// class sold out in the meantime, as happens on 12306 at busy times).
// Steady turns latency, failures and volatility off.
package railsim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/supplier/rail"
	"github.com/voyage/voyage/pkg/supplier/sim"
	"github.com/voyage/voyage/pkg/supplier/simcall"
)

// Name is the supplier's configuration name.
const Name = "cr-sim"

// Off, set in a latency, rate or volatility field, turns it off.
const Off = -1

// Defaults.
const (
	DefaultLatency     = 600 * time.Millisecond
	DefaultJitter      = 200 * time.Millisecond
	DefaultErrorRate   = 0.02
	DefaultTimeoutRate = 0.005
	DefaultVolatility  = 0.05
	// DefaultOfferTTL: an offer id is valid for 15 minutes (API.md).
	DefaultOfferTTL = 15 * time.Minute
	// DefaultHoldTTL: 12306 holds an unpaid order's seats for 30 minutes.
	DefaultHoldTTL = 30 * time.Minute
	// afterSalesTTL: how long a refund or exchange offer stands.
	afterSalesTTL = 15 * time.Minute
)

// Config configures the simulator.
type Config struct {
	Seed          int64
	Latency       time.Duration
	LatencyJitter time.Duration
	ErrorRate     float64
	TimeoutRate   float64
	Volatility    float64
	// Policy is the railway's rules; rail.ChinaRailway() when nil. Its
	// SalesWindowDays is the sales window.
	Policy   *rail.Policy
	OfferTTL time.Duration
	HoldTTL  time.Duration
	// Clock is the time source; time.Now when nil.
	Clock func() time.Time
	// Records keeps the bookings and seat maps; in memory when nil.
	Records sim.Records
}

// Steady is a Config with no latency, failures or volatility.
func Steady(seed int64) Config {
	return Config{Seed: seed, Latency: Off, LatencyJitter: Off, ErrorRate: Off, TimeoutRate: Off, Volatility: Off}
}

// Supplier is the simulated China Railway. It is safe for concurrent use.
type Supplier struct {
	seed       uint64
	knobs      simcall.Knobs
	volatility float64
	policy     rail.Policy
	offerTTL   time.Duration
	holdTTL    time.Duration
	now        func() time.Time

	net *network
	tt  *timetable

	// attempts draws each call's hang and failure (simcall.Attempts).
	attempts *simcall.Attempts
	seq      atomic.Uint64
	// nonce tells this instance's numbers from another's on shared
	// records (0 in memory, keeping a run deterministic).
	nonce   uint64
	records sim.Records
}

var _ rail.Supplier = (*Supplier)(nil)

// New returns a simulated supplier.
func New(cfg Config) (*Supplier, error) {
	n, err := parseStations(stationsTSV)
	if err != nil {
		return nil, fmt.Errorf("railsim: %w", err)
	}
	tt, err := buildTimetable(n)
	if err != nil {
		return nil, fmt.Errorf("railsim: %w", err)
	}
	s := &Supplier{
		seed: uint64(cfg.Seed), net: n, tt: tt, now: cfg.Clock, records: cfg.Records, attempts: simcall.NewAttempts(),
	}
	if s.records == nil {
		s.records = sim.NewMemoryRecords()
	} else {
		s.nonce = rand.Uint64()
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.knobs, err = simcall.Read(cfg.Latency, cfg.LatencyJitter, cfg.ErrorRate, cfg.TimeoutRate,
		simcall.Knobs{Latency: DefaultLatency, Jitter: DefaultJitter, ErrorRate: DefaultErrorRate, TimeoutRate: DefaultTimeoutRate})
	if err != nil {
		return nil, fmt.Errorf("railsim: %w", err)
	}
	s.offerTTL = simcall.OrDefault(cfg.OfferTTL, DefaultOfferTTL)
	s.holdTTL = simcall.OrDefault(cfg.HoldTTL, DefaultHoldTTL)
	if s.volatility, err = simcall.Rate("Volatility", cfg.Volatility, DefaultVolatility); err != nil {
		return nil, fmt.Errorf("railsim: %w", err)
	}
	s.policy = rail.ChinaRailway()
	if cfg.Policy != nil {
		s.policy = *cfg.Policy
	}
	if err := s.policy.Validate(); err != nil {
		return nil, fmt.Errorf("railsim: %w", err)
	}
	return s, nil
}

// Name is the supplier's configuration name.
func (s *Supplier) Name() string { return Name }

// Policy is the rules the simulator applies.
func (s *Supplier) Policy() rail.Policy { return s.policy }

// Stations finds stations by code, English, Chinese (either script),
// pinyin or pinyin initials prefix, case-insensitive; limit ≤ 0 is no limit.
func (s *Supplier) Stations(q string, limit int) []Station { return s.net.search(q, limit) }

// Station returns a station by telegraph code.
func (s *Supplier) Station(code string) (Station, bool) { return s.net.find(code) }

// SalesWindow is the first and last on-sale dates now (YYYY-MM-DD).
func (s *Supplier) SalesWindow() (first, last string) {
	return s.policy.SalesWindow(s.now().In(china))
}

// call simulates the source answering, as pkg/supplier/sim does: a
// possible hang until the context is done, the latency, a possible failure.
func (s *Supplier) call(ctx context.Context, op, key string) (mix, error) {
	h, fail := s.attempts.Draw(s.seed, op, key)
	timedOut, failed := s.knobs.Answer(ctx, h, fail)
	switch {
	case timedOut != nil:
		return h, timeout(op, timedOut)
	case failed:
		return h, fmt.Errorf("railsim: %s: simulated failure: %w", op, rail.ErrUnavailable)
	}
	return h, nil
}

func timeout(op string, ctxErr error) error {
	return fmt.Errorf("railsim: %s: %w (%w)", op, rail.ErrTimeout, ctxErr)
}

func errorf(op string, err error) error { return fmt.Errorf("railsim: %s: %w", op, err) }

func cny(fen int64) money.Amount { return money.Amount{Minor: fen, Currency: "CNY"} }

// Search returns the trains from any station of the origin's city to any
// station of the destination's city on the date (as 12306 answers), that
// have not left yet, earliest first.
func (s *Supplier) Search(ctx context.Context, req rail.SearchRequest) ([]rail.Offer, error) {
	const op = "search"
	if _, err := s.call(ctx, op, req.Origin+req.Destination+req.Date); err != nil {
		return nil, err
	}
	origins, dests, day, err := s.checkTrip(req.Origin, req.Destination, req.Date)
	if err != nil {
		return nil, errorf(op, err)
	}
	pax := req.Passengers
	if len(pax) == 0 {
		pax = []string{rail.TicketAdult}
	}
	for _, p := range pax {
		if !validTicketType(p) {
			return nil, errorf(op, fmt.Errorf("ticket type %q: %w", p, rail.ErrRejected))
		}
	}
	legs := s.tt.legs(origins, dests, day)
	if len(legs) == 0 {
		return nil, errorf(op, fmt.Errorf("%s–%s: %w", req.Origin, req.Destination, rail.ErrNoService))
	}
	now := s.now()
	slices.SortFunc(legs, func(a, b leg) int {
		if c := a.departAt.Compare(b.departAt); c != 0 {
			return c
		}
		return strings.Compare(a.t.number, b.t.number)
	})
	out := make([]rail.Offer, 0, len(legs))
	kept := legs[:0]
	for _, l := range legs {
		if !l.departAt.After(now) {
			continue
		}
		out = append(out, s.offerBase(l, pax, now))
		kept = append(kept, l)
	}
	// The seat maps of every class of every train, read in one go.
	var keys []invKey
	for _, l := range kept {
		for _, lay := range l.t.layouts {
			keys = append(keys, keyOf(l, lay))
		}
	}
	maps, err := s.seatMaps(ctx, keys, now)
	if err != nil {
		return nil, errorf(op, err)
	}
	for i, l := range kept {
		for j, lay := range l.t.layouts {
			d := maps[keyOf(l, lay)]
			out[i].Classes[j].Available = s.build(keyOf(l, lay), lay, &d, now).free
		}
	}
	return out, nil
}

// checkTrip validates a trip and returns the stations of both cities and
// the date at midnight China time.
func (s *Supplier) checkTrip(origin, dest, date string) (origins, dests []string, day time.Time, err error) {
	o, ok := s.net.find(origin)
	if !ok {
		return nil, nil, day, fmt.Errorf("origin %q: %w", origin, rail.ErrUnknownStation)
	}
	d, ok := s.net.find(dest)
	if !ok {
		return nil, nil, day, fmt.Errorf("destination %q: %w", dest, rail.ErrUnknownStation)
	}
	if o.City == d.City {
		return nil, nil, day, fmt.Errorf("%s and %s are both in %s: %w", o.Code, d.Code, o.City, rail.ErrSameStation)
	}
	day, perr := time.ParseInLocation(time.DateOnly, date, china)
	if perr != nil {
		return nil, nil, day, fmt.Errorf("date %q: %w", date, rail.ErrRejected)
	}
	if now := s.now().In(china); !s.policy.OnSale(date, now) {
		first, last := s.policy.SalesWindow(now)
		return nil, nil, day, fmt.Errorf("%s is not in %s..%s: %w", date, first, last, rail.ErrOutsideSalesWindow)
	}
	return s.net.sameCity(o.Code), s.net.sameCity(d.Code), day, nil
}

// offer builds the seam's offer for a leg with its seat counts.
func (s *Supplier) offer(ctx context.Context, l leg, pax []string, now time.Time) (rail.Offer, error) {
	o := s.offerBase(l, pax, now)
	return o, s.fillAvailability(ctx, &o, l, now)
}

// fillAvailability sets the seats left per class.
func (s *Supplier) fillAvailability(ctx context.Context, o *rail.Offer, l leg, now time.Time) error {
	for i, lay := range l.t.layouts {
		inv, err := s.seats(ctx, keyOf(l, lay), lay, now)
		if err != nil {
			return err
		}
		o.Classes[i].Available = inv.free
	}
	return nil
}

func keyOf(l leg, lay classLayout) invKey {
	return invKey{day: l.day.Format(time.DateOnly), train: l.t.number, class: lay.class}
}

// offerBase builds the seam's offer for a leg without seat counts (it
// needs no lock).
func (s *Supplier) offerBase(l leg, pax []string, now time.Time) rail.Offer {
	exp := now.Add(s.offerTTL)
	o := rail.Offer{
		Supplier: Name, Run: rail.Run{TrainNumber: l.t.number, TrainType: l.t.typ,
			Origin: l.t.calls[l.from].code, Destination: l.t.calls[l.to].code,
			DepartAt: l.departAt, ArriveAt: l.arriveAt, DurationMinutes: l.durationMinutes(),
			DistanceKm: l.km(), Stops: l.stops()},
		Conditions: s.policy.Conditions(), ExpiresAt: exp,
	}
	o.Ref = encodeRef(l, exp)
	o.Classes = make([]rail.ClassOffer, 0, len(l.t.layouts))
	for _, lay := range l.t.layouts {
		adult := adultFare(l, lay.class)
		co := rail.ClassOffer{Class: lay.class, Price: cny(adult), Fares: map[string]money.Amount{}}
		for _, p := range pax {
			co.Fares[p] = cny(typeFare(adult, p, lay.class))
		}
		if lay.kind == kindRow {
			for _, c := range lay.letters {
				co.SeatLetters = append(co.SeatLetters, string(c))
			}
		}
		o.Classes = append(o.Classes, co)
	}
	return o
}

// An offer reference carries what rebuilds the offer: the train's day,
// number, boarding and alighting stations and the offer's expiry, so
// PreBook needs no memory of the search.
func encodeRef(l leg, exp time.Time) string {
	return fmt.Sprintf("%s.%s.%s.%s.%d", l.day.Format("20060102"), l.t.number,
		l.t.calls[l.from].code, l.t.calls[l.to].code, exp.Unix())
}

func (s *Supplier) decodeRef(ref string, now time.Time) (leg, error) {
	f := strings.Split(ref, ".")
	if len(f) != 5 {
		return leg{}, fmt.Errorf("offer %q: %w", ref, rail.ErrNotFound)
	}
	day, err := time.ParseInLocation("20060102", f[0], china)
	t, ok := s.tt.byNumber[f[1]]
	exp, err2 := strconv.ParseInt(f[4], 10, 64)
	if err != nil || err2 != nil || !ok {
		return leg{}, fmt.Errorf("offer %q: %w", ref, rail.ErrNotFound)
	}
	l := leg{t: t, from: -1, to: -1, day: day}
	for i, c := range t.calls {
		if c.code == f[2] && l.from < 0 {
			l.from = i
		}
		if c.code == f[3] && l.from >= 0 && i > l.from {
			l.to = i
		}
	}
	if l.from < 0 || l.to < 0 {
		return leg{}, fmt.Errorf("offer %q: %w", ref, rail.ErrNotFound)
	}
	l.departAt = day.Add(t.calls[l.from].depart)
	l.arriveAt = day.Add(t.calls[l.to].arrive)
	if now.Unix() > exp || !l.departAt.After(now) {
		return leg{}, fmt.Errorf("offer %q: %w", ref, rail.ErrOfferExpired)
	}
	return l, nil
}

// offerClass reads an offer reference and finds the seat class asked for
// on its train.
func (s *Supplier) offerClass(ref, class string, now time.Time) (leg, classLayout, error) {
	l, err := s.decodeRef(ref, now)
	if err != nil {
		return leg{}, classLayout{}, err
	}
	lay, err := layoutOf(l.t, class)
	return l, lay, err
}

// layoutOf is the layout of t's seat class; a class t does not have is a
// rejected request.
func layoutOf(t *train, class string) (classLayout, error) {
	for _, l := range t.layouts {
		if l.class == class {
			return l, nil
		}
	}
	return classLayout{}, fmt.Errorf("%s has no %q class: %w", t.number, class, rail.ErrRejected)
}

// PreBook holds places for the passengers until HoldExpiresAt; places are
// assigned now (12306 shows them on the unpaid order) and ticketed by
// Confirm.
func (s *Supplier) PreBook(ctx context.Context, req rail.PreBookRequest) (rail.Booking, error) {
	const op = "prebook"
	h, err := s.call(ctx, op, req.OfferRef+req.Key)
	if err != nil {
		return rail.Booking{}, err
	}
	now := s.now()
	l, lay, err := s.offerClass(req.OfferRef, req.Class, now)
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	if len(req.Passengers) == 0 {
		return rail.Booking{}, errorf(op, fmt.Errorf("no passengers: %w", rail.ErrRejected))
	}
	letters := make([]string, len(req.Passengers))
	for i, p := range req.Passengers {
		if err := checkPassenger(p, lay); err != nil {
			return rail.Booking{}, errorf(op, fmt.Errorf("passenger %d: %w", i+1, err))
		}
		letters[i] = strings.ToUpper(p.SeatLetter)
	}
	if req.Key != "" {
		if b, ok, err := s.byKey(ctx, req.Key, now); err != nil || ok {
			return b, err
		}
	}
	if s.volatility > 0 && h.Unit(3) < s.volatility {
		return rail.Booking{}, errorf(op, fmt.Errorf("%s %s sold in the meantime: %w", l.t.number, req.Class, rail.ErrSoldOut))
	}
	k := keyOf(l, lay)
	offer, err := s.offer(ctx, l, nil, now)
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	for attempt := 0; ; attempt++ {
		ref := s.newRef("E")
		hold := now.Add(s.holdTTL)
		if hold.After(l.departAt) {
			hold = l.departAt
		}
		idx, err := s.takeSeats(ctx, k, now, letters, func(n int) int {
			return int(seeded(s.seed).Str(req.OfferRef).Num(s.seq.Load()).Draw(4) % uint64(n))
		}, ref, hold)
		if err != nil {
			return rail.Booking{}, errorf(op, err)
		}
		d := bookingDoc{Booking: rail.Booking{
			Supplier: Name, Ref: ref, Status: rail.StatusPreBooked, Offer: offer, Class: req.Class,
			Passengers: slices.Clone(req.Passengers), HoldExpiresAt: hold,
		}}
		// The seat counts are the ones before this booking took its places.
		for i := range d.Booking.Offer.Classes {
			if d.Booking.Offer.Classes[i].Class == lay.class {
				d.Booking.Offer.Classes[i].Available = max(0, d.Booking.Offer.Classes[i].Available-len(idx))
			}
		}
		adult := adultFare(l, lay.class)
		var total int64
		for i, p := range req.Passengers {
			coach, seat := lay.label(idx[i])
			fare := typeFare(adult, p.Type, lay.class)
			total += fare
			d.Places = append(d.Places, placeDoc{Day: k.day, Train: k.train, Class: k.class, Idx: idx[i]})
			// Tickets are drafted now and numbered on Confirm.
			d.Booking.Tickets = append(d.Booking.Tickets, rail.Ticket{Passenger: i, TrainNumber: l.t.number,
				Origin: offer.Origin, Destination: offer.Destination, DepartAt: l.departAt, ArriveAt: l.arriveAt,
				Class: lay.class, Coach: coach, Seat: seat, Fare: cny(fare)})
		}
		d.Booking.Total = cny(total)
		data, err := encodeBooking(&d)
		if err != nil {
			return rail.Booking{}, errorf(op, err)
		}
		err = s.records.Create(ctx, Name, ref, ref, req.Key, data)
		if err == nil {
			return view(d), nil
		}
		// Lost: the places go back, and a retried key answers its booking.
		if rerr := s.releaseSeats(ctx, ref, d.Places, now); rerr != nil {
			return rail.Booking{}, errorf(op, rerr)
		}
		switch {
		case errors.Is(err, sim.ErrKeyTaken):
			b, ok, kerr := s.byKey(ctx, req.Key, now)
			if kerr == nil && !ok {
				kerr = fmt.Errorf("booking key %s: %w", req.Key, rail.ErrUnavailable)
			}
			return b, kerr
		case errors.Is(err, sim.ErrPNRTaken) && attempt < maxWrites:
			continue
		}
		return rail.Booking{}, errorf(op, fmt.Errorf("%w (%w)", rail.ErrUnavailable, err))
	}
}

// byKey is the booking a PreBook key made, if any.
func (s *Supplier) byKey(ctx context.Context, key string, now time.Time) (rail.Booking, bool, error) {
	ref, err := s.records.RefByKey(ctx, Name, key)
	if errors.Is(err, supplier.ErrNotFound) {
		return rail.Booking{}, false, nil
	}
	if err != nil {
		return rail.Booking{}, false, fmt.Errorf("booking key %s: %w (%w)", key, rail.ErrUnavailable, err)
	}
	d, _, err := s.loadBooking(ctx, ref, now)
	if err != nil {
		return rail.Booking{}, false, err
	}
	return view(d), true, nil
}

// newRef is a 12306-style order number: a letter and nine digits.
func (s *Supplier) newRef(prefix string) string {
	n := s.seq.Add(1)
	return fmt.Sprintf("%s%09d", prefix, seeded(s.seed).Num(n).Num(s.nonce).Sum()%900000000+100000000)
}

// view is a booking as the seam shows it (tickets hidden until ticketed).
func view(d bookingDoc) rail.Booking {
	out := d.Booking
	out.Passengers = slices.Clone(out.Passengers)
	if out.Status == rail.StatusPreBooked || out.Status == rail.StatusExpired || out.Status == rail.StatusCancelled {
		out.Tickets = nil
	} else {
		out.Tickets = slices.Clone(out.Tickets)
	}
	return out
}

// Confirm tickets a pre-booking: a ticket number per passenger, coach and
// seat as held.
func (s *Supplier) Confirm(ctx context.Context, ref string) (rail.Booking, error) {
	const op = "confirm"
	if _, err := s.call(ctx, op, ref); err != nil {
		return rail.Booking{}, err
	}
	now := s.now()
	d, _, err := s.loadBooking(ctx, ref, now)
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	if err := confirmable(d); err != nil {
		if errors.Is(err, rail.ErrHoldExpired) {
			if xerr := s.expire(ctx, ref, now); xerr != nil {
				return rail.Booking{}, errorf(op, xerr)
			}
		}
		return answered(d, op, err)
	}
	// The places are the railway's for good before the tickets are.
	if err := s.pinSeats(ctx, ref, d.Places, now); err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	d, err = s.changeBooking(ctx, ref, now, func(d *bookingDoc) error {
		if err := confirmable(*d); err != nil {
			return err
		}
		for i := range d.Booking.Tickets {
			d.Booking.Tickets[i].Number = s.newRef("E")
			d.Booking.Tickets[i].Status = rail.TicketIssued
		}
		d.Booking.Status = rail.StatusTicketed
		return nil
	})
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	return view(d), nil
}

// confirmable: nil for a pre-booking, errUnchanged when already ticketed
// (confirming again is a no-op), a fault otherwise.
func confirmable(d bookingDoc) error {
	switch d.Booking.Status {
	case rail.StatusPreBooked:
		return nil
	case rail.StatusExpired:
		return fmt.Errorf("booking %s: %w", d.Booking.Ref, rail.ErrHoldExpired)
	case rail.StatusCancelled:
		return fmt.Errorf("booking %s is cancelled: %w", d.Booking.Ref, rail.ErrRejected)
	}
	return errUnchanged
}

// answered is the booking as it is for errUnchanged, the fault otherwise.
func answered(d bookingDoc, op string, err error) (rail.Booking, error) {
	if errors.Is(err, errUnchanged) {
		return view(d), nil
	}
	return rail.Booking{}, errorf(op, err)
}

// Cancel releases an unticketed pre-booking.
func (s *Supplier) Cancel(ctx context.Context, ref string) error {
	const op = "cancel"
	if _, err := s.call(ctx, op, ref); err != nil {
		return err
	}
	now := s.now()
	d, err := s.changeBooking(ctx, ref, now, func(d *bookingDoc) error {
		switch d.Booking.Status {
		case rail.StatusPreBooked:
			d.Booking.Status = rail.StatusCancelled
			return nil
		case rail.StatusCancelled, rail.StatusExpired:
			return errUnchanged
		}
		return fmt.Errorf("booking %s is %s (refund it instead): %w", ref, d.Booking.Status, rail.ErrRejected)
	})
	if err != nil {
		return errorf(op, err)
	}
	if d.Booking.Status == rail.StatusCancelled {
		if err := s.releaseSeats(ctx, ref, d.Places, now); err != nil {
			return errorf(op, err)
		}
	}
	return nil
}

// Booking returns a booking as it is now.
func (s *Supplier) Booking(ctx context.Context, ref string) (rail.Booking, error) {
	const op = "booking"
	if _, err := s.call(ctx, op, ref); err != nil {
		return rail.Booking{}, err
	}
	d, _, err := s.loadBooking(ctx, ref, s.now())
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	return view(d), nil
}
