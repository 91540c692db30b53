package sim

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// Bookings are the simulated source's records, not Voyage's (those are the
// order service's): kept in the Supplier's Records, in memory unless the
// Config names a store every instance shares.

// Booking states.
const (
	stateHeld      = "held"
	stateTicketed  = "ticketed"
	stateCancelled = "cancelled"
	stateExpired   = "expired" // not ticketed by TicketBy
	stateVoided    = "voided"
	stateRefunded  = "refunded"
)

// holdFor is how long a profile holds an unticketed booking.
var holdFor = map[Profile]time.Duration{ProfileGDS: 24 * time.Hour, ProfileNDC: 2 * time.Hour, ProfileLCC: 30 * time.Minute}

// quoteValidity is how long a refund or change quote stands (spec §9).
const quoteValidity = 15 * time.Minute

// ticketPrefix is the carriers' three-digit ticketing code; others 000.
var ticketPrefix = map[string]string{
	"CA": "999", "MU": "781", "CZ": "784", "HU": "880", "3U": "876", "ZH": "479", "MF": "731",
	"FM": "774", "HO": "018", "BA": "125", "LH": "220", "AF": "057", "KL": "074", "SQ": "618",
	"QF": "081", "AA": "001", "UA": "016", "DL": "006", "EK": "176", "LX": "724", "OS": "257",
	"IB": "075", "AY": "105", "CX": "160", "JL": "131", "NH": "205", "TK": "235", "QR": "157",
	"EY": "607", "KE": "180", "OZ": "988", "AC": "014", "NZ": "086", "TG": "217", "MH": "232",
	"SU": "555", "9C": "089",
}

// booking is a simulated booking, stored as a JSON document (Records).
type booking struct {
	Booking    supplier.Booking     `json:"booking"`
	Offer      supplier.Offer       `json:"offer"`
	Pax        supplier.Passengers  `json:"pax"`
	Cabin      string               `json:"cabin"`
	Travellers []supplier.Traveller `json:"travellers"`
	State      string               `json:"state"`
	IssuedAt   time.Time            `json:"issuedAt"`
	Tickets    []supplier.Ticket    `json:"tickets"`
	Reissues   int                  `json:"reissues"`
	Quotes     map[string]quoteRec  `json:"quotes"`
	QuoteSeq   int                  `json:"quoteSeq"`
	// Applied are the change quotes confirmed, so confirming one again
	// (a job run again after a crash) answers what it did.
	Applied []string `json:"applied,omitempty"`
}

type quoteRec struct {
	Quote  supplier.Quote `json:"quote"`
	Change bool           `json:"change,omitempty"`
}

// Book holds seats for an offer. The offer is rebuilt from its Ref; it must
// still be sellable (ErrOfferGone) and the caller's prices must match the
// rebuilt ones (ErrRejected: price it again). Travellers are checked against
// the fare's restrictions (documents when a type is given, nationality,
// age when a birthday is given) and their types against their ages. A
// retried Book with the same Key returns the first booking, unless that was
// cancelled or lapsed: then it books again. The PNR is six characters
// derived from the Key.
func (s *Supplier) Book(ctx context.Context, req supplier.BookRequest) (supplier.Booking, error) {
	key := req.Key
	if key == "" {
		var b strings.Builder
		b.WriteString(req.Offer.Ref)
		for _, t := range req.Travellers {
			b.WriteString("/" + t.Surname + "," + t.GivenName + "," + t.Birthday)
		}
		key = b.String()
	}
	if _, err := s.call(ctx, "book", key); err != nil {
		return supplier.Booking{}, err
	}
	now := s.now()
	sp, offer, pax, err := s.bookable(req, now)
	if err != nil {
		// A retried key is answered with its booking even when the offer
		// could not be booked now (its seats sold since): the key is looked
		// up only then, or when the insert finds it taken, not on every
		// booking.
		if req.Key != "" {
			if bk, ok, kerr := s.byKey(ctx, req.Key); kerr != nil || ok {
				return bk, kerr
			}
		}
		return supplier.Booking{}, s.errorf("book", err)
	}
	depart := offer.Segments[0].DepartAt

	ticketBy := earlier(now.Add(holdFor[s.profile]), depart.Add(-30*time.Minute))
	bk := &booking{
		Booking: supplier.Booking{
			Supplier: s.Name(),
			Total:    offer.Total(),
			Currency: offer.Currency,
			TicketBy: ticketBy.UTC().Truncate(time.Second),
		},
		Offer:      offer,
		Pax:        pax,
		Cabin:      sp.cabin,
		Travellers: slices.Clone(req.Travellers),
		State:      stateHeld,
		Quotes:     make(map[string]quoteRec),
	}
	// The locator is drawn from the key; a taken one is drawn again.
	for n := uint64(0); n < maxPNRDraws; n++ {
		pnr := pnrFrom(seeded(s.seed).Str(string(s.profile)).Str("pnr").Str(key).Num(n))
		ref := pnr
		if s.profile == ProfileNDC {
			ref = offer.ValidatingCarrier + "-" + pnr
		}
		bk.Booking.Ref, bk.Booking.PNR = ref, pnr
		data, err := json.Marshal(bk)
		if err != nil {
			return supplier.Booking{}, s.errorf("book", fmt.Errorf("encode booking: %w", err))
		}
		err = s.records.Create(ctx, s.Name(), ref, pnr, req.Key, data)
		switch {
		case err == nil:
			return bk.Booking, nil
		case errors.Is(err, ErrKeyTaken):
			// The key was booked before (a retry) or meanwhile (a race):
			// its booking is the answer. A key of a cancelled or expired
			// booking has just been released, and the next draw books.
			if bk, ok, err := s.byKey(ctx, req.Key); err != nil || ok {
				return bk, err
			}
		case !errors.Is(err, ErrPNRTaken):
			return supplier.Booking{}, s.errorf("book", err)
		}
	}
	return supplier.Booking{}, s.errorf("book", fmt.Errorf("no free record locator after %d draws: %w", maxPNRDraws, supplier.ErrUnavailable))
}

// bookable checks that req can be booked now: its offer decodes and is
// sold, at the price the caller was shown, to travellers it allows.
func (s *Supplier) bookable(req supplier.BookRequest, now time.Time) (*spec, supplier.Offer, supplier.Passengers, error) {
	var none supplier.Offer
	var nopax supplier.Passengers
	sp, err := s.decode(req.Offer.Ref)
	if err != nil {
		return nil, none, nopax, err
	}
	pax, err := countTravellers(req.Travellers)
	if err != nil {
		return nil, none, nopax, err
	}
	if err := s.sellable(sp, pax, now); err != nil {
		return nil, none, nopax, err
	}
	offer := s.assemble(sp, pax)
	if offerTotalFor(req.Offer, pax, offer) != offer.Total() {
		return nil, none, nopax, fmt.Errorf("offer prices differ from the source's, price it again: %w", supplier.ErrRejected)
	}
	depart := offer.Segments[0].DepartAt
	for i, t := range req.Travellers {
		if err := checkTraveller(t, offer.Restrictions, depart); err != nil {
			return nil, none, nopax, fmt.Errorf("traveller %d: %w", i+1, err)
		}
	}
	return sp, offer, pax, nil
}

// maxPNRDraws bounds the search for a free locator (32^6 of them).
const maxPNRDraws = 64

const pnrAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// pnrFrom is a six-character record locator (no I, O, 0 or 1).
func pnrFrom(h mix) string {
	v := h.Sum()
	b := make([]byte, 6)
	for i := range b {
		b[i] = pnrAlphabet[v&31]
		v >>= 5
	}
	return string(b)
}

// byKey is the live booking a retried request made before. A booking
// cancelled (or lapsed) since gives its key up: the caller cancelled it
// because the order around it failed, and the same request booking again
// wants seats, not the dead booking.
func (s *Supplier) byKey(ctx context.Context, key string) (supplier.Booking, bool, error) {
	ref, err := s.records.RefByKey(ctx, s.Name(), key)
	if errors.Is(err, supplier.ErrNotFound) {
		return supplier.Booking{}, false, nil
	}
	if err != nil {
		return supplier.Booking{}, false, s.errorf("book", err)
	}
	bk, _, _, err := s.load(ctx, ref)
	if err != nil {
		return supplier.Booking{}, false, s.errorf("book", err)
	}
	if bk.State != stateCancelled && bk.State != stateExpired {
		return bk.Booking, true, nil
	}
	if err := s.records.ReleaseKey(ctx, s.Name(), ref, key); err != nil {
		return supplier.Booking{}, false, s.errorf("book", err)
	}
	return supplier.Booking{}, false, nil
}

// load reads a booking with its stored document and version. A held
// booking past its ticketing time limit reads as expired.
func (s *Supplier) load(ctx context.Context, ref string) (*booking, []byte, int64, error) {
	data, version, err := s.records.Get(ctx, s.Name(), ref)
	if err != nil {
		return nil, nil, 0, err
	}
	return s.decodeBooking(ref, data, version)
}

// recent is the booking as this process last wrote it, when the records
// keep that copy (see Recenter).
func (s *Supplier) recent(ref string) (*booking, []byte, int64, bool) {
	r, ok := s.records.(Recenter)
	if !ok {
		return nil, nil, 0, false
	}
	data, version, ok := r.Recent(s.Name(), ref)
	if !ok {
		return nil, nil, 0, false
	}
	bk, data, version, err := s.decodeBooking(ref, data, version)
	return bk, data, version, err == nil
}

func (s *Supplier) decodeBooking(ref string, data []byte, version int64) (*booking, []byte, int64, error) {
	var bk booking
	if err := json.Unmarshal(data, &bk); err != nil {
		return nil, nil, 0, fmt.Errorf("sim: decode booking %s: %w", ref, err)
	}
	if bk.State == stateHeld && s.now().After(bk.Booking.TicketBy) {
		bk.State = stateExpired
	}
	return &bk, data, version, nil
}

// countTravellers counts a booking's party and checks its shape.
func countTravellers(ts []supplier.Traveller) (supplier.Passengers, error) {
	var p supplier.Passengers
	for _, t := range ts {
		switch t.Type {
		case supplier.Adult:
			p.Adult++
		case supplier.Child:
			p.Child++
		case supplier.Infant:
			p.Infant++
		default:
			return p, fmt.Errorf("traveller type %q: %w", t.Type, supplier.ErrRejected)
		}
	}
	if p.Seats() < 1 || p.Seats() > maxSeats || p.Infant > p.Adult {
		return p, fmt.Errorf("party of %d adults, %d children, %d infants: %w", p.Adult, p.Child, p.Infant, supplier.ErrRejected)
	}
	return p, nil
}

// checkTraveller applies the fare's restrictions to one traveller.
func checkTraveller(t supplier.Traveller, r supplier.Restrictions, depart time.Time) error {
	reject := func(format string, a ...any) error {
		return fmt.Errorf(format+": %w", append(a, supplier.ErrRejected)...)
	}
	if t.Surname == "" || t.GivenName == "" {
		return reject("name missing")
	}
	for _, c := range t.Surname {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == ' ') {
			return reject("surname %q: letters A-Z only", t.Surname)
		}
	}
	if t.DocumentType != "" && len(r.Documents) > 0 && !slices.Contains(r.Documents, t.DocumentType) {
		return reject("document %s not accepted (fare takes %s)", t.DocumentType, strings.Join(r.Documents, ", "))
	}
	nat := strings.ToUpper(t.Nationality)
	if len(r.EligibleCountries) > 0 && !slices.Contains(r.EligibleCountries, nat) {
		return reject("nationality %q not eligible", t.Nationality)
	}
	if slices.Contains(r.IneligibleCountries, nat) {
		return reject("nationality %q not eligible", t.Nationality)
	}
	if t.Birthday == "" {
		return nil
	}
	born, err := time.Parse(time.DateOnly, t.Birthday)
	if err != nil {
		return reject("birthday %q", t.Birthday)
	}
	age := supplier.AgeOn(born, depart)
	switch {
	case age < 0:
		return reject("birthday %s after departure", t.Birthday)
	case t.Type == supplier.Infant && age >= 2,
		t.Type == supplier.Child && (age < 2 || age >= 12),
		t.Type == supplier.Adult && age < 12:
		return reject("%s aged %d", t.Type, age)
	case r.MinAge > 0 && age < r.MinAge, r.MaxAge > 0 && age > r.MaxAge:
		return reject("aged %d, fare is for %d to %d", age, r.MinAge, r.MaxAge)
	}
	return nil
}

// maxConflicts bounds how often an operation is run again on a booking
// that another call changed in between.
const maxConflicts = 20

// answerLocked is a call on the booking ref that the source answers by
// changing it (locked).
func (s *Supplier) answerLocked(ctx context.Context, op, ref string, fn func(bk *booking, now time.Time) error) error {
	if _, err := s.call(ctx, op, ref); err != nil {
		return err
	}
	return s.locked(ctx, op, ref, fn)
}

// locked runs fn on the stored booking and writes back what it changed,
// as if alone: when another call wrote the booking meanwhile, fn runs again
// on the newer copy.
//
// The first try starts from the copy this process last wrote, when the
// records keep it (the ticketing that follows a booking made here), and
// spares reading the store. Only a write proves that copy current: a stale
// one fails the versioned write like a concurrent change. An answer that
// writes nothing (a refusal, or nothing to change) is not trusted to it,
// and fn runs again on the store's copy.
func (s *Supplier) locked(ctx context.Context, op, ref string, fn func(bk *booking, now time.Time) error) error {
	bk, data, version, fromRecent := s.recent(ref)
	for conflicts := 0; ; {
		if !fromRecent {
			var err error
			if bk, data, version, err = s.load(ctx, ref); err != nil {
				return s.errorf(op, err)
			}
		}
		now := s.now()
		err := fn(bk, now)
		var next []byte
		if err == nil {
			next, err = json.Marshal(bk)
			if err != nil {
				return s.errorf(op, fmt.Errorf("encode booking %s: %w", ref, err))
			}
		}
		if fromRecent && (err != nil || bytes.Equal(next, data)) {
			fromRecent = false
			continue
		}
		fromRecent = false
		if err != nil {
			return s.errorf(op, fmt.Errorf("booking %s: %w", ref, err))
		}
		if bytes.Equal(next, data) {
			return nil
		}
		err = s.records.Update(ctx, s.Name(), ref, version, next)
		if errors.Is(err, ErrStale) && conflicts < maxConflicts {
			conflicts++
			continue
		}
		if err != nil {
			return s.errorf(op, err)
		}
		return nil
	}
}

func notIn(state string) error {
	return fmt.Errorf("booking is %s: %w", state, supplier.ErrRejected)
}

// Ticket issues a held booking's tickets, one per traveller (infants
// included): the validating carrier's three-digit code and ten digits.
// Ticketing an issued booking returns its tickets again; a booking not
// ticketed by TicketBy has lost its seats (ErrOfferGone).
func (s *Supplier) Ticket(ctx context.Context, ref string) ([]supplier.Ticket, error) {
	if _, err := s.call(ctx, "ticket", ref); err != nil {
		return nil, err
	}
	var out []supplier.Ticket
	err := s.locked(ctx, "ticket", ref, func(bk *booking, now time.Time) error {
		switch bk.State {
		case stateTicketed:
		case stateHeld:
			bk.State, bk.IssuedAt = stateTicketed, now
			s.issue(bk)
		case stateExpired:
			return fmt.Errorf("not ticketed by %s: %w", bk.Booking.TicketBy.Format(time.RFC3339), supplier.ErrOfferGone)
		default:
			return notIn(bk.State)
		}
		out = slices.Clone(bk.Tickets)
		return nil
	})
	return out, err
}

// issue numbers a booking's tickets (again after a change).
func (s *Supplier) issue(bk *booking) {
	prefix, ok := ticketPrefix[bk.Offer.ValidatingCarrier]
	if !ok {
		prefix = "000"
	}
	bk.Tickets = bk.Tickets[:0]
	for i := range bk.Travellers {
		h := seeded(s.seed).Str("ticket").Str(bk.Booking.Ref).Num(uint64(i)).Num(uint64(bk.Reissues))
		bk.Tickets = append(bk.Tickets, supplier.Ticket{Traveller: i, Number: fmt.Sprintf("%s%010d", prefix, h.Sum()%10_000_000_000)})
	}
}

// Cancel releases a held booking; cancelling again is no error. Issued
// tickets are voided or refunded instead (ErrRejected).
func (s *Supplier) Cancel(ctx context.Context, ref string) error {
	return s.answerLocked(ctx, "cancel", ref, func(bk *booking, _ time.Time) error {
		switch bk.State {
		case stateHeld:
			bk.State = stateCancelled
		case stateCancelled, stateExpired:
		default:
			return notIn(bk.State)
		}
		return nil
	})
}

// Void cancels issued tickets for a full refund on the day they were
// issued, the day as it is at the first departure airport. Voiding again is
// no error; on a later day it is ErrRejected (refund instead).
func (s *Supplier) Void(ctx context.Context, ref string) error {
	return s.answerLocked(ctx, "void", ref, func(bk *booking, now time.Time) error {
		switch bk.State {
		case stateVoided:
			return nil
		case stateTicketed:
		default:
			return notIn(bk.State)
		}
		loc := location(bk.Offer.Segments[0].Origin)
		if !civilOf(now.In(loc)).Equal(civilOf(bk.IssuedAt.In(loc))) {
			return fmt.Errorf("issued %s, void only on the day of issue: %w", bk.IssuedAt.In(loc).Format(time.DateOnly), supplier.ErrRejected)
		}
		bk.State = stateVoided
		return nil
	})
}

// RefundQuote says what refunding an issued booking returns before its
// first flight: the total less the fare's refund fee per seat, or only the
// taxes when the fare is non-refundable.
func (s *Supplier) RefundQuote(ctx context.Context, ref string) (supplier.Quote, error) {
	if _, err := s.call(ctx, "refund-quote", ref); err != nil {
		return supplier.Quote{}, err
	}
	var q supplier.Quote
	err := s.locked(ctx, "refund quote", ref, func(bk *booking, now time.Time) error {
		if bk.State != stateTicketed {
			return notIn(bk.State)
		}
		if !bk.Offer.Segments[0].DepartAt.After(now) {
			return fmt.Errorf("already flown: %w", supplier.ErrRejected)
		}
		c := bk.Offer.Conditions
		var fee int64
		for _, f := range bk.Offer.Fares {
			switch {
			case !c.Refundable:
				fee += f.Base * int64(f.Count)
			case f.Type != supplier.Infant:
				fee += min(c.RefundFee, f.Base) * int64(f.Count)
			}
		}
		bk.QuoteSeq++
		q = supplier.Quote{
			Ref:       fmt.Sprintf("RQ%s%d", bk.Booking.PNR, bk.QuoteSeq),
			Refund:    bk.Offer.Total() - fee,
			Fee:       fee,
			Currency:  bk.Offer.Currency,
			ExpiresAt: now.Add(quoteValidity).UTC().Truncate(time.Second),
		}
		bk.Quotes[q.Ref] = quoteRec{Quote: q}
		return nil
	})
	return q, err
}

// Refund confirms a refund quote before it expires. Confirming a quote of
// a booking refunded already is no error, expired or not: the refund was
// made, and a caller whose answer was lost (a job run again after a crash)
// must learn so rather than take the refund for refused.
func (s *Supplier) Refund(ctx context.Context, ref, quoteRef string) error {
	if _, err := s.call(ctx, "refund", ref+"/"+quoteRef); err != nil {
		return err
	}
	return s.locked(ctx, "refund", ref, func(bk *booking, now time.Time) error {
		if qr, ok := bk.Quotes[quoteRef]; ok && !qr.Change && bk.State == stateRefunded {
			return nil
		}
		if bk.State != stateTicketed {
			return notIn(bk.State)
		}
		if _, err := quoteFor(bk, quoteRef, false, now); err != nil {
			return err
		}
		bk.State = stateRefunded
		return nil
	})
}

func quoteFor(bk *booking, quoteRef string, change bool, now time.Time) (quoteRec, error) {
	qr, ok := bk.Quotes[quoteRef]
	switch {
	case !ok || qr.Change != change:
		return qr, fmt.Errorf("quote %s: %w", quoteRef, supplier.ErrNotFound)
	case now.After(qr.Quote.ExpiresAt):
		return qr, fmt.Errorf("quote %s expired: %w", quoteRef, supplier.ErrOfferGone)
	}
	return qr, nil
}

// maxChangeQuotes bounds the answers of ChangeQuotes.
const maxChangeQuotes = 10

// ChangeQuotes offers the issued booking's party new flights for its
// journeys on the same validating carrier, cabin and (NDC) brand: the ten
// cheapest, each due the fare and tax difference (never negative) plus the
// change fee per seat. Non-changeable fares are ErrRejected.
func (s *Supplier) ChangeQuotes(ctx context.Context, ref string, journeys []supplier.JourneyQuery) ([]supplier.Quote, error) {
	if _, err := s.call(ctx, "change-quotes", ref+"/"+SearchKey(supplier.SearchRequest{Journeys: journeys})); err != nil {
		return nil, err
	}
	bk, _, _, err := s.load(ctx, ref)
	if err != nil {
		return nil, s.errorf("change quotes", err)
	}
	old, pax, cabin, state := bk.Offer, bk.Pax, bk.Cabin, bk.State
	switch {
	case state != stateTicketed:
		return nil, s.errorf("change quotes", fmt.Errorf("booking %s: %w", ref, notIn(state)))
	case !old.Conditions.Changeable:
		return nil, s.errorf("change quotes", fmt.Errorf("booking %s: fare not changeable: %w", ref, supplier.ErrRejected))
	case len(journeys) != len(old.Journeys):
		return nil, s.errorf("change quotes", fmt.Errorf("%d journeys for a booking of %d: %w", len(journeys), len(old.Journeys), supplier.ErrRejected))
	}
	now := s.now()
	offers, err := s.search(supplier.SearchRequest{
		Journeys:   journeys,
		Passengers: pax,
		Cabin:      cabin,
		Carriers:   []string{old.ValidatingCarrier},
	}, now)
	if err != nil {
		return nil, s.errorf("change quotes", err)
	}
	offers = slices.DeleteFunc(offers, func(o supplier.Offer) bool {
		return o.Brand != old.Brand || len(o.Journeys) != len(old.Journeys)
	})
	if len(offers) > maxChangeQuotes {
		offers = offers[:maxChangeQuotes]
	}
	var quotes []supplier.Quote
	err = s.locked(ctx, "change quotes", ref, func(bk *booking, now time.Time) error {
		fee := old.Conditions.ChangeFee * int64(pax.Seats())
		for i := range offers {
			o := offers[i]
			bk.QuoteSeq++
			q := supplier.Quote{
				Ref:       fmt.Sprintf("CQ%s%d", bk.Booking.PNR, bk.QuoteSeq),
				Fee:       fee,
				Due:       max(o.Total()-old.Total(), 0) + fee,
				Currency:  o.Currency,
				ExpiresAt: earlier(now.Add(quoteValidity), o.ExpiresAt).UTC().Truncate(time.Second),
				Offer:     &o,
			}
			bk.Quotes[q.Ref] = quoteRec{Quote: q, Change: true}
			quotes = append(quotes, q)
		}
		return nil
	})
	slices.SortStableFunc(quotes, func(a, b supplier.Quote) int { return cmp.Compare(a.Due, b.Due) })
	return quotes, err
}

// Change moves an issued booking onto a change quote's offer and reissues
// its tickets (new numbers, issued now). The returned Booking's Total is
// the new itinerary's fare total; what the change cost is the quote's Due.
// Confirming a quote applied already answers the booking as it is.
func (s *Supplier) Change(ctx context.Context, ref, quoteRef string) (supplier.Booking, error) {
	if _, err := s.call(ctx, "change", ref+"/"+quoteRef); err != nil {
		return supplier.Booking{}, err
	}
	var out supplier.Booking
	err := s.locked(ctx, "change", ref, func(bk *booking, now time.Time) error {
		if slices.Contains(bk.Applied, quoteRef) {
			// Confirmed before: the booking flies it already.
			out = bk.Booking
			return nil
		}
		if bk.State != stateTicketed {
			return notIn(bk.State)
		}
		qr, err := quoteFor(bk, quoteRef, true, now)
		if err != nil {
			return err
		}
		bk.Offer = *qr.Quote.Offer
		bk.Booking.Total = bk.Offer.Total()
		bk.Reissues++
		bk.IssuedAt = now
		s.issue(bk)
		for r, q := range bk.Quotes {
			if q.Change {
				delete(bk.Quotes, r)
			}
		}
		bk.Applied = append(bk.Applied, quoteRef)
		out = bk.Booking
		return nil
	})
	return out, err
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
