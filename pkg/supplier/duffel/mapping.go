package duffel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	// Duffel gives each airport's IANA zone; embedding the zone database
	// makes those resolvable on hosts without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// refSep joins the Duffel ids of a split-ticket offer, booking or quote
// into one Voyage reference ("off_A+off_B"). Duffel ids never contain it.
const refSep = "+"

func splitRef(ref string) []string { return strings.Split(ref, refSep) }

// ticketingMinutes: Duffel issues tickets as part of paying (an instant
// order, or paying a held one), so issuing takes minutes, not hours.
const ticketingMinutes = 30

// paxAmount is one traveller's share of an offer.
type paxAmount struct {
	typ       string
	base, tax int64
}

// passengerType maps a Duffel passenger to a Voyage type: its type when
// Duffel gives one, else its age.
func passengerType(p wireOfferPassenger) string {
	switch p.Type {
	case "adult":
		return supplier.Adult
	case "child":
		return supplier.Child
	case "infant_without_seat":
		return supplier.Infant
	}
	if p.Age != nil {
		switch {
		case *p.Age < 2:
			return supplier.Infant
		case *p.Age < 12:
			return supplier.Child
		}
	}
	return supplier.Adult
}

// cabinClass maps a Voyage cabin to Duffel's four.
func cabinClass(c string) string {
	switch c {
	case supplier.CabinFirst, supplier.CabinPremiumFirst:
		return "first"
	case supplier.CabinBusiness, supplier.CabinPremiumBusiness:
		return "business"
	case supplier.CabinPremiumEconomy:
		return "premium_economy"
	case supplier.CabinEconomy:
		return "economy"
	}
	return ""
}

// splitEven divides total minor units among n travellers so that the
// shares add up exactly: the first total%n travellers carry one unit more.
func splitEven(total int64, n int) []int64 {
	out := make([]int64, n)
	if n == 0 {
		return out
	}
	q, r := total/int64(n), total%int64(n)
	for i := range out {
		out[i] = q
		if int64(i) < r {
			out[i]++
		} else if r < 0 && int64(i) < -r {
			out[i]--
		}
	}
	return out
}

// ceilDiv is a per-traveller fee from a total one, rounded up so that a
// fee is never understated.
func ceilDiv(total int64, n int) int64 {
	if n <= 0 {
		return total
	}
	d := int64(n)
	q := total / d
	if total%d > 0 {
		q++
	}
	return q
}

func parseAmount(s, currency string) (int64, error) {
	a, err := money.Parse(s, currency)
	if err != nil {
		return 0, err
	}
	return a.Minor, nil
}

// shares splits an offer's totals over its travellers. Duffel prices the
// offer as a whole (total, base and tax for all passengers), so each
// traveller gets an even share of base and of tax, to the cent.
func shares(o wireOffer) ([]paxAmount, int64, error) {
	cur := o.TotalCurrency
	total, err := parseAmount(o.TotalAmount, cur)
	if err != nil {
		return nil, 0, fmt.Errorf("offer %s total: %w", o.ID, err)
	}
	base := total
	if o.BaseAmount != "" && (o.BaseCurrency == "" || o.BaseCurrency == cur) {
		if base, err = parseAmount(o.BaseAmount, cur); err != nil {
			return nil, 0, fmt.Errorf("offer %s base: %w", o.ID, err)
		}
	}
	// Taxes are what the total adds to the base: that keeps the
	// travellers' shares adding up to what Duffel charges even when
	// tax_amount is null.
	tax := total - base
	if tax < 0 {
		base, tax = total, 0
	}
	n := len(o.Passengers)
	if n == 0 {
		return nil, 0, fmt.Errorf("offer %s has no passengers", o.ID)
	}
	bases, taxes := splitEven(base, n), splitEven(tax, n)
	out := make([]paxAmount, n)
	for i, p := range o.Passengers {
		out[i] = paxAmount{typ: passengerType(p), base: bases[i], tax: taxes[i]}
	}
	return out, total, nil
}

// groupFares turns per-traveller shares into PaxFares: one per type, or
// two for a type whose travellers' shares differ by the odd cent.
func groupFares(pax []paxAmount) []supplier.PaxFare {
	var out []supplier.PaxFare
	for _, typ := range []string{supplier.Adult, supplier.Child, supplier.Infant} {
		for _, p := range pax {
			if p.typ != typ {
				continue
			}
			i := slices.IndexFunc(out, func(f supplier.PaxFare) bool {
				return f.Type == typ && f.Base == p.base && f.Taxes == p.tax
			})
			if i < 0 {
				out = append(out, supplier.PaxFare{Type: typ, Base: p.base, Taxes: p.tax})
				i = len(out) - 1
			}
			out[i].Count++
		}
	}
	return out
}

// localTime reads a Duffel local time ("2026-06-10T08:20:00") in the
// airport's zone; a time that carries its own offset keeps it.
func localTime(s, zone string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	loc := time.UTC
	if zone != "" {
		l, err := geo.Zone(zone)
		if err != nil {
			return time.Time{}, fmt.Errorf("time zone %q: %w", zone, err)
		}
		loc = l
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q is not a local date-time", s)
}

// isoMinutes reads an ISO 8601 duration such as "PT7H45M" or "P1DT2H".
func isoMinutes(s string) (int, bool) {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return 0, false
	}
	minutes, num, inTime := 0, "", false
	for _, r := range rest {
		switch {
		case r >= '0' && r <= '9':
			num += string(r)
		case r == 'T':
			inTime = true
		default:
			n, err := strconv.Atoi(num)
			if err != nil {
				return 0, false
			}
			num = ""
			switch {
			case r == 'D' && !inTime:
				minutes += n * 24 * 60
			case r == 'H' && inTime:
				minutes += n * 60
			case r == 'M' && inTime:
				minutes += n
			case r == 'S' && inTime:
			default:
				return 0, false
			}
		}
	}
	return minutes, num == ""
}

func mapSegment(s wireSegment, paxID string) (supplier.Segment, error) {
	dep, err := localTime(s.DepartingAt, s.Origin.TimeZone)
	if err != nil {
		return supplier.Segment{}, fmt.Errorf("segment %s departure: %w", s.ID, err)
	}
	arr, err := localTime(s.ArrivingAt, s.Destination.TimeZone)
	if err != nil {
		return supplier.Segment{}, fmt.Errorf("segment %s arrival: %w", s.ID, err)
	}
	// With both zones known the instants give the exact flying time;
	// otherwise trust Duffel's own duration.
	minutes := int(arr.Sub(dep).Minutes())
	if s.Origin.TimeZone == "" || s.Destination.TimeZone == "" {
		if m, ok := isoMinutes(s.Duration); ok {
			minutes = m
		}
	}
	seg := supplier.Segment{
		Carrier:         s.MarketingCarrier.IATACode,
		FlightNumber:    s.MarketingCarrier.IATACode + s.MarketingCarrierFlightNumber,
		Origin:          s.Origin.IATACode,
		Destination:     s.Destination.IATACode,
		DepartAt:        dep,
		ArriveAt:        arr,
		DurationMinutes: minutes,
	}
	if op := s.OperatingCarrier.IATACode; op != "" && op != seg.Carrier {
		seg.OperatingCarrier = op
	}
	if s.Aircraft != nil {
		seg.Aircraft = s.Aircraft.IATACode
	}
	if sp := segmentPassenger(s, paxID); sp != nil {
		seg.Cabin = sp.CabinClass
		seg.FareBasis = sp.FareBasisCode
		// Duffel does not return the booking class; by airline
		// convention a fare basis code starts with it.
		if sp.FareBasisCode != "" {
			seg.BookingClass = sp.FareBasisCode[:1]
		}
	}
	return seg, nil
}

// segmentPassenger is the segment's entry for a traveller, or its first.
func segmentPassenger(s wireSegment, paxID string) *wireSegmentPassenger {
	for i := range s.Passengers {
		if s.Passengers[i].PassengerID == paxID {
			return &s.Passengers[i]
		}
	}
	if len(s.Passengers) > 0 {
		return &s.Passengers[0]
	}
	return nil
}

// firstAdult is the id of the offer's first adult, whose allowance
// Baggage describes.
func firstAdult(o wireOffer) string {
	for _, p := range o.Passengers {
		if passengerType(p) == supplier.Adult {
			return p.ID
		}
	}
	if len(o.Passengers) > 0 {
		return o.Passengers[0].ID
	}
	return ""
}

func mapBaggage(seg wireSegment, paxID string) supplier.Baggage {
	var b supplier.Baggage
	if sp := segmentPassenger(seg, paxID); sp != nil {
		for _, bag := range sp.Baggages {
			switch bag.Type {
			case "checked":
				b.CheckedPieces += bag.Quantity
			case "carry_on":
				b.CabinPieces += bag.Quantity
			}
		}
	}
	return b
}

// mapCondition reads one condition. Duffel's penalty is for applying the
// modification to all passengers; Voyage's fee is per traveller. A
// condition Duffel does not know (null) counts as not allowed.
func mapCondition(c *wireCondition, currency string, travellers int) (allowed bool, fee int64) {
	if c == nil || !c.Allowed {
		return false, 0
	}
	if c.PenaltyAmount == nil {
		return true, 0
	}
	cur := currency
	if c.PenaltyCurrency != nil && *c.PenaltyCurrency != "" {
		cur = *c.PenaltyCurrency
	}
	if cur != currency {
		// A penalty in another currency cannot be stated in the offer's;
		// leave it to the quote at refund/change time.
		return true, 0
	}
	total, err := parseAmount(*c.PenaltyAmount, cur)
	if err != nil {
		return true, 0
	}
	return true, ceilDiv(total, travellers)
}

func mapConditions(c wireConditions, currency string, travellers int) supplier.Conditions {
	var out supplier.Conditions
	out.Refundable, out.RefundFee = mapCondition(c.RefundBeforeDeparture, currency, travellers)
	out.Changeable, out.ChangeFee = mapCondition(c.ChangeBeforeDeparture, currency, travellers)
	return out
}

// documentTypes maps Duffel's identity document types to the spec's codes;
// Duffel's others (tax_id, known_traveler_number, passenger_redress_number)
// have no Voyage equivalent.
func documentTypes(types []string) []string {
	out := []string{}
	for _, t := range types {
		if t == "passport" && !slices.Contains(out, "passport") {
			out = append(out, "passport")
		}
	}
	return out
}

// mapOffer maps a Duffel offer, or the parts of a split-ticket offer, to
// one Voyage offer. Parts come in journey order; each covers one or more
// slices and is priced and booked on its own.
func mapOffer(parts []wireOffer) (supplier.Offer, error) {
	if len(parts) == 0 {
		return supplier.Offer{}, fmt.Errorf("no offer")
	}
	first := parts[0]
	out := supplier.Offer{
		Supplier:          "duffel",
		Currency:          first.TotalCurrency,
		ValidatingCarrier: first.Owner.IATACode,
		TicketingMinutes:  ticketingMinutes,
		ExpiresAt:         first.ExpiresAt,
		Conditions:        supplier.Conditions{Refundable: true, Changeable: true},
		Restrictions:      supplier.Restrictions{Documents: documentTypes(first.SupportedPassengerIdentityDocumentTypes)},
	}
	var ids []string
	var pax []paxAmount
	for pi, o := range parts {
		if o.TotalCurrency != out.Currency {
			return supplier.Offer{}, fmt.Errorf("offer %s is in %s, not %s", o.ID, o.TotalCurrency, out.Currency)
		}
		ids = append(ids, o.ID)
		share, _, err := shares(o)
		if err != nil {
			return supplier.Offer{}, err
		}
		switch {
		case pi == 0:
			pax = share
		case len(share) != len(pax):
			return supplier.Offer{}, fmt.Errorf("offer %s has %d passengers, not %d", o.ID, len(share), len(pax))
		default:
			// The same travellers, in the same order, on every part.
			for i := range pax {
				pax[i].base += share[i].base
				pax[i].tax += share[i].tax
			}
		}
		if o.ExpiresAt.Before(out.ExpiresAt) {
			out.ExpiresAt = o.ExpiresAt
		}
		adult := firstAdult(o)
		for _, sl := range o.Slices {
			var journey []int
			for _, s := range sl.Segments {
				seg, err := mapSegment(s, adult)
				if err != nil {
					return supplier.Offer{}, fmt.Errorf("offer %s: %w", o.ID, err)
				}
				journey = append(journey, len(out.Segments))
				out.Segments = append(out.Segments, seg)
			}
			out.Journeys = append(out.Journeys, journey)
			if out.Brand == "" {
				out.Brand = sl.FareBrandName
			}
		}
		if pi == 0 && len(o.Slices) > 0 && len(o.Slices[0].Segments) > 0 {
			out.Baggage = mapBaggage(o.Slices[0].Segments[0], adult)
		}
		// A split-ticket trip is only as flexible as its least flexible
		// ticket, and its fees add up.
		c := mapConditions(o.Conditions, o.TotalCurrency, len(o.Passengers))
		out.Conditions.Refundable = out.Conditions.Refundable && c.Refundable
		out.Conditions.Changeable = out.Conditions.Changeable && c.Changeable
		out.Conditions.RefundFee += c.RefundFee
		out.Conditions.ChangeFee += c.ChangeFee
		out.Restrictions.IdentityDocumentsRequired = out.Restrictions.IdentityDocumentsRequired || o.PassengerIdentityDocumentsRequired
		// Documents every ticket accepts.
		docs := documentTypes(o.SupportedPassengerIdentityDocumentTypes)
		out.Restrictions.Documents = slices.DeleteFunc(out.Restrictions.Documents, func(d string) bool {
			return !slices.Contains(docs, d)
		})
	}
	if !out.Conditions.Refundable {
		out.Conditions.RefundFee = 0
	}
	if !out.Conditions.Changeable {
		out.Conditions.ChangeFee = 0
	}
	out.Ref = strings.Join(ids, refSep)
	out.Fares = groupFares(pax)
	return out, nil
}

// requiresInstant says whether any part must be paid when it is booked.
func requiresInstant(parts []wireOffer) bool {
	for _, o := range parts {
		if o.PaymentRequirements.RequiresInstantPayment {
			return true
		}
	}
	return false
}
