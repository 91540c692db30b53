package ledger_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/benchprof"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// pgledgerSchema is the method of pgledger (a public PostgreSQL ledger, the
// bar the ledger issue set) rebuilt in a few lines, so that both run on
// the same server in the same session: accounts with a balance and a
// version; a transfer is one call of a PL/pgSQL function, in a transaction
// of its own, that locks both accounts in id order (FOR UPDATE), writes
// the transfer and one entry per account with the balance before and
// after, and updates both balances. pgledger checks no balance limit and
// no idempotency key, and its benchmark moves money between accounts
// picked at random: no account is hot.
const pgledgerSchema = `
CREATE TABLE pgl_accounts (id BIGSERIAL PRIMARY KEY, currency TEXT NOT NULL, balance NUMERIC NOT NULL DEFAULT 0,
	version BIGINT NOT NULL DEFAULT 0, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), updated_at TIMESTAMPTZ NOT NULL DEFAULT now());
CREATE TABLE pgl_transfers (id BIGSERIAL PRIMARY KEY, from_account_id BIGINT NOT NULL REFERENCES pgl_accounts (id),
	to_account_id BIGINT NOT NULL REFERENCES pgl_accounts (id), amount NUMERIC NOT NULL CHECK (amount > 0),
	created_at TIMESTAMPTZ NOT NULL DEFAULT now(), CHECK (from_account_id <> to_account_id));
CREATE TABLE pgl_entries (id BIGSERIAL PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES pgl_accounts (id),
	transfer_id BIGINT NOT NULL REFERENCES pgl_transfers (id), amount NUMERIC NOT NULL, account_previous_balance NUMERIC NOT NULL,
	account_current_balance NUMERIC NOT NULL, account_version BIGINT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now());
CREATE INDEX ON pgl_entries (account_id, id);
CREATE FUNCTION pgl_transfer(from_id BIGINT, to_id BIGINT, amt NUMERIC) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
	f pgl_accounts%ROWTYPE;
	t pgl_accounts%ROWTYPE;
	tid BIGINT;
BEGIN
	PERFORM 1 FROM pgl_accounts WHERE id IN (from_id, to_id) ORDER BY id FOR UPDATE;
	SELECT * INTO f FROM pgl_accounts WHERE id = from_id;
	SELECT * INTO t FROM pgl_accounts WHERE id = to_id;
	IF f.currency <> t.currency THEN
		RAISE EXCEPTION 'currency mismatch';
	END IF;
	INSERT INTO pgl_transfers (from_account_id, to_account_id, amount) VALUES (from_id, to_id, amt) RETURNING id INTO tid;
	INSERT INTO pgl_entries (account_id, transfer_id, amount, account_previous_balance, account_current_balance, account_version)
	VALUES (from_id, tid, -amt, f.balance, f.balance - amt, f.version + 1), (to_id, tid, amt, t.balance, t.balance + amt, t.version + 1);
	UPDATE pgl_accounts SET balance = balance - amt, version = version + 1, updated_at = now() WHERE id = from_id;
	UPDATE pgl_accounts SET balance = balance + amt, version = version + 1, updated_at = now() WHERE id = to_id;
	RETURN tid;
END $$;`

// BenchmarkPgledgerMethod is pgledger's transfer (see pgledgerSchema) from
// 16 writers between 1,000 accounts picked at random: the figure
// BenchmarkTransfers' one-transaction path is compared with in the same
// run (scripts/bench-compare).
func BenchmarkPgledgerMethod(b *testing.B) {
	for _, writers := range []int{1, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			ctx := context.Background()
			db := storetest.Open(b, store.Postgres)
			db.SetMaxOpenConns(writers + 4)
			if _, err := db.ExecContext(ctx, pgledgerSchema); err != nil {
				b.Fatal(err)
			}
			const accounts = 1000
			if _, err := db.ExecContext(ctx, `INSERT INTO pgl_accounts (currency) SELECT 'CNY' FROM generate_series(1, $1)`, accounts); err != nil {
				b.Fatal(err)
			}
			var ids []int64
			if err := db.SelectContext(ctx, &ids, `SELECT id FROM pgl_accounts ORDER BY id`); err != nil {
				b.Fatal(err)
			}
			var next atomic.Int64
			latencies := make([][]time.Duration, writers)
			cpu0 := benchprof.ReadCPU()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for w := range writers {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(uint64(w), 7))
					for next.Add(1) <= int64(b.N) {
						from, to := ids[r.IntN(len(ids))], ids[r.IntN(len(ids))]
						for to == from {
							to = ids[r.IntN(len(ids))]
						}
						t0 := time.Now()
						if _, err := db.ExecContext(ctx, `SELECT pgl_transfer($1, $2, $3)`, from, to, 1); err != nil {
							b.Error(err)
							return
						}
						latencies[w] = append(latencies[w], time.Since(t0))
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			reportTransfers(b, slices.Concat(latencies...), elapsed, cpu0.Since())
		})
	}
}
