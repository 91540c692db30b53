package group

// The exported surface of the group service, stable for the portal (branch
// i16-group-portal), the API, the CLI and the TUI. Every method takes the
// caller's auth.Principal; an agency user sees its agency's orders and its
// sub-agencies' (acting only on its own), the provider sees all and acts as
// the provider on other agencies' orders. Errors are fault.Errors (a
// refused passenger list is a *ListError, which unwraps to one, with
// ErrorData for the API's envelope).
//
//	New(Options) *Service; SetQueue, SetNotifier (booking.Core); AddWorkers(*jobs.Workers); DeleteGuard
//	MinGroupSize() int; Channels(ctx, agencyID) ([]string, error)      the request form's minimum, the payment channels
//	Request(ctx, who, key, RequestInput) (View, error)              operator: to_be_quote (Idempotency-Key required)
//	List(ctx, who, Filter) (Page, error)                            Filter.Status "" or "all" or one status; paging
//	Counts(ctx, who) ([]StatusCount, error)                         "all" first, then every status, zeros included
//	Get(ctx, who, id) (View, error)                                 detail: quotes (newest first), installments, list, timeline, ledger, actions
//	Queue(ctx, who, page, size) (Page, error)                       provider: requests waiting for a quote, oldest first
//	Quote(ctx, who, id, QuoteInput) (View, error)                   provider: to_be_confirm (again: history kept)
//	Close(ctx, who, id, CloseInput) (View, error)                   provider: a request it will not quote: closed
//	Accept(ctx, who, id) / Decline(ctx, who, id) (View, error)      agency: the current quote (decline: back to to_be_quote)
//	Template(lang) ([]byte, error)                                  the passenger-list xlsx in en, zh-cn or zh-tw
//	UploadPassengers(ctx, who, id, io.Reader, size) (int, error)    *ListError with row errors, nothing stored; locked after Confirm
//	Passengers(ctx, who, id) ([]Passenger, error)
//	Confirm(ctx, who, id) (View, error)                             agency: to_be_apply_seat
//	Seats(ctx, who, id, SeatsInput) (View, error)                   provider: applying | granted | refused
//	Pay(ctx, who, id, key, PayInput) (View, error)                  agency: the installment due now
//	Cancel(ctx, who, id) (View, error)                              agency: deposits paid are forfeited
//	SweepDeadlines(ctx) (int, error); Remind(ctx) (int, error); Ticket(ctx, id) error   the background side
//
// View.Actions lists what the caller may do now: for the agency accept,
// decline, upload, confirm, pay, cancel; for the provider quote, close,
// apply, grant, refuse.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// Options are the service's dependencies and settings.
type Options struct {
	booking.Deps
	// Suppliers finds a flight source by name; SupplierNames lists them in
	// the order a quote asks them for flights.
	Suppliers     func(name string) (supplier.Supplier, bool)
	SupplierNames func() []string
	// MinGroupSize is the fewest seats (adults and children) a group asks
	// for; 10 when zero.
	MinGroupSize int
	// RemindBefore is how long before a deadline the agency is reminded;
	// 48 hours when zero.
	RemindBefore time.Duration
	// Catalog renders the reminder emails and the list template's headers.
	Catalog *i18n.Catalog
}

// Service runs group orders.
type Service struct {
	booking.Core[Order]
	suppliers     func(string) (supplier.Supplier, bool)
	supplierNames func() []string
	minSize       int
	remindBefore  time.Duration
	catalog       *i18n.Catalog
}

// New returns the group service.
func New(o Options) *Service {
	if o.MinGroupSize <= 0 {
		o.MinGroupSize = 10
	}
	if o.RemindBefore <= 0 {
		o.RemindBefore = 48 * time.Hour
	}
	if o.SupplierNames == nil {
		o.SupplierNames = func() []string { return nil }
	}
	s := &Service{suppliers: o.Suppliers, supplierNames: o.SupplierNames,
		minSize: o.MinGroupSize, remindBefore: o.RemindBefore, catalog: o.Catalog}
	s.Core = booking.NewCore(o.Deps, booking.Books[Order]{Line: booking.Groups, Table: "group_orders",
		Load:     func(ctx context.Context, id int64) (Order, error) { return stored.Load(ctx, s.DB, nil, id) },
		NotFound: errNotFound, HasBookings: "order.error.agencyHasOrders"})
	return s
}

// MinGroupSize is the fewest seats a request may ask for.
func (s *Service) MinGroupSize() int { return s.minSize }

func errState() error { return fault.Conflict("group.error.state") }

// actor is who takes an action, for the timeline and the user log.
type actor struct {
	name   string
	userID int64
}

func actorOf(who auth.Principal) actor {
	a := actor{name: booking.Actor(who)}
	if who.Username != "" {
		a.userID = who.UserID
	}
	return a
}

// SystemActor is the timeline's actor of what no person did: a deadline
// passing, the tickets issued.
const SystemActor = "system"

var system = actor{name: SystemActor}

// move takes action on o inside tx: checked against the status machine
// (stages are the paying stages of the order's quote), written only if no
// one moved the order first, put on the timeline and in the user log, and
// announced to the agency's webhook.
func (s *Service) move(ctx context.Context, tx *sqlx.Tx, o *Order, action Action, by actor, remark string, stages []string) error {
	to, ok := Next(o.Status, action, stages)
	if !ok {
		return errState()
	}
	return s.shift(ctx, tx, o, action, to, by, remark)
}

// shift writes o moved to status to by action (to is o's status for a step
// that keeps it: accept, upload) with the move's conditional write, and
// logs it (logged).
func (s *Service) shift(ctx context.Context, tx *sqlx.Tx, o *Order, action Action, to Status, by actor, remark string) error {
	from := o.Status
	o.Status, o.UpdatedAt = to, s.Now().UTC()
	sh := booking.Shift[Status, Action]{ID: o.ID, Action: action, From: from, To: to, Actor: by.name, Remark: remark, At: o.UpdatedAt}
	write := func() (bool, error) { return saveOrder(ctx, tx, o, from) }
	if err := booking.Moved(ctx, tx, booking.GroupTimeline, sh, write, errState()); err != nil {
		return err
	}
	return s.logged(ctx, tx, o, sh, by)
}

// logged puts a step already on o's timeline in the user log and, when it
// changed the status, on the agency's webhook.
func (s *Service) logged(ctx context.Context, tx *sqlx.Tx, o *Order, sh booking.Shift[Status, Action], by actor) error {
	e := audit.Entry{AgencyID: o.AgencyID, Username: by.name, Action: "group." + string(sh.Action), Target: o.BookingNumber,
		Detail: fmt.Sprintf("%s -> %s", sh.From, sh.To), CreatedAt: sh.At}
	if by.userID != 0 {
		uid := by.userID
		e.UserID = &uid
	}
	if err := audit.Write(ctx, tx, e); err != nil {
		return err
	}
	if sh.From == sh.To {
		return nil
	}
	return s.NotifyTx(ctx, tx, o.AgencyID, "group.status", map[string]any{"id": o.ID, "bookingNumber": o.BookingNumber,
		"action": sh.Action, "fromStatus": sh.From, "status": sh.To, "at": sh.At})
}

// viewer is who is looking at the line's orders: the access rule is
// booking's, the same for every line.
type viewer = booking.Viewer

// may checks that the viewer is the party that takes action on o now.
func may(v viewer, o Order, action Action) error {
	return booking.Step(Party(o.Status, action), v.Side(o.AgencyID), errState())
}

// getFor loads order id for who, who must be able to take action on it now.
func (s *Service) getFor(ctx context.Context, who auth.Principal, id int64, action Action) (Order, viewer, error) {
	return s.Books.For(ctx, who, id, func(o Order) string { return Party(o.Status, action) }, errState())
}

// requestHash is the hash of the request that made o (booking.Replay).
func (o Order) requestHash() string { return o.RequestHash }

// List is a page of the orders the caller sees, newest first.
func (s *Service) List(ctx context.Context, who auth.Principal, f Filter) (Page, error) {
	v, err := s.Books.Viewer(ctx, who)
	if err != nil {
		return Page{}, err
	}
	pg := booking.Pages(f.Page, f.PageSize)
	pg.OldestFirst = f.OldestFirst
	var statuses []string
	switch {
	case f.Status == "" || f.Status == "all":
	case ValidStatus(f.Status):
		statuses = []string{f.Status}
	default:
		return Page{}, fault.Validation(map[string]string{"status": "group.error.status"})
	}
	orders, total, err := listOrders(ctx, s.DB, v.Scope, statuses, pg)
	if err != nil {
		return Page{}, err
	}
	return booking.PageOf(pg, total, orders, func(o Order) View { return s.brief(o, v) }), nil
}

// Queue is the provider's queue: the requests waiting for a quote, oldest
// first.
func (s *Service) Queue(ctx context.Context, who auth.Principal, page, size int) (Page, error) {
	if !who.Subject.IsProvider() {
		return Page{}, fault.Forbidden()
	}
	return s.List(ctx, who, Filter{Status: string(ToBeQuote), Page: page, PageSize: size, OldestFirst: true})
}

// Counts counts the caller's orders per status asked (every status when
// none), after "all", their sum.
func (s *Service) Counts(ctx context.Context, who auth.Principal, asked []string) ([]StatusCount, error) {
	cs, err := booking.Count(ctx, s.Books, who, Statuses, asked)
	if err != nil {
		return nil, err
	}
	out := make([]StatusCount, 1, len(cs)+1)
	for _, c := range cs {
		out = append(out, StatusCount{Status: string(c.Status), Cnt: c.Cnt})
		out[0].Cnt += c.Cnt
	}
	out[0].Status = "all"
	return out, nil
}

// brief is an order as a list shows it: no quotes' history, timeline or
// passenger list.
func (s *Service) brief(o Order, v viewer) View {
	out := View{ID: o.ID, BookingNumber: o.BookingNumber, AgencyID: o.AgencyID, Status: o.Status, Tone: Tone(o.Status), Journeys: o.Journeys,
		IsChangeDate: o.IsChangeDate, AcceptChangeFlight: o.AcceptChangeFlight, Passengers: o.Counts, CabinClass: o.Cabin, Contact: o.Contact,
		Remark: o.Remark, Quotes: []Quote{}, Installments: []Installment{}, PassengerCount: len(o.Passengers), Locked: !o.ConfirmedAt.IsZero(),
		Tickets: o.Tickets, Timeline: []Event{}, Ledger: []LedgerEntry{}, Actions: Allowed(o.Status, v.Side(o.AgencyID)), CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt}
	if out.Tickets == nil {
		out.Tickets = []Ticket{}
	}
	if o.Total > 0 {
		t := money.Of(o.Total, o.Currency)
		out.Total = &t
	}
	if out.Locked {
		out.Actions = slices.DeleteFunc(out.Actions, func(a Action) bool { return a == ActUpload })
	}
	return out
}

// Get is one order with its quotes, installments, passenger list, tickets,
// timeline, ledger entries and the actions the caller may take now.
func (s *Service) Get(ctx context.Context, who auth.Principal, id int64) (View, error) {
	return booking.Read(ctx, s.Books, who, id, s.detail)
}

func (s *Service) detail(ctx context.Context, o Order, v viewer) (View, error) {
	out := s.brief(o, v)
	var err error
	if out.Quotes, err = quotes(ctx, s.DB, o.ID); err != nil {
		return View{}, err
	}
	for i := range out.Quotes {
		out.Quotes[i].Segments = shopping.NamedIn(out.Quotes[i].Segments, i18n.Lang(ctx))
	}
	q, _ := current(out.Quotes)
	out.Actions = slices.DeleteFunc(out.Actions, func(a Action) bool { return !QuoteOffer(a, q.Status) })
	ds, err := deadlines(ctx, s.DB, o.ID)
	if err != nil {
		return View{}, err
	}
	held := slices.ContainsFunc(ds, func(d deadline) bool { return d.Status == InstHolding })
	if out.Payment, err = s.Payment(ctx, o.ID, v.Side(o.AgencyID), held); err != nil {
		return View{}, err
	}
	for _, d := range ds {
		switch d.Kind {
		case KindPassengerList:
			if d.Status == DeadlineOpen {
				t := d.Deadline.UTC()
				out.PassengerListDeadline = &t
			}
		case KindConfirm:
			if d.Status == DeadlineOpen {
				t := d.Deadline.UTC()
				out.ConfirmBefore = &t
			}
		default:
			out.Installments = append(out.Installments, installmentView(d))
		}
	}
	if out.Timeline, err = booking.Events[Event](ctx, s.DB, booking.GroupTimeline, o.ID); err != nil {
		return View{}, err
	}
	// The remarks the line wrote are keys: the API and the portal give
	// them in the caller's language.
	for i := range out.Timeline {
		out.Timeline[i].Remark = RemarkText(ctx, out.Timeline[i].Remark)
	}
	out.PassengerList = o.Passengers
	ts, err := s.Ledger.OrderTransfers(ctx, o.AgencyID, o.BookingNumber)
	if err != nil {
		return View{}, err
	}
	for _, t := range ts {
		out.Ledger = append(out.Ledger, LedgerEntry{ID: t.ID, Type: t.Type, Amount: money.Of(t.Amount, t.Currency), Reference: t.Reference, CreatedAt: t.CreatedAt})
	}
	return out, nil
}

func installmentView(d deadline) Installment {
	in := Installment{ID: d.ID, Stage: d.Kind, Amount: money.Of(d.Amount, d.Currency), Deadline: d.Deadline.UTC(), TimeZone: d.TimeZone,
		Status: d.Status, Channel: d.Channel}
	if in.Status == InstVoid {
		in.Status = InstNotDue
	}
	if d.PaidAt.Valid {
		t := d.PaidAt.Time.UTC()
		in.PaidAt = &t
	}
	return in
}

// stagesOf lists the paying stages of an order's deadlines.
func stagesOf(ds []deadline) []string {
	var out []string
	for _, d := range ds {
		if slices.Contains(Stages, d.Kind) {
			out = append(out, d.Kind)
		}
	}
	return out
}

func trim(s string) string { return strings.TrimSpace(s) }

func upper(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
