package train

import (
	"time"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

// Money is an amount as the API writes it (money.Money).
type Money = money.Money

// Passenger is a traveller of a train order. ID is the passenger's number
// in the order (1, 2, ...): the refund and change requests name passengers
// by it.
type Passenger struct {
	// ID is the passenger's number in the order (1, 2, ... in the order
	// the booking listed them), given by the server: tickets, quotes and
	// the refund and change requests name passengers by it. Ignored in a
	// booking request.
	ID int `db:"id" json:"id"`
	// Type is the ticket type: adult, child (travels with at least one
	// passenger of another type), student or disabled_military (the
	// reduced fare of disabled service members).
	Type string `db:"type" json:"type" jsonschema:"required,enum=adult,enum=child,enum=student,enum=disabled_military"`
	// Surname is the family name exactly as on the identity document: the
	// railway's real-name rule matches it with the document.
	Surname string `db:"surname" json:"surname" jsonschema:"required"`
	// GivenName is the given name exactly as on the identity document.
	GivenName string `db:"given_name" json:"givenName" jsonschema:"required"`
	// Gender is male or female; optional.
	Gender      string `db:"gender" json:"gender,omitempty" jsonschema:"enum=male,enum=female"`
	Birthday    string `db:"birthday" json:"birthday,omitempty" jsonschema_description:"YYYY-MM-DD"`
	Nationality string `db:"nationality" json:"nationality,omitempty" jsonschema_description:"ISO 3166-1 alpha-2"`
	// DocumentType is the identity document the railway checks:
	// id_card (resident identity card), passport, hk_macao_permit
	// (Mainland Travel Permit for Hong Kong and Macao Residents) or
	// taiwan_permit (Mainland Travel Permit for Taiwan Residents).
	DocumentType string `db:"document_type" json:"documentType" jsonschema:"required,enum=id_card,enum=passport,enum=hk_macao_permit,enum=taiwan_permit"`
	// DocumentNumber is the document's number, kept upper-case without
	// spaces: an ID card's 18 characters with a valid check digit, a
	// passport's 5 to 17 letters and digits, H or M and 8 digits (10 with
	// the issue count) for a Hong Kong and Macao permit, 8 digits (10 with
	// the count) for a Taiwan permit. One document once per order.
	DocumentNumber string `db:"document_number" json:"documentNumber" jsonschema:"required"`
	// SeatLetter is the seat letter asked for on G, D and C trains (A, B,
	// C, D or F); absent for any seat.
	SeatLetter string `db:"seat_letter" json:"seatLetter,omitempty"`
}

// Contact is who the agency reaches about the order.
type Contact struct {
	// Name is the contact person's name.
	Name string `json:"name" jsonschema:"required"`
	// Email is the contact's email address; optional.
	Email string `json:"email"`
	// Phone is the contact's phone number.
	Phone string `json:"phone" jsonschema:"required"`
}

// Ticket states.
const (
	TicketIssued    = rail.TicketIssued
	TicketRefunded  = rail.TicketRefunded
	TicketExchanged = rail.TicketExchanged
)

// Ticket is one passenger's ticket: the one issued, or an earlier one
// refunded or exchanged (kept for the record).
type Ticket struct {
	// Passenger is the id of the order's passenger the ticket is for
	// (passengers[].id).
	Passenger int `json:"passenger"`
	// Number is the railway's ticket number (e.g. E123456789).
	Number string `json:"ticketNumber"`
	// TrainNumber is the train this ticket is for (after a change, the new
	// train's), e.g. G101.
	TrainNumber string `json:"trainNumber"`
	// Origin is the station code (telegraph code) where the ticket boards.
	Origin string `json:"origin"`
	// Destination is the station code where the ticket alights.
	Destination string `json:"destination"`
	// DepartAt is when the ticket's train leaves its origin, in UTC.
	DepartAt time.Time `json:"departAt"`
	// ArriveAt is when this ticket's train arrives at its destination, in
	// UTC (after a change, the new train's); absent on tickets issued
	// before the platform recorded it.
	ArriveAt *time.Time `json:"arriveAt,omitempty"`
	// Class is the ticket's seat class (a code of GET
	// /shopping/v2/train/config's seatClasses).
	Class string `json:"seatClass"`
	// Coach is the coach number as printed, two digits (e.g. 05).
	Coach string `json:"coach"`
	// Seat is the seat or berth as printed (e.g. 12F, 015, 07 lower).
	Seat string `json:"seat"`
	Fare int64  `json:"-"`
	// Status is issued (valid), refunded, or exchanged (replaced by the
	// passenger's ticket for the new train, listed beside it).
	Status string `json:"status" jsonschema:"enum=issued,enum=refunded,enum=exchanged"`
	// Exchanges is how many times this passenger's ticket has been changed
	// to another train: the railway allows one change, so a ticket with 1
	// cannot be changed again.
	Exchanges int `json:"exchanges"`
}

// Quote is an after-sales offer waiting for the agency: a refund of some
// passengers, or a change of some passengers to another train. Amounts are
// minor units of the order's currency.
type Quote struct {
	Kind       string    `json:"kind"` // refund or change
	Ref        string    `json:"ref"`  // the supplier's offer reference
	Passengers []int     `json:"passengers"`
	Fare       int64     `json:"fare"`   // refund: the fares of the tickets refunded
	Fee        int64     `json:"fee"`    // the railway's fee by time band
	Refund     int64     `json:"refund"` // what comes back to the wallet
	Due        int64     `json:"due"`    // change: a higher fare's difference to pay
	ValidUntil time.Time `json:"validUntil"`
	// Change: the new train.
	Train *Train `json:"train,omitempty"`
	Class string `json:"seatClass,omitempty"`
	// Seq numbers the order's after-sales operations: it makes their
	// ledger keys.
	Seq int `json:"seq"`
}

// Quote kinds.
const (
	QuoteRefund = "refund"
	QuoteChange = "change"
)

// Train is the train an order (or a change quote) travels on, between the
// stations booked: the rail seam's run, in UTC.
type Train = rail.Run

// trainOf is the train an offer sells, as an order keeps it.
func trainOf(o rail.Offer) Train { return o.Run.InUTC() }

// Order is a train booking as stored.
type Order struct {
	booking.Head
	Status Status
	// Resume is the ticketed status an after-sales quote returns to when
	// it is dropped or fails.
	Resume      Status
	Supplier    string
	SupplierRef string
	// Manual: the provider issues the tickets by hand (the agency's train
	// setting when it paid).
	Manual    bool
	Train     Train
	SeatClass string
	Currency  string
	// Total is what the tickets cost when booked (after changes: the
	// current fares); Paid and Refunded what moved through the wallet.
	Total          int64
	Paid           int64
	Refunded       int64
	Passengers     []Passenger
	Contact        Contact
	Tickets        []Ticket
	Quote          *Quote
	HoldExpiresAt  time.Time
	PaymentChannel string
	PaymentKey     string
	// Seq counts after-sales operations (ledger keys).
	Seq            int
	IdempotencyKey string
	RequestHash    string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// payment is o's payment fields (payment.HeldOrder).
func (o *Order) payment() (channel string, key *string) { return o.PaymentChannel, &o.PaymentKey }

// Event is one step of a train order's timeline: what was done, by whom,
// and the status it moved the order from and to.
type Event struct {
	// ID is the event's id; events are listed oldest first.
	ID int64 `db:"id" json:"id"`
	// Action is what was done: book, then the agency's pay, cancel,
	// refund, change, confirm, cancel_refund and cancel_change, the
	// provider's confirm_tickets and fail_tickets, or the system's
	// ticketed, ticket_failed, reimbursed, expire, refunded,
	// refunded_part, changed, after_sale_failed, payment_uncertain, paid
	// and unpaid.
	Action string `db:"action" json:"action"`
	// From is the order's status before the step; empty for the booking
	// itself.
	From string `db:"from_status" json:"from"`
	// To is the order's status after the step.
	To string `db:"to_status" json:"to"`
	// Actor is who took the step: a username, apikey:<id> for an
	// integration's API key, or system.
	Actor string `db:"actor" json:"actor"`
	// Remark says more about the step in the request's language (the
	// train number booked or changed to, what a refund gave back, why
	// ticketing failed); empty when there is nothing to add.
	Remark string `db:"remark" json:"remark"`
	// CreatedAt is when the step was taken, in UTC.
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
}

// passengerIndex is the supplier's index of a passenger id.
func passengerIndex(id int) int { return id - 1 }
