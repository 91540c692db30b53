// Package sim holds the built-in simulated flight suppliers, the embedded
// default content source. Three profiles behave like the three kinds of
// source an agency connects to:
//
//   - "gds": full-service carriers (not low-cost), nonstop and one-stop
//     itineraries including interline connections between alliance
//     partners, fare basis codes, rules by booking class, China domestic
//     fares accepting only an ID card or a passport; ticketing normal (2 h),
//     some fares preference (1 h) or special (48 h).
//   - "ndc": the full-service carriers with NDC channels (BA, LH, AF, KL,
//     SQ, QF, AA, UA, EK, LX, OS, IB, AY, CX, CA, MU, CZ), online
//     (single-carrier) itineraries only, each sold in three branded bundles
//     (the carrier's names for Basic/Classic/Flex) with 0/1/2 bags and
//     growing change and refund rights, as separate offers; fast ticketing
//     (30 min). Its flights overlap the gds profile's on purpose.
//   - "lcc": low-cost carriers (geo.Airline.LowCost), nonstop one-way
//     fares only, no checked bag, no fuel surcharge, website ticketing
//     (30 min). For a request of several journeys it answers one-way
//     offers per journey, each with a single entry in Offer.Journeys, in
//     the request's journey order; the engine combines them.
//
// # Data and determinism
//
// Schedules come from pkg/geo's real nonstop routes: each carrier flies its
// routes 1–14 times a day by distance and airport and carrier size (thin
// routes a few days a week), with stable flight numbers (odd away from the
// hub), banked local departure times, block times from great-circle
// distance with westerly winds, and aircraft by distance. Timetables do not
// depend on the seed or profile: it is one simulated world. Loads, fares,
// failures and volatility do depend on Config.Seed, each from a hash of what
// it concerns, so the same Config and request give byte-identical offers
// and a different seed gives different prices.
//
// Fares taper per km with distance and scale by cabin, booking class (the
// cheapest class open given the flight's load and days to departure, and
// the seats wanted), advance purchase, connection discount and carrier;
// children pay 75% and infants 10% of the adult base; taxes are the
// departure airports' charges plus, except for lcc, a fuel surcharge by
// distance. All amounts are integer minor units of Config.Currency
// (converted from CNY at the simulator's own approximate rates).
//
// An offer's Ref encodes everything needed to rebuild it (see ref.go), so
// Price and Book need no memory of the search and work on any instance.
// Bookings themselves live in the Supplier's memory: a restart or another
// instance does not know them (ErrNotFound). A real deployment books with a
// real source.
//
// # Defaults and how to switch things off
//
// A zero Config field means the profile's default; a negative one (use Off)
// means none. Defaults: latency gds 1.2 s ± 0.4 s, ndc 0.8 s ± 0.3 s,
// lcc 0.5 s ± 0.2 s; ErrorRate 2%; TimeoutRate 0.5%; Volatility 10%;
// Currency CNY; Clock time.Now. Steady returns a Config with latency,
// failures and volatility all off, for tests and benchmarks.
//
// # Forcing outcomes
//
// Every random failure is a hash of (seed, operation, call key, attempt)
// and a run drawn when the Supplier is made, where the attempt counts
// earlier calls with the same key on this Supplier: retrying draws again,
// and two instances (or a restarted one) do not fail the same retries
// (simcall.Attempts). Prices and volatility leave the run out, so every
// instance quotes alike. Rates of 1 make an outcome certain: ErrorRate 1 fails
// every call with ErrUnavailable, TimeoutRate 1 holds every call until the
// context is done (ErrTimeout), Volatility 1 makes every Price find a
// change, and PriceOutcomes narrows which change.
package sim

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/supplier/simcall"
)

// Profile is the kind of content source simulated.
type Profile string

// The profiles.
const (
	ProfileGDS Profile = "gds"
	ProfileNDC Profile = "ndc"
	ProfileLCC Profile = "lcc"
)

// Profiles lists the profiles.
var Profiles = []Profile{ProfileGDS, ProfileNDC, ProfileLCC}

// Off, set in a Config's latency, rate or volatility field, turns it off
// (a zero field means the profile's default).
const Off = -1

// Default rates of every profile.
const (
	DefaultErrorRate   = 0.02
	DefaultTimeoutRate = 0.005
	DefaultVolatility  = 0.10
)

// profileDefaults are latency, jitter and offer lifetime per profile.
var profileDefaults = map[Profile]struct {
	latency, jitter, ttl time.Duration
}{
	ProfileGDS: {1200 * time.Millisecond, 400 * time.Millisecond, 30 * time.Minute},
	ProfileNDC: {800 * time.Millisecond, 300 * time.Millisecond, 20 * time.Minute},
	ProfileLCC: {500 * time.Millisecond, 200 * time.Millisecond, 15 * time.Minute},
}

// Config configures a simulated supplier. For every duration and rate
// field, zero means the profile's default and a negative value (Off) means
// none.
type Config struct {
	// Profile is "gds", "ndc" or "lcc".
	Profile string
	// Seed varies loads, fares and failures (not schedules).
	Seed int64
	// Latency is the mean time a call takes; LatencyJitter spreads it
	// uniformly by ± that much.
	Latency       time.Duration
	LatencyJitter time.Duration
	// ErrorRate is the share of calls failing with ErrUnavailable (0..1).
	ErrorRate float64
	// TimeoutRate is the share of calls that never answer: they hold until
	// the context is done (at most two minutes) and fail with ErrTimeout.
	TimeoutRate float64
	// Volatility is the probability (0..1) that Price finds the offer
	// changed: price_changed 50%, package_changed 20%, invalid 20%,
	// document_restriction_changed 10%.
	Volatility float64
	// PriceOutcomes, when set, limits the changes Volatility produces to
	// these statuses (equally likely), so a test can force one.
	PriceOutcomes []supplier.PriceStatus
	// Currency of the fares (spec §9 currencies); CNY when empty.
	Currency string
	// Clock is the time source; time.Now when nil.
	Clock func() time.Time
	// Records keeps the bookings; in memory when nil.
	Records Records
}

// Steady is a Config with no latency, no failures and no volatility: the
// simulator as a plain deterministic content source.
func Steady(profile string, seed int64) Config {
	return Config{Profile: profile, Seed: seed, Latency: Off, LatencyJitter: Off,
		ErrorRate: Off, TimeoutRate: Off, Volatility: Off}
}

// Supplier is a simulated flight content source. It is safe for concurrent
// use.
type Supplier struct {
	profile    Profile
	seed       uint64
	knobs      simcall.Knobs
	volatility float64
	outcomes   []weighted
	ttl        time.Duration
	cur        currency
	now        func() time.Time

	// attempts draws each call's hang and failure (simcall.Attempts).
	attempts *simcall.Attempts

	records Records
}

var _ supplier.Supplier = (*Supplier)(nil)

type weighted struct {
	status supplier.PriceStatus
	weight float64
}

var defaultOutcomes = []weighted{
	{supplier.PriceChanged, 0.5},
	{supplier.PackageChanged, 0.2},
	{supplier.PriceInvalid, 0.2},
	{supplier.DocumentRestrictionChanged, 0.1},
}

// New returns a simulated supplier.
func New(cfg Config) (*Supplier, error) {
	p := Profile(cfg.Profile)
	d, ok := profileDefaults[p]
	if !ok {
		return nil, fmt.Errorf("sim: unknown profile %q (want gds, ndc or lcc)", cfg.Profile)
	}
	s := &Supplier{
		profile:  p,
		seed:     uint64(cfg.Seed),
		ttl:      d.ttl,
		now:      cfg.Clock,
		records:  cfg.Records,
		attempts: simcall.NewAttempts(),
	}
	if s.records == nil {
		s.records = NewMemoryRecords()
	}
	var err error
	s.knobs, err = simcall.Read(cfg.Latency, cfg.LatencyJitter, cfg.ErrorRate, cfg.TimeoutRate,
		simcall.Knobs{Latency: d.latency, Jitter: d.jitter, ErrorRate: DefaultErrorRate, TimeoutRate: DefaultTimeoutRate})
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	if s.volatility, err = simcall.Rate("Volatility", cfg.Volatility, DefaultVolatility); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	s.outcomes = defaultOutcomes
	if len(cfg.PriceOutcomes) > 0 {
		s.outcomes = nil
		for _, st := range cfg.PriceOutcomes {
			switch st {
			case supplier.PriceChanged, supplier.PackageChanged, supplier.PriceInvalid, supplier.DocumentRestrictionChanged:
				s.outcomes = append(s.outcomes, weighted{st, 1})
			default:
				return nil, fmt.Errorf("sim: price outcome %q cannot be forced", st)
			}
		}
	}
	code := cfg.Currency
	if code == "" {
		code = "CNY"
	}
	if s.cur, err = newCurrency(code); err != nil {
		return nil, err
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Name is the profile name.
func (s *Supplier) Name() string { return string(s.profile) }

// call simulates the source answering: a possible hang until the context
// is done, the latency (cut short by the context), a possible failure. It
// returns the draw for the call so the caller can take further decisions
// (Price's volatility) from the same attempt.
func (s *Supplier) call(ctx context.Context, op, key string) (mix, error) {
	h, fail := s.attempts.Draw(s.seed, op, key)
	timedOut, failed := s.knobs.Answer(ctx, h, fail)
	switch {
	case timedOut != nil:
		return h, s.timeout(op, timedOut)
	case failed:
		return h, fmt.Errorf("sim %s: %s: simulated failure: %w", s.profile, op, supplier.ErrUnavailable)
	}
	return h, nil
}

// timeout wraps ErrTimeout and the context's own error, so callers can
// tell a deadline from a cancellation.
func (s *Supplier) timeout(op string, ctxErr error) error {
	if ctxErr == nil {
		ctxErr = context.DeadlineExceeded
	}
	return fmt.Errorf("sim %s: %s: %w (%w)", s.profile, op, supplier.ErrTimeout, ctxErr)
}

// errorf wraps a supplier error with the profile and operation.
func (s *Supplier) errorf(op string, err error) error {
	return fmt.Errorf("sim %s: %s: %w", s.profile, op, err)
}

var errNoSeats = errors.New("not enough seats")
