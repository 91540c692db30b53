package agency_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/store"
)

func TestLookToBook(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		counts agency.LookCounts
		want   string
	}{
		{agency.LookCounts{}, ""},
		{agency.LookCounts{Searches: 12, Verifications: 4}, ""},
		{agency.LookCounts{Searches: 7, Verifications: 3, Bookings: 2}, "3.5"},
		{agency.LookCounts{Searches: 2, Bookings: 3}, "0.7"},
		{agency.LookCounts{Bookings: 1}, "0.0"},
	} {
		if got := tc.counts.LookToBook(); got != tc.want {
			t.Errorf("%+v: look-to-book %q, want %q", tc.counts, got, tc.want)
		}
	}
}

func count(t *testing.T, svc *agency.Service, id int64, counter string, n int) {
	t.Helper()
	for range n {
		if err := svc.CountLook(context.Background(), id, counter); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLookCountsListAndDetail(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		st := agency.NewStore(db)
		sub, blue := w.sub.AgencyID, w.bluesky.AgencyID

		for _, tc := range []struct {
			counter string
			n       int
		}{
			{agency.CounterSearches, 7},
			{agency.CounterVerifications, 3},
			{agency.CounterBookings, 2},
		} {
			count(t, w.svc, sub, tc.counter, tc.n)
		}
		count(t, w.svc, blue, agency.CounterSearches, 40)
		if err := w.svc.CountLook(ctx, sub, "clicks"); err == nil {
			t.Error("an unknown counter was counted")
		}

		want := map[int64]agency.LookCounts{
			sub:  {Searches: 7, Verifications: 3, Bookings: 2},
			blue: {Searches: 40},
		}
		for id, lc := range want {
			if got, err := st.LookCounts(ctx, id); err != nil || got != lc {
				t.Errorf("agency %d: counts %+v (%v), want %+v", id, got, err, lc)
			}
		}
		if got, err := st.LookCounts(ctx, w.demo.AgencyID); err != nil || got != (agency.LookCounts{}) {
			t.Errorf("an agency that never counted: %+v (%v)", got, err)
		}
		many, err := st.LookCountsOf(ctx, []int64{sub, blue, w.demo.AgencyID})
		if err != nil || len(many) != 2 || many[sub] != want[sub] || many[blue] != want[blue] {
			t.Errorf("counts of a page: %+v (%v)", many, err)
		}

		list, _, err := w.svc.List(ctx, w.provider, agency.ListFilter{Page: 1, PageSize: 20})
		if err != nil {
			t.Fatal(err)
		}
		shown := map[int64]agency.Summary{}
		for _, s := range list {
			shown[s.ID] = s
		}
		for _, tc := range []struct {
			id         int64
			s, v, b    int64
			lookToBook string
		}{
			{sub, 7, 3, 2, "3.5"},
			{blue, 40, 0, 0, ""},
			{w.demo.AgencyID, 0, 0, 0, ""},
		} {
			got, ok := shown[tc.id]
			if !ok || got.Searches != tc.s || got.Verifications != tc.v || got.Bookings != tc.b || got.LookToBook != tc.lookToBook {
				t.Errorf("list shows agency %d as %+v", tc.id, got)
			}
		}
		d, err := w.svc.Get(ctx, w.provider, sub, nil)
		if err != nil || d.Searches != 7 || d.Verifications != 3 || d.Bookings != 2 || d.LookToBook != "3.5" {
			t.Errorf("detail: %+v (%v)", d.Summary, err)
		}

		// An agency with counts can still be deleted: its counters go with it.
		a, err := w.svc.Create(ctx, w.demo, newAgency("Counted Travel", "counted-admin"))
		if err != nil {
			t.Fatal(err)
		}
		count(t, w.svc, a.ID, agency.CounterSearches, 3)
		if err := w.svc.Delete(ctx, w.demo, a.ID); err != nil {
			t.Fatalf("delete an agency with counts: %v", err)
		}
		if got, _ := st.LookCounts(ctx, a.ID); got != (agency.LookCounts{}) {
			t.Errorf("a deleted agency keeps counts %+v", got)
		}
	})
}

func TestCountLookTxCommitsWithItsTransaction(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		st := agency.NewStore(db)
		id := w.sub.AgencyID
		errRollback := errors.New("the order failed")
		for _, tc := range []struct {
			name     string
			fail     bool
			bookings int64
		}{
			{"rolled back", true, 0},
			{"committed", false, 1},
			{"rolled back again", true, 1},
		} {
			err := db.InTx(ctx, func(tx *sqlx.Tx) error {
				if err := w.svc.CountLookTx(ctx, tx, id, agency.CounterBookings); err != nil {
					return err
				}
				if tc.fail {
					return errRollback
				}
				return nil
			})
			if tc.fail != errors.Is(err, errRollback) || (!tc.fail && err != nil) {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if got, err := st.LookCounts(ctx, id); err != nil || got.Bookings != tc.bookings {
				t.Errorf("%s: %d bookings (%v), want %d", tc.name, got.Bookings, err, tc.bookings)
			}
		}
	})
}

// TestConcurrentCountLook: increments of one agency at once, as under load,
// are all counted, none lost and none failing on a conflict of two first
// inserts of one stripe.
func TestConcurrentCountLook(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		st := agency.NewStore(db)
		id := w.sub.AgencyID
		const n = 200
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				counter := agency.CounterSearches
				if i%4 == 0 {
					counter = agency.CounterBookings
				}
				errs <- w.svc.CountLook(ctx, id, counter)
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if got, err := st.LookCounts(ctx, id); err != nil || got.Searches != n*3/4 || got.Bookings != n/4 {
			t.Errorf("after %d concurrent increments: %+v (%v)", n, got, err)
		}
		var stripes int
		if err := db.GetContext(ctx, &stripes, db.Rebind(`SELECT COUNT(*) FROM agency_look_counts WHERE agency_id = ? AND counter = ?`),
			id, agency.CounterSearches); err != nil {
			t.Fatal(err)
		}
		if stripes < 2 || stripes > 32 {
			t.Errorf("%d increments spread over %d stripes", n*3/4, stripes)
		}
	})
}

// TestLookCountsMigration: migration 00011 carries the counters from the
// agencies row into the striped table and, rolled back, folds them back.
func TestLookCountsMigration(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		st := agency.NewStore(db)
		sub, blue := w.sub.AgencyID, w.bluesky.AgencyID
		count(t, w.svc, sub, agency.CounterSearches, 50)
		count(t, w.svc, sub, agency.CounterBookings, 4)
		count(t, w.svc, blue, agency.CounterVerifications, 2)

		version := func() int64 {
			t.Helper()
			var v int64
			if err := db.GetContext(ctx, &v, `SELECT MAX(version_id) FROM goose_db_version`); err != nil {
				t.Fatal(err)
			}
			return v
		}
		for version() >= 11 {
			if err := db.MigrateDown(ctx); err != nil {
				t.Fatal(err)
			}
		}
		type row struct {
			ID            int64 `db:"id"`
			Searches      int64 `db:"searches"`
			Verifications int64 `db:"verifications"`
			Bookings      int64 `db:"bookings"`
		}
		folded := map[int64]row{}
		var rows []row
		if err := db.SelectContext(ctx, &rows, `SELECT id, searches, verifications, bookings FROM agencies`); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			folded[r.ID] = r
		}
		for _, want := range []row{{sub, 50, 0, 4}, {blue, 0, 2, 0}, {w.demo.AgencyID, 0, 0, 0}} {
			if folded[want.ID] != want {
				t.Errorf("rolled back: %+v, want %+v", folded[want.ID], want)
			}
		}

		// Counts as the previous schema kept them, carried over by Up.
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE agencies SET searches = ?, verifications = ?, bookings = ? WHERE id = ?`),
			123, 0, 9, w.demo.AgencyID); err != nil {
			t.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			id   int64
			want agency.LookCounts
		}{
			{sub, agency.LookCounts{Searches: 50, Bookings: 4}},
			{blue, agency.LookCounts{Verifications: 2}},
			{w.demo.AgencyID, agency.LookCounts{Searches: 123, Bookings: 9}},
		} {
			if got, err := st.LookCounts(ctx, tc.id); err != nil || got != tc.want {
				t.Errorf("agency %d after the migration: %+v (%v), want %+v", tc.id, got, err, tc.want)
			}
		}
		var carried []struct {
			Counter string `db:"counter"`
			Stripe  int    `db:"stripe"`
		}
		if err := db.SelectContext(ctx, &carried, db.Rebind(`SELECT counter, stripe FROM agency_look_counts WHERE agency_id = ? ORDER BY counter`),
			w.demo.AgencyID); err != nil {
			t.Fatal(err)
		}
		if len(carried) != 2 || carried[0].Stripe != 0 || carried[1].Stripe != 0 {
			t.Errorf("carried rows %+v, want bookings and searches on stripe 0 (no row for a zero count)", carried)
		}
		// Counting goes on from the carried figures.
		count(t, w.svc, w.demo.AgencyID, agency.CounterBookings, 1)
		if got, _ := st.LookCounts(ctx, w.demo.AgencyID); got.Bookings != 10 || got.LookToBook() != "12.3" {
			t.Errorf("after one more booking: %+v", got)
		}
	})
}
