package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Posting is one ledger transfer as finance's reconciliation reads it
// (payment.Reconciler): its key, type, sum and what it names, against
// which a channel's own record of the money is checked.
type Posting struct {
	ID        int64     `db:"id"`
	AgencyID  int64     `db:"agency_id"`
	Key       string    `db:"idempotency_key"`
	Type      string    `db:"payment_type"`
	Amount    int64     `db:"amount"`
	Currency  string    `db:"currency"`
	OrderID   string    `db:"order_id"`
	Reference string    `db:"reference"`
	Detail    string    `db:"detail"`
	CreatedAt time.Time `db:"created_at"`
}

// Method is the payment method the transfer's detail names ("alipay",
// "stripe"…), "" when it names none.
func (p Posting) Method() string {
	var d map[string]string
	_ = json.Unmarshal([]byte(p.Detail), &d)
	return d["method"]
}

// PostingKey is a transfer's identity: its idempotency key within its
// agency.
type PostingKey struct {
	AgencyID int64
	Key      string
}

const postingColumns = `id, agency_id, idempotency_key, payment_type, amount, currency, order_id, reference, detail, created_at`

// postingChunk bounds the keys of one lookup query.
const postingChunk = 500

// PostingsByKey reads the transfers of keys, by key; a key never posted is
// absent from the answer. The lookups use the (agency_id,
// idempotency_key) index, one query per agency and chunk of keys.
func (l *Ledger) PostingsByKey(ctx context.Context, keys []PostingKey) (map[PostingKey]Posting, error) {
	byAgency := map[int64][]string{}
	for _, k := range keys {
		byAgency[k.AgencyID] = append(byAgency[k.AgencyID], k.Key)
	}
	out := make(map[PostingKey]Posting, len(keys))
	for agencyID, ks := range byAgency {
		for len(ks) > 0 {
			n := min(len(ks), postingChunk)
			chunk := ks[:n]
			ks = ks[n:]
			args := make([]any, 0, n+1)
			args = append(args, agencyID)
			for _, k := range chunk {
				args = append(args, k)
			}
			var rows []Posting
			q := `SELECT ` + postingColumns + ` FROM ledger_transfers WHERE agency_id = ? AND idempotency_key IN (?` +
				strings.Repeat(", ?", n-1) + `)`
			if err := l.db.SelectContext(ctx, &rows, l.db.Rebind(q), args...); err != nil {
				return nil, fmt.Errorf("ledger: postings of agency %d by key: %w", agencyID, err)
			}
			for _, p := range rows {
				out[PostingKey{p.AgencyID, p.Key}] = p
			}
		}
	}
	return out, nil
}

// PostingsFrom reads the transfers of type typ whose key starts with
// prefix, posted in [from, to), oldest first, at most limit of them.
func (l *Ledger) PostingsFrom(ctx context.Context, typ, prefix string, from, to time.Time, limit int) ([]Posting, error) {
	if strings.ContainsAny(prefix, `%_\`) {
		return nil, fmt.Errorf("ledger: postings: the key prefix %q holds a LIKE wildcard", prefix)
	}
	var rows []Posting
	// UTC like the stored times: SQLite compares them as text.
	err := l.db.SelectContext(ctx, &rows, l.db.Rebind(`SELECT `+postingColumns+` FROM ledger_transfers
		WHERE payment_type = ? AND idempotency_key LIKE ? AND created_at >= ? AND created_at < ? ORDER BY id LIMIT ?`),
		typ, prefix+"%", from.UTC(), to.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("ledger: postings %s %s*: %w", typ, prefix, err)
	}
	return rows, nil
}
