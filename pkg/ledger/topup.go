package ledger

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
)

// TopUp is money an agency sent to be credited to its wallet: what
// arrived, in which currency, at which rate and fee. A parent agency tops
// up a sub-agency from its own wallet: the same currency, no exchange and
// no fee (spec §3 Top-up).
type TopUp struct {
	AgencyID         int64  `json:"-"`
	IdempotencyKey   string `json:"-"`
	Currency         string `json:"currency" jsonschema_description:"wallet currency credited"`
	Amount           string `json:"amount,omitempty" jsonschema_description:"amount credited; computed from the others when empty, refused when it disagrees"`
	CurrencyReceived string `json:"currencyReceived,omitempty" jsonschema_description:"currency the money arrived in (default: currency)"`
	// AmountReceived is the sum that arrived, a decimal string in
	// currencyReceived (required, above zero); it is converted at
	// exchangeRate and the fee is taken from it to give the amount
	// credited.
	AmountReceived string `json:"amountReceived"`
	ExchangeRate   string `json:"exchangeRate" jsonschema_description:"units of currency per unit of currencyReceived (1 when the same)"`
	FeePercent     string `json:"feePercent,omitempty" jsonschema_description:"transaction fee percentage kept by the provider"`
	Reference      string `json:"reference" jsonschema_description:"bank or payment reference"`
	// SendEmail sends the agency's contact a notice of the money credited,
	// in the agency's email language.
	SendEmail bool `json:"sendEmail"`
	// Remark is a note kept with the wallet entry (optional).
	Remark    string `json:"remark,omitempty"`
	CreatedBy string `json:"-"`
	// OnPosted, when set, runs inside the top-up's transaction after the
	// postings (to enqueue the notification email with the money, or not
	// at all). It does not run for a replay.
	OnPosted func(ctx context.Context, tx *sqlx.Tx, r TopUpResult) error `json:"-"`
}

// TopUpResult is a posted top-up: what was credited to the wallet and the
// balance after it.
type TopUpResult struct {
	// TransferID is the id of the wallet entry that credited the money.
	TransferID int64 `json:"transferId"`
	// Currency is the wallet's currency, which every amount below is in.
	Currency string `json:"currency"`
	// Gross is the amount received converted into the wallet's currency,
	// before the fee (decimal string).
	Gross string `json:"gross"`
	// Fee is the transaction fee kept by the provider, feePercent of gross
	// (decimal string; zero when none).
	Fee string `json:"fee"`
	// Credited is what the wallet received: gross less fee (decimal
	// string).
	Credited string `json:"credited"`
	// Balance is the wallet's balance right after the top-up (decimal
	// string).
	Balance string `json:"balance"`
	// Replayed is true when the Idempotency-Key had already been used for
	// this top-up: nothing new was posted, and the answer is the first
	// one's.
	Replayed bool `json:"replayed"`
}

type topUpPlan struct {
	received, gross, fee, credited money.Amount
	rate, percent                  decimal.Decimal
}

// TopUpPlan is what a top-up would post: the amount received, its
// conversion, the fee and the amount credited.
type TopUpPlan struct {
	Received, Gross, Fee, Credited money.Amount
	Rate, FeePercent               decimal.Decimal
}

// Plan validates t and computes its figures without posting anything (a
// dry run).
func (t TopUp) Plan() (TopUpPlan, error) { return t.keyedPlan(TopUp.plan) }

// keyedPlan checks t's idempotency key and makes the plan check gives,
// as Plan and ParentPlan answer it.
func (t TopUp) keyedPlan(check func(TopUp) (topUpPlan, error)) (TopUpPlan, error) {
	if t.IdempotencyKey == "" || len(t.IdempotencyKey) > 90 {
		return TopUpPlan{}, fault.Validation(map[string]string{"idempotencyKey": "ledger.error.idempotencyKey"})
	}
	p, err := check(t)
	if err != nil {
		return TopUpPlan{}, err
	}
	return TopUpPlan{Received: p.received, Gross: p.gross, Fee: p.fee, Credited: p.credited, Rate: p.rate, FeePercent: p.percent}, nil
}

// KeyUsed reports whether an agency already posted a transfer under key.
func (l *Ledger) KeyUsed(ctx context.Context, agencyID int64, key string) (bool, error) {
	var n int
	err := l.db.GetContext(ctx, &n, l.db.Rebind(`SELECT COUNT(*) FROM ledger_transfers WHERE agency_id = ? AND idempotency_key = ?`), agencyID, key)
	if err != nil {
		return false, fmt.Errorf("ledger: find key: %w", err)
	}
	return n > 0, nil
}

func (t TopUp) plan() (topUpPlan, error) {
	errs := map[string]string{}
	var p topUpPlan
	if t.CurrencyReceived == "" {
		t.CurrencyReceived = t.Currency
	}
	if !slices.Contains(config.Currencies, t.Currency) {
		errs["currency"] = "ledger.error.currency"
	}
	if !slices.Contains(config.Currencies, t.CurrencyReceived) {
		errs["currencyReceived"] = "ledger.error.currency"
	}
	var err error
	if p.received, err = money.ParsePositive(t.AmountReceived, t.CurrencyReceived); err != nil {
		errs["amountReceived"] = money.ErrorKey(err, "ledger.error.amount")
	}
	if rate := strings.TrimSpace(t.ExchangeRate); !money.PlainDecimal(rate) {
		errs["exchangeRate"] = "ledger.error.rate"
	} else if p.rate, err = decimal.NewFromString(rate); err != nil || !p.rate.IsPositive() {
		errs["exchangeRate"] = "ledger.error.rate"
	} else if t.CurrencyReceived == t.Currency && !p.rate.Equal(decimal.NewFromInt(1)) {
		errs["exchangeRate"] = "ledger.error.rateSameCurrency"
	}
	p.percent = decimal.Zero
	if fee := strings.TrimSpace(t.FeePercent); fee != "" {
		if p.percent, err = decimal.NewFromString(fee); !money.PlainDecimal(fee) || err != nil || p.percent.IsNegative() || p.percent.GreaterThanOrEqual(decimal.NewFromInt(100)) {
			errs["feePercent"] = "ledger.error.feePercent"
		}
	}
	if strings.TrimSpace(t.Reference) == "" || len(t.Reference) > 100 {
		errs["reference"] = "ledger.error.reference"
	}
	if len(errs) > 0 {
		return p, fault.Validation(errs)
	}
	p.gross = p.received
	if t.CurrencyReceived != t.Currency {
		p.gross = money.Convert(p.received, p.rate, t.Currency)
	}
	p.fee = money.Percent(p.gross, p.percent)
	p.credited = money.Amount{Minor: p.gross.Minor - p.fee.Minor, Currency: t.Currency}
	if p.credited.Minor <= 0 {
		return p, fault.Validation(map[string]string{"amountReceived": "ledger.error.amount"})
	}
	if strings.TrimSpace(t.Amount) != "" {
		want, err := money.Parse(t.Amount, t.Currency)
		if err != nil {
			return p, fault.Validation(map[string]string{"amount": money.ErrorKey(err, "ledger.error.amountMismatch")})
		}
		if want.Minor != p.credited.Minor {
			return p, fault.Validation(map[string]string{"amount": "ledger.error.amountMismatch"})
		}
	}
	return p, nil
}

// TopUp credits an agency's wallet with money received, once per key. The
// postings are one transaction: the received amount into the FX account in
// its currency, the credited amount out of FX into the wallet, and the fee
// into the provider's fees; each currency still sums to zero.
func (l *Ledger) TopUp(ctx context.Context, t TopUp) (TopUpResult, error) {
	if t.IdempotencyKey == "" || len(t.IdempotencyKey) > 90 {
		return TopUpResult{}, fault.Validation(map[string]string{"idempotencyKey": "ledger.error.idempotencyKey"})
	}
	p, err := t.plan()
	if err != nil {
		return TopUpResult{}, err
	}
	if t.CurrencyReceived == "" {
		t.CurrencyReceived = t.Currency
	}
	detail := map[string]string{
		"currencyReceived": t.CurrencyReceived, "amountReceived": p.received.String(), "exchangeRate": p.rate.String(),
		"feePercent": p.percent.String(), "fee": p.fee.String(), "gross": p.gross.String(),
	}
	if t.SendEmail {
		detail["sendEmail"] = "true"
	}
	source := Provider(KindFunding)
	if t.CurrencyReceived != t.Currency {
		source = Provider(KindFX)
	}
	main := Transfer{AgencyID: t.AgencyID, IdempotencyKey: t.IdempotencyKey, From: source, To: Wallet(t.AgencyID),
		Amount: p.credited.Minor, Currency: t.Currency, PaymentType: TypeTopUp, Reference: strings.TrimSpace(t.Reference),
		Description: "top-up", Remark: t.Remark, Detail: detail, CreatedBy: t.CreatedBy}
	res := TopUpResult{Currency: t.Currency, Gross: p.gross.String(), Fee: p.fee.String(), Credited: p.credited.String()}
	if prev, found, err := l.replay(ctx, nil, main, main.hash()); err != nil {
		return TopUpResult{}, err
	} else if found {
		res.TransferID, res.Replayed = prev.ID, true
		res.Balance = money.Amount{Minor: prev.ToBalance, Currency: t.Currency}.String()
		return res, nil
	}
	err = l.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if t.CurrencyReceived != t.Currency {
			in := Transfer{AgencyID: t.AgencyID, IdempotencyKey: t.IdempotencyKey + "#in", From: Provider(KindFunding), To: Provider(KindFX),
				Amount: p.received.Minor, Currency: t.CurrencyReceived, PaymentType: TypeTopUp, Reference: main.Reference,
				Description: "top-up received", Detail: detail, CreatedBy: t.CreatedBy}
			if _, err := l.PostTx(ctx, tx, in); err != nil {
				return err
			}
		}
		posted, err := l.PostTx(ctx, tx, main)
		if err != nil {
			return err
		}
		res.TransferID = posted.ID
		res.Balance = money.Amount{Minor: posted.ToBalance, Currency: t.Currency}.String()
		if posted.Replayed {
			// A concurrent call with the key committed between the check
			// above and this transaction: its fee and notice are posted.
			res.Replayed = true
			return nil
		}
		if p.fee.Minor > 0 {
			fee := Transfer{AgencyID: t.AgencyID, IdempotencyKey: t.IdempotencyKey + "#fee", From: source, To: Provider(KindFees),
				Amount: p.fee.Minor, Currency: t.Currency, PaymentType: TypeTopUp, Reference: main.Reference,
				Description: "top-up fee", Detail: detail, CreatedBy: t.CreatedBy}
			if _, err := l.PostTx(ctx, tx, fee); err != nil {
				return err
			}
		}
		if t.OnPosted != nil {
			return t.OnPosted(ctx, tx, res)
		}
		return nil
	})
	if err != nil {
		if prev, found, rerr := l.replay(ctx, nil, main, main.hash()); rerr == nil && found {
			res.TransferID, res.Replayed = prev.ID, true
			res.Balance = money.Amount{Minor: prev.ToBalance, Currency: t.Currency}.String()
			return res, nil
		}
		return TopUpResult{}, fmt.Errorf("ledger: top-up: %w", err)
	}
	return res, nil
}
