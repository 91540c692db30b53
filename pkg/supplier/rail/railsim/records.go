package railsim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/supplier/rail"
	"github.com/voyage/voyage/pkg/supplier/sim"
)

// The railway's own records live in a sim.Records store, as the flight
// simulators' do: in memory by default, in the sim_bookings table when the
// app passes sim.NewSQLRecords, so a restarted server or another instance
// on the same database tickets, refunds and changes the bookings made
// before and sees the same seats taken. Two kinds of document:
//
//   - a booking (source Name, ref its order number, key its PreBook key)
//     with the places it holds and its refund and exchange offers;
//   - a class's seat map (source seatsSource, ref day/train/class) with
//     the places Voyage's bookings hold, over the places sold to others
//     that are drawn from the seed and the day the map was first written.
//
// Every write is over the version read (sim.ErrStale otherwise, and the
// operation runs again on the newer copy).
const seatsSource = Name + "/seats"

// maxWrites bounds the attempts of one write that keeps losing to others.
const maxWrites = 50

type bookingDoc struct {
	Booking   rail.Booking            `json:"booking"`
	Places    []placeDoc              `json:"places"`
	Refunds   map[string]*refundDoc   `json:"refunds,omitempty"`
	Exchanges map[string]*exchangeDoc `json:"exchanges,omitempty"`
}

type placeDoc struct {
	Day   string `json:"day"`
	Train string `json:"train"`
	Class string `json:"class"`
	Idx   int    `json:"idx"`
}

func (p placeDoc) key() invKey { return invKey{day: p.Day, train: p.Train, class: p.Class} }

type refundDoc struct {
	Offer     rail.RefundOffer `json:"offer"`
	Confirmed bool             `json:"confirmed"`
}

type exchangeDoc struct {
	Offer     rail.ExchangeOffer `json:"offer"`
	Leg       legDoc             `json:"leg"`
	Confirmed bool               `json:"confirmed"`
}

// legDoc is what rebuilds a leg from the timetable.
type legDoc struct {
	Day   string `json:"day"`
	Train string `json:"train"`
	From  int    `json:"from"`
	To    int    `json:"to"`
}

func docOfLeg(l leg) legDoc {
	return legDoc{Day: l.day.Format(time.DateOnly), Train: l.t.number, From: l.from, To: l.to}
}

func (s *Supplier) legOf(d legDoc) (leg, error) {
	t, ok := s.tt.byNumber[d.Train]
	day, err := time.ParseInLocation(time.DateOnly, d.Day, china)
	if !ok || err != nil || d.From < 0 || d.To >= len(t.calls) || d.From >= d.To {
		return leg{}, fmt.Errorf("train %s on %s: %w", d.Train, d.Day, rail.ErrNotFound)
	}
	return leg{t: t, from: d.From, to: d.To, day: day,
		departAt: day.Add(t.calls[d.From].depart), arriveAt: day.Add(t.calls[d.To].arrive)}, nil
}

// seatDoc is a class's seat map: the places Voyage's bookings hold.
type seatDoc struct {
	// Drawn is the day (China time) the places sold to others were drawn:
	// every instance draws them as of that day.
	Drawn string       `json:"drawn"`
	Held  map[int]hold `json:"held"`
}

// hold is a place held by a booking: until Until while pre-booked, for
// good (zero Until) once ticketed.
type hold struct {
	Ref   string    `json:"ref"`
	Until time.Time `json:"until,omitzero"`
}

func invRef(k invKey) string { return k.day + "/" + k.train + "/" + k.class }

func (s *Supplier) layoutFor(k invKey) (classLayout, error) {
	t, ok := s.tt.byNumber[k.train]
	if !ok {
		return classLayout{}, fmt.Errorf("train %s: %w", k.train, rail.ErrNotFound)
	}
	lay, err := layoutOf(t, k.class)
	if err != nil {
		// A seat map of a class the timetable no longer has is not found,
		// not a rejected request.
		return classLayout{}, fmt.Errorf("%s has no %q class: %w", k.train, k.class, rail.ErrNotFound)
	}
	return lay, nil
}

// build is the seat map as an inventory now; holds past their time are
// dropped from d.
func (s *Supplier) build(k invKey, lay classLayout, d *seatDoc, now time.Time) *inventory {
	drawn, err := time.ParseInLocation(time.DateOnly, d.Drawn, china)
	if err != nil {
		drawn = now.In(china)
	}
	day, _ := time.ParseInLocation(time.DateOnly, k.day, china)
	inv := newInventory(s.seed, k, lay, daysAhead(drawn, day))
	for idx, h := range d.Held {
		if !h.Until.IsZero() && !now.Before(h.Until) {
			delete(d.Held, idx)
			continue
		}
		if idx >= 0 && idx < len(inv.taken) && !inv.taken[idx] {
			inv.taken[idx] = true
			inv.free--
		}
	}
	return inv
}

// seats reads a class's seat map without writing it.
func (s *Supplier) seats(ctx context.Context, k invKey, lay classLayout, now time.Time) (*inventory, error) {
	d, _, err := s.readSeats(ctx, k, now)
	if err != nil {
		return nil, err
	}
	return s.build(k, lay, &d, now), nil
}

// seatMaps reads many seat maps at once (those never written are as
// drawn now).
func (s *Supplier) seatMaps(ctx context.Context, keys []invKey, now time.Time) (map[invKey]seatDoc, error) {
	out := make(map[invKey]seatDoc, len(keys))
	lister, ok := s.records.(sim.Lister)
	if !ok {
		for _, k := range keys {
			d, _, err := s.readSeats(ctx, k, now)
			if err != nil {
				return nil, err
			}
			out[k] = d
		}
		return out, nil
	}
	refs := make([]string, len(keys))
	for i, k := range keys {
		refs[i] = invRef(k)
	}
	docs, err := lister.GetMany(ctx, seatsSource, refs)
	if err != nil {
		return nil, fmt.Errorf("seat maps: %w (%w)", rail.ErrUnavailable, err)
	}
	for _, k := range keys {
		d := seatDoc{Drawn: now.In(china).Format(time.DateOnly)}
		if data, ok := docs[invRef(k)]; ok {
			if err := json.Unmarshal(data, &d); err != nil {
				return nil, fmt.Errorf("seats of %s: %w", invRef(k), err)
			}
		}
		if d.Held == nil {
			d.Held = map[int]hold{}
		}
		out[k] = d
	}
	return out, nil
}

func (s *Supplier) readSeats(ctx context.Context, k invKey, now time.Time) (seatDoc, int64, error) {
	data, ver, err := s.records.Get(ctx, seatsSource, invRef(k))
	if errors.Is(err, supplier.ErrNotFound) {
		return seatDoc{Drawn: now.In(china).Format(time.DateOnly), Held: map[int]hold{}}, 0, nil
	}
	if err != nil {
		return seatDoc{}, 0, fmt.Errorf("seats of %s: %w (%w)", invRef(k), rail.ErrUnavailable, err)
	}
	var d seatDoc
	if err := json.Unmarshal(data, &d); err != nil {
		return seatDoc{}, 0, fmt.Errorf("seats of %s: %w", invRef(k), err)
	}
	if d.Held == nil {
		d.Held = map[int]hold{}
	}
	return d, ver, nil
}

// changeSeats applies fn to a class's seat map and writes it back.
func (s *Supplier) changeSeats(ctx context.Context, k invKey, now time.Time, fn func(inv *inventory, held map[int]hold) error) error {
	lay, err := s.layoutFor(k)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		d, ver, err := s.readSeats(ctx, k, now)
		if err != nil {
			return err
		}
		inv := s.build(k, lay, &d, now)
		if err := fn(inv, d.Held); err != nil {
			return err
		}
		data, err := json.Marshal(d)
		if err != nil {
			return fmt.Errorf("seats of %s: %w", invRef(k), err)
		}
		if ver == 0 {
			err = s.records.Create(ctx, seatsSource, invRef(k), invRef(k), "", data)
		} else {
			err = s.records.Update(ctx, seatsSource, invRef(k), ver, data)
		}
		if (errors.Is(err, sim.ErrStale) || errors.Is(err, sim.ErrPNRTaken)) && attempt < maxWrites {
			continue
		}
		if err != nil {
			return fmt.Errorf("seats of %s: %w (%w)", invRef(k), rail.ErrUnavailable, err)
		}
		return nil
	}
}

// takeSeats holds places for ref (until until; for good when zero).
func (s *Supplier) takeSeats(ctx context.Context, k invKey, now time.Time, letters []string, start func(n int) int, ref string, until time.Time) ([]int, error) {
	var idx []int
	err := s.changeSeats(ctx, k, now, func(inv *inventory, held map[int]hold) error {
		var ok bool
		idx, ok = inv.take(letters, start(len(inv.taken)))
		if !ok {
			return fmt.Errorf("%s %s: %d left, %d wanted: %w", k.train, k.class, inv.free, len(letters), rail.ErrSoldOut)
		}
		for _, i := range idx {
			held[i] = hold{Ref: ref, Until: until}
		}
		return nil
	})
	return idx, err
}

// releaseSeats frees the places ref holds among ps.
func (s *Supplier) releaseSeats(ctx context.Context, ref string, ps []placeDoc, now time.Time) error {
	return s.changePlaces(ctx, ps, now, func(held map[int]hold, i int) error {
		if held[i].Ref == ref {
			delete(held, i)
		}
		return nil
	})
}

// pinSeats makes ref's holds on ps permanent: rail.ErrHoldExpired when one
// is gone.
func (s *Supplier) pinSeats(ctx context.Context, ref string, ps []placeDoc, now time.Time) error {
	return s.changePlaces(ctx, ps, now, func(held map[int]hold, i int) error {
		if held[i].Ref != ref {
			return fmt.Errorf("booking %s: %w", ref, rail.ErrHoldExpired)
		}
		held[i] = hold{Ref: ref}
		return nil
	})
}

// changePlaces applies change to each place of ps in its class's seat map,
// one seat map (one changeSeats) at a time.
func (s *Supplier) changePlaces(ctx context.Context, ps []placeDoc, now time.Time, change func(held map[int]hold, i int) error) error {
	byKey := map[invKey][]int{}
	for _, p := range ps {
		byKey[p.key()] = append(byKey[p.key()], p.Idx)
	}
	for k, idx := range byKey {
		err := s.changeSeats(ctx, k, now, func(_ *inventory, held map[int]hold) error {
			for _, i := range idx {
				if err := change(held, i); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// loadBooking reads a booking; a pre-booking past its hold reads expired.
func (s *Supplier) loadBooking(ctx context.Context, ref string, now time.Time) (bookingDoc, int64, error) {
	data, ver, err := s.records.Get(ctx, Name, ref)
	if errors.Is(err, supplier.ErrNotFound) {
		return bookingDoc{}, 0, fmt.Errorf("booking %s: %w", ref, rail.ErrNotFound)
	}
	if err != nil {
		return bookingDoc{}, 0, fmt.Errorf("booking %s: %w (%w)", ref, rail.ErrUnavailable, err)
	}
	var d bookingDoc
	if err := json.Unmarshal(data, &d); err != nil {
		return bookingDoc{}, 0, fmt.Errorf("booking %s: %w", ref, err)
	}
	if d.Booking.Status == rail.StatusPreBooked && !now.Before(d.Booking.HoldExpiresAt) {
		d.Booking.Status = rail.StatusExpired
	}
	if d.Refunds == nil {
		d.Refunds = map[string]*refundDoc{}
	}
	if d.Exchanges == nil {
		d.Exchanges = map[string]*exchangeDoc{}
	}
	return d, ver, nil
}

// errUnchanged, from a changeBooking fn, answers the booking as read
// without writing it.
var errUnchanged = errors.New("railsim: unchanged")

// changeBooking applies fn to a booking and writes it back.
func (s *Supplier) changeBooking(ctx context.Context, ref string, now time.Time, fn func(d *bookingDoc) error) (bookingDoc, error) {
	for attempt := 0; ; attempt++ {
		d, ver, err := s.loadBooking(ctx, ref, now)
		if err != nil {
			return d, err
		}
		if err := fn(&d); errors.Is(err, errUnchanged) {
			return d, nil
		} else if err != nil {
			return d, err
		}
		data, err := encodeBooking(&d)
		if err != nil {
			return d, err
		}
		err = s.records.Update(ctx, Name, ref, ver, data)
		if errors.Is(err, sim.ErrStale) && attempt < maxWrites {
			continue
		}
		if err != nil {
			return d, fmt.Errorf("booking %s: %w (%w)", ref, rail.ErrUnavailable, err)
		}
		return d, nil
	}
}

// encodeBooking is d's document; d becomes what reading it back gives, so
// the booking answered now is the one answered later (times included).
func encodeBooking(d *bookingDoc) ([]byte, error) {
	data, err := json.Marshal(d)
	if err == nil {
		*d = bookingDoc{}
		err = json.Unmarshal(data, d)
	}
	if err != nil {
		return nil, fmt.Errorf("booking %s: %w", d.Booking.Ref, err)
	}
	return data, nil
}

// expire writes down that a pre-booking's hold ran out and frees its
// places now rather than when the seat map is next written.
func (s *Supplier) expire(ctx context.Context, ref string, now time.Time) error {
	d, err := s.changeBooking(ctx, ref, now, func(d *bookingDoc) error {
		if d.Booking.Status != rail.StatusExpired {
			return errUnchanged
		}
		return nil // loadBooking turned it expired; this writes it
	})
	if err != nil || d.Booking.Status != rail.StatusExpired {
		return err
	}
	return s.releaseSeats(ctx, ref, d.Places, now)
}
