package agency

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/upload"
)

// Company-profile actions written to the user log.
const (
	ActionCompanyUpdate = "company.update"
	ActionCompanyLogo   = "company.logo"
)

// Company profile bounds. The logo limit is spec §9's 2MB.
const (
	MaxNameLength    = 100
	MaxAliasLength   = 50
	MaxAddressLength = 200
	MaxLogoBytes     = upload.MaxImageBytes
)

// CompanyUpdate is what an agency's SuperUser may change of its own company
// profile: name, alias and address. Spec §3 Company; the logo has SetLogo.
type CompanyUpdate struct {
	// Name is the company name, 1 to 100 characters; required.
	Name string `json:"name"`
	// Alias is the company's short name, at most 50 characters; empty
	// clears it.
	Alias string `json:"alias"`
	// Address is the company's address, 1 to 200 characters; required.
	Address string `json:"address"`
}

// Validate checks the spec §5 rules: name and address required, lengths
// bounded. It trims the fields in place.
func (u *CompanyUpdate) Validate() map[string]string {
	u.Name = strings.TrimSpace(u.Name)
	u.Alias = strings.TrimSpace(u.Alias)
	u.Address = strings.TrimSpace(u.Address)
	errs := map[string]string{}
	switch {
	case u.Name == "":
		errs["name"] = "company.error.name"
	case len([]rune(u.Name)) > MaxNameLength:
		errs["name"] = "error.field.tooLong"
	}
	if len([]rune(u.Alias)) > MaxAliasLength {
		errs["alias"] = "error.field.tooLong"
	}
	switch {
	case u.Address == "":
		errs["address"] = "company.error.address"
	case len([]rune(u.Address)) > MaxAddressLength:
		errs["address"] = "error.field.tooLong"
	}
	return errs
}

// actorEntry starts the user-log line of a change made by actor.
func actorEntry(actor auth.Principal, agencyID int64, action string, m auth.Meta) audit.Entry {
	e := audit.Entry{AgencyID: agencyID, Username: actor.Username, Action: action, Target: fmt.Sprintf("agency:%d", agencyID), IP: m.IP}
	if actor.UserID != 0 {
		e.UserID = &actor.UserID
	}
	return e
}

// UpdateCompany changes agencyID's name, alias and address and logs it as
// actor's action, in one transaction.
func (s *Store) UpdateCompany(ctx context.Context, actor auth.Principal, agencyID int64, u CompanyUpdate, m auth.Meta) (Agency, error) {
	defer s.Forget(agencyID) // after the commit
	if errs := u.Validate(); len(errs) > 0 {
		return Agency{}, fault.Validation(errs)
	}
	now := s.now().UTC()
	var a Agency
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE agencies SET name = ?, alias = ?, address = ?, updated_at = ? WHERE id = ?`),
			u.Name, u.Alias, u.Address, now, agencyID)
		if err != nil {
			return fmt.Errorf("agency: update company %d: %w", agencyID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fault.NotFound("")
		}
		e := actorEntry(actor, agencyID, ActionCompanyUpdate, m)
		e.Detail = "name: " + u.Name
		e.CreatedAt = now
		if err := audit.Write(ctx, tx, e); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &a, tx.Rebind(`SELECT `+columns+` FROM agencies WHERE id = ?`), agencyID); err != nil {
			return fmt.Errorf("agency: reload %d: %w", agencyID, err)
		}
		return nil
	})
	return a, err
}

// CheckLogo returns the content type of a logo, judged from its bytes and
// never from a file name or a header a client chose.
func CheckLogo(data []byte) (string, error) {
	ct, err := upload.Check(data, MaxLogoBytes, upload.Images)
	switch {
	case errors.Is(err, upload.ErrTooLarge):
		return "", fault.Validation(map[string]string{"logo": "company.error.logoTooLarge"})
	case err != nil:
		return "", fault.Validation(map[string]string{"logo": "company.error.logoType"})
	}
	return ct, nil
}

// SetLogo stores agencyID's logo (at most 2MB of PNG, JPEG, GIF or WebP) and
// returns its content type.
func (s *Store) SetLogo(ctx context.Context, actor auth.Principal, agencyID int64, data []byte, m auth.Meta) (string, error) {
	defer s.Forget(agencyID) // after the commit
	ct, err := CheckLogo(data)
	if err != nil {
		return "", err
	}
	now := s.now().UTC()
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE agencies SET logo = ?, logo_type = ?, updated_at = ? WHERE id = ?`), data, ct, now, agencyID)
		if err != nil {
			return fmt.Errorf("agency: set logo of %d: %w", agencyID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fault.NotFound("")
		}
		e := actorEntry(actor, agencyID, ActionCompanyLogo, m)
		e.Detail = fmt.Sprintf("%s, %d bytes", ct, len(data))
		e.CreatedAt = now
		return audit.Write(ctx, tx, e)
	})
	return ct, err
}

// Logo returns agencyID's logo and its content type; not found when the
// agency has none.
func (s *Store) Logo(ctx context.Context, agencyID int64) ([]byte, string, error) {
	var row struct {
		Logo []byte `db:"logo"`
		Type string `db:"logo_type"`
	}
	err := s.db.GetContext(ctx, &row, s.db.Rebind(`SELECT logo, logo_type FROM agencies WHERE id = ?`), agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", fault.NotFound("")
	}
	if err != nil {
		return nil, "", fmt.Errorf("agency: logo of %d: %w", agencyID, err)
	}
	if len(row.Logo) == 0 || row.Type == "" {
		return nil, "", fault.NotFound("")
	}
	return row.Logo, row.Type, nil
}
