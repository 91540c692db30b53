package payment

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/ledger"
)

// Taken is a payment a gateway took for a booking of any line: what the
// ledger records once the line settles it.
type Taken struct {
	// Pay is the line's own transfer of the booking's price out of the
	// agency's wallet (origin-flight, origin-train, group-deposit…): its
	// key, amount, type, booking and description.
	Pay ledger.Transfer
	// Channel, Key and Reference are the gateway's: which channel took the
	// money, the key the charge was asked with (one a charge: two charges
	// for one booking are two receipts), and its reference for it.
	Channel, Key, Reference string
}

// receipt is the money arriving from the gateway into the agency's wallet:
// a top-up by the channel, naming the booking it paid, so finance finds it
// where it finds every payment received (Transactions, the wallet entries,
// statements) with its channel, gross, fee and net. The agency pays no fee
// on it: the gateway's fee is the provider's cost.
func (p Taken) receipt() ledger.Transfer {
	t := p.Pay
	return ledger.Transfer{AgencyID: t.AgencyID, IdempotencyKey: "receipt-" + p.Key, From: ledger.Provider(ledger.KindFunding),
		To: ledger.Wallet(t.AgencyID), Amount: t.Amount, Currency: t.Currency, PaymentType: ledger.TypeTopUp, OrderID: t.OrderID,
		Reference: p.Reference, Description: t.Description, CreatedBy: t.CreatedBy,
		Detail: map[string]string{"method": p.Channel, "for": t.PaymentType}}
}

// SettleTx records, in tx, a payment a gateway took and the booking it
// paid: the money into the agency's wallet from the channel, then the
// booking's price out of it. The wallet's balance ends where it was; both
// transfers are listed for the agency. Both keys make a replay post nothing.
func SettleTx(ctx context.Context, l *ledger.Ledger, tx *sqlx.Tx, p Taken) error {
	if p.Key == "" {
		return fmt.Errorf("payment: booking %s: a gateway payment without its key", p.Pay.OrderID)
	}
	if p.Pay.From != ledger.Wallet(p.Pay.AgencyID) {
		return fmt.Errorf("payment: booking %s is not paid from agency %d's wallet", p.Pay.OrderID, p.Pay.AgencyID)
	}
	if _, err := l.PostTx(ctx, tx, p.receipt()); err != nil {
		return fmt.Errorf("payment: receipt of %s by %s: %w", p.Pay.OrderID, p.Channel, err)
	}
	// The receipt just credited the price, so the wallet can always pay
	// it, whatever its credit.
	if _, err := l.PostTx(ctx, tx, p.Pay); err != nil {
		return fmt.Errorf("payment: %s of %s: %w", p.Pay.PaymentType, p.Pay.OrderID, err)
	}
	return nil
}

// PutBack records a payment a gateway took that its booking can no longer
// use (the installment was paid meanwhile, the booking ended): the money
// stays the agency's, in its wallet, listed as received by the channel.
// It is SettleTx's receipt, the same transfer under the same key: however
// often either runs, the money arrives once.
func PutBack(ctx context.Context, l *ledger.Ledger, p Taken) error {
	if _, err := l.Post(ctx, p.receipt()); err != nil {
		return fmt.Errorf("payment: put back %s by %s: %w", p.Pay.OrderID, p.Channel, err)
	}
	return nil
}
