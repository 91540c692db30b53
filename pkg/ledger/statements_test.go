package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

func TestStoredStatements(t *testing.T) {
	t.Parallel()
	withLedger(t, 2, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		a, b := ids[0], ids[1]
		now := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
		l.SetClock(func() time.Time { return now })
		mustPost(t, ctx, l, topUp(a, "t1", 500_00))
		mustPost(t, ctx, l, pay(a, "p1", 120_25))
		now = now.Add(5 * time.Minute)
		info, st, err := l.CreateStatement(ctx, a, "CNY", "2026-11-01", "2026-11-30", "UTC", "tester")
		if err != nil {
			t.Fatal(err)
		}
		if info.Opening != 0 || info.Closing != 379_75 || info.EntryCount != 2 || len(st.Entries) != 2 {
			t.Fatalf("statement = %+v", info)
		}
		if !info.Provisional || !info.Until().Equal(now) {
			t.Errorf("a statement of a period not over: provisional %v, until %v; want provisional to %v", info.Provisional, info.Until(), now)
		}
		// The period runs to the 30th: the statement is provisional, and a
		// payment later in the period is in it when it is read again (it
		// used to be frozen at the moment it was made, and an export later
		// left out the day's later entries).
		now = now.Add(time.Hour)
		mustPost(t, ctx, l, pay(a, "p2", 79_75))
		now = now.Add(time.Minute)
		if got, again, err := l.StatementOf(ctx, a, info.ID); err != nil || got.Closing != 300_00 || len(again.Entries) != 3 || got.EntryCount != 3 || !got.Provisional || !got.Until().Equal(now) {
			t.Fatalf("the statement after a later payment = %+v, %d entries, %v; want 3 entries to %v", got, len(again.Entries), err, now)
		}
		// Asked again, the period answers its statement: one period, one
		// statement.
		now = now.Add(5 * time.Minute)
		if again, _, err := l.CreateStatement(ctx, a, "CNY", "2026-11-01", "2026-11-30", "UTC", "tester"); err != nil || again.ID != info.ID || !again.Existing || again.EntryCount != 3 {
			t.Fatalf("the same period again = %+v, %v; want statement %d", again, err, info.ID)
		}
		// The period ends: the statement is fixed with the whole period,
		// and a payment after it stays out.
		now = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		mustPost(t, ctx, l, pay(a, "p3", 1_00))
		if got, again, err := l.StatementOf(ctx, a, info.ID); err != nil || got.Provisional || got.Closing != 300_00 || len(again.Entries) != 3 || !got.Until().Equal(got.To) {
			t.Fatalf("the statement after its period = %+v, %d entries, %v", got, len(again.Entries), err)
		}
		now = now.Add(time.Hour)
		if list, _, err := l.Statements(ctx, a, 1, 20); err != nil || len(list) != 1 || list[0].Provisional || list[0].EntryCount != 3 {
			t.Fatalf("the list after the period = %+v, %v", list, err)
		}
		now = time.Date(2026, 11, 10, 13, 10, 0, 0, time.UTC)
		later, _, err := l.CreateStatement(ctx, a, "CNY", "2026-11-02", "2026-11-30", "UTC", "tester")
		if err != nil || later.Existing || later.ID == info.ID {
			t.Fatalf("another period = %+v, %v", later, err)
		}
		if _, _, err := l.CreateStatement(ctx, a, "CNY", "2026-11-11", "2026-11-30", "UTC", "tester"); code(err) != fault.CodeValidation {
			t.Errorf("a period starting tomorrow: %v, want a validation error", err)
		}
		got, again, err := l.StatementOf(ctx, a, info.ID)
		if err != nil || got.Closing != 300_00 || len(again.Entries) != 3 || got.TimeZone != "UTC" || got.FirstDay() != "2026-11-01" || got.LastDay() != "2026-11-30" {
			t.Fatalf("StatementOf = %+v, %v", got, err)
		}
		if _, _, err := l.StatementOf(ctx, b, info.ID); err == nil {
			t.Error("another agency reads the statement")
		} else if fe, ok := fault.As(err); !ok || fe.Code != fault.CodeNotFound {
			t.Errorf("another agency: %v", err)
		}
		if list, total, _ := l.Statements(ctx, b, 1, 20); total != 0 || len(list) != 0 {
			t.Errorf("another agency lists %d statements", total)
		}
		if list, total, _ := l.Statements(ctx, a, 1, 20); total != 2 || list[1].ID != info.ID || list[0].ID != later.ID {
			t.Errorf("list = %+v", list)
		}
		for _, bad := range [][2]string{{"2026-11-30", "2026-11-01"}, {"2026-11-01", "2028-11-01"}, {"", "2026-11-30"}, {"2026-11-01", ""}, {"1 Nov", "2026-11-30"}} {
			if _, _, err := l.CreateStatement(ctx, a, "CNY", bad[0], bad[1], "UTC", "t"); err == nil {
				t.Errorf("period %v accepted", bad)
			}
		}
	})
}

// TestOnePeriodOneStatement: statements of one period asked for at once
// (two instances, a retried CLI run) are one, the unique index
// statements_period keeping it so; the same days in another currency are
// another wallet's statement.
func TestOnePeriodOneStatement(t *testing.T) {
	t.Parallel()
	withLedger(t, 1, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		l.SetClock(func() time.Time { return time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC) })
		mustPost(t, ctx, l, topUp(ids[0], "t1", 1_234_567_89))
		const n = 6
		got := make(chan int64, n)
		errs := make(chan error, n)
		for range n {
			go func() {
				info, _, err := l.CreateStatement(ctx, ids[0], "CNY", "2026-11-01", "2026-11-30", "Asia/Shanghai", "tester")
				errs <- err
				got <- info.ID
			}()
		}
		first := int64(0)
		for range n {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
			id := <-got
			if first == 0 {
				first = id
			}
			if id != first {
				t.Fatalf("one period made statements %d and %d", first, id)
			}
		}
		if _, total, _ := l.Statements(ctx, ids[0], 1, 20); total != 1 {
			t.Errorf("%d statements listed, want 1", total)
		}
		if usd, _, err := l.CreateStatement(ctx, ids[0], "USD", "2026-11-01", "2026-11-30", "Asia/Shanghai", "tester"); err != nil || usd.ID == first || usd.Existing {
			t.Errorf("the USD wallet's statement = %+v, %v", usd, err)
		}
		// The index holds even for a writer that does not ask first.
		_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO statements (agency_id, currency, period_from, period_to, opening, closing, entry_count, created_at)
			SELECT agency_id, currency, period_from, period_to, opening, closing, entry_count, created_at FROM statements WHERE id = ?`), first)
		if !store.IsUniqueViolation(err) {
			t.Errorf("a second row for the period: %v, want a unique violation", err)
		}
	})
}

func TestStatementPeriod(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	sh, _ := time.LoadLocation("Asia/Shanghai")
	tests := []struct {
		name, from, to string
		loc            *time.Location
		start, end     time.Time
		field, key     string
	}{
		{"Shanghai month", "2026-11-01", "2026-11-30", sh, time.Date(2026, 10, 31, 16, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC), "", ""},
		{"New York across DST end", "2026-10-01", "2026-11-30", ny, time.Date(2026, 10, 1, 4, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC), "", ""},
		{"366 days of New York (one DST hour more or less) are allowed", "2027-01-01", "2028-01-01", ny, time.Date(2027, 1, 1, 5, 0, 0, 0, time.UTC), time.Date(2028, 1, 2, 5, 0, 0, 0, time.UTC), "", ""},
		{"367 days are too long", "2027-01-01", "2028-01-02", ny, time.Time{}, time.Time{}, "to", "statement.error.tooLong"},
		{"to before from", "2026-11-30", "2026-11-01", sh, time.Time{}, time.Time{}, "to", "statement.error.to"},
		{"no from", "", "2026-11-30", sh, time.Time{}, time.Time{}, "from", "statement.error.from"},
		{"bad from", "2026-02-30", "2026-11-30", sh, time.Time{}, time.Time{}, "from", "statement.error.from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, end, err := ledger.StatementPeriod(tt.from, tt.to, tt.loc)
			if tt.field != "" {
				fe, ok := fault.As(err)
				if !ok || fe.Fields[tt.field] != tt.key {
					t.Fatalf("err = %v, want %s on %s", err, tt.key, tt.field)
				}
				return
			}
			if err != nil || !start.Equal(tt.start) || !end.Equal(tt.end) {
				t.Fatalf("= %v, %v, %v; want %v, %v", start.UTC(), end.UTC(), err, tt.start, tt.end)
			}
		})
	}
}

// TestStatementOfTheYearSoFarEveryDayOf2027: the app, CLI, bills and
// browser tests make the statement from the first of this year to today;
// with today on each day of 2027, in the provider's zone and in one that
// keeps daylight saving, that period is one the rule accepts, and a year
// and two days is not.
func TestStatementOfTheYearSoFarEveryDayOf2027(t *testing.T) {
	t.Parallel()
	for _, zone := range []string{"Asia/Shanghai", "America/New_York"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		for today := time.Date(2027, 1, 1, 12, 0, 0, 0, loc); today.Year() == 2027; today = today.AddDate(0, 0, 1) {
			first := time.Date(today.Year(), 1, 1, 0, 0, 0, 0, loc).Format(time.DateOnly)
			if _, _, err := ledger.StatementPeriod(first, today.Format(time.DateOnly), loc); err != nil {
				t.Fatalf("%s, today %s: the year so far refused: %v", zone, today.Format(time.DateOnly), err)
			}
			tooLong := today.AddDate(-1, 0, -1).Format(time.DateOnly)
			if _, _, err := ledger.StatementPeriod(tooLong, today.Format(time.DateOnly), loc); err == nil {
				t.Fatalf("%s, today %s: %s to today accepted", zone, today.Format(time.DateOnly), tooLong)
			}
		}
	}
}
