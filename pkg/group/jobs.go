package group

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/mail"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
)

// TicketArgs issues a fully paid group's tickets.
type TicketArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (TicketArgs) Kind() string { return "group_ticket" }

// SweepArgs is the periodic job that fails the orders past a deadline and
// sends the reminders due.
type SweepArgs struct{}

// Kind implements river.JobArgs.
func (SweepArgs) Kind() string { return "group_deadline_sweep" }

// sweepEvery is how often the sweep runs: a missed deadline fails its order
// within a minute.
const sweepEvery = 20 * time.Second

// InsertOpts: one sweep per period (booking.SweepOpts).
func (SweepArgs) InsertOpts() river.InsertOpts { return booking.SweepOpts(sweepEvery) }

// PaymentCheckArgs is the payment protocol's status check of an
// installment's gateway payment (Stage names the installment).
type PaymentCheckArgs = payment.CheckArgs[paymentCheck]

type paymentCheck struct{}

func (paymentCheck) CheckKind() string { return "group_payment_check" }

// AddWorkers registers the group workers and the deadline sweep (for
// jobs.Config.Register).
func (s *Service) AddWorkers(w *jobs.Workers) []*river.PeriodicJob {
	jobs.AddFunc(w, 30*time.Second, func(ctx context.Context, j *river.Job[TicketArgs]) error {
		return s.Ticket(ctx, j.Args.OrderID)
	})
	payment.AddCheck[paymentCheck](w, 30*time.Second, func(ctx context.Context, id int64, stage string) error { return s.CheckPayment(ctx, id, stage) })
	// The deadlines first, then the reminders of those still open.
	return []*river.PeriodicJob{jobs.AddSweep(w, 45*time.Second, sweepEvery, SweepArgs{}, func(ctx context.Context) (int, error) {
		missed, err := s.SweepDeadlines(ctx)
		if err != nil {
			return missed, err
		}
		reminded, err := s.Remind(ctx)
		return missed + reminded, err
	})}
}

// sweepBatch is how many missed deadlines one query reads.
const sweepBatch = 200

// SweepDeadlines ends every order whose running deadline has passed: a
// confirm-before time closes the order (expire), a passenger-list or
// installment deadline fails it (miss) and forfeits the deposits paid. It
// answers how many orders it ended.
func (s *Service) SweepDeadlines(ctx context.Context) (int, error) {
	ended := 0
	for {
		ds, err := missedDeadlines(ctx, s.DB, s.Now(), sweepBatch)
		if err != nil {
			return ended, err
		}
		for _, d := range ds {
			ok, err := s.miss(ctx, d)
			if err != nil {
				return ended, err
			}
			if ok {
				ended++
			}
		}
		if len(ds) < sweepBatch {
			return ended, nil
		}
	}
}

// miss ends the order of a missed deadline (or retires the deadline when
// its order can no longer miss it).
func (s *Service) miss(ctx context.Context, d deadline) (bool, error) {
	ended := false
	err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := stored.Load(ctx, s.DB, tx, d.OrderID)
		if err != nil {
			return err
		}
		ds, err := deadlines(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		action := ActMiss
		if d.Kind == KindConfirm {
			action = ActExpire
		}
		if _, ok := Next(o.Status, action, stagesOf(ds)); !ok || StageOf(o.Status) != "" && StageOf(o.Status) != d.Kind {
			// Not this order's running deadline any more: retire it.
			from := d.Status
			d.Status = InstVoid
			_, err := setDeadline(ctx, tx, d, from)
			return err
		}
		remark := remarkOf(remarkMissed, "kind", d.Kind, "at", d.Deadline.UTC().Format(time.RFC3339))
		if err := s.move(ctx, tx, &o, action, system, remark, stagesOf(ds)); err != nil {
			return err
		}
		ended = true
		return s.endDeadlines(ctx, tx, o, ds, system)
	})
	return ended, err
}

// Remind sends the reminders of the deadlines within RemindBefore: an email
// to the order's contact and the agency's webhook event group.reminder,
// once per deadline. It answers how many it sent.
func (s *Service) Remind(ctx context.Context) (int, error) {
	now := s.Now().UTC()
	ds, err := dueReminders(ctx, s.DB, now.Add(s.remindBefore), sweepBatch)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, d := range ds {
		if d.Status == InstNotDue {
			continue
		}
		err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
			ok, err := markReminded(ctx, tx, d.ID, now)
			if err != nil || !ok {
				return err
			}
			o, err := stored.Load(ctx, s.DB, tx, d.OrderID)
			if err != nil {
				return err
			}
			a, err := s.Agencies.CachedIn(ctx, tx, o.AgencyID)
			if err != nil {
				return err
			}
			lang := mail.Lang(a.EmailLanguage)
			loc, lerr := display.LoadZone(d.TimeZone)
			if lerr != nil {
				loc = time.UTC
			}
			local := display.Stamp(loc, d.Deadline)
			if s.catalog != nil && o.Contact.Email != "" {
				kind := s.catalog.T(lang, "group.deadline."+d.Kind)
				if err := mail.Enqueue(ctx, tx, mail.Message{To: o.Contact.Email,
					Subject: s.catalog.T(lang, "group.reminder.subject", "booking", o.BookingNumber, "kind", kind),
					Body: s.catalog.T(lang, "group.reminder.body", "name", o.Contact.Name, "booking", o.BookingNumber, "kind", kind,
						"deadline", local, "amount", money.Of(d.Amount, d.Currency).Amount, "currency", d.Currency)}, now); err != nil {
					return err
				}
			}
			sent++
			return s.NotifyTx(ctx, tx, o.AgencyID, "group.reminder", map[string]any{"id": o.ID, "bookingNumber": o.BookingNumber,
				"status": o.Status, "deadline": d.Kind, "dueAt": d.Deadline.UTC(), "timeZone": d.TimeZone, "amount": money.Of(d.Amount, d.Currency)})
		})
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// Ticket issues one ticket per passenger of a fully paid group and moves it
// to issued. Run again after issuing it does nothing.
func (s *Service) Ticket(ctx context.Context, id int64) error {
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := stored.Load(ctx, s.DB, tx, id)
		if err != nil {
			return err
		}
		if o.Status != Proceeding {
			return nil
		}
		o.Tickets = make([]Ticket, 0, len(o.Passengers))
		for i, p := range o.Passengers {
			// Group desks issue from one stock: the validating carrier's
			// three-digit prefix is the simulated airlines' 880.
			o.Tickets = append(o.Tickets, Ticket{Passenger: p.Surname + "/" + p.GivenName, Type: p.Type,
				TicketNumber: fmt.Sprintf("880%010d", o.ID*1000+int64(i)+1)})
		}
		return s.move(ctx, tx, &o, ActTicketed, system, remarkOf(remarkTicketed, "count", len(o.Tickets)), nil)
	})
}
