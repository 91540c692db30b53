package duffel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// Book creates a hold order (Duffel's pay-later), or an instant order paid
// from the Duffel balance when the offer cannot be held. A split-ticket
// offer becomes one order per part; if a later part fails, the orders
// already made are cancelled again.
//
// Duffel documents no idempotency key for creating orders, so BookRequest.Key
// is stored in the order's metadata (voyage_key) for tracing, and the
// request is never retried once it may have reached Duffel (see retryable).
func (c *Client) Book(ctx context.Context, req supplier.BookRequest) (supplier.Booking, error) {
	parts, err := c.getOffers(ctx, req.Offer.Ref)
	if err != nil {
		return supplier.Booking{}, err
	}
	now := c.now()
	for _, p := range parts {
		if !p.ExpiresAt.IsZero() && !p.ExpiresAt.After(now) {
			return supplier.Booking{}, fmt.Errorf("duffel: offer %s expired at %s: %w", p.ID, p.ExpiresAt.Format(time.RFC3339), supplier.ErrOfferGone)
		}
	}
	fresh, err := mapOffer(parts)
	if err != nil {
		return supplier.Booking{}, fmt.Errorf("duffel: book %s: %w: %w", req.Offer.Ref, supplier.ErrUnavailable, err)
	}
	if req.Offer.Currency != "" && req.Offer.Total() > 0 &&
		(fresh.Total() != req.Offer.Total() || fresh.Currency != req.Offer.Currency) {
		// Never book at a price the caller did not agree to: pricing again
		// shows the new one.
		return supplier.Booking{}, fmt.Errorf("duffel: offer %s now costs %s %d, not %s %d: %w",
			req.Offer.Ref, fresh.Currency, fresh.Total(), req.Offer.Currency, req.Offer.Total(), supplier.ErrOfferGone)
	}
	var orders []wireOrder
	for i, part := range parts {
		body, err := orderBody(part, req, i, len(parts))
		if err != nil {
			return supplier.Booking{}, err
		}
		var o wireOrder
		if err := c.do(ctx, call{method: http.MethodPost, path: "/air/orders", body: body, out: &o}); err != nil {
			c.release(ctx, orders)
			return supplier.Booking{}, err
		}
		orders = append(orders, o)
	}
	return bookingOf(orders)
}

// release cancels the orders of a split-ticket booking whose later part
// failed. Held orders cancel for free; it is best effort, and what it
// cannot cancel is logged for a person to follow up.
func (c *Client) release(ctx context.Context, orders []wireOrder) {
	for _, o := range orders {
		if err := c.cancelOrder(ctx, o.ID); err != nil {
			c.log.LogAttrs(ctx, slog.LevelError, "duffel: could not cancel part of a failed split-ticket booking",
				slog.String("order", o.ID), slog.String("pnr", o.BookingReference), slog.String("error", err.Error()))
		}
	}
}

func bookingOf(orders []wireOrder) (supplier.Booking, error) {
	b := supplier.Booking{Supplier: "duffel"}
	var ids, pnrs []string
	for _, o := range orders {
		ids = append(ids, o.ID)
		pnrs = append(pnrs, o.BookingReference)
		if b.Currency == "" {
			b.Currency = o.TotalCurrency
		}
		if o.TotalCurrency != b.Currency {
			return supplier.Booking{}, fmt.Errorf("duffel: orders %v are in different currencies: %w", ids, supplier.ErrUnavailable)
		}
		total, err := parseAmount(o.TotalAmount, o.TotalCurrency)
		if err != nil {
			return supplier.Booking{}, fmt.Errorf("duffel: order %s total: %w: %w", o.ID, supplier.ErrUnavailable, err)
		}
		b.Total += total
		// An instant order is paid and ticketed already and has no limit.
		if by := o.PaymentStatus.PaymentRequiredBy; o.PaymentStatus.AwaitingPayment && by != nil {
			if b.TicketBy.IsZero() || by.Before(b.TicketBy) {
				b.TicketBy = *by
			}
		}
	}
	b.Ref = strings.Join(ids, refSep)
	b.PNR = strings.Join(pnrs, "/")
	return b, nil
}

// orderBody builds the order for one offer (part) with the travellers
// matched, by type and in order, to the offer's passenger ids.
func orderBody(o wireOffer, req supplier.BookRequest, part, parts int) (wireOrderBody, error) {
	body := wireOrderBody{Type: "hold", SelectedOffers: []string{o.ID}}
	if o.PaymentRequirements.RequiresInstantPayment {
		body.Type = "instant"
		body.Payments = []wirePayment{{Type: "balance", Amount: o.TotalAmount, Currency: o.TotalCurrency}}
	}
	if req.Key != "" {
		body.Metadata = map[string]string{"voyage_key": req.Key}
		if parts > 1 {
			body.Metadata["voyage_part"] = fmt.Sprintf("%d/%d", part+1, parts)
		}
	}
	used := make([]bool, len(o.Passengers))
	var adults, infants []int // indexes in body.Passengers
	passport := documentTypes(o.SupportedPassengerIdentityDocumentTypes)
	for i, t := range req.Travellers {
		j := -1
		for k, p := range o.Passengers {
			if !used[k] && passengerType(p) == t.Type {
				j = k
				break
			}
		}
		if j < 0 {
			return wireOrderBody{}, fmt.Errorf("duffel: traveller %d (%s) has no place in offer %s: %w", i+1, t.Type, o.ID, supplier.ErrRejected)
		}
		used[j] = true
		g, ok := gender(t.Gender)
		if !ok {
			return wireOrderBody{}, fmt.Errorf("duffel: traveller %d gender %q: %w", i+1, t.Gender, supplier.ErrRejected)
		}
		p := wireOrderPassenger{
			ID:          o.Passengers[j].ID,
			Title:       title(g, t.Type),
			GivenName:   t.GivenName,
			FamilyName:  t.Surname,
			Gender:      g,
			BornOn:      t.Birthday,
			Email:       firstOf(t.Email, req.Contact.Email),
			PhoneNumber: phone(firstOf(t.Phone, req.Contact.Phone)),
		}
		if isPassport(t.DocumentType) && len(passport) > 0 && t.DocumentNumber != "" {
			p.IdentityDocuments = []wireIdentityDocument{{
				Type:               "passport",
				UniqueIdentifier:   t.DocumentNumber,
				IssuingCountryCode: t.Nationality,
				ExpiresOn:          t.DocumentExpiry,
			}}
		}
		if t.FrequentFlyer != "" && t.FFAirline != "" {
			p.LoyaltyProgrammeAccounts = []wireLoyaltyAccount{{AirlineIATACode: t.FFAirline, AccountNumber: t.FrequentFlyer}}
		}
		switch t.Type {
		case supplier.Adult:
			adults = append(adults, len(body.Passengers))
		case supplier.Infant:
			infants = append(infants, len(body.Passengers))
		}
		body.Passengers = append(body.Passengers, p)
	}
	for k := range used {
		if !used[k] {
			return wireOrderBody{}, fmt.Errorf("duffel: offer %s is for %d travellers, %d given: %w", o.ID, len(o.Passengers), len(req.Travellers), supplier.ErrRejected)
		}
	}
	// Duffel seats each infant on the lap of an adult it names.
	if len(infants) > len(adults) {
		return wireOrderBody{}, fmt.Errorf("duffel: %d infants need as many adults: %w", len(infants), supplier.ErrRejected)
	}
	for k, i := range infants {
		body.Passengers[adults[k]].InfantPassengerID = body.Passengers[i].ID
	}
	return body, nil
}

func gender(g string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(g)) {
	case "m", "male":
		return "m", true
	case "f", "female":
		return "f", true
	}
	return "", false
}

// title is derived from gender and age group; Duffel asks for one and
// Voyage does not collect it.
func title(g, typ string) string {
	switch {
	case g == "m":
		return "mr"
	case typ == supplier.Adult:
		return "ms"
	default:
		return "miss"
	}
}

func isPassport(docType string) bool {
	return docType == "passport" || docType == "chinese-passport"
}

// phone keeps the digits and the leading + of E.164, which Duffel wants.
func phone(s string) string {
	var b strings.Builder
	for i, r := range strings.TrimSpace(s) {
		if (r >= '0' && r <= '9') || (r == '+' && i == 0) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (c *Client) getOrder(ctx context.Context, id string) (wireOrder, error) {
	var o wireOrder
	if id == "" {
		return o, fmt.Errorf("duffel: empty order reference: %w", supplier.ErrNotFound)
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/air/orders/" + url.PathEscape(id), idempotent: true, out: &o})
	return o, err
}

// Ticket pays each held order from the Duffel balance and returns the
// issued e-tickets. An order that is paid already is not paid again, so
// calling Ticket again after a failure is safe.
func (c *Client) Ticket(ctx context.Context, ref string) ([]supplier.Ticket, error) {
	var out []supplier.Ticket
	for _, id := range splitRef(ref) {
		o, err := c.getOrder(ctx, id)
		if err != nil {
			return nil, err
		}
		if o.CancelledAt != nil {
			return nil, fmt.Errorf("duffel: order %s was cancelled: %w", id, supplier.ErrRejected)
		}
		if o.PaymentStatus.AwaitingPayment {
			pay := struct {
				OrderID string      `json:"order_id"`
				Payment wirePayment `json:"payment"`
			}{o.ID, wirePayment{Type: "balance", Amount: o.TotalAmount, Currency: o.TotalCurrency}}
			if err := c.do(ctx, call{method: http.MethodPost, path: "/air/payments", body: pay}); err != nil {
				return nil, err
			}
			if o, err = c.getOrder(ctx, id); err != nil {
				return nil, err
			}
		}
		tickets := ticketsOf(o)
		if len(tickets) == 0 {
			return nil, fmt.Errorf("duffel: order %s is paid but the airline has not issued tickets yet: %w", id, supplier.ErrUnavailable)
		}
		out = append(out, tickets...)
	}
	return out, nil
}

// ticketsOf reads the e-tickets of an order; a ticket's traveller is the
// index of its passenger in the order, which keeps the booking's order.
func ticketsOf(o wireOrder) []supplier.Ticket {
	index := map[string]int{}
	for i, p := range o.Passengers {
		index[p.ID] = i
	}
	var out []supplier.Ticket
	for n, d := range o.Documents {
		if d.Type != "electronic_ticket" || d.UniqueIdentifier == "" {
			continue
		}
		traveller := n
		if len(d.PassengerIDs) > 0 {
			if i, ok := index[d.PassengerIDs[0]]; ok {
				traveller = i
			}
		}
		out = append(out, supplier.Ticket{Traveller: traveller, Number: d.UniqueIdentifier})
	}
	return out
}

// Cancel releases held (unpaid) orders through an order cancellation and
// its confirmation. A ticketed order is refused: that is Void or Refund.
func (c *Client) Cancel(ctx context.Context, ref string) error {
	for _, id := range splitRef(ref) {
		o, err := c.getOrder(ctx, id)
		if err != nil {
			return err
		}
		if o.CancelledAt != nil {
			continue // already released: cancelling twice is not an error
		}
		if !o.PaymentStatus.AwaitingPayment {
			return fmt.Errorf("duffel: order %s is paid; void or refund it: %w", id, supplier.ErrRejected)
		}
		if err := c.cancelOrder(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) createCancellation(ctx context.Context, orderID string) (wireOrderCancellation, error) {
	var oc wireOrderCancellation
	// Creating a cancellation only quotes it; nothing happens until it is
	// confirmed, so repeating it is safe.
	err := c.do(ctx, call{method: http.MethodPost, path: "/air/order_cancellations",
		body: map[string]string{"order_id": orderID}, idempotent: true, out: &oc})
	return oc, err
}

func (c *Client) confirmCancellation(ctx context.Context, id string) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/air/order_cancellations/" + url.PathEscape(id) + "/actions/confirm"})
}

func (c *Client) cancelOrder(ctx context.Context, orderID string) error {
	oc, err := c.createCancellation(ctx, orderID)
	if err != nil {
		return err
	}
	return c.confirmCancellation(ctx, oc.ID)
}

// Void cancels paid orders for a full refund. Duffel has no void as such;
// what it has is an order cancellation, whose quote says what comes back.
// We treat a cancellation that refunds the whole amount paid (as airlines
// do within their void window, typically the day of issue) as the void and
// confirm it; any smaller refund means the void window has passed, and the
// quote is left unconfirmed to expire and ErrRejected is returned so that
// the caller offers a refund instead. For a split-ticket booking every
// order is quoted before any is confirmed: all are voided or none.
func (c *Client) Void(ctx context.Context, ref string) error {
	var quotes []wireOrderCancellation
	for _, id := range splitRef(ref) {
		o, err := c.getOrder(ctx, id)
		if err != nil {
			return err
		}
		if o.CancelledAt != nil {
			return fmt.Errorf("duffel: order %s is already cancelled: %w", id, supplier.ErrRejected)
		}
		if o.PaymentStatus.AwaitingPayment {
			return fmt.Errorf("duffel: order %s is not paid; cancel it instead: %w", id, supplier.ErrRejected)
		}
		oc, err := c.createCancellation(ctx, id)
		if err != nil {
			return err
		}
		paid := money.Amount{Currency: o.TotalCurrency}
		if paid.Minor, err = parseAmount(o.TotalAmount, o.TotalCurrency); err != nil {
			return fmt.Errorf("duffel: order %s total: %w: %w", id, supplier.ErrUnavailable, err)
		}
		refund, err := parseAmount(oc.RefundAmount, oc.RefundCurrency)
		if err != nil {
			return fmt.Errorf("duffel: cancellation %s refund: %w: %w", oc.ID, supplier.ErrUnavailable, err)
		}
		if oc.RefundCurrency != paid.Currency || refund < paid.Minor {
			return fmt.Errorf("duffel: order %s cannot be voided: cancelling refunds %s %s of %s %s: %w",
				id, oc.RefundAmount, oc.RefundCurrency, paid.String(), paid.Currency, supplier.ErrRejected)
		}
		quotes = append(quotes, oc)
	}
	for _, oc := range quotes {
		if err := c.confirmCancellation(ctx, oc.ID); err != nil {
			return err
		}
	}
	return nil
}

// RefundQuote asks Duffel what cancelling each paid order refunds. The
// quote's Fee is what is paid and not refunded.
func (c *Client) RefundQuote(ctx context.Context, ref string) (supplier.Quote, error) {
	var q supplier.Quote
	var ids []string
	for _, id := range splitRef(ref) {
		o, err := c.getOrder(ctx, id)
		if err != nil {
			return supplier.Quote{}, err
		}
		if o.CancelledAt != nil {
			return supplier.Quote{}, fmt.Errorf("duffel: order %s is already cancelled: %w", id, supplier.ErrRejected)
		}
		oc, err := c.createCancellation(ctx, id)
		if err != nil {
			return supplier.Quote{}, err
		}
		if q.Currency == "" {
			q.Currency = oc.RefundCurrency
		}
		if oc.RefundCurrency != q.Currency {
			return supplier.Quote{}, fmt.Errorf("duffel: refunds of %s are in different currencies: %w", ref, supplier.ErrUnavailable)
		}
		refund, err := parseAmount(oc.RefundAmount, oc.RefundCurrency)
		if err != nil {
			return supplier.Quote{}, fmt.Errorf("duffel: cancellation %s refund: %w: %w", oc.ID, supplier.ErrUnavailable, err)
		}
		q.Refund += refund
		if o.TotalCurrency == oc.RefundCurrency && !o.PaymentStatus.AwaitingPayment {
			if paid, err := parseAmount(o.TotalAmount, o.TotalCurrency); err == nil && paid > refund {
				q.Fee += paid - refund
			}
		}
		if oc.ExpiresAt != nil && (q.ExpiresAt.IsZero() || oc.ExpiresAt.Before(q.ExpiresAt)) {
			q.ExpiresAt = *oc.ExpiresAt
		}
		ids = append(ids, oc.ID)
	}
	q.Ref = strings.Join(ids, refSep)
	return q, nil
}

// Refund confirms a refund quote. Each cancellation is checked to belong to
// the booking and to be still valid; one confirmed already is skipped, so
// a retried Refund does not fail on the parts that went through.
func (c *Client) Refund(ctx context.Context, ref, quoteRef string) error {
	orders, quotes := splitRef(ref), splitRef(quoteRef)
	if len(orders) != len(quotes) {
		return fmt.Errorf("duffel: quote %s is not for booking %s: %w", quoteRef, ref, supplier.ErrRejected)
	}
	now := c.now()
	var todo []string
	for i, id := range quotes {
		var oc wireOrderCancellation
		err := c.do(ctx, call{method: http.MethodGet, path: "/air/order_cancellations/" + url.PathEscape(id), idempotent: true, out: &oc})
		if err != nil {
			var de *Error
			if errors.As(err, &de) && de.Status == http.StatusNotFound {
				return fmt.Errorf("duffel: no refund quote %s: %w", id, supplier.ErrRejected)
			}
			return err
		}
		switch {
		case oc.OrderID != orders[i]:
			return fmt.Errorf("duffel: quote %s is for order %s, not %s: %w", id, oc.OrderID, orders[i], supplier.ErrRejected)
		case oc.ConfirmedAt != nil:
			continue
		case oc.ExpiresAt != nil && !oc.ExpiresAt.After(now):
			return fmt.Errorf("duffel: quote %s expired at %s: %w", id, oc.ExpiresAt.Format(time.RFC3339), supplier.ErrRejected)
		}
		todo = append(todo, id)
	}
	for _, id := range todo {
		if err := c.confirmCancellation(ctx, id); err != nil {
			return err
		}
	}
	return nil
}
