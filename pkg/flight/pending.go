package flight

// Orders pending at the airline: the supplier accepted the booking
// (Duffel's 202 Accepted) and did not finish it within the booking request.
// Create keeps such an order in reviewing with AwaitingAirline set and, in
// the same transaction, queues FinishArgs, which asks the supplier with
// backoff. finish's save is conditional on the order still awaiting in
// reviewing, so checks running side by side complete the order once.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/supplier"
)

// FinishArgs is the status check of an order pending at the airline.
type FinishArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (FinishArgs) Kind() string { return "order_finish_pending" }

// InsertOpts: asked with backoff (10 s doubling to 5 minutes) for about an
// hour; Duffel settles an accepted order within minutes.
func (FinishArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: finishAttempts} }

const (
	finishAttempts = 16
	// finishFirst is the wait before the first check: the request itself
	// has just waited for the airline.
	finishFirst   = 10 * time.Second
	finishTimeout = 45 * time.Second
)

type finishWorker struct {
	river.WorkerDefaults[FinishArgs]
	s *Service
}

func (w *finishWorker) Work(ctx context.Context, j *river.Job[FinishArgs]) error {
	err := w.s.FinishPending(ctx, j.Args.OrderID)
	if err != nil && j.Attempt >= j.MaxAttempts {
		w.s.Logger.ErrorContext(ctx, "order: the airline never answered a pending booking; a person must look at it with the supplier",
			"order", j.Args.OrderID, "err", err)
	}
	return err
}

// NextRetry: backoff.
func (w *finishWorker) NextRetry(j *river.Job[FinishArgs]) time.Time { return backoff(j.Attempt) }

func (s *Service) addFinishWorker(w *jobs.Workers) {
	jobs.Add(w, river.Worker[FinishArgs](&finishWorker{s: s}), finishTimeout)
}

// errAwaiting refuses an action on an order pending at the airline: there
// is nothing to pay, cancel or approve until the airline answers.
func errAwaiting() error { return fault.Conflict("order.error.awaitingAirline") }

// pending says whether any of bs waits for the airline.
func pending(bs []supplier.Booking) bool {
	for _, b := range bs {
		if b.Pending {
			return true
		}
	}
	return false
}

// FinishPending asks the supplier what became of order id's pending
// bookings and moves the order on (finish). An order no longer pending is
// left as it is; a supplier still at it is an error, for the job to ask
// again later.
func (s *Service) FinishPending(ctx context.Context, id int64) error {
	o, err := stored.Load(ctx, s.DB, nil, id)
	if err != nil {
		return err
	}
	if !o.AwaitingAirline {
		return nil
	}
	bs := append([]supplier.Booking(nil), o.Booked.Bookings...)
	for i, b := range bs {
		if !b.Pending {
			continue
		}
		sup, ok := s.suppliers(b.Supplier)
		var f supplier.Finisher
		if ok {
			f, ok = finisherOf(sup)
		}
		if !ok {
			return fmt.Errorf("order %d: supplier %s cannot say what became of booking %q: %w", id, b.Supplier, b.Ref, supplier.ErrUnavailable)
		}
		done, err := f.Finish(ctx, b.Ref, b.Key, travellers(o.Passengers))
		switch {
		case errors.Is(err, supplier.ErrRejected):
			return s.finish(ctx, id, nil)
		case err != nil:
			return fmt.Errorf("order %d: booking %q still pending: %w", id, b.Ref, err)
		}
		bs[i] = done
	}
	return s.finish(ctx, id, bs)
}

// finish moves order id on from pending: with its bookings all finished,
// to the status a booking made at once gets; with none (bs nil, the
// airline declined), to origin_failed. The save is conditional on the
// order still awaiting the airline in reviewing: the status check and the
// webhook complete it once.
func (s *Service) finish(ctx context.Context, id int64, bs []supplier.Booking) error {
	if bs != nil && pending(bs) {
		return fmt.Errorf("order %d: a booking is still pending: %w", id, supplier.ErrPending)
	}
	// The agency is read before the transaction: on SQLite the pool's
	// one writer connection is the transaction's.
	o, err := stored.Load(ctx, s.DB, nil, id)
	if err != nil {
		return err
	}
	a, err := s.Agencies.Get(ctx, o.AgencyID)
	if err != nil {
		return err
	}
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := stored.Load(ctx, s.DB, tx, id)
		if err != nil || !o.AwaitingAirline || o.Status != Reviewing {
			return err
		}
		from := o.Status
		o.AwaitingAirline, o.UpdatedAt = false, s.Now().UTC()
		action := ActApprove
		if bs == nil {
			o.Status, action = OriginFailed, ActFailed
		} else {
			switch {
			case strings.HasPrefix(o.Solution.TicketingSpeed, "special"):
				o.Status = Reviewing
			case a.DisablePayment:
				o.Status = Reserved
			default:
				o.Status = ToBePaid
			}
			o.Booked.Bookings = bs
			var pnrs, refs []string
			for _, b := range bs {
				pnrs, refs = append(pnrs, b.PNR), append(refs, b.Ref)
			}
			o.PNR, o.ReferenceID = strings.Join(pnrs, "/"), strings.Join(refs, "/")
			o.content = allContent
		}
		saved, err := saveMoved(ctx, s.DB, tx, &o, from, action, "system", "")
		if err != nil || !saved {
			return err
		}
		return s.announce(ctx, tx, &o)
	})
}

// FinishNotified completes the order pending at the airline whose booking
// sup named ref, when the supplier says it finished (a verified webhook):
// a finished order is read back from the supplier (FinishPending), a
// declined one fails. An order not pending (a second delivery, the status
// check first) or not ours is left alone. A booking whose 202 carried no
// id has no ref to be found by: its status check finishes it.
func (s *Service) FinishNotified(ctx context.Context, sup, ref string, declined bool) error {
	if ref == "" {
		return nil
	}
	var ids []int64
	if err := s.DB.SelectContext(ctx, &ids, s.DB.Rebind(`SELECT id FROM flight_orders WHERE reference_id = ? AND awaiting_airline = ?`), ref, true); err != nil {
		return fmt.Errorf("order: find the order pending on %s booking %q: %w", sup, ref, err)
	}
	for _, id := range ids {
		var err error
		if declined {
			err = s.finish(ctx, id, nil)
		} else {
			err = s.FinishPending(ctx, id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
