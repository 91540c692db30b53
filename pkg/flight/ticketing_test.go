package flight

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
)

// ticketSeed is an order seedTicketing stores.
type ticketSeed struct {
	name   string
	status Status
	due    time.Time
}

// seedTicketing stores origin orders with the given statuses and
// ticketing due times (zero: none) and answers their ids by name.
func seedTicketing(t *testing.T, db *store.DB, orders []ticketSeed) map[string]int64 {
	t.Helper()
	seeds := make([]deadlineSeed, len(orders))
	for i, o := range orders {
		seeds[i] = deadlineSeed{name: o.name, typ: TypeOrigin, status: o.status}
	}
	ids := seedDeadlines(t, db, seeds)
	for _, o := range orders {
		if o.due.IsZero() {
			continue
		}
		if _, err := db.ExecContext(context.Background(), db.Rebind(`UPDATE flight_orders SET ticket_due_at = ? WHERE id = ?`), o.due.UTC(), ids[o.name]); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func namesOf(ids map[string]int64, batch []Order) []string {
	var out []string
	for _, o := range batch {
		for name, id := range ids {
			if id == o.ID {
				out = append(out, name)
			}
		}
	}
	return out
}

// TestClaimTicketsLeases: a claim takes the proceeding orders that are due,
// oldest first, up to its limit, counts an attempt on each and leases them:
// a second claim does not take them again until the lease has run out (the
// claimer died), and then counts a second attempt.
func TestClaimTicketsLeases(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2030, 1, 2, 3, 4, 5, 123456000, time.UTC)
		ids := seedTicketing(t, db, []ticketSeed{
			{"oldest", Proceeding, now.Add(-time.Hour)},
			{"old", Proceeding, now.Add(-time.Minute)},
			{"justNow", Proceeding, now},
			{"later", Proceeding, now.Add(time.Microsecond)},
			{"noDue", Proceeding, time.Time{}},
			{"issued", Issued, now.Add(-time.Hour)},
			{"held", OriginHolding, now.Add(-time.Hour)},
		})
		clock := now
		s := New(Options{Deps: booking.Deps{DB: db, Now: func() time.Time { return clock }}})

		first, err := s.claimTickets(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		second, err := s.claimTickets(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := namesOf(ids, first); !slices.Equal(got, []string{"oldest", "old"}) {
			t.Errorf("first claim %v, want the two oldest due", got)
		}
		if got := namesOf(ids, second); !slices.Equal(got, []string{"justNow"}) {
			t.Errorf("second claim %v, want the rest due and not leased", got)
		}
		for _, o := range append(first, second...) {
			if o.ticketAttempts != 1 || o.Status != Proceeding {
				t.Errorf("order %d claimed with %d attempts in %s, want 1 in proceeding", o.ID, o.ticketAttempts, o.Status)
			}
		}
		if again, err := s.claimTickets(ctx, 10); err != nil || len(again) != 0 {
			t.Fatalf("a claim within the lease took %v (%v)", namesOf(ids, again), err)
		}

		// The claimer died: once the lease runs out, they are taken again.
		clock = now.Add(ticketLease)
		rescued, err := s.claimTickets(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		got := namesOf(ids, rescued)
		slices.Sort(got)
		if !slices.Equal(got, []string{"justNow", "later", "old", "oldest"}) {
			t.Errorf("after the lease ran out the claim took %v", got)
		}
		for _, o := range rescued {
			want := 2
			if o.ID == ids["later"] {
				want = 1
			}
			if o.ticketAttempts != want {
				t.Errorf("order %d: %d attempts, want %d", o.ID, o.ticketAttempts, want)
			}
		}
	})
}

// TestRecordTicketsRetriesThenHolds: a supplier's transient failure puts
// the order back to be tried after ticketRetry; on the last attempt it is
// held for a person with the supplier's error on its timeline. An order
// moved on meanwhile is left as it is and does not stop the batch.
func TestRecordTicketsRetriesThenHolds(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		ids := seedTicketing(t, db, []ticketSeed{
			{"retry", Proceeding, now.Add(-time.Second)},
			{"last", Proceeding, now.Add(-time.Second)},
			{"movedOn", Proceeding, now.Add(-time.Second)},
		})
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE flight_orders SET ticket_attempts = ? WHERE id = ?`), ticketAttempts-1, ids["last"]); err != nil {
			t.Fatal(err)
		}
		clock := now
		s := New(Options{Deps: booking.Deps{DB: db, Now: func() time.Time { return clock }}})
		batch, err := s.claimTickets(ctx, 10)
		if err != nil || len(batch) != 3 {
			t.Fatalf("claimed %d (%v), want 3", len(batch), err)
		}
		// A provider's action took the third order first.
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE flight_orders SET status = ? WHERE id = ?`), string(Issued), ids["movedOn"]); err != nil {
			t.Fatal(err)
		}
		timeout := fmt.Errorf("sim: ticket: %w", supplier.ErrTimeout)
		errs := make([]error, len(batch))
		for i := range errs {
			errs[i] = timeout
		}
		s.recordTickets(ctx, batch, errs)

		type state struct {
			Status   string       `db:"status"`
			Due      sql.NullTime `db:"ticket_due_at"`
			Attempts int          `db:"ticket_attempts"`
		}
		read := func(id int64) state {
			var st state
			if err := db.GetContext(ctx, &st, db.Rebind(`SELECT status, ticket_due_at, ticket_attempts FROM flight_orders WHERE id = ?`), id); err != nil {
				t.Fatal(err)
			}
			return st
		}
		if st := read(ids["retry"]); st.Status != string(Proceeding) || st.Attempts != 1 || !st.Due.Time.Equal(now.Add(ticketRetry(1))) {
			t.Errorf("after a first failure: %+v, want proceeding, 1 attempt, due %s", st, now.Add(ticketRetry(1)))
		}
		if st := read(ids["last"]); st.Status != string(OriginHolding) {
			t.Errorf("after the last attempt: %+v, want %s", st, OriginHolding)
		}
		var remark string
		if err := db.GetContext(ctx, &remark, db.Rebind(`SELECT remark FROM flight_order_events WHERE order_id = ? AND action = ?`), ids["last"], string(ActUncertain)); err != nil {
			t.Fatalf("the hold is not on the timeline: %v", err)
		}
		if !strings.Contains(remark, "timed out") && !strings.Contains(remark, "timeout") {
			t.Errorf("hold remark %q does not say what the supplier did", remark)
		}
		if st := read(ids["movedOn"]); st.Status != string(Issued) {
			t.Errorf("the order moved on meanwhile is %s", st.Status)
		}

		// The retry is not due before its time, and is at it.
		if got, _ := s.claimTickets(ctx, 10); len(got) != 0 {
			t.Errorf("claimed %v before the retry was due", namesOf(ids, got))
		}
		clock = now.Add(ticketRetry(1))
		if got, _ := s.claimTickets(ctx, 10); !slices.Equal(namesOf(ids, got), []string{"retry"}) || got[0].ticketAttempts != 2 {
			t.Errorf("at the retry's time claimed %v", namesOf(ids, got))
		}
	})
}

// TestMoveToProceedingMakesDue: the payment's move sets the order's first
// ticketing due time and starts its attempts again (an order held and
// issued again by the provider is tried afresh).
func TestMoveToProceedingMakesDue(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		ids := seedTicketing(t, db, []ticketSeed{{"unpaid", ToBePaid, time.Time{}}})
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE flight_orders SET ticket_attempts = 3 WHERE id = ?`), ids["unpaid"]); err != nil {
			t.Fatal(err)
		}
		s := New(Options{Deps: booking.Deps{DB: db, Now: func() time.Time { return now }}})
		err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			o, err := stored.Load(ctx, db, tx, ids["unpaid"])
			if err != nil {
				return err
			}
			return s.move(ctx, tx, &o, ActPay, "test", "")
		})
		if err != nil {
			t.Fatal(err)
		}
		batch, err := s.claimTickets(ctx, 10)
		if err != nil || len(batch) != 1 || batch[0].ticketAttempts != 1 {
			t.Fatalf("after the payment the claim took %d orders (%v), want the paid one on its first attempt", len(batch), err)
		}
	})
}

// TestClaimQueryUsesPartialIndex: every instance polls every second, so
// the claim must read the due orders only, not every order ever booked.
func TestClaimQueryUsesPartialIndex(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		now := time.Now().UTC()
		plan := explain(t, db, claimQuery(db.Dialect), now, now, ticketBatch)
		if !strings.Contains(plan, "flight_orders_ticket_due") {
			t.Errorf("the claim does not use flight_orders_ticket_due:\n%s", plan)
		}
	})
}

// TestRecordTicketsIssuesTheBatch: a batch's ticketed orders are issued
// with their tickets and a timeline entry each (on PostgreSQL by one
// statement, with no transaction around it when the whole batch was
// ticketed), an order moved on meanwhile is left as it is, and a failed
// order in the same batch still gets its retry.
func TestRecordTicketsIssuesTheBatch(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		s := New(Options{Deps: booking.Deps{DB: db, Now: func() time.Time { return now }}})
		var seeds []ticketSeed
		for _, name := range []string{"first", "second", "movedOn", "failed", "third", "fourth", "movedOnToo"} {
			seeds = append(seeds, ticketSeed{name, Proceeding, now.Add(-time.Second)})
		}
		ids := seedTicketing(t, db, seeds)
		claimed, err := s.claimTickets(ctx, 10)
		if err != nil || len(claimed) != len(seeds) {
			t.Fatalf("claimed %d (%v), want %d", len(claimed), err, len(seeds))
		}
		for _, name := range []string{"movedOn", "movedOnToo"} {
			if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE flight_orders SET status = ? WHERE id = ?`), string(Canceled), ids[name]); err != nil {
				t.Fatal(err)
			}
		}
		for _, round := range []struct {
			name   string
			failed string
			want   map[string]Status
		}{
			{"with a failure", "failed", map[string]Status{"first": Issued, "second": Issued, "movedOn": Canceled, "failed": Proceeding}},
			{"all ticketed", "", map[string]Status{"third": Issued, "fourth": Issued, "movedOnToo": Canceled}},
		} {
			var batch []Order
			for _, o := range claimed {
				for name := range round.want {
					if o.ID == ids[name] {
						batch = append(batch, o)
					}
				}
			}
			errs := make([]error, len(batch))
			for i := range batch {
				o := &batch[i]
				o.Passengers = []Passenger{{Surname: "SMITH", GivenName: "ALEX", TicketNumber: fmt.Sprintf("999%010d", o.ID)}}
				o.TicketNumbers, o.content = o.Passengers[0].TicketNumber, passengersOnly
				if round.failed != "" && o.ID == ids[round.failed] {
					errs[i] = supplier.ErrUnavailable
				}
			}
			s.recordTickets(ctx, batch, errs)

			for name, want := range round.want {
				o, err := stored.Load(ctx, db, nil, ids[name])
				if err != nil {
					t.Fatal(err)
				}
				var events int
				if err := db.GetContext(ctx, &events, db.Rebind(`SELECT COUNT(*) FROM flight_order_events WHERE order_id = ? AND action = ? AND to_status = ?`),
					o.ID, string(ActTicketed), string(Issued)); err != nil {
					t.Fatal(err)
				}
				if o.Status != want {
					t.Errorf("%s, %s: %s, want %s", round.name, name, o.Status, want)
				}
				wantNumber, wantEvents := "", 0
				if want == Issued {
					wantNumber, wantEvents = fmt.Sprintf("999%010d", o.ID), 1
				}
				if o.TicketNumbers != wantNumber || events != wantEvents || want == Issued && (len(o.Passengers) != 1 || o.Passengers[0].TicketNumber != wantNumber) {
					t.Errorf("%s, %s: tickets %q, passengers %+v, %d timeline entries; want %q and %d", round.name, name, o.TicketNumbers, o.Passengers, events, wantNumber, wantEvents)
				}
			}
		}
	})
}

// TestHandOffSharesNoTravellers: the order handed to the ticketing is the
// ticketing's own. It writes each traveller's ticket number there while the
// payer still answers its request from its order (the race detector saw an
// answer read a traveller being ticketed).
func TestHandOffSharesNoTravellers(t *testing.T) {
	t.Parallel()
	s := &Service{handed: make(chan Order, 1)}
	paid := Order{Passengers: []Passenger{{Surname: "WANG", GivenName: "MEI"}, {Surname: "LI", GivenName: "LEI"}}}
	if !s.handOff(context.Background(), paid) {
		t.Fatal("the hand-off found no room")
	}
	handed := <-s.handed
	for i := range handed.Passengers {
		handed.Passengers[i].TicketNumber = fmt.Sprintf("999-00000000%d", i)
	}
	for i, p := range paid.Passengers {
		if p.TicketNumber != "" {
			t.Errorf("the payer's traveller %d got ticket %q from the ticketing's copy", i, p.TicketNumber)
		}
	}
}
