package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/fault"
)

// MaxStatementDays bounds a statement's period.
const MaxStatementDays = 366

// StatementInfo is a stored statement without its entries.
type StatementInfo struct {
	ID         int64     `json:"id" db:"id"`
	AgencyID   int64     `json:"agencyId" db:"agency_id"`
	Currency   string    `json:"currency" db:"currency"`
	From       time.Time `json:"from" db:"period_from"`
	To         time.Time `json:"to" db:"period_to"`
	Opening    int64     `json:"openingBalance" db:"opening"`
	Closing    int64     `json:"closingBalance" db:"closing"`
	EntryCount int       `json:"entryCount" db:"entry_count"`
	CreatedBy  string    `json:"createdBy" db:"created_by"`
	CreatedAt  time.Time `json:"createdAt" db:"created_at"`
}

// CreateStatement computes and records the statement of [from, to) for an
// agency's wallet in currency.
func (l *Ledger) CreateStatement(ctx context.Context, agencyID int64, currency string, from, to time.Time, createdBy string) (StatementInfo, Statement, error) {
	errs := map[string]string{}
	if from.IsZero() {
		errs["from"] = "statement.error.from"
	}
	if to.IsZero() || !to.After(from) {
		errs["to"] = "statement.error.to"
	} else if to.Sub(from) > MaxStatementDays*24*time.Hour {
		errs["to"] = "statement.error.tooLong"
	}
	if len(errs) > 0 {
		return StatementInfo{}, Statement{}, fault.Validation(errs)
	}
	st, err := l.BuildStatement(ctx, agencyID, currency, from, to)
	if err != nil {
		return StatementInfo{}, Statement{}, err
	}
	info := StatementInfo{AgencyID: agencyID, Currency: currency, From: from.UTC(), To: to.UTC(), Opening: st.Opening, Closing: st.Closing,
		EntryCount: len(st.Entries), CreatedBy: createdBy, CreatedAt: l.now().UTC()}
	err = l.db.GetContext(ctx, &info.ID, l.db.Rebind(`INSERT INTO statements (agency_id, currency, period_from, period_to, opening, closing,
		entry_count, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		info.AgencyID, info.Currency, info.From, info.To, info.Opening, info.Closing, info.EntryCount, info.CreatedBy, info.CreatedAt)
	if err != nil {
		return StatementInfo{}, Statement{}, fmt.Errorf("ledger: store statement: %w", err)
	}
	return info, st, nil
}

// Statements lists the agencies' statements, newest first; agencyIDs is the
// set the caller may see.
func (l *Ledger) Statements(ctx context.Context, agencyID int64, page, size int) ([]StatementInfo, int, error) {
	var total int
	if err := l.db.GetContext(ctx, &total, l.db.Rebind(`SELECT COUNT(*) FROM statements WHERE agency_id = ?`), agencyID); err != nil {
		return nil, 0, fmt.Errorf("ledger: count statements: %w", err)
	}
	out := []StatementInfo{}
	err := l.db.SelectContext(ctx, &out, l.db.Rebind(`SELECT id, agency_id, currency, period_from, period_to, opening, closing, entry_count,
		created_by, created_at FROM statements WHERE agency_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`), agencyID, size, (page-1)*size)
	if err != nil {
		return nil, 0, fmt.Errorf("ledger: list statements: %w", err)
	}
	return out, total, nil
}

// StatementOf loads statement id of agencyID with its entries; a statement
// of another agency is not found.
func (l *Ledger) StatementOf(ctx context.Context, agencyID, id int64) (StatementInfo, Statement, error) {
	var info StatementInfo
	err := l.db.GetContext(ctx, &info, l.db.Rebind(`SELECT id, agency_id, currency, period_from, period_to, opening, closing, entry_count,
		created_by, created_at FROM statements WHERE id = ? AND agency_id = ?`), id, agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return StatementInfo{}, Statement{}, fault.NotFound("")
	}
	if err != nil {
		return StatementInfo{}, Statement{}, fmt.Errorf("ledger: get statement: %w", err)
	}
	st, err := l.BuildStatement(ctx, agencyID, info.Currency, info.From, info.To)
	if err != nil {
		return StatementInfo{}, Statement{}, err
	}
	if st.Opening != info.Opening || st.Closing != info.Closing {
		// Transfers are never changed, so this cannot happen unless rows
		// were altered outside the ledger: say so rather than hide it.
		return StatementInfo{}, Statement{}, fmt.Errorf("ledger: statement %d no longer reconciles (%d→%d stored, %d→%d now)", id, info.Opening, info.Closing, st.Opening, st.Closing)
	}
	return info, st, nil
}
