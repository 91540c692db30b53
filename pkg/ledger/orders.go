package ledger

import (
	"context"
	"fmt"
	"time"
)

// OrderTransfer is one transfer posted for an order, as the agency that
// owns the order sees it on the order: what it was for and how much, also
// when it did not touch the wallet (a forfeited deposit moves from what is
// owed to the airline to the provider's revenue).
type OrderTransfer struct {
	ID          int64     `db:"id"`
	Type        string    `db:"payment_type"`
	Amount      int64     `db:"amount"`
	Currency    string    `db:"currency"`
	Reference   string    `db:"reference"`
	Description string    `db:"description"`
	CreatedAt   time.Time `db:"created_at"`
}

// OrderTransfers lists the transfers of agency's order orderID (its booking
// number), oldest first.
func (l *Ledger) OrderTransfers(ctx context.Context, agencyID int64, orderID string) ([]OrderTransfer, error) {
	out := []OrderTransfer{}
	err := l.db.SelectContext(ctx, &out, l.db.Rebind(`SELECT id, payment_type, amount, currency, reference, description, created_at
		FROM ledger_transfers WHERE agency_id = ? AND order_id = ? ORDER BY id`), agencyID, orderID)
	if err != nil {
		return nil, fmt.Errorf("ledger: order %s transfers: %w", orderID, err)
	}
	return out, nil
}
