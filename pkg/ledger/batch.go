package ledger

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/voyage/voyage/pkg/store"
)

// Group commit (PostgreSQL): concurrent Post calls are gathered into one
// transaction that locks every account involved in id order (SELECT … FOR
// UPDATE), applies the transfers one after another in Go against the locked
// balances — refusing any that would take a wallet below minus its credit
// limit — and writes the balances and the transfers in two statements and one
// commit. Each caller gets its own result. The CHECK constraint still guards
// the limit; should any statement fail, the batch rolls back and each
// transfer is posted again on its own, so a bad transfer cannot sink others.

type batchReq struct {
	ctx  context.Context
	t    Transfer
	hash string
	done chan batchRes
}

type batchRes struct {
	p   Posted
	err error
}

type batcher struct {
	l *Ledger
	g *store.Gatherer[*batchReq]
}

// StartBatching turns group commit on for Post on PostgreSQL (SQLite has a
// single writer, where it would gain nothing) and returns the function that
// turns it off after the pending transfers are posted.
func (l *Ledger) StartBatching(max int) (stop func()) {
	if l.db.Dialect != store.Postgres || max < 2 {
		return func() {}
	}
	b := &batcher{l: l}
	b.g = store.Gather(max, b.run, func(r *batchReq) {
		p, err := l.postOne(r.ctx, r.t, r.hash)
		r.done <- batchRes{p, err}
	})
	l.batch.Store(b)
	return func() {
		l.batch.Store((*batcher)(nil))
		b.g.Stop()
	}
}

func (b *batcher) submit(ctx context.Context, t Transfer, h string) (Posted, error) {
	r := &batchReq{ctx: ctx, t: t, hash: h, done: make(chan batchRes, 1)}
	if !b.g.Submit(r, ctx.Done()) {
		if err := ctx.Err(); err != nil {
			return Posted{}, err
		}
		return b.l.postOne(ctx, t, h)
	}
	res := <-r.done
	return res.p, res.err
}

func (b *batcher) run(batch []*batchReq) {
	if len(batch) == 1 {
		// Nobody to share the commit with: the plain path is cheaper.
		r := batch[0]
		p, err := b.l.postOne(r.ctx, r.t, r.hash)
		r.done <- batchRes{p, err}
		return
	}
	ctx := context.Background()
	results, err := b.l.postBatch(ctx, batch)
	if err != nil {
		slog.Warn("ledger: batch failed, posting one by one", "transfers", len(batch), "err", err)
		for _, r := range batch {
			p, err := b.l.postOne(r.ctx, r.t, r.hash)
			r.done <- batchRes{p, err}
		}
		return
	}
	for i, r := range batch {
		r.done <- results[i]
	}
}

type lockedAccount struct {
	ID          int64  `db:"id"`
	Kind        string `db:"kind"`
	Balance     int64  `db:"balance"`
	CreditLimit int64  `db:"credit_limit"`
}

type existing struct {
	Posted
	AgencyID    int64  `db:"agency_id"`
	Key         string `db:"idempotency_key"`
	RequestHash string `db:"request_hash"`
}

func (l *Ledger) postBatch(ctx context.Context, batch []*batchReq) ([]batchRes, error) {
	results := make([]batchRes, len(batch))
	type keyOf struct {
		agency int64
		key    string
	}
	err := l.db.InTx(ctx, func(tx *sqlx.Tx) error {
		now := l.now().UTC()
		// Replays: one query for the whole batch.
		agencies := make([]int64, len(batch))
		keys := make([]string, len(batch))
		for i, r := range batch {
			agencies[i], keys[i] = r.t.AgencyID, r.t.IdempotencyKey
		}
		var found []existing
		if err := tx.SelectContext(ctx, &found, `SELECT t.id, t.from_balance, t.to_balance, t.created_at, t.agency_id, t.idempotency_key, t.request_hash
			FROM ledger_transfers t JOIN unnest($1::bigint[], $2::text[]) AS k(agency_id, key)
			ON t.agency_id = k.agency_id AND t.idempotency_key = k.key`, pq.Array(agencies), pq.Array(keys)); err != nil {
			return fmt.Errorf("ledger: batch replays: %w", err)
		}
		done := map[keyOf]existing{}
		for _, e := range found {
			done[keyOf{e.AgencyID, e.Key}] = e
		}
		// Accounts, opened in one order for the whole batch (see
		// accountIDs), then locked in id order.
		type want struct {
			i, side int
			a       Account
		}
		wants := make([]want, 0, 2*len(batch))
		for i, r := range batch {
			wants = append(wants, want{i, 0, r.t.From}, want{i, 1, r.t.To})
		}
		slices.SortStableFunc(wants, func(x, y want) int {
			if c := cmp.Compare(x.a.AgencyID, y.a.AgencyID); c != 0 {
				return c
			}
			if c := strings.Compare(x.a.Kind, y.a.Kind); c != 0 {
				return c
			}
			rx, ry := batch[x.i].t, batch[y.i].t
			if c := strings.Compare(rx.Currency, ry.Currency); c != 0 {
				return c
			}
			return cmp.Compare(shardOf(rx.AgencyID), shardOf(ry.AgencyID))
		})
		ids := make([][2]int64, len(batch))
		var all []int64
		for _, w := range wants {
			r := batch[w.i]
			id, err := l.accountID(ctx, tx, w.a, r.t.Currency, r.t.AgencyID, now)
			if err != nil {
				return err
			}
			ids[w.i][w.side] = id
			all = append(all, id)
		}
		var locked []lockedAccount
		if err := tx.SelectContext(ctx, &locked, `SELECT id, kind, balance, credit_limit FROM ledger_accounts
			WHERE id = ANY($1) ORDER BY id FOR UPDATE`, pq.Array(all)); err != nil {
			return fmt.Errorf("ledger: batch lock: %w", err)
		}
		acct := map[int64]*lockedAccount{}
		for i := range locked {
			acct[locked[i].ID] = &locked[i]
		}
		changed := map[int64]bool{}
		pendingRows := map[keyOf]int{} // key → index of the transfer in this batch that takes it
		var rows []insertRow
		for i, r := range batch {
			k := keyOf{r.t.AgencyID, r.t.IdempotencyKey}
			if e, ok := done[k]; ok {
				if e.RequestHash != r.hash {
					results[i] = batchRes{err: errMismatch()}
				} else {
					e.Posted.Replayed = true
					results[i] = batchRes{p: e.Posted}
				}
				continue
			}
			if j, ok := pendingRows[k]; ok {
				// Same key earlier in this batch: the answer follows it.
				results[i] = batchRes{err: errSameBatch{j}}
				continue
			}
			from, to := acct[ids[i][0]], acct[ids[i][1]]
			if from == nil || to == nil {
				return fmt.Errorf("ledger: batch: account %d or %d not locked", ids[i][0], ids[i][1])
			}
			if from.Kind == KindWallet && from.Balance-r.t.Amount+from.CreditLimit < 0 {
				results[i] = batchRes{err: errInsufficient()}
				continue
			}
			from.Balance -= r.t.Amount
			to.Balance += r.t.Amount
			changed[from.ID], changed[to.ID] = true, true
			pendingRows[k] = i
			results[i] = batchRes{p: Posted{FromBalance: from.Balance, ToBalance: to.Balance, CreatedAt: now}}
			rows = append(rows, insertRow{i: i, t: r.t, hash: r.hash, from: from.ID, to: to.ID, fromBal: from.Balance, toBal: to.Balance})
		}
		if len(rows) == 0 {
			return nil
		}
		upIDs, upBal := []int64{}, []int64{}
		for id := range changed {
			upIDs = append(upIDs, id)
			upBal = append(upBal, acct[id].Balance)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ledger_accounts a SET balance = v.balance, updated_at = $3
			FROM unnest($1::bigint[], $2::bigint[]) AS v(id, balance) WHERE a.id = v.id`, pq.Array(upIDs), pq.Array(upBal), now); err != nil {
			return fmt.Errorf("ledger: batch balances: %w", err)
		}
		newIDs, err := insertTransfers(ctx, tx, rows, now)
		if err != nil {
			return err
		}
		for n, row := range rows {
			results[row.i].p.ID = newIDs[n]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, r := range results {
		if r.err == nil && !r.p.Replayed {
			l.posted(batch[i].t)
		}
	}
	// Later requests with a key taken earlier in the batch.
	for i := range results {
		if same, ok := results[i].err.(errSameBatch); ok {
			first := results[same.index]
			if first.err == nil && batch[same.index].hash == batch[i].hash {
				p := first.p
				p.Replayed = true
				results[i] = batchRes{p: p}
			} else if first.err == nil {
				results[i] = batchRes{err: errMismatch()}
			} else {
				results[i] = batchRes{err: first.err}
			}
		}
	}
	return results, nil
}

type errSameBatch struct{ index int }

func (errSameBatch) Error() string { return "same idempotency key earlier in the batch" }

type insertRow struct {
	i              int
	t              Transfer
	hash           string
	from, to       int64
	fromBal, toBal int64
}

// insertTransfers writes the batch's transfers in one statement and returns
// their ids in order.
func insertTransfers(ctx context.Context, tx *sqlx.Tx, rows []insertRow, now any) ([]int64, error) {
	var sb strings.Builder
	sb.WriteString(`INSERT INTO ledger_transfers (agency_id, idempotency_key, request_hash, from_account, to_account, amount, currency,
		payment_type, order_id, reference, description, remark, detail, from_balance, to_balance, created_by, created_at) VALUES `)
	args := make([]any, 0, len(rows)*17)
	for n, r := range rows {
		if n > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("(")
		for c := 0; c < 17; c++ {
			if c > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "$%d", n*17+c+1)
		}
		sb.WriteString(")")
		args = append(args, r.t.AgencyID, r.t.IdempotencyKey, r.hash, r.from, r.to, r.t.Amount, r.t.Currency, r.t.PaymentType,
			r.t.OrderID, r.t.Reference, r.t.Description, r.t.Remark, r.t.detailJSON(), r.fromBal, r.toBal, r.t.CreatedBy, now)
	}
	sb.WriteString(" RETURNING agency_id, idempotency_key, id")
	var back []struct {
		AgencyID int64  `db:"agency_id"`
		Key      string `db:"idempotency_key"`
		ID       int64  `db:"id"`
	}
	if err := tx.SelectContext(ctx, &back, sb.String(), args...); err != nil {
		return nil, fmt.Errorf("ledger: batch insert: %w", err)
	}
	byKey := make(map[string]int64, len(back))
	for _, b := range back {
		byKey[fmt.Sprint(b.AgencyID, "\x00", b.Key)] = b.ID
	}
	ids := make([]int64, len(rows))
	for n, r := range rows {
		id, ok := byKey[fmt.Sprint(r.t.AgencyID, "\x00", r.t.IdempotencyKey)]
		if !ok {
			return nil, fmt.Errorf("ledger: batch insert lost transfer %q", r.t.IdempotencyKey)
		}
		ids[n] = id
	}
	return ids, nil
}
