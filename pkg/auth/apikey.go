package auth

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/fault"
)

// APIKey is an agency's integration key as listed: never the key itself.
type APIKey struct {
	// ID is the key's id, for DELETE /base/v2/agencies/{id}/apikeys/{key}.
	ID int64 `db:"id" json:"id"`
	// AgencyID is the id of the agency the key acts for.
	AgencyID int64 `db:"agency_id" json:"agencyId"`
	// Name is the label given when the key was created; empty when none.
	Name string `db:"name" json:"name"`
	// Prefix is the key's visible start (vk_ and 8 characters), to tell
	// keys apart; the rest of the key is never shown again.
	Prefix string `db:"prefix" json:"prefix"`
	// Roles are the roles the key acts with: operator, finance or
	// SuperUser.
	Roles RoleList `db:"roles" json:"roles"`
	// CreatedAt is when the key was created (RFC 3339, UTC).
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
	// LastUsedAt is when the key last authenticated a request, to within a
	// minute; absent when it never has.
	LastUsedAt *time.Time `db:"last_used_at" json:"lastUsedAt,omitempty"`
	// RevokedAt is when the key was revoked; absent while it works.
	RevokedAt *time.Time `db:"revoked_at" json:"revokedAt,omitempty"`
}

// RoleList is a set of role names: operator, finance, SuperUser. It is
// stored as a JSON array in a text column.
type RoleList []string

// Scan reads the stored JSON array; anything unreadable is no roles.
func (l *RoleList) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	}
	*l = jsonList(s)
	return nil
}

// Value stores the list as a JSON array.
func (l RoleList) Value() (driver.Value, error) { return toJSON(l), nil }

// NewAPIKey is a freshly created key: Key is shown once and never again.
type NewAPIKey struct {
	APIKey
	// Key is the whole API key (vk_<prefix>_<secret>), to send as the
	// X-Api-Key header. It is in this answer only: store it now, as only
	// its hash is kept.
	Key string `json:"key"`
}

// CreateAPIKey makes a key for agency with the given roles (operator and
// finance when none are given). The key is "vk_<prefix>_<secret>"; only its
// hash and the visible prefix are stored.
func (s *Service) CreateAPIKey(ctx context.Context, agencyID int64, name string, roles []string, createdBy int64) (NewAPIKey, error) {
	if len(roles) == 0 {
		roles = []string{RoleOperator, RoleFinance}
	}
	for _, r := range roles {
		if !slices.Contains(Roles, r) {
			return NewAPIKey{}, fault.Validation(map[string]string{"roles": "user.error.role"})
		}
	}
	b := make([]byte, 30)
	if _, err := rand.Read(b); err != nil {
		return NewAPIKey{}, fmt.Errorf("auth: api key: %w", err)
	}
	enc := base64.RawURLEncoding.EncodeToString(b)
	prefix := "vk_" + strings.NewReplacer("-", "x", "_", "y").Replace(enc[:8])
	key := prefix + "_" + enc[8:]
	now := s.now().UTC()
	var by *int64
	if createdBy != 0 {
		by = &createdBy
	}
	var id int64
	err := s.db.GetContext(ctx, &id, s.db.Rebind(`INSERT INTO api_keys (agency_id, name, prefix, key_hash, roles, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`), agencyID, strings.TrimSpace(name), prefix, HashToken(key), toJSON(roles), by, now)
	if err != nil {
		return NewAPIKey{}, fmt.Errorf("auth: store api key: %w", err)
	}
	return NewAPIKey{APIKey: APIKey{ID: id, AgencyID: agencyID, Name: strings.TrimSpace(name), Prefix: prefix, Roles: RoleList(roles), CreatedAt: now}, Key: key}, nil
}

// AuthenticateAPIKey resolves an X-Api-Key header to its agency. An address
// that keeps sending unknown or revoked keys is answered 429 with
// Retry-After. A key carries 240 random bits, so no number of tries guesses
// one: the throttle turns scanners away, and a valid key, the hot path of
// every integration, costs no throttle query.
func (s *Service) AuthenticateAPIKey(ctx context.Context, key string, m Meta) (Principal, error) {
	now := s.now().UTC()
	invalid := func() (Principal, error) {
		if err := s.chargeAttempt(ctx, now, apiKeyAddressKey(m.IP)); err != nil {
			return Principal{}, err
		}
		return Principal{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "apikey.error.invalid")
	}
	if !strings.HasPrefix(key, "vk_") || len(key) > 100 {
		return invalid()
	}
	var k APIKey
	err := s.db.GetContext(ctx, &k, s.db.Rebind(`SELECT id, agency_id, name, prefix, roles, created_at, last_used_at, revoked_at
		FROM api_keys WHERE key_hash = ?`), HashToken(key))
	if errors.Is(err, sql.ErrNoRows) {
		return invalid()
	}
	if err != nil {
		return Principal{}, fmt.Errorf("auth: find api key: %w", err)
	}
	if k.RevokedAt != nil {
		return invalid()
	}
	c, err := s.companies.Company(ctx, k.AgencyID)
	if err != nil {
		return Principal{}, err
	}
	if c.Status == "blocked" {
		return Principal{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "apikey.error.invalid")
	}
	if k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= touchEvery {
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE api_keys SET last_used_at = ? WHERE id = ?`), now, k.ID); err != nil {
			return Principal{}, fmt.Errorf("auth: touch api key: %w", err)
		}
	}
	return Principal{
		AgencyID: k.AgencyID, APIKeyID: k.ID, Username: "apikey:" + k.Prefix,
		// An API key acts for the agency with its own role set, never with
		// a permission list beyond the roles.
		Subject: Subject{Roles: k.Roles, Permissions: []string{}, ProxyLevel: c.ProxyLevel, Common: c.Common},
	}, nil
}

// APIKeys lists an agency's keys, newest first.
func (s *Service) APIKeys(ctx context.Context, agencyID int64) ([]APIKey, error) {
	out := []APIKey{}
	err := s.db.SelectContext(ctx, &out, s.db.Rebind(`SELECT id, agency_id, name, prefix, roles, created_at, last_used_at, revoked_at
		FROM api_keys WHERE agency_id = ? ORDER BY id DESC`), agencyID)
	if err != nil {
		return nil, fmt.Errorf("auth: list api keys: %w", err)
	}
	return out, nil
}

// RevokeAPIKey ends a key of agency; another agency's key is not found.
func (s *Service) RevokeAPIKey(ctx context.Context, agencyID, id int64) error {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND agency_id = ? AND revoked_at IS NULL`),
		s.now().UTC(), id, agencyID)
	if err != nil {
		return fmt.Errorf("auth: revoke api key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fault.NotFound("")
	}
	return nil
}
