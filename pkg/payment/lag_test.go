package payment_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestSettlementLag: only a payment still pending past its window counts,
// the oldest of them; a paid one, or one whose window is still open, does
// not.
func TestSettlementLag(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2027, 3, 4, 10, 0, 0, 0, time.UTC)
		lag := func() time.Duration {
			t.Helper()
			d, err := payment.SettlementLag(ctx, db, now)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		add := func(n int, state string, expires time.Time) {
			t.Helper()
			_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO channel_payments (trade_no, payment_key, channel, line, booking_id, agency_id,
				amount, currency, state, expires_at, created_at, updated_at) VALUES (?, ?, 'alipay', 'flight', ?, 1, 100, 'CNY', ?, ?, ?, ?)`),
				fmt.Sprintf("T%d", n), fmt.Sprintf("k%d", n), n, state, expires, expires.Add(-15*time.Minute), expires.Add(-15*time.Minute))
			if err != nil {
				t.Fatal(err)
			}
		}
		add(1, payment.StatePending, now.Add(10*time.Minute))
		add(2, payment.StatePaid, now.Add(-3*time.Hour))
		if got := lag(); got != 0 {
			t.Fatalf("lag with nothing overdue = %s", got)
		}
		add(3, payment.StatePending, now.Add(-20*time.Minute))
		add(4, payment.StatePending, now.Add(-time.Hour))
		if got := lag(); got != time.Hour {
			t.Fatalf("lag = %s, want 1h (the oldest pending past its window)", got)
		}
	})
}
