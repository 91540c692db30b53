package ledger_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

type clock struct{ t time.Time }

func TestEntriesAndStatements(t *testing.T) {
	t.Parallel()
	withLedger(t, 2, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		a, b := ids[0], ids[1]
		c := &clock{time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)}
		l.SetClock(func() time.Time { return c.t })

		post := func(tr ledger.Transfer) {
			t.Helper()
			mustPost(t, ctx, l, tr)
			c.t = c.t.Add(36 * time.Hour)
		}
		post(topUp(a, "t1", 1000_00)) // Oct 1
		post(pay(a, "p1", 120_00))    // Oct 2
		post(topUp(b, "t1", 7_00))    // Oct 4, another agency
		post(pay(a, "p2", 80_50))     // Oct 5
		post(ledger.Transfer{AgencyID: a, IdempotencyKey: "r1", From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(a),
			Amount: 30_00, Currency: "CNY", PaymentType: ledger.TypeRefundFlight, OrderID: "Fp1"}) // Oct 7

		entries, total, err := l.Entries(ctx, a, ledger.EntryFilter{Currency: "CNY"})
		if err != nil || total != 4 || len(entries) != 4 {
			t.Fatalf("entries = %d of %d, %v", len(entries), total, err)
		}
		if entries[0].Type != ledger.TypeRefundFlight || entries[0].Amount != 30_00 || entries[0].BalanceAfter != 829_50 {
			t.Errorf("newest entry = %+v", entries[0])
		}
		if entries[2].Amount != -120_00 || entries[2].OrderID != "Fp1" {
			t.Errorf("payment entry = %+v", entries[2])
		}
		if e, n, _ := l.Entries(ctx, a, ledger.EntryFilter{Currency: "CNY", Type: ledger.TypeTopUp}); n != 1 || e[0].Amount != 1000_00 {
			t.Errorf("top-up filter = %+v", e)
		}
		if e, n, _ := l.Entries(ctx, a, ledger.EntryFilter{Currency: "CNY", Page: 2, PageSize: 3}); n != 4 || len(e) != 1 {
			t.Errorf("page 2 = %d entries of %d", len(e), n)
		}
		if e, n, _ := l.Entries(ctx, a, ledger.EntryFilter{Currency: "USD"}); n != 0 || len(e) != 0 {
			t.Errorf("unused currency lists %d", n)
		}

		st, err := l.BuildStatement(ctx, a, "CNY", time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 6, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		if st.Opening != 1000_00 || len(st.Entries) != 2 || st.Closing != 799_50 {
			t.Errorf("statement = opening %d, %d entries, closing %d", st.Opening, len(st.Entries), st.Closing)
		}
		// Statements chain: one period's closing is the next one's opening,
		// and the last closing is the wallet balance.
		full, _ := l.BuildStatement(ctx, a, "CNY", time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
		bal, _ := l.WalletBalance(ctx, a, "CNY")
		if full.Opening != 0 || full.Closing != bal.Balance {
			t.Errorf("full statement %d → %d, wallet %d", full.Opening, full.Closing, bal.Balance)
		}
		for _, e := range full.Entries {
			if fmt.Sprint(e.Currency) != "CNY" {
				t.Errorf("entry in %s", e.Currency)
			}
		}
	})
}
