// Package flight holds flight orders: booking a verified quote with its
// suppliers, payment through the ledger or a payment gateway, ticketing, the
// post-sale requests (change, refund, void) and their reviews, all moved by
// the one status machine of status.go.
package flight

import (
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// Money is an amount as the API writes it (money.Money).
type Money = money.Money

// Passenger and Contact are the booking core's (a group's passenger list
// has the same travellers).
type (
	Passenger = booking.Passenger
	Contact   = booking.Contact
)

// Invoice types of spec §3.
var InvoiceTypes = []string{"Bill", "Itinerary", "ItineraryWithBill", "None"}

// Prices is the price breakdown of spec §3 in minor units of the order's
// currency. An origin order fills the sale fields; a change order the change
// fields; refund and void orders the refund fields.
type Prices struct {
	TicketPrice    int64  `json:"ticketPrice"`
	FaceValue      int64  `json:"faceValue"`
	Taxes          int64  `json:"taxes"`
	AirportTax     int64  `json:"airportTax"`
	FuelSurcharge  int64  `json:"fuelSurcharge"`
	Discount       int64  `json:"discount"`
	ServiceFee     int64  `json:"serviceFee"`
	SaleTotal      int64  `json:"saleTotal"`
	FareBasis      string `json:"fareBasis"`
	TransactionFee int64  `json:"transactionFee"`
	CostPrice      int64  `json:"costPrice"`
	// Post-sale.
	RefundAmount     int64 `json:"refundAmount"`
	RefundFee        int64 `json:"refundFee"`
	ChangeTicketDiff int64 `json:"changeTicketDiff"`
	ChangeTaxDiff    int64 `json:"changeTaxDiff"`
	ChangeFee        int64 `json:"changeFee"`
}

// Breakdown is Prices as the API shows them.
type Breakdown struct {
	TicketPrice      Money  `json:"ticketPrice"`
	FaceValue        Money  `json:"faceValue"`
	Taxes            Money  `json:"taxes"`
	AirportTax       Money  `json:"airportTax"`
	FuelSurcharge    Money  `json:"fuelSurcharge"`
	Discount         Money  `json:"discount"`
	ServiceFee       Money  `json:"serviceFee"`
	SaleTotal        Money  `json:"saleTotal"`
	FareBasis        string `json:"fareBasis"`
	TransactionFee   Money  `json:"transactionFee"`
	CostPrice        Money  `json:"costPrice"`
	RefundAmount     Money  `json:"refundAmount"`
	RefundFee        Money  `json:"refundFee"`
	ChangeTicketDiff Money  `json:"changeTicketDiff"`
	ChangeTaxDiff    Money  `json:"changeTaxDiff"`
	ChangeFee        Money  `json:"changeFee"`
}

func (p Prices) view(cur string) Breakdown {
	m := func(v int64) Money { return money.Of(v, cur) }
	return Breakdown{TicketPrice: m(p.TicketPrice), FaceValue: m(p.FaceValue), Taxes: m(p.Taxes), AirportTax: m(p.AirportTax),
		FuelSurcharge: m(p.FuelSurcharge), Discount: m(p.Discount), ServiceFee: m(p.ServiceFee), SaleTotal: m(p.SaleTotal),
		FareBasis: p.FareBasis, TransactionFee: m(p.TransactionFee), CostPrice: m(p.CostPrice), RefundAmount: m(p.RefundAmount),
		RefundFee: m(p.RefundFee), ChangeTicketDiff: m(p.ChangeTicketDiff), ChangeTaxDiff: m(p.ChangeTaxDiff), ChangeFee: m(p.ChangeFee)}
}

// Booked is what the order holds of its supplier side: the offers it sold
// (one per ticket) and the bookings made for them.
type Booked struct {
	Offers   []supplier.Offer   `json:"offers"`
	Bookings []supplier.Booking `json:"bookings"`
	// Rate turns the suppliers' amounts into the order's currency: the
	// order's cost price over the offers' total when it was sold.
	CostPrice   int64 `json:"costPrice"`
	SupplierSum int64 `json:"supplierSum"`
}

// PostSale is what a change, refund or void request asked for.
type PostSale struct {
	Reason    int    `json:"reason"`
	SubReason string `json:"subReason,omitempty"`
	Remark    string `json:"remark,omitempty"`
	// OptionID is the change option (from change/search) chosen.
	OptionID string `json:"optionId,omitempty"`
	// Quotes are the supplier quotes the provider accepted, per booking.
	Quotes []supplier.Quote `json:"quotes,omitempty"`
}

// ChangeOption is one way to change an order, found by change/search.
type ChangeOption struct {
	ID       string                 `json:"id"`
	Segments []shopping.SegmentView `json:"segments"`
	// Due is the fare and tax difference; Fee the airline's change fee;
	// ServiceFee the agency's; Total what confirming the change costs.
	Due        Money          `json:"due"`
	Fee        Money          `json:"fee"`
	ServiceFee Money          `json:"serviceFee"`
	Total      Money          `json:"total"`
	ExpiresAt  time.Time      `json:"expiresAt"`
	Quote      supplier.Quote `json:"-"`
}

// ChangeSearch is the latest change search of an order; a new search
// replaces it.
type ChangeSearch struct {
	ID       string                  `json:"id"`
	Journeys []supplier.JourneyQuery `json:"journeys"`
	Options  []ChangeOption          `json:"options"`
	At       time.Time               `json:"at"`
	// Quotes keeps the supplier quotes behind the options (not shown).
	Quotes map[string]supplier.Quote `json:"quotes"`
}

// Order is a flight order.
type Order struct {
	ID             int64
	BookingNumber  string
	AgencyID       int64
	UserID         int64
	Type           string
	OriginalID     int64
	RootID         int64
	Status         Status
	PaymentStatus  string
	PaymentChannel string
	PaymentKey     string
	ReferenceID    string
	PNR            string
	Airline        string
	FlightNumber   string
	TicketNumbers  string
	Origin         string
	Destination    string
	DepartAt       time.Time
	Currency       string
	Total          int64
	Prices         Prices
	Segments       []shopping.SegmentView
	Journeys       []shopping.JourneyView
	Passengers     []Passenger
	Contact        Contact
	Restrictions   supplier.Restrictions
	InvoiceType    string
	Solution       shopping.Solution
	Booked         Booked
	Request        PostSale
	ChangeSearch   ChangeSearch
	Reason         string
	ReviewRemark   string
	Disrupted      bool
	// AwaitingAirline: the supplier accepted the booking and the airline
	// has not confirmed it (a pending supplier.Booking). The order waits in
	// reviewing, no action is allowed on it and nothing can be paid, until
	// FinishPending or the supplier's webhook moves it on.
	AwaitingAirline bool
	IdempotencyKey  string
	RequestHash     string
	PayBy           time.Time
	ConfirmBy       time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
	// content marks a change to the large JSON columns (passengers, the
	// quote and bookings, the request, the change search): only then does a
	// save rewrite them.
	content contentChange
	// ticketDue, set when the order enters proceeding, is written by the
	// save as its first ticketing due time (and its attempts start again
	// from none). ticketAttempts is how often ticketing has claimed it,
	// this claim included.
	ticketDue      time.Time
	ticketAttempts int
	// payer is the span of the request that paid the order, on an order
	// handed to this instance's ticketing: its ticketing joins that trace.
	payer trace.SpanContext
}

// payment is o's payment fields (payment.HeldOrder).
func (o *Order) payment() (channel string, key *string) { return o.PaymentChannel, &o.PaymentKey }

// Payment statuses (spec §4).
const (
	Paid   = "paid"
	Unpaid = "unpaid"
)

// Event is one step of an order's timeline (booking.Event).
type Event = booking.Event

// Proof is a file attached to a post-sale request (its bytes are served
// separately).
type Proof struct {
	ID          int64     `json:"id" db:"id"`
	Name        string    `json:"name" db:"name"`
	ContentType string    `json:"contentType" db:"content_type"`
	Size        int       `json:"size" db:"size"`
	CreatedAt   time.Time `json:"createdAt" db:"created_at"`
}

// View is an order as the API answers it (API.md "Flight order").
type View struct {
	ID             int64                  `json:"id"`
	BookingNumber  string                 `json:"bookingNumber"`
	AgencyID       int64                  `json:"agencyId"`
	Type           string                 `json:"type" jsonschema:"enum=origin,enum=change,enum=refund,enum=void"`
	OriginalID     int64                  `json:"originalId,omitempty"`
	Status         Status                 `json:"status"`
	Tone           string                 `json:"tone"`
	PaymentStatus  string                 `json:"paymentStatus" jsonschema:"enum=paid,enum=unpaid"`
	PaymentChannel string                 `json:"paymentChannel,omitempty"`
	ReferenceID    string                 `json:"referenceId,omitempty"`
	PNR            string                 `json:"pnr"`
	Airline        string                 `json:"airline"`
	FlightNumber   string                 `json:"flightNumber"`
	TicketNumbers  []string               `json:"ticketNumbers"`
	Origin         string                 `json:"origin"`
	Destination    string                 `json:"destination"`
	DepartAt       time.Time              `json:"departAt" jsonschema_description:"the first flight's departure: local time at its airport, with its offset (e.g. +08:00 in Beijing), as the first segment gives it"`
	Segments       []shopping.SegmentView `json:"segments"`
	Journeys       []shopping.JourneyView `json:"journeys"`
	Passengers     []Passenger            `json:"passengers"`
	Contact        Contact                `json:"contact"`
	Restrictions   supplier.Restrictions  `json:"restrictions"`
	Baggage        supplier.Baggage       `json:"baggage"`
	InvoiceType    string                 `json:"invoiceType"`
	Total          Money                  `json:"total"`
	PriceBreakdown Breakdown              `json:"priceBreakdown"`
	Request        *PostSale              `json:"request,omitempty"`
	ReviewRemark   string                 `json:"reviewRemark,omitempty"`
	Disrupted      bool                   `json:"disrupted"`
	// AwaitingAirline: pending at the airline (see Order); no actions.
	AwaitingAirline bool       `json:"awaitingAirline" jsonschema_description:"the airline accepted the booking and has not confirmed it yet: nothing can be done or paid until it does"`
	PayBy           *time.Time `json:"payBy,omitempty" jsonschema_description:"an instant, in UTC"`
	ConfirmBy       *time.Time `json:"confirmBy,omitempty" jsonschema_description:"an instant, in UTC"`
	CreatedAt       time.Time  `json:"createdAt" jsonschema_description:"an instant, in UTC"`
	UpdatedAt       time.Time  `json:"updatedAt" jsonschema_description:"an instant, in UTC"`
	// Actions are what the caller may do now (the agency's actions for an
	// agency user, the provider's for the provider).
	Actions []Action `json:"actions"`
	// Payment is the channel payment the booking waits for (a QR code to
	// scan, a page to finish), shown to the booking agency; absent when
	// none waits.
	Payment *payment.PendingView `json:"payment,omitempty"`
	// Detail only: the timeline, proofs and the related orders.
	Events  []Event `json:"events,omitempty"`
	Proofs  []Proof `json:"proofs,omitempty"`
	Related []Brief `json:"related,omitempty"`
}

// Brief is a related order in a detail view.
type Brief struct {
	ID            int64     `json:"id"`
	BookingNumber string    `json:"bookingNumber"`
	Type          string    `json:"type"`
	Status        Status    `json:"status"`
	Tone          string    `json:"tone"`
	Total         Money     `json:"total"`
	CreatedAt     time.Time `json:"createdAt"`
}

// Page is one page of orders.
type Page = booking.Page[View]

// StatusCount is one entry of the status-count call.
type StatusCount = booking.StatusCount[Status]

// Filter narrows an order list: the filters of every line, and a
// flight's own.
type Filter struct {
	booking.Filter
	// Group is a pending group of spec §4 (to_be_paid, reviewing…).
	Group string
	// Type is origin, change, refund, void or "" / "all".
	Type string
}
