package payment

import (
	"context"
	"fmt"
	"time"
)

// A channel refund's states (channel_refunds.state).
const (
	refundDone = "done"
)

// reconRefund is a channel refund as the reconciliation reads it, with the
// stage of the payment it gives back.
type reconRefund struct {
	RefundNo  string `db:"refund_no"`
	Channel   string `db:"channel"`
	Line      string `db:"line"`
	BookingID int64  `db:"booking_id"`
	Stage     string `db:"stage"`
	AgencyID  int64  `db:"agency_id"`
	Amount    int64  `db:"amount"`
	Currency  string `db:"currency"`
	State     string `db:"state"`
	Reference string `db:"reference"`
	LedgerKey string `db:"ledger_key"`
	// PaymentKey is the refunded payment's: its receipt names the booking.
	PaymentKey string     `db:"payment_key"`
	CreatedAt  time.Time  `db:"created_at"`
	DoneAt     *time.Time `db:"done_at"`
}

// paidPayments are the channel payments paid in [from, to), at most
// MaxReconRows+1.
func (r Reconciler) paidPayments(ctx context.Context, from, to time.Time) ([]ChannelPayment, error) {
	var out []ChannelPayment
	err := r.DB.SelectContext(ctx, &out, r.DB.Rebind(`SELECT `+channelPaymentColumns+` FROM channel_payments
		WHERE state = ? AND paid_at >= ? AND paid_at < ? ORDER BY paid_at, id LIMIT ?`), recordPaid, from.UTC(), to.UTC(), MaxReconRows+1)
	if err != nil {
		return nil, fmt.Errorf("payment: reconcile: paid payments: %w", err)
	}
	return out, nil
}

// expiredPayments are the channel payments still pending whose window ran
// out in [from, to), at most MaxReconRows+1.
func (r Reconciler) expiredPayments(ctx context.Context, from, to time.Time) ([]ChannelPayment, error) {
	if !to.After(from) {
		return nil, nil
	}
	var out []ChannelPayment
	err := r.DB.SelectContext(ctx, &out, r.DB.Rebind(`SELECT `+channelPaymentColumns+` FROM channel_payments
		WHERE state = ? AND expires_at >= ? AND expires_at < ? ORDER BY expires_at, id LIMIT ?`), recordPending, from.UTC(), to.UTC(), MaxReconRows+1)
	if err != nil {
		return nil, fmt.Errorf("payment: reconcile: expired payments: %w", err)
	}
	return out, nil
}

// refunds are the channel refunds done in [from, to), and those asked in
// it that are not done, at most MaxReconRows+1.
func (r Reconciler) refunds(ctx context.Context, from, to time.Time) ([]reconRefund, error) {
	var out []reconRefund
	err := r.DB.SelectContext(ctx, &out, r.DB.Rebind(`SELECT f.refund_no, f.channel, f.line, f.booking_id, p.stage, f.agency_id,
		f.amount, f.currency, f.state, f.reference, f.ledger_key, p.payment_key, f.created_at, f.done_at
		FROM channel_refunds f JOIN channel_payments p ON p.id = f.payment_id
		WHERE (f.state = ? AND f.done_at >= ? AND f.done_at < ?) OR (f.state <> ? AND f.created_at >= ? AND f.created_at < ?)
		ORDER BY f.id LIMIT ?`), refundDone, from.UTC(), to.UTC(), refundDone, from.UTC(), to.UTC(), MaxReconRows+1)
	if err != nil {
		return nil, fmt.Errorf("payment: reconcile: refunds: %w", err)
	}
	for _, f := range out {
		if f.State == refundDone && f.DoneAt == nil {
			return nil, fmt.Errorf("payment: reconcile: refund %s is done without its time", f.RefundNo)
		}
	}
	return out, nil
}

// testGatewayKey reports whether the built-in test gateway took the
// payment key (its receipts are no channel's).
func (r Reconciler) testGatewayKey(ctx context.Context, key string) (bool, error) {
	_, ok, err := getRow[int](ctx, r.DB, `SELECT 1 FROM test_gateway_payments WHERE payment_key = ?`, key)
	if err != nil {
		return false, fmt.Errorf("payment: reconcile: test gateway payment %s: %w", key, err)
	}
	return ok, nil
}
