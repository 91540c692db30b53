package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// withLedger runs body on every store (storetest.Run) with a ledger over it
// and n new agencies, and checks after it that the ledger sums to zero.
func withLedger(t *testing.T, n int, body func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64)) {
	t.Helper()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		body(t, context.Background(), db, ledger.New(db), agencies(t, db, n))
		sumIsZero(t, db)
	})
}

// batchedToo runs body on every store with a ledger over it, and on
// PostgreSQL once more with the ledger's group commit on, batch transfers
// a batch (batched tells the body which run it is); after each run the
// ledger must sum to zero.
func batchedToo(t *testing.T, batch int, body func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, batched bool)) {
	t.Helper()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		body(t, context.Background(), db, ledger.New(db), false)
		sumIsZero(t, db)
		if db.Dialect == store.Postgres {
			t.Run("group commit", func(t *testing.T) {
				l := ledger.New(db)
				stop := l.StartBatching(batch)
				defer stop()
				body(t, context.Background(), db, l, true)
				sumIsZero(t, db)
			})
		}
	})
}

func agencies(t testing.TB, db *store.DB, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	s := agency.NewStore(db)
	var ids []int64
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		root, err := s.Create(ctx, tx, agency.New{Name: "Provider"})
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			a, err := s.Create(ctx, tx, agency.New{ParentID: &root.ID, Name: fmt.Sprintf("Agency %d", i)})
			if err != nil {
				return err
			}
			ids = append(ids, a.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func topUp(agencyID int64, key string, amount int64) ledger.Transfer {
	return ledger.Transfer{AgencyID: agencyID, IdempotencyKey: key, From: ledger.Provider(ledger.KindFunding), To: ledger.Wallet(agencyID),
		Amount: amount, Currency: "CNY", PaymentType: ledger.TypeTopUp, Reference: "bank-" + key}
}

func pay(agencyID int64, key string, amount int64) ledger.Transfer {
	return ledger.Transfer{AgencyID: agencyID, IdempotencyKey: key, From: ledger.Wallet(agencyID), To: ledger.Provider(ledger.KindSuppliers),
		Amount: amount, Currency: "CNY", PaymentType: ledger.TypeOriginFlight, OrderID: "F" + key}
}

// mustPost posts tr, a step the test needs to go on.
func mustPost(t testing.TB, ctx context.Context, l *ledger.Ledger, tr ledger.Transfer) {
	t.Helper()
	if _, err := l.Post(ctx, tr); err != nil {
		t.Fatal(err)
	}
}

// wantBalance checks the agency's CNY wallet balance at a point the test
// names.
func wantBalance(t *testing.T, ctx context.Context, l *ledger.Ledger, agencyID, want int64, when string) {
	t.Helper()
	bal, err := l.WalletBalance(ctx, agencyID, "CNY")
	if err != nil || bal.Balance != want {
		t.Errorf("balance %s = %d (%v), want %d", when, bal.Balance, err, want)
	}
}

func code(err error) int {
	if fe, ok := fault.As(err); ok {
		return fe.Code
	}
	return -1
}

func sumIsZero(t *testing.T, db *store.DB) {
	t.Helper()
	var rows []struct {
		Currency string `db:"currency"`
		Sum      int64  `db:"s"`
	}
	if err := db.Select(&rows, `SELECT currency, SUM(balance) AS s FROM ledger_accounts GROUP BY currency`); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Sum != 0 {
			t.Errorf("%s balances sum to %d, want 0", r.Currency, r.Sum)
		}
	}
}

func TestPostAndIdempotency(t *testing.T) {
	t.Parallel()
	batchedToo(t, 8, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, _ bool) {
		ids := agencies(t, db, 2)
		a, b := ids[0], ids[1]

		p, err := l.Post(ctx, topUp(a, "t1", 100_00))
		if err != nil || p.ToBalance != 100_00 || p.Replayed {
			t.Fatalf("top-up: %+v %v", p, err)
		}
		again, err := l.Post(ctx, topUp(a, "t1", 100_00))
		if err != nil || !again.Replayed || again.ID != p.ID {
			t.Fatalf("replay: %+v %v", again, err)
		}
		if _, err := l.Post(ctx, topUp(a, "t1", 999_00)); code(err) != fault.CodeConflict {
			t.Fatalf("same key, other body: %v, want 409", err)
		}
		// Keys are scoped to the agency: b may use "t1" too.
		mustPost(t, ctx, l, topUp(b, "t1", 5_00))
		bal, _ := l.WalletBalance(ctx, a, "CNY")
		if bal.Balance != 100_00 {
			t.Fatalf("balance after replays = %d, want 10000", bal.Balance)
		}

		if _, err := l.Post(ctx, pay(a, "p1", 150_00)); code(err) != fault.CodeInsufficientFund {
			t.Fatalf("overspend: %v, want 300001", err)
		}
		wantBalance(t, ctx, l, a, 100_00, "after a refused payment")
		// Nor did it burn the key: with credit the same request goes through.
		if err := l.SetCreditLimit(ctx, a, "CNY", 60_00); err != nil {
			t.Fatal(err)
		}
		p, err = l.Post(ctx, pay(a, "p1", 150_00))
		if err != nil || p.FromBalance != -50_00 {
			t.Fatalf("pay on credit: %+v %v", p, err)
		}
		if err := l.SetCreditLimit(ctx, a, "CNY", 40_00); code(err) != fault.CodeValidation {
			t.Fatalf("credit below usage: %v", err)
		}
		if bal, _ := l.WalletBalance(ctx, a, "CNY"); bal.CreditLimit != 60_00 || bal.Available() != 10_00 {
			t.Fatalf("wallet = %+v", bal)
		}

		for _, bad := range []ledger.Transfer{
			topUp(a, "", 1), topUp(a, "x", 0), topUp(a, "y", -5),
			{AgencyID: a, IdempotencyKey: "z", From: ledger.Wallet(a), To: ledger.Wallet(a), Amount: 1, Currency: "CNY", PaymentType: ledger.TypeTopUp},
			{AgencyID: a, IdempotencyKey: "w", From: ledger.Provider(ledger.KindFunding), To: ledger.Wallet(a), Amount: 1, Currency: "XXX", PaymentType: ledger.TypeTopUp},
		} {
			if _, err := l.Post(ctx, bad); code(err) != fault.CodeValidation {
				t.Errorf("bad transfer %+v: %v", bad, err)
			}
		}
	})
}

// TestRetryOfAPaymentTheBalanceNoLongerCovers: a payment that spent the
// whole wallet, sent again with its key, is answered with what was posted,
// not refused for want of funds; the key with another amount is a
// conflict. The accounts are warm (their ids known), the path most
// payments take.
func TestRetryOfAPaymentTheBalanceNoLongerCovers(t *testing.T) {
	t.Parallel()
	withLedger(t, 1, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		a := ids[0]
		mustPost(t, ctx, l, topUp(a, "t", 100_00))
		for _, k := range []string{"w1", "w2"} {
			mustPost(t, ctx, l, pay(a, k, 10_00))
		}
		p, err := l.Post(ctx, pay(a, "all", 80_00))
		if err != nil || p.FromBalance != 0 {
			t.Fatalf("pay the rest: %+v %v", p, err)
		}
		again, err := l.Post(ctx, pay(a, "all", 80_00))
		if err != nil || !again.Replayed || again.ID != p.ID || again.FromBalance != 0 {
			t.Fatalf("retry: %+v %v, want the payment replayed", again, err)
		}
		if _, err := l.Post(ctx, pay(a, "all", 1_00)); code(err) != fault.CodeConflict {
			t.Fatalf("same key, other amount: %v, want 409", err)
		}
		if _, err := l.Post(ctx, pay(a, "more", 1_00)); code(err) != fault.CodeInsufficientFund {
			t.Fatalf("a new payment from an empty wallet: %v, want 300001", err)
		}
		wantBalance(t, ctx, l, a, 0, "after the retried payment")
	})
}

func TestTransferInsideACancelledTransactionChangesNothing(t *testing.T) {
	t.Parallel()
	withLedger(t, 1, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		a := ids[0]
		mustPost(t, ctx, l, topUp(a, "t1", 50_00))
		boom := errors.New("crash between two steps")
		err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			if _, err := l.PostTx(ctx, tx, pay(a, "p1", 20_00)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		wantBalance(t, ctx, l, a, 50_00, "after a rolled-back payment")
		var n int
		_ = db.Get(&n, `SELECT COUNT(*) FROM ledger_transfers`)
		if n != 1 {
			t.Errorf("%d transfers stored, want 1", n)
		}
	})
}

// TestConcurrentRandomMovements drives random top-ups, payments, refunds and
// credit changes from concurrent goroutines, some of them retries with the
// same key, and checks the ledger's invariants afterwards.
func TestConcurrentRandomMovements(t *testing.T) {
	t.Parallel()
	batchedToo(t, 32, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, _ bool) {
		// Fresh agencies per run, and sums checked over their wallets only,
		// as a second run shares the database with the first.
		ids := agencies(t, db, 5)
		const workers, perWorker = 8, 400
		type applied struct {
			key    string
			agency int64
			delta  int64
		}
		var mu sync.Mutex
		var done []applied
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(w), 42))
				for i := 0; i < perWorker; i++ {
					a := ids[rng.IntN(len(ids))]
					// One key in five repeats a key another worker may also
					// send: the ledger must apply it once.
					key := fmt.Sprintf("w%d-%d", w, i)
					if rng.IntN(5) == 0 {
						key = fmt.Sprintf("shared-%d", rng.IntN(40))
					}
					var tr ledger.Transfer
					var delta int64
					amount := int64(1 + rng.IntN(500_00))
					switch rng.IntN(4) {
					case 0:
						tr, delta = topUp(a, key, amount), amount
					case 1:
						tr, delta = pay(a, key, amount), -amount
					case 2:
						tr = ledger.Transfer{AgencyID: a, IdempotencyKey: key, From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(a),
							Amount: amount, Currency: "CNY", PaymentType: ledger.TypeRefundFlight}
						delta = amount
					case 3:
						_ = l.SetCreditLimit(ctx, a, "CNY", int64(rng.IntN(1000_00)))
						continue
					}
					p, err := l.Post(ctx, tr)
					switch {
					case err == nil && !p.Replayed:
						mu.Lock()
						done = append(done, applied{key, a, delta})
						mu.Unlock()
					case err == nil, code(err) == fault.CodeInsufficientFund, code(err) == fault.CodeConflict:
					default:
						t.Errorf("post: %v", err)
						return
					}
				}
			}(w)
		}
		wg.Wait()

		sumIsZero(t, db)
		want := map[int64]int64{}
		seen := map[string]bool{}
		for _, d := range done {
			k := fmt.Sprint(d.agency, "/", d.key)
			if seen[k] {
				t.Errorf("key %s applied twice", k)
			}
			seen[k] = true
			want[d.agency] += d.delta
		}
		for _, a := range ids {
			bal, err := l.WalletBalance(ctx, a, "CNY")
			if err != nil {
				t.Fatal(err)
			}
			if bal.Balance != want[a] {
				t.Errorf("agency %d balance %d, applied transfers sum to %d", a, bal.Balance, want[a])
			}
			if bal.Balance < -bal.CreditLimit {
				t.Errorf("agency %d below its credit: %+v", a, bal)
			}
		}
		var n int
		q, args, _ := sqlx.In(`SELECT COUNT(*) FROM ledger_transfers WHERE agency_id IN (?)`, ids)
		_ = db.Get(&n, db.Rebind(q), args...)
		if n != len(done) {
			t.Errorf("%d transfers stored, %d applied", n, len(done))
		}
	})
}
