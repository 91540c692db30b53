// Package group holds group flight orders (spec §2–§5, issue 16): an
// operator's request for ten or more seats, the provider's quotes, the
// agency's confirmation with an xlsx passenger list, seat application, the
// staged deposits and final payment through the ledger, the deadlines that
// fail an order when missed, and ticketing. One status machine (status.go)
// moves every order; every move is on the order's timeline and in the user
// log.
package group

import (
	"time"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// Money is an amount as the API writes it (money.Money).
type Money = money.Money

// Journey is one journey asked for (spec §3 Group booking filter).
type Journey struct {
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	Date        string `json:"date" jsonschema_description:"YYYY-MM-DD"`
	ReturnDate  string `json:"returnDate,omitempty" jsonschema_description:"YYYY-MM-DD, a return journey's way back"`
	Remark      string `json:"remark,omitempty"`
}

// Counts are the passengers asked for by type.
type Counts = supplier.Passengers

// Contact is who Voyage and the airline reach about the group.
type Contact = booking.Contact

// Passenger is one traveller of the passenger list (spec §3 Passenger).
type Passenger = booking.Passenger

// Segment is one quoted flight.
type Segment = shopping.SegmentView

// Fare is the price of one passenger of a type, taxes included.
type Fare struct {
	PassengerType string `json:"passengerType" jsonschema:"enum=adult,enum=child,enum=infant"`
	Amount        Money  `json:"amount"`
	Taxes         Money  `json:"taxes"`
}

// Installment is one payment deadline of an order: a deposit stage or the
// final payment, stored as its own deadline record with the time zone its
// deadline is meant in.
type Installment struct {
	ID       int64      `json:"id"`
	Stage    string     `json:"stage" jsonschema:"enum=first,enum=second,enum=third,enum=final"`
	Amount   Money      `json:"amount"`
	Deadline time.Time  `json:"deadline"`
	TimeZone string     `json:"timeZone"`
	PaidAt   *time.Time `json:"paidAt,omitempty"`
	Status   string     `json:"status" jsonschema:"enum=not_due,enum=due,enum=holding,enum=paid,enum=forfeited"`
	Channel  string     `json:"channel,omitempty"`
}

// Installment statuses.
const (
	InstNotDue = "not_due"
	InstDue    = "due"
	// InstHolding: a gateway payment of the installment is under way; the
	// status check settles or releases it (pkg/payment's protocol), and no
	// deadline takes it meanwhile.
	InstHolding   = "holding"
	InstPaid      = "paid"
	InstForfeited = "forfeited"
	// InstVoid is an installment of an order that ended before it was due;
	// it is shown as not_due.
	InstVoid = "void"
)

// Quote is one quote of the provider; a re-quote adds one and the earlier
// stay on the order as its history.
type Quote struct {
	ID            int64     `json:"id"`
	Segments      []Segment `json:"segments"`
	Fares         []Fare    `json:"fares"`
	Total         Money     `json:"total"`
	ConfirmBefore time.Time `json:"confirmBefore"`
	// Installments are the payment plan: amount and deadline per stage.
	Installments          []PlannedInstallment `json:"installments"`
	PassengerListDeadline time.Time            `json:"passengerListDeadline"`
	FreeDropSeats         int                  `json:"freeDropSeats"`
	TimeZone              string               `json:"timeZone"`
	Status                string               `json:"status" jsonschema:"enum=current,enum=accepted,enum=declined,enum=superseded"`
	CreatedBy             string               `json:"createdBy"`
	CreatedAt             time.Time            `json:"createdAt"`
}

// Quote statuses.
const (
	QuoteCurrent    = "current"
	QuoteAccepted   = "accepted"
	QuoteDeclined   = "declined"
	QuoteSuperseded = "superseded"
)

// PlannedInstallment is a stage of a quote's payment plan.
type PlannedInstallment struct {
	Stage    string    `json:"stage" jsonschema:"enum=first,enum=second,enum=third,enum=final"`
	Amount   Money     `json:"amount"`
	Deadline time.Time `json:"deadline"`
}

// Ticket is one passenger's ticket.
type Ticket struct {
	Passenger    string `json:"passenger"`
	Type         string `json:"type"`
	TicketNumber string `json:"ticketNumber"`
}

// Event is one step of an order's timeline (booking.Event).
type Event = booking.Event

// Order is a group order as stored.
type Order struct {
	ID                 int64
	BookingNumber      string
	AgencyID           int64
	UserID             int64
	Status             Status
	Journeys           []Journey
	IsChangeDate       bool
	AcceptChangeFlight bool
	Counts             Counts
	Cabin              string
	Contact            Contact
	Remark             string
	Currency           string
	Total              int64
	Passengers         []Passenger
	Tickets            []Ticket
	// PassengerListDeadline is the current quote's (zero before a quote).
	PassengerListDeadline time.Time
	ConfirmBefore         time.Time
	ConfirmedAt           time.Time
	IdempotencyKey        string
	RequestHash           string
	CreatedAt             time.Time
	UpdatedAt             time.Time
}

// View is a group order as the API answers it (API.md "Group orders").
type View struct {
	ID                    int64         `json:"id"`
	BookingNumber         string        `json:"bookingNumber"`
	AgencyID              int64         `json:"agencyId"`
	Status                Status        `json:"status"`
	Tone                  string        `json:"tone"`
	Journeys              []Journey     `json:"journeys"`
	IsChangeDate          bool          `json:"isChangeDate"`
	AcceptChangeFlight    bool          `json:"acceptChangeFlight"`
	Passengers            Counts        `json:"passengers"`
	CabinClass            string        `json:"cabinClass"`
	Contact               Contact       `json:"contact"`
	Remark                string        `json:"remark"`
	Total                 *Money        `json:"total,omitempty"`
	Quotes                []Quote       `json:"quotes"`
	Installments          []Installment `json:"installments"`
	PassengerListDeadline *time.Time    `json:"passengerListDeadline,omitempty"`
	ConfirmBefore         *time.Time    `json:"confirmBefore,omitempty"`
	PassengerCount        int           `json:"passengerCount" jsonschema_description:"passengers on the uploaded list"`
	PassengerList         []Passenger   `json:"passengerList,omitempty"`
	// Locked: the passenger list can no longer change (after confirmation).
	Locked   bool     `json:"locked"`
	Tickets  []Ticket `json:"tickets"`
	Timeline []Event  `json:"timeline"`
	// Ledger lists the money movements of the order the agency sees:
	// deposits, the final payment, and forfeited deposits.
	Ledger []LedgerEntry `json:"ledger"`
	// Payment is the channel payment the booking waits for (a QR code to
	// scan, a page to finish), shown to the booking agency; absent when
	// none waits.
	Payment   *payment.PendingView `json:"payment,omitempty"`
	Actions   []Action             `json:"actions"`
	CreatedAt time.Time            `json:"createdAt"`
	UpdatedAt time.Time            `json:"updatedAt"`
}

// LedgerEntry is one money movement of an order.
type LedgerEntry struct {
	ID        int64     `json:"id"`
	Type      string    `json:"type"`
	Amount    Money     `json:"amount"`
	Reference string    `json:"reference,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// Page is one page of group orders.
type Page = booking.Page[View]

// StatusCount is one entry of the status-count call: a status, or "all".
type StatusCount = booking.StatusCount[string]

// Filter narrows a list.
type Filter struct {
	// Status is one status, or "" / "all".
	Status   string
	Page     int
	PageSize int
}
