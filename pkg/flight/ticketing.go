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
	"github.com/lib/pq"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/voyage/voyage/pkg/store"
)

// Ticketing is a sweep over the paid orders, not a River job per order: a
// job cost each payment an insert, a fetch, a completion and a
// notification on the queue's tables, more than the ticketing itself. A
// paid order carries its due time (ticket_due_at, written by the move into
// proceeding); the sweep claims due orders in batches, asks their suppliers
// side by side, and records the whole batch's outcomes in one commit.
//
// A claim is a lease: it pushes the due time ticketLease ahead and counts an
// attempt, so an order whose claimer died (a crash, a kill) is claimed again
// by any instance once the lease runs out, as a River job was rescued. A
// supplier's transient failure sets the due time to the next retry; the
// last attempt puts the order on hold for a person, as before. Suppliers'
// Ticket is safe to repeat (supplier.Supplier), so a lease run out on a
// slow claimer only asks for the same tickets again, and the status machine
// records them once.
const (
	// ticketBatch is the most orders one claim takes.
	ticketBatch = 32
	// ticketBatches is how many claimed batches are worked at once, so a
	// slow supplier holds back its own batch only.
	ticketBatches = 4
	// ticketCalls bounds one batch's supplier calls at once.
	ticketCalls = 8
	// ticketRecordTimeout bounds recording a batch's outcomes, which starts
	// once its suppliers have answered or ticketTimeout has passed.
	ticketRecordTimeout = 10 * time.Second
	// ticketLease is how long a claimed order is left to its claimer: more
	// than a batch may take, suppliers and recording.
	ticketLease = ticketTimeout + ticketRecordTimeout + 5*time.Second
	// ticketPoll is how often an instance looks for due orders unasked:
	// retries coming due, leases run out, orders another instance paid.
	ticketPoll = time.Second
	// ticketLinger is the wait after a wake-up, so that payments committed
	// close together are claimed as one batch.
	ticketLinger = 20 * time.Millisecond
	// ticketHandOffs bounds the orders paid here waiting for this
	// instance's ticketing (handOff); past half of it payers leave their
	// orders to the sweep.
	ticketHandOffs = 256
)

// The payer's claim. A wallet payment on an instance whose ticketing runs
// claims the order for it in the payment's own statement (the due time a
// lease ahead, one attempt counted) and hands it over in memory: no claim
// statement, no second write of the row and no read and decode of it. If
// the instance dies first, the order is claimed by any instance when that
// lease runs out, as a batch of a dead claimer is.

// claimForHandOff makes o's move into proceeding the payer's claim, when
// this instance's ticketing runs and has room.
func (s *Service) claimForHandOff(o *Order) bool {
	if o.Status != Proceeding || !s.ticketing.Load() || len(s.handed) >= cap(s.handed)/2 {
		return false
	}
	o.ticketDue, o.ticketAttempts = o.UpdatedAt.Add(ticketLease), 1
	return true
}

// handOff gives o, saved with the payer's claim, to this instance's
// ticketing; false when there was no room after all, and the order waits
// for its lease to run out. The payer's span (in ctx) goes with it.
func (s *Service) handOff(ctx context.Context, o Order) bool {
	o = asStored(o)
	// The ticketing writes each traveller's ticket number into its copy
	// while the payer still answers its request from the order: the two
	// must not share the travellers.
	o.Passengers = slices.Clone(o.Passengers)
	o.ticketAttempts = 1
	o.payer = trace.SpanContextFromContext(ctx)
	select {
	case s.handed <- o:
		return true
	default:
		s.Logger.WarnContext(ctx, "order: ticketing has no room for a paid order; it is ticketed when its claim runs out", "order", o.ID)
		return false
	}
}

// ticketRetry is the wait after the attempt-th attempt failed: 5, 10, 20,
// 30, 30 s. A run cut off by a supplier's hiccup should end in tickets, or
// in the hold of the last attempt, within about two minutes.
func ticketRetry(attempt int) time.Duration {
	return min(5*time.Second<<min(max(attempt, 1)-1, 3), 30*time.Second)
}

// wakeTicketing tells this instance's ticketing that order id was paid;
// call it after the commit. It never blocks: wake-ups coalesce. The span
// in ctx is kept for the order's ticketing, should this instance claim it.
func (s *Service) wakeTicketing(ctx context.Context, id int64) {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		s.payers.Put(id, sc)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// runTicketing tickets due orders until ctx ends (the queue's Stop), then
// waits for the batches it claimed, the orders handed over included.
func (s *Service) runTicketing(ctx context.Context) {
	slots := make(chan struct{}, ticketBatches)
	var wg sync.WaitGroup
	defer wg.Wait()
	s.ticketing.Store(true)
	var pending []Order
	defer func() { s.drainHandOffs(ctx, &wg, pending) }()
	poll := time.NewTicker(ticketPoll)
	defer poll.Stop()
	claim := true
	for {
		if claim {
			s.claimDue(ctx, slots, &wg)
		}
		claim = true
		select {
		case <-ctx.Done():
			return
		case <-poll.C:
		case <-s.wake:
			select {
			case <-ctx.Done():
				return
			case <-time.After(ticketLinger):
			}
		case o := <-s.handed:
			// Payments close together share a batch; nothing to claim.
			batch := s.takeHandOffs(ctx, []Order{o}, ticketLinger)
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				pending = batch
				return
			}
			wg.Go(func() {
				defer func() { <-slots }()
				s.finishBatch(ctx, batch)
			})
			claim = false
		}
	}
}

// takeHandOffs adds to batch the orders handed over, up to a full batch:
// those waiting now and, given a linger, those arriving within it.
func (s *Service) takeHandOffs(ctx context.Context, batch []Order, linger time.Duration) []Order {
	var until <-chan time.Time
	if linger > 0 {
		t := time.NewTimer(linger)
		defer t.Stop()
		until = t.C
	}
	for len(batch) < ticketBatch {
		select {
		case o := <-s.handed:
			batch = append(batch, o)
			continue
		default:
		}
		if until == nil {
			return batch
		}
		select {
		case o := <-s.handed:
			batch = append(batch, o)
		case <-until:
			return batch
		case <-ctx.Done():
			return batch
		}
	}
	return batch
}

// drainHandOffs stops taking orders from payers and tickets those handed
// over already (pending, taken but not started, first), so that a stop
// does not leave them to wait for their leases.
func (s *Service) drainHandOffs(ctx context.Context, wg *sync.WaitGroup, pending []Order) {
	s.ticketing.Store(false)
	for {
		batch := s.takeHandOffs(ctx, pending, 0)
		pending = nil
		if len(batch) == 0 {
			return
		}
		wg.Go(func() { s.finishBatch(ctx, batch) })
	}
}

// finishBatch tickets a batch within ticketTimeout, even when ctx (the
// queue's) has ended: left unfinished, its orders would wait for their
// leases.
func (s *Service) finishBatch(ctx context.Context, batch []Order) {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ticketTimeout)
	defer cancel()
	s.ticketBatch(bctx, batch)
}

// claimDue claims batches of due orders and starts each on its own, for as
// long as batches come back full and a slot is free.
func (s *Service) claimDue(ctx context.Context, slots chan struct{}, wg *sync.WaitGroup) {
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		batch, err := s.claimTickets(ctx, ticketBatch)
		if err != nil || len(batch) == 0 {
			<-slots
			if err != nil && ctx.Err() == nil {
				s.Logger.ErrorContext(ctx, "order: claiming orders to ticket failed; the next poll tries again", "err", err)
			}
			return
		}
		wg.Go(func() {
			defer func() { <-slots }()
			s.finishBatch(ctx, batch)
		})
		if len(batch) < ticketBatch {
			return
		}
	}
}

// claimQuery takes up to a batch of due orders, oldest due first, leasing
// each and counting the attempt, and answers them. The status is a literal
// so the planner can use the partial index flight_orders_ticket_due. On
// PostgreSQL instances skip each other's locked rows; SQLite has one
// writer.
func claimQuery(d store.Dialect) string {
	lock := ""
	if d == store.Postgres {
		lock = ` FOR UPDATE SKIP LOCKED`
	}
	return `UPDATE flight_orders SET ticket_due_at = ?, ticket_attempts = ticket_attempts + 1
		WHERE id IN (SELECT id FROM flight_orders WHERE status = 'proceeding' AND ticket_due_at <= ?
			ORDER BY ticket_due_at, id LIMIT ?` + lock + `)
		RETURNING ` + columns
}

// claimTickets claims up to limit due orders for ticketLease.
func (s *Service) claimTickets(ctx context.Context, limit int) ([]Order, error) {
	now := s.Now().UTC()
	var rows []row
	if err := s.DB.SelectContext(ctx, &rows, s.DB.Rebind(claimQuery(s.DB.Dialect)), now.Add(ticketLease), now, limit); err != nil {
		return nil, fmt.Errorf("order: claim orders to ticket: %w", err)
	}
	out := make([]Order, 0, len(rows))
	for _, r := range rows {
		o, err := r.decode()
		if err != nil {
			// Left leased: a person has to look at a row that does not
			// decode, and retrying it every lease would only log again.
			s.Logger.ErrorContext(ctx, "order: a claimed order does not decode", "order", r.ID, "err", err)
			continue
		}
		// Paid here: the ticketing continues the payer's trace.
		o.payer, _ = s.payers.Take(o.ID)
		out = append(out, o)
	}
	return out, nil
}

// ticketBatch asks the suppliers for each order's tickets, ticketCalls at a
// time, then records the outcomes.
func (s *Service) ticketBatch(ctx context.Context, batch []Order) {
	errs := make([]error, len(batch))
	slots := make(chan struct{}, ticketCalls)
	var wg sync.WaitGroup
	for i := range batch {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			ictx, span := s.ticketSpan(ctx, &batch[i])
			errs[i] = s.issue(ictx, &batch[i])
			if errs[i] != nil {
				span.RecordError(errs[i])
				span.SetStatus(codes.Error, errs[i].Error())
			}
			span.End()
		})
	}
	wg.Wait()
	// The outcomes are recorded even when the suppliers took the batch's
	// whole time: what they answered is known now, and the lease allows
	// for it.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ticketRecordTimeout)
	defer cancel()
	s.recordTickets(rctx, batch, errs)
}

// ticketSpan starts the span of o's ticketing. Ticketing is a sweep, not a
// job per order, so no job's metadata carries a trace to it: an order paid
// on this instance continues its payer's trace (the request, its ledger
// writes, then this and the supplier's calls), whether handed over or
// claimed from the table after wakeTicketing (s.payers); one paid on
// another instance, or retried, starts a trace of its own.
func (s *Service) ticketSpan(ctx context.Context, o *Order) (context.Context, trace.Span) {
	if o.payer.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, o.payer)
	}
	return s.tracer.Start(ctx, "flight.ticket", trace.WithAttributes(
		attribute.Int64("order.id", o.ID), attribute.String("order.booking_number", o.BookingNumber),
		attribute.Int("order.ticket_attempt", o.ticketAttempts)))
}

// issue asks o's suppliers for its tickets and sets them on o, each
// traveller's and the order's; the error is the first supplier's that
// failed (transient tells whether asking again may help).
func (s *Service) issue(ctx context.Context, o *Order) error {
	var numbers []string
	perPax := make([][]string, len(o.Passengers))
	for _, b := range o.Booked.Bookings {
		sup, ok := s.suppliers(b.Supplier)
		if !ok {
			return fmt.Errorf("supplier %s is not configured", b.Supplier)
		}
		tickets, err := sup.Ticket(ctx, b.Ref)
		if err != nil {
			return err
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
	o.content = passengersOnly
	o.TicketNumbers = strings.Join(numbers, "/")
	return nil
}

// recordTickets records a batch's outcomes: issued orders, retries and the
// holds of last attempts in one commit; refusals each fail their order and
// give the money back in a commit of their own. When the batch's commit
// fails, each order is recorded on its own, so one bad order does not
// hold back the rest; one that fails again waits for its lease.
func (s *Service) recordTickets(ctx context.Context, batch []Order, errs []error) {
	var refused []int
	for i, err := range errs {
		if err != nil && !transient(err) {
			refused = append(refused, i)
		}
	}
	// A batch all ticketed and quiet is one statement, committed as it
	// runs: no transaction around it.
	quiet, err := s.quietOnes(ctx, batch, errs)
	if err == nil && !slices.Contains(quiet, false) {
		if err = s.issueQuietly(ctx, s.DB, batch, quiet); err == nil {
			return
		}
	}
	if err != nil {
		s.Logger.WarnContext(ctx, "order: recording a ticketing batch failed; recording it in a transaction", "orders", len(batch), "err", err)
		quiet = make([]bool, len(batch))
	}
	// Each attempt moves a copy: a move changes the order it is given,
	// and a rolled-back commit must leave the batch as claimed.
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.issueQuietly(ctx, tx, batch, quiet); err != nil {
			return err
		}
		for i := range batch {
			if quiet[i] {
				continue
			}
			o := batch[i]
			if err := s.recordTicket(ctx, tx, &o, errs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		s.Logger.WarnContext(ctx, "order: recording a ticketing batch failed; recording its orders one by one", "orders", len(batch), "err", err)
		for i := range batch {
			o := batch[i]
			if err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return s.recordTicket(ctx, tx, &o, errs[i]) }); err != nil {
				s.Logger.ErrorContext(ctx, "order: recording ticketing failed; tried again when its lease runs out",
					"order", batch[i].ID, "err", err)
			}
		}
	}
	for _, i := range refused {
		if err := s.failTicketing(ctx, batch[i], errs[i]); err != nil && !isConflict(err) {
			s.Logger.ErrorContext(ctx, "order: failing a refused ticketing failed; tried again when its lease runs out",
				"order", batch[i].ID, "err", err)
		}
	}
}

// quietOnes are the batch's orders issueQuietly can record: ticketed, of
// the origin type, with no webhook event to deliver, on PostgreSQL.
func (s *Service) quietOnes(ctx context.Context, batch []Order, errs []error) ([]bool, error) {
	quiet := make([]bool, len(batch))
	if s.DB.Dialect != store.Postgres {
		return quiet, nil
	}
	for i := range batch {
		if errs[i] != nil || batch[i].Type != TypeOrigin {
			continue
		}
		notify, err := s.announces(ctx, &batch[i])
		if err != nil {
			return nil, err
		}
		quiet[i] = !notify
	}
	return quiet, nil
}

// issueQuietly records by one statement, in tx or on the pool, the
// batch's quiet orders (quietOnes): their status, tickets and timeline
// entries, where a move each was a round trip each. An order someone else
// moved on meanwhile is left as it is, as recordTicket does.
func (s *Service) issueQuietly(ctx context.Context, tx sqlx.ExtContext, batch []Order, quiet []bool) error {
	to, ok := Next(TypeOrigin, Proceeding, ActTicketed)
	if !ok {
		return errors.New("order: the status machine does not ticket a proceeding order")
	}
	var ids []int64
	var numbers, passengers []string
	for i := range batch {
		if !quiet[i] {
			continue
		}
		o := &batch[i]
		ids = append(ids, o.ID)
		numbers = append(numbers, o.TicketNumbers)
		passengers = append(passengers, store.JSON(o.Passengers))
	}
	if len(ids) == 0 {
		return nil
	}
	now := s.Now().UTC()
	var saved []int64
	err := sqlx.SelectContext(ctx, tx, &saved, tx.Rebind(issueMany), pq.Array(ids), pq.Array(numbers), pq.Array(passengers),
		string(to), now, string(Proceeding), string(ActTicketed), string(Proceeding), string(to), "system", "", now)
	if err != nil {
		return fmt.Errorf("order: record %d orders ticketed: %w", len(ids), err)
	}
	if len(saved) < len(ids) {
		for _, id := range ids {
			if !slices.Contains(saved, id) {
				s.Logger.InfoContext(ctx, "order: moved on while it was ticketed; left as it is", "order", id)
			}
		}
	}
	return nil
}

// issueMany saves ticketed orders from arrays of ids, ticket numbers and
// passengers, each only while still in the status given (u), with the
// move's timeline entry of each saved.
const issueMany = `WITH v AS (SELECT * FROM unnest(CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[])) AS v(id, ticket_numbers, passengers)),
	u AS (UPDATE flight_orders o SET status = ?, ticket_numbers = v.ticket_numbers, passengers = v.passengers, updated_at = ?
		FROM v WHERE o.id = v.id AND o.status = ? RETURNING o.id)
	` + eventOfMoved + ` RETURNING order_id`

// recordTicket records one order's outcome in tx; refusals are left to
// recordTickets. An order someone else moved on meanwhile (a provider's
// action, a run whose lease had not run out after all) is left as it is.
func (s *Service) recordTicket(ctx context.Context, tx *sqlx.Tx, o *Order, cause error) error {
	var err error
	switch {
	case cause == nil:
		err = s.move(ctx, tx, o, ActTicketed, "system", "")
	case !transient(cause):
		return nil
	case o.ticketAttempts >= ticketAttempts:
		s.Logger.WarnContext(ctx, "order: ticketing failed on its last attempt; held for a person", "order", o.ID, "err", cause)
		err = s.move(ctx, tx, o, ActUncertain, "system", cause.Error())
	default:
		next := s.Now().Add(ticketRetry(o.ticketAttempts)).UTC()
		s.Logger.WarnContext(ctx, "order: ticketing failed; tried again", "order", o.ID, "attempt", o.ticketAttempts, "next", next, "err", cause)
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE flight_orders SET ticket_due_at = ? WHERE id = ? AND status = 'proceeding'`), next, o.ID)
		if err != nil {
			err = fmt.Errorf("order %d: schedule the next ticketing: %w", o.ID, err)
		}
	}
	if err != nil && isConflict(err) {
		s.Logger.InfoContext(ctx, "order: moved on while it was ticketed; left as it is", "order", o.ID)
		return nil
	}
	return err
}
