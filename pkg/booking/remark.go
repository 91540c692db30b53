package booking

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
)

// A remark a line writes on its timeline itself (a quote's total, a
// refund, a deadline passed) is stored as a catalog key of the line's
// "<line>.remark." namespace with its values folded in (i18n.WithArgs):
// amounts as plain decimals named in moneyArgs beside their "currency",
// times in RFC 3339 as "at", codes as themselves. RemarkText writes it out
// for each reader, so one stored remark reads in every language, with
// every reader's money display and zone. What people typed (a request's
// remark) is stored and shown as typed.

// moneyArgs are the values of a remark that are amounts in its currency.
var moneyArgs = []string{"amount", "refund", "fee", "due"}

// RemarkText is remark as ctx's reader reads it: a line's remark key in
// ctx's language, its amounts with thousands separators and currency, its
// time in the reader's zone, and each value named in labels (value name →
// catalog prefix of its words, such as "stage" → "groupportal.stage.") in
// words; any other remark as it is.
func RemarkText(ctx context.Context, remark string, labels map[string]string) string {
	key, query, hasArgs := strings.Cut(remark, "?")
	if i := strings.Index(key, ".remark."); i <= 0 || strings.ContainsAny(key, " \t\n") {
		return remark
	}
	q := url.Values{}
	if hasArgs {
		var err error
		if q, err = url.ParseQuery(query); err != nil {
			return remark
		}
	}
	args := make([]any, 0, 2*len(q))
	for name := range q {
		v := q.Get(name)
		switch {
		case name == "at":
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				v = display.Time(ctx, t)
			}
		case labels[name] != "":
			v = i18n.Label(ctx, labels[name]+v, v)
		default:
			for _, m := range moneyArgs {
				if name != m {
					continue
				}
				cur := q.Get("currency")
				if a, err := money.Parse(v, cur); err == nil {
					v = money.GroupDecimal(a.String()) + " " + cur
				}
			}
		}
		args = append(args, name, v)
	}
	return i18n.T(ctx, key, args...)
}
