package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/order"
)

// fundsAction credits agency d's wallet with money received, in its
// settlement currency or in another one at an exchange rate (units of the
// settlement currency per unit received), less an optional fee. The form
// draws one idempotency key when it opens and uses it for the preview, the
// post and every retry, so however often the post is tried (a time-out, a
// lost answer) the money is credited once. The confirmation shows the
// backend's dry run: received, rate, gross, fee, credited, the balance
// before and after.
func fundsAction(b admin.Backend, d agency.Detail) *action {
	key := newKey()
	cur := newField("Currency received", d.Currency, true)
	cur.input.SetValue(d.Currency)
	rate := newField("Exchange rate", "1", true)
	rate.input.SetValue("1")
	topUp := func(v []string) ledger.TopUp {
		received := strings.ToUpper(orDefault(v[3], d.Currency))
		t := ledger.TopUp{Currency: d.Currency, CurrencyReceived: received, AmountReceived: v[0], ExchangeRate: orDefault(v[4], "1"),
			FeePercent: v[5], Reference: v[1], Remark: v[2], IdempotencyKey: key}
		if received == d.Currency && t.ExchangeRate == "1" && t.FeePercent == "" {
			t.Amount = v[0]
		}
		return t
	}
	return &action{
		id:       nextID(),
		title:    "Add funds · " + d.Name + " · " + d.Code,
		question: "Post this top-up?",
		fields: []field{
			newField("Amount received", "e.g. 1000.00", false),
			newField("Reference", "bank or payment reference", false),
			newField("Remark", "", true),
			cur, rate,
			newField("Fee %", "kept by the provider", true),
		},
		check: func(ctx context.Context, v []string) ([]string, error) {
			p, err := b.PreviewFunds(ctx, d.ID, topUp(v))
			if err != nil {
				return nil, err
			}
			lines := []string{}
			if p.CurrencyReceived != "" && p.CurrencyReceived != p.Currency {
				lines = append(lines,
					"Received   "+p.AmountReceived+" "+p.CurrencyReceived+" at "+p.ExchangeRate+" "+p.Currency+"/"+p.CurrencyReceived,
					"Gross      "+p.Gross+" "+p.Currency)
			}
			if strings.Trim(p.Fee, "0.,") != "" {
				lines = append(lines, "Fee        "+p.Fee+" "+p.Currency+" ("+p.FeePercent+"%)")
			}
			lines = append(lines,
				"Credit     "+p.Credited+" "+p.Currency+" to "+p.Agency,
				"Balance    "+p.Balance+" → "+p.NewBalance+" "+p.Currency,
				"Reference  "+p.Reference,
			)
			if p.KeyUsed {
				lines = append(lines, "This top-up was posted already: confirming replays it and credits nothing new.")
			}
			return lines, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			r, err := b.AddFunds(ctx, d.ID, topUp(v))
			if err != nil {
				return nil, "", err
			}
			lines := []string{
				fmt.Sprintf("Credited %s %s to %s.", r.Credited, r.Currency, d.Name),
				fmt.Sprintf("Balance now %s %s (transfer %d).", r.Balance, r.Currency, r.TransferID),
			}
			if r.Replayed {
				lines = append(lines, "This top-up had been posted already: nothing new was credited.")
			}
			return lines, fmt.Sprintf("Added %s %s to %s.", r.Credited, r.Currency, d.Name), nil
		},
	}
}

// statusAction blocks agency d (its users and keys are refused until it
// is unblocked) or unblocks it.
func statusAction(m *Model, d agency.Detail) *action {
	t := m.t
	b := m.b
	to, verb := agency.StatusBlocked, "block"
	if d.Status == agency.StatusBlocked {
		to, verb = agency.StatusActive, "unblock"
	}
	return &action{
		id:       nextID(),
		title:    t("agency."+verb+"Title", "name", d.Name, "code", d.Code),
		question: t("agency." + verb + "Question"),
		check: func(context.Context, []string) ([]string, error) {
			return []string{t("agency."+verb+"Plan", "name", d.Name)}, nil
		},
		post: func(ctx context.Context, _ []string) ([]string, string, error) {
			after, err := b.SetAgencyStatus(ctx, d.ID, to)
			if err != nil {
				return nil, "", err
			}
			done := t("agency.statusDone", "name", after.Name, "status", after.Status)
			return []string{done}, done, nil
		},
	}
}

// creditAction sets agency d's credit limit; the period starts as it is.
func creditAction(b admin.Backend, d agency.Detail) *action {
	limit := newField("Credit limit ("+d.Currency+")", "now "+d.CreditLimit, false)
	days := newField("Credit period", "0", true)
	days.input.SetValue(strconv.Itoa(d.CreditPeriod))
	unit := newField("Period unit", "day, week, month or year", true)
	unit.input.SetValue(d.CreditPeriodUnit)
	request := func(v []string) (agency.CreditRequest, error) {
		r := agency.CreditRequest{CreditLimit: v[0], CreditPeriodUnit: v[2]}
		if v[1] != "" {
			n, err := strconv.Atoi(v[1])
			if err != nil {
				return r, errors.New("the credit period is a whole number (of days, weeks, months or years)")
			}
			r.CreditPeriod = n
		}
		return r, nil
	}
	return &action{
		id:       nextID(),
		title:    "Set credit · " + d.Name + " · " + d.Code,
		question: "Set this credit limit?",
		fields:   []field{limit, days, unit},
		check: func(ctx context.Context, v []string) ([]string, error) {
			r, err := request(v)
			if err != nil {
				return nil, err
			}
			p, err := b.PreviewCredit(ctx, d.ID, r)
			if err != nil {
				return nil, err
			}
			return []string{
				"Credit limit  " + p.CreditLimit + " → " + p.NewCreditLimit + " " + p.Currency,
				"Available     " + p.Available + " → " + p.NewAvailable + " " + p.Currency,
				"Period        " + period(p.CreditPeriod, p.PeriodUnit),
			}, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			r, err := request(v)
			if err != nil {
				return nil, "", err
			}
			s, err := b.SetCredit(ctx, d.ID, r)
			if err != nil {
				return nil, "", err
			}
			msg := fmt.Sprintf("Credit limit of %s is now %s %s; available %s %s.", s.Name, s.CreditLimit, s.Currency, s.Available, s.Currency)
			return []string{msg}, msg, nil
		},
	}
}

// apiKeyAction makes an API key for agency d with the default roles. The
// key is shown once: only its hash is kept.
func apiKeyAction(b admin.Backend, d agency.Detail) *action {
	return &action{
		id:       nextID(),
		title:    "New API key · " + d.Name + " · " + d.Code,
		question: "Create this key?",
		fields:   []field{newField("Key name", "e.g. booking engine", false)},
		check: func(_ context.Context, v []string) ([]string, error) {
			return []string{
				fmt.Sprintf("Create the API key %q for %s,", v[0], d.Name),
				"with the default roles (operator and finance).",
			}, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			k, err := b.CreateAPIKey(ctx, d.ID, v[0], nil)
			if err != nil {
				return nil, "", err
			}
			return []string{
					fmt.Sprintf("API key %q for %s, shown only now: copy it before closing.", k.Name, d.Name),
					"",
					k.Key,
					"",
				}, fmt.Sprintf("Created the API key %q (%s…) for %s.", k.Name, k.Prefix, d.Name),
				nil
		},
	}
}

// reviewAction decides on order v, waiting for the provider's review:
// approve (a refund at the supplier's quote), reject with a remark, or
// quote a refund or change at the amounts given.
func reviewAction(b admin.Backend, v order.View, act order.Action, agencyName string) *action {
	cur := v.Total.Currency
	what := v.Type + " " + v.BookingNumber + " of " + agencyName
	a := &action{id: nextID()}
	var build func(vals []string) (order.ReviewRequest, []string, error)
	switch act {
	case order.ActApprove:
		a.title, a.question = "Approve · "+v.BookingNumber, "Approve it?"
		a.fields = []field{newField("Remark", "", true)}
		build = func(vals []string) (order.ReviewRequest, []string, error) {
			return order.ReviewRequest{Action: order.ActApprove, Remark: vals[0]},
				[]string{"Approve the " + what + ".", "Remark: " + orNone(vals[0])}, nil
		}
	case order.ActReject:
		a.title, a.question = "Reject · "+v.BookingNumber, "Reject it?"
		a.fields = []field{newField("Remark", "why, for the agency", false)}
		build = func(vals []string) (order.ReviewRequest, []string, error) {
			return order.ReviewRequest{Action: order.ActReject, Remark: vals[0]},
				[]string{"Reject the " + what + ".", "Remark: " + vals[0]}, nil
		}
	default: // quote
		amount := "Refund amount (" + cur + ")"
		if v.Type == order.TypeChange {
			amount = "Amount due (" + cur + ")"
		}
		a.title, a.question = "Quote · "+v.BookingNumber, "Send this quote?"
		a.fields = []field{newField(amount, "", false), newField("Airline fee ("+cur+")", "the supplier's", true),
			newField("Hours to confirm", "24", true), newField("Remark", "", true)}
		build = func(vals []string) (order.ReviewRequest, []string, error) {
			r := order.ReviewRequest{Action: order.ActQuote, Fee: vals[1], Remark: vals[3]}
			if v.Type == order.TypeChange {
				r.Due = vals[0]
			} else {
				r.RefundAmount = vals[0]
			}
			if vals[2] != "" {
				n, err := strconv.Atoi(vals[2])
				if err != nil || n <= 0 {
					return r, nil, errors.New("the hours to confirm are a whole number above zero")
				}
				r.ConfirmHours = n
			}
			hours := vals[2]
			if hours == "" {
				hours = "24"
			}
			return r, []string{"Quote the " + what + ":",
				labelled(amount, vals[0]), labelled("Airline fee", orDefault(vals[1], "the supplier's")),
				labelled("Confirm within", hours+" hours"), labelled("Remark", orNone(vals[3]))}, nil
		}
	}
	a.check = func(_ context.Context, vals []string) ([]string, error) {
		_, plan, err := build(vals)
		return plan, err
	}
	a.post = func(ctx context.Context, vals []string) ([]string, string, error) {
		r, _, err := build(vals)
		if err != nil {
			return nil, "", err
		}
		after, err := b.Review(ctx, v.ID, r)
		if err != nil {
			return nil, "", err
		}
		msg := fmt.Sprintf("%s: %s is now %s.", actionPast(act), after.BookingNumber, after.Status)
		return []string{msg}, msg, nil
	}
	return a
}

func actionPast(a order.Action) string {
	switch a {
	case order.ActApprove:
		return "Approved"
	case order.ActReject:
		return "Rejected"
	}
	return "Quoted"
}

// labelled is a plan line: a label column, then the value.
func labelled(label, value string) string { return fit(label, 24) + value }

func orNone(s string) string { return orDefault(s, "none") }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// period is a credit period as words.
func period(n int, unit string) string {
	if n <= 0 {
		return "none"
	}
	return strconv.Itoa(n) + " " + unit
}
