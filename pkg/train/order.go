package train

import (
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

// Money is an amount as the API writes it (money.Money).
type Money = money.Money

// Passenger is a traveller of a train order. ID is the passenger's number
// in the order (1, 2, ...): the refund and change requests name passengers
// by it.
type Passenger struct {
	ID             int    `db:"id" json:"id"`
	Type           string `db:"type" json:"type" jsonschema:"required,enum=adult,enum=child,enum=student,enum=disabled_military"`
	Surname        string `db:"surname" json:"surname" jsonschema:"required"`
	GivenName      string `db:"given_name" json:"givenName" jsonschema:"required"`
	Gender         string `db:"gender" json:"gender,omitempty" jsonschema:"enum=male,enum=female"`
	Birthday       string `db:"birthday" json:"birthday,omitempty" jsonschema_description:"YYYY-MM-DD"`
	Nationality    string `db:"nationality" json:"nationality,omitempty" jsonschema_description:"ISO 3166-1 alpha-2"`
	DocumentType   string `db:"document_type" json:"documentType" jsonschema:"required,enum=id_card,enum=passport,enum=hk_macao_permit,enum=taiwan_permit"`
	DocumentNumber string `db:"document_number" json:"documentNumber" jsonschema:"required"`
	// SeatLetter asked for on G/D/C trains (A B C D F); empty for any.
	SeatLetter string `db:"seat_letter" json:"seatLetter,omitempty"`
}

// Contact is who the agency reaches about the order.
type Contact struct {
	Name  string `json:"name" jsonschema:"required"`
	Email string `json:"email"`
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
	Passenger   int       `json:"passenger"` // Passenger.ID
	Number      string    `json:"ticketNumber"`
	TrainNumber string    `json:"trainNumber"`
	Origin      string    `json:"origin"`
	Destination string    `json:"destination"`
	DepartAt    time.Time `json:"departAt"`
	// ArriveAt is when this ticket's train arrives (a changed ticket's is
	// another train's); absent on tickets issued before it was kept.
	ArriveAt  *time.Time `json:"arriveAt,omitempty"`
	Class     string     `json:"seatClass"`
	Coach     string     `json:"coach"`
	Seat      string     `json:"seat"`
	Fare      int64      `json:"-"`
	Status    string     `json:"status" jsonschema:"enum=issued,enum=refunded,enum=exchanged"`
	Exchanges int        `json:"exchanges"`
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

// Train is what an order (or a change quote) travels on.
type Train struct {
	Number          string      `json:"trainNumber"`
	Type            string      `json:"trainType"`
	Origin          string      `json:"origin"`
	Destination     string      `json:"destination"`
	DepartAt        time.Time   `json:"departAt"`
	ArriveAt        time.Time   `json:"arriveAt"`
	DurationMinutes int         `json:"durationMinutes"`
	DistanceKm      int         `json:"distanceKm"`
	Stops           []rail.Stop `json:"stops"`
}

func trainOf(o rail.Offer) Train {
	return Train{Number: o.TrainNumber, Type: o.TrainType, Origin: o.Origin, Destination: o.Destination,
		DepartAt: o.DepartAt.UTC(), ArriveAt: o.ArriveAt.UTC(), DurationMinutes: o.DurationMinutes, DistanceKm: o.DistanceKm, Stops: o.Stops}
}

// Order is a train booking as stored.
type Order struct {
	ID            int64
	BookingNumber string
	AgencyID      int64
	UserID        int64
	Status        Status
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

// Event is one line of an order's timeline.
type Event struct {
	ID        int64     `db:"id" json:"id"`
	Action    string    `db:"action" json:"action"`
	From      string    `db:"from_status" json:"from"`
	To        string    `db:"to_status" json:"to"`
	Actor     string    `db:"actor" json:"actor"`
	Remark    string    `db:"remark" json:"remark"`
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
}

// passengerIndex is the supplier's index of a passenger id.
func passengerIndex(id int) int { return id - 1 }
