package duffel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// Duffel's supplier_timeout bounds how long it waits for the airlines.
const (
	minSupplierTimeout = 2 * time.Second
	maxSupplierTimeout = 60 * time.Second
	// supplierMargin leaves time to carry a large answer back to us.
	supplierMargin = 2 * time.Second
)

// Search creates an offer request with return_offers=true and maps its
// offers. With Config.SplitTickets on, a multi-journey search also asks
// for Duffel's split-ticket itineraries and adds the cheapest combination.
//
// Duffel prices in the organisation's billing currency, so req.Currency is
// not sent; it has no marketing-carrier filter either, so req.Carriers is
// applied to the answer. Duffel's default of at most one connection per
// slice applies, or none for a Direct request.
func (c *Client) Search(ctx context.Context, req supplier.SearchRequest) ([]supplier.Offer, error) {
	if len(req.Journeys) == 0 {
		return nil, fmt.Errorf("duffel: search without journeys: %w", supplier.ErrRejected)
	}
	if req.Passengers.Total() == 0 {
		return nil, fmt.Errorf("duffel: search without travellers: %w", supplier.ErrRejected)
	}
	body := wireOfferRequestBody{
		Passengers: passengerQueries(req.Passengers, req.Ages),
		CabinClass: cabinClass(req.Cabin),
	}
	if req.Direct {
		none := 0
		body.MaxConnections = &none
	}
	for _, j := range req.Journeys {
		body.Slices = append(body.Slices, wireSliceQuery{Origin: j.Origin, Destination: j.Destination, DepartureDate: j.Date})
	}

	type splitResult struct {
		offer *supplier.Offer
		err   error
	}
	var splitCh chan splitResult
	if c.cfg.SplitTickets && len(req.Journeys) > 1 {
		splitCh = make(chan splitResult, 1)
		go func() {
			o, err := c.searchSplit(ctx, body, req)
			splitCh <- splitResult{o, err}
		}()
	}

	var orq wireOfferRequest
	q := url.Values{"return_offers": {"true"}}
	q.Set("supplier_timeout", strconv.FormatInt(c.supplierTimeout(ctx), 10))
	err := c.do(ctx, call{method: http.MethodPost, path: "/air/offer_requests", query: q, body: body, idempotent: true, out: &orq})
	var offers []supplier.Offer
	if err == nil {
		offers, err = c.mapOffers(ctx, orq.Offers, req.Carriers)
	}
	if splitCh != nil {
		r := <-splitCh
		if r.offer != nil && carriersOK(*r.offer, req.Carriers) {
			offers = append(offers, *r.offer)
		}
		err = errors.Join(err, r.err)
	}
	return offers, err
}

// supplierTimeout is Duffel's supplier_timeout in milliseconds: the time
// the caller (and our own per-attempt timeout) leaves us, less a margin to
// carry the answer back, so that Duffel answers with the airlines that were
// quick enough rather than us timing out with nothing.
func (c *Client) supplierTimeout(ctx context.Context) int64 {
	d := c.cfg.Timeout
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl))
	}
	d = min(max(d-supplierMargin, minSupplierTimeout), maxSupplierTimeout)
	return d.Milliseconds()
}

// mapOffers maps what an offer request returned. An offer that cannot be
// mapped is skipped and logged: one odd offer should not hide the others.
func (c *Client) mapOffers(ctx context.Context, raw []wireOffer, carriers []string) ([]supplier.Offer, error) {
	out := make([]supplier.Offer, 0, len(raw))
	var firstErr error
	for _, o := range raw {
		off, err := mapOffer([]wireOffer{o})
		if err != nil {
			c.log.LogAttrs(ctx, slog.LevelWarn, "duffel: offer skipped", slog.String("offer", o.ID), slog.String("error", err.Error()))
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if carriersOK(off, carriers) {
			out = append(out, off)
		}
	}
	if len(out) == 0 && firstErr != nil {
		return nil, fmt.Errorf("duffel: no offer could be read: %w: %w", supplier.ErrUnavailable, firstErr)
	}
	return out, nil
}

// carriersOK filters by marketing carrier; Duffel's offer request has no
// such filter.
func carriersOK(o supplier.Offer, carriers []string) bool {
	if len(carriers) == 0 {
		return true
	}
	for _, s := range o.Segments {
		if !slices.Contains(carriers, s.Carrier) {
			return false
		}
	}
	return true
}

// getOffers fetches every part of an offer reference again.
func (c *Client) getOffers(ctx context.Context, ref string) ([]wireOffer, error) {
	var parts []wireOffer
	for _, id := range splitRef(ref) {
		if id == "" {
			return nil, fmt.Errorf("duffel: empty offer reference %q: %w", ref, supplier.ErrOfferGone)
		}
		var o wireOffer
		err := c.do(ctx, call{method: http.MethodGet, path: "/air/offers/" + url.PathEscape(id), idempotent: true, out: &o})
		if err != nil {
			return nil, offerGone(err)
		}
		parts = append(parts, o)
	}
	return parts, nil
}

// Price fetches the offer again and compares it with what the caller holds.
func (c *Client) Price(ctx context.Context, offer supplier.Offer, pax supplier.Passengers) (supplier.PriceResult, error) {
	parts, err := c.getOffers(ctx, offer.Ref)
	if errors.Is(err, supplier.ErrOfferGone) {
		return supplier.PriceResult{Status: supplier.PriceInvalid}, nil
	}
	if err != nil {
		return supplier.PriceResult{}, err
	}
	now := c.now()
	for _, p := range parts {
		if !p.ExpiresAt.IsZero() && !p.ExpiresAt.After(now) {
			return supplier.PriceResult{Status: supplier.PriceInvalid}, nil
		}
	}
	fresh, err := mapOffer(parts)
	if err != nil {
		return supplier.PriceResult{}, fmt.Errorf("duffel: price %s: %w: %w", offer.Ref, supplier.ErrUnavailable, err)
	}
	if pax.Total() > 0 && countTravellers(fresh) != pax {
		// An offer is priced for the travellers searched; other ones need
		// a new search.
		return supplier.PriceResult{}, fmt.Errorf("duffel: offer %s is for %+v, not %+v: %w", offer.Ref, countTravellers(fresh), pax, supplier.ErrRejected)
	}
	return supplier.PriceResult{Status: compare(offer, fresh), Offer: fresh}, nil
}

func countTravellers(o supplier.Offer) supplier.Passengers {
	var p supplier.Passengers
	for _, f := range o.Fares {
		switch f.Type {
		case supplier.Adult:
			p.Adult += f.Count
		case supplier.Child:
			p.Child += f.Count
		case supplier.Infant:
			p.Infant += f.Count
		}
	}
	return p
}

// compare says how an offer changed, the most consequential change first.
func compare(was, now supplier.Offer) supplier.PriceStatus {
	switch {
	case was.Total() != now.Total() || was.Currency != now.Currency:
		return supplier.PriceChanged
	case was.Baggage != now.Baggage || was.Conditions != now.Conditions:
		return supplier.PackageChanged
	case !sameSet(was.Restrictions.Documents, now.Restrictions.Documents),
		was.Restrictions.IdentityDocumentsRequired != now.Restrictions.IdentityDocumentsRequired:
		return supplier.DocumentRestrictionChanged
	}
	return supplier.PriceOK
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
