// Package profile is what a logged-in user keeps for themselves and their
// agency: the profile (nickname, mobile, avatar), the personal settings of
// PUT /me/config/{key}, the agency's often-used passengers and its airline
// member cards (spec §3, §5, §7).
//
// Passengers and cards belong to an agency: any user of the agency may list
// and change them, and a row of another agency is answered as not found, so
// callers cannot even learn that it exists.
package profile

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/upload"
)

// Actions this package writes to the user log, in the transaction of the
// change itself.
const (
	ActionUpdate          = "profile.update"
	ActionAvatar          = "profile.avatar"
	ActionConfig          = "profile.config"
	ActionPassengerCreate = "profile.passenger.create"
	ActionPassengerUpdate = "profile.passenger.update"
	ActionPassengerDelete = "profile.passenger.delete"
	ActionCardCreate      = "profile.card.create"
	ActionCardUpdate      = "profile.card.update"
	ActionCardDelete      = "profile.card.delete"
)

// Limits of spec §5 and §9, and our own where the spec is silent.
const (
	MaxAvatarBytes    = upload.MaxImageBytes // 2 MB, as the company logo
	MaxPassengers     = 30                   // per agency (spec §5 "frequent passengers max 30")
	MaxFavourites     = 20                   // favourite cities or countries
	MaxNicknameRunes  = 50
	DefaultRegion     = "86"
	DefaultDateFormat = "yyyy-MM-dd"
)

// DateFormats are the display date formats a user may choose.
var DateFormats = []string{"yyyy-MM-dd", "dd/MM/yyyy", "MM/dd/yyyy", "dd-MM-yyyy", "yyyy/MM/dd"}

// Config keys of PUT /base/v2/me/config/{key} (spec §7).
const (
	KeyCities        = "cities"
	KeyCountries     = "countries"
	KeyPassengers    = "passengers"
	KeyDefaultRegion = "defaultRegion"
	KeyDateFormat    = "dateFormat"
	KeyTimeZone      = "timeZone"
)

// Service keeps profiles, settings, passengers and member cards.
type Service struct {
	db       *store.DB
	agencies *agency.Store
	now      func() time.Time
	// userChanged is told of a change to a user's row, which the sessions
	// read with it (auth.Service.ForgetUser).
	userChanged func(userID int64)
}

// OnUserChange sets what is told of a change to a user's row: the
// identity service, which keeps the user with its sessions for a moment.
func (s *Service) OnUserChange(fn func(userID int64)) { s.userChanged = fn }

// changedUser runs fn in a transaction and then tells of the change to
// user id's row, committed or not.
func (s *Service) changedUser(ctx context.Context, id int64, fn func(tx *sqlx.Tx) error) error {
	err := s.db.InTx(ctx, fn)
	if s.userChanged != nil {
		s.userChanged(id)
	}
	return err
}

// New returns the service on db.
func New(db *store.DB) *Service {
	return &Service{db: db, agencies: agency.NewStore(db), now: time.Now}
}

// SetClock replaces the clock, for tests.
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Update is PUT /base/v2/me: the fields a user may change of themselves.
// Username, email and roles are not among them.
type Update struct {
	// Nickname is the name shown for the user, 1 to 50 characters;
	// required.
	Nickname string `json:"nickname"`
	// Mobile is the user's mobile number without the country calling code:
	// 5 to 20 digits, spaces or dashes, starting with a digit; empty clears
	// it.
	Mobile string `json:"mobile"`
	// AreaCode is the country calling code of mobile, 1 to 4 digits without
	// the + (e.g. 86); empty means 86.
	AreaCode string `json:"areaCode"`
}

var (
	mobilePattern   = regexp.MustCompile(`^[0-9][0-9 -]{4,19}$`)
	areaCodePattern = regexp.MustCompile(`^[0-9]{1,4}$`)
	cityPattern     = regexp.MustCompile(`^[A-Z]{3}$`)
)

// Validate checks u and returns field → catalog key.
func (u Update) Validate() map[string]string {
	errs := map[string]string{}
	switch n := strings.TrimSpace(u.Nickname); {
	case n == "":
		errs["nickname"] = "profile.error.nicknameRequired"
	case len([]rune(n)) > MaxNicknameRunes:
		errs["nickname"] = "error.field.tooLong"
	}
	if m := strings.TrimSpace(u.Mobile); m != "" && !mobilePattern.MatchString(m) {
		errs["mobile"] = "user.error.mobile"
	}
	if a := strings.TrimSpace(u.AreaCode); a != "" && !areaCodePattern.MatchString(a) {
		errs["areaCode"] = "user.error.areaCode"
	}
	return errs
}

func entry(p auth.Principal, m auth.Meta, action, target, detail string, now time.Time) audit.Entry {
	e := audit.Entry{AgencyID: p.AgencyID, Username: p.Username, Action: action, Target: target, Detail: detail, IP: m.IP, CreatedAt: now}
	if p.UserID != 0 {
		e.UserID = &p.UserID
	}
	return e
}

// UpdateMe changes the caller's nickname, mobile and area code (empty area
// code means the default, 86).
func (s *Service) UpdateMe(ctx context.Context, p auth.Principal, u Update, m auth.Meta) error {
	if p.UserID == 0 {
		return fault.Forbidden()
	}
	if errs := u.Validate(); len(errs) > 0 {
		return fault.Validation(errs)
	}
	area := strings.TrimSpace(u.AreaCode)
	if area == "" {
		area = DefaultRegion
	}
	now := s.now().UTC()
	return s.changedUser(ctx, p.UserID, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET nickname = ?, mobile = ?, area_code = ?, updated_at = ? WHERE id = ?`),
			strings.TrimSpace(u.Nickname), strings.TrimSpace(u.Mobile), area, now, p.UserID)
		if err != nil {
			return fmt.Errorf("profile: update user %d: %w", p.UserID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fault.NotFound("")
		}
		return audit.Write(ctx, tx, entry(p, m, ActionUpdate, fmt.Sprintf("user:%d", p.UserID), "", now))
	})
}

// SetAvatar stores the caller's avatar. The type comes from the content, not
// from what the client claims: PNG, JPEG, GIF or WebP, at most 2 MB.
func (s *Service) SetAvatar(ctx context.Context, p auth.Principal, data []byte, m auth.Meta) error {
	if p.UserID == 0 {
		return fault.Forbidden()
	}
	if len(data) == 0 {
		return fault.Validation(map[string]string{"avatar": "profile.avatar.error.empty"})
	}
	typ, err := upload.Check(data, MaxAvatarBytes, upload.Images)
	switch {
	case errors.Is(err, upload.ErrTooLarge):
		return fault.Validation(map[string]string{"avatar": "profile.avatar.error.tooLarge"})
	case err != nil:
		return fault.Validation(map[string]string{"avatar": "profile.avatar.error.type"})
	}
	now := s.now().UTC()
	return s.changedUser(ctx, p.UserID, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET avatar = ?, avatar_type = ?, updated_at = ? WHERE id = ?`),
			data, typ, now, p.UserID); err != nil {
			return fmt.Errorf("profile: store avatar of %d: %w", p.UserID, err)
		}
		return audit.Write(ctx, tx, entry(p, m, ActionAvatar, fmt.Sprintf("user:%d", p.UserID), typ, now))
	})
}

// Avatar returns a user's avatar and its content type. Only users of the
// caller's agency and of its sub-agencies are visible; anyone else, and a
// user without an avatar, is not found.
func (s *Service) Avatar(ctx context.Context, p auth.Principal, userID int64) ([]byte, string, error) {
	var row struct {
		AgencyID int64  `db:"agency_id"`
		Avatar   []byte `db:"avatar"`
		Type     string `db:"avatar_type"`
	}
	err := s.db.GetContext(ctx, &row, s.db.Rebind(`SELECT agency_id, avatar, avatar_type FROM users WHERE id = ?`), userID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", fault.NotFound("")
	}
	if err != nil {
		return nil, "", fmt.Errorf("profile: avatar of %d: %w", userID, err)
	}
	if row.AgencyID != p.AgencyID {
		ok, err := s.agencies.IsWithin(ctx, p.AgencyID, row.AgencyID)
		if err != nil {
			return nil, "", err
		}
		if !ok {
			return nil, "", fault.NotFound("")
		}
	}
	if len(row.Avatar) == 0 || row.Type == "" {
		return nil, "", fault.NotFound("")
	}
	return row.Avatar, row.Type, nil
}

// SetConfig sets one personal setting of the caller (spec §7 PUT
// /me/config/{key}); raw is the bare JSON value:
//
//   - cities: non-empty list of IATA city or airport codes (3 letters), ≤ 20
//   - countries: non-empty list of ISO 3166-1 alpha-2 codes, ≤ 20
//   - passengers: non-empty list of ids of the agency's often-used passengers
//   - defaultRegion: telephone area code, 1–4 digits
//   - dateFormat: one of DateFormats
//   - timeZone: an IANA time zone name, or "" for the agency's zone
//
// Codes are stored upper-case and without duplicates. An unknown key is not
// found.
func (s *Service) SetConfig(ctx context.Context, p auth.Principal, key string, raw json.RawMessage, m auth.Meta) error {
	if p.UserID == 0 {
		return fault.Forbidden()
	}
	var column string
	var value any
	var detail string
	var passengerIDs []int64
	switch key {
	case KeyCities, KeyCountries:
		list, ok := decodeStrings(raw)
		if !ok {
			return fault.Validation(map[string]string{key: "profile.config.error." + key})
		}
		codes, errKey := normalizeCodes(key, list)
		if errKey != "" {
			return fault.Validation(map[string]string{key: errKey})
		}
		b, _ := json.Marshal(codes)
		column, value, detail = "fav_"+key, string(b), string(b)
	case KeyPassengers:
		var ids []int64
		if err := strictDecode(raw, &ids); err != nil {
			return fault.Validation(map[string]string{key: "profile.config.error.passengers"})
		}
		if len(ids) == 0 {
			return fault.Validation(map[string]string{key: "profile.config.error.passengersEmpty"})
		}
		seen := map[int64]bool{}
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				passengerIDs = append(passengerIDs, id)
			}
		}
		if len(passengerIDs) > MaxPassengers {
			return fault.Validation(map[string]string{key: "profile.config.error.passengers"})
		}
		b, _ := json.Marshal(passengerIDs)
		column, value, detail = "fav_passengers", string(b), string(b)
	case KeyDefaultRegion:
		var v string
		if err := strictDecode(raw, &v); err != nil || !areaCodePattern.MatchString(strings.TrimSpace(v)) {
			return fault.Validation(map[string]string{key: "profile.config.error.defaultRegion"})
		}
		column, value, detail = "default_region", strings.TrimSpace(v), strings.TrimSpace(v)
	case KeyDateFormat:
		var v string
		if err := strictDecode(raw, &v); err != nil || !slices.Contains(DateFormats, v) {
			return fault.Validation(map[string]string{key: "profile.config.error.dateFormat"})
		}
		column, value, detail = "date_format", v, v
	case KeyTimeZone:
		// "" gives the choice back to the agency's zone.
		var v string
		if err := strictDecode(raw, &v); err != nil {
			return fault.Validation(map[string]string{key: display.ErrZoneKey})
		}
		v = strings.TrimSpace(v)
		if v != "" && !display.ValidZone(v) {
			return fault.Validation(map[string]string{key: display.ErrZoneKey})
		}
		column, value, detail = "time_zone", v, v
	default:
		return fault.NotFound("profile.config.error.unknownKey")
	}
	now := s.now().UTC()
	return s.changedUser(ctx, p.UserID, func(tx *sqlx.Tx) error {
		if len(passengerIDs) > 0 {
			q, args, err := sqlx.In(`SELECT COUNT(*) FROM often_used_passengers WHERE agency_id = ? AND id IN (?)`, p.AgencyID, passengerIDs)
			if err != nil {
				return fmt.Errorf("profile: favoured passengers: %w", err)
			}
			var n int
			if err := tx.GetContext(ctx, &n, tx.Rebind(q), args...); err != nil {
				return fmt.Errorf("profile: favoured passengers: %w", err)
			}
			if n != len(passengerIDs) {
				return fault.Validation(map[string]string{key: "profile.config.error.passengers"})
			}
		}
		if column != "" {
			// column is one of the constants above, never client input.
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET `+column+` = ?, updated_at = ? WHERE id = ?`), value, now, p.UserID); err != nil {
				return fmt.Errorf("profile: set %s of %d: %w", key, p.UserID, err)
			}
		}
		return audit.Write(ctx, tx, entry(p, m, ActionConfig, "config:"+key, detail, now))
	})
}

// strictDecode reads exactly one JSON value of v's type.
func strictDecode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

func decodeStrings(raw json.RawMessage) ([]string, bool) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, true
	}
	var list []string
	if err := strictDecode(raw, &list); err != nil {
		return nil, false
	}
	return list, true
}

// normalizeCodes upper-cases, checks and de-duplicates favourite cities or
// countries; it returns the catalog key of the first problem.
func normalizeCodes(key string, list []string) ([]string, string) {
	if len(list) == 0 {
		return nil, "profile.config.error." + key + "Empty"
	}
	out := make([]string, 0, len(list))
	for _, c := range list {
		c = strings.ToUpper(strings.TrimSpace(c))
		switch key {
		case KeyCities:
			if !cityPattern.MatchString(c) {
				return nil, "profile.config.error.cities"
			}
		case KeyCountries:
			if _, ok := geo.Lookup(c); !ok || len(c) != 2 {
				return nil, "profile.config.error.countries"
			}
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	if len(out) > MaxFavourites {
		return nil, "profile.config.error." + key + "Max"
	}
	return out, ""
}

// Paging is a 1-based page request; Normalize applies the API defaults.
type Paging struct {
	Page     int
	PageSize int
}

// Normalize applies the API's paging defaults and bounds (auth.ClampPage).
func (p Paging) Normalize() Paging {
	p.Page, p.PageSize = auth.ClampPage(p.Page, p.PageSize)
	return p
}

func (p Paging) offset() int { return (p.Page - 1) * p.PageSize }
