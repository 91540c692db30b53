package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/fault"
)

// Headers of every delivery.
const (
	HeaderEvent     = "X-Voyage-Event"
	HeaderDelivery  = "X-Voyage-Delivery"
	HeaderSignature = "X-Voyage-Signature"
)

// SecretPrefix starts every signing secret, so one is recognisable in a
// configuration file.
const SecretPrefix = "whsec_"

// Errors of Verify.
var (
	ErrNoSignature  = errors.New("webhook: no signature in header")
	ErrBadSignature = errors.New("webhook: signature does not match")
	ErrTooOld       = errors.New("webhook: signature timestamp outside the tolerance")
)

// Sign is the X-Voyage-Signature value for body sent at Unix time t:
// "t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the whole secret>".
func Sign(secret string, t int64, body []byte) string {
	return "t=" + strconv.FormatInt(t, 10) + ",v1=" + hex.EncodeToString(mac(secret, t, body))
}

func mac(secret string, t int64, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(t, 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks an X-Voyage-Signature header against the raw body as
// received: one of its v1 signatures must match, and its timestamp must be
// within tolerance of now (a zero tolerance skips that check). Receivers
// should reject anything Verify refuses; the tolerance stops a captured
// request from being replayed later.
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var (
		t     int64
		haveT bool
		sigs  [][]byte
	)
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return ErrNoSignature
			}
			t, haveT = n, true
		case "v1":
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	if !haveT || len(sigs) == 0 {
		return ErrNoSignature
	}
	if tolerance > 0 {
		if d := now.Sub(time.Unix(t, 0)); d > tolerance || d < -tolerance {
			return ErrTooOld
		}
	}
	want := mac(secret, t, body)
	for _, s := range sigs {
		if hmac.Equal(s, want) {
			return nil
		}
	}
	return ErrBadSignature
}

// newSecret is "whsec_" and 32 random bytes in hex.
func newSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("webhook: random: %v", err))
	}
	return SecretPrefix + hex.EncodeToString(b)
}

// Mask shows enough of a secret to recognise it: the prefix and its last
// four characters.
func Mask(secret string) string {
	if secret == "" {
		return ""
	}
	rest := strings.TrimPrefix(secret, SecretPrefix)
	if len(rest) <= 4 {
		return SecretPrefix + "••••"
	}
	return SecretPrefix + "••••••••" + rest[len(rest)-4:]
}

func (s *Service) storedSecret(ctx context.Context, agencyID int64) (string, error) {
	var secret string
	err := s.db.GetContext(ctx, &secret, s.db.Rebind(`SELECT webhook_secret FROM agencies WHERE id = ?`), agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fault.NotFound("")
	}
	if err != nil {
		return "", fmt.Errorf("webhook: secret of agency %d: %w", agencyID, err)
	}
	return secret, nil
}

// Secret is the agency's signing secret, generated on first use.
func (s *Service) Secret(ctx context.Context, agencyID int64) (string, error) {
	secret, err := s.storedSecret(ctx, agencyID)
	if err != nil || secret != "" {
		return secret, err
	}
	// Only an empty secret is set: when two callers race, both end up with
	// the one that was stored first.
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE agencies SET webhook_secret = ? WHERE id = ? AND webhook_secret = ''`), newSecret(), agencyID)
	if err != nil {
		return "", fmt.Errorf("webhook: create secret of agency %d: %w", agencyID, err)
	}
	return s.storedSecret(ctx, agencyID)
}

// MaskedSecret is the agency's secret as Mask shows it; empty while none
// was generated. It never creates one.
func (s *Service) MaskedSecret(ctx context.Context, agencyID int64) (string, error) {
	secret, err := s.storedSecret(ctx, agencyID)
	return Mask(secret), err
}

// RotateSecret replaces the agency's secret and returns the new one. The old
// one stops working at once: deliveries still being retried are signed with
// the new one.
func (s *Service) RotateSecret(ctx context.Context, agencyID int64) (string, error) {
	secret := newSecret()
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE agencies SET webhook_secret = ? WHERE id = ?`), secret, agencyID)
	if err != nil {
		return "", fmt.Errorf("webhook: rotate secret of agency %d: %w", agencyID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return "", fault.NotFound("")
	}
	return secret, nil
}
