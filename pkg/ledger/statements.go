package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
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
	// TimeZone is the IANA zone the period's days were cut in, the
	// agency's at the time; "" for a statement made before statements
	// had one, whose days were UTC days.
	TimeZone string `json:"timeZone" db:"time_zone"`
	// Provisional is a statement of a period not over when it was made:
	// its figures run to the moment it is read (AsOf) and are fixed when
	// the period has ended, so a file exported later has the whole period
	// (statements used to stay frozen at the moment they were made).
	Provisional bool `json:"provisional" db:"provisional"`
	// AsOf is the moment a provisional statement's figures were counted
	// to, when it was last read; zero for a statement of a past period.
	AsOf time.Time `json:"-" db:"-"`
	// Existing says that asking made nothing new: the agency's statement
	// of the same period was already there (one period, one statement).
	Existing bool `json:"-" db:"-"`
}

// Until is where the statement's entries end: the end of its last day, or,
// for a provisional statement, the moment it was counted to.
func (i StatementInfo) Until() time.Time {
	if i.Provisional && !i.AsOf.IsZero() && i.AsOf.Before(i.To) {
		return i.AsOf
	}
	return i.To
}

// Location is the zone of the statement's days.
func (i StatementInfo) Location() *time.Location {
	if i.TimeZone == "" {
		return time.UTC
	}
	if loc, err := display.LoadZone(i.TimeZone); err == nil {
		return loc
	}
	return time.UTC
}

// FirstDay is the period's first day, YYYY-MM-DD on its zone's clock.
func (i StatementInfo) FirstDay() string {
	return i.From.In(i.Location()).Format(time.DateOnly)
}

// LastDay is the period's last day, inclusive, on its zone's clock.
func (i StatementInfo) LastDay() string {
	return i.To.Add(-time.Nanosecond).In(i.Location()).Format(time.DateOnly)
}

// StatementPeriod is the one rule for a statement's period: the inclusive
// days from and to (YYYY-MM-DD) on loc's clock, 00:00 of the first to 24:00
// of the last, as the instants [start, end). Bad dates, a last day before
// the first or more than MaxStatementDays days are field errors.
func StatementPeriod(from, to string, loc *time.Location) (time.Time, time.Time, error) {
	errs := map[string]string{}
	if from == "" {
		errs["from"] = "statement.error.from"
	}
	if to == "" {
		errs["to"] = "statement.error.to"
	}
	start, end, err := display.DayRange(from, to, loc)
	if errors.Is(err, display.ErrFromDay) {
		errs["from"] = "statement.error.from"
	}
	if errors.Is(err, display.ErrToDay) {
		errs["to"] = "statement.error.to"
	}
	if len(errs) > 0 {
		return time.Time{}, time.Time{}, fault.Validation(errs)
	}
	if days(start, end, loc) > MaxStatementDays {
		return time.Time{}, time.Time{}, fault.Validation(map[string]string{"to": "statement.error.tooLong"})
	}
	return start, end, nil
}

// days counts the calendar days of [start, end) on loc's clock.
func days(start, end time.Time, loc *time.Location) int {
	a, b := start.In(loc), end.In(loc)
	ua := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	ub := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(ub.Sub(ua).Hours() / 24)
}

// CreateStatement makes the statement of the inclusive days from
// and to on the clock of zone, the agency's IANA time zone ("" is
// display.DefaultZone): the statement belongs to the agency, so its days
// are the agency's whoever asks for it. A period asked for again answers
// its statement (Existing); a period not over yet makes a provisional one.
func (l *Ledger) CreateStatement(ctx context.Context, agencyID int64, currency, from, to, zone, createdBy string) (StatementInfo, Statement, error) {
	loc := display.ResolveZone("", zone)
	start, end, err := StatementPeriod(from, to, loc)
	if err != nil {
		return StatementInfo{}, Statement{}, err
	}
	return l.createStatement(ctx, agencyID, currency, start, end, loc.String(), createdBy, "")
}

// CreateStatementOnce is CreateStatement under the caller's idempotency
// key: the first call with key makes the statement, a retry of the same
// period answers that one, the key for another period is a conflict, as
// every key of the API. Without a key, or with a new key for a period that
// has its statement, the answer is CreateStatement's: that statement.
func (l *Ledger) CreateStatementOnce(ctx context.Context, key string, agencyID int64, currency, from, to, zone, createdBy string) (StatementInfo, Statement, error) {
	if key == "" {
		return l.CreateStatement(ctx, agencyID, currency, from, to, zone, createdBy)
	}
	loc := display.ResolveZone("", zone)
	start, end, err := StatementPeriod(from, to, loc)
	if err != nil {
		return StatementInfo{}, Statement{}, err
	}
	replay := func() (StatementInfo, Statement, bool, error) {
		info, st, ok, err := l.statementByKey(ctx, agencyID, key)
		if err == nil && ok && (!info.From.Equal(start.UTC()) || !info.To.Equal(end.UTC())) {
			return StatementInfo{}, Statement{}, true, errMismatch()
		}
		return info, st, ok, err
	}
	if info, st, ok, err := replay(); err != nil || ok {
		return info, st, err
	}
	info, st, err := l.createStatement(ctx, agencyID, currency, start, end, loc.String(), createdBy, key)
	if err == nil && info.Existing {
		// The period had its statement: the key is remembered on it when
		// it has none, so the key used again for another period is the
		// conflict it is for any other request.
		if _, err := l.db.ExecContext(ctx, l.db.Rebind(`UPDATE statements SET idempotency_key = ? WHERE id = ? AND idempotency_key IS NULL`), key, info.ID); err != nil && !store.IsUniqueViolation(err) {
			return StatementInfo{}, Statement{}, fmt.Errorf("ledger: statement key: %w", err)
		}
	}
	if err != nil {
		// Another request with the key made it first (the index keeps one).
		if prev, pst, ok, rerr := replay(); ok {
			return prev, pst, rerr
		}
	}
	return info, st, err
}

// statementByKey is the agency's statement made under key; ok is false
// when there is none.
func (l *Ledger) statementByKey(ctx context.Context, agencyID int64, key string) (StatementInfo, Statement, bool, error) {
	var id int64
	err := l.db.GetContext(ctx, &id, l.db.Rebind(`SELECT id FROM statements WHERE agency_id = ? AND idempotency_key = ?`), agencyID, key)
	if errors.Is(err, sql.ErrNoRows) {
		return StatementInfo{}, Statement{}, false, nil
	}
	if err != nil {
		return StatementInfo{}, Statement{}, false, fmt.Errorf("ledger: statement by key: %w", err)
	}
	info, st, err := l.StatementOf(ctx, agencyID, id)
	return info, st, err == nil, err
}

// statementColumns are a stored statement's columns as StatementInfo
// reads them.
const statementColumns = `id, agency_id, currency, period_from, period_to, opening, closing, entry_count,
		created_by, created_at, time_zone, provisional`

// createStatement records the statement of [from, to) for an agency's
// wallet in currency, its days cut in zone, under key when one is given;
// the agency's statement of the same period, when there is one, is the
// answer instead (one period, one statement, whoever asks and however
// often: the unique index statements_period keeps it so across
// instances).
func (l *Ledger) createStatement(ctx context.Context, agencyID int64, currency string, from, to time.Time, zone, createdBy, key string) (StatementInfo, Statement, error) {
	errs := map[string]string{}
	if from.IsZero() {
		errs["from"] = "statement.error.from"
	}
	if to.IsZero() || !to.After(from) {
		errs["to"] = "statement.error.to"
	} else if to.Sub(from) > MaxStatementDays*24*time.Hour+time.Hour {
		// An hour more: a year of days on a clock with DST.
		errs["to"] = "statement.error.tooLong"
	}
	if len(errs) > 0 {
		return StatementInfo{}, Statement{}, fault.Validation(errs)
	}
	now := l.now().UTC()
	if !now.After(from) {
		// A period that starts later has nothing yet.
		return StatementInfo{}, Statement{}, fault.Validation(map[string]string{"from": "statement.error.notStarted"})
	}
	if info, st, ok, err := l.statementByPeriod(ctx, agencyID, currency, from, to); err != nil || ok {
		return info, st, err
	}
	info := StatementInfo{AgencyID: agencyID, Currency: currency, From: from.UTC(), To: to.UTC(), CreatedBy: createdBy, CreatedAt: now,
		TimeZone: zone, Provisional: now.Before(to)}
	if info.Provisional {
		info.AsOf = now
	}
	st, err := l.BuildStatement(ctx, agencyID, currency, info.From, info.Until())
	if err != nil {
		return StatementInfo{}, Statement{}, err
	}
	info.Opening, info.Closing, info.EntryCount = st.Opening, st.Closing, len(st.Entries)
	var idem any
	if key != "" {
		idem = key
	}
	err = l.db.GetContext(ctx, &info.ID, l.db.Rebind(`INSERT INTO statements (agency_id, currency, period_from, period_to, opening, closing,
		entry_count, created_by, created_at, time_zone, idempotency_key, provisional) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		info.AgencyID, info.Currency, info.From, info.To, info.Opening, info.Closing, info.EntryCount, info.CreatedBy, info.CreatedAt, info.TimeZone, idem, info.Provisional)
	if err != nil && store.IsUniqueViolation(err) {
		// Another request made the period's statement first.
		if prev, pst, ok, perr := l.statementByPeriod(ctx, agencyID, currency, from, to); ok || perr != nil {
			return prev, pst, perr
		}
	}
	if err != nil {
		return StatementInfo{}, Statement{}, fmt.Errorf("ledger: store statement: %w", err)
	}
	return info, st, nil
}

// statementByPeriod is the agency's statement of exactly [from, to) in
// currency, read as StatementOf reads it and marked Existing; ok is false
// when there is none.
func (l *Ledger) statementByPeriod(ctx context.Context, agencyID int64, currency string, from, to time.Time) (StatementInfo, Statement, bool, error) {
	var info StatementInfo
	err := l.db.GetContext(ctx, &info, l.db.Rebind(`SELECT `+statementColumns+` FROM statements
		WHERE agency_id = ? AND currency = ? AND period_from = ? AND period_to = ? AND superseded_by IS NULL`), agencyID, currency, from.UTC(), to.UTC())
	if errors.Is(err, sql.ErrNoRows) {
		return StatementInfo{}, Statement{}, false, nil
	}
	if err != nil {
		return StatementInfo{}, Statement{}, false, fmt.Errorf("ledger: statement by period: %w", err)
	}
	st, err := l.count(ctx, &info)
	if err != nil {
		return StatementInfo{}, Statement{}, false, err
	}
	info.Existing = true
	return info, st, true, nil
}

// Statements lists the agency's statements, newest first (a copy of a
// period made before one period had one statement is left out: its newest
// copy is listed).
func (l *Ledger) Statements(ctx context.Context, agencyID int64, page, size int) ([]StatementInfo, int, error) {
	var total int
	if err := l.db.GetContext(ctx, &total, l.db.Rebind(`SELECT COUNT(*) FROM statements WHERE agency_id = ? AND superseded_by IS NULL`), agencyID); err != nil {
		return nil, 0, fmt.Errorf("ledger: count statements: %w", err)
	}
	out := []StatementInfo{}
	err := l.db.SelectContext(ctx, &out, l.db.Rebind(`SELECT `+statementColumns+` FROM statements
		WHERE agency_id = ? AND superseded_by IS NULL ORDER BY id DESC LIMIT ? OFFSET ?`), agencyID, size, (page-1)*size)
	if err != nil {
		return nil, 0, fmt.Errorf("ledger: list statements: %w", err)
	}
	for i := range out {
		// A provisional statement's stored figures are those of when it
		// was last counted: the list shows them as of now, as its page
		// and file do.
		if out[i].Provisional {
			if _, err := l.count(ctx, &out[i]); err != nil {
				return nil, 0, err
			}
		}
	}
	return out, total, nil
}

// StatementOf loads statement id of agencyID with its entries; a statement
// of another agency is not found. A provisional statement is counted to
// now, and fixed once its period has ended.
func (l *Ledger) StatementOf(ctx context.Context, agencyID, id int64) (StatementInfo, Statement, error) {
	var info StatementInfo
	err := l.db.GetContext(ctx, &info, l.db.Rebind(`SELECT `+statementColumns+` FROM statements WHERE id = ? AND agency_id = ?`), id, agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return StatementInfo{}, Statement{}, fault.NotFound("")
	}
	if err != nil {
		return StatementInfo{}, Statement{}, fmt.Errorf("ledger: get statement: %w", err)
	}
	st, err := l.count(ctx, &info)
	return info, st, err
}

// count reads the entries of a stored statement. A past period's must
// reconcile with its stored figures; a provisional one's are counted to
// now and, once the period has ended, stored as its fixed figures.
func (l *Ledger) count(ctx context.Context, info *StatementInfo) (Statement, error) {
	if !info.Provisional {
		st, err := l.BuildStatement(ctx, info.AgencyID, info.Currency, info.From, info.To)
		if err != nil {
			return Statement{}, err
		}
		if st.Opening != info.Opening || st.Closing != info.Closing {
			// Transfers are never changed, so this cannot happen unless rows
			// were altered outside the ledger: say so rather than hide it.
			return Statement{}, fmt.Errorf("ledger: statement %d no longer reconciles (%d→%d stored, %d→%d now)", info.ID, info.Opening, info.Closing, st.Opening, st.Closing)
		}
		return st, nil
	}
	now := l.now().UTC()
	info.AsOf = now
	st, err := l.BuildStatement(ctx, info.AgencyID, info.Currency, info.From, info.Until())
	if err != nil {
		return Statement{}, err
	}
	info.Opening, info.Closing, info.EntryCount = st.Opening, st.Closing, len(st.Entries)
	if now.Before(info.To) {
		return st, nil
	}
	// The period is over: these are its figures for good. Another reader
	// fixing it at the same time writes the same figures.
	_, err = l.db.ExecContext(ctx, l.db.Rebind(`UPDATE statements SET opening = ?, closing = ?, entry_count = ?, provisional = ?
		WHERE id = ? AND provisional = ?`), info.Opening, info.Closing, info.EntryCount, false, info.ID, true)
	if err != nil {
		return Statement{}, fmt.Errorf("ledger: fix statement %d: %w", info.ID, err)
	}
	info.Provisional, info.AsOf = false, time.Time{}
	return st, nil
}
