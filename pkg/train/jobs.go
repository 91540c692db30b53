package train

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

// TicketArgs issues a paid order's tickets with the railway.
type TicketArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (TicketArgs) Kind() string { return "train_ticket" }

// InsertOpts: a railway that keeps failing is asked six times over about
// two minutes; after that the order waits in proceeding for the provider
// (ConfirmTickets), as a manual one does.
func (TicketArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 6} }

// AfterSaleArgs finishes a confirmed refund or change whose answer from
// the railway never came (a crash, a time-out): the railway's confirm
// calls are safe to repeat.
type AfterSaleArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (AfterSaleArgs) Kind() string { return "train_after_sale" }

// InsertOpts as for ticketing.
func (AfterSaleArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 10} }

// SweepArgs is the periodic job that closes unpaid orders whose hold ran
// out and drops after-sales quotes past their validity.
type SweepArgs struct{}

// Kind implements river.JobArgs.
func (SweepArgs) Kind() string { return "train_sweep" }

// InsertOpts: one sweep per period (booking.SweepOpts).
func (SweepArgs) InsertOpts() river.InsertOpts { return booking.SweepOpts(sweepEvery) }

const (
	sweepEvery = 15 * time.Second
	// jobTimeout: each job waits on the railway at most s.timeout per call.
	jobTimeout = 45 * time.Second
	// afterSaleCheck is when the safety job looks at a confirmed refund or
	// change the request itself should have finished.
	afterSaleCheck = time.Minute
)

// AddWorkers registers the train workers and the sweep (for
// jobs.Config.Register).
func (s *Service) AddWorkers(w *jobs.Workers) []*river.PeriodicJob {
	jobs.Add(w, river.Worker[TicketArgs](&ticketWorker{s: s}), jobTimeout)
	jobs.AddFunc(w, jobTimeout, func(ctx context.Context, j *river.Job[AfterSaleArgs]) error {
		return s.finishAfterSale(ctx, j.Args.OrderID)
	})
	payment.AddCheck[paymentCheck](w, jobTimeout, func(ctx context.Context, id int64, _ string) error { return s.CheckPayment(ctx, id) })
	return []*river.PeriodicJob{jobs.AddSweep(w, jobTimeout, sweepEvery, SweepArgs{}, s.Sweep)}
}

type ticketWorker struct {
	river.WorkerDefaults[TicketArgs]
	s *Service
}

func (w *ticketWorker) Work(ctx context.Context, j *river.Job[TicketArgs]) error {
	return w.s.Ticket(ctx, j.Args.OrderID)
}

// NextRetry: 5, 10, 20, 30, 30 s.
func (w *ticketWorker) NextRetry(j *river.Job[TicketArgs]) time.Time {
	return time.Now().Add(min(5*time.Second<<min(j.Attempt-1, 3), 30*time.Second))
}

// transient railway failures are worth asking again.
func transient(err error) bool {
	return errors.Is(err, rail.ErrTimeout) || errors.Is(err, rail.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded)
}

// Ticket issues a paid order's tickets with the railway: coach, seat and
// ticket number per passenger. A transient failure is retried by the
// queue; a refusal (the hold lapsed, the booking is gone) fails the order
// and the money goes back to the wallet in the same commit. Orders in
// manual mode wait for the provider.
func (s *Service) Ticket(ctx context.Context, id int64) error {
	o, err := load(ctx, s.DB, nil, id)
	if err != nil {
		return err
	}
	if o.Status != Proceeding || o.Manual {
		return nil
	}
	return s.issue(ctx, o, ActTicketed, "system", nil)
}

// issue confirms o's booking with the railway and records its tickets.
//
// typed, when the provider typed the tickets, replaces the railway's coach,
// seat and number (the railway still tickets the booking: its seats and
// after-sales stay with it).
func (s *Service) issue(ctx context.Context, o Order, action Action, actor string, typed []TypedTicket) error {
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	b, err := s.sup.Confirm(cctx, o.SupplierRef)
	switch {
	case err == nil:
	case transient(err):
		return fmt.Errorf("train order %d: confirm: %w", o.ID, err)
	case action == ActConfirmTickets && errors.Is(err, rail.ErrNotFound):
		// The provider asked a railway that does not know the booking (a
		// simulator restarted, another process's memory): say so and leave
		// the decision, to fail it, to the provider.
		return &fault.Error{Code: fault.CodeConflict, Status: http.StatusConflict, Key: "train.error.supplierNotFound", Err: err}
	default:
		s.Logger.WarnContext(ctx, "train: the railway refused to issue; refunding", "order", o.ID, "err", err)
		fail := ActTicketFailed
		if action == ActConfirmTickets {
			fail = ActFailTickets
		}
		if ferr := s.fail(ctx, o.ID, fail, actor, err.Error()); ferr != nil {
			return ferr
		}
		return nil
	}
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		cur, err := load(ctx, s.DB, tx, o.ID)
		if err != nil {
			return err
		}
		if cur.Status != Proceeding {
			return nil
		}
		cur.Tickets = ticketsOf(b, nil)
		overlay(cur.Tickets, typed)
		cur.Total = b.Total.Minor
		return s.move(ctx, tx, &cur, action, actor, "", true)
	})
}

// ticketsOf turns the railway's tickets into the order's, keeping the
// history in old (refunded and exchanged tickets).
func ticketsOf(b rail.Booking, old []Ticket) []Ticket {
	out := append([]Ticket(nil), old...)
	for _, t := range b.Tickets {
		tk := Ticket{Passenger: t.Passenger + 1, Number: t.Number, TrainNumber: t.TrainNumber, Origin: t.Origin,
			Destination: t.Destination, DepartAt: t.DepartAt.UTC(), Class: t.Class, Coach: t.Coach, Seat: t.Seat, Fare: t.Fare.Minor,
			Status: t.Status, Exchanges: t.Exchanges}
		if !t.ArriveAt.IsZero() {
			a := t.ArriveAt.UTC()
			tk.ArriveAt = &a
		}
		out = append(out, tk)
	}
	return out
}

// fail moves a proceeding order to failed and gives the payment back in
// the same commit (failed_reimbursed).
func (s *Service) fail(ctx context.Context, id int64, action Action, actor, remark string) error {
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := load(ctx, s.DB, tx, id)
		if err != nil {
			return err
		}
		if o.Status != Proceeding {
			return nil
		}
		if len(remark) > 200 {
			remark = remark[:200]
		}
		if err := s.move(ctx, tx, &o, action, actor, remark, false); err != nil {
			return err
		}
		if o.Paid > 0 {
			if err := s.RefundTx(ctx, tx, o.ID, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("train-%d-reimburse", o.ID),
				From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(o.AgencyID), Amount: o.Paid, Currency: o.Currency,
				PaymentType: ledger.TypeRefundTrain, OrderID: o.BookingNumber, Reference: o.SupplierRef, Description: route(o),
				CreatedBy: "system"}); err != nil {
				return err
			}
			o.Refunded = o.Paid
		}
		return s.move(ctx, tx, &o, ActReimbursed, "system", "", false)
	})
}

// ConfirmTicketsRequest is the provider's decision on a paid order in
// manual mode: issue its tickets with the railway, or fail it (the money
// goes back to the agency).
type ConfirmTicketsRequest struct {
	// Fail, when true, fails the order instead: the payment goes back to
	// the agency (failed, then failed_reimbursed). Absent or false issues
	// the tickets.
	Fail bool `json:"fail,omitempty"`
	// Remark is why the order fails, put on its timeline; only read with
	// fail.
	Remark string `json:"remark,omitempty"`
	// Tickets typed by the provider, one per passenger; none: the
	// railway's own coach, seat and number.
	Tickets []TypedTicket `json:"tickets,omitempty" jsonschema_description:"the tickets as typed by the provider (every passenger once); omitted: the railway's own"`
}

// ConfirmTickets is the provider issuing (or refusing) a paid order's
// tickets by hand: the agency's train setting "manual", or an order the
// background ticketing gave up on.
func (s *Service) ConfirmTickets(ctx context.Context, who auth.Principal, id int64, req ConfirmTicketsRequest) (View, error) {
	if !who.Subject.IsProvider() {
		return View{}, fault.Forbidden()
	}
	o, v, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	action := ActConfirmTickets
	if req.Fail {
		action = ActFailTickets
	}
	if err := step(v, o, action); err != nil {
		return View{}, err
	}
	var typed []TypedTicket
	if !req.Fail && len(req.Tickets) > 0 {
		if typed, err = checkTyped(o, req.Tickets); err != nil {
			return View{}, err
		}
		if err := checkNumbersFree(ctx, s.DB, o.ID, req.Tickets); err != nil {
			return View{}, err
		}
	}
	actor := booking.Actor(who)
	if req.Fail {
		err = s.fail(ctx, o.ID, ActFailTickets, actor, req.Remark)
	} else {
		err = s.issue(ctx, o, ActConfirmTickets, actor, typed)
		if _, ok := fault.As(err); !ok && transient(err) {
			return View{}, &fault.Error{Code: fault.CodeInternal, Status: http.StatusBadGateway, Key: "train.error.unavailable", Err: err}
		}
	}
	if err != nil {
		return View{}, err
	}
	o, err = load(ctx, s.DB, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// Sweep closes unpaid orders past their hold and drops quotes past their
// validity; it answers how many orders it moved.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	n := 0
	ids, err := dueHolds(ctx, s.DB, s.Now(), 200)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := s.expire(ctx, id); err != nil {
			s.Logger.WarnContext(ctx, "train: expire", "order", id, "err", err)
			continue
		}
		n++
	}
	ids, err = openQuotes(ctx, s.DB, 500)
	if err != nil {
		return n, err
	}
	for _, id := range ids {
		moved, err := s.expireQuote(ctx, id)
		if err != nil {
			s.Logger.WarnContext(ctx, "train: expire quote", "order", id, "err", err)
			continue
		}
		if moved {
			n++
		}
	}
	return n, nil
}
