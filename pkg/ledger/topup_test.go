package ledger_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

func TestTopUp(t *testing.T) {
	t.Parallel()
	withLedger(t, 1, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		a := ids[0]

		usd := ledger.TopUp{AgencyID: a, IdempotencyKey: "tu-1", Currency: "CNY", CurrencyReceived: "USD", AmountReceived: "1000.00",
			ExchangeRate: "7.1", FeePercent: "1.5", Reference: "HSBC-0001", SendEmail: true}
		res, err := l.TopUp(ctx, usd)
		if err != nil {
			t.Fatal(err)
		}
		if res.Gross != "7100.00" || res.Fee != "106.50" || res.Credited != "6993.50" || res.Balance != "6993.50" || res.Replayed {
			t.Fatalf("top-up = %+v", res)
		}
		again, err := l.TopUp(ctx, usd)
		if err != nil || !again.Replayed || again.TransferID != res.TransferID {
			t.Fatalf("replay = %+v, %v", again, err)
		}
		other := usd
		other.AmountReceived = "2000.00"
		if _, err := l.TopUp(ctx, other); code(err) != fault.CodeConflict {
			t.Fatalf("same key, other body: %v", err)
		}
		wantBalance(t, ctx, l, a, 6993_50, "after the top-up")

		// No conversion within one currency: cents stay cents.
		same := ledger.TopUp{AgencyID: a, IdempotencyKey: "tu-2", Currency: "CNY", AmountReceived: "500.35", ExchangeRate: "1", Reference: "wire-2", Amount: "500.35"}
		if res, err := l.TopUp(ctx, same); err != nil || res.Credited != "500.35" || res.Fee != "0.00" {
			t.Fatalf("same-currency top-up = %+v, %v", res, err)
		}

		tests := []struct {
			name  string
			t     ledger.TopUp
			field string
		}{
			{"no reference", ledger.TopUp{Currency: "CNY", AmountReceived: "1", ExchangeRate: "1"}, "reference"},
			{"no rate", ledger.TopUp{Currency: "CNY", CurrencyReceived: "USD", AmountReceived: "1", Reference: "r"}, "exchangeRate"},
			{"rate for same currency", ledger.TopUp{Currency: "CNY", AmountReceived: "1", ExchangeRate: "2", Reference: "r"}, "exchangeRate"},
			{"no amount", ledger.TopUp{Currency: "CNY", ExchangeRate: "1", Reference: "r"}, "amountReceived"},
			{"too many decimals", ledger.TopUp{Currency: "CNY", AmountReceived: "1.001", ExchangeRate: "1", Reference: "r"}, "amountReceived"},
			{"unknown currency", ledger.TopUp{Currency: "XXX", AmountReceived: "1", ExchangeRate: "1", Reference: "r"}, "currency"},
			{"fee of 100%", ledger.TopUp{Currency: "CNY", AmountReceived: "1", ExchangeRate: "1", FeePercent: "100", Reference: "r"}, "feePercent"},
			{"amount disagrees", ledger.TopUp{Currency: "CNY", AmountReceived: "10", ExchangeRate: "1", Amount: "11", Reference: "r"}, "amount"},
			{"exponent amount", ledger.TopUp{Currency: "CNY", AmountReceived: "1e5", ExchangeRate: "1", Reference: "r"}, "amountReceived"},
			{"exponent rate", ledger.TopUp{Currency: "CNY", CurrencyReceived: "USD", AmountReceived: "1", ExchangeRate: "7e0", Reference: "r"}, "exchangeRate"},
			{"exponent fee", ledger.TopUp{Currency: "CNY", AmountReceived: "1", ExchangeRate: "1", FeePercent: "1e0", Reference: "r"}, "feePercent"},
		}
		for _, tt := range tests {
			tt.t.AgencyID, tt.t.IdempotencyKey = a, "bad-"+tt.name
			_, err := l.TopUp(ctx, tt.t)
			fe, ok := fault.As(err)
			if !ok || fe.Code != fault.CodeValidation || fe.Fields[tt.field] == "" {
				t.Errorf("%s: err = %v, want a validation error on %s", tt.name, err, tt.field)
			}
		}
		// The refusal says what is wrong with the amount, not "must be
		// greater than zero".
		_, err = l.TopUp(ctx, ledger.TopUp{AgencyID: a, IdempotencyKey: "decimals", Currency: "CNY", AmountReceived: "1.005", ExchangeRate: "1", Reference: "r"})
		if fe, ok := fault.As(err); !ok || !strings.HasPrefix(fe.Fields["amountReceived"], "money.error.decimals") {
			t.Errorf("1.005 CNY: %v, want the decimals message", err)
		}
		wantBalance(t, ctx, l, a, 7493_85, "after refused top-ups")
	})
}

// TestConcurrentTopUpRunsItsNoticeOnce: callers in the process (the portal,
// the admin commands) reach TopUp without the API's key lock. Copies of one
// top-up sent at once credit once, run the notice (email, user log) once,
// and every copy but the first says it was replayed.
func TestConcurrentTopUpRunsItsNoticeOnce(t *testing.T) {
	t.Parallel()
	withLedger(t, 1, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		a := ids[0]
		const n = 30
		var notices atomic.Int32
		results := make([]ledger.TopUpResult, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = l.TopUp(ctx, ledger.TopUp{AgencyID: a, IdempotencyKey: "same", Currency: "CNY", AmountReceived: "100",
					ExchangeRate: "1", FeePercent: "1", Reference: "wire",
					OnPosted: func(context.Context, *sqlx.Tx, ledger.TopUpResult) error { notices.Add(1); return nil }})
			}()
		}
		wg.Wait()
		fresh := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("copy %d: %v", i, errs[i])
			}
			if !results[i].Replayed {
				fresh++
			}
		}
		if fresh != 1 || notices.Load() != 1 {
			t.Errorf("%d copies not replayed, %d notices; want 1 and 1", fresh, notices.Load())
		}
		wantBalance(t, ctx, l, a, 99_00, "after one credit")
	})
}

// TestTransactionsNameTheirCurrencies: each transaction's total paid has its
// currency, the provider's top-up in what arrived and a parent's top-up of
// its sub-agency, on both wallets, in the wallet's own.
func TestTransactionsNameTheirCurrencies(t *testing.T) {
	t.Parallel()
	withLedger(t, 2, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		parent, sub := ids[0], ids[1]
		if _, err := l.TopUp(ctx, ledger.TopUp{AgencyID: parent, IdempotencyKey: "usd", Currency: "CNY", CurrencyReceived: "USD",
			AmountReceived: "1000.00", ExchangeRate: "7.1", Reference: "HSBC-1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := l.TopUpFromParent(ctx, parent, ledger.TopUp{AgencyID: sub, IdempotencyKey: "sub", Currency: "CNY",
			AmountReceived: "200", Reference: "TRANSFER-1"}); err != nil {
			t.Fatal(err)
		}
		type row struct{ gross, grossCur, net, method string }
		for _, tt := range []struct {
			name   string
			agency int64
			want   []row
		}{
			{"parent", parent, []row{{"200.00", "CNY", "-200.00", ledger.MethodParentWallet}, {"1000.00", "USD", "7100.00", ledger.MethodBankTransfer}}},
			{"sub-agency", sub, []row{{"200.00", "CNY", "200.00", ledger.MethodParentWallet}}},
		} {
			items, total, err := l.Transactions(ctx, tt.agency, "CNY", 1, 20)
			if err != nil || total != len(tt.want) {
				t.Fatalf("%s: %d transactions, %v", tt.name, total, err)
			}
			for i, w := range tt.want {
				if got := (row{items[i].Gross, items[i].GrossCurrency, items[i].Net, items[i].PaymentMethod}); got != w {
					t.Errorf("%s transaction %d = %+v, want %+v", tt.name, i, got, w)
				}
			}
		}
	})
}
