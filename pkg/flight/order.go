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

// Breakdown is an order's price breakdown, in the order's (settlement)
// currency. An origin order fills the sale fields; a change order the
// change fields and serviceFee; refund and void orders the refund fields
// and serviceFee; a field that does not apply is zero.
type Breakdown struct {
	// TicketPrice is the fares of all travellers with the agency's markup
	// (faceValue plus the markup), without taxes.
	TicketPrice Money `json:"ticketPrice"`
	// FaceValue is the fares of all travellers as the suppliers sell them,
	// without taxes.
	FaceValue Money `json:"faceValue"`
	// Taxes are the taxes and surcharges of all travellers.
	Taxes Money `json:"taxes"`
	// AirportTax is the airport tax part of taxes.
	AirportTax Money `json:"airportTax"`
	// FuelSurcharge is the fuel surcharge part of taxes.
	FuelSurcharge Money `json:"fuelSurcharge"`
	// Discount is how far the sale total is below the cost price (a
	// negative markup); zero otherwise.
	Discount Money `json:"discount"`
	// ServiceFee is the agency's service fee of a change, refund or void
	// (set in its flight settings), included in the request order's total.
	ServiceFee Money `json:"serviceFee"`
	// SaleTotal is what the agency pays for the booking: ticketPrice plus
	// taxes, less any discount; the origin order's total.
	SaleTotal Money `json:"saleTotal"`
	// FareBasis is the fare basis codes of the flights, "/" between
	// several.
	FareBasis string `json:"fareBasis"`
	// TransactionFee is the payment channel's fee on the order's payment,
	// once paid through a channel; it is the provider's cost, not added to
	// the total.
	TransactionFee Money `json:"transactionFee"`
	// CostPrice is the suppliers' price of all travellers, fares and
	// taxes, before the agency's markup.
	CostPrice Money `json:"costPrice"`
	// RefundAmount is what a refund or void gives back to the agency's
	// wallet: the refund less the agency's service fee (the refund
	// order's total).
	RefundAmount Money `json:"refundAmount"`
	// RefundFee is the airline's refund fee, already kept out of what the
	// airline refunds.
	RefundFee Money `json:"refundFee"`
	// ChangeTicketDiff is the fare and tax difference a change costs.
	ChangeTicketDiff Money `json:"changeTicketDiff"`
	// ChangeTaxDiff is the tax part of a change's difference, when quoted
	// apart; zero when changeTicketDiff holds the whole difference.
	ChangeTaxDiff Money `json:"changeTaxDiff"`
	// ChangeFee is the airline's change fee; a change order's total is
	// changeTicketDiff plus changeFee plus serviceFee.
	ChangeFee Money `json:"changeFee"`
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

// Requested is a change, refund or void request as the order keeps it:
// what the agency asked for and the suppliers' quotes it is carried out
// against. A caller reads it as a PostSale, which keeps the suppliers'
// own figures for the provider.
type Requested struct {
	Reason    int    `json:"reason"`
	SubReason string `json:"subReason,omitempty"`
	Remark    string `json:"remark,omitempty"`
	OptionID  string `json:"optionId,omitempty"`
	// Quotes are the suppliers' quotes, one per booking; empty until the
	// request is quoted.
	Quotes []supplier.Quote `json:"quotes,omitempty"`
}

// PostSale is what a change, refund or void request asked for.
type PostSale struct {
	// Reason is why the request was made: 0 voluntary, 1 schedule change
	// or cancellation by the airline, 2 illness, 3 visa or entry refused,
	// 4 duplicate booking, 5 name or document error, 6 bereavement, 7
	// other; a change takes 0, 1 or 7.
	Reason int `json:"reason"`
	// SubReason details reasons 2 and 6 (passenger, companion or family)
	// and 3 (visa-refused, entry-denied); absent otherwise.
	SubReason string `json:"subReason,omitempty"`
	// Remark is the agency's note on the request.
	Remark string `json:"remark,omitempty"`
	// OptionID is the id of the change option chosen from the order's
	// change search (POST /order/v2/flight/orders/{id}/change/search);
	// absent when the change request named none.
	OptionID string `json:"optionId,omitempty"`
	// Quotes are the terms of the suppliers' quotes, one per booking, that
	// the agency reads: where the airline sends the refund and what it
	// returns as credit; absent until the request is quoted. The amounts
	// are the order's total and price breakdown, in the order's currency.
	Quotes []QuoteTerms `json:"quotes,omitempty"`
	// SupplierQuotes are the suppliers' own quotes the request is carried
	// out against, one per booking, with their amounts in minor units of
	// the quote's currency: the provider's net figures, so only in the
	// provider's answer.
	SupplierQuotes []supplier.Quote `json:"supplierQuotes,omitempty"`
}

// QuoteTerms is what one supplier quote behind a request tells the agency
// beyond the order's amounts.
type QuoteTerms struct {
	// RefundTo is where the airline sends the refund: original_payment
	// (back to what paid), balance (the balance with the airline's
	// supplier), card, voucher or airline_credits, or nothing (nothing was
	// paid); absent: back as paid.
	RefundTo string `json:"refundTo,omitempty"`
	// Credit is the value returned as a voucher or airline credit instead
	// of money, in the airline's currency; absent when none.
	Credit *Money `json:"credit,omitempty"`
	// RefundUnknown: the airline gave no refund quote, so what comes back
	// is not known yet.
	RefundUnknown bool `json:"refundUnknown,omitempty"`
}

// Answer is the request as party (booking.ByProvider, booking.ByAgency or
// "" for a viewer who only looks) may read it.
func (r Requested) Answer(party string) *PostSale {
	out := &PostSale{Reason: r.Reason, SubReason: r.SubReason, Remark: r.Remark, OptionID: r.OptionID}
	for _, q := range r.Quotes {
		t := QuoteTerms{RefundTo: q.RefundTo, RefundUnknown: q.RefundUnknown}
		if q.Credit > 0 {
			c := money.Of(q.Credit, q.Currency)
			t.Credit = &c
		}
		out.Quotes = append(out.Quotes, t)
	}
	if party == booking.ByProvider {
		out.SupplierQuotes = r.Quotes
	}
	return out
}

// ChangeOption is one way to change an order, found by a change search.
type ChangeOption struct {
	// ID identifies the option: pass it as optionId with POST
	// /order/v2/flight/orders/{id}/change.
	ID string `json:"id"`
	// Segments are the flights the trip would fly after the change.
	Segments []shopping.SegmentView `json:"segments"`
	// Due is the fare and tax difference, in the order's currency.
	Due Money `json:"due"`
	// Fee is the airline's change fee.
	Fee Money `json:"fee"`
	// ServiceFee is the agency's change service fee.
	ServiceFee Money `json:"serviceFee"`
	// Total is what confirming the change costs: due plus fee plus
	// serviceFee.
	Total Money `json:"total"`
	// ExpiresAt is until when the option may be chosen (RFC 3339).
	ExpiresAt time.Time `json:"expiresAt"`
}

// ChangeSearch is the latest search for ways to change an order; a new
// search replaces it.
type ChangeSearch struct {
	// ID identifies the search.
	ID string `json:"id"`
	// Journeys are the journeys searched, with the order's own airports
	// where the request left them out.
	Journeys []supplier.JourneyQuery `json:"journeys"`
	// Options are the ways found to change the order; empty when the
	// supplier offers none.
	Options []ChangeOption `json:"options"`
	// At is when the search was made (RFC 3339, UTC).
	At time.Time `json:"at"`
}

// savedSearch is a change search as the order keeps it: with the
// supplier's quote behind each option, by option id, which a change
// request is carried out against and the agency never reads.
type savedSearch struct {
	ChangeSearch
	Quotes map[string]supplier.Quote `json:"quotes"`
}

// Order is a flight order.
type Order struct {
	booking.Head
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
	Request        Requested
	ChangeSearch   savedSearch
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
// separately, by GET /order/v2/flight/orders/{id}/proofs/{proof}).
type Proof struct {
	// ID identifies the file: the {proof} of its download.
	ID int64 `json:"id" db:"id"`
	// Name is the file's name as uploaded ("proof" when it had none).
	Name string `json:"name" db:"name"`
	// ContentType is the file's type, judged from its bytes: image/jpeg,
	// image/png or application/pdf.
	ContentType string `json:"contentType" db:"content_type"`
	// Size is the file's size in bytes (at most 2 MB).
	Size int `json:"size" db:"size"`
	// CreatedAt is when the file was uploaded (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt" db:"created_at"`
}

// View is a flight order as the API answers it: an origin order (the
// booking) or a change, refund or void request made against one. See
// API.md "Flight order".
type View struct {
	// ID identifies the order in the paths /order/v2/flight/orders/{id}.
	ID int64 `json:"id"`
	// BookingNumber is the order's number as people quote it: F, the
	// creation date (YYMMDD) and eight digits, e.g. F26112500000042.
	BookingNumber string `json:"bookingNumber"`
	// AgencyID is the agency that booked the order.
	AgencyID int64 `json:"agencyId"`
	// Type is origin for a booking, or change, refund or void for a
	// request made against an issued order (originalId).
	Type string `json:"type" jsonschema:"enum=origin,enum=change,enum=refund,enum=void"`
	// OriginalID is the id of the order a change, refund or void request
	// is about; absent for an origin order.
	OriginalID int64 `json:"originalId,omitempty"`
	// Status is where the order is in its life; actions says what may be
	// done now.
	Status Status `json:"status"`
	// Tone is how the portal colours the status: success, warning,
	// primary, error or info.
	Tone string `json:"tone"`
	// PaymentStatus is paid once the order's price has been taken, else
	// unpaid.
	PaymentStatus string `json:"paymentStatus" jsonschema:"enum=paid,enum=unpaid"`
	// PaymentChannel is the channel the order was paid (or is being paid)
	// through: balance for the wallet, or a gateway channel; absent before
	// payment.
	PaymentChannel string `json:"paymentChannel,omitempty"`
	// ReferenceID is the suppliers' reference of the booking, "/" between
	// several tickets; absent when the suppliers gave none.
	ReferenceID string `json:"referenceId,omitempty"`
	// PNR is the airline booking code, "/" between several tickets.
	PNR string `json:"pnr"`
	// Airline is the IATA code of the first flight's carrier.
	Airline string `json:"airline"`
	// FlightNumber is the flight numbers in order, "/" between them.
	FlightNumber string `json:"flightNumber"`
	// TicketNumbers are the e-ticket numbers once issued (each passenger's
	// are also on the passenger); empty before.
	TicketNumbers []string `json:"ticketNumbers"`
	// Origin is the IATA code of the first journey's departure airport.
	Origin string `json:"origin"`
	// Destination is the IATA code of the first journey's arrival airport.
	Destination string    `json:"destination"`
	DepartAt    time.Time `json:"departAt" jsonschema_description:"the first flight's departure: local time at its airport, with its offset (e.g. +08:00 in Beijing), as the first segment gives it"`
	// Segments are the order's flights in the order flown (for a change
	// request with a chosen option, the new flights).
	Segments []shopping.SegmentView `json:"segments"`
	// Journeys are the order's journeys, each with the indexes of its
	// flights in segments; null for a change request with a chosen
	// option.
	Journeys []shopping.JourneyView `json:"journeys"`
	// Passengers are the travellers, with their ticket numbers once
	// issued.
	Passengers []Passenger `json:"passengers"`
	// Contact is who the airline and the provider contact about the
	// booking.
	Contact Contact `json:"contact"`
	// Restrictions are who may travel on the fare booked.
	Restrictions supplier.Restrictions `json:"restrictions"`
	// Baggage is the allowance per traveller of the fare booked.
	Baggage supplier.Baggage `json:"baggage"`
	// InvoiceType is the invoice document asked for at booking: Bill,
	// Itinerary, ItineraryWithBill or None.
	InvoiceType string `json:"invoiceType"`
	// Total is what the order costs the agency: for an origin order the
	// sale total, for a change what confirming it costs, for a refund or
	// void what comes back to the wallet (zero until quoted).
	Total Money `json:"total"`
	// PriceBreakdown is the total's parts.
	PriceBreakdown Breakdown `json:"priceBreakdown"`
	// Request is what a change, refund or void request asked for; absent
	// for an origin order.
	Request *PostSale `json:"request,omitempty"`
	// ReviewRemark is the provider's remark from its last review of the
	// order; absent when none.
	ReviewRemark string `json:"reviewRemark,omitempty"`
	// Disrupted is true once the provider has recorded a schedule change
	// against the order (see GET /order/v2/flight/disruptions).
	Disrupted bool `json:"disrupted"`
	// AwaitingAirline: pending at the airline (see Order); no actions.
	AwaitingAirline bool       `json:"awaitingAirline" jsonschema_description:"the airline accepted the booking and has not confirmed it yet: nothing can be done or paid until it does"`
	PayBy           *time.Time `json:"payBy,omitempty" jsonschema_description:"an instant, in UTC"`
	ConfirmBy       *time.Time `json:"confirmBy,omitempty" jsonschema_description:"an instant, in UTC"`
	CreatedAt       time.Time  `json:"createdAt" jsonschema_description:"an instant, in UTC"`
	UpdatedAt       time.Time  `json:"updatedAt" jsonschema_description:"an instant, in UTC"`
	// Actions are what the caller may do now (the agency's actions for an
	// agency user, the provider's for the provider): for the agency pay,
	// cancel, cancel_change, cancel_refund, cancel_void, confirm, change,
	// refund or void; for the provider approve, reject, quote, issue,
	// resolve_ok or resolve_failed. Empty while the airline has not
	// confirmed the booking.
	Actions []Action `json:"actions"`
	// Payment is the channel payment the booking waits for (a QR code to
	// scan, a page to finish), shown to the booking agency; absent when
	// none waits.
	Payment *payment.PendingView `json:"payment,omitempty"`
	// Events are the order's timeline, oldest first; only in the answer
	// about one order.
	Events []Event `json:"events,omitempty"`
	// Proofs are the files attached to a post-sale request; only in the
	// answer about one order, absent when there are none.
	Proofs []Proof `json:"proofs,omitempty"`
	// Related are the other orders of the same trip (the origin order and
	// the requests made against it); only in the answer about one order.
	Related []Brief `json:"related,omitempty"`
}

// Brief is another order of the same trip, as an order's detail lists it.
type Brief struct {
	// ID identifies the order in /order/v2/flight/orders/{id}.
	ID int64 `json:"id"`
	// BookingNumber is the order's booking number.
	BookingNumber string `json:"bookingNumber"`
	// Type is origin, change, refund or void.
	Type string `json:"type"`
	// Status is the order's status.
	Status Status `json:"status"`
	// Tone is how the portal colours the status: success, warning,
	// primary, error or info.
	Tone string `json:"tone"`
	// Total is the order's total (see the order's total).
	Total Money `json:"total"`
	// CreatedAt is when the order was made (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt"`
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
