package profile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

// CardInput is what creating or replacing an airline member card takes.
type CardInput struct {
	// Airline is the two-character IATA designator of the airline that
	// issued the card, letters or digits (CA, MU, 3U); stored upper-case.
	Airline string `json:"airline"`
	// Number is the membership number, 4 to 30 letters or digits; stored
	// upper-case. The agency may keep only one card with the same airline
	// and number.
	Number string `json:"number"`
	// HolderName is the card holder's name as on the card, at most 100
	// characters; required.
	HolderName string `json:"holderName"`
	// PassengerID is the id of the agency's often-used passenger the card
	// belongs to; omitted, null or 0 ties it to none. An id that is not one
	// of the agency's passengers is refused (100001 on passengerId).
	PassengerID *int64 `json:"passengerId,omitempty"`
}

// Card is an airline frequent-flyer card of an agency, optionally tied to
// one of its often-used passengers.
type Card struct {
	// ID is the card's id, for PUT and DELETE
	// /base/v2/member-cards/{id}.
	ID       int64 `db:"id" json:"id"`
	AgencyID int64 `db:"agency_id" json:"-"`
	// UserID is the id of the user who added the card.
	UserID int64 `db:"user_id" json:"createdBy"`
	// PassengerID is the id of the often-used passenger the card belongs
	// to; null when it is tied to none. Deleting the passenger deletes
	// their cards.
	PassengerID *int64 `db:"passenger_id" json:"passengerId"`
	// Airline is the two-character IATA designator of the airline that
	// issued the card, upper-case (e.g. CA).
	Airline string `db:"airline" json:"airline"`
	// Number is the membership number, upper-case letters and digits.
	Number string `db:"number" json:"number"`
	// HolderName is the card holder's name as on the card.
	HolderName string `db:"holder_name" json:"holderName"`
	// CreatedAt is when the card was added (RFC 3339, UTC).
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
	// UpdatedAt is when the card was last replaced, or added if never
	// (RFC 3339, UTC).
	UpdatedAt time.Time `db:"updated_at" json:"updatedAt"`
}

// CardPage is one page of an agency's member cards.
type CardPage Page[Card]

const cardColumns = `id, agency_id, user_id, passenger_id, airline, number, holder_name, created_at, updated_at`

var (
	// IATA airline designators are two characters, letters or digits
	// (CA, MU, 3U, 9C).
	airlinePattern    = regexp.MustCompile(`^[A-Z0-9]{2}$`)
	cardNumberPattern = regexp.MustCompile(`^[A-Z0-9]{4,30}$`)
)

// Normalize trims the input; airline and number are stored upper-case.
func (in CardInput) Normalize() CardInput {
	in.Airline = strings.ToUpper(strings.TrimSpace(in.Airline))
	in.Number = strings.ToUpper(strings.TrimSpace(in.Number))
	in.HolderName = strings.Join(strings.Fields(in.HolderName), " ")
	if in.PassengerID != nil && *in.PassengerID == 0 {
		in.PassengerID = nil
	}
	return in
}

// Validate checks a normalized card and returns field → catalog key. Whether
// the passenger is the agency's is checked against the database.
func (in CardInput) Validate() map[string]string {
	errs := map[string]string{}
	if !airlinePattern.MatchString(in.Airline) {
		errs["airline"] = "profile.card.error.airline"
	}
	if !cardNumberPattern.MatchString(in.Number) {
		errs["number"] = "profile.card.error.number"
	}
	switch {
	case in.HolderName == "":
		errs["holderName"] = "profile.card.error.holderNameRequired"
	case len([]rune(in.HolderName)) > 100:
		errs["holderName"] = "error.field.tooLong"
	}
	return errs
}

// checkCard validates in inside tx, including that its passenger is one of
// the agency's (another agency's passenger reads as unknown, not forbidden)
// and that the agency has no other card with the same airline and number.
func checkCard(ctx context.Context, tx *sqlx.Tx, agencyID, selfID int64, in CardInput) error {
	errs := in.Validate()
	if in.PassengerID != nil {
		if _, err := getPassenger(ctx, tx, agencyID, *in.PassengerID); err != nil {
			if fe, ok := fault.As(err); ok && fe.Code == fault.CodeNotFound {
				errs["passengerId"] = "profile.card.error.passenger"
			} else {
				return err
			}
		}
	}
	if _, bad := errs["number"]; !bad && errs["airline"] == "" {
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM member_cards WHERE agency_id = ? AND airline = ? AND number = ? AND id <> ?`),
			agencyID, in.Airline, in.Number, selfID); err != nil {
			return fmt.Errorf("profile: check card: %w", err)
		}
		if n > 0 {
			errs["number"] = "profile.card.error.duplicate"
		}
	}
	if len(errs) > 0 {
		return fault.Validation(errs)
	}
	return nil
}

// Cards lists the caller's agency's member cards.
func (s *Service) Cards(ctx context.Context, p auth.Principal, pg Paging) (CardPage, error) {
	pg = pg.Normalize()
	out := CardPage{Items: []Card{}, Page: pg.Page, PageSize: pg.PageSize}
	var err error
	out.Total, err = s.listRows(ctx, &out.Items, pg, "cards", cardColumns, "member_cards", "agency_id = ?", "airline, number, id", p.AgencyID)
	return out, err
}

// Card loads one of the caller's agency's member cards.
func (s *Service) Card(ctx context.Context, p auth.Principal, id int64) (Card, error) {
	return getCard(ctx, s.db, p.AgencyID, id)
}

func getCard(ctx context.Context, q queryer, agencyID, id int64) (Card, error) {
	return getRow[Card](ctx, q, "card", cardColumns, "member_cards", agencyID, id)
}

// CreateCard adds a member card to the caller's agency.
func (s *Service) CreateCard(ctx context.Context, p auth.Principal, in CardInput, m auth.Meta) (Card, error) {
	return write(ctx, s, p, in, CardInput.checked, func(tx *sqlx.Tx, in CardInput, now time.Time) (Card, error) {
		if err := s.lockAgency(ctx, tx, p.AgencyID); err != nil {
			return Card{}, err
		}
		if err := checkCard(ctx, tx, p.AgencyID, 0, in); err != nil {
			return Card{}, err
		}
		var id int64
		err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO member_cards (agency_id, user_id, passenger_id, airline, number, holder_name, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), p.AgencyID, p.UserID, in.PassengerID, in.Airline, in.Number, in.HolderName, now, now)
		if err != nil {
			return Card{}, fmt.Errorf("profile: create card: %w", err)
		}
		out, err := getCard(ctx, tx, p.AgencyID, id)
		if err != nil {
			return Card{}, err
		}
		return out, audit.Write(ctx, tx, entry(p, m, ActionCardCreate, fmt.Sprintf("card:%d", id), in.Airline, now))
	})
}

// UpdateCard replaces one of the caller's agency's member cards.
func (s *Service) UpdateCard(ctx context.Context, p auth.Principal, id int64, in CardInput, m auth.Meta) (Card, error) {
	return write(ctx, s, p, in, CardInput.checked, func(tx *sqlx.Tx, in CardInput, now time.Time) (Card, error) {
		if err := s.lockAgency(ctx, tx, p.AgencyID); err != nil {
			return Card{}, err
		}
		// Not found before any other answer: a card of another agency
		// must not reveal itself through a validation message.
		if _, err := getCard(ctx, tx, p.AgencyID, id); err != nil {
			return Card{}, err
		}
		if err := checkCard(ctx, tx, p.AgencyID, id, in); err != nil {
			return Card{}, err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE member_cards SET passenger_id = ?, airline = ?, number = ?, holder_name = ?, updated_at = ?
			WHERE id = ? AND agency_id = ?`), in.PassengerID, in.Airline, in.Number, in.HolderName, now, id, p.AgencyID); err != nil {
			return Card{}, fmt.Errorf("profile: update card %d: %w", id, err)
		}
		out, err := getCard(ctx, tx, p.AgencyID, id)
		if err != nil {
			return Card{}, err
		}
		return out, audit.Write(ctx, tx, entry(p, m, ActionCardUpdate, fmt.Sprintf("card:%d", id), in.Airline, now))
	})
}

// checked is the input normalized, or the validation error of what is
// wrong with it (the database checks are checkCard's).
func (in CardInput) checked() (CardInput, error) {
	in = in.Normalize()
	if errs := in.Validate(); len(errs) > 0 {
		return in, fault.Validation(errs)
	}
	return in, nil
}

// DeleteCard removes one of the caller's agency's member cards.
func (s *Service) DeleteCard(ctx context.Context, p auth.Principal, id int64, m auth.Meta) error {
	return s.remove(ctx, p, func(tx *sqlx.Tx, now time.Time) error {
		// The user log names the card's airline, read before it is gone.
		var airline string
		err := tx.GetContext(ctx, &airline, tx.Rebind(`SELECT airline FROM member_cards WHERE id = ? AND agency_id = ?`), id, p.AgencyID)
		if errors.Is(err, sql.ErrNoRows) {
			return fault.NotFound("")
		}
		if err != nil {
			return fmt.Errorf("profile: card %d: %w", id, err)
		}
		if err := deleteRow(ctx, tx, "card", "member_cards", p.AgencyID, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, entry(p, m, ActionCardDelete, fmt.Sprintf("card:%d", id), airline, now))
	})
}
