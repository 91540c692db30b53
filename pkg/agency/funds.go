package agency

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/mail"
)

// AddFunds tops a managed agency's wallet up, in its settlement currency
// (the only wallet the agency sees, so another currency is refused). The
// provider brings new money in; a parent agency moves its own balance into
// its sub-agency's wallet. With SendEmail the agency's contact gets a
// notice in the agency's email language, enqueued in the same transaction as
// the money; the user log records the top-up there too.
func (s *Service) AddFunds(ctx context.Context, actor auth.Principal, id int64, t ledger.TopUp, cat *i18n.Catalog) (ledger.TopUpResult, error) {
	a, err := s.Managed(ctx, actor, id)
	if err != nil {
		return ledger.TopUpResult{}, err
	}
	t.AgencyID = a.ID
	if t.Currency == "" {
		t.Currency = a.SettlementCurrency
	}
	if t.Currency != a.SettlementCurrency {
		return ledger.TopUpResult{}, fault.Validation(map[string]string{"currency": "ledger.error.notSettlementCurrency"})
	}
	if t.CreatedBy == "" {
		t.CreatedBy = actor.Username
	}
	t.OnPosted = func(ctx context.Context, tx *sqlx.Tx, r ledger.TopUpResult) error {
		now := s.now().UTC()
		e := audit.Entry{AgencyID: actor.AgencyID, Username: actor.Username, Action: "agency.funds",
			Target: fmt.Sprintf("agency:%d", a.ID), Detail: r.Credited + " " + r.Currency + " ref " + t.Reference,
			Facts: audit.With("agency", a.Name, "amount", r.Credited, "currency", r.Currency), CreatedAt: now}
		if actor.UserID != 0 {
			e.UserID = &actor.UserID
		}
		if err := audit.Write(ctx, tx, e); err != nil {
			return err
		}
		if !t.SendEmail || a.ContactEmail == "" || cat == nil {
			return nil
		}
		lang := mail.Lang(a.EmailLanguage)
		return mail.Enqueue(ctx, tx, mail.Message{
			To:      a.ContactEmail,
			Subject: cat.T(lang, "mail.topup.subject", "amount", r.Credited, "currency", r.Currency),
			Body: cat.T(lang, "mail.topup.body", "name", a.ContactName, "agency", a.Name, "amount", r.Credited, "currency", r.Currency,
				"reference", t.Reference, "fee", r.Fee, "balance", r.Balance,
				// The agency's clock, the zone named (issue 20).
				"time", display.Stamp(display.ResolveZone("", a.TimeZone), now)),
		}, now)
	}
	if !actor.Subject.IsProvider() {
		return s.ledger.TopUpFromParent(ctx, actor.AgencyID, t)
	}
	return s.ledger.TopUp(ctx, t)
}
