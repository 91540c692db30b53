package order

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/supplier"
)

// TicketArgs issues a paid order's tickets.
type TicketArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (TicketArgs) Kind() string { return "order_ticket" }

// InsertOpts: a supplier that keeps timing out is asked six times over
// about ten minutes before the order is put on hold for a person.
func (TicketArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: ticketAttempts} }

const ticketAttempts = 6

// DeadlineArgs ends what waits on a deadline: an unpaid order at its quote's
// expiry, a quoted refund or change the agency did not confirm in time.
type DeadlineArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (DeadlineArgs) Kind() string { return "order_deadline" }

// PaymentCheckArgs settles a gateway payment whose answer never came.
type PaymentCheckArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (PaymentCheckArgs) Kind() string { return "order_payment_check" }

// InsertOpts: gateways usually know within minutes; a day of retries covers
// an outage.
func (PaymentCheckArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 20} }

// PostSaleArgs carries out a confirmed refund or change with the supplier.
type PostSaleArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (PostSaleArgs) Kind() string { return "order_post_sale" }

// InsertOpts as for ticketing.
func (PostSaleArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: ticketAttempts}
}

type ticketWorker struct {
	river.WorkerDefaults[TicketArgs]
	s *Service
}

func (w *ticketWorker) Work(ctx context.Context, j *river.Job[TicketArgs]) error {
	return w.s.Ticket(ctx, j.Args.OrderID, j.Attempt >= j.MaxAttempts)
}

func (w *ticketWorker) NextRetry(j *river.Job[TicketArgs]) time.Time { return backoff(j.Attempt) }

type deadlineWorker struct {
	river.WorkerDefaults[DeadlineArgs]
	s *Service
}

func (w *deadlineWorker) Work(ctx context.Context, j *river.Job[DeadlineArgs]) error {
	return w.s.Deadline(ctx, j.Args.OrderID)
}

type paymentCheckWorker struct {
	river.WorkerDefaults[PaymentCheckArgs]
	s *Service
}

func (w *paymentCheckWorker) Work(ctx context.Context, j *river.Job[PaymentCheckArgs]) error {
	return w.s.CheckPayment(ctx, j.Args.OrderID)
}

type postSaleWorker struct {
	river.WorkerDefaults[PostSaleArgs]
	s *Service
}

func (w *postSaleWorker) Work(ctx context.Context, j *river.Job[PostSaleArgs]) error {
	return w.s.CarryOut(ctx, j.Args.OrderID, j.Attempt >= j.MaxAttempts)
}

func (w *postSaleWorker) NextRetry(j *river.Job[PostSaleArgs]) time.Time { return backoff(j.Attempt) }

// backoff: 10 s, 20 s, 40 s… up to 5 minutes between supplier attempts.
func backoff(attempt int) time.Time {
	d := 10 * time.Second << min(attempt-1, 5)
	return time.Now().Add(min(d, 5*time.Minute))
}

// AddWorkers registers the order workers (for jobs.Config.Register).
func (s *Service) AddWorkers(w *river.Workers) []*river.PeriodicJob {
	river.AddWorker(w, &ticketWorker{s: s})
	river.AddWorker(w, &deadlineWorker{s: s})
	river.AddWorker(w, &paymentCheckWorker{s: s})
	river.AddWorker(w, &postSaleWorker{s: s})
	return nil
}

// transient supplier failures are worth asking again.
func transient(err error) bool {
	return errors.Is(err, supplier.ErrTimeout) || errors.Is(err, supplier.ErrUnavailable) ||
		errors.Is(err, context.DeadlineExceeded)
}

// Ticket issues a paid order's tickets with its suppliers. A transient
// failure is retried by the queue; on the last attempt the order is held for
// a person to check with the supplier. A refusal fails the order and the
// money goes back to the wallet in the same commit.
func (s *Service) Ticket(ctx context.Context, id int64, last bool) error {
	o, err := load(ctx, s.db, id)
	if err != nil {
		return err
	}
	if o.Status != Proceeding {
		return nil
	}
	var numbers []string
	perPax := make([][]string, len(o.Passengers))
	for _, b := range o.Booked.Bookings {
		sup, ok := s.suppliers(b.Supplier)
		if !ok {
			return s.failTicketing(ctx, o, fmt.Errorf("supplier %s is not configured", b.Supplier))
		}
		tctx, cancel := context.WithTimeout(ctx, time.Minute)
		tickets, err := sup.Ticket(tctx, b.Ref)
		cancel()
		if err != nil {
			if transient(err) {
				if last {
					return s.db.InTx(ctx, func(tx *sqlx.Tx) error { return s.move(ctx, tx, &o, ActUncertain, "system", err.Error()) })
				}
				return fmt.Errorf("order %d: ticketing: %w", id, err)
			}
			return s.failTicketing(ctx, o, err)
		}
		for _, t := range tickets {
			numbers = append(numbers, t.Number)
			if t.Traveller >= 0 && t.Traveller < len(perPax) {
				perPax[t.Traveller] = append(perPax[t.Traveller], t.Number)
			}
		}
	}
	for i := range o.Passengers {
		o.Passengers[i].TicketNumber = strings.Join(perPax[i], "/")
	}
	o.content = true
	o.TicketNumbers = strings.Join(numbers, "/")
	return s.db.InTx(ctx, func(tx *sqlx.Tx) error { return s.move(ctx, tx, &o, ActTicketed, "system", "") })
}

// failTicketing fails the order and gives the money back, in one commit.
func (s *Service) failTicketing(ctx context.Context, o Order, cause error) error {
	s.log.WarnContext(ctx, "order: ticketing refused", "order", o.ID, "err", cause)
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.move(ctx, tx, &o, ActTicketFailed, "system", cause.Error()); err != nil {
			return err
		}
		return s.settleFailed(ctx, tx, &o)
	})
	if err != nil {
		return err
	}
	// Tickets already issued on other legs are voided; the bookings lapse.
	for _, b := range o.Booked.Bookings {
		if sup, ok := s.suppliers(b.Supplier); ok {
			if err := sup.Void(context.WithoutCancel(ctx), b.Ref); err != nil && !errors.Is(err, supplier.ErrNotFound) {
				s.log.InfoContext(ctx, "order: void after failed ticketing", "order", o.ID, "ref", b.Ref, "err", err)
			}
		}
	}
	return nil
}

// settleFailed ends a failed origin order: the money back when it was paid,
// origin_failed when nothing was.
func (s *Service) settleFailed(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	if o.PaymentStatus != Paid {
		return s.move(ctx, tx, o, ActClose, "system", "")
	}
	return s.reimburse(ctx, tx, o, o.Total, 0, ledger.TypeRefundFlight, "failed")
}

// reimburse moves the order through its reimbursing status and posts the
// money back: amount to the wallet and fee to the provider's fees account,
// both from what is owed to suppliers, where the payment went. An order
// that was never paid (an agency whose provider settles) moves without
// money.
func (s *Service) reimburse(ctx context.Context, tx *sqlx.Tx, o *Order, amount, fee int64, paymentType, step string) error {
	if err := s.move(ctx, tx, o, ActReimburse, "system", ""); err != nil {
		return err
	}
	if err := s.payBack(ctx, tx, o, amount, fee, paymentType, step); err != nil {
		return err
	}
	return s.move(ctx, tx, o, ActReimbursed, "system", "")
}

// paid reports whether money came in for o's trip: the origin order's
// payment status (requests inherit their original's).
func (s *Service) paid(ctx context.Context, q sqlx.ExtContext, o *Order) (bool, error) {
	if o.Type == TypeOrigin {
		return o.PaymentStatus == Paid, nil
	}
	root, err := load(ctx, q, o.RootID)
	if err != nil {
		return false, err
	}
	return root.PaymentStatus == Paid, nil
}

func (s *Service) payBack(ctx context.Context, tx *sqlx.Tx, o *Order, amount, fee int64, paymentType, step string) error {
	paid, err := s.paid(ctx, tx, o)
	if err != nil || !paid {
		return err
	}
	if amount > 0 {
		if _, err := s.ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("order-%d-%s", o.ID, step),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(o.AgencyID), Amount: amount, Currency: o.Currency,
			PaymentType: paymentType, OrderID: o.BookingNumber, Reference: o.PNR, Description: route(*o), CreatedBy: "system"}); err != nil {
			return err
		}
	}
	if fee > 0 {
		if _, err := s.ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("order-%d-%s-fee", o.ID, step),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Provider(ledger.KindFees), Amount: fee, Currency: o.Currency,
			PaymentType: paymentType, OrderID: o.BookingNumber, Reference: o.PNR, Description: "service fee", CreatedBy: "system"}); err != nil {
			return err
		}
	}
	return nil
}

// Deadline ends what waited too long: an unpaid booking whose quote expired
// (its seats are released), a quoted refund or change not confirmed in time.
// A deadline moved later (a provider approval resets the payment window) is
// left for its own job.
func (s *Service) Deadline(ctx context.Context, id int64) error {
	o, err := load(ctx, s.db, id)
	if err != nil {
		return err
	}
	now := s.now()
	switch o.Status {
	case ToBePaid, Reserved, Reviewing:
		if now.Before(o.PayBy) {
			return nil
		}
	case ChgToBePaid, RfdToBeConfirm:
		if now.Before(o.ConfirmBy) {
			return nil
		}
	default:
		return nil
	}
	return s.expire(ctx, id)
}

func (s *Service) expire(ctx context.Context, id int64) error {
	var o Order
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if o, err = load(ctx, tx, id); err != nil {
			return err
		}
		return s.move(ctx, tx, &o, ActExpire, "system", "")
	})
	if err != nil {
		if isConflict(err) {
			return nil
		}
		return err
	}
	if o.Type == TypeOrigin {
		s.cancelBookings(context.WithoutCancel(ctx), o.Booked.Bookings)
	}
	return nil
}
