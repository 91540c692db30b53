// Package train is the train product line: station look-up and search on
// the rail seam (pkg/supplier/rail), booking with a hold from the railway,
// payment through the ledger (entry origin-train) from the wallet or a
// payment gateway, ticketing in the
// background on River (or by the provider's hand in manual mode), refunds
// of some or all passengers with the railway's fee by time band (entry
// refund-train), one change per ticket with the fare difference (entry
// change-train), the order list, counts and detail, and a webhook to the
// agency's train notification URL on every status change.
//
// # The Service's exported API (stable: the portal's train pages use it)
//
// Reading:
//   - Stations(q, lang) []StationView: search by code, name in three
//     languages, pinyin or initials.
//   - StationName(code, lang) string.
//   - SalesWindow() (first, last string): the on-sale dates;
//     BookingConfig() Config: those and the codes a booking form offers.
//   - Search(ctx, who, SearchRequest) (SearchResult, error).
//   - List(ctx, who, Filter) (Page, error); Counts(ctx, who, statuses)
//     ([]StatusCount, error); Get(ctx, who, id) (View, error).
//
// Booking (the agency's):
//   - Create(ctx, who, idempotencyKey, CreateRequest) (View, error).
//   - Pay(ctx, who, id, idempotencyKey, PayRequest) (View, error): from
//     the wallet (channel balance) or a payment gateway (the flight
//     orders' channels; holding until the gateway answers, CheckPayment).
//   - Cancel(ctx, who, id) (View, error): an unpaid order.
//
// After-sales (the agency's):
//   - RefundQuote(ctx, who, id, RefundRequest) (RefundQuoteView, error).
//   - ChangeQuote(ctx, who, id, ChangeRequest) (ChangeQuoteView, error).
//   - Confirm(ctx, who, id) (View, error): confirms the quote waiting.
//   - DropQuote(ctx, who, id) (View, error): drops it.
//
// Provider:
//   - ConfirmTickets(ctx, who, id, ConfirmTicketsRequest) (View, error):
//     manual mode, issue (from the railway or as typed) or fail the
//     tickets of a paid order.
//
// Wiring and background work: New(Options), SetQueue, SetNotifier,
// AddWorkers (for jobs.Config.Register: ticketing, after-sales finishing,
// the sweep of lapsed holds and quotes, the gateway payment check),
// Ticket(ctx, id), CheckPayment(ctx, id) and Sweep(ctx) (what those jobs
// run), DeleteGuard (agency.Service.AddDeleteGuard).
//
// Types the pages use: View (an order: Train embedded, Passengers,
// Tickets []TicketView, Quote *QuoteView, Timeline []Event, Actions,
// HoldExpiresAt), Page, StatusCount, Statuses, Tone(status),
// SearchRequest/SearchResult/OfferView/SeatView, StationView,
// CreateRequest, PayRequest (ChannelBalance), RefundRequest,
// ChangeRequest, ConfirmTicketsRequest, Money/MoneyOf. EventStatus is the
// webhook event name ("train.order.status"), sent to the agency's train
// notification URL with the View as data.
//
// View.Actions lists what the caller may do now (Action values of
// status.go); the status machine is the one table in status.go.
package train

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

// Directory finds stations (a railway's station list; the simulated
// railway's is embedded).
type Directory interface {
	Stations(q string, limit int) []rail.Station
	Station(code string) (rail.Station, bool)
}

// Options are the service's dependencies.
type Options struct {
	booking.Deps
	Supplier rail.Supplier
	Stations Directory
	// Policy is the railway's rules (sales window, refund bands, closing
	// time); rail.ChinaRailway() when nil.
	Policy *rail.Policy
	// Timeout bounds each supplier call; 20 s when zero.
	Timeout time.Duration
}

// Service runs train orders.
type Service struct {
	booking.Core[Order]
	sup      rail.Supplier
	stations Directory
	policy   rail.Policy
	timeout  time.Duration
}

// New returns the train service.
func New(o Options) *Service {
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	p := rail.ChinaRailway()
	if o.Policy != nil {
		p = *o.Policy
	}
	s := &Service{sup: o.Supplier, stations: o.Stations, policy: p,
		timeout: o.Timeout}
	s.Core = booking.NewCore(o.Deps, booking.Books[Order]{Line: booking.Trains, Table: "train_orders",
		Load:     func(ctx context.Context, id int64) (Order, error) { return load(ctx, s.DB, nil, id) },
		NotFound: errNotFound, HasBookings: "train.error.agencyHasOrders"})
	return s
}

// china is the railway's time zone: dates and the sales window are local.
var china = time.FixedZone("CST", 8*3600)

func errState() error { return fault.Conflict("train.error.state") }

// move takes action on o inside tx: checked against the status machine,
// written only if no one moved the order first, logged on the timeline and
// announced to the agency's train notification URL.
func (s *Service) move(ctx context.Context, tx *sqlx.Tx, o *Order, action Action, actor, remark string, tickets bool) error {
	to, ok := Next(o.Status, action)
	if !ok {
		return errState()
	}
	if to == Resume {
		to = o.Resume
		if to == "" {
			to = Issued
		}
	}
	from := o.Status
	o.Status, o.UpdatedAt = to, s.Now().UTC()
	sh := booking.Shift[Status, Action]{ID: o.ID, Action: action, From: from, To: to, Actor: actor, Remark: remark, At: o.UpdatedAt}
	write := func() (bool, error) { return save(ctx, tx, o, from, tickets) }
	if err := booking.Moved(ctx, tx, booking.TrainTimeline, sh, write, errState()); err != nil {
		return err
	}
	return s.NotifyTx(ctx, tx, o.AgencyID, EventStatus, s.view(*o, booking.ByAgency))
}

// EventStatus is the webhook event sent on every status change; it goes to
// the agency's train notification URL.
const EventStatus = "train.order.status"

// viewer is who is looking at the line's orders: the access rule is
// booking's, the same for every line.
type viewer = booking.Viewer

// requestHash is the hash of the request that made o (booking.Replay).
func (o Order) requestHash() string { return o.RequestHash }

// Filter selects orders for List: the filters of every line.
type Filter = booking.Filter

// Page is a page of orders.
type Page = booking.Page[View]

// StatusCount is one status's number of orders.
type StatusCount = booking.StatusCount[Status]

// List is a page of the orders the caller may see.
func (s *Service) List(ctx context.Context, who auth.Principal, f Filter) (Page, error) {
	v, err := s.Books.Viewer(ctx, who)
	if err != nil {
		return Page{}, err
	}
	q, pg, err := v.List(ctx, s.Agencies, f, ValidStatus)
	if err != nil {
		return Page{}, err
	}
	orders, total, err := list(ctx, s.DB, q, f, pg)
	if err != nil {
		return Page{}, err
	}
	return booking.PageOf(pg, total, orders, func(o Order) View { return s.view(o, v.Side(o.AgencyID)) }), nil
}

// Counts answers the number of visible orders per status (every status,
// or those asked for), zeros included, in Statuses order.
func (s *Service) Counts(ctx context.Context, who auth.Principal, statuses []string) ([]StatusCount, error) {
	return booking.Count(ctx, s.Books, who, Statuses, statuses)
}

// Get is one order the caller may see, with its timeline.
func (s *Service) Get(ctx context.Context, who auth.Principal, id int64) (View, error) {
	return booking.Read(ctx, s.Books, who, id, s.detail)
}

func (s *Service) detail(ctx context.Context, o Order, v viewer) (View, error) {
	out := s.view(o, v.Side(o.AgencyID))
	var err error
	if out.Timeline, err = booking.Events[Event](ctx, s.DB, booking.TrainTimeline, o.ID); err != nil {
		return View{}, err
	}
	// The remarks the line wrote are keys: the API and the portal give
	// them in the caller's language.
	for i := range out.Timeline {
		out.Timeline[i].Remark = booking.RemarkText(ctx, out.Timeline[i].Remark, nil)
	}
	if out.Payment, err = s.Payment(ctx, o.ID, v.Side(o.AgencyID), o.Status == Holding); err != nil {
		return View{}, err
	}
	if v.Agency.DisablePayment {
		out.Actions = slices.DeleteFunc(out.Actions, func(a Action) bool { return a == ActPay })
	}
	return out, nil
}

// View is a train order as the API and portal show it: the train, the
// passengers and their tickets, the money, a quote waiting and what the
// caller may do now.
type View struct {
	// ID is the order's id, the {id} of the /order/v2/train/orders/{id}
	// calls.
	ID int64 `json:"id"`
	// BookingNumber is the order's booking number (T, the booking date as
	// YYMMDD and 8 digits), shown to people and named in wallet entries.
	BookingNumber string `json:"bookingNumber"`
	// Status is the order's status.
	Status Status `json:"status"`
	// Tone is the status's display tone: success, warning, primary, error
	// or info.
	Tone string `json:"tone"`
	// AgencyID is the id of the agency that booked the order.
	AgencyID int64 `json:"agencyId"`
	// Supplier is the name of the railway connection that holds the
	// booking.
	Supplier string `json:"supplier"`
	// SupplierRef is the railway's reference of the booking (its order
	// number).
	SupplierRef string `json:"supplierRef"`
	Train
	// SeatClass is the seat class booked; after a change, each ticket's
	// seatClass is its own.
	SeatClass string `json:"seatClass"`
	// Passengers are the order's travellers, numbered by their id.
	Passengers []Passenger `json:"passengers"`
	// Contact is who the agency reaches about the order.
	Contact Contact `json:"contact"`
	// Total is what the order's tickets cost in the railway's currency
	// (after a change, the current fares).
	Total Money `json:"total"`
	// Paid is what the agency has paid for the order: the price, plus the
	// fare differences of changes to dearer trains; zero before payment.
	Paid Money `json:"paid"`
	// Refunded is what has come back to the agency for the order:
	// refunds, the lower fares of changes, or the whole payment when
	// ticketing failed.
	Refunded Money `json:"refunded"`
	// HoldExpiresAt is, while the order is to_be_paid, until when the
	// railway holds its seats: pay before it, or the order is canceled.
	// Absent in other statuses.
	HoldExpiresAt *time.Time `json:"holdExpiresAt,omitempty"`
	// Manual: the provider issues this order's tickets by hand.
	Manual bool `json:"manual"`
	// Tickets: the valid tickets, and those refunded or exchanged.
	Tickets []TicketView `json:"tickets"`
	// Quote is the refund or change quote waiting for the agency's
	// confirmation, present only in rfd_to_be_confirm and
	// chg_to_be_confirm.
	Quote *QuoteView `json:"quote,omitempty"`
	// Timeline is the order's history, oldest first; given with one order
	// (GET /order/v2/train/orders/{id} and the calls that act on it),
	// absent from lists.
	Timeline []Event `json:"timeline,omitempty"`
	// Payment is the channel payment the booking waits for (a QR code to
	// scan, a page to finish), shown to the booking agency; absent when
	// none waits.
	Payment *payment.PendingView `json:"payment,omitempty"`
	// Actions are what the caller may do to the order now: for the
	// booking agency pay, cancel, refund, change, confirm, cancel_refund
	// or cancel_change; for the provider confirm_tickets or fail_tickets.
	Actions []Action `json:"actions"`
	// CreatedAt is when the order was booked, in UTC.
	CreatedAt time.Time `json:"createdAt"`
	// UpdatedAt is when the order last changed, in UTC.
	UpdatedAt time.Time `json:"updatedAt"`
}

// TicketView is one passenger's train ticket: the one valid now, or an
// earlier one refunded or exchanged.
type TicketView struct {
	Ticket
	// PassengerName is the passenger's surname and given name.
	PassengerName string `json:"passengerName"`
	// Fare is what the ticket cost.
	Fare Money `json:"fare"`
}

// QuoteView is the refund or change quote of an order waiting for the
// agency to confirm it (POST /order/v2/train/orders/{id}/confirmation) or
// drop it.
type QuoteView struct {
	// Kind is refund or change.
	Kind string `json:"kind" jsonschema:"enum=refund,enum=change"`
	// Passengers are the ids of the passengers whose tickets the quote
	// refunds or changes.
	Passengers []int `json:"passengers"`
	// RefundAmount is what comes back to the agency on confirmation: a
	// refund's fares less the fee, or a change to a cheaper train's
	// difference less the fee; zero otherwise.
	RefundAmount Money `json:"refundAmount"`
	// Fee is the railway's fee, set by how long before departure it is:
	// on a refund, of the fares refunded; on a change to a cheaper train,
	// of the difference; zero otherwise.
	Fee Money `json:"fee"`
	// Due is what a change to a dearer train costs on confirmation (the
	// fare difference); zero otherwise.
	Due Money `json:"due"`
	// ValidUntil is when the quote lapses: the order goes back to its
	// status before the quote.
	ValidUntil time.Time `json:"validUntil"`
	// Train is a change quote's new train; absent for a refund.
	Train *Train `json:"train,omitempty"`
	// SeatClass is a change quote's new seat class; absent for a refund.
	SeatClass string `json:"seatClass,omitempty"`
}

func (s *Service) view(o Order, party string) View {
	v := View{ID: o.ID, BookingNumber: o.BookingNumber, Status: o.Status, Tone: Tone(o.Status), AgencyID: o.AgencyID,
		Supplier: o.Supplier, SupplierRef: o.SupplierRef, Train: o.Train, SeatClass: o.SeatClass, Passengers: o.Passengers,
		Contact: o.Contact, Total: money.Of(o.Total, o.Currency), Paid: money.Of(o.Paid, o.Currency),
		Refunded: money.Of(o.Refunded, o.Currency), Manual: o.Manual, Tickets: []TicketView{}, Actions: Allowed(o.Status, party),
		CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt}
	if v.Passengers == nil {
		v.Passengers = []Passenger{}
	}
	if v.Actions == nil {
		v.Actions = []Action{}
	}
	if o.Status == ToBePaid && !o.HoldExpiresAt.IsZero() {
		t := o.HoldExpiresAt
		v.HoldExpiresAt = &t
	}
	names := map[int]string{}
	for _, p := range o.Passengers {
		names[p.ID] = strings.TrimSpace(p.Surname + " " + p.GivenName)
	}
	for _, t := range o.Tickets {
		v.Tickets = append(v.Tickets, TicketView{Ticket: t, PassengerName: names[t.Passenger], Fare: money.Of(t.Fare, o.Currency)})
	}
	if q := o.Quote; q != nil && (o.Status == RfdToBeConfirm || o.Status == ChgToBeConfirm) {
		v.Quote = &QuoteView{Kind: q.Kind, Passengers: q.Passengers, RefundAmount: money.Of(q.Refund, o.Currency),
			Fee: money.Of(q.Fee, o.Currency), Due: money.Of(q.Due, o.Currency), ValidUntil: q.ValidUntil, Train: q.Train, SeatClass: q.Class}
	}
	return v
}

// noAccess is the answer to a caller without the train service.
func noAccess() error {
	return fault.New(fault.CodeNoAccess, http.StatusForbidden, "train.error.noAccess")
}
