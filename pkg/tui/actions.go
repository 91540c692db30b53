package tui

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/ledger"
)

// fundsAction credits agency d's wallet with money received, in its
// settlement currency or in another one at an exchange rate (units of the
// settlement currency per unit received), less an optional fee. The form
// draws one idempotency key when it opens and uses it for the preview, the
// post and every retry, so however often the post is tried (a time-out, a
// lost answer) the money is credited once. The confirmation shows the
// backend's dry run: received, rate, gross, fee, credited, the balance
// before and after.
func fundsAction(m *Model, d agency.Detail) *action {
	t, b := m.t, m.b
	key := newKey()
	cur := newField(t("funds.currencyReceived"), d.Currency, true)
	cur.input.SetValue(d.Currency)
	rate := newField(t("funds.rate"), "1", true)
	rate.input.SetValue("1")
	topUp := func(v []string) ledger.TopUp {
		received := strings.ToUpper(orDefault(v[3], d.Currency))
		tu := ledger.TopUp{Currency: d.Currency, CurrencyReceived: received, AmountReceived: v[0], ExchangeRate: orDefault(v[4], "1"),
			FeePercent: v[5], Reference: v[1], Remark: v[2], IdempotencyKey: key}
		if received == d.Currency && tu.ExchangeRate == "1" && tu.FeePercent == "" {
			tu.Amount = v[0]
		}
		return tu
	}
	return &action{
		id:       nextID(),
		title:    t("funds.title", "name", d.Name, "code", d.Code),
		question: t("funds.question"),
		fields: []field{
			newField(t("funds.amount"), t("funds.amountHint"), false),
			newField(t("funds.reference"), t("funds.referenceHint"), false),
			newField(t("funds.remark"), "", true),
			cur, rate,
			newField(t("funds.fee"), t("funds.feeHint"), true),
		},
		check: func(ctx context.Context, v []string) ([]string, error) {
			p, err := b.PreviewFunds(ctx, d.ID, topUp(v))
			if err != nil {
				return nil, err
			}
			lines := []string{}
			if p.CurrencyReceived != "" && p.CurrencyReceived != p.Currency {
				lines = append(lines,
					t("funds.planReceived", "amount", p.AmountReceived, "received", p.CurrencyReceived, "rate", p.ExchangeRate, "currency", p.Currency),
					t("funds.planGross", "amount", p.Gross, "currency", p.Currency))
			}
			if strings.Trim(p.Fee, "0.,") != "" {
				lines = append(lines, t("funds.planFee", "amount", p.Fee, "currency", p.Currency, "percent", p.FeePercent))
			}
			lines = append(lines,
				t("funds.planCredit", "amount", p.Credited, "currency", p.Currency, "name", p.Agency),
				t("funds.planBalance", "balance", p.Balance, "after", p.NewBalance, "currency", p.Currency),
				t("funds.planReference", "reference", p.Reference),
			)
			if p.KeyUsed {
				lines = append(lines, t("funds.keyUsed"))
			}
			return lines, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			r, err := b.AddFunds(ctx, d.ID, topUp(v))
			if err != nil {
				return nil, "", err
			}
			lines := []string{
				t("funds.credited", "amount", r.Credited, "currency", r.Currency, "name", d.Name),
				t("funds.balanceNow", "balance", r.Balance, "currency", r.Currency, "transfer", r.TransferID),
			}
			if r.Replayed {
				lines = append(lines, t("funds.replayed"))
			}
			return lines, t("funds.added", "amount", r.Credited, "currency", r.Currency, "name", d.Name), nil
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
func creditAction(m *Model, d agency.Detail) *action {
	t, b := m.t, m.b
	limit := newField(t("credit.limit", "currency", d.Currency), t("credit.now", "limit", d.CreditLimit), false)
	days := newField(t("credit.period"), "0", true)
	days.input.SetValue(strconv.Itoa(d.CreditPeriod))
	unit := newField(t("credit.unit"), t("credit.unitHint"), true)
	unit.input.SetValue(d.CreditPeriodUnit)
	request := func(v []string) (agency.CreditRequest, error) {
		r := agency.CreditRequest{CreditLimit: v[0], CreditPeriodUnit: v[2]}
		if v[1] != "" {
			n, err := strconv.Atoi(v[1])
			if err != nil {
				return r, errors.New(t("credit.badPeriod"))
			}
			r.CreditPeriod = n
		}
		return r, nil
	}
	return &action{
		id:       nextID(),
		title:    t("credit.title", "name", d.Name, "code", d.Code),
		question: t("credit.question"),
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
				t("credit.planLimit", "limit", p.CreditLimit, "after", p.NewCreditLimit, "currency", p.Currency),
				t("credit.planAvailable", "available", p.Available, "after", p.NewAvailable, "currency", p.Currency),
				t("credit.planPeriod", "period", m.period(p.CreditPeriod, p.PeriodUnit)),
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
			msg := t("credit.done", "name", s.Name, "limit", s.CreditLimit, "currency", s.Currency, "available", s.Available)
			return []string{msg}, msg, nil
		},
	}
}

// apiKeyAction makes an API key for agency d with the default roles. The
// key is shown once: only its hash is kept.
func apiKeyAction(m *Model, d agency.Detail) *action {
	t, b := m.t, m.b
	return &action{
		id:       nextID(),
		title:    t("keys.newTitle", "name", d.Name, "code", d.Code),
		question: t("keys.newQuestion"),
		fields:   []field{newField(t("apikey.name"), t("keys.nameHint"), false)},
		check: func(_ context.Context, v []string) ([]string, error) {
			return []string{t("apikey.plan", "name", v[0], "agency", d.Name), t("apikey.defaultRoles")}, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			k, err := b.CreateAPIKey(ctx, d.ID, v[0], nil)
			if err != nil {
				return nil, "", err
			}
			return []string{t("keys.shownOnce", "name", k.Name, "agency", d.Name), "", k.Key, ""},
				t("keys.created", "name", k.Name, "prefix", k.Prefix, "agency", d.Name), nil
		},
	}
}

// reviewAction decides on order v, waiting for the provider's review:
// approve (a refund at the supplier's quote), reject with a remark, or
// quote a refund or change at the amounts given.
func reviewAction(m *Model, v flight.View, act flight.Action, agencyName string) *action {
	t, b := m.t, m.b
	cur := v.Total.Currency
	what := t("review.what", "type", m.word("orders.typeShort.", v.Type), "booking", v.BookingNumber, "agency", agencyName)
	none := t("review.form.none")
	a := &action{id: nextID()}
	var build func(vals []string) (flight.ReviewRequest, []string, error)
	switch act {
	case flight.ActApprove:
		a.title, a.question = t("review.form.approveTitle", "booking", v.BookingNumber), t("review.form.approveQuestion")
		a.fields = []field{newField(t("review.form.remark"), "", true)}
		build = func(vals []string) (flight.ReviewRequest, []string, error) {
			return flight.ReviewRequest{Action: flight.ActApprove, Remark: vals[0]},
				[]string{t("review.form.approvePlan", "what", what), labelled(t("review.form.remark"), orDefault(vals[0], none))}, nil
		}
	case flight.ActReject:
		a.title, a.question = t("review.form.rejectTitle", "booking", v.BookingNumber), t("review.form.rejectQuestion")
		a.fields = []field{newField(t("review.form.remark"), t("review.form.rejectHint"), false)}
		build = func(vals []string) (flight.ReviewRequest, []string, error) {
			return flight.ReviewRequest{Action: flight.ActReject, Remark: vals[0]},
				[]string{t("review.form.rejectPlan", "what", what), labelled(t("review.form.remark"), vals[0])}, nil
		}
	default: // quote
		amount := t("review.form.refundAmount", "currency", cur)
		if v.Type == flight.TypeChange {
			amount = t("review.form.amountDue", "currency", cur)
		}
		suppliers := t("review.form.suppliersFee")
		a.title, a.question = t("review.form.quoteTitle", "booking", v.BookingNumber), t("review.form.quoteQuestion")
		a.fields = []field{newField(amount, "", false), newField(t("review.form.airlineFee", "currency", cur), suppliers, true),
			newField(t("review.form.hours"), "24", true), newField(t("review.form.remark"), "", true)}
		build = func(vals []string) (flight.ReviewRequest, []string, error) {
			r := flight.ReviewRequest{Action: flight.ActQuote, Fee: vals[1], Remark: vals[3]}
			if v.Type == flight.TypeChange {
				r.Due = vals[0]
			} else {
				r.RefundAmount = vals[0]
			}
			hours := 24
			if vals[2] != "" {
				n, err := strconv.Atoi(vals[2])
				if err != nil || n <= 0 {
					return r, nil, errors.New(t("review.form.badHours"))
				}
				r.ConfirmHours, hours = n, n
			}
			return r, []string{t("review.form.quotePlan", "what", what),
				labelled(amount, vals[0]), labelled(t("review.form.airlineFeeShort"), orDefault(vals[1], suppliers)),
				labelled(t("review.form.confirmWithin"), t("review.form.hoursValue", "count", hours)),
				labelled(t("review.form.remark"), orDefault(vals[3], none))}, nil
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
		msg := t("review.form.done."+string(act), "booking", after.BookingNumber, "status", m.statusWords()("orders.status.", string(after.Status)))
		return []string{msg}, msg, nil
	}
	return a
}

// labelled is a plan line: a label column, then the value.
func labelled(label, value string) string { return fit(label, 24) + value }

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
