package group

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
)

// The remarks the line writes on its timeline itself. Each is stored as a
// catalog key with its values (i18n.WithArgs: amounts as plain decimals,
// times in RFC 3339) and written out for each reader (RemarkText): in the
// reader's language, amounts with thousands separators and currency,
// times in the reader's zone. What people typed (a request's or a
// closing's remark) is stored and shown as typed.
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

// RemarkText is a timeline remark as ctx's reader reads it: a remark of
// the line in ctx's language with its amounts and times written out for
// them; anything else (what people typed, a remark from before remarks
// were keys) as it is.
func RemarkText(ctx context.Context, remark string) string {
	key, query, ok := strings.Cut(remark, "?")
	if !strings.HasPrefix(key, "group.remark.") {
		return remark
	}
	var q url.Values
	if ok {
		var err error
		if q, err = url.ParseQuery(query); err != nil {
			return remark
		}
	}
	var args []any
	for name := range q {
		v := q.Get(name)
		switch name {
		case "amount":
			cur := q.Get("currency")
			if a, err := money.Parse(v, cur); err == nil {
				v = money.GroupDecimal(a.String()) + " " + cur
			}
		case "at":
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				v = display.Time(ctx, t)
			}
		case "stage":
			v = i18n.Label(ctx, "groupportal.stage."+v, v)
		case "kind":
			v = i18n.Label(ctx, "group.deadline."+v, v)
		case "channel":
			v = i18n.Label(ctx, "orders.channel."+v, v)
		}
		args = append(args, name, v)
	}
	return i18n.T(ctx, key, args...)
}
