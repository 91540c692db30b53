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

// Journey is one journey a group request asks for, with its way back
// when it is a return.
type Journey struct {
	// Origin is the IATA code of the departure airport or city (PEK or
	// BJS).
	Origin string `json:"origin"`
	// Destination is the IATA code of the arrival airport or city, in
	// another city than Origin.
	Destination string `json:"destination"`
	Date        string `json:"date" jsonschema_description:"YYYY-MM-DD"`
	ReturnDate  string `json:"returnDate,omitempty" jsonschema_description:"YYYY-MM-DD, a return journey's way back"`
	// Remark is a note for the provider about this journey, at most 500
	// characters; optional.
	Remark string `json:"remark,omitempty"`
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
	// PassengerType is the passenger type the fare is for.
	PassengerType string `json:"passengerType" jsonschema:"enum=adult,enum=child,enum=infant"`
	// Amount is one passenger's price, taxes included.
	Amount Money `json:"amount"`
	// Taxes is the part of amount that is taxes; zero when the provider
	// did not say.
	Taxes Money `json:"taxes"`
}

// Installment is one stage of a group order's payment plan (a deposit or
// the final payment) with its deadline and state.
//
// Each is stored as its own deadline record with the time zone its
// deadline is meant in.
type Installment struct {
	// ID is the installment's id.
	ID int64 `json:"id"`
	// Stage is first, second or third (a deposit) or final (the final
	// payment): the stage to name when paying it (POST
	// /order/v2/flight/group/orders/{id}/payment).
	Stage string `json:"stage" jsonschema:"enum=first,enum=second,enum=third,enum=final"`
	// Amount is what the stage costs.
	Amount Money `json:"amount"`
	// Deadline is when the stage must be paid by, in UTC: an order whose
	// installment is still unpaid then fails, and the deposits paid are
	// forfeited.
	Deadline time.Time `json:"deadline"`
	// TimeZone is the IANA time zone the deadline was set in (by default
	// the first departure airport's), for showing it.
	TimeZone string `json:"timeZone"`
	// PaidAt is when the stage was paid, in UTC; absent while unpaid.
	PaidAt *time.Time `json:"paidAt,omitempty"`
	// Status is not_due (a later stage, or one the order ended before),
	// due (to pay now, before the deadline), holding (a payment through a
	// channel is under way), paid, or forfeited (paid, then kept by the
	// provider because the order was canceled or failed).
	Status string `json:"status" jsonschema:"enum=not_due,enum=due,enum=holding,enum=paid,enum=forfeited"`
	// Channel is the payment channel that paid the stage, or is paying
	// it (balance for the wallet); absent before.
	Channel string `json:"channel,omitempty"`
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
	// ID is the quote's id.
	ID int64 `json:"id"`
	// Segments are the quoted flights, in travel order.
	Segments []Segment `json:"segments"`
	// Fares are the price per passenger of each type the request asks for.
	Fares []Fare `json:"fares"`
	// Total is what the whole group pays: each fare times its passengers.
	Total Money `json:"total"`
	// ConfirmBefore is when the quote lapses, in UTC: the agency confirms
	// the order on it before then, or the order is closed.
	ConfirmBefore time.Time `json:"confirmBefore"`
	// Installments are the payment plan: amount and deadline per stage.
	Installments []PlannedInstallment `json:"installments"`
	// PassengerListDeadline is when, in UTC, the order must be confirmed
	// with its passenger list; an order not confirmed by then fails.
	PassengerListDeadline time.Time `json:"passengerListDeadline"`
	// FreeDropSeats is how many fewer seats (adults and children) than
	// asked for the passenger list may name; a shorter list is refused.
	FreeDropSeats int `json:"freeDropSeats"`
	// TimeZone is the IANA time zone the quote's deadlines were set in,
	// for showing them.
	TimeZone string `json:"timeZone"`
	// Status is current (the latest quote, open), accepted (the agency
	// accepted or confirmed it), declined (the agency declined it; the
	// request waits for a new quote) or superseded (the provider quoted
	// again).
	Status string `json:"status" jsonschema:"enum=current,enum=accepted,enum=declined,enum=superseded"`
	// CreatedBy is who quoted: the provider user's username, or
	// apikey:<id>.
	CreatedBy string `json:"createdBy"`
	// CreatedAt is when the quote was given, in UTC.
	CreatedAt time.Time `json:"createdAt"`
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
	// Stage is the first, second or third deposit, or the final payment.
	Stage string `json:"stage" jsonschema:"enum=first,enum=second,enum=third,enum=final"`
	// Amount is what the stage costs.
	Amount Money `json:"amount"`
	// Deadline is when the stage must be paid by, in UTC.
	Deadline time.Time `json:"deadline"`
}

// Ticket is one passenger's ticket of an issued group order.
type Ticket struct {
	// Passenger is the passenger's name as SURNAME/GIVEN NAMES.
	Passenger string `json:"passenger"`
	// Type is the passenger type: adult, child or infant.
	Type string `json:"type"`
	// TicketNumber is the 13-digit ticket number.
	TicketNumber string `json:"ticketNumber"`
}

// Event is one step of an order's timeline (booking.Event).
type Event = booking.Event

// Order is a group order as stored.
type Order struct {
	booking.Head
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

// View is a group flight order as the API answers it: the request, the
// provider's quotes, the payment plan, the passenger list, the tickets and
// what the caller may do now.
type View struct {
	// ID is the order's id, the {id} of the
	// /order/v2/flight/group/orders/{id} calls.
	ID int64 `json:"id"`
	// BookingNumber is the order's booking number (G, the request date as
	// YYMMDD and 8 digits), shown to people and named in wallet entries.
	BookingNumber string `json:"bookingNumber"`
	// AgencyID is the id of the agency that asked for the group.
	AgencyID int64 `json:"agencyId"`
	// Status is the order's status.
	Status Status `json:"status"`
	// Tone is the status's display tone: success, warning, primary, error
	// or info.
	Tone string `json:"tone"`
	// Journeys are the journeys asked for.
	Journeys []Journey `json:"journeys"`
	// IsChangeDate: the dates may move by a few days.
	IsChangeDate bool `json:"isChangeDate"`
	// AcceptChangeFlight: a connecting or another flight than asked for is
	// acceptable.
	AcceptChangeFlight bool `json:"acceptChangeFlight"`
	// Passengers are the passengers asked for, by type.
	Passengers Counts `json:"passengers"`
	// CabinClass is the cabin asked for: economy, premium_economy,
	// business, premium_business, first or premium_first.
	CabinClass string `json:"cabinClass"`
	// Contact is who Voyage and the airline reach about the group.
	Contact Contact `json:"contact"`
	// Remark is the request's note for the provider; empty when none.
	Remark string `json:"remark"`
	// Total is the current quote's total, in the order's currency; absent
	// before a quote and after the agency declines one.
	Total *Money `json:"total,omitempty"`
	// Quotes are every quote given, newest (the current one) first; empty
	// in lists and before a quote.
	Quotes []Quote `json:"quotes"`
	// Installments are the current quote's payment plan with each stage's
	// state; empty in lists and before a quote.
	Installments []Installment `json:"installments"`
	// PassengerListDeadline is the current quote's deadline for
	// confirming the order with its passenger list, in UTC; absent in
	// lists, before a quote and once met or passed.
	PassengerListDeadline *time.Time `json:"passengerListDeadline,omitempty"`
	// ConfirmBefore is when the current quote lapses unless the order is
	// confirmed on it, in UTC; absent in lists, before a quote and once
	// confirmed or passed.
	ConfirmBefore  *time.Time `json:"confirmBefore,omitempty"`
	PassengerCount int        `json:"passengerCount" jsonschema_description:"passengers on the uploaded list"`
	// PassengerList is the uploaded passenger list (also GET
	// /order/v2/flight/group/orders/{id}/passengers); absent in lists and
	// before an upload.
	PassengerList []Passenger `json:"passengerList,omitempty"`
	// Locked: the passenger list can no longer change (after confirmation).
	Locked bool `json:"locked"`
	// Tickets are the passengers' tickets once issued; empty before.
	Tickets []Ticket `json:"tickets"`
	// Timeline is the order's history, oldest first; empty in lists.
	Timeline []Event `json:"timeline"`
	// Ledger lists the money movements of the order the agency sees:
	// deposits, the final payment, and forfeited deposits.
	Ledger []LedgerEntry `json:"ledger"`
	// Payment is the channel payment the booking waits for (a QR code to
	// scan, a page to finish), shown to the booking agency; absent when
	// none waits.
	Payment *payment.PendingView `json:"payment,omitempty"`
	// Actions are what the caller may do to the order now: for the
	// ordering agency accept, decline, upload, confirm, pay or cancel; for
	// the provider quote, close, apply, grant or refuse.
	Actions []Action `json:"actions"`
	// CreatedAt is when the group was asked for, in UTC.
	CreatedAt time.Time `json:"createdAt"`
	// UpdatedAt is when the order last changed, in UTC.
	UpdatedAt time.Time `json:"updatedAt"`
}

// LedgerEntry is one money movement of a group order.
type LedgerEntry struct {
	// ID is the ledger entry's id.
	ID int64 `json:"id"`
	// Type is the wallet entry type: group-deposit (a deposit paid),
	// group-payment (the final payment), group-forfeit (a deposit paid
	// and kept by the provider after the order was canceled or failed),
	// or top-up (money a payment channel took for an installment, into
	// the wallet that pays it).
	Type string `json:"type"`
	// Amount is the money moved.
	Amount Money `json:"amount"`
	// Reference is the payment channel's reference of a payment through a
	// channel; absent otherwise.
	Reference string `json:"reference,omitempty"`
	// CreatedAt is when the money moved, in UTC.
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
	// OldestFirst pages the list oldest first (the provider's queue).
	OldestFirst bool
}
