package railsim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

// After sales: refunds and exchanges of ticketed bookings, their offers
// kept in the booking's document until confirmed.

// issued returns the indexes of the passengers asked for (all with an
// issued ticket when none), each of which must hold an issued ticket.
func issued(b rail.Booking, pax []int) ([]int, error) {
	if b.Status != rail.StatusTicketed {
		return nil, fmt.Errorf("booking %s is %s: %w", b.Ref, b.Status, rail.ErrRejected)
	}
	if len(pax) == 0 {
		for i, t := range b.Tickets {
			if t.Status == rail.TicketIssued {
				pax = append(pax, i)
			}
		}
	}
	seen := map[int]bool{}
	for _, i := range pax {
		if i < 0 || i >= len(b.Tickets) || seen[i] {
			return nil, fmt.Errorf("passenger index %d: %w", i, rail.ErrRejected)
		}
		seen[i] = true
		if b.Tickets[i].Status != rail.TicketIssued {
			return nil, fmt.Errorf("passenger %d's ticket is %s: %w", i, b.Tickets[i].Status, rail.ErrRejected)
		}
	}
	slices.Sort(pax)
	return pax, nil
}

// RefundOffer prices refunding some passengers' tickets now, by the
// policy's time bands.
func (s *Supplier) RefundOffer(ctx context.Context, ref string, passengers []int) (rail.RefundOffer, error) {
	const op = "refund offer"
	if _, err := s.call(ctx, op, ref); err != nil {
		return rail.RefundOffer{}, err
	}
	now := s.now()
	var ro rail.RefundOffer
	_, err := s.changeBooking(ctx, ref, now, func(d *bookingDoc) error {
		b := d.Booking
		pax, err := issued(b, slices.Clone(passengers))
		if err != nil {
			return err
		}
		ro = rail.RefundOffer{Ref: s.newRef("R"), BookingRef: ref, Passengers: pax, ValidUntil: now.Add(afterSalesTTL)}
		var fare, fee int64
		for _, i := range pax {
			t := b.Tickets[i]
			f, err := s.policy.RefundFee(t.Fare.Minor, t.DepartAt, now)
			if err != nil {
				return fmt.Errorf("%s: %w", t.TrainNumber, err)
			}
			fare += t.Fare.Minor
			fee += f
			if close := t.DepartAt.Add(-s.policy.CloseBefore); close.Before(ro.ValidUntil) {
				ro.ValidUntil = close
			}
		}
		ro.Fare, ro.Fee, ro.Refund = cny(fare), cny(fee), cny(fare-fee)
		d.Refunds[ro.Ref] = &refundDoc{Offer: ro}
		return nil
	})
	if err != nil {
		return rail.RefundOffer{}, errorf(op, err)
	}
	return ro, nil
}

// ConfirmRefund refunds the tickets of a refund offer and frees their
// places.
func (s *Supplier) ConfirmRefund(ctx context.Context, ref, offerRef string) (rail.Booking, error) {
	const op = "confirm refund"
	if _, err := s.call(ctx, op, ref+offerRef); err != nil {
		return rail.Booking{}, err
	}
	now := s.now()
	var freed []placeDoc
	d, err := s.changeBooking(ctx, ref, now, func(d *bookingDoc) error {
		freed = nil
		ro, ok := d.Refunds[offerRef]
		if !ok {
			return fmt.Errorf("refund offer %s of %s: %w", offerRef, ref, rail.ErrNotFound)
		}
		if ro.Confirmed {
			return errUnchanged
		}
		if now.After(ro.Offer.ValidUntil) {
			return fmt.Errorf("refund offer %s: %w", offerRef, rail.ErrOfferExpired)
		}
		if _, err := issued(d.Booking, slices.Clone(ro.Offer.Passengers)); err != nil {
			return err
		}
		for _, i := range ro.Offer.Passengers {
			d.Booking.Tickets[i].Status = rail.TicketRefunded
			freed = append(freed, d.Places[i])
		}
		ro.Confirmed = true
		all := true
		for _, t := range d.Booking.Tickets {
			if t.Status != rail.TicketRefunded {
				all = false
			}
		}
		if all {
			d.Booking.Status = rail.StatusRefunded
		}
		return nil
	})
	if errors.Is(err, rail.ErrNotFound) {
		return rail.Booking{}, errorf(op, fmt.Errorf("refund offer %s of %s: %w", offerRef, ref, rail.ErrNotFound))
	}
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	if err := s.releaseSeats(ctx, ref, freed, now); err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	return view(d), nil
}

// ExchangeOffer prices moving passengers to another train between the same
// cities, once per ticket (RAIL.md): more than 48 h before departure any
// train in the sales window, within 48 h an earlier train or a later one
// the same day.
func (s *Supplier) ExchangeOffer(ctx context.Context, req rail.ExchangeRequest) (rail.ExchangeOffer, error) {
	const op = "exchange offer"
	if _, err := s.call(ctx, op, req.BookingRef+req.OfferRef); err != nil {
		return rail.ExchangeOffer{}, err
	}
	now := s.now()
	l, lay, err := s.offerClass(req.OfferRef, req.Class, now)
	if err != nil {
		return rail.ExchangeOffer{}, errorf(op, err)
	}
	inv, err := s.seats(ctx, keyOf(l, lay), lay, now)
	if err != nil {
		return rail.ExchangeOffer{}, errorf(op, err)
	}
	offer, err := s.offer(ctx, l, nil, now)
	if err != nil {
		return rail.ExchangeOffer{}, errorf(op, err)
	}
	var eo rail.ExchangeOffer
	_, err = s.changeBooking(ctx, req.BookingRef, now, func(d *bookingDoc) error {
		b := d.Booking
		pax, err := issued(b, slices.Clone(req.Passengers))
		if err != nil {
			return err
		}
		eo = rail.ExchangeOffer{Ref: s.newRef("X"), BookingRef: b.Ref, Passengers: pax, Class: req.Class,
			ValidUntil: now.Add(afterSalesTTL)}
		var oldFare, newFare int64
		var firstDepart time.Time
		for _, i := range pax {
			t := b.Tickets[i]
			if err := s.exchangeable(t, l, now); err != nil {
				return err
			}
			oldFare += t.Fare.Minor
			newFare += typeFare(adultFare(l, lay.class), b.Passengers[i].Type, lay.class)
			if firstDepart.IsZero() || t.DepartAt.Before(firstDepart) {
				firstDepart = t.DepartAt
			}
		}
		if inv.free < len(pax) {
			return fmt.Errorf("%s %s: %w", l.t.number, req.Class, rail.ErrSoldOut)
		}
		if close := firstDepart.Add(-s.policy.CloseBefore); close.Before(eo.ValidUntil) {
			eo.ValidUntil = close
		}
		if close := l.departAt.Add(-s.policy.CloseBefore); close.Before(eo.ValidUntil) {
			eo.ValidUntil = close
		}
		diff := newFare - oldFare
		switch {
		case diff > 0:
			eo.Due = cny(diff)
			eo.Refund, eo.Fee = cny(0), cny(0)
		default:
			fee, err := s.policy.RefundFee(-diff, firstDepart, now)
			if err != nil {
				return err
			}
			eo.Due, eo.Fee, eo.Refund = cny(0), cny(fee), cny(-diff-fee)
		}
		eo.Offer = offer
		d.Exchanges[eo.Ref] = &exchangeDoc{Offer: eo, Leg: docOfLeg(l)}
		return nil
	})
	if err != nil {
		return rail.ExchangeOffer{}, errorf(op, err)
	}
	return eo, nil
}

// exchangeable checks one ticket may move to the leg now.
func (s *Supplier) exchangeable(t rail.Ticket, l leg, now time.Time) error {
	if t.Exchanges >= s.policy.Exchanges {
		return fmt.Errorf("ticket %s: %w", t.Number, rail.ErrAlreadyExchanged)
	}
	if t.DepartAt.Sub(now) < s.policy.CloseBefore {
		return fmt.Errorf("ticket %s: %w", t.Number, rail.ErrRefundClosed)
	}
	from, to := l.t.calls[l.from].code, l.t.calls[l.to].code
	fo, _ := s.net.find(from)
	to0, _ := s.net.find(t.Origin)
	fd, _ := s.net.find(to)
	td0, _ := s.net.find(t.Destination)
	if fo.City != to0.City || fd.City != td0.City {
		return fmt.Errorf("ticket %s: %s–%s is another trip: %w", t.Number, from, to, rail.ErrRejected)
	}
	if l.t.number == t.TrainNumber && l.departAt.Equal(t.DepartAt) {
		return fmt.Errorf("ticket %s: already on %s: %w", t.Number, t.TrainNumber, rail.ErrRejected)
	}
	if t.DepartAt.Sub(now) <= s.policy.ExchangeAnyTrainBefore &&
		l.departAt.After(t.DepartAt) && !sameDay(l.departAt.In(china), t.DepartAt.In(china)) {
		return fmt.Errorf("ticket %s: within %s of departure only an earlier train or one the same day: %w",
			t.Number, s.policy.ExchangeAnyTrainBefore, rail.ErrRejected)
	}
	return nil
}

// ConfirmExchange issues new tickets on the exchange offer's train and
// frees the old places.
func (s *Supplier) ConfirmExchange(ctx context.Context, ref, offerRef string) (rail.Booking, error) {
	const op = "confirm exchange"
	if _, err := s.call(ctx, op, ref+offerRef); err != nil {
		return rail.Booking{}, err
	}
	now := s.now()
	d, _, err := s.loadBooking(ctx, ref, now)
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	// check is what the offer needs of the booking as it is now.
	check := func(d *bookingDoc) (*exchangeDoc, leg, error) {
		eo, ok := d.Exchanges[offerRef]
		if !ok {
			return nil, leg{}, fmt.Errorf("exchange offer %s of %s: %w", offerRef, ref, rail.ErrNotFound)
		}
		if eo.Confirmed {
			return eo, leg{}, errUnchanged
		}
		if now.After(eo.Offer.ValidUntil) {
			return nil, leg{}, fmt.Errorf("exchange offer %s: %w", offerRef, rail.ErrOfferExpired)
		}
		l, err := s.legOf(eo.Leg)
		if err != nil {
			return nil, leg{}, err
		}
		if _, err := issued(d.Booking, slices.Clone(eo.Offer.Passengers)); err != nil {
			return nil, leg{}, err
		}
		for _, i := range eo.Offer.Passengers {
			if err := s.exchangeable(d.Booking.Tickets[i], l, now); err != nil {
				return nil, leg{}, err
			}
		}
		return eo, l, nil
	}
	eo, l, err := check(&d)
	if err != nil {
		return answered(d, op, err)
	}
	lay, err := layoutOf(l.t, eo.Offer.Class)
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	k := keyOf(l, lay)
	letters := make([]string, len(eo.Offer.Passengers))
	for j, i := range eo.Offer.Passengers {
		letters[j] = strings.ToUpper(d.Booking.Passengers[i].SeatLetter)
	}
	idx, err := s.takeSeats(ctx, k, now, letters, func(n int) int {
		return int(seeded(s.seed).Str(offerRef).Draw(4) % uint64(n))
	}, ref, time.Time{})
	if err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	taken := make([]placeDoc, len(idx))
	for j := range idx {
		taken[j] = placeDoc{Day: k.day, Train: k.train, Class: k.class, Idx: idx[j]}
	}
	var old []placeDoc
	d, err = s.changeBooking(ctx, ref, now, func(d *bookingDoc) error {
		old = nil
		eo, _, err := check(d)
		if err != nil {
			return err
		}
		adult := adultFare(l, lay.class)
		for j, i := range eo.Offer.Passengers {
			old = append(old, d.Places[i])
			d.Places[i] = taken[j]
			coach, seat := lay.label(idx[j])
			prev := d.Booking.Tickets[i]
			d.Booking.Tickets[i] = rail.Ticket{Passenger: i, Number: s.newRef("E"), TrainNumber: l.t.number,
				Origin: l.t.calls[l.from].code, Destination: l.t.calls[l.to].code, DepartAt: l.departAt, ArriveAt: l.arriveAt,
				Class: lay.class, Coach: coach, Seat: seat, Fare: cny(typeFare(adult, d.Booking.Passengers[i].Type, lay.class)),
				Status: rail.TicketIssued, Exchanges: prev.Exchanges + 1}
		}
		var total int64
		for _, t := range d.Booking.Tickets {
			total += t.Fare.Minor
		}
		d.Booking.Total = cny(total)
		eo.Confirmed = true
		return nil
	})
	if err != nil || old == nil {
		// Not exchanged here (a fault, or confirmed meanwhile): the new
		// places go back.
		if rerr := s.releaseSeats(ctx, ref, taken, now); rerr != nil && err == nil {
			err = rerr
		}
		if err != nil {
			return rail.Booking{}, errorf(op, err)
		}
		return view(d), nil
	}
	if err := s.releaseSeats(ctx, ref, old, now); err != nil {
		return rail.Booking{}, errorf(op, err)
	}
	return view(d), nil
}
