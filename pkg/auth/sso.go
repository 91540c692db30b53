package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// SSOWindow is how far a single-login timestamp may be from our clock.
const SSOWindow = 5 * time.Minute

// SSORequest is a single-login entry, signed by the integrating site with
// the agency's single-login secret. The portal's query string carries the
// same four values (spec §7 single-login).
type SSORequest struct {
	// Code is a one-time code the integrating site chooses, at most 128
	// characters; each code logs in once per agency.
	Code string `json:"code"`
	// Signature is the lower-case hex HMAC-SHA256, keyed with the agency's
	// single-login secret, of "code=<code>&timestamp=<timestamp>&userid=<userid>".
	Signature string `json:"signature"`
	// Timestamp is when the entry was signed, in Unix seconds; it must be
	// within 5 minutes of the server's clock.
	Timestamp int64 `json:"timestamp"`
	// UserID is the platform's id of the user to log in (as GET
	// /base/v2/users lists it), a user of the agency whose secret signed
	// the entry.
	UserID int64 `json:"userid"`
}

// SSOSignature is lower-case hex HMAC-SHA256(secret, "code=…&timestamp=…&userid=…").
func SSOSignature(secret, code string, timestamp, userID int64) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "code=%s&timestamp=%d&userid=%d", code, timestamp, userID)
	return hex.EncodeToString(mac.Sum(nil))
}

func errSSO(key string) error {
	return fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, key)
}

// SingleLogin verifies a signed single-login entry and opens an iframe-mode
// session for the user. A code works once.
func (s *Service) SingleLogin(ctx context.Context, r SSORequest, m Meta) (LoginResult, error) {
	if r.Code == "" || r.Signature == "" || r.Timestamp == 0 || r.UserID == 0 || len(r.Code) > 128 {
		return LoginResult{}, fault.Validation(map[string]string{"code": "sso.error.invalid"})
	}
	now := s.now().UTC()
	// The signature is a secret: an address that keeps sending bad ones
	// waits like one guessing passwords.
	key := ssoKey(m.IP)
	if err := s.chargeAttempt(ctx, now, key); err != nil {
		return LoginResult{}, err
	}
	u, err := getUser(ctx, s.db, "id = ?", r.UserID)
	if err != nil {
		if fe, ok := fault.As(err); ok && fe.Code == fault.CodeNotFound {
			return LoginResult{}, errSSO("sso.error.invalid")
		}
		return LoginResult{}, err
	}
	c, err := s.companies.Company(ctx, u.AgencyID)
	if err != nil {
		return LoginResult{}, err
	}
	want := SSOSignature(c.SSOSecret, r.Code, r.Timestamp, r.UserID)
	if c.SSOSecret == "" || !hmac.Equal([]byte(want), []byte(r.Signature)) {
		return LoginResult{}, errSSO("sso.error.invalid")
	}
	at := time.Unix(r.Timestamp, 0)
	if at.Before(now.Add(-SSOWindow)) || at.After(now.Add(SSOWindow)) {
		return LoginResult{}, errSSO("sso.error.expired")
	}
	if !u.CanLogIn() || c.Status == "blocked" {
		return LoginResult{}, errSSO("sso.error.invalid")
	}
	var res LoginResult
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO sso_codes (agency_id, code, used_at) VALUES (?, ?, ?)`), c.ID, r.Code, now)
		if store.IsUniqueViolation(err) {
			return errSSO("sso.error.used")
		}
		if err != nil {
			return fmt.Errorf("auth: record sso code: %w", err)
		}
		res, err = s.openSession(ctx, tx, u, c, m, true, now)
		if err != nil {
			return err
		}
		if err := refundAttempt(ctx, tx, key, now); err != nil {
			return err
		}
		return audit.Write(ctx, tx, audit.Entry{AgencyID: u.AgencyID, UserID: &u.ID, Username: u.Username, Action: audit.ActionSingleLogin,
			Target: "code:" + strconv.Quote(r.Code), IP: m.IP, Detail: m.UserAgent, CreatedAt: now})
	})
	// Its other sessions are replaced (openSession).
	s.ForgetUser(u.ID)
	return res, err
}
