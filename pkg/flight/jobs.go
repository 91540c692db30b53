package flight

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
)

// TicketArgs issued one paid order's tickets. Orders are no longer given
// one (runTicketing sweeps them instead); the kind stays registered so the
// jobs an older version queued still run.
type TicketArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (TicketArgs) Kind() string { return "order_ticket" }

// InsertOpts: a supplier that keeps timing out is asked six times over
// about ten minutes before the order is put on hold for a person.
func (TicketArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: ticketAttempts} }

const ticketAttempts = 6

// DeadlineArgs ended one order's deadline. Orders are no longer given one
// (DeadlineSweepArgs finds them instead); the kind stays registered so the
// jobs an older version queued, due up to two weeks ahead, still run.
type DeadlineArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (DeadlineArgs) Kind() string { return "order_deadline" }

// sweepEvery is how often the deadline sweep runs, and so how late after its
// deadline an order may still be open.
const sweepEvery = 15 * time.Second

// DeadlineSweepArgs is the periodic job that ends every order past its
// deadline (SweepDeadlines).
type DeadlineSweepArgs struct{}

// Kind implements river.JobArgs.
func (DeadlineSweepArgs) Kind() string { return "order_deadline_sweep" }

// InsertOpts: one sweep per period (booking.SweepOpts).
func (DeadlineSweepArgs) InsertOpts() river.InsertOpts { return booking.SweepOpts(sweepEvery) }

// PaymentCheckArgs is the payment protocol's status check of a flight
// order's gateway payment.
type PaymentCheckArgs = payment.CheckArgs[paymentCheck]

// checkLater queues the status check of o's gateway payment.
func (s *Service) checkLater(ctx context.Context, tx *sqlx.Tx, o Order) error {
	return s.Enqueue(ctx, tx, PaymentCheckArgs{OrderID: o.ID}, s.Now().Add(time.Minute))
}

type paymentCheck struct{}

func (paymentCheck) CheckKind() string { return "order_payment_check" }

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

// NextRetry waits as the sweep does (ticketRetry).
func (w *ticketWorker) NextRetry(j *river.Job[TicketArgs]) time.Time {
	return time.Now().Add(ticketRetry(j.Attempt))
}

type postSaleWorker struct {
	river.WorkerDefaults[PostSaleArgs]
	s *Service
}

func (w *postSaleWorker) Work(ctx context.Context, j *river.Job[PostSaleArgs]) error {
	return w.s.CarryOut(ctx, j.Args.OrderID, j.Attempt >= j.MaxAttempts)
}

// NextRetry: backoff.
func (w *postSaleWorker) NextRetry(j *river.Job[PostSaleArgs]) time.Time { return backoff(j.Attempt) }

// backoff: 10 s, 20 s, 40 s… up to 5 minutes between supplier attempts.
func backoff(attempt int) time.Time {
	d := 10 * time.Second << min(attempt-1, 5)
	return time.Now().Add(min(d, 5*time.Minute))
}

// Time limits of the order jobs (jobs.DefaultRescueAfter explains how they
// bound the rescue). Ticketing and post-sale wait on suppliers, each call up
// to supplierCallTimeout; a run cut off is a transient failure, tried again
// with backoff.
const (
	ticketTimeout       = 45 * time.Second
	postSaleTimeout     = 45 * time.Second
	paymentCheckTimeout = 30 * time.Second
	deadlineTimeout     = 30 * time.Second
	// A sweep cut off leaves the rest to the next period.
	sweepTimeout = 45 * time.Second
	// supplierCallTimeout bounds each supplier call (see bounded): in a job,
	// or while an agent or the provider waits on the page.
	supplierCallTimeout = 30 * time.Second
)

// AddWorkers registers the order workers, the ticketing sweep and the
// deadline sweep (for jobs.Config.Register).
func (s *Service) AddWorkers(w *jobs.Workers) []*river.PeriodicJob {
	// Nothing queues TicketArgs any more (the ticketing sweep below
	// replaced them), but jobs queued before must still find their worker.
	jobs.Add(w, river.Worker[TicketArgs](&ticketWorker{s: s}), ticketTimeout)
	w.Loop(s.runTicketing)
	// Nothing queues DeadlineArgs any more, but jobs queued before the sweep
	// replaced them must still find their worker.
	jobs.AddFunc(w, deadlineTimeout, func(ctx context.Context, j *river.Job[DeadlineArgs]) error {
		return s.Deadline(ctx, j.Args.OrderID)
	})
	sweep := jobs.AddSweep(w, sweepTimeout, sweepEvery, DeadlineSweepArgs{}, s.SweepDeadlines)
	payment.AddCheck[paymentCheck](w, paymentCheckTimeout, func(ctx context.Context, id int64, _ string) error { return s.CheckPayment(ctx, id) })
	jobs.Add(w, river.Worker[PostSaleArgs](&postSaleWorker{s: s}), postSaleTimeout)
	s.addFinishWorker(w)
	return []*river.PeriodicJob{sweep}
}

// transient supplier failures are worth asking again.
func transient(err error) bool {
	return errors.Is(err, supplier.ErrTimeout) || errors.Is(err, supplier.ErrUnavailable) ||
		errors.Is(err, context.DeadlineExceeded)
}

// Ticket issues a paid order's tickets with its suppliers, for a River job
// queued before ticketing became a sweep (runTicketing). A transient
// failure is retried by the queue; on the last attempt the order is held
// for a person to check with the supplier. A refusal fails the order and
// the money goes back to the wallet in the same commit.
func (s *Service) Ticket(ctx context.Context, id int64, last bool) error {
	o, err := stored.Load(ctx, s.DB, nil, id)
	if err != nil {
		return err
	}
	if o.Status != Proceeding {
		return nil
	}
	switch err := s.issue(ctx, &o); {
	case err == nil:
	case !transient(err):
		return s.failTicketing(ctx, o, err)
	case last:
		return s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return s.move(ctx, tx, &o, ActUncertain, "system", err.Error()) })
	default:
		return fmt.Errorf("order %d: ticketing: %w", id, err)
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return s.move(ctx, tx, &o, ActTicketed, "system", "") })
	if s.ranTwice(ctx, id, err, Proceeding) {
		return nil
	}
	return err
}

// ranTwice tells whether err is a job's write losing to another run of the
// same job (a rescued job whose first run was not dead after all): the
// order left the status the job works on, so the job is done. The supplier
// calls both runs made are safe to repeat (supplier.Supplier).
func (s *Service) ranTwice(ctx context.Context, id int64, err error, from ...Status) bool {
	if err == nil || !isConflict(err) {
		return false
	}
	o, lerr := stored.Load(ctx, s.DB, nil, id)
	if lerr != nil || slices.Contains(from, o.Status) {
		return false
	}
	s.Logger.InfoContext(ctx, "order: another run of the job finished it first", "order", id, "status", o.Status)
	return true
}

// failTicketing fails the order and gives the money back, in one commit.
func (s *Service) failTicketing(ctx context.Context, o Order, cause error) error {
	s.Logger.WarnContext(ctx, "order: ticketing refused", "order", o.ID, "err", cause)
	err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
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
				s.Logger.InfoContext(ctx, "order: void after failed ticketing", "order", o.ID, "ref", b.Ref, "err", err)
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
func (s *Service) paid(ctx context.Context, tx *sqlx.Tx, o *Order) (bool, error) {
	if o.Type == TypeOrigin {
		return o.PaymentStatus == Paid, nil
	}
	root, err := stored.Load(ctx, s.DB, tx, o.RootID)
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
		// Back the way the trip's origin order was paid (RefundTx).
		if err := s.RefundTx(ctx, tx, o.RootID, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("order-%d-%s", o.ID, step),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(o.AgencyID), Amount: amount, Currency: o.Currency,
			PaymentType: paymentType, OrderID: o.BookingNumber, Reference: o.PNR, Description: route(*o), CreatedBy: "system"}); err != nil {
			return err
		}
	}
	if fee > 0 {
		if _, err := s.Ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("order-%d-%s-fee", o.ID, step),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Provider(ledger.KindFees), Amount: fee, Currency: o.Currency,
			PaymentType: paymentType, OrderID: o.BookingNumber, Reference: o.PNR, Description: "service fee", CreatedBy: "system"}); err != nil {
			return err
		}
	}
	return nil
}

// Deadline ends what waited too long: an unpaid booking whose quote expired
// (its seats are released), a quoted refund or change not confirmed in time.
// It checks the status and the deadline again itself, so it may be called
// for any order at any time: one whose deadline moved later (a provider
// approval resets the payment window) or that was paid meanwhile is left
// alone. The deadline sweep calls it; so do DeadlineArgs jobs queued by
// older versions.
func (s *Service) Deadline(ctx context.Context, id int64) error {
	_, err := s.deadline(ctx, id)
	return err
}

// deadline is Deadline reporting whether it ended the order.
func (s *Service) deadline(ctx context.Context, id int64) (bool, error) {
	o, err := stored.Load(ctx, s.DB, nil, id)
	if err != nil {
		return false, err
	}
	now := s.Now()
	switch o.Status {
	case ToBePaid, Reserved, Reviewing:
		if now.Before(o.PayBy) {
			return false, nil
		}
	case ChgToBePaid, RfdToBeConfirm:
		if now.Before(o.ConfirmBy) {
			return false, nil
		}
	default:
		return false, nil
	}
	return s.expire(ctx, id)
}

// expire ends an order through the status machine: false, with no error,
// when it no longer may be (paid, cancelled or expired by someone else
// first, or a status that does not expire).
func (s *Service) expire(ctx context.Context, id int64) (bool, error) {
	var o Order
	err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if o, err = stored.Load(ctx, s.DB, tx, id); err != nil {
			return err
		}
		return s.move(ctx, tx, &o, ActExpire, "system", "")
	})
	if err != nil {
		if isConflict(err) {
			return false, nil
		}
		return false, err
	}
	if o.Type == TypeOrigin {
		s.cancelBookings(context.WithoutCancel(ctx), o.Booked.Bookings)
	}
	return true, nil
}

// Deadline sweep sizes: a batch is read at once, oldest deadline first; its
// orders are ended a few at a time because releasing an origin order's seats
// waits on the supplier (up to 20 s a booking), as the per-order jobs the
// sweep replaced ran side by side on the queue's workers.
const (
	sweepBatch    = 200
	sweepParallel = 8
)

// deadlineWait is a family of statuses that end at a deadline held in
// column. Reviewing is not among them although Deadline accepts it: the
// status machine does not expire an order the provider is reviewing (its
// approval starts a new payment window), so the sweep would only find such
// orders again every period. The lists must match the partial indexes of
// migration 00012_order_deadlines; the statuses are written into the query
// as literals so the planner can prove the index's condition holds.
type deadlineWait struct {
	column   string
	statuses []Status
}

var deadlineWaits = []deadlineWait{
	{"pay_by", []Status{ToBePaid, Reserved}},
	{"confirm_by", []Status{ChgToBePaid, RfdToBeConfirm}},
}

// dueOrder is one order found past its deadline; Due and ID are the keyset
// the next batch starts after.
type dueOrder struct {
	ID  int64     `db:"id"`
	Due time.Time `db:"due"`
}

// dueQuery selects up to a batch of w's orders due at or before a time, in
// deadline order, after a (deadline, id) position when after is true.
func dueQuery(w deadlineWait, after bool) string {
	quoted := make([]string, len(w.statuses))
	for i, st := range w.statuses {
		quoted[i] = "'" + string(st) + "'"
	}
	q := `SELECT id, ` + w.column + ` AS due FROM flight_orders WHERE status IN (` + strings.Join(quoted, ", ") + `) AND ` +
		w.column + ` <= ?`
	if after {
		q += ` AND (` + w.column + `, id) > (?, ?)`
	}
	return q + ` ORDER BY ` + w.column + `, id LIMIT ?`
}

func dueOrders(ctx context.Context, db *store.DB, w deadlineWait, now time.Time, after *dueOrder, limit int) ([]dueOrder, error) {
	args := []any{now.UTC()}
	if after != nil {
		args = append(args, after.Due.UTC(), after.ID)
	}
	var out []dueOrder
	if err := db.SelectContext(ctx, &out, db.Rebind(dueQuery(w, after != nil)), append(args, limit)...); err != nil {
		return nil, fmt.Errorf("order: find orders past their %s: %w", w.column, err)
	}
	return out, nil
}

// SweepDeadlines ends every order past its deadline, as Deadline does one:
// unpaid orders (to_be_paid, reserved) past pay_by are closed and their
// bookings cancelled with the supplier; quoted changes and refunds
// (chg_to_be_paid, rfd_to_be_confirm) past confirm_by are cancelled. It runs
// every 15 seconds on the queue, so an unpaid order is closed within about
// 15 s after its deadline rather than at it; until then the portal and API
// still show it to_be_paid with its payBy passed, and paying it is refused as
// expired (Pay expires it on the spot).
//
// Orders are taken in batches, oldest deadline first, each batch after the
// last one's position, so an order that fails to end (logged, then left for
// the next sweep) cannot hold the others back. Only orders due when the
// sweep started are looked at. Deadline checks again under its own
// transaction, so a payment racing the sweep wins or loses cleanly and a
// second sweep running at once only repeats checks. It answers how many
// orders it ended; the error is for a failed query or a cancelled ctx.
func (s *Service) SweepDeadlines(ctx context.Context) (int, error) {
	now := s.Now()
	total, failed := 0, 0
	for _, w := range deadlineWaits {
		var after *dueOrder
		for {
			due, err := dueOrders(ctx, s.DB, w, now, after, sweepBatch)
			if err != nil {
				return total, err
			}
			ended, bad := s.endDue(ctx, due)
			total, failed = total+ended, failed+bad
			if err := ctx.Err(); err != nil {
				return total, fmt.Errorf("order: deadline sweep stopped after %d orders: %w", total, err)
			}
			if len(due) < sweepBatch {
				break
			}
			after = &due[len(due)-1]
		}
	}
	if total > 0 || failed > 0 {
		s.Logger.InfoContext(ctx, "order: deadlines swept", "ended", total, "failed", failed)
	}
	return total, nil
}

// endDue runs Deadline on each order, sweepParallel at a time, and counts
// the orders ended and the failures (logged).
func (s *Service) endDue(ctx context.Context, due []dueOrder) (ended, failed int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, sweepParallel)
	for _, d := range due {
		if ctx.Err() != nil {
			break
		}
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			ok, err := s.deadline(ctx, d.ID)
			// A cancelled sweep (shutdown, job timeout) is reported once by
			// SweepDeadlines, not for every order it cut short.
			if err != nil && ctx.Err() == nil {
				s.Logger.ErrorContext(ctx, "order: ending an order past its deadline failed; the next sweep tries again",
					"order", d.ID, "due", d.Due, "err", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed++
			} else if ok {
				ended++
			}
		})
	}
	wg.Wait()
	return ended, failed
}
