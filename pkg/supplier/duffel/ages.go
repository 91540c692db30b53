package duffel

import (
	"fmt"
	"slices"
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
	age := day.Year() - b.Year()
	if day.Month() < b.Month() || (day.Month() == b.Month() && day.Day() < b.Day()) {
		age--
	}
	return age, true
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

// checkAges refuses an offer priced for other ages than the travellers'
// (a child searched as 8 who is 10 on the day, a 15-year-old searched as
// an adult): Duffel's price depends on them and the airline may refuse
// the order. The caller searches again with the real ages. Travellers
// without a readable birth date are not checked.
func checkAges(parts []wireOffer, ts []supplier.Traveller) error {
	for _, o := range parts {
		day, ok := firstDay(o)
		if !ok {
			continue
		}
		var priced, real []int
		for _, p := range o.Passengers {
			if p.Age != nil && *p.Age < adultAge {
				priced = append(priced, *p.Age)
			}
		}
		for _, t := range ts {
			a, ok := ageOn(t.Birthday, day)
			if !ok {
				return nil
			}
			if a < adultAge {
				real = append(real, a)
			}
		}
		slices.Sort(priced)
		slices.Sort(real)
		if !slices.Equal(priced, real) {
			return fmt.Errorf("duffel: offer %s was priced for travellers under 18 aged %v, the travellers are %v on %s; search again with their ages: %w",
				o.ID, priced, real, day.Format(time.DateOnly), supplier.ErrOfferGone)
		}
	}
	return nil
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
