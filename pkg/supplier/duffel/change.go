package duffel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/voyage/voyage/pkg/supplier"
)

// ChangeQuotes creates an order change request: the booking's slices whose
// journey differs from the one asked for are removed and searched anew
// (same cabin), the others kept. Each order change offer becomes a quote.
//
// Duffel's change_total_amount is what the change costs in all (refunded
// when negative) and penalty_total_amount the airline's penalty within it;
// a quote's Fee is that penalty, Due the rest, and Due + Fee is what
// Duffel charges when it is confirmed.
func (c *Client) ChangeQuotes(ctx context.Context, ref string, journeys []supplier.JourneyQuery) ([]supplier.Quote, error) {
	if strings.Contains(ref, refSep) {
		return nil, fmt.Errorf("duffel: changing a split-ticket booking: %w", supplier.ErrNotSupported)
	}
	o, err := c.getOrder(ctx, ref)
	if err != nil {
		return nil, err
	}
	// Duffel changes only paid orders: a held one is cancelled and booked
	// again instead.
	if o.PaymentStatus.AwaitingPayment {
		return nil, fmt.Errorf("duffel: order %s is not paid yet; only a paid order can be changed: %w", ref, supplier.ErrRejected)
	}
	if !allows(o, "change") {
		return nil, fmt.Errorf("duffel: the airline does not allow changing order %s now (available actions %v): %w", ref, o.AvailableActions, supplier.ErrRejected)
	}
	if len(journeys) != len(o.Slices) {
		return nil, fmt.Errorf("duffel: order %s has %d journeys, %d asked for: %w", ref, len(o.Slices), len(journeys), supplier.ErrRejected)
	}
	body := wireOrderChangeRequestBody{OrderID: o.ID}
	body.Slices.Add = []wireChangeSliceAdd{}
	body.Slices.Remove = []wireChangeSliceRemove{}
	for i, j := range journeys {
		sl := o.Slices[i]
		if sameJourney(sl, j) {
			continue
		}
		body.Slices.Remove = append(body.Slices.Remove, wireChangeSliceRemove{SliceID: sl.ID})
		body.Slices.Add = append(body.Slices.Add, wireChangeSliceAdd{
			Origin: j.Origin, Destination: j.Destination, DepartureDate: j.Date, CabinClass: sliceCabin(sl),
		})
	}
	if len(body.Slices.Remove) == 0 {
		return nil, fmt.Errorf("duffel: order %s already flies these journeys: %w", ref, supplier.ErrRejected)
	}
	var ocr wireOrderChangeRequest
	// A change request only searches; nothing changes until a change is
	// confirmed, so it may be repeated.
	if err := c.do(ctx, call{method: http.MethodPost, path: "/air/order_change_requests", body: body, idempotent: true, out: &ocr}); err != nil {
		return nil, err
	}
	quotes := make([]supplier.Quote, 0, len(ocr.OrderChangeOffers))
	var firstErr error
	for _, co := range ocr.OrderChangeOffers {
		q, err := changeQuote(o, co)
		if err != nil {
			// One offer the airline did not price (or that we cannot
			// read) should not hide the others.
			c.log.LogAttrs(ctx, slog.LevelWarn, "duffel: change offer skipped", slog.String("offer", co.ID), slog.String("error", err.Error()))
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		quotes = append(quotes, q)
	}
	if len(quotes) == 0 && firstErr != nil && !errors.Is(firstErr, errUnknownAmount) {
		return nil, fmt.Errorf("duffel: no change offer of %s could be read: %w: %w", ocr.ID, supplier.ErrUnavailable, firstErr)
	}
	return quotes, nil
}

// errUnknownAmount marks an amount Duffel gives as null: the airline did
// not say, so it is "unknown", never zero.
var errUnknownAmount = errors.New("amount unknown")

// penaltyOf reads a change offer's penalty under either spelling.
func penaltyOf(co wireOrderChangeOffer) (amount, currency *string) {
	if co.PenaltyTotalAmount != nil {
		return co.PenaltyTotalAmount, co.PenaltyTotalCurrency
	}
	return co.PenaltyAmount, co.PenaltyCurrency
}

// sameJourney says whether a booked slice already is the journey asked for
// (an airport or its city code, and the local departure date).
func sameJourney(sl wireSlice, j supplier.JourneyQuery) bool {
	if len(sl.Segments) == 0 {
		return false
	}
	date, _, _ := strings.Cut(sl.Segments[0].DepartingAt, "T")
	return date == j.Date &&
		(j.Origin == sl.Origin.IATACode || j.Origin == sl.Origin.IATACityCode) &&
		(j.Destination == sl.Destination.IATACode || j.Destination == sl.Destination.IATACityCode)
}

func sliceCabin(sl wireSlice) string {
	for _, s := range sl.Segments {
		for _, p := range s.Passengers {
			if p.CabinClass != "" {
				return p.CabinClass
			}
		}
	}
	return "economy"
}

func changeQuote(o wireOrder, co wireOrderChangeOffer) (supplier.Quote, error) {
	cur := co.ChangeTotalCurrency
	if co.ChangeTotalAmount == nil || co.NewTotalAmount == nil {
		return supplier.Quote{}, fmt.Errorf("change total: %w", errUnknownAmount)
	}
	change, err := parseAmount(*co.ChangeTotalAmount, cur)
	if err != nil {
		return supplier.Quote{}, fmt.Errorf("change total: %w", err)
	}
	var penalty int64
	if pa, pc := penaltyOf(co); pa != nil && (pc == nil || *pc == cur) {
		if penalty, err = parseAmount(*pa, cur); err != nil {
			return supplier.Quote{}, fmt.Errorf("penalty: %w", err)
		}
	}
	q := supplier.Quote{Ref: co.ID, Currency: cur, ExpiresAt: co.ExpiresAt, Fee: penalty}
	switch {
	case change < 0:
		q.Refund = -change
	case change >= penalty:
		q.Due = change - penalty
	default:
		// A cheaper new fare absorbed part of the penalty.
		q.Fee = change
	}
	offer, err := changedOffer(o, co)
	if err != nil {
		return supplier.Quote{}, err
	}
	q.Offer = &offer
	return q, nil
}

// changedOffer is the itinerary the booking flies after a change: its
// kept slices and the added ones, in time order, priced at the change
// offer's new total (Duffel gives no base/tax split for it, so it is
// carried as base).
func changedOffer(o wireOrder, co wireOrderChangeOffer) (supplier.Offer, error) {
	removed := map[string]bool{}
	for _, s := range co.Slices.Remove {
		removed[s.ID] = true
	}
	var sl []wireSlice
	for _, s := range o.Slices {
		if !removed[s.ID] {
			sl = append(sl, s)
		}
	}
	sl = append(sl, co.Slices.Add...)
	slices.SortStableFunc(sl, func(a, b wireSlice) int {
		return strings.Compare(firstDeparture(a), firstDeparture(b))
	})
	w := wireOffer{
		ID:            co.ID,
		ExpiresAt:     co.ExpiresAt,
		TotalAmount:   *co.NewTotalAmount,
		TotalCurrency: co.NewTotalCurrency,
		BaseAmount:    *co.NewTotalAmount,
		BaseCurrency:  co.NewTotalCurrency,
		Owner:         o.Owner,
		Slices:        sl,
		Conditions:    co.Conditions,
	}
	for _, p := range o.Passengers {
		w.Passengers = append(w.Passengers, wireOfferPassenger{ID: p.ID, Type: p.Type})
	}
	return mapOffer([]wireOffer{w})
}

// firstDeparture orders slices; local times compare well enough for the
// days apart that journeys of one booking are.
func firstDeparture(s wireSlice) string {
	if len(s.Segments) == 0 {
		return ""
	}
	return s.Segments[0].DepartingAt
}

// Change confirms a change quote: it creates the order change from the
// chosen offer, confirms it (paying from the Duffel balance when it costs
// something) and returns the booking as it now stands.
func (c *Client) Change(ctx context.Context, ref, quoteRef string) (supplier.Booking, error) {
	if strings.Contains(ref, refSep) {
		return supplier.Booking{}, fmt.Errorf("duffel: changing a split-ticket booking: %w", supplier.ErrNotSupported)
	}
	var ch wireOrderChange
	err := c.do(ctx, call{method: http.MethodPost, path: "/air/order_changes",
		body: map[string]string{"selected_order_change_offer": quoteRef}, out: &ch})
	if err != nil {
		return supplier.Booking{}, err
	}
	if ch.OrderID != ref {
		return supplier.Booking{}, fmt.Errorf("duffel: change offer %s is for order %s, not %s: %w", quoteRef, ch.OrderID, ref, supplier.ErrRejected)
	}
	due, err := parseAmount(ch.ChangeTotalAmount, ch.ChangeTotalCurrency)
	if err != nil {
		return supplier.Booking{}, fmt.Errorf("duffel: order change %s total: %w: %w", ch.ID, supplier.ErrUnavailable, err)
	}
	confirm := struct {
		Payment *wirePayment `json:"payment,omitempty"`
	}{}
	if due > 0 {
		confirm.Payment = &wirePayment{Type: "balance", Amount: ch.ChangeTotalAmount, Currency: ch.ChangeTotalCurrency}
	}
	if err := c.do(ctx, call{method: http.MethodPost, path: "/air/order_changes/" + url.PathEscape(ch.ID) + "/actions/confirm", body: confirm}); err != nil {
		return supplier.Booking{}, err
	}
	o, err := c.getOrder(ctx, ref)
	if err != nil {
		return supplier.Booking{}, err
	}
	return bookingOf([]wireOrder{o})
}
