package audit

import (
	"context"
	"sort"
	"strings"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
)

// needs lists, for each action whose sentence names something, the facts
// that sentence needs ("amount" stands for the amount and its currency).
// An entry missing one reads as the action's plain sentence; an action not
// listed only has a plain sentence. Router actions are OpenAPI operation ids.
var needs = map[string][]string{
	"user.create": {"user"}, "user.update": {"user"}, "user.deactivate": {"user"}, "user.status": {"user"},
	"profile.passenger.create": {"name"}, "profile.passenger.update": {"name"}, "profile.passenger.delete": {"name"},
	"profile.card.create": {"airline"}, "profile.card.update": {"airline"}, "profile.card.delete": {"airline"},
	"agency.create": {"agency"}, "agency.update": {"agency"}, "agency.config": {"agency"}, "agency.active": {"agency"},
	"agency.blocked": {"agency"}, "agency.delete": {"agency"}, "agency.credit": {"agency", "amount"}, "agency.funds": {"agency", "amount"},

	"createFlightOrder": {"order"}, "cancelFlightOrder": {"order"}, "payFlightOrder": {"order", "amount"},
	"refundFlightOrder": {"order"}, "changeFlightOrder": {"order"}, "voidFlightOrder": {"order"},
	"confirmFlightOrder": {"order"}, "flightOrderAction": {"order"}, "reviewFlightOrder": {"order"}, "recordFlightDisruption": {"order"},
	"createTrainOrder": {"order"}, "cancelTrainOrder": {"order"}, "payTrainOrder": {"order", "amount"},
	"trainRefundQuote": {"order"}, "trainChangeQuote": {"order"}, "confirmTrainQuote": {"order"}, "dropTrainQuote": {"order"},
	"confirmTrainTickets": {"order"},
	"quoteGroupOrder":     {"order"}, "closeGroupOrder": {"order"}, "groupOrderSeats": {"order"},
	"createAgencyAPIKey": {"agency"}, "revokeAgencyAPIKey": {"agency"}, "rotateAgencyWebhookSecret": {"agency"},
	"redeliverAgencyWebhook": {"agency"}, "createSubStatement": {"agency"}, "setExchangeRate": {"currency"},
}

// groupActions are the group-order steps written as "group.<action>", each
// naming the order.
var groupActions = []string{"request", "quote", "accept", "decline", "confirm", "apply", "grant", "refuse", "pay",
	"cancel", "close", "expire", "miss", "ticketed", "upload"}

func init() {
	for _, a := range groupActions {
		needs["group."+a] = []string{"order"}
	}
}

// Sentence is what the entry says happened, in the language of ctx:
// "Booked flight order F2611250001", "Added 1,250.00 CNY to Demo Travel".
// An entry without the facts its sentence needs (written before they were
// kept) reads as its action in words; an action the catalog does not know
// reads as a change, never as its code.
func Sentence(ctx context.Context, e Entry) string {
	f := factsOf(e)
	if e.Action == "profile.config" {
		if k := "userlog.plain.profile.config." + f["key"]; f["key"] != "" && i18n.Has(ctx, k) {
			return i18n.T(ctx, k)
		}
	}
	if need := needs[e.Action]; len(need) > 0 {
		args := make([]any, 0, 2*len(need))
		for _, n := range need {
			v := f[n]
			if n == "amount" {
				v = FormatAmount(f["amount"], f["currency"])
			}
			if v == "" {
				args = nil
				break
			}
			args = append(args, n, v)
		}
		if key := "userlog.sentence." + e.Action; args != nil && i18n.Has(ctx, key) {
			return i18n.T(ctx, key, args...)
		}
	}
	return ActionName(ctx, e.Action)
}

// ActionName is the action in words, as the log's filter lists it ("Booked
// a flight order"); an unknown action is "Made a change".
func ActionName(ctx context.Context, action string) string {
	if key := "userlog.plain." + action; i18n.Has(ctx, key) {
		return i18n.T(ctx, key)
	}
	return i18n.T(ctx, "userlog.plain.other")
}

// FormatAmount writes a decimal amount with thousands separators and its
// currency: "1250.00", "CNY" → "1,250.00 CNY"; "" when either is missing
// or the amount is not a plain decimal.
func FormatAmount(amount, currency string) string {
	if amount == "" || currency == "" {
		return ""
	}
	if !money.PlainDecimal(strings.TrimPrefix(amount, "-")) {
		return ""
	}
	return money.GroupDecimal(amount) + " " + currency
}

// factsOf is the entry's facts, with those older entries carry in their
// target or detail (the user changed, the group order, the passenger's
// name) filled in.
func factsOf(e Entry) Facts {
	f := Facts{}
	switch {
	case strings.HasPrefix(e.Action, "user."):
		if u, ok := strings.CutPrefix(e.Target, "user:"); ok {
			f["user"] = u
		}
	case strings.HasPrefix(e.Action, "group."):
		f["order"] = e.Target
	case strings.HasPrefix(e.Action, "profile.passenger."):
		f["name"] = e.Detail
	case strings.HasPrefix(e.Action, "profile.card."):
		f["airline"] = e.Detail
	case e.Action == "profile.config":
		f["key"], _ = strings.CutPrefix(e.Target, "config:")
	case e.Action == "agency.delete":
		// "agency:12 Blue Sky Travel"
		if _, name, ok := strings.Cut(e.Target, " "); ok {
			f["agency"] = name
		}
	case e.Action == "agency.funds":
		// "1250.00 CNY ref TT-1"
		if parts := strings.Fields(e.Detail); len(parts) >= 2 {
			f["amount"], f["currency"] = parts[0], parts[1]
		}
	}
	for k, v := range e.Facts {
		f[k] = v
	}
	return f
}

// Described lists the actions that have a sentence naming what changed.
func Described() []string {
	out := make([]string, 0, len(needs))
	for a := range needs {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}
