package payment

import (
	"context"
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/store"
)

// SettlementLag is how long the oldest channel payment still pending has
// been past its window at now (zero when none is). The booking's status
// check and the five-minute reconcile job settle or close such a payment;
// one that stays pending long after its window means they are not running
// or the channel does not answer, and money the payer gave may be waiting
// for its booking. One read of the (state, expires_at) index.
func SettlementLag(ctx context.Context, db *store.DB, now time.Time) (time.Duration, error) {
	oldest, ok, err := getRow[time.Time](ctx, db, `SELECT expires_at FROM channel_payments WHERE state = ? AND expires_at < ?
		ORDER BY expires_at LIMIT 1`, StatePending, now.UTC())
	switch {
	case err != nil:
		return 0, fmt.Errorf("payment: settlement lag: %w", err)
	case !ok:
		return 0, nil
	}
	return max(now.Sub(oldest), 0), nil
}
