package group

import (
	"context"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
)

// The remarks the line writes on its timeline itself, as booking.Remark
// keys with their values; what people typed (a request's or a closing's
// remark) is stored and shown as typed.
const (
	remarkQuoted   = "group.remark.quoted"   // amount, currency
	remarkListed   = "group.remark.listed"   // count
	remarkPaid     = "group.remark.paid"     // stage, amount, currency, channel
	remarkMissed   = "group.remark.missed"   // kind, at
	remarkTicketed = "group.remark.ticketed" // count
)

// remarkOf is a remark of the line: key with its values as name, value
// pairs.
func remarkOf(key string, args ...any) string { return i18n.WithArgs(key, args...) }

// moneyRemark is the values of an amount on a remark.
func moneyRemark(minor int64, currency string) []any {
	return []any{"amount", money.Amount{Minor: minor, Currency: currency}.String(), "currency", currency}
}

// RemarkText is a timeline remark as ctx's reader reads it
// (booking.RemarkText), the stages, deadlines and channels it names in
// their words.
func RemarkText(ctx context.Context, remark string) string {
	return booking.RemarkText(ctx, remark, map[string]string{
		"stage": "groupportal.stage.", "kind": "group.deadline.", "channel": "orders.channel.",
	})
}
