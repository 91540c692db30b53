package agency

import (
	"context"
	"slices"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
)

// CreditPlan is what setting an agency's credit would change, changing
// nothing: the figures before and after. It is PreviewCredit's answer, a
// dry run of SetCredit.
type CreditPlan struct {
	// AgencyID is the id of the agency the credit is for.
	AgencyID int64 `json:"agencyId"`
	// Agency is the agency's company name.
	Agency string `json:"agency"`
	// Currency is the agency's settlement currency (ISO 4217), the currency
	// of every amount here.
	Currency string `json:"currency"`
	// CreditLimit is the credit limit now, a decimal string.
	CreditLimit string `json:"creditLimit"`
	// NewCreditLimit is the credit limit the request would set, a decimal
	// string.
	NewCreditLimit string `json:"newCreditLimit"`
	// Balance is the wallet balance, which setting the credit does not
	// change, a decimal string.
	Balance string `json:"balance"`
	// Available is what the agency can spend now (balance plus the current
	// limit), a decimal string.
	Available string `json:"available"`
	// NewAvailable is what it could spend with the new limit (balance plus
	// newCreditLimit), a decimal string.
	NewAvailable string `json:"newAvailable"`
	// CreditPeriod is the credit term the request would set, in
	// creditPeriodUnit.
	CreditPeriod int `json:"creditPeriod"`
	// PeriodUnit is the unit of creditPeriod: day, week, month or year
	// (month when the request named none).
	PeriodUnit string `json:"creditPeriodUnit"`
}

// FundsPlan is what a top-up would post, posting nothing: its figures and
// the wallet before and after. It is PreviewFunds's answer, a dry run of
// AddFunds.
type FundsPlan struct {
	// AgencyID is the id of the agency whose wallet would be credited.
	AgencyID int64 `json:"agencyId"`
	// Agency is the agency's company name.
	Agency string `json:"agency"`
	// Currency is the wallet's currency, the agency's settlement currency
	// (ISO 4217): that of gross, fee, credited and the balances.
	Currency string `json:"currency"`
	// CurrencyReceived is the currency the money arrived in (ISO 4217);
	// currency when the request named none.
	CurrencyReceived string `json:"currencyReceived"`
	// AmountReceived is the amount that arrived, a decimal string in
	// currencyReceived.
	AmountReceived string `json:"amountReceived"`
	// ExchangeRate is the rate applied: units of currency per unit of
	// currencyReceived, 1 when they are the same.
	ExchangeRate string `json:"exchangeRate"`
	// Gross is amountReceived converted into currency, before the fee, a
	// decimal string.
	Gross string `json:"gross"`
	// FeePercent is the transaction fee percentage kept by the provider, 0
	// when none (always 0 on a parent agency's top-up).
	FeePercent string `json:"feePercent"`
	// Fee is the fee kept, feePercent of gross, a decimal string in
	// currency.
	Fee string `json:"fee"`
	// Credited is what the wallet would receive, gross less fee, a decimal
	// string in currency.
	Credited string `json:"credited"`
	// Balance is the wallet balance now, a decimal string in currency.
	Balance string `json:"balance"`
	// NewBalance is the wallet balance after the top-up (balance plus
	// credited), a decimal string in currency.
	NewBalance string `json:"newBalance"`
	// Reference is the bank or payment reference, as it would be recorded.
	Reference string `json:"reference"`
	// IdempotencyKey is the Idempotency-Key header of the request, the key
	// the real top-up must be posted with to be this one.
	IdempotencyKey string `json:"idempotencyKey"`
	// KeyUsed is whether a top-up was already posted with this key: the
	// real call would then replay it (same figures) or be refused (other
	// figures).
	KeyUsed bool `json:"idempotencyKeyUsed"`
}

// creditFor is the agency id the actor manages and the credit limit r asks
// for it, checked (checkCredit).
func (s *Service) creditFor(ctx context.Context, actor auth.Principal, id int64, r *CreditRequest) (Agency, money.Amount, error) {
	a, err := s.Managed(ctx, actor, id)
	if err != nil {
		return Agency{}, money.Amount{}, err
	}
	limit, err := checkCredit(a, r)
	if err != nil {
		return Agency{}, money.Amount{}, err
	}
	return a, limit, nil
}

// checkCredit validates a credit request for agency a, filling the default
// period unit; SetCredit and PreviewCredit refuse the same things.
func checkCredit(a Agency, r *CreditRequest) (money.Amount, error) {
	errs := map[string]string{}
	limit, perr := money.ParseNonNegative(r.CreditLimit, a.SettlementCurrency)
	switch {
	case strings.TrimSpace(r.CreditLimit) == "":
		errs["creditLimit"] = "ledger.error.creditLimit"
	case perr != nil:
		errs["creditLimit"] = money.ErrorKey(perr, "ledger.error.creditLimit")
	}
	if r.CreditPeriodUnit == "" {
		r.CreditPeriodUnit = "month"
	}
	if !slices.Contains(CreditPeriodUnits, r.CreditPeriodUnit) {
		errs["creditPeriodUnit"] = "agency.error.creditPeriodUnit"
	}
	if r.CreditPeriod < 0 || r.CreditPeriod > 366 {
		errs["creditPeriod"] = "agency.error.creditPeriod"
	}
	if len(errs) > 0 {
		return money.Amount{}, fault.Validation(errs)
	}
	return limit, nil
}

// PreviewCredit checks a credit request as SetCredit does and tells what it
// would change, changing nothing (a dry run).
func (s *Service) PreviewCredit(ctx context.Context, actor auth.Principal, id int64, r CreditRequest) (CreditPlan, error) {
	a, limit, err := s.creditFor(ctx, actor, id, &r)
	if err != nil {
		return CreditPlan{}, err
	}
	bal, err := s.ledger.WalletBalance(ctx, a.ID, a.SettlementCurrency)
	if err != nil {
		return CreditPlan{}, err
	}
	amt := func(v int64) string { return money.Amount{Minor: v, Currency: a.SettlementCurrency}.String() }
	return CreditPlan{AgencyID: a.ID, Agency: a.Name, Currency: a.SettlementCurrency,
		CreditLimit: amt(bal.CreditLimit), NewCreditLimit: limit.String(), Balance: amt(bal.Balance),
		Available: amt(bal.Available()), NewAvailable: amt(bal.Balance + limit.Minor),
		CreditPeriod: r.CreditPeriod, PeriodUnit: r.CreditPeriodUnit}, nil
}

// PreviewFunds checks a top-up as AddFunds does and computes what it would
// post, posting nothing (a dry run).
func (s *Service) PreviewFunds(ctx context.Context, actor auth.Principal, id int64, t ledger.TopUp) (FundsPlan, error) {
	a, err := s.Managed(ctx, actor, id)
	if err != nil {
		return FundsPlan{}, err
	}
	if t.Currency == "" {
		t.Currency = a.SettlementCurrency
	}
	if t.Currency != a.SettlementCurrency {
		return FundsPlan{}, fault.Validation(map[string]string{"currency": "ledger.error.notSettlementCurrency"})
	}
	plan := t.Plan
	if !actor.Subject.IsProvider() {
		plan = t.ParentPlan
	}
	p, err := plan()
	if err != nil {
		return FundsPlan{}, err
	}
	bal, err := s.ledger.WalletBalance(ctx, a.ID, t.Currency)
	if err != nil {
		return FundsPlan{}, err
	}
	used, err := s.ledger.KeyUsed(ctx, a.ID, t.IdempotencyKey)
	if err != nil {
		return FundsPlan{}, err
	}
	received := t.CurrencyReceived
	if received == "" {
		received = t.Currency
	}
	return FundsPlan{AgencyID: a.ID, Agency: a.Name, Currency: t.Currency, CurrencyReceived: received,
		AmountReceived: p.Received.String(), ExchangeRate: p.Rate.String(), Gross: p.Gross.String(), FeePercent: p.FeePercent.String(),
		Fee: p.Fee.String(), Credited: p.Credited.String(), Reference: strings.TrimSpace(t.Reference), IdempotencyKey: t.IdempotencyKey,
		Balance: money.Amount{Minor: bal.Balance, Currency: t.Currency}.String(), KeyUsed: used,
		NewBalance: money.Amount{Minor: bal.Balance + p.Credited.Minor, Currency: t.Currency}.String()}, nil
}
