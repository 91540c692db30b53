package profile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/store"
)

// Passenger types and genders (spec §3 Passenger).
var (
	PassengerTypes = []string{"adult", "child", "infant"}
	Genders        = []string{"male", "female"}
)

// DocumentTypes are the travel document codes a passenger may hold. The
// first four are the booking flow's codes of spec §3; the others name the
// form's remaining document types:
//
//	idcard                           national ID card
//	passport                         passport (international)
//	chinese-passport                 Chinese passport
//	eep                              exit-entry permit (booking flow code)
//	hk-macao-return-permit           Hong Kong and Macao return permit
//	hk-macao-travel-permit           Hong Kong and Macao travel permit
//	taiwan-compatriot-permit         Taiwan compatriot permit
//	taiwan-resident-mainland-permit  mainland travel permit for Taiwan residents
//	foreigner-residence-permit       foreigner residence permit
//	hk-macau-permit                  mainland residents' permit to Hong Kong and Macau
//
// "all" of the forms is a search filter, not a document, so it is not here.
var DocumentTypes = []string{
	"idcard", "passport", "chinese-passport", "eep",
	"hk-macao-return-permit", "hk-macao-travel-permit", "taiwan-compatriot-permit",
	"taiwan-resident-mainland-permit", "foreigner-residence-permit", "hk-macau-permit",
}

// PassengerInput is what creating or replacing an often-used passenger takes.
type PassengerInput struct {
	// Surname is the family name in the Latin letters A to Z only (no
	// spaces or accents), at most 50; stored upper-case.
	Surname string `json:"surname" jsonschema:"required"`
	// GivenName is the given names, at most 50 characters; stored
	// upper-case, with single spaces.
	GivenName string `json:"givenName" jsonschema:"required"`
	// Type is the passenger type the traveller books as.
	Type string `json:"type" jsonschema:"required,enum=adult,enum=child,enum=infant"`
	// Gender is the traveller's gender as on the document.
	Gender   string `json:"gender" jsonschema:"required,enum=male,enum=female"`
	Birthday string `json:"birthday" jsonschema:"required,format=date" jsonschema_description:"YYYY-MM-DD"`
	// Nationality is the ISO 3166-1 alpha-2 code of the traveller's
	// country of nationality (e.g. CN).
	Nationality string `json:"nationality" jsonschema:"required"`
	// Phone is the traveller's phone number: an optional +, then 5 to 20
	// digits, spaces or dashes; optional.
	Phone string `json:"phone"`
	// Email is the traveller's email address; optional.
	Email string `json:"email"`
	// DocumentType is the code of the travel document: idcard (national ID
	// card, domestic trips only), passport, chinese-passport, eep
	// (exit-entry permit), hk-macao-return-permit, hk-macao-travel-permit,
	// taiwan-compatriot-permit, taiwan-resident-mainland-permit (mainland
	// travel permit for Taiwan residents), foreigner-residence-permit or
	// hk-macau-permit (mainland residents' permit to Hong Kong and Macau).
	DocumentType string `json:"documentType" jsonschema:"required"`
	// DocumentNumber is the document's number, 1 to 30 letters or digits;
	// stored upper-case. The agency may keep only one passenger with the
	// same document type and number.
	DocumentNumber string `json:"documentNumber" jsonschema:"required"`
	DocumentExpiry string `json:"documentExpiry" jsonschema:"required,format=date" jsonschema_description:"YYYY-MM-DD"`
	// DocumentIssuedAt is where the document was issued (e.g. Beijing), at
	// most 50 characters; optional.
	DocumentIssuedAt string `json:"documentIssuedAt"`
}

// Passenger is an often-used passenger of an agency.
type Passenger struct {
	// ID is the passenger's id, for PUT and DELETE
	// /base/v2/often-used-passengers/{id} and a member card's passengerId.
	ID       int64 `db:"id" json:"id"`
	AgencyID int64 `db:"agency_id" json:"-"`
	// UserID is the id of the user who added the passenger.
	UserID int64 `db:"user_id" json:"createdBy"`
	// Surname is the family name, upper-case A to Z.
	Surname string `db:"surname" json:"surname"`
	// GivenName is the given names, upper-case.
	GivenName string `db:"given_name" json:"givenName"`
	// Type is the passenger type: adult, child or infant.
	Type string `db:"passenger_type" json:"type"`
	// Gender is male or female.
	Gender string `db:"gender" json:"gender"`
	// Birthday is the date of birth, YYYY-MM-DD.
	Birthday string `db:"birthday" json:"birthday"`
	// Nationality is the ISO 3166-1 alpha-2 code of the country of
	// nationality.
	Nationality string `db:"nationality" json:"nationality"`
	// Phone is the traveller's phone number; empty when not given.
	Phone string `db:"phone" json:"phone"`
	// Email is the traveller's email address; empty when not given.
	Email string `db:"email" json:"email"`
	// DocumentType is the travel document's code, as in the request
	// (idcard, passport, chinese-passport, eep, ...).
	DocumentType string `db:"document_type" json:"documentType"`
	// DocumentNumber is the document's number, upper-case.
	DocumentNumber string `db:"document_number" json:"documentNumber"`
	// DocumentExpiry is the date the document expires, YYYY-MM-DD.
	DocumentExpiry string `db:"document_expiry" json:"documentExpiry"`
	// DocumentIssuedAt is where the document was issued; empty when not
	// given.
	DocumentIssuedAt string `db:"document_issued_at" json:"documentIssuedAt"`
	// CreatedAt is when the passenger was added (RFC 3339, UTC).
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
	// UpdatedAt is when the passenger was last replaced, or added if never
	// (RFC 3339, UTC).
	UpdatedAt time.Time `db:"updated_at" json:"updatedAt"`
}

// PassengerPage is one page of an agency's passengers.
type PassengerPage Page[Passenger]

// Page is one page of an agency's rows; each kind names its own page type,
// so that the API schema keeps a name per kind.
type Page[T any] struct {
	// Items are the rows of this page, in the list's order; empty past
	// the last page.
	Items []T `json:"items"`
	// Total is how many rows the whole list holds, over all pages.
	Total int `json:"total"`
	// Page is the 1-based number of this page.
	Page int `json:"page"`
	// PageSize is the most rows a page holds (default 20, at most 100).
	PageSize int `json:"pageSize"`
}

const passengerColumns = `id, agency_id, user_id, surname, given_name, passenger_type, gender, birthday, nationality, phone, email,
	document_type, document_number, document_expiry, document_issued_at, created_at, updated_at`

var (
	surnamePattern  = regexp.MustCompile(`^[A-Z]+$`)
	docNumberPatten = regexp.MustCompile(`^[A-Z0-9]{1,30}$`)
	phonePattern    = regexp.MustCompile(`^\+?[0-9][0-9 -]{4,19}$`)
)

// ValidPhone reports whether s reads as a phone number (an optional +, then
// 5 to 20 digits, spaces or dashes).
func ValidPhone(s string) bool { return phonePattern.MatchString(s) }

const dateLayout = "2006-01-02"

// Normalize trims the input and puts codes and names in their stored case:
// names, nationality and document number upper-case, enumerations lower-case.
func (in PassengerInput) Normalize() PassengerInput {
	up := func(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
	low := func(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
	return PassengerInput{
		Surname: up(in.Surname), GivenName: strings.Join(strings.Fields(up(in.GivenName)), " "),
		Type: low(in.Type), Gender: low(in.Gender), Birthday: strings.TrimSpace(in.Birthday),
		Nationality: up(in.Nationality), Phone: strings.TrimSpace(in.Phone), Email: strings.TrimSpace(in.Email),
		DocumentType: low(in.DocumentType), DocumentNumber: up(in.DocumentNumber),
		DocumentExpiry: strings.TrimSpace(in.DocumentExpiry), DocumentIssuedAt: strings.TrimSpace(in.DocumentIssuedAt),
	}
}

// Validate checks the spec §5 passenger rules on a normalized input and
// returns field → catalog key. today is the date birthdays may not pass.
func (in PassengerInput) Validate(today time.Time) map[string]string {
	errs := map[string]string{}
	switch {
	case in.Surname == "":
		errs["surname"] = "profile.passenger.error.surnameRequired"
	case !surnamePattern.MatchString(in.Surname):
		errs["surname"] = "profile.passenger.error.surnameFormat"
	case len(in.Surname) > 50:
		errs["surname"] = "error.field.tooLong"
	}
	switch {
	case in.GivenName == "":
		errs["givenName"] = "profile.passenger.error.givenNameRequired"
	case len([]rune(in.GivenName)) > 50:
		errs["givenName"] = "error.field.tooLong"
	}
	if !slices.Contains(PassengerTypes, in.Type) {
		errs["type"] = "profile.passenger.error.type"
	}
	if !slices.Contains(Genders, in.Gender) {
		errs["gender"] = "profile.passenger.error.gender"
	}
	if in.Birthday == "" {
		errs["birthday"] = "profile.passenger.error.birthdayRequired"
	} else if b, err := time.Parse(dateLayout, in.Birthday); err != nil || b.Year() < 1900 {
		errs["birthday"] = "profile.passenger.error.birthdayFormat"
	} else if b.After(today) {
		errs["birthday"] = "profile.passenger.error.birthdayFuture"
	}
	if in.Nationality == "" {
		errs["nationality"] = "profile.passenger.error.nationalityRequired"
	} else if _, ok := geo.Lookup(in.Nationality); !ok || len(in.Nationality) != 2 {
		errs["nationality"] = "profile.passenger.error.nationality"
	}
	if in.DocumentType == "" {
		errs["documentType"] = "profile.passenger.error.documentTypeRequired"
	} else if !slices.Contains(DocumentTypes, in.DocumentType) {
		errs["documentType"] = "profile.passenger.error.documentType"
	}
	if in.DocumentNumber == "" {
		errs["documentNumber"] = "profile.passenger.error.documentNumberRequired"
	} else if !docNumberPatten.MatchString(in.DocumentNumber) {
		errs["documentNumber"] = "profile.passenger.error.documentNumber"
	}
	if in.DocumentExpiry == "" {
		errs["documentExpiry"] = "profile.passenger.error.documentExpiryRequired"
	} else if d, err := time.Parse(dateLayout, in.DocumentExpiry); err != nil || d.Year() < 1900 {
		errs["documentExpiry"] = "profile.passenger.error.documentExpiryFormat"
	}
	if len([]rune(in.DocumentIssuedAt)) > 50 {
		errs["documentIssuedAt"] = "error.field.tooLong"
	}
	if in.Phone != "" && !ValidPhone(in.Phone) {
		errs["phone"] = "profile.passenger.error.phone"
	}
	if in.Email != "" && (len(in.Email) > 254 || !auth.ValidEmail(in.Email)) {
		errs["email"] = "profile.passenger.error.email"
	}
	return errs
}

// today is the date on the agency's clock (display.AgencyDate), the day a
// birthday may not pass.
func (s *Service) today(ctx context.Context, agencyID int64) (time.Time, error) {
	a, err := s.agencies.Cached(ctx, agencyID)
	if err != nil {
		return time.Time{}, fmt.Errorf("profile: agency %d: %w", agencyID, err)
	}
	return display.AgencyDate(s.now(), a.TimeZone), nil
}

func (s *Service) checkPassenger(ctx context.Context, agencyID int64, in PassengerInput) (PassengerInput, error) {
	in = in.Normalize()
	today, err := s.today(ctx, agencyID)
	if err != nil {
		return in, err
	}
	if errs := in.Validate(today); len(errs) > 0 {
		return in, fault.Validation(errs)
	}
	return in, nil
}

// Passengers lists the caller's agency's often-used passengers by name.
func (s *Service) Passengers(ctx context.Context, p auth.Principal, pg Paging) (PassengerPage, error) {
	return s.FindPassengers(ctx, p, "", pg)
}

// FindPassengers lists the caller's agency's often-used passengers whose
// surname, given name, SURNAME/GIVEN or document number contains keyword
// (any case; "" lists them all), by name.
func (s *Service) FindPassengers(ctx context.Context, p auth.Principal, keyword string, pg Paging) (PassengerPage, error) {
	pg = pg.Normalize()
	out := PassengerPage{Items: []Passenger{}, Page: pg.Page, PageSize: pg.PageSize}
	where, args := `agency_id = ?`, []any{p.AgencyID}
	if k := strings.ToUpper(strings.TrimSpace(keyword)); k != "" {
		// Names and numbers are stored upper-case; the pattern's own
		// wildcards are escaped so that a typed % or _ matches itself.
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(k) + "%"
		where += ` AND (surname LIKE ? ESCAPE '\' OR given_name LIKE ? ESCAPE '\' OR surname || '/' || given_name LIKE ? ESCAPE '\'
			OR document_number LIKE ? ESCAPE '\')`
		args = append(args, like, like, like, like)
	}
	var err error
	out.Total, err = s.listRows(ctx, &out.Items, pg, "passengers", passengerColumns, "often_used_passengers", where, "surname, given_name, id", args...)
	return out, err
}

// listRows reads into items one page of the columns of table's rows where
// the condition holds, in order, and answers how many rows it holds for;
// what names the rows in errors.
func (s *Service) listRows(ctx context.Context, items any, pg Paging, what, columns, table, where, order string, args ...any) (int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, s.db.Rebind(`SELECT COUNT(*) FROM `+table+` WHERE `+where), args...); err != nil {
		return 0, fmt.Errorf("profile: count %s: %w", what, err)
	}
	err := s.db.SelectContext(ctx, items, s.db.Rebind(`SELECT `+columns+` FROM `+table+` WHERE `+where+` ORDER BY `+order+` LIMIT ? OFFSET ?`),
		append(args, pg.PageSize, pg.offset())...)
	if err != nil {
		return total, fmt.Errorf("profile: list %s: %w", what, err)
	}
	return total, nil
}

// Passenger loads one of the caller's agency's passengers.
func (s *Service) Passenger(ctx context.Context, p auth.Principal, id int64) (Passenger, error) {
	return getPassenger(ctx, s.db, p.AgencyID, id)
}

type queryer interface {
	sqlx.ExtContext
	Rebind(string) string
}

func getPassenger(ctx context.Context, q queryer, agencyID, id int64) (Passenger, error) {
	return getRow[Passenger](ctx, q, "passenger", passengerColumns, "often_used_passengers", agencyID, id)
}

// getRow reads the columns of the agency's row id of table; not found when
// there is none or it is another agency's. what names the row in errors.
func getRow[T any](ctx context.Context, q queryer, what, columns, table string, agencyID, id int64) (T, error) {
	var out, none T
	err := sqlx.GetContext(ctx, q, &out, q.Rebind(`SELECT `+columns+` FROM `+table+` WHERE id = ? AND agency_id = ?`), id, agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return none, fault.NotFound("")
	}
	if err != nil {
		return none, fmt.Errorf("profile: get %s %d: %w", what, id, err)
	}
	return out, nil
}

// lockAgency serializes the writers of one agency's passengers on
// PostgreSQL, so two concurrent creates cannot both pass the limit. SQLite
// transactions already take the write lock at BEGIN.
func (s *Service) lockAgency(ctx context.Context, tx *sqlx.Tx, agencyID int64) error {
	if s.db.Dialect != store.Postgres {
		return nil
	}
	var id int64
	if err := tx.GetContext(ctx, &id, `SELECT id FROM agencies WHERE id = $1 FOR UPDATE`, agencyID); err != nil {
		return fmt.Errorf("profile: lock agency %d: %w", agencyID, err)
	}
	return nil
}

// CreatePassenger adds an often-used passenger to the caller's agency; an
// agency keeps at most 30.
func (s *Service) CreatePassenger(ctx context.Context, p auth.Principal, in PassengerInput, m auth.Meta) (Passenger, error) {
	return write(ctx, s, p, in, s.passengerCheck(ctx, p), func(tx *sqlx.Tx, in PassengerInput, now time.Time) (Passenger, error) {
		if err := s.lockAgency(ctx, tx, p.AgencyID); err != nil {
			return Passenger{}, err
		}
		if err := refuseSaved(ctx, tx, p.AgencyID, in, 0); err != nil {
			return Passenger{}, err
		}
		n, err := countPassengers(ctx, tx, p.AgencyID)
		if err != nil {
			return Passenger{}, err
		}
		if n >= MaxPassengers {
			return Passenger{}, fault.Conflict("profile.passenger.error.max")
		}
		return insertPassenger(ctx, tx, p, in, m, now)
	})
}

// KeyAlreadySaved refuses a traveller the agency already keeps.
const KeyAlreadySaved = "profile.passenger.error.alreadySaved"

// alreadySaved is the one rule of a duplicate traveller, for the form, a
// scanned document and the DOCS import alike: the agency keeps a traveller
// (other than except) with the same document type and number. A document
// names one person, so a second entry is a duplicate whatever its name.
// Called inside the writer's transaction, after lockAgency.
func alreadySaved(ctx context.Context, tx *sqlx.Tx, agencyID int64, in PassengerInput, except int64) (bool, error) {
	var have int
	if err := tx.GetContext(ctx, &have, tx.Rebind(`SELECT COUNT(*) FROM often_used_passengers
		WHERE agency_id = ? AND document_type = ? AND document_number = ? AND id <> ?`),
		agencyID, in.DocumentType, in.DocumentNumber, except); err != nil {
		return false, fmt.Errorf("profile: look up document: %w", err)
	}
	return have > 0, nil
}

// refuseSaved answers a traveller already saved as invalid input on the
// document number, which changes nothing.
func refuseSaved(ctx context.Context, tx *sqlx.Tx, agencyID int64, in PassengerInput, except int64) error {
	saved, err := alreadySaved(ctx, tx, agencyID, in, except)
	if err != nil || !saved {
		return err
	}
	return fault.Validation(map[string]string{"documentNumber": KeyAlreadySaved})
}

// passengerCheck is checkPassenger for the caller's agency.
func (s *Service) passengerCheck(ctx context.Context, p auth.Principal) func(PassengerInput) (PassengerInput, error) {
	return func(in PassengerInput) (PassengerInput, error) { return s.checkPassenger(ctx, p.AgencyID, in) }
}

// write makes a change for a user of the agency (an API key's principal is
// none) from input that check accepts, at now in one transaction.
func write[In, Out any](ctx context.Context, s *Service, p auth.Principal, in In, check func(In) (In, error),
	change func(tx *sqlx.Tx, in In, now time.Time) (Out, error)) (Out, error) {
	var out Out
	if p.UserID == 0 {
		return out, fault.Forbidden()
	}
	in, err := check(in)
	if err != nil {
		return out, err
	}
	now := s.now().UTC()
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		out, err = change(tx, in, now)
		return err
	})
	return out, err
}

func countPassengers(ctx context.Context, tx *sqlx.Tx, agencyID int64) (int, error) {
	var n int
	if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM often_used_passengers WHERE agency_id = ?`), agencyID); err != nil {
		return 0, fmt.Errorf("profile: count passengers: %w", err)
	}
	return n, nil
}

// insertPassenger adds a checked passenger inside tx, with its user log
// entry; the caller has counted against the limit.
func insertPassenger(ctx context.Context, tx *sqlx.Tx, p auth.Principal, in PassengerInput, m auth.Meta, now time.Time) (Passenger, error) {
	var id int64
	err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO often_used_passengers (agency_id, user_id, surname, given_name, passenger_type,
		gender, birthday, nationality, phone, email, document_type, document_number, document_expiry, document_issued_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		p.AgencyID, p.UserID, in.Surname, in.GivenName, in.Type, in.Gender, in.Birthday, in.Nationality, in.Phone, in.Email,
		in.DocumentType, in.DocumentNumber, in.DocumentExpiry, in.DocumentIssuedAt, now, now)
	if err != nil {
		return Passenger{}, fmt.Errorf("profile: create passenger: %w", err)
	}
	out, err := getPassenger(ctx, tx, p.AgencyID, id)
	if err != nil {
		return Passenger{}, err
	}
	return out, audit.Write(ctx, tx, entry(p, m, ActionPassengerCreate, fmt.Sprintf("passenger:%d", id), in.Surname+"/"+in.GivenName, now))
}

// UpdatePassenger replaces one of the caller's agency's passengers.
func (s *Service) UpdatePassenger(ctx context.Context, p auth.Principal, id int64, in PassengerInput, m auth.Meta) (Passenger, error) {
	return write(ctx, s, p, in, s.passengerCheck(ctx, p), func(tx *sqlx.Tx, in PassengerInput, now time.Time) (Passenger, error) {
		if err := s.lockAgency(ctx, tx, p.AgencyID); err != nil {
			return Passenger{}, err
		}
		if err := refuseSaved(ctx, tx, p.AgencyID, in, id); err != nil {
			return Passenger{}, err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE often_used_passengers SET surname = ?, given_name = ?, passenger_type = ?, gender = ?,
			birthday = ?, nationality = ?, phone = ?, email = ?, document_type = ?, document_number = ?, document_expiry = ?,
			document_issued_at = ?, updated_at = ? WHERE id = ? AND agency_id = ?`),
			in.Surname, in.GivenName, in.Type, in.Gender, in.Birthday, in.Nationality, in.Phone, in.Email, in.DocumentType,
			in.DocumentNumber, in.DocumentExpiry, in.DocumentIssuedAt, now, id, p.AgencyID)
		if err != nil {
			return Passenger{}, fmt.Errorf("profile: update passenger %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return Passenger{}, fault.NotFound("")
		}
		out, err := getPassenger(ctx, tx, p.AgencyID, id)
		if err != nil {
			return Passenger{}, err
		}
		return out, audit.Write(ctx, tx, entry(p, m, ActionPassengerUpdate, fmt.Sprintf("passenger:%d", id), in.Surname+"/"+in.GivenName, now))
	})
}

// DeletePassenger removes one of the caller's agency's passengers; the
// member cards recorded for them go with them.
func (s *Service) DeletePassenger(ctx context.Context, p auth.Principal, id int64, m auth.Meta) error {
	return s.remove(ctx, p, func(tx *sqlx.Tx, now time.Time) error {
		// The user log names who was deleted, read before they are gone.
		var who struct {
			Surname   string `db:"surname"`
			GivenName string `db:"given_name"`
		}
		err := tx.GetContext(ctx, &who, tx.Rebind(`SELECT surname, given_name FROM often_used_passengers WHERE id = ? AND agency_id = ?`), id, p.AgencyID)
		if errors.Is(err, sql.ErrNoRows) {
			return fault.NotFound("")
		}
		if err != nil {
			return fmt.Errorf("profile: passenger %d: %w", id, err)
		}
		// Explicit, not only ON DELETE CASCADE: the cards are the agency's
		// too, and this keeps the rule visible.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM member_cards WHERE passenger_id = ? AND agency_id = ?`), id, p.AgencyID); err != nil {
			return fmt.Errorf("profile: delete cards of passenger %d: %w", id, err)
		}
		if err := deleteRow(ctx, tx, "passenger", "often_used_passengers", p.AgencyID, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, entry(p, m, ActionPassengerDelete, fmt.Sprintf("passenger:%d", id), who.Surname+"/"+who.GivenName, now))
	})
}

// remove makes a deletion for a user of the agency (an API key's principal
// is none), at now in one transaction.
func (s *Service) remove(ctx context.Context, p auth.Principal, change func(tx *sqlx.Tx, now time.Time) error) error {
	if p.UserID == 0 {
		return fault.Forbidden()
	}
	now := s.now().UTC()
	return s.db.InTx(ctx, func(tx *sqlx.Tx) error { return change(tx, now) })
}

// deleteRow deletes the agency's row id of table; not found when there is
// none or it is another agency's. what names the row in errors.
func deleteRow(ctx context.Context, tx *sqlx.Tx, what, table string, agencyID, id int64) error {
	res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM `+table+` WHERE id = ? AND agency_id = ?`), id, agencyID)
	if err != nil {
		return fmt.Errorf("profile: delete %s %d: %w", what, id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fault.NotFound("")
	}
	return nil
}
