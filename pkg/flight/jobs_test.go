package flight

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// deadlineSeed is an order seedDeadlines stores.
type deadlineSeed struct {
	name      string
	typ       string
	status    Status
	payBy     time.Time
	confirmBy time.Time
}

// seedDeadlines stores orders of one agency with the given statuses and
// deadlines and answers their ids by name.
func seedDeadlines(t *testing.T, db *store.DB, orders []deadlineSeed) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	ids := map[string]int64{}
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		var agencyID int64
		if err := tx.GetContext(ctx, &agencyID, tx.Rebind(`INSERT INTO agencies (code, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`),
			"SWEEP", "Sweep Travel", now, now); err != nil {
			return err
		}
		for _, o := range orders {
			row := Order{Head: booking.Head{AgencyID: agencyID}, Type: o.typ, Status: o.status, PaymentStatus: Unpaid, Currency: "CNY",
				PayBy: o.payBy, ConfirmBy: o.confirmBy, CreatedAt: now, UpdatedAt: now}
			if err := insert(ctx, db, tx, &row); err != nil {
				return err
			}
			ids[o.name] = row.ID
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestDueOrdersPagesByDeadline checks the sweep's query on both engines:
// only the waiting statuses, only deadlines at or before now (fractions of
// a second included: SQLite compares the stored text), oldest first with
// ties by id, and paging after a position neither repeats nor skips.
func TestDueOrdersPagesByDeadline(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2030, 1, 2, 3, 4, 5, 123456000, time.UTC)
		var zero time.Time
		ids := seedDeadlines(t, db, []deadlineSeed{
			{"late", TypeOrigin, ToBePaid, now.Add(-3 * time.Minute), zero},
			{"reserved", TypeOrigin, Reserved, now.Add(-2 * time.Minute), zero},
			{"tie", TypeOrigin, ToBePaid, now.Add(-2 * time.Minute), zero},
			{"justNow", TypeOrigin, ToBePaid, now, zero},
			{"microLater", TypeOrigin, ToBePaid, now.Add(time.Microsecond), zero},
			{"later", TypeOrigin, ToBePaid, now.Add(time.Minute), zero},
			{"reviewing", TypeOrigin, Reviewing, now.Add(-5 * time.Minute), zero},
			{"paid", TypeOrigin, Proceeding, now.Add(-5 * time.Minute), zero},
			{"noDeadline", TypeOrigin, ToBePaid, zero, zero},
			{"refund", TypeRefund, RfdToBeConfirm, zero, now.Add(-time.Minute)},
			{"change", TypeChange, ChgToBePaid, zero, now.Add(-10 * time.Minute)},
			{"refundLater", TypeRefund, RfdToBeConfirm, zero, now.Add(time.Hour)},
			{"refundDone", TypeRefund, RefundCanceled, zero, now.Add(-time.Hour)},
			// A to_be_paid row's confirm_by is not its deadline.
			{"payConfirm", TypeOrigin, ToBePaid, now.Add(time.Hour), now.Add(-time.Hour)},
		})
		want := [][]string{{"late", "reserved", "tie", "justNow"}, {"change", "refund"}}
		for i, w := range deadlineWaits {
			var got []string
			var after *dueOrder
			for page := 0; ; page++ {
				due, err := dueOrders(ctx, db, w, now, after, 2)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range due {
					for name, id := range ids {
						if id == d.ID {
							got = append(got, name)
						}
					}
				}
				if len(due) < 2 {
					break
				}
				if page > 10 {
					t.Fatalf("%s: paging does not end", w.column)
				}
				after = &due[len(due)-1]
			}
			if fmt.Sprint(got) != fmt.Sprint(want[i]) {
				t.Errorf("%s: due %v, want %v", w.column, got, want[i])
			}
		}
	})
}

// TestDueQueryUsesPartialIndexes: the sweep must not read every order ever
// booked, so each of its queries has to match its partial index of
// migration 00012 (a status list that drifted from the index's would
// silently fall back to scanning the table).
func TestDueQueryUsesPartialIndexes(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		index := map[string]string{"pay_by": "flight_orders_pay_due", "confirm_by": "flight_orders_confirm_due"}
		now := time.Now().UTC()
		for _, w := range deadlineWaits {
			for _, after := range []bool{false, true} {
				args := []any{now}
				if after {
					args = append(args, now.Add(-time.Hour), int64(1))
				}
				args = append(args, sweepBatch)
				plan := explain(t, db, dueQuery(w, after), args...)
				if !strings.Contains(plan, index[w.column]) {
					t.Errorf("%s (after=%v) does not use %s:\n%s", w.column, after, index[w.column], plan)
				}
			}
		}
	})
}

// explain answers the plan of q (with ? marks) with args, as text; on
// PostgreSQL with sequential scans forbidden, since a near-empty table is
// cheapest to scan whole and the plan would not show whether an index
// applies.
func explain(t *testing.T, db *store.DB, q string, args ...any) string {
	t.Helper()
	ctx := context.Background()
	var plan []string
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		q := tx.Rebind(q)
		if db.Dialect == store.Postgres {
			if _, err := tx.ExecContext(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
				return err
			}
			return tx.SelectContext(ctx, &plan, `EXPLAIN `+q, args...)
		}
		var rows []struct {
			ID      int64  `db:"id"`
			Parent  int64  `db:"parent"`
			NotUsed int64  `db:"notused"`
			Detail  string `db:"detail"`
		}
		if err := tx.SelectContext(ctx, &rows, `EXPLAIN QUERY PLAN `+q, args...); err != nil {
			return err
		}
		for _, r := range rows {
			plan = append(plan, r.Detail)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}

// TestSweepIsOneUniquePeriodicJob: the sweep replaces per-order jobs, so it
// must be scheduled, start with the process and be unique per period so
// several instances do not each run it; the old per-order kind must still
// have a worker for the jobs already queued.
func TestSweepIsOneUniquePeriodicJob(t *testing.T) {
	t.Parallel()
	s := New(Options{})
	jw := jobs.NewWorkers()
	periodic := s.AddWorkers(jw)
	w := jw.River()
	if len(periodic) != 1 {
		t.Fatalf("%d periodic jobs, want the deadline sweep alone", len(periodic))
	}
	opts := DeadlineSweepArgs{}.InsertOpts()
	if opts.UniqueOpts.ByPeriod != sweepEvery || opts.MaxAttempts != 1 {
		t.Errorf("sweep insert options %+v, want unique by its %s period and one attempt", opts, sweepEvery)
	}
	// Adding a kind twice panics, so a kind that does not panic had no
	// worker.
	for kind, add := range map[string]func(){
		DeadlineArgs{}.Kind(): func() {
			river.AddWorker(w, river.WorkFunc(func(context.Context, *river.Job[DeadlineArgs]) error { return nil }))
		},
		DeadlineSweepArgs{}.Kind(): func() {
			river.AddWorker(w, river.WorkFunc(func(context.Context, *river.Job[DeadlineSweepArgs]) error { return nil }))
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("kind %s had no worker", kind)
				}
			}()
			add()
		}()
	}
}

// TestRelatedOrders: an order's detail lists the other orders of its trip
// (the origin order and its post-sale requests) and nothing else, reading
// the requests through flight_orders_requests rather than every order.
func TestRelatedOrders(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ids := seedDeadlines(t, db, []deadlineSeed{{"origin", TypeOrigin, Issued, time.Time{}, time.Time{}}, {"other", TypeOrigin, Issued, time.Time{}, time.Time{}}})
		now := time.Now().UTC()
		var agencyID int64
		if err := db.GetContext(ctx, &agencyID, db.Rebind(`SELECT agency_id FROM flight_orders WHERE id = ?`), ids["origin"]); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"refund", "change"} {
			r := Order{Head: booking.Head{AgencyID: agencyID}, Type: TypeRefund, OriginalID: ids["origin"], RootID: ids["origin"], Status: RfdRejected,
				PaymentStatus: Unpaid, Currency: "CNY", CreatedAt: now, UpdatedAt: now}
			if name == "change" {
				r.Type, r.Status = TypeChange, ChgReviewing
			}
			err := db.InTx(ctx, func(tx *sqlx.Tx) error { return insert(ctx, db, tx, &r) })
			if err != nil {
				t.Fatal(err)
			}
			ids[name] = r.ID
		}
		names := func(of string) []string {
			o, err := stored.Load(ctx, db, nil, ids[of])
			if err != nil {
				t.Fatal(err)
			}
			rel, err := related(ctx, db, o)
			if err != nil {
				t.Fatal(err)
			}
			return namesOf(ids, rel)
		}
		for of, want := range map[string]string{"origin": "[refund change]", "refund": "[origin change]", "change": "[origin refund]", "other": "[]"} {
			if got := fmt.Sprint(names(of)); got != want {
				t.Errorf("related to %s: %s, want %s", of, got, want)
			}
		}
		if plan := explain(t, db, relatedQuery, int64(1), int64(1), int64(2)); !strings.Contains(plan, "flight_orders_requests") {
			t.Errorf("related orders are not read through flight_orders_requests:\n%s", plan)
		}
	})
}
