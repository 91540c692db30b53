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

	"github.com/nyaruka/phonenumbers"

	"github.com/voyage/voyage/pkg/supplier"
)

// Book creates a hold order (Duffel's pay-later), or an instant order paid
// from the Duffel balance when the offer cannot be held. A split-ticket
// offer becomes one order per part; if a later part fails, the orders
// already made are cancelled again.
//
// Before anything is created it checks what Duffel would refuse at the
// last step: an offer priced for other ages than the travellers' (search
// again), identity documents the airline requires and a traveller lacks,
// phone numbers that are not E.164.
//
// Duffel documents no idempotency key for creating orders, so BookRequest.Key
// is stored in the order's metadata (voyage_key), with the agreed total
// (voyage_total) that Ticket checks before paying. With a Key, Book first
// looks for an order already made under it (a retry after a lost answer or
// a 202 Accepted) and returns that one instead of booking twice; see
// pending.go. The request itself is never retried once it may have reached
// Duffel (see retryable).
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
	// Offers searched with representative ages are searched again with
	// the travellers' real ones; the same flights must cost what was
	// agreed, or the caller prices them again.
	if replaced, err := c.withRealAges(ctx, parts, req.Travellers); err != nil {
		return supplier.Booking{}, err
	} else if replaced {
		again, err := mapOffer(parts)
		if err != nil {
			return supplier.Booking{}, fmt.Errorf("duffel: book %s: %w: %w", req.Offer.Ref, supplier.ErrUnavailable, err)
		}
		if again.Total() != fresh.Total() || again.Currency != fresh.Currency {
			return supplier.Booking{}, fmt.Errorf("duffel: for the travellers' real ages offer %s costs %s %d, not %s %d; search again with their ages: %w",
				req.Offer.Ref, again.Currency, again.Total(), fresh.Currency, fresh.Total(), supplier.ErrOfferGone)
		}
	}
	if err := checkDocuments(parts, req.Travellers); err != nil {
		return supplier.Booking{}, err
	}
	var orders []wireOrder
	for i, part := range parts {
		body, err := orderBody(part, req, i, len(parts))
		if err != nil {
			return supplier.Booking{}, err
		}
		o, err := c.createOrder(ctx, part, body, req.Travellers)
		if err != nil && errors.Is(err, supplier.ErrPending) && len(parts) == 1 && req.Key != "" {
			// Duffel has the order and has not finished it: booking again
			// would book twice. The caller keeps it pending and asks Finish
			// (or hears the webhook) what became of it.
			c.log.LogAttrs(ctx, slog.LevelWarn, "duffel: booking left pending at the airline",
				slog.String("offer", part.ID), slog.String("order", o.ID), slog.String("key", req.Key))
			return supplier.Booking{Supplier: "duffel", Ref: o.ID, Pending: true, Key: req.Key,
				Total: fresh.Total(), Currency: fresh.Currency}, nil
		}
		if err != nil {
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

// isHold reads an order's type under both of Duffel's spellings: "hold"
// (API guide, Python SDK) and "pay_later" (JavaScript SDK). We send "hold".
func isHold(o wireOrder) bool { return o.Type == "hold" || o.Type == "pay_later" }

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
	// The agreed price of this part, which Ticket compares with the
	// order's total before paying it.
	body.Metadata = map[string]string{metaTotal: o.TotalAmount + " " + o.TotalCurrency}
	if req.Key != "" {
		body.Metadata[metaKey] = req.Key
		if parts > 1 {
			body.Metadata[metaPart] = fmt.Sprintf("%d/%d", part+1, parts)
		}
	}
	used := make([]bool, len(o.Passengers))
	var adults, infants []int // indexes in body.Passengers
	passport := documentTypes(o.SupportedPassengerIdentityDocumentTypes)
	region := ""
	if len(req.Travellers) > 0 {
		region = req.Travellers[0].Nationality
	}
	day, _ := firstDay(o)
	for i, t := range req.Travellers {
		// The passenger priced at this traveller's age, else any of the type.
		j := -1
		age, known := ageOn(t.Birthday, day)
		for k, p := range o.Passengers {
			if !used[k] && passengerType(p) == t.Type && known && p.Age != nil && *p.Age == age {
				j = k
				break
			}
		}
		for k, p := range o.Passengers {
			if j < 0 && !used[k] && passengerType(p) == t.Type {
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
		tel, err := e164(firstOf(t.Phone, req.Contact.Phone), firstOf(t.Nationality, region))
		if err != nil {
			return wireOrderBody{}, fmt.Errorf("duffel: traveller %d: %w", i+1, err)
		}
		p := wireOrderPassenger{
			ID:          o.Passengers[j].ID,
			Title:       title(g, t.Type),
			GivenName:   t.GivenName,
			FamilyName:  t.Surname,
			Gender:      g,
			BornOn:      t.Birthday,
			Email:       firstOf(t.Email, req.Contact.Email),
			PhoneNumber: tel,
		}
		if isPassport(t.DocumentType) && (len(passport) > 0 || o.PassengerIdentityDocumentsRequired) && t.DocumentNumber != "" {
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

// e164 writes a phone number as E.164, which Duffel insists on
// (invalid_phone_number otherwise). A number without a country code is
// read as one of region (the traveller's nationality); libphonenumber
// knows each country's trunk prefixes and lengths, which a digit filter
// does not.
func e164(s, region string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if strings.HasPrefix(s, "00") {
		s = "+" + s[2:]
	}
	n, err := phonenumbers.Parse(s, strings.ToUpper(region))
	if err != nil || !phonenumbers.IsPossibleNumber(n) {
		return "", fmt.Errorf("phone number %q is not a full international number (+ country code): %w", s, supplier.ErrRejected)
	}
	return phonenumbers.Format(n, phonenumbers.E164), nil
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
			if err := agreedTotal(o); err != nil {
				return nil, err
			}
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

// agreedTotal refuses to pay a held order whose total is no longer the
// price agreed when it was booked (kept in its metadata): once the price
// guarantee lapses the airline may reprice a hold, and paying blindly
// would charge the agency more than it agreed to.
func agreedTotal(o wireOrder) error {
	agreed, ok := o.Metadata[metaTotal]
	if !ok {
		return nil // booked before the price was kept: nothing to compare
	}
	amount, cur, _ := strings.Cut(agreed, " ")
	want, err := parseAmount(amount, cur)
	if err != nil {
		return fmt.Errorf("duffel: order %s agreed total %q: %w: %w", o.ID, agreed, supplier.ErrUnavailable, err)
	}
	got, err := parseAmount(o.TotalAmount, o.TotalCurrency)
	if err != nil {
		return fmt.Errorf("duffel: order %s total: %w: %w", o.ID, supplier.ErrUnavailable, err)
	}
	if got != want || cur != o.TotalCurrency {
		return fmt.Errorf("duffel: order %s now costs %s %s, not the %s agreed; not paid: %w",
			o.ID, o.TotalAmount, o.TotalCurrency, agreed, supplier.ErrRejected)
	}
	return nil
}
