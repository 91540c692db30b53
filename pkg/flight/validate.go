package flight

import (
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

var (
	ffNumber    = regexp.MustCompile(`^[A-Z0-9]{4,20}$`)
	airlineCode = regexp.MustCompile(`^[A-Z0-9]{2}$`)
)

// acceptsDocument: an empty list or "all" accepts every document.
func acceptsDocument(r supplier.Restrictions, doc string) bool {
	return len(r.Documents) == 0 || slices.Contains(r.Documents, "all") || slices.Contains(r.Documents, doc)
}

// eligible applies the restrictions' country lists to a nationality.
func eligible(r supplier.Restrictions, country string) bool {
	if len(r.EligibleCountries) > 0 && !slices.Contains(r.EligibleCountries, country) {
		return false
	}
	return !slices.Contains(r.IneligibleCountries, country)
}

// validatePassengers checks spec §5's passenger rules against the quote: the
// profile's field rules, then the type by age on the travel date, the
// nationality's eligibility, the accepted documents and the document's
// expiry after the last flight. Keys are "passengers.N.field".
func validatePassengers(ps []Passenger, want supplier.Passengers, sol shopping.Solution, today time.Time) map[string]string {
	errs := map[string]string{}
	travel, last := today, today
	if len(sol.Segments) > 0 {
		travel = sol.Segments[0].DepartAt
		last = sol.Segments[len(sol.Segments)-1].DepartAt
	}
	var airports []string
	for _, seg := range sol.Segments {
		airports = append(airports, seg.Origin, seg.Destination)
	}
	count := map[string]int{}
	for i, p := range ps {
		field := func(f string) string { return fault.Field(fault.Item("passengers", i), f) }
		in := profile.PassengerInput{Surname: p.Surname, GivenName: p.GivenName, Type: p.Type, Gender: p.Gender, Birthday: p.Birthday,
			Nationality: p.Nationality, Phone: p.Phone, Email: p.Email, DocumentType: p.DocumentType, DocumentNumber: p.DocumentNumber,
			DocumentExpiry: p.DocumentExpiry, DocumentIssuedAt: p.DocumentIssuedAt}
		for f, key := range in.Validate(today) {
			errs[field(f)] = key
		}
		count[p.Type]++
		if _, bad := errs[field("birthday")]; !bad {
			if b, err := time.Parse(time.DateOnly, p.Birthday); err == nil {
				if _, badType := errs[field("type")]; !badType && supplier.TypeForAge(supplier.AgeOn(b, travel)) != p.Type {
					errs[field("type")] = "order.passenger.error.typeByAge"
				}
				if age := supplier.AgeOn(b, travel); sol.Restrictions.MinAge > 0 && age < sol.Restrictions.MinAge ||
					sol.Restrictions.MaxAge > 0 && age > sol.Restrictions.MaxAge {
					errs[field("birthday")] = "order.passenger.error.age"
				}
			}
		}
		if _, bad := errs[field("nationality")]; !bad && !eligible(sol.Restrictions, p.Nationality) {
			errs[field("nationality")] = "order.passenger.error.nationalityIneligible"
		}
		if _, bad := errs[field("documentType")]; !bad && !acceptsDocument(sol.Restrictions, p.DocumentType) {
			errs[field("documentType")] = "order.passenger.error.documentNotAccepted"
		}
		// The DOCS import's rule too: an ID card only within mainland China.
		if _, bad := errs[field("documentType")]; !bad && !profile.IDCardTravels(p.DocumentType, airports) {
			errs[field("documentType")] = "order.passenger.error.idCardInternational"
		}
		if _, bad := errs[field("documentExpiry")]; !bad {
			if d, err := time.Parse(time.DateOnly, p.DocumentExpiry); err == nil && d.Before(last.Truncate(24*time.Hour)) {
				errs[field("documentExpiry")] = "order.passenger.error.documentExpired"
			}
		}
		if p.FrequentFlyer != "" || p.FFAirline != "" {
			if !ffNumber.MatchString(p.FrequentFlyer) {
				errs[field("frequentFlyer")] = "order.passenger.error.frequentFlyer"
			}
			if !airlineCode.MatchString(p.FFAirline) {
				errs[field("ffAirline")] = "order.passenger.error.ffAirline"
			}
		}
	}
	if len(ps) != want.Total() || count[supplier.Adult] != want.Adult || count[supplier.Child] != want.Child || count[supplier.Infant] != want.Infant {
		errs["passengers"] = "order.passenger.error.count"
	}
	return errs
}

func validateContact(c Contact, errs map[string]string) {
	if strings.TrimSpace(c.Name) == "" {
		errs["contact.name"] = "order.contact.error.name"
	} else if len([]rune(c.Name)) > 100 {
		errs["contact.name"] = "error.field.tooLong"
	}
	if strings.TrimSpace(c.Email) == "" {
		errs["contact.email"] = "order.contact.error.email"
	} else if a, err := mail.ParseAddress(c.Email); err != nil || a.Address != strings.TrimSpace(c.Email) {
		errs["contact.email"] = "order.contact.error.emailFormat"
	}
	if strings.TrimSpace(c.Phone) == "" {
		errs["contact.phone"] = "order.contact.error.phone"
	} else if !profile.ValidPhone(strings.TrimSpace(c.Phone)) {
		errs["contact.phone"] = "order.contact.error.phoneFormat"
	}
}
