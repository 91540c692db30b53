package flight

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/recent"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
)

// Notifier sends an agency's webhook events, queued in the transaction that
// makes them true; the flight line also asks whether an event would go.
type Notifier interface {
	booking.Notifier
	// Subscribed reports whether NotifyTx would deliver event to the
	// agency now.
	Subscribed(ctx context.Context, agencyID int64, event string) (bool, error)
}

// Looks counts look-to-book.
type Looks interface {
	CountLookTx(ctx context.Context, tx *sqlx.Tx, agencyID int64, counter string) error
	// LookItem is the count as a WITH item with its parameters, for a
	// statement that writes what it counts.
	LookItem(agencyID int64, counter string) (item string, args []any, err error)
}

// Options are the service's dependencies.
type Options struct {
	booking.Deps
	Quotes    *shopping.Quotes
	Looks     Looks
	Suppliers func(name string) (supplier.Supplier, bool)
	// CallTimeout bounds every supplier call of the service (see bounded);
	// zero is supplierCallTimeout.
	CallTimeout time.Duration
	// Tracer makes the ticketing's spans; nil makes none.
	Tracer trace.Tracer
}

// Service runs flight orders.
type Service struct {
	booking.Core[Order]
	quotes    *shopping.Quotes
	looks     Looks
	suppliers func(string) (supplier.Supplier, bool)
	tracer    trace.Tracer
	// payers are the spans of the requests and jobs that paid orders on
	// this instance, until its ticketing claims them (wakeTicketing).
	payers *recent.Map[int64, trace.SpanContext]
	// subscribed is the notifier's Subscribed (nil: no webhooks).
	subscribed func(ctx context.Context, agencyID int64, event string) (bool, error)
	// wake tells this instance's ticketing that an order became due.
	wake chan struct{}
	// fresh are the orders this instance just booked, for their payment
	// (fresh.go).
	fresh *recent.Map[int64, Order]
	// handed are orders paid here, claimed by their payer for this
	// instance's ticketing while it runs (ticketing); see handOff.
	handed    chan Order
	ticketing atomic.Bool
}

// New returns the order service.
func New(o Options) *Service {
	if o.CallTimeout <= 0 {
		o.CallTimeout = supplierCallTimeout
	}
	suppliers := func(name string) (supplier.Supplier, bool) {
		sup, ok := o.Suppliers(name)
		if !ok {
			return nil, false
		}
		return bounded{sup, o.CallTimeout}, true
	}
	tracer := o.Tracer
	if tracer == nil {
		tracer = noop.NewTracerProvider().Tracer("")
	}
	s := &Service{quotes: o.Quotes, looks: o.Looks, suppliers: suppliers, tracer: tracer,
		wake:  make(chan struct{}, 1),
		fresh: recent.New[int64, Order](maxFresh), handed: make(chan Order, ticketHandOffs),
		payers: recent.New[int64, trace.SpanContext](ticketHandOffs * 4)}
	s.Core = booking.NewCore(o.Deps, booking.Books[Order]{Line: booking.Flights, Table: "flight_orders",
		Load:     func(ctx context.Context, id int64) (Order, error) { return stored.Load(ctx, s.DB, nil, id) },
		NotFound: errNotFound, HasBookings: "order.error.agencyHasOrders"})
	return s
}

// SetNotifier sets where webhook events go, and whom it would send them to
// (announces).
func (s *Service) SetNotifier(n Notifier) {
	s.Core.SetNotifier(n)
	s.subscribed = n.Subscribed
}

func errState() error { return fault.Conflict("order.error.state") }

// getFor loads order id for who, who must be able to take action on it now.
func (s *Service) getFor(ctx context.Context, who auth.Principal, id int64, action Action) (Order, viewer, error) {
	o, v, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return o, v, err
	}
	if o.AwaitingAirline {
		return o, v, errAwaiting()
	}
	return o, v, booking.Step(Party(o.Type, o.Status, action), v.Side(o.AgencyID), errState())
}

// move takes action on o inside tx: checked against the status machine,
// written only if no one moved the order first, logged on the timeline and
// announced to the agency's webhook.
func (s *Service) move(ctx context.Context, tx *sqlx.Tx, o *Order, action Action, actor, remark string) error {
	from, err := s.moving(o, action)
	if err != nil {
		return err
	}
	saved, err := saveMoved(ctx, s.DB, tx, o, from, action, actor, remark)
	if err != nil {
		return err
	}
	if !saved {
		return errState()
	}
	return s.announce(ctx, tx, o)
}

// insertNew saves a new order with its timeline entry, its webhook event and
// its booking count, all or none. On PostgreSQL, when there is no event to
// deliver, that is one statement committed as it runs (insertCreatedWith)
// instead of BEGIN, the order, the count and COMMIT, and quiet says so:
// its moves have no event to deliver either.
func (s *Service) insertNew(ctx context.Context, o *Order, actor, remark string) (quiet bool, err error) {
	notify, err := s.announces(ctx, o)
	if err != nil {
		return false, err
	}
	// An order pending at the airline commits with its status check, so
	// it is never left with nothing to finish it.
	if s.DB.Dialect == store.Postgres && !notify && s.looks != nil && !o.AwaitingAirline {
		item, args, err := s.looks.LookItem(o.AgencyID, "bookings")
		if err != nil {
			return false, err
		}
		// The booking's key lets go with its order: a replay let in by
		// this commit finds the order.
		release, releaseArgs, held := idempotency.ReleaseItem(ctx)
		if held {
			item, args = item+", "+release, append(args, releaseArgs...)
		}
		if err := insertCreatedWith(ctx, s.DB, o, actor, remark, item, args...); err != nil {
			return false, err
		}
		if held {
			idempotency.Released(ctx)
		}
		return true, nil
	}
	return false, s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := insertCreated(ctx, s.DB, tx, o, actor, remark); err != nil {
			return err
		}
		if err := s.announce(ctx, tx, o); err != nil {
			return err
		}
		if o.AwaitingAirline {
			if err := s.Enqueue(ctx, tx, FinishArgs{OrderID: o.ID}, s.Now().Add(finishFirst)); err != nil {
				return err
			}
		}
		if s.looks == nil {
			return nil
		}
		// In the transaction: the booking count commits with its order.
		return s.looks.CountLookTx(ctx, tx, o.AgencyID, "bookings")
	})
}

// moving takes action on o in memory, checked against the status machine,
// and answers the status it left: what saving it is conditional on.
func (s *Service) moving(o *Order, action Action) (Status, error) {
	if o.AwaitingAirline {
		// Nothing to cancel, approve or pay until the airline answers.
		return "", errAwaiting()
	}
	to, ok := Next(o.Type, o.Status, action)
	if !ok {
		return "", errState()
	}
	from := o.Status
	o.Status, o.UpdatedAt = to, s.Now().UTC()
	if to == Proceeding {
		// Paid (or issued on account): ticketing finds it from now on,
		// its attempts starting again from none.
		o.ticketDue, o.ticketAttempts = o.UpdatedAt, 0
	}
	return from, nil
}

// touch writes o's fields without a status change (same conditional write).
func (s *Service) touch(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	o.UpdatedAt = s.Now().UTC()
	saved, err := save(ctx, s.DB, tx, o, o.Status)
	if err != nil {
		return err
	}
	if !saved {
		return errState()
	}
	return nil
}

func (s *Service) announce(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	return s.NotifyTx(ctx, tx, o.AgencyID, statusEvent(o), s.view(*o, booking.ByAgency))
}

// statusEvent is the webhook event of o's status changes.
func statusEvent(o *Order) string {
	if o.Type == TypeChange {
		return "change.status"
	}
	return "order.status"
}

// announces reports whether a move of o has an event to deliver: when not,
// the move needs no transaction of its own for it.
func (s *Service) announces(ctx context.Context, o *Order) (bool, error) {
	if s.subscribed == nil {
		return false, nil
	}
	return s.subscribed(ctx, o.AgencyID, statusEvent(o))
}

// viewer is who is looking at the line's orders: the access rule is
// booking's, the same for every line.
type viewer = booking.Viewer

// pendingNumber holds the booking number's place until insert knows the id.
func pendingNumber() string {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return "pending-" + n.String()
}

// requestHash is the hash of the request that made o (booking.Replay).
func (o Order) requestHash() string { return o.RequestHash }

func parseMinor(s, currency string) int64 {
	a, err := money.Parse(s, currency)
	if err != nil {
		return 0
	}
	return a.Minor
}

// serviceFee is the agency's post-sale service fee of kind in the order's
// currency (the settings are in the settlement currency, CNY when unset).
func (s *Service) serviceFee(ctx context.Context, agencyID int64, kind, currency string) (int64, error) {
	a, err := s.Agencies.Get(ctx, agencyID)
	if err != nil {
		return 0, err
	}
	fees := a.Config().Flight.ServiceFees
	v := map[string]string{TypeChange: fees.Change, TypeRefund: fees.Refund, TypeVoid: fees.Void}[kind]
	return parseMinor(v, currency), nil
}

// toOrderCurrency turns a supplier amount into the order's currency at the
// rate the order was sold at, rounding up as the spec's conversions do.
func toOrderCurrency(o Order, amount int64) int64 {
	if o.Booked.SupplierSum <= 0 || o.Booked.CostPrice <= 0 {
		return amount
	}
	n := new(big.Int).Mul(big.NewInt(amount), big.NewInt(o.Booked.CostPrice))
	q, r := new(big.Int).QuoRem(n, big.NewInt(o.Booked.SupplierSum), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

// Create books a verified quote with its suppliers and stores the order,
// once per idempotency key: a replay answers the order the first call made.
func (s *Service) Create(ctx context.Context, who auth.Principal, key string, req CreateRequest) (_ View, err error) {
	defer s.CountBooked(&err)
	v, err := s.Books.Booker(ctx, who, key)
	if err != nil {
		return View{}, err
	}
	for i := range req.Passengers {
		req.Passengers[i] = req.Passengers[i].Normalize()
	}
	req.Contact = Contact{Name: strings.TrimSpace(req.Contact.Name), Email: strings.TrimSpace(req.Contact.Email), Phone: strings.TrimSpace(req.Contact.Phone)}
	hash := booking.RequestHash(req)
	// replay answers the order an earlier call with the key made.
	replay := func() (View, bool, error) {
		return booking.Replay(func() (Order, bool, error) { return stored.ByKey(ctx, s.DB, who.AgencyID, key) }, hash, Order.requestHash,
			func(prior Order) (View, error) { return s.view(prior, v.Side(prior.AgencyID)), nil })
	}
	if out, found, err := replay(); found || err != nil {
		return out, err
	}

	qt, err := s.quote(ctx, who, req)
	if err != nil {
		return View{}, err
	}
	currency := v.Agency.SettlementCurrency
	if currency == "" {
		currency = "CNY"
	}
	if currency != qt.Currency {
		return View{}, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "agencyManager.config.common.settlementCurrency.change")
	}
	// In whole microseconds, as the store keeps them: the order this
	// instance keeps for its payment (fresh) is the order as stored.
	now := s.Now().UTC().Truncate(time.Microsecond)
	errs := validatePassengers(req.Passengers, qt.Passengers, qt.Solution, booking.Today(now, v.Agency))
	validateContact(req.Contact, errs)
	if req.InvoiceType == "" {
		req.InvoiceType = "None"
	}
	if !slices.Contains(InvoiceTypes, req.InvoiceType) {
		errs["invoiceType"] = "order.error.invoiceType"
	}
	if len([]rune(req.Remark)) > 500 {
		errs["remark"] = "error.field.tooLong"
	}
	if len(errs) > 0 {
		return View{}, fault.Validation(errs)
	}

	o := s.newOrder(qt, req, who, now)
	o.IdempotencyKey, o.RequestHash = key, hash
	bookings, err := s.book(ctx, qt, req, key)
	if err != nil {
		return View{}, err
	}
	o.Booked.Bookings = bookings
	var pnrs, refs []string
	for _, b := range bookings {
		pnrs = append(pnrs, b.PNR)
		refs = append(refs, b.Ref)
	}
	o.PNR, o.ReferenceID = strings.Join(pnrs, "/"), strings.Join(refs, "/")
	switch {
	case pending(bookings):
		// Accepted, not confirmed: not a booking the agency can pay for
		// yet, and not a failure to book again after. It waits for the
		// airline (FinishPending, the supplier's webhook).
		o.Status, o.AwaitingAirline = Reviewing, true
	case strings.HasPrefix(qt.Solution.TicketingSpeed, "special"):
		// Special fares are ticketed by hand: the provider checks them first.
		o.Status = Reviewing
	case v.Agency.DisablePayment:
		o.Status = Reserved
	default:
		o.Status = ToBePaid
	}
	// No job waits on PayBy: the deadline sweep closes the order once it
	// passes, which spares every booking a River insert.
	quiet, err := s.insertNew(ctx, &o, booking.Actor(who), req.Remark)
	if err != nil {
		s.cancelBookings(context.WithoutCancel(ctx), bookings)
		if store.IsUniqueViolation(err) {
			// The same key raced us and won: answer its order.
			if out, found, rerr := replay(); found || rerr != nil {
				return out, rerr
			}
		}
		return View{}, err
	}
	// Kept only for a payment that can be its one statement: a move with
	// an event to deliver reads the order in its transaction anyway.
	if o.Status == ToBePaid && quiet {
		s.fresh.Put(o.ID, asStored(o))
	}
	return s.view(o, booking.ByAgency), nil
}

// quote finds the verified quote the request books.
func (s *Service) quote(ctx context.Context, who auth.Principal, req CreateRequest) (shopping.Quote, error) {
	var qt shopping.Quote
	var err error
	switch {
	case req.QuoteID != "":
		qt, err = s.quotes.Get(ctx, req.QuoteID)
	case req.SolutionID != "":
		qt, err = s.quotes.Latest(ctx, who.AgencyID, req.SolutionID)
	default:
		return qt, fault.Validation(map[string]string{"quoteId": "order.error.quoteRequired"})
	}
	if errors.Is(err, shopping.ErrNoQuote) || err == nil && qt.AgencyID != who.AgencyID {
		return qt, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "order.error.quoteExpired")
	}
	if err != nil {
		return qt, err
	}
	if qt.Status == supplier.PriceInvalid || len(qt.Offers) == 0 {
		return qt, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "order.error.quoteInvalid")
	}
	if !s.Now().Before(qt.ExpiresAt) {
		return qt, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "order.error.quoteExpired")
	}
	return qt, nil
}

// newOrder builds the origin order of a quote with the price breakdown of
// spec §3 in the quote's (settlement) currency.
func (s *Service) newOrder(qt shopping.Quote, req CreateRequest, who auth.Principal, now time.Time) Order {
	sol := qt.Solution
	cur := qt.Currency
	var p Prices
	var sale int64
	for _, pp := range sol.PriceDetail.PriceList {
		n := int64(pp.Count)
		p.FaceValue += n * parseMinor(pp.Fare, cur)
		p.Taxes += n * parseMinor(pp.Taxes, cur)
		p.CostPrice += n * parseMinor(pp.Price, cur)
		sale += n * parseMinor(pp.SalePrice, cur)
	}
	total := parseMinor(sol.Total.Amount, cur)
	if total == 0 {
		total = sale
	}
	markup := total - p.CostPrice
	p.TicketPrice = p.FaceValue
	if markup >= 0 {
		p.TicketPrice += markup
	} else {
		p.Discount = -markup
	}
	p.SaleTotal = total
	// Airport tax and fuel surcharge are parts of the taxes, known in the
	// suppliers' currency: shown in the same proportion.
	var supTaxes, airport, fuel, supSum int64
	var bases []string
	for _, off := range qt.Offers {
		supSum += off.Total()
		for _, f := range off.Fares {
			n := int64(f.Count)
			supTaxes += n * f.Taxes
			airport += n * f.AirportTax
			fuel += n * f.FuelSurcharge
		}
		for _, seg := range off.Segments {
			if seg.FareBasis != "" && !slices.Contains(bases, seg.FareBasis) {
				bases = append(bases, seg.FareBasis)
			}
		}
	}
	if supTaxes > 0 {
		p.AirportTax = p.Taxes * airport / supTaxes
		p.FuelSurcharge = p.Taxes * fuel / supTaxes
	}
	p.FareBasis = strings.Join(bases, "/")
	o := Order{Head: booking.Head{BookingNumber: pendingNumber(), AgencyID: who.AgencyID, UserID: who.UserID}, Type: TypeOrigin,
		PaymentStatus: Unpaid, Currency: cur, Total: total, Prices: p, Segments: sol.Segments, Journeys: sol.Journeys,
		Passengers: req.Passengers, Contact: req.Contact, Restrictions: sol.Restrictions, InvoiceType: req.InvoiceType,
		Solution: sol, Booked: Booked{Offers: qt.Offers, CostPrice: p.CostPrice, SupplierSum: supSum},
		// In whole microseconds, as the store keeps them: the create answer
		// and every read of the order give the same deadline.
		PayBy: qt.ExpiresAt.UTC().Truncate(time.Microsecond), CreatedAt: now, UpdatedAt: now}
	var flights []string
	for _, seg := range sol.Segments {
		flights = append(flights, seg.FlightNumber)
	}
	o.FlightNumber = strings.Join(flights, "/")
	if len(sol.Segments) > 0 {
		o.Airline = sol.Segments[0].Carrier
		o.DepartAt = sol.Segments[0].DepartAt
	}
	if len(sol.Journeys) > 0 {
		o.Origin, o.Destination = sol.Journeys[0].Origin, sol.Journeys[0].Destination
	}
	return o
}

func travellers(ps []Passenger) []supplier.Traveller {
	out := make([]supplier.Traveller, len(ps))
	for i, p := range ps {
		out[i] = supplier.Traveller{Type: p.Type, Surname: p.Surname, GivenName: p.GivenName, Gender: p.Gender, Birthday: p.Birthday,
			Nationality: p.Nationality, DocumentType: p.DocumentType, DocumentNumber: p.DocumentNumber, DocumentExpiry: p.DocumentExpiry,
			Email: p.Email, Phone: p.Phone, FrequentFlyer: p.FrequentFlyer, FFAirline: p.FFAirline}
	}
	return out
}

// book makes one booking per ticket of the quote. When a later ticket fails
// the earlier bookings are cancelled: nothing is held and nothing charged.
func (s *Service) book(ctx context.Context, qt shopping.Quote, req CreateRequest, key string) ([]supplier.Booking, error) {
	var done []supplier.Booking
	for i, off := range qt.Offers {
		sup, ok := s.suppliers(off.Supplier)
		var b supplier.Booking
		err := supplier.ErrUnavailable
		if ok {
			b, err = sup.Book(ctx, supplier.BookRequest{Offer: off, Travellers: travellers(req.Passengers),
				Contact: supplier.Contact(req.Contact), Key: fmt.Sprintf("%s-%d", key, i)})
		}
		if err == nil && b.Pending {
			if _, finishes := finisherOf(sup); !finishes {
				// Nothing could ever say what became of it.
				err = fmt.Errorf("order: %s booking %q pending and %s has no status check: %w", b.Supplier, b.Ref, b.Supplier, supplier.ErrUnavailable)
			}
		}
		if err != nil {
			s.Logger.WarnContext(ctx, "order: booking failed", "supplier", off.Supplier, "ticket", i, "err", err)
			s.cancelBookings(context.WithoutCancel(ctx), done)
			k := "order.error.bookingFailed"
			if len(qt.Offers) > 1 {
				k = "order.error.legFailed"
			}
			switch {
			case errors.Is(err, supplier.ErrOfferGone):
				k = "order.error.offerGone"
			case errors.Is(err, supplier.ErrTimeout), errors.Is(err, supplier.ErrUnavailable):
				// The source is down or slow, not the fare gone: the same
				// request may work in a moment (its key books once).
				return nil, &fault.Error{Code: fault.CodeSearchTimeout, Status: http.StatusServiceUnavailable, Key: "order.error.supplierBusy", Err: err}
			}
			return nil, &fault.Error{Code: fault.CodeConflict, Status: http.StatusConflict, Key: k, Err: err}
		}
		done = append(done, b)
	}
	return done, nil
}

func (s *Service) cancelBookings(ctx context.Context, bs []supplier.Booking) {
	for _, b := range bs {
		sup, ok := s.suppliers(b.Supplier)
		if !ok {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		if err := sup.Cancel(cctx, b.Ref); err != nil && !errors.Is(err, supplier.ErrNotFound) {
			s.Logger.ErrorContext(ctx, "order: cancelling a supplier booking failed; it lapses at the supplier's deadline",
				"supplier", b.Supplier, "ref", b.Ref, "err", err)
		}
		cancel()
	}
}

// Get is one order with its timeline, proofs and related orders.
func (s *Service) Get(ctx context.Context, who auth.Principal, id int64) (View, error) {
	return booking.Read(ctx, s.Books, who, id, s.detail)
}

func (s *Service) detail(ctx context.Context, o Order, v viewer) (View, error) {
	out := s.view(o, v.Side(o.AgencyID))
	out.Segments = shopping.NamedIn(out.Segments, i18n.Lang(ctx))
	var err error
	if out.Events, err = booking.Events[Event](ctx, s.DB, booking.FlightTimeline, o.ID); err != nil {
		return View{}, err
	}
	if out.Proofs, err = proofs(ctx, s.DB, o.ID); err != nil {
		return View{}, err
	}
	if out.Payment, err = s.Payment(ctx, o.ID, v.Side(o.AgencyID), o.Status == Holding); err != nil {
		return View{}, err
	}
	rel, err := related(ctx, s.DB, o)
	if err != nil {
		return View{}, err
	}
	open := false
	for _, r := range rel {
		out.Related = append(out.Related, Brief{ID: r.ID, BookingNumber: r.BookingNumber, Type: r.Type, Status: r.Status,
			Tone: Tone(r.Status), Total: money.Of(r.Total, r.Currency), CreatedAt: r.CreatedAt})
		if r.OriginalID == o.ID && isOpen(r.Status) {
			open = true
		}
	}
	if open || v.Agency.DisablePayment {
		// One request at a time; and an agency that cannot pay cannot pay.
		out.Actions = slices.DeleteFunc(out.Actions, func(a Action) bool {
			return open && (a == ActChange || a == ActRefund || a == ActVoid) || v.Agency.DisablePayment && (a == ActPay || a == ActConfirm && o.Type == TypeChange)
		})
	}
	return out, nil
}

func isOpen(s Status) bool {
	return slices.Contains([]Status{ChgReviewing, ChgToBePaid, ChgProceeding, ChangeHolding, Reimbursing, RfdReviewing, RfdToBeConfirm,
		RfdProceeding, RefundHolding, VoidProceeding, VoidHolding}, s)
}

func (s *Service) view(o Order, party string) View {
	v := View{ID: o.ID, BookingNumber: o.BookingNumber, AgencyID: o.AgencyID, Type: o.Type, OriginalID: o.OriginalID, Status: o.Status,
		Tone: Tone(o.Status), PaymentStatus: o.PaymentStatus, PaymentChannel: o.PaymentChannel, ReferenceID: o.ReferenceID, PNR: o.PNR,
		Airline: o.Airline, FlightNumber: o.FlightNumber, TicketNumbers: []string{}, Origin: o.Origin, Destination: o.Destination,
		DepartAt: o.DepartAt, Segments: o.Segments, Journeys: o.Journeys, Passengers: o.Passengers, Contact: o.Contact,
		Restrictions: o.Restrictions, Baggage: o.Solution.Baggage, InvoiceType: o.InvoiceType, Total: money.Of(o.Total, o.Currency), PriceBreakdown: o.Prices.view(o.Currency),
		ReviewRemark: o.ReviewRemark, Disrupted: o.Disrupted, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
		AwaitingAirline: o.AwaitingAirline, Actions: Allowed(o.Type, o.Status, party)}
	if o.AwaitingAirline {
		v.Actions = nil
	}
	if v.Actions == nil {
		v.Actions = []Action{}
	}
	if o.TicketNumbers != "" {
		v.TicketNumbers = strings.Split(o.TicketNumbers, "/")
	}
	if o.Type != TypeOrigin {
		v.Request = o.Request.Answer(party)
	}
	if !o.PayBy.IsZero() && !o.AwaitingAirline && (o.Status == ToBePaid || o.Status == Reserved || o.Status == Reviewing) {
		t := o.PayBy
		v.PayBy = &t
	}
	if !o.ConfirmBy.IsZero() && (o.Status == RfdToBeConfirm || o.Status == ChgToBePaid) {
		t := o.ConfirmBy
		v.ConfirmBy = &t
	}
	return v
}

// List is a page of the orders the caller may see.
func (s *Service) List(ctx context.Context, who auth.Principal, f Filter) (Page, error) {
	v, err := s.Books.Viewer(ctx, who)
	if err != nil {
		return Page{}, err
	}
	if f.Type != "" && f.Type != "all" && !slices.Contains(Types, f.Type) {
		return Page{}, fault.Validation(map[string]string{"type": "order.error.type"})
	}
	if f.Group != "" && GroupStatuses(f.Group) == nil {
		return Page{}, fault.Validation(map[string]string{"group": "order.error.group"})
	}
	for _, st := range GroupStatuses(f.Group) {
		f.Statuses = append(f.Statuses, string(st))
	}
	q, pg, err := v.List(ctx, s.Agencies, f.Filter, ValidStatus)
	if err != nil {
		return Page{}, err
	}
	keep(q, f)
	orders, total, err := booking.Rows(ctx, s.DB, q, columns, "flight_orders", pg, row.decode)
	if err != nil {
		return Page{}, err
	}
	return booking.PageOf(pg, total, orders, func(o Order) View { return s.view(o, v.Side(o.AgencyID)) }), nil
}

// StatusCounts counts the caller's orders in each of statuses (every status
// when none are named), zero counts included.
func (s *Service) StatusCounts(ctx context.Context, who auth.Principal, statuses []string) ([]StatusCount, error) {
	return booking.Count(ctx, s.Books, who, Statuses, statuses)
}

// GroupCount is a side-menu entry with its count.
type GroupCount struct {
	Name string `json:"name"`
	Cnt  int    `json:"cnt"`
}

// PendingCounts counts the pending groups of spec §4 in one query.
func (s *Service) PendingCounts(ctx context.Context, who auth.Principal) ([]GroupCount, error) {
	var statuses []string
	for _, g := range PendingGroups {
		for _, st := range g.Statuses {
			statuses = append(statuses, string(st))
		}
	}
	cs, err := s.StatusCounts(ctx, who, statuses)
	if err != nil {
		return nil, err
	}
	by := map[Status]int{}
	for _, c := range cs {
		by[c.Status] = c.Cnt
	}
	out := make([]GroupCount, 0, len(PendingGroups))
	for _, g := range PendingGroups {
		n := 0
		for _, st := range g.Statuses {
			n += by[st]
		}
		out = append(out, GroupCount{Name: g.Name, Cnt: n})
	}
	return out, nil
}

// Cancel cancels a booking not yet paid, releasing the seats.
func (s *Service) Cancel(ctx context.Context, who auth.Principal, id int64) (View, error) {
	o, v, err := s.getFor(ctx, who, id, ActCancel)
	if err != nil {
		return View{}, err
	}
	if err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return s.move(ctx, tx, &o, ActCancel, booking.Actor(who), "") }); err != nil {
		return View{}, err
	}
	s.cancelBookings(context.WithoutCancel(ctx), o.Booked.Bookings)
	return s.detail(ctx, o, v)
}

// Act takes one of the agency's plain actions on a request order: cancel
// change, cancel refund or cancel void.
func (s *Service) Act(ctx context.Context, who auth.Principal, id int64, action Action) (View, error) {
	if !slices.Contains([]Action{ActCancelChange, ActCancelRefund, ActCancelVoid}, action) {
		return View{}, fault.Validation(map[string]string{"action": "order.error.action"})
	}
	o, v, err := s.getFor(ctx, who, id, action)
	if err != nil {
		return View{}, err
	}
	if err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return s.move(ctx, tx, &o, action, booking.Actor(who), "") }); err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}
