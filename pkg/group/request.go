package group

import (
	"context"
	"net/mail"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
)

// Limits of a request.
const (
	maxJourneys = 5
	// MaxGroupSize bounds a request: larger charters are not group fares.
	MaxGroupSize = 500
)

// RequestInput is an operator's request for a group fare (POST
// /order/v2/flight/group/orders).
type RequestInput struct {
	// Journeys are the journeys asked for: one to five, in travel order,
	// dated from today to 361 days ahead.
	Journeys []Journey `json:"journeys"`
	// IsChangeDate: the dates may move by a few days.
	IsChangeDate bool `json:"isChangeDate"`
	// AcceptChangeFlight: a connecting or another flight than asked for is
	// acceptable.
	AcceptChangeFlight bool `json:"acceptChangeFlight"`
	// Passengers are the passengers by type: at least one adult, no more
	// infants than adults, at least the minimum group size in seats
	// (adults and children; 10 unless the platform sets another) and at
	// most 500 passengers; absent: 10 adults, 10 children and no infants.
	Passengers *Counts `json:"passengers,omitempty"`
	// CabinClass is the cabin asked for; economy when empty.
	CabinClass string `json:"cabinClass" jsonschema:"enum=economy,enum=premium_economy,enum=business,enum=premium_business,enum=first,enum=premium_first"`
	// Contact is who Voyage and the airline reach about the group.
	Contact Contact `json:"contact"`
	// Remark is a note for the provider, at most 1000 characters;
	// optional.
	Remark string `json:"remark,omitempty"`
}

// DefaultCounts are spec §9's default group: 10 adults and 10 children.
var DefaultCounts = Counts{Adult: 10, Child: 10}

// normalize upper-cases codes, fills defaults and checks the rules of a
// request: journeys as flights (spec §5: not empty, at most five, origin
// and destination in different cities, no date past or beyond the
// schedules, in order), the group size, the cabin and the contact.
func (s *Service) normalize(in *RequestInput, today time.Time) map[string]string {
	errs := map[string]string{}
	if in.CabinClass == "" {
		in.CabinClass = supplier.CabinEconomy
	}
	if !slices.Contains(supplier.Cabins, in.CabinClass) {
		errs["cabinClass"] = "shopping.error.cabin"
	}
	if in.Passengers == nil {
		c := DefaultCounts
		in.Passengers = &c
	}
	p := *in.Passengers
	switch {
	case p.Adult < 1 || p.Child < 0 || p.Infant < 0:
		errs["passengers"] = "shopping.error.adults"
	case p.Infant > p.Adult:
		errs["passengers"] = "shopping.error.infants"
	case p.Seats() < s.minSize:
		errs["passengers"] = i18n.WithArgs("group.error.groupSize", "min", s.minSize)
	case p.Total() > MaxGroupSize:
		errs["passengers"] = i18n.WithArgs("group.error.groupTooLarge", "max", MaxGroupSize)
	}
	switch {
	case len(in.Journeys) == 0:
		errs["journeys"] = "flight.booking.journeyError.empty"
	case len(in.Journeys) > maxJourneys:
		errs["journeys"] = "shopping.error.tooManyJourneys"
	}
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	var prev time.Time
	for i := range in.Journeys {
		if len(in.Journeys) > maxJourneys {
			break
		}
		j := &in.Journeys[i]
		journey := fault.Item("journeys", i)
		j.Origin, j.Destination = upper(j.Origin), upper(j.Destination)
		j.Date, j.ReturnDate, j.Remark = trim(j.Date), trim(j.ReturnDate), trim(j.Remark)
		d, dated := shopping.CheckJourney(errs, journey, j.Origin, j.Destination, j.Date, day, prev)
		if dated {
			prev = d
		}
		if j.ReturnDate != "" {
			r, rerr := time.Parse(time.DateOnly, j.ReturnDate)
			switch {
			case rerr != nil:
				errs[fault.Field(journey, "returnDate")] = "shopping.error.date"
			case dated && r.Before(d):
				errs[fault.Field(journey, "returnDate")] = "shopping.error.dateOrder"
			case r.After(day.AddDate(0, 0, shopping.MaxDaysAhead)):
				errs[fault.Field(journey, "returnDate")] = "shopping.error.dateFar"
			}
		}
		if len([]rune(j.Remark)) > 500 {
			errs[fault.Field(journey, "remark")] = "error.field.tooLong"
		}
	}
	c := &in.Contact
	c.Name, c.Email, c.Phone = trim(c.Name), trim(c.Email), trim(c.Phone)
	switch {
	case c.Name == "":
		errs["contact.name"] = "order.contact.error.name"
	case len([]rune(c.Name)) > 100:
		errs["contact.name"] = "error.field.tooLong"
	}
	if c.Email == "" {
		errs["contact.email"] = "order.contact.error.email"
	} else if a, err := mail.ParseAddress(c.Email); err != nil || a.Address != c.Email {
		errs["contact.email"] = "order.contact.error.emailFormat"
	}
	if c.Phone == "" {
		errs["contact.phone"] = "order.contact.error.phone"
	} else if !profile.ValidPhone(c.Phone) {
		errs["contact.phone"] = "order.contact.error.phoneFormat"
	}
	in.Remark = trim(in.Remark)
	if len([]rune(in.Remark)) > 1000 {
		errs["remark"] = "error.field.tooLong"
	}
	return errs
}

// Request files an operator's group request (to_be_quote), once per
// idempotency key: a replay answers the order the first call made.
func (s *Service) Request(ctx context.Context, who auth.Principal, key string, in RequestInput) (_ View, err error) {
	defer s.CountBooked(&err)
	v, err := s.Books.Booker(ctx, who, key)
	if err != nil {
		return View{}, err
	}
	now := s.Now().UTC()
	if errs := s.normalize(&in, booking.Today(now, v.Agency)); len(errs) > 0 {
		return View{}, fault.Validation(errs)
	}
	hash := booking.RequestHash(in)
	replay := func() (View, bool, error) {
		return booking.Replay(func() (Order, bool, error) { return stored.ByKey(ctx, s.DB, who.AgencyID, key) }, hash, Order.requestHash,
			func(prior Order) (View, error) { return s.detail(ctx, prior, v) })
	}
	if out, found, err := replay(); found || err != nil {
		return out, err
	}
	a, err := s.Agencies.Cached(ctx, who.AgencyID)
	if err != nil {
		return View{}, err
	}
	cur := a.SettlementCurrency
	if cur == "" {
		cur = "CNY"
	}
	o := Order{Head: booking.Head{AgencyID: who.AgencyID, UserID: who.UserID}, Status: ToBeQuote, Journeys: in.Journeys, IsChangeDate: in.IsChangeDate,
		AcceptChangeFlight: in.AcceptChangeFlight, Counts: *in.Passengers, Cabin: in.CabinClass, Contact: in.Contact, Remark: in.Remark,
		Currency: cur, IdempotencyKey: key, RequestHash: hash, CreatedAt: now, UpdatedAt: now}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := insertOrder(ctx, tx, &o); err != nil {
			return err
		}
		sh := booking.Shift[Status, Action]{ID: o.ID, Action: "request", To: ToBeQuote, Actor: actorOf(who).name, Remark: in.Remark, At: now}
		if err := booking.Add(ctx, tx, booking.GroupTimeline, sh); err != nil {
			return err
		}
		return s.logged(ctx, tx, &o, sh, actorOf(who))
	})
	if err != nil {
		if store.IsUniqueViolation(err) {
			if out, found, rerr := replay(); found || rerr != nil {
				return out, rerr
			}
		}
		return View{}, err
	}
	return s.detail(ctx, o, v)
}
