package ledger_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// TestProviderShardsSumUnderConcurrency: payments of many agencies at once
// spread over the provider's sub-accounts, and at every moment a reader
// looks, in one snapshot, the sub-accounts sum to the net of the transfers
// posted to them; at the end ProviderBalance is exactly what was paid, each
// sub-account's balance is its last transfer's balance after, and the
// ledger sums to zero. On PostgreSQL also through group commit.
func TestProviderShardsSumUnderConcurrency(t *testing.T) {
	t.Parallel()
	batchedToo(t, 16, func(t *testing.T, ctx context.Context, db *store.DB, l *ledger.Ledger, batched bool) {
		ids := agencies(t, db, 2*ledger.ProviderShards+3)
		var before int64
		before, err := l.ProviderBalance(ctx, ledger.KindSuppliers, "CNY")
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			mustPost(t, ctx, l, topUp(id, fmt.Sprintf("seed-%d-%v", id, batched), 1_000_00))
		}
		const writers, each = 8, 25
		var paid atomic.Int64
		var wg sync.WaitGroup
		stop := make(chan struct{})
		checks := make(chan error, 1)
		// The reader: one statement, one snapshot, on both engines.
		go func() {
			defer close(checks)
			q := db.Rebind(`SELECT
			(SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE agency_id IS NULL AND kind = ? AND currency = 'CNY'),
			(SELECT COALESCE(SUM(t.amount), 0) FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.to_account
				WHERE a.agency_id IS NULL AND a.kind = ? AND t.currency = 'CNY') -
			(SELECT COALESCE(SUM(t.amount), 0) FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.from_account
				WHERE a.agency_id IS NULL AND a.kind = ? AND t.currency = 'CNY')`)
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var bal, net int64
				if err := db.QueryRowContext(ctx, q, ledger.KindSuppliers, ledger.KindSuppliers, ledger.KindSuppliers).Scan(&bal, &net); err != nil {
					checks <- err
					return
				}
				if bal != net {
					checks <- fmt.Errorf("read %d: sub-accounts sum to %d, their transfers to %d", n, bal, net)
					return
				}
			}
		}()
		for w := range writers {
			wg.Go(func() {
				for i := range each {
					id := ids[(w*each+i)%len(ids)]
					amount := int64(1_00 + w + i)
					if _, err := l.Post(ctx, pay(id, fmt.Sprintf("p-%d-%d-%v", w, i, batched), amount)); err != nil {
						t.Error(err)
						return
					}
					paid.Add(amount)
				}
			})
		}
		wg.Wait()
		close(stop)
		if err := <-checks; err != nil {
			t.Fatal(err)
		}
		got, err := l.ProviderBalance(ctx, ledger.KindSuppliers, "CNY")
		if err != nil {
			t.Fatal(err)
		}
		if got-before != paid.Load() {
			t.Fatalf("provider balance moved by %d, %d was paid", got-before, paid.Load())
		}
		// Each sub-account: its balance is its latest transfer's balance after.
		var shards []struct {
			ID      int64 `db:"id"`
			Balance int64 `db:"balance"`
			After   int64 `db:"after"`
		}
		if err := db.SelectContext(ctx, &shards, db.Rebind(`SELECT a.id, a.balance,
		(SELECT CASE WHEN t.to_account = a.id THEN t.to_balance ELSE t.from_balance END FROM ledger_transfers t
			WHERE t.to_account = a.id OR t.from_account = a.id ORDER BY t.id DESC LIMIT 1) AS after
		FROM ledger_accounts a WHERE a.agency_id IS NULL AND a.kind = ? AND a.currency = 'CNY'`), ledger.KindSuppliers); err != nil {
			t.Fatal(err)
		}
		if len(shards) != ledger.ProviderShards {
			t.Errorf("%d sub-accounts used, want all %d", len(shards), ledger.ProviderShards)
		}
		for _, s := range shards {
			if s.Balance != s.After {
				t.Errorf("sub-account %d: balance %d, its last transfer says %d", s.ID, s.Balance, s.After)
			}
		}
	})
}
