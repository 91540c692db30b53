package ledger

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
)

// Only the provider brings new money in (TopUp). A parent agency funds its
// sub-agencies out of what it holds: a top-up is a transfer from the
// parent's wallet, and a credit line it grants is set aside from the
// parent's wallet into the sub's cover account for as long as it stands.
// Both spend the parent's balance, never its own credit line.

// TopUpFromParent moves t's amount from the parent's wallet into the
// sub-agency's (t.AgencyID), once per idempotency key. The money is the
// parent's own, in the sub's currency: no exchange and no fee.
func (l *Ledger) TopUpFromParent(ctx context.Context, parentID int64, t TopUp) (TopUpResult, error) {
	if t.IdempotencyKey == "" || len(t.IdempotencyKey) > 90 {
		return TopUpResult{}, fault.Validation(map[string]string{"idempotencyKey": "ledger.error.idempotencyKey"})
	}
	p, err := t.parentPlan()
	if err != nil {
		return TopUpResult{}, err
	}
	tr := Transfer{AgencyID: t.AgencyID, IdempotencyKey: t.IdempotencyKey, From: Wallet(parentID), To: Wallet(t.AgencyID),
		Amount: p.credited.Minor, Currency: t.Currency, PaymentType: TypeTopUp, Reference: strings.TrimSpace(t.Reference),
		Description: "sub-agency top-up", Remark: t.Remark,
		Detail:    map[string]string{"fromAgency": fmt.Sprint(parentID), "amountReceived": p.received.String()},
		CreatedBy: t.CreatedBy, NoCredit: true}
	if t.SendEmail {
		tr.Detail["sendEmail"] = "true"
	}
	res := TopUpResult{Currency: t.Currency, Gross: p.gross.String(), Fee: p.fee.String(), Credited: p.credited.String()}
	answer := func(prev Posted) (TopUpResult, error) {
		res.TransferID, res.Replayed = prev.ID, prev.Replayed
		res.Balance = money.Amount{Minor: prev.ToBalance, Currency: t.Currency}.String()
		return res, nil
	}
	if prev, found, err := l.replay(ctx, nil, tr, tr.hash()); err != nil {
		return TopUpResult{}, err
	} else if found {
		return answer(prev)
	}
	var posted Posted
	err = l.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if posted, err = l.PostTx(ctx, tx, tr); err != nil {
			return err
		}
		if t.OnPosted != nil && !posted.Replayed {
			r := res
			r.TransferID, r.Balance = posted.ID, money.Amount{Minor: posted.ToBalance, Currency: t.Currency}.String()
			return t.OnPosted(ctx, tx, r)
		}
		return nil
	})
	if err != nil {
		if prev, found, rerr := l.replay(ctx, nil, tr, tr.hash()); rerr == nil && found {
			return answer(prev)
		}
		if _, ok := fault.As(err); ok {
			return TopUpResult{}, err
		}
		return TopUpResult{}, fmt.Errorf("ledger: top-up from parent %d: %w", parentID, err)
	}
	return answer(posted)
}

// ParentPlan is Plan for a parent agency's top-up of its sub-agency.
func (t TopUp) ParentPlan() (TopUpPlan, error) { return t.keyedPlan(TopUp.parentPlan) }

// parentPlan checks a parent's top-up: the same fields as the provider's,
// but the money is already in the sub's currency and nothing is kept.
func (t TopUp) parentPlan() (topUpPlan, error) {
	errs := map[string]string{}
	if t.CurrencyReceived != "" && t.CurrencyReceived != t.Currency {
		errs["currencyReceived"] = "ledger.error.parentCurrency"
	}
	if r := strings.TrimSpace(t.ExchangeRate); r == "" {
		t.ExchangeRate = "1"
	}
	p, err := t.plan()
	if err != nil {
		if fe, ok := fault.As(err); ok && len(errs) > 0 {
			for k, v := range errs {
				fe.Fields[k] = v
			}
			return p, fe
		}
		return p, err
	}
	if p.fee.Minor > 0 {
		errs["feePercent"] = "ledger.error.parentFee"
	}
	if len(errs) > 0 {
		return p, fault.Validation(errs)
	}
	return p, nil
}

// SetCoveredCreditLimit sets a sub-agency's credit line that its parent
// carries: in one transaction the sub's cover account is brought to the new
// limit from (or back to) the parent's wallet, and the limit is set. The
// parent must hold the increase in its balance; a limit below what the sub
// already owes is refused and nothing moves. also runs in the same
// transaction (the agency's own rows and its user log).
func (l *Ledger) SetCoveredCreditLimit(ctx context.Context, parentID, subID int64, currency string, limit int64, by string, also func(*sqlx.Tx) error) error {
	if limit < 0 {
		return fault.Validation(map[string]string{"creditLimit": "ledger.error.creditLimit"})
	}
	return l.db.InTx(ctx, func(tx *sqlx.Tx) error {
		now := l.now().UTC()
		cover, err := l.accountID(ctx, tx, Account{AgencyID: subID, Kind: KindCover}, currency, 0, now)
		if err != nil {
			return err
		}
		// Writing the cover's row first locks it (on SQLite the database):
		// two changes of the same line cannot both read the old cover.
		var held int64
		if err := tx.GetContext(ctx, &held, tx.Rebind(`UPDATE ledger_accounts SET updated_at = ? WHERE id = ? RETURNING balance`), now, cover); err != nil {
			return fmt.Errorf("ledger: lock credit cover of %d: %w", subID, err)
		}
		if delta := limit - held; delta != 0 {
			key := fmt.Sprintf("credit-cover-%d-%d", subID, now.UnixNano())
			tr := Transfer{AgencyID: subID, IdempotencyKey: key, From: Wallet(parentID), To: Account{AgencyID: subID, Kind: KindCover},
				Amount: delta, Currency: currency, PaymentType: TypeAdjustment, Description: "credit line held for sub-agency",
				Detail:    map[string]string{"subAgency": fmt.Sprint(subID), "creditLimit": money.Amount{Minor: limit, Currency: currency}.String()},
				CreatedBy: by, NoCredit: true}
			if delta < 0 {
				tr.From, tr.To, tr.Amount = tr.To, tr.From, -delta
				tr.Description = "credit line released by sub-agency"
			}
			if _, err := l.PostTx(ctx, tx, tr); err != nil {
				if fe, ok := fault.As(err); ok && fe.Key == "ledger.error.insufficient" {
					return fault.Validation(map[string]string{"creditLimit": "ledger.error.parentCover"})
				}
				return err
			}
		}
		if err := l.SetCreditLimitTx(ctx, tx, subID, currency, limit); err != nil {
			return err
		}
		if also != nil {
			return also(tx)
		}
		return nil
	})
}

// CreditCover is what a parent has set aside for agencyID's credit line.
func (l *Ledger) CreditCover(ctx context.Context, agencyID int64, currency string) (int64, error) {
	var held int64
	err := l.db.GetContext(ctx, &held, l.db.Rebind(`SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts
		WHERE agency_id = ? AND kind = ? AND currency = ?`), agencyID, KindCover, currency)
	if err != nil {
		return 0, fmt.Errorf("ledger: credit cover: %w", err)
	}
	return held, nil
}
