package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// renamed is a gate on the agencies table standing in for an order's move:
// it writes only while the agency still has the name from.
func renamed(id int64, from, to string) ledger.Gate {
	return ledger.Gate{CTEs: `g AS (UPDATE agencies SET name = ? WHERE id = ? AND name = ? RETURNING id)`, Name: "g",
		Args: []any{to, id, from}}
}

// TestPostFirstWithGate: the transfer and its gate's write happen together
// or not at all: a closed gate posts nothing, and a refused transfer (the
// balance short, the key posted before) undoes the gate's write. Of many
// concurrent payments behind one gate, one is posted. Where the statement
// cannot be used (SQLite, accounts this ledger has not seen) nothing is
// written and the caller is told to use its transaction.
func TestPostFirstWithGate(t *testing.T) {
	t.Parallel()
	withLedger(t, 2, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, ids []int64) {
		a, idle := ids[0], ids[1]
		name := func(id int64) string {
			t.Helper()
			var n string
			if err := db.GetContext(ctx, &n, db.Rebind(`SELECT name FROM agencies WHERE id = ?`), id); err != nil {
				t.Fatal(err)
			}
			return n
		}
		balance := func(id int64) int64 {
			t.Helper()
			b, err := l.WalletBalance(ctx, id, "CNY")
			if err != nil {
				t.Fatal(err)
			}
			return b.Balance
		}
		if _, err := ledger.New(db).Post(ctx, topUp(idle, "idle-t", 10_00)); err != nil {
			t.Fatal(err)
		}
		// This ledger has not seen idle's wallet committed.
		if _, done, err := l.PostFirstWith(ctx, renamed(idle, "Agency 1", "x"), pay(idle, "idle-p", 1_00)); done || err != nil {
			t.Fatalf("unseen accounts: done %v, %v; want the transaction path", done, err)
		}
		mustPost(t, ctx, l, topUp(a, "t", 100_00))
		// Accounts opened by a transfer are known from the next one on.
		for _, k := range []string{"warm-1", "warm-2"} {
			mustPost(t, ctx, l, pay(a, k, 5_00))
		}
		if db.Dialect != store.Postgres {
			if _, done, err := l.PostFirstWith(ctx, renamed(a, "Agency 0", "paid"), pay(a, "p1", 10_00)); done || err != nil || name(a) != "Agency 0" {
				t.Fatalf("SQLite: done %v, %v; want the transaction path and nothing written", done, err)
			}
			return
		}
		if name(idle) != "Agency 1" || balance(idle) != 10_00 {
			t.Fatalf("a transfer that was not done wrote: %s, %d", name(idle), balance(idle))
		}

		p, done, err := l.PostFirstWith(ctx, renamed(a, "Agency 0", "paid 1"), pay(a, "p1", 10_00))
		if !done || err != nil || p.FromBalance != 80_00 || name(a) != "paid 1" {
			t.Fatalf("open gate: %+v done %v %v, name %q", p, done, err, name(a))
		}
		if _, _, err := l.PostFirstWith(ctx, renamed(a, "Agency 0", "paid 2"), pay(a, "p2", 10_00)); !errors.Is(err, ledger.ErrGateClosed) {
			t.Fatalf("closed gate: %v, want ErrGateClosed", err)
		}
		if balance(a) != 80_00 {
			t.Fatalf("a closed gate moved money: balance %d", balance(a))
		}
		if _, _, err := l.PostFirstWith(ctx, renamed(a, "paid 1", "short"), pay(a, "p3", 81_00)); code(err) != fault.CodeInsufficientFund {
			t.Fatalf("beyond the balance: %v, want 300001", err)
		}
		if _, _, err := l.PostFirstWith(ctx, renamed(a, "paid 1", "again"), pay(a, "p1", 10_00)); err == nil {
			t.Fatal("a key posted before was posted again")
		}
		if name(a) != "paid 1" || balance(a) != 80_00 {
			t.Fatalf("a refused transfer kept its gate's write or moved money: %q, %d", name(a), balance(a))
		}

		var wg sync.WaitGroup
		var mu sync.Mutex
		posted, closed := 0, 0
		for i := range 12 {
			wg.Go(func() {
				_, _, err := l.PostFirstWith(ctx, renamed(a, "paid 1", "race"), pay(a, fmt.Sprintf("race-%d", i), 5_00))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					posted++
				case errors.Is(err, ledger.ErrGateClosed):
					closed++
				default:
					t.Errorf("racing payment %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if posted != 1 || closed != 11 || balance(a) != 75_00 {
			t.Fatalf("12 payments behind one gate: %d posted, %d closed, balance %d; want 1, 11, 7500", posted, closed, balance(a))
		}
	})
}
