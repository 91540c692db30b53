// Package rail is the seam between Voyage and train content, beside the
// flight seam in pkg/supplier. It is shaped after UIC OSDM (and Duffel's
// train API, which follows the same idea): trip search → offers →
// pre-booking with a confirmation time limit → confirm and ticket →
// refund offer → confirm, exchange offer → confirm. An adapter (the
// simulated China Railway in railsim, later an OSDM or Duffel connector)
// translates between these types and its source; it holds no agency rules
// (markups, wallets, notifications are the order service's).
//
// Every call takes a context whose deadline is the caller's patience; an
// adapter returns ErrTimeout when the source did not answer within it.
// Money is integer minor units with its currency (pkg/money).
package rail

import (
	"context"
	"errors"
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// Errors an adapter returns, wrapped with its own detail. The order service
// maps them onto translated messages; it never shows a source's text.
var (
	// ErrTimeout and ErrUnavailable are the flight seam's, so one retry and
	// time-out policy covers both product lines.
	ErrTimeout     = supplier.ErrTimeout
	ErrUnavailable = supplier.ErrUnavailable

	// ErrSameStation: origin and destination are the same station or city.
	ErrSameStation = errors.New("rail: origin and destination are the same")
	// ErrOutsideSalesWindow: the date is in the past or beyond the sales
	// window (China Railway: 15 days ahead).
	ErrOutsideSalesWindow = errors.New("rail: date outside the sales window")
	// ErrUnknownStation: no station with that code.
	ErrUnknownStation = errors.New("rail: unknown station")
	// ErrNoService: both stations exist but no train links them.
	ErrNoService = errors.New("rail: no train between these stations")
	// ErrSoldOut: not enough seats left in the class asked for.
	ErrSoldOut = errors.New("rail: sold out")
	// ErrOfferExpired: the offer's validity has passed (search again).
	ErrOfferExpired = errors.New("rail: offer expired")
	// ErrHoldExpired: the pre-booking was not confirmed within its
	// confirmation time limit; its seats are released.
	ErrHoldExpired = errors.New("rail: booking hold expired")
	// ErrRefundClosed: online refunds (and exchanges) close a fixed time
	// before departure (China Railway: 30 minutes).
	ErrRefundClosed = errors.New("rail: refunds and exchanges closed for this train")
	// ErrAlreadyExchanged: a ticket may be exchanged once only.
	ErrAlreadyExchanged = errors.New("rail: ticket already exchanged")
	// ErrNotFound: no booking, offer or after-sales offer with that reference.
	ErrNotFound = errors.New("rail: not found")
	// ErrRejected: the request is invalid or not allowed in the booking's
	// state (bad passenger data, refunding an unticketed booking).
	ErrRejected = errors.New("rail: request rejected")
)

// Train types by number prefix (China Railway; RAIL.md).
const (
	TypeG        = "G" // high-speed, up to 350 km/h
	TypeC        = "C" // intercity
	TypeD        = "D" // EMU, up to 250 km/h
	TypeZ        = "Z" // direct express
	TypeT        = "T" // express
	TypeK        = "K" // fast
	TypeOrdinary = ""  // a bare number
)

// Seat classes (RAIL.md). Hard sleeper berths are priced apart.
const (
	ClassBusiness          = "business"            // 商务座
	ClassPremium           = "premium"             // 特等座
	ClassFirst             = "first"               // 一等座
	ClassSecond            = "second"              // 二等座
	ClassDeluxeSoftSleeper = "deluxe_soft_sleeper" // 高级软卧
	ClassSoftSleeper       = "soft_sleeper"        // 软卧
	ClassEMUSleeper        = "emu_sleeper"         // 动卧
	ClassHardSleeperUpper  = "hard_sleeper_upper"  // 硬卧上铺
	ClassHardSleeperMiddle = "hard_sleeper_middle" // 硬卧中铺
	ClassHardSleeperLower  = "hard_sleeper_lower"  // 硬卧下铺
	ClassSoftSeat          = "soft_seat"           // 软座
	ClassHardSeat          = "hard_seat"           // 硬座
	ClassStanding          = "standing"            // 无座
)

// Ticket types.
const (
	TicketAdult            = "adult"
	TicketChild            = "child"
	TicketStudent          = "student"
	TicketDisabledMilitary = "disabled_military"
)

// Identity documents accepted under the real-name rule.
const (
	DocIDCard        = "id_card"         // resident identity card
	DocPassport      = "passport"        // passport
	DocHKMacaoPermit = "hk_macao_permit" // Mainland Travel Permit for Hong Kong and Macao Residents
	DocTaiwanPermit  = "taiwan_permit"   // Mainland Travel Permit for Taiwan Residents
)

// Booking states (OSDM: prebooked → confirmed/fulfilled; Duffel: created,
// ticketed, cancelled).
const (
	StatusPreBooked = "prebooked"
	StatusTicketed  = "ticketed"
	StatusCancelled = "cancelled"
	StatusExpired   = "expired"
	// StatusRefunded: every ticket refunded; a partly refunded booking
	// stays ticketed with some tickets refunded.
	StatusRefunded = "refunded"
)

// Ticket states.
const (
	TicketIssued    = "issued"
	TicketRefunded  = "refunded"
	TicketExchanged = "exchanged" // replaced by a new ticket
)

// SearchRequest asks for the trains from one station to another on a local
// date (YYYY-MM-DD, China Standard Time for China Railway).
type SearchRequest struct {
	Origin      string
	Destination string
	Date        string
	// Passengers are the ticket types asked for, one entry per traveller;
	// an offer's Fares price each type present.
	Passengers []string
}

// Stop is one call of a train: the station, its times there and the
// distance from where the passengers board. Arrive is zero at the first
// stop, Depart at the last.
//
// A zero time is left out of the JSON (omitzero; omitempty, which does
// nothing to a time, tells the API schema they are optional): the API once wrote
// 0001-01-01T00:00:00Z for the first stop's arrival and the last stop's
// departure, which clients read as a time.
type Stop struct {
	// Station is the station's code (telegraph code).
	Station string    `json:"station"`
	Arrive  time.Time `json:"arrive,omitempty,omitzero" jsonschema:"description=When the train arrives at this stop; absent at its first stop (where it only departs)."`
	Depart  time.Time `json:"depart,omitempty,omitzero" jsonschema:"description=When the train leaves this stop; absent at its last stop (where it only arrives)."`
	// DistanceKm is the distance from the first stop listed (where the
	// passengers board) to this one, in km.
	DistanceKm int `json:"distanceKm"`
}

// ClassOffer is one seat class of an offer: the adult price, the price per
// ticket type asked for and the seats left.
type ClassOffer struct {
	Class     string                  `json:"class"`
	Price     money.Amount            `json:"price"`
	Fares     map[string]money.Amount `json:"fares"`
	Available int                     `json:"available"`
	// SeatLetters a traveller may ask for (G/D/C seats; empty otherwise).
	SeatLetters []string `json:"seatLetters,omitempty"`
}

// FeeBand is one after-sales time band (OSDM after-sales condition): from
// MinBefore before departure (inclusive) the fee is Percent of the fare.
type FeeBand struct {
	MinBefore time.Duration `json:"minBefore"`
	Percent   int           `json:"percent"`
}

// Conditions are an offer's after-sales conditions.
type Conditions struct {
	Refundable bool `json:"refundable"`
	// RefundBands, longest lead first; the first band whose MinBefore is
	// not more than the time left applies.
	RefundBands []FeeBand `json:"refundBands"`
	// Exchanges a ticket allows (China Railway: 1).
	Exchanges int `json:"exchanges"`
	// CloseBefore: online refunds and exchanges close this long before
	// departure.
	CloseBefore time.Duration `json:"closeBefore"`
}

// Run is the train an order (or a change quote) travels on, between the
// stations booked. An offer sells one; a source may give its times in its
// own zone, and the train line keeps them in UTC (InUTC), as the fields
// say.
type Run struct {
	// TrainNumber is the train number, e.g. G101.
	TrainNumber string `json:"trainNumber"`
	// TrainType is the train type as the railway names it by the number's
	// prefix: G (high-speed), D (EMU), C (intercity), Z (direct express),
	// T (express), K (fast), or empty for an ordinary train (a bare
	// number).
	TrainType string `json:"trainType"`
	// Origin is the station code (telegraph code) where the passengers
	// board.
	Origin string `json:"origin"`
	// Destination is the station code where the passengers alight.
	Destination string `json:"destination"`
	// DepartAt is when the train leaves origin, in UTC.
	DepartAt time.Time `json:"departAt"`
	// ArriveAt is when the train reaches destination, in UTC.
	ArriveAt time.Time `json:"arriveAt"`
	// DurationMinutes is the journey's duration from origin to
	// destination, in minutes.
	DurationMinutes int `json:"durationMinutes"`
	// DistanceKm is the distance from origin to destination, in km.
	DistanceKm int `json:"distanceKm"`
	// Stops are the train's calls from origin to destination, both
	// included.
	Stops []Stop `json:"stops"`
}

// InUTC is r with its times in UTC, as a booking keeps them.
func (r Run) InUTC() Run {
	r.DepartAt, r.ArriveAt = r.DepartAt.UTC(), r.ArriveAt.UTC()
	return r
}

// Offer is one train from the origin to the destination asked for, with
// its seat classes. Ref is the source's opaque reference.
type Offer struct {
	Supplier string `json:"supplier"`
	Ref      string `json:"ref"`
	Run
	Classes    []ClassOffer `json:"classes"`
	Conditions Conditions   `json:"conditions"`
	ExpiresAt  time.Time    `json:"expiresAt"`
}

// Class returns the offer's seat class by name.
func (o Offer) Class(name string) (ClassOffer, bool) {
	for _, c := range o.Classes {
		if c.Class == name {
			return c, true
		}
	}
	return ClassOffer{}, false
}

// Passenger is a traveller as a source books them. The real-name rule:
// name and document number must match the document.
type Passenger struct {
	Type           string `json:"type"`
	Surname        string `json:"surname"`
	GivenName      string `json:"givenName"`
	Gender         string `json:"gender,omitempty"`
	Birthday       string `json:"birthday,omitempty"`
	Nationality    string `json:"nationality,omitempty"`
	DocumentType   string `json:"documentType"`
	DocumentNumber string `json:"documentNumber"`
	// SeatLetter asked for (A B C D F in second class); empty for any.
	SeatLetter string `json:"seatLetter,omitempty"`
}

// PreBookRequest holds seats of one class of an offer for passengers.
type PreBookRequest struct {
	OfferRef   string
	Class      string
	Passengers []Passenger
	// Key makes a retried PreBook return the first booking.
	Key string
}

// Ticket is one passenger's ticket.
type Ticket struct {
	Passenger int    `json:"passenger"` // index in Booking.Passengers
	Number    string `json:"number"`
	// The train this ticket is for (an exchanged ticket's new train).
	TrainNumber string       `json:"trainNumber"`
	Origin      string       `json:"origin"`
	Destination string       `json:"destination"`
	DepartAt    time.Time    `json:"departAt"`
	ArriveAt    time.Time    `json:"arriveAt"`
	Class       string       `json:"class"`
	Coach       string       `json:"coach"`
	Seat        string       `json:"seat"`
	Fare        money.Amount `json:"fare"`
	Status      string       `json:"status"`
	// Exchanges already made on this passenger's ticket.
	Exchanges int `json:"exchanges"`
}

// Booking is a pre-booking or a ticketed booking.
type Booking struct {
	Supplier   string       `json:"supplier"`
	Ref        string       `json:"ref"`
	Status     string       `json:"status"`
	Offer      Offer        `json:"offer"` // the train now booked
	Class      string       `json:"class"`
	Passengers []Passenger  `json:"passengers"`
	Total      money.Amount `json:"total"`
	// HoldExpiresAt is the confirmation time limit of a pre-booking.
	HoldExpiresAt time.Time `json:"holdExpiresAt"`
	// Tickets, one per passenger, once ticketed.
	Tickets []Ticket `json:"tickets,omitempty"`
}

// RefundOffer is what refunding some passengers' tickets returns, valid
// until ValidUntil (OSDM refund offer).
type RefundOffer struct {
	Ref        string       `json:"ref"`
	BookingRef string       `json:"bookingRef"`
	Passengers []int        `json:"passengers"`
	Fare       money.Amount `json:"fare"`   // of the tickets refunded
	Fee        money.Amount `json:"fee"`    // kept by the railway
	Refund     money.Amount `json:"refund"` // Fare - Fee
	ValidUntil time.Time    `json:"validUntil"`
}

// ExchangeOffer moves some passengers to another train (OSDM exchange
// offer). Due is what the buyer pays (a higher fare); Refund what comes
// back (a lower fare minus Fee, the refund fee on the difference).
type ExchangeOffer struct {
	Ref        string       `json:"ref"`
	BookingRef string       `json:"bookingRef"`
	Passengers []int        `json:"passengers"`
	Offer      Offer        `json:"offer"`
	Class      string       `json:"class"`
	Due        money.Amount `json:"due"`
	Refund     money.Amount `json:"refund"`
	Fee        money.Amount `json:"fee"`
	ValidUntil time.Time    `json:"validUntil"`
}

// ExchangeRequest asks to move passengers of a booking to a new offer.
type ExchangeRequest struct {
	BookingRef string
	Passengers []int // empty: every passenger with an issued ticket
	OfferRef   string
	Class      string
}

// Supplier is a train content source. Confirm, ConfirmRefund and
// ConfirmExchange must be safe to call again (a job run again after a
// crash whose answer was lost): confirming what is already confirmed
// returns the booking as it is.
type Supplier interface {
	// Name is the supplier's configuration name.
	Name() string
	// Search returns the trains for a request, earliest departure first.
	Search(ctx context.Context, req SearchRequest) ([]Offer, error)
	// PreBook holds seats until the booking's HoldExpiresAt.
	PreBook(ctx context.Context, req PreBookRequest) (Booking, error)
	// Confirm confirms a pre-booking and issues its tickets.
	Confirm(ctx context.Context, ref string) (Booking, error)
	// Cancel releases a pre-booking that is not ticketed.
	Cancel(ctx context.Context, ref string) error
	// Booking returns a booking as it is now.
	Booking(ctx context.Context, ref string) (Booking, error)
	// RefundOffer prices refunding some passengers (all when empty) now.
	RefundOffer(ctx context.Context, ref string, passengers []int) (RefundOffer, error)
	// ConfirmRefund refunds the tickets of a refund offer.
	ConfirmRefund(ctx context.Context, ref, offerRef string) (Booking, error)
	// ExchangeOffer prices moving passengers to another train.
	ExchangeOffer(ctx context.Context, req ExchangeRequest) (ExchangeOffer, error)
	// ConfirmExchange issues the new tickets of an exchange offer.
	ConfirmExchange(ctx context.Context, ref, offerRef string) (Booking, error)
}
