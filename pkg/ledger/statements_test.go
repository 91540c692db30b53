package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func TestStoredStatements(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		l := ledger.New(db)
		ids := agencies(t, db, 2)
		a, b := ids[0], ids[1]
		now := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
		l.SetClock(func() time.Time { return now })
		if _, err := l.Post(ctx, topUp(a, "t1", 500_00)); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Post(ctx, pay(a, "p1", 120_25)); err != nil {
			t.Fatal(err)
		}
		info, st, err := l.CreateStatement(ctx, a, "CNY", "2026-11-01", "2026-11-30", "UTC", "tester")
		if err != nil {
			t.Fatal(err)
		}
		if info.Opening != 0 || info.Closing != 379_75 || info.EntryCount != 2 || len(st.Entries) != 2 {
			t.Fatalf("statement = %+v", info)
		}
		got, again, err := l.StatementOf(ctx, a, info.ID)
		if err != nil || got.Closing != info.Closing || len(again.Entries) != 2 {
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
		if list, total, _ := l.Statements(ctx, a, 1, 20); total != 1 || list[0].ID != info.ID {
			t.Errorf("list = %+v", list)
		}
		for _, bad := range [][2]string{{"2026-11-30", "2026-11-01"}, {"2026-11-01", "2028-11-01"}, {"", "2026-11-30"}, {"2026-11-01", ""}, {"1 Nov", "2026-11-30"}} {
			if _, _, err := l.CreateStatement(ctx, a, "CNY", bad[0], bad[1], "UTC", "t"); err == nil {
				t.Errorf("period %v accepted", bad)
			}
		}
	})
}
