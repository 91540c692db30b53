// Package supplier is the one seam between Voyage and flight content. A
// Supplier adapter translates between these types and a content source (the
// built-in simulators in sim/, Duffel in duffel/); it holds no business rules:
// markups, filters, merging and interlining are the shopping engine's.
//
// Every call takes a context whose deadline is the caller's patience; an
// adapter returns ErrTimeout when the source did not answer within it.
package supplier

import (
	"context"
	"errors"
	"time"
)

// Errors an adapter returns, wrapped with its own detail. The engine and the
// order service decide what a user sees from these, never from a source's
// own error text.
var (
	// ErrTimeout: the source did not answer before the context deadline.
	ErrTimeout = errors.New("supplier: timed out")
	// ErrUnavailable: the source failed (5xx, connection refused, rate
	// limited after retries); trying again later may work.
	ErrUnavailable = errors.New("supplier: unavailable")
	// ErrOfferGone: the offer or fare no longer exists or cannot be sold.
	ErrOfferGone = errors.New("supplier: offer no longer available")
	// ErrNotFound: no booking with that reference.
	ErrNotFound = errors.New("supplier: booking not found")
	// ErrRejected: the source refused the request as invalid (bad passenger
	// data, action not allowed in the booking's state).
	ErrRejected = errors.New("supplier: request rejected")
	// ErrNotSupported: the source does not offer this operation.
	ErrNotSupported = errors.New("supplier: operation not supported")
	// ErrPending: the source accepted a booking but has not finished it
	// (Duffel's 202 Accepted). An adapter wraps it together with
	// ErrUnavailable, so a caller that knows nothing of it tries again
	// later; booking again with the same BookRequest.Key finds the booking
	// under way and never books twice.
	ErrPending = errors.New("supplier: booking pending")
)

// Cabin classes (spec §3 Cabin).
const (
	CabinFirst           = "first"
	CabinPremiumFirst    = "premium_first"
	CabinBusiness        = "business"
	CabinPremiumBusiness = "premium_business"
	CabinPremiumEconomy  = "premium_economy"
	CabinEconomy         = "economy"
)

// Cabins lists the cabin classes from the most to the least expensive.
var Cabins = []string{CabinFirst, CabinPremiumFirst, CabinBusiness, CabinPremiumBusiness, CabinPremiumEconomy, CabinEconomy}

// Passenger types.
const (
	Adult  = "adult"
	Child  = "child"
	Infant = "infant"
)

// AgeOn is a person's age in whole years on day (both dates as written).
func AgeOn(birthday, day time.Time) int {
	y1, m1, d1 := birthday.Date()
	y2, m2, d2 := day.Date()
	age := y2 - y1
	if m2 < m1 || m2 == m1 && d2 < d1 {
		age--
	}
	return age
}

// TypeForAge is the passenger type of an age on the travel date (spec §3):
// infants under 2, children under 12.
func TypeForAge(age int) string {
	switch {
	case age < 2:
		return Infant
	case age < 12:
		return Child
	}
	return Adult
}

// Passengers counts travellers by type.
type Passengers struct {
	Adult  int `json:"adult"`
	Child  int `json:"child"`
	Infant int `json:"infant"`
}

// Total is the number of travellers.
func (p Passengers) Total() int { return p.Adult + p.Child + p.Infant }

// Seats is the number of seats taken (infants sit on a lap).
func (p Passengers) Seats() int { return p.Adult + p.Child }

// JourneyQuery is one directional journey asked for: airport or city codes
// and a local departure date (YYYY-MM-DD).
type JourneyQuery struct {
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	Date        string `json:"date"`
}

// SearchRequest asks a source for priced itineraries covering every journey
// (one offer covers all of them: a return is one offer with two journeys).
type SearchRequest struct {
	Journeys   []JourneyQuery
	Passengers Passengers
	Cabin      string
	// Carriers, when set, limits the answer to itineraries flown only by
	// these marketing carriers (accurate search of a PNR's itinerary).
	Carriers []string
	// Currency the caller prefers; a source may answer in another one.
	Currency string
	// Ages, when known, are the travellers' ages on the day of the first
	// journey, one per traveller in any order; a source that prices by
	// age (Duffel asks for the age of anyone under 18) sends them instead
	// of a representative age per type. Book refuses an offer priced for
	// other ages: search again with the real ones.
	Ages []int
	// Direct asks for nonstop flights only, one segment per journey: the
	// legs the engine combines into self-transfers. A source that cannot
	// filter answers everything; the caller keeps the nonstops.
	Direct bool
}

// Segment is one flight. Times carry the airport's local zone, as every
// timetable does.
type Segment struct {
	Carrier          string    `json:"carrier"`
	FlightNumber     string    `json:"flightNumber"` // carrier + number, e.g. "CA937"
	OperatingCarrier string    `json:"operatingCarrier,omitempty"`
	Origin           string    `json:"origin"`
	Destination      string    `json:"destination"`
	DepartAt         time.Time `json:"departAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	ArriveAt         time.Time `json:"arriveAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	DurationMinutes  int       `json:"durationMinutes"`
	Cabin            string    `json:"cabin"`
	BookingClass     string    `json:"bookingClass"`
	FareBasis        string    `json:"fareBasis,omitempty"`
	Aircraft         string    `json:"aircraft,omitempty"`
	// SeatsLeft is what the source says is still for sale at this fare
	// (0 when it does not say).
	SeatsLeft int `json:"seatsLeft,omitempty"`
}

// PaxFare is the price of one traveller of a type, in minor units of the
// offer's currency. Taxes includes AirportTax and FuelSurcharge.
type PaxFare struct {
	Type          string `json:"type"`
	Count         int    `json:"count"`
	Base          int64  `json:"base"`
	Taxes         int64  `json:"taxes"`
	AirportTax    int64  `json:"airportTax"`
	FuelSurcharge int64  `json:"fuelSurcharge"`
}

// Total is one traveller's base fare plus taxes.
func (f PaxFare) Total() int64 { return f.Base + f.Taxes }

// Baggage is the free allowance per adult.
type Baggage struct {
	CheckedPieces int `json:"checkedPieces"`
	CheckedKg     int `json:"checkedKg,omitempty"`
	CabinPieces   int `json:"cabinPieces"`
	CabinKg       int `json:"cabinKg,omitempty"`
}

// Conditions are the fare's change and refund rules; fees in minor units of
// the offer's currency, per traveller.
type Conditions struct {
	Refundable bool  `json:"refundable"`
	RefundFee  int64 `json:"refundFee"`
	Changeable bool  `json:"changeable"`
	ChangeFee  int64 `json:"changeFee"`
}

// Restrictions limit who may travel on a fare (spec §3 Contact and
// restrictions).
type Restrictions struct {
	MinAge int `json:"minAge,omitempty"`
	MaxAge int `json:"maxAge,omitempty"`
	// Documents accepted; empty means any (spec codes: idcard, passport,
	// chinese-passport, eep).
	Documents           []string `json:"documents"`
	EligibleCountries   []string `json:"eligibleCountries"`
	IneligibleCountries []string `json:"ineligibleCountries"`
	// IdentityDocumentsRequired: every traveller must give an identity
	// document (type in Documents, number, issuing country, expiry) or the
	// booking is refused.
	IdentityDocumentsRequired bool `json:"identityDocumentsRequired,omitempty"`
}

// Offer is one priced itinerary a source can sell.
type Offer struct {
	Supplier string `json:"supplier"`
	// Ref is the source's own reference for the offer (opaque to Voyage).
	Ref      string    `json:"ref"`
	Segments []Segment `json:"segments"`
	// Journeys groups segment indexes by journey, in the request's order.
	Journeys          [][]int      `json:"journeys"`
	Currency          string       `json:"currency"`
	Fares             []PaxFare    `json:"fares"`
	ValidatingCarrier string       `json:"validatingCarrier"`
	Brand             string       `json:"brand,omitempty"`
	Baggage           Baggage      `json:"baggage"`
	Conditions        Conditions   `json:"conditions"`
	Restrictions      Restrictions `json:"restrictions"`
	// TicketingMinutes is how long issuing takes once paid.
	TicketingMinutes int       `json:"ticketingMinutes"`
	ExpiresAt        time.Time `json:"expiresAt"`
}

// Total is what every traveller together pays, in minor units.
func (o Offer) Total() int64 {
	var t int64
	for _, f := range o.Fares {
		t += f.Total() * int64(f.Count)
	}
	return t
}

// PriceStatus is the outcome of checking an offer again before booking
// (spec §4 price check).
type PriceStatus string

const (
	PriceOK                    PriceStatus = "ok"
	PriceChanged               PriceStatus = "price_changed"
	PackageChanged             PriceStatus = "package_changed"
	PriceInvalid               PriceStatus = "invalid"
	DocumentRestrictionChanged PriceStatus = "document_restriction_changed"
)

// PriceResult is the outcome of Price and the offer as the source sells it
// now (the same offer when Status is ok; empty when invalid).
type PriceResult struct {
	Status PriceStatus
	Offer  Offer
}

// Traveller is a passenger as a source books it.
type Traveller struct {
	Type           string `json:"type"`
	Surname        string `json:"surname"`
	GivenName      string `json:"givenName"`
	Gender         string `json:"gender"`
	Birthday       string `json:"birthday"`
	Nationality    string `json:"nationality"`
	DocumentType   string `json:"documentType"`
	DocumentNumber string `json:"documentNumber"`
	DocumentExpiry string `json:"documentExpiry"`
	Email          string `json:"email,omitempty"`
	Phone          string `json:"phone,omitempty"`
	FrequentFlyer  string `json:"frequentFlyer,omitempty"`
	FFAirline      string `json:"ffAirline,omitempty"`
}

// Contact is who the source contacts about the booking.
type Contact struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Phone string `json:"phone"`
}

// BookRequest books an offer (priced by Price) for travellers.
type BookRequest struct {
	Offer      Offer
	Travellers []Traveller
	Contact    Contact
	// Key makes a retried Book return the first booking.
	Key string
}

// Booking is a held reservation.
type Booking struct {
	Supplier string `json:"supplier"`
	Ref      string `json:"ref"` // the source's order id
	PNR      string `json:"pnr"`
	// Total is what the source will charge, in minor units of Currency.
	Total    int64  `json:"total"`
	Currency string `json:"currency"`
	// TicketBy is the ticketing time limit.
	TicketBy time.Time `json:"ticketBy"`
	// Pending: the source accepted the booking and has not finished it
	// (Duffel's 202 Accepted not settled within the request). It is not a
	// booking yet: no PNR, nothing to pay for; Ref is the source's id when
	// it gave one and Key the BookRequest's key it may be found by. A
	// Finisher says what became of it.
	Pending bool   `json:"pending,omitempty"`
	Key     string `json:"key,omitempty"`
}

// Finisher is a Supplier whose Book may answer a Pending booking: Finish
// asks what became of it (ref and key as the pending booking has them,
// travellers as booked). It answers the finished booking, ErrPending while
// the source is still at it, or ErrRejected when the source gave up.
type Finisher interface {
	Finish(ctx context.Context, ref, key string, travellers []Traveller) (Booking, error)
}

// Wrapper is a decorator of a Supplier (a trace, a metric, a deadline):
// Unwrap answers the Supplier it decorates, so that what a source offers
// beyond Supplier (a Finisher) is found through every decorator.
type Wrapper interface {
	Unwrap() Supplier
}

// FinisherOf is s's status check of pending bookings, looked for through
// its decorators; false when the source has none.
func FinisherOf(s Supplier) (Finisher, bool) {
	for s != nil {
		if f, ok := s.(Finisher); ok {
			return f, true
		}
		w, ok := s.(Wrapper)
		if !ok {
			return nil, false
		}
		s = w.Unwrap()
	}
	return nil, false
}

// Ticket is one issued ticket.
type Ticket struct {
	Traveller int    `json:"traveller"` // index in BookRequest.Travellers
	Number    string `json:"number"`
}

// Where a refund goes (Quote.RefundTo). Only the first three are money
// the agency gets back as such; a voucher or airline credit is value kept
// with the airline for a later trip.
const (
	RefundToOriginal = "original_payment" // cash back to what paid
	RefundToBalance  = "balance"          // the agency's balance with the source
	RefundToCard     = "card"
	RefundToVoucher  = "voucher"
	RefundToCredits  = "airline_credits"
	// RefundToNothing: nothing was paid (a held booking).
	RefundToNothing = "nothing"
)

// CashRefund says whether a refund destination is money back.
func CashRefund(to string) bool {
	return to == "" || to == RefundToOriginal || to == RefundToBalance || to == RefundToCard
}

// Quote is an amount a source offers for a refund or a change, valid until
// ExpiresAt; Ref confirms it.
type Quote struct {
	Ref    string `json:"ref"`
	Refund int64  `json:"refund"` // refunded to the buyer as money
	// RefundTo is where the refund goes (RefundTo*; empty: as paid).
	RefundTo string `json:"refundTo,omitempty"`
	// Credit is the value returned as a voucher or airline credit instead
	// of money (not in Refund), in minor units of Currency.
	Credit int64 `json:"credit,omitempty"`
	// RefundUnknown: the source could not say what comes back (the airline
	// gave no refund quote); Refund and Credit are then zero, not a promise.
	RefundUnknown bool      `json:"refundUnknown,omitempty"`
	Fee           int64     `json:"fee"` // penalty kept by the source
	Due           int64     `json:"due"` // to be paid for a change (fare + tax difference)
	Currency      string    `json:"currency"`
	ExpiresAt     time.Time `json:"expiresAt"`
	// Offer is the new itinerary of a change quote.
	Offer *Offer `json:"offer,omitempty"`
}

// Supplier is a flight content source.
type Supplier interface {
	// Name is the supplier's configuration name ("gds", "ndc", "lcc", "duffel").
	Name() string
	// Search returns the offers for a request. An adapter may return the
	// offers it has together with an error when part of the source failed.
	Search(ctx context.Context, req SearchRequest) ([]Offer, error)
	// Price checks an offer again and says how it changed.
	Price(ctx context.Context, offer Offer, pax Passengers) (PriceResult, error)
	// Book holds seats and returns the PNR.
	Book(ctx context.Context, req BookRequest) (Booking, error)
	// Ticket issues the tickets of a held booking. Like Void, Refund and
	// Change it must be safe to call again (a job run again after a crash
	// whose answer was lost): ticketing an issued booking returns its
	// tickets, confirming a refund or change quote already confirmed
	// succeeds without doing it twice.
	Ticket(ctx context.Context, ref string) ([]Ticket, error)
	// Cancel releases a booking that has not been ticketed.
	Cancel(ctx context.Context, ref string) error
	// Void cancels tickets on the day of issue for a full refund.
	Void(ctx context.Context, ref string) error
	// RefundQuote asks what refunding a ticketed booking returns.
	RefundQuote(ctx context.Context, ref string) (Quote, error)
	// Refund confirms a refund quote.
	Refund(ctx context.Context, ref, quoteRef string) error
	// ChangeQuotes asks for offers moving the booking to new journeys.
	ChangeQuotes(ctx context.Context, ref string, journeys []JourneyQuery) ([]Quote, error)
	// Change confirms a change quote; the booking then flies the quote's offer.
	Change(ctx context.Context, ref, quoteRef string) (Booking, error)
}
