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
	// Adult is the number of adults (12 or older on the day of travel).
	Adult int `json:"adult"`
	// Child is the number of children (2 to 11 on the day of travel).
	Child int `json:"child"`
	// Infant is the number of infants (under 2 on the day of travel), each
	// on an adult's lap without a seat of their own.
	Infant int `json:"infant"`
}

// Total is the number of travellers.
func (p Passengers) Total() int { return p.Adult + p.Child + p.Infant }

// Seats is the number of seats taken (infants sit on a lap).
func (p Passengers) Seats() int { return p.Adult + p.Child }

// JourneyQuery is one directional journey asked for: airport or city codes
// and a local departure date (YYYY-MM-DD).
type JourneyQuery struct {
	// Origin is the IATA code of the departure airport or city (PEK, or
	// BJS for any Beijing airport).
	Origin string `json:"origin"`
	// Destination is the IATA code of the arrival airport or city.
	Destination string `json:"destination"`
	// Date is the local departure date, YYYY-MM-DD.
	Date string `json:"date"`
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
	// Carrier is the IATA code of the marketing carrier, the airline that
	// sells the flight under its number.
	Carrier string `json:"carrier"`
	// FlightNumber is the marketing carrier's code and the flight's
	// number, e.g. CA937.
	FlightNumber string `json:"flightNumber"`
	// OperatingCarrier is the IATA code of the airline that flies the
	// flight when it is another than the marketing carrier (a codeshare);
	// absent otherwise.
	OperatingCarrier string `json:"operatingCarrier,omitempty"`
	// Origin is the IATA code of the departure airport.
	Origin string `json:"origin"`
	// Destination is the IATA code of the arrival airport.
	Destination string    `json:"destination"`
	DepartAt    time.Time `json:"departAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	ArriveAt    time.Time `json:"arriveAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	// DurationMinutes is the flying time from departure to arrival, in
	// minutes.
	DurationMinutes int `json:"durationMinutes"`
	// Cabin is the cabin class: economy, premium_economy, business,
	// premium_business, first or premium_first.
	Cabin string `json:"cabin"`
	// BookingClass is the one-letter booking class (reservation booking
	// designator) of the fare on this flight, e.g. Y.
	BookingClass string `json:"bookingClass"`
	// FareBasis is the fare basis code on this flight; absent when the
	// source does not give it.
	FareBasis string `json:"fareBasis,omitempty"`
	// Aircraft is the aircraft type code as the source gives it (an ICAO
	// designator such as B789, or an IATA code such as 789); absent when
	// unknown.
	Aircraft string `json:"aircraft,omitempty"`
	// SeatsLeft is what the source says is still for sale at this fare
	// (0 when it does not say).
	SeatsLeft int `json:"seatsLeft,omitempty"`
}

// PaxFare is the price of one traveller of a type, in minor units of the
// offer's currency. Taxes includes AirportTax and FuelSurcharge.
type PaxFare struct {
	// Type is the passenger type: adult, child or infant.
	Type string `json:"type"`
	// Count is how many travellers of the type the offer prices.
	Count int `json:"count"`
	// Base is one traveller's base fare, before taxes, in minor units of
	// the offer's currency.
	Base int64 `json:"base"`
	// Taxes is one traveller's taxes and surcharges, airportTax and
	// fuelSurcharge included, in minor units of the offer's currency.
	Taxes int64 `json:"taxes"`
	// AirportTax is the airport tax within taxes, per traveller, in minor
	// units; 0 when the source does not break it out.
	AirportTax int64 `json:"airportTax"`
	// FuelSurcharge is the fuel surcharge within taxes, per traveller, in
	// minor units; 0 when the source does not break it out.
	FuelSurcharge int64 `json:"fuelSurcharge"`
}

// Total is one traveller's base fare plus taxes.
func (f PaxFare) Total() int64 { return f.Base + f.Taxes }

// Baggage is the free baggage allowance per adult.
type Baggage struct {
	// CheckedPieces is how many checked bags travel free; 0 with checkedKg
	// set means a weight allowance instead, 0 without it no free checked
	// baggage.
	CheckedPieces int `json:"checkedPieces"`
	// CheckedKg is the checked baggage weight allowed, in kg: each bag's
	// when checkedPieces is set, else the total; absent when the source
	// gives no weight.
	CheckedKg int `json:"checkedKg,omitempty"`
	// CabinPieces is how many cabin bags are allowed.
	CabinPieces int `json:"cabinPieces"`
	// CabinKg is each cabin bag's weight limit, in kg; absent when the
	// source gives none.
	CabinKg int `json:"cabinKg,omitempty"`
}

// Conditions are the fare's change and refund rules; fees in minor units of
// the offer's currency, per traveller.
type Conditions struct {
	// Refundable: the ticket can be refunded.
	Refundable bool `json:"refundable"`
	// RefundFee is the airline's refund fee per traveller, in minor units
	// of the offer's currency; 0 when free or only known when a refund is
	// quoted.
	RefundFee int64 `json:"refundFee"`
	// Changeable: the ticket can be changed to other flights.
	Changeable bool `json:"changeable"`
	// ChangeFee is the airline's change fee per traveller, in minor units
	// of the offer's currency (any fare difference comes on top); 0 when
	// free or only known when a change is quoted.
	ChangeFee int64 `json:"changeFee"`
}

// Restrictions limit who may travel on a fare.
type Restrictions struct {
	// MinAge is the youngest a traveller may be, in whole years on the day
	// of travel; absent: no minimum.
	MinAge int `json:"minAge,omitempty"`
	// MaxAge is the oldest a traveller may be, in whole years on the day
	// of travel; absent: no maximum.
	MaxAge int `json:"maxAge,omitempty"`
	// Documents are the travel document types the fare accepts
	// (passengers' documentType codes: idcard, passport,
	// chinese-passport, eep, ...); empty, or all, accepts any.
	Documents []string `json:"documents"`
	// EligibleCountries are the nationalities (ISO 3166-1 alpha-2) that
	// may travel on the fare; empty: any nationality not in
	// ineligibleCountries.
	EligibleCountries []string `json:"eligibleCountries"`
	// IneligibleCountries are the nationalities (ISO 3166-1 alpha-2) that
	// may not travel on the fare; empty: none excluded.
	IneligibleCountries []string `json:"ineligibleCountries"`
	// IdentityDocumentsRequired: every traveller must give an identity
	// document (a type in documents, number, issuing country, expiry) or
	// the booking is refused.
	IdentityDocumentsRequired bool `json:"identityDocumentsRequired,omitempty"`
}

// Offer is one priced itinerary a supplier sells.
type Offer struct {
	// Supplier is the name of the content source that sells the offer
	// (gds, ndc, lcc, duffel, ...).
	Supplier string `json:"supplier"`
	// Ref is the source's own reference for the offer (opaque to Voyage).
	Ref string `json:"ref"`
	// Segments are the offer's flights, in travel order.
	Segments []Segment `json:"segments"`
	// Journeys groups segment indexes by journey, in the request's order.
	Journeys [][]int `json:"journeys"`
	// Currency is the ISO 4217 code of the offer's amounts: the source's
	// currency, not necessarily the order's.
	Currency string `json:"currency"`
	// Fares are the prices per traveller, one entry per passenger type.
	Fares []PaxFare `json:"fares"`
	// ValidatingCarrier is the IATA code of the airline that issues the
	// ticket.
	ValidatingCarrier string `json:"validatingCarrier"`
	// Brand is the fare's brand name as the airline sells it (e.g.
	// Economy Light); absent when the fare has none.
	Brand string `json:"brand,omitempty"`
	// Baggage is the fare's free baggage allowance.
	Baggage Baggage `json:"baggage"`
	// Conditions are the fare's refund and change rules.
	Conditions Conditions `json:"conditions"`
	// Restrictions are who may travel on the fare.
	Restrictions Restrictions `json:"restrictions"`
	// TicketingMinutes is how long issuing takes once paid, in minutes.
	TicketingMinutes int `json:"ticketingMinutes"`
	// ExpiresAt is until when the source sells the offer at this price.
	ExpiresAt time.Time `json:"expiresAt"`
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

// Quote is what a supplier offers for a refund or a change of a booking,
// until it expires; amounts in minor units of its currency.
type Quote struct {
	// Ref is the source's reference of the quote, which confirms it.
	Ref string `json:"ref"`
	// Refund is what the source refunds as money, in minor units of
	// currency.
	Refund int64 `json:"refund"`
	// RefundTo is where the refund goes: original_payment (back to what
	// paid), balance (the buyer's balance with the source), card, voucher
	// or airline_credits (value kept with the airline, in credit), or
	// nothing (nothing was paid); absent: back as paid.
	RefundTo string `json:"refundTo,omitempty"`
	// Credit is the value returned as a voucher or airline credit instead
	// of money (not in refund), in minor units of currency.
	Credit int64 `json:"credit,omitempty"`
	// RefundUnknown: the source could not say what comes back (the airline
	// gave no refund quote); refund and credit are then zero, not a
	// promise.
	RefundUnknown bool `json:"refundUnknown,omitempty"`
	// Fee is the penalty the source keeps, in minor units of currency.
	Fee int64 `json:"fee"`
	// Due is what a change costs: the fare and tax difference, in minor
	// units of currency; 0 for a refund.
	Due int64 `json:"due"`
	// Currency is the ISO 4217 code of the quote's amounts: the source's
	// currency, not necessarily the order's.
	Currency string `json:"currency"`
	// ExpiresAt is until when the quote can be confirmed.
	ExpiresAt time.Time `json:"expiresAt"`
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
