package ledger

import (
	"context"
	"fmt"
)

// Imbalance is, per currency, the sum of every account's balance (the
// provider's shards included). Every transfer takes from one account what
// it gives another in one transaction, so each sum is zero; anything else
// means money was created or lost and is an incident. One pass over the
// accounts (a row per agency and currency), not over the transfers.
func (l *Ledger) Imbalance(ctx context.Context) (map[string]int64, error) {
	var rows []struct {
		Currency string `db:"currency"`
		Sum      int64  `db:"total"`
	}
	if err := l.db.SelectContext(ctx, &rows, `SELECT currency, COALESCE(SUM(balance), 0) AS total FROM ledger_accounts GROUP BY currency`); err != nil {
		return nil, fmt.Errorf("ledger: imbalance: %w", err)
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.Currency] = r.Sum
	}
	return out, nil
}
