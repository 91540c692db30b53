package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

const (
	// maxJourneys is spec §9's multi-city limit.
	maxJourneys = 5
	// maxSeats is what one booking may hold, as on a GDS.
	maxSeats = 9
	// scheduleDays is how far ahead timetables are loaded.
	scheduleDays = 361
)

// Search returns the offers for a request, cheapest first. gds and ndc
// offers each cover every journey (one fare for a return or multi-city
// trip, validated by one carrier); lcc offers each cover one journey (see
// the package documentation). Unknown places, past or too distant dates
// and routes nobody flies give no offers and no error; a malformed request
// is ErrRejected.
func (s *Supplier) Search(ctx context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	if _, err := s.call(ctx, "search", SearchKey(req)); err != nil {
		return nil, err
	}
	offers, err := s.search(req, s.now())
	if err != nil {
		return nil, s.errorf("search", err)
	}
	return offers, nil
}

// SearchKey identifies what a search request asks for (the currency aside,
// which the simulator ignores): its outcome is drawn from it, and a cache of
// answers can key on it.
func SearchKey(req supplier.SearchRequest) string {
	var b strings.Builder
	for _, j := range req.Journeys {
		b.WriteString(j.Origin + j.Destination + j.Date + "/")
	}
	p := req.Passengers
	b.WriteString(strconv.Itoa(p.Adult) + "." + strconv.Itoa(p.Child) + "." + strconv.Itoa(p.Infant) + "/" + req.Cabin + "/" + strings.Join(req.Carriers, ","))
	if req.Direct {
		b.WriteString("/direct")
	}
	return b.String()
}

// search is Search without the simulated transport.
func (s *Supplier) search(req supplier.SearchRequest, now time.Time) ([]supplier.Offer, error) {
	now = now.Truncate(time.Second)
	pax := req.Passengers
	switch {
	case len(req.Journeys) == 0 || len(req.Journeys) > maxJourneys:
		return nil, fmt.Errorf("%d journeys: %w", len(req.Journeys), supplier.ErrRejected)
	case pax.Adult < 0 || pax.Child < 0 || pax.Infant < 0 || pax.Seats() < 1 || pax.Seats() > maxSeats:
		return nil, fmt.Errorf("%d seats: %w", pax.Seats(), supplier.ErrRejected)
	case pax.Infant > pax.Adult:
		return nil, fmt.Errorf("%d infants for %d adults: %w", pax.Infant, pax.Adult, supplier.ErrRejected)
	}
	cabin, err := normCabin(req.Cabin)
	if err != nil {
		return nil, err
	}
	if s.profile == ProfileLCC && cabin != supplier.CabinEconomy {
		return nil, nil
	}
	var carriers map[string]bool
	if len(req.Carriers) > 0 {
		carriers = set(req.Carriers...)
	}

	per := make([][]option, len(req.Journeys))
	for i, j := range req.Journeys {
		day, err := civil(j.Date)
		if err != nil {
			return nil, fmt.Errorf("journey %d date %q: %w", i+1, j.Date, supplier.ErrRejected)
		}
		if j.Origin == j.Destination {
			return nil, fmt.Errorf("journey %d from %s to itself: %w", i+1, j.Origin, supplier.ErrRejected)
		}
		if day.Sub(civilOf(now)) > scheduleDays*24*time.Hour {
			if s.profile == ProfileLCC {
				continue
			}
			return nil, nil
		}
		q := &query{
			origins:  geo.Resolve(strings.ToUpper(j.Origin)),
			dests:    geo.Resolve(strings.ToUpper(j.Destination)),
			day:      day,
			cabin:    cabin,
			seats:    pax.Seats(),
			carriers: carriers,
			direct:   req.Direct,
		}
		per[i] = s.options(q, now)
		if len(per[i]) == 0 && s.profile != ProfileLCC {
			return nil, nil
		}
	}

	var offers []supplier.Offer
	emit := func(opts []option) {
		sp := &spec{cabin: cabin, created: now.Unix()}
		for _, o := range opts {
			sp.journeys = append(sp.journeys, jspec{legs: o.legs, class: o.class})
		}
		if s.profile != ProfileNDC {
			offers = append(offers, s.assemble(sp, pax))
			return
		}
		for b := range 3 {
			sp.brand = b
			offers = append(offers, s.assemble(sp, pax))
		}
	}
	switch {
	case s.profile == ProfileLCC:
		for _, opts := range per {
			start := len(offers)
			for _, o := range opts {
				emit([]option{o})
			}
			sortOffers(offers[start:])
		}
		return offers, nil
	case len(per) == 1:
		for _, o := range per[0] {
			emit([]option{o})
		}
	default:
		for _, c := range combos(per) {
			emit(c)
		}
	}
	sortOffers(offers)
	return offers, nil
}

// sortOffers orders offers cheapest first, then shortest, then by Ref.
func sortOffers(offers []supplier.Offer) {
	type keyed struct {
		total   int64
		minutes int
		i       int
	}
	ks := make([]keyed, len(offers))
	for i, o := range offers {
		ks[i] = keyed{o.Total(), elapsed(o), i}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.total, b.total), cmp.Compare(a.minutes, b.minutes), cmp.Compare(offers[a.i].Ref, offers[b.i].Ref))
	})
	sorted := make([]supplier.Offer, len(offers))
	for i, k := range ks {
		sorted[i] = offers[k.i]
	}
	copy(offers, sorted)
}

// elapsed is an offer's total travel time in minutes.
func elapsed(o supplier.Offer) int {
	t := 0
	for _, j := range o.Journeys {
		if len(j) == 0 {
			continue
		}
		first, last := o.Segments[j[0]], o.Segments[j[len(j)-1]]
		t += int(last.ArriveAt.Sub(first.DepartAt).Minutes())
	}
	return t
}

// Price checks an offer again. The offer is rebuilt from its Ref (not from
// the fields the caller sends): past its ExpiresAt, departed, or without
// seats for pax in its classes now, it is invalid. Otherwise, with
// probability Volatility, drawn from (seed, Ref, attempt), it has changed:
// the new offer has a new Ref and a fresh expiry. Changes:
//
//   - price_changed: the total moves by 3–15% (up two times in three);
//   - package_changed: a bag less, or dearer or no changes or refunds;
//   - invalid: the fare is gone (empty offer);
//   - document_restriction_changed: Restrictions.Documents narrowed
//     (to passport; from passport only to chinese-passport).
//
// When the caller's offer differs in price from the rebuilt one (another
// seed, a tampered amount), the rebuilt offer is returned as price_changed.
// A Ref that is not this supplier's is ErrRejected.
func (s *Supplier) Price(ctx context.Context, offer supplier.Offer, pax supplier.Passengers) (supplier.PriceResult, error) {
	h, err := s.call(ctx, "price", offer.Ref)
	if err != nil {
		return supplier.PriceResult{}, err
	}
	res, err := s.price(offer, pax, s.now(), h)
	if err != nil {
		return supplier.PriceResult{}, s.errorf("price", err)
	}
	return res, nil
}

func (s *Supplier) price(offer supplier.Offer, pax supplier.Passengers, now time.Time, h mix) (supplier.PriceResult, error) {
	invalid := supplier.PriceResult{Status: supplier.PriceInvalid}
	if pax.Seats() < 1 || pax.Seats() > maxSeats || pax.Infant > pax.Adult {
		return supplier.PriceResult{}, fmt.Errorf("%d seats, %d infants: %w", pax.Seats(), pax.Infant, supplier.ErrRejected)
	}
	sp, err := s.decode(offer.Ref)
	if errors.Is(err, supplier.ErrOfferGone) {
		return invalid, nil
	}
	if err != nil {
		return supplier.PriceResult{}, err
	}
	if err := s.sellable(sp, pax, now); err != nil {
		return invalid, nil
	}
	cur := s.assemble(sp, pax)

	if s.volatility > 0 && h.Unit(3) < s.volatility {
		now = now.Truncate(time.Second)
		st := s.pickOutcome(h.Unit(4))
		if st == supplier.PackageChanged && sp.flags&flagPackage != 0 ||
			st == supplier.DocumentRestrictionChanged && sp.flags&flagDocs != 0 {
			st = supplier.PriceChanged // already changed that way once
		}
		next := *sp
		next.created = now.Unix()
		switch st {
		case supplier.PriceInvalid:
			return invalid, nil
		case supplier.PackageChanged:
			next.flags |= flagPackage
		case supplier.DocumentRestrictionChanged:
			next.flags |= flagDocs
		case supplier.PriceChanged:
			// Move the total by 3–15%, expressed on the base fare.
			pct := 0.03 + 0.12*h.Unit(5)
			if h.Unit(6) < 1.0/3 {
				pct = -pct
			}
			var base, total int64
			for _, f := range cur.Fares {
				base += f.Base * int64(f.Count)
			}
			total = cur.Total()
			step := pct * float64(total) / float64(max(base, 1)) * 1000
			next.adj = int(math.Round(float64(1000+sp.adj)*(1+step/1000))) - 1000
			next.adj = max(next.adj, -900)
		}
		return supplier.PriceResult{Status: st, Offer: s.assemble(&next, pax)}, nil
	}
	if cur.Total() != offerTotalFor(offer, pax, cur) {
		return supplier.PriceResult{Status: supplier.PriceChanged, Offer: cur}, nil
	}
	return supplier.PriceResult{Status: supplier.PriceOK, Offer: cur}, nil
}

// offerTotalFor is what the caller's offer costs for pax at its own
// per-traveller prices (types it lacks at the rebuilt offer's).
func offerTotalFor(offer supplier.Offer, pax supplier.Passengers, cur supplier.Offer) int64 {
	unit := func(o supplier.Offer, typ string) (int64, bool) {
		for _, f := range o.Fares {
			if f.Type == typ {
				return f.Total(), true
			}
		}
		return 0, false
	}
	var t int64
	for _, f := range cur.Fares {
		u, ok := unit(offer, f.Type)
		if !ok {
			u = f.Total()
		}
		t += u * int64(f.Count)
	}
	return t
}

// pickOutcome maps a draw onto the configured outcome weights.
func (s *Supplier) pickOutcome(u float64) supplier.PriceStatus {
	var sum float64
	for _, w := range s.outcomes {
		sum += w.weight
	}
	u *= sum
	for _, w := range s.outcomes {
		if u < w.weight {
			return w.status
		}
		u -= w.weight
	}
	return s.outcomes[len(s.outcomes)-1].status
}

// sellable says whether an offer can still be sold now to pax: not expired,
// not departed (nor too soon), every leg with seats in its class.
func (s *Supplier) sellable(sp *spec, pax supplier.Passengers, now time.Time) error {
	if now.After(time.Unix(sp.created, 0).Add(s.ttl)) {
		return fmt.Errorf("offer expired: %w", supplier.ErrOfferGone)
	}
	if sp.journeys[0].legs[0].depart.Before(now.Add(minLeadTime / 2)) {
		return fmt.Errorf("flight departs %s: %w", sp.journeys[0].legs[0].depart.Format(time.RFC3339), supplier.ErrOfferGone)
	}
	for _, j := range sp.journeys {
		for _, f := range j.legs {
			if s.availability(f, sp.cabin, now).seatsAt(j.class) < pax.Seats() {
				return fmt.Errorf("%s class %c: %w: %w", f.code(), classes[sp.cabin][j.class].code, errNoSeats, supplier.ErrOfferGone)
			}
		}
	}
	return nil
}
