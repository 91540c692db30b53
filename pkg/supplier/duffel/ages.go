package duffel

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// adultAge is the age from which Duffel no longer asks for one.
const adultAge = 18

// Ages sent for children and infants when the caller does not know the
// real ones: a representative age gets the child/infant fare. Book then
// compares the real birth dates with what was priced.
const (
	childAge  = 8
	infantAge = 1
)

// passengerQueries lists the travellers of a search. With the real ages
// (one per traveller) anyone under 18 is sent by age, as Duffel asks, and
// the others as adults; without them each type gets a representative age.
func passengerQueries(p supplier.Passengers, ages []int) []wirePassengerQuery {
	var out []wirePassengerQuery
	if len(ages) == p.Total() && len(ages) > 0 {
		sorted := slices.Clone(ages)
		slices.Sort(sorted)
		slices.Reverse(sorted) // adults first, as Duffel lists them
		for _, a := range sorted {
			if a >= adultAge {
				out = append(out, wirePassengerQuery{Type: "adult"})
			} else {
				out = append(out, wirePassengerQuery{Age: new(max(a, 0))})
			}
		}
		return out
	}
	for range p.Adult {
		out = append(out, wirePassengerQuery{Type: "adult"})
	}
	for range p.Child {
		out = append(out, wirePassengerQuery{Age: new(childAge)})
	}
	for range p.Infant {
		out = append(out, wirePassengerQuery{Age: new(infantAge)})
	}
	return out
}

// ageOn is a person's age in whole years on a day, from a YYYY-MM-DD
// birth date.
func ageOn(birthday string, day time.Time) (int, bool) {
	b, err := time.Parse(time.DateOnly, birthday)
	if err != nil {
		return 0, false
	}
	return supplier.AgeOn(b, day), true
}

// firstDay is the local date of an offer's first departure.
func firstDay(o wireOffer) (time.Time, bool) {
	if len(o.Slices) == 0 || len(o.Slices[0].Segments) == 0 {
		return time.Time{}, false
	}
	date, _, _ := strings.Cut(o.Slices[0].Segments[0].DepartingAt, "T")
	t, err := time.Parse(time.DateOnly, date)
	return t, err == nil
}

// agesDiffer says whether an offer was priced for other ages under 18
// than the travellers have on the day of its first departure (a child
// searched as 8 who is 10, a 15-year-old searched as an adult). Duffel
// prices by them and checks born_on against them when the order is
// created. Travellers without a readable birth date are not compared.
func agesDiffer(o wireOffer, ts []supplier.Traveller) (priced, real []int, day time.Time, differ bool) {
	day, ok := firstDay(o)
	if !ok {
		return nil, nil, day, false
	}
	for _, p := range o.Passengers {
		if p.Age != nil && *p.Age < adultAge {
			priced = append(priced, *p.Age)
		}
	}
	for _, t := range ts {
		a, ok := ageOn(t.Birthday, day)
		if !ok {
			return nil, nil, day, false
		}
		if a < adultAge {
			real = append(real, a)
		}
	}
	slices.Sort(priced)
	slices.Sort(real)
	return priced, real, day, !slices.Equal(priced, real)
}

// flightsOf identifies an offer's flights and fare brand, to find the
// same trip in another search.
func flightsOf(o wireOffer) string {
	var b strings.Builder
	b.WriteString(o.Owner.IATACode)
	for _, sl := range o.Slices {
		b.WriteString("|" + sl.FareBrandName)
		for _, s := range sl.Segments {
			b.WriteString("/" + s.MarketingCarrier.IATACode + s.MarketingCarrierFlightNumber + "@" + s.DepartingAt + ":" + segmentCabin(s))
		}
	}
	return b.String()
}

func segmentCabin(s wireSegment) string {
	if len(s.Passengers) > 0 {
		return s.Passengers[0].CabinClass
	}
	return ""
}

// searchRealAges searches an offer's journeys again with the travellers'
// real ages and returns the same flights and fare brand as priced for
// them (the cheapest if several), or ErrOfferGone when they are not
// offered for those ages.
func (c *Client) searchRealAges(ctx context.Context, o wireOffer, ts []supplier.Traveller, day time.Time) (wireOffer, error) {
	ages := make([]int, len(ts))
	for i, t := range ts {
		ages[i], _ = ageOn(t.Birthday, day)
	}
	body := wireOfferRequestBody{Passengers: passengerQueries(supplier.Passengers{Adult: len(ts)}, ages)}
	for _, sl := range o.Slices {
		if len(sl.Segments) == 0 {
			return wireOffer{}, fmt.Errorf("duffel: offer %s has a slice without segments: %w", o.ID, supplier.ErrOfferGone)
		}
		date, _, _ := strings.Cut(sl.Segments[0].DepartingAt, "T")
		body.Slices = append(body.Slices, wireSliceQuery{Origin: sl.Origin.IATACode, Destination: sl.Destination.IATACode, DepartureDate: date})
		if body.CabinClass == "" {
			body.CabinClass = sliceCabin(sl)
		}
	}
	q := url.Values{"return_offers": {"true"}, "supplier_timeout": {strconv.FormatInt(c.supplierTimeout(ctx), 10)}}
	var orq wireOfferRequest
	if err := c.do(ctx, call{method: http.MethodPost, path: "/air/offer_requests", query: q, body: body, idempotent: true, out: &orq}); err != nil {
		return wireOffer{}, err
	}
	want := flightsOf(o)
	var best wireOffer
	var bestTotal int64
	for _, n := range orq.Offers {
		if flightsOf(n) != want || n.TotalCurrency != o.TotalCurrency {
			continue
		}
		total, err := parseAmount(n.TotalAmount, n.TotalCurrency)
		if err != nil {
			continue
		}
		if best.ID == "" || total < bestTotal {
			best, bestTotal = n, total
		}
	}
	if best.ID == "" {
		return wireOffer{}, fmt.Errorf("duffel: the flights of offer %s are not offered for the travellers' ages %v; search again: %w", o.ID, ages, supplier.ErrOfferGone)
	}
	return best, nil
}

// withRealAges replaces the parts priced for other ages than the
// travellers' by the same flights searched again with their real ages.
// It reports whether any part was replaced.
func (c *Client) withRealAges(ctx context.Context, parts []wireOffer, ts []supplier.Traveller) (bool, error) {
	replaced := false
	for i, p := range parts {
		priced, real, day, differ := agesDiffer(p, ts)
		if !differ {
			continue
		}
		c.log.LogAttrs(ctx, slog.LevelInfo, "duffel: offer priced for other ages; searching again with the real ones",
			slog.String("offer", p.ID), slog.Any("priced", priced), slog.Any("real", real))
		n, err := c.searchRealAges(ctx, p, ts, day)
		if err != nil {
			return false, err
		}
		parts[i], replaced = n, true
	}
	return replaced, nil
}

// checkDocuments refuses, before anything is booked, travellers without
// the identity document an airline requires (Duffel's
// passenger_identity_documents_required): Duffel would refuse the order
// with 422 at the last step.
func checkDocuments(parts []wireOffer, ts []supplier.Traveller) error {
	required := false
	for _, o := range parts {
		required = required || o.PassengerIdentityDocumentsRequired
	}
	if !required {
		return nil
	}
	for i, t := range ts {
		var missing []string
		if !isPassport(t.DocumentType) || strings.TrimSpace(t.DocumentNumber) == "" {
			missing = append(missing, "passport number")
		}
		if strings.TrimSpace(t.Nationality) == "" {
			missing = append(missing, "issuing country")
		}
		if strings.TrimSpace(t.DocumentExpiry) == "" {
			missing = append(missing, "expiry date")
		}
		if len(missing) > 0 {
			return fmt.Errorf("duffel: the airline requires a passport for every traveller; traveller %d has no %s: %w",
				i+1, strings.Join(missing, ", "), supplier.ErrRejected)
		}
	}
	return nil
}
