// Package auth holds identity and access: password hashing, session tokens,
// API keys, roles and permissions (spec §6), and single login.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// argonParams are the cost of an argon2id hash. They are stored with every
// hash, so raising them later re-hashes on login.
type argonParams struct {
	memoryKiB, time uint32
	threads         uint8
}

// argonProduction is OWASP's recommended minimum: 19 MiB, 2 passes, 1 lane.
var argonProduction = argonParams{memoryKiB: 19 * 1024, time: 2, threads: 1}

// argonCost is what new hashes cost and what a stored hash is weighed
// against. In a test binary it is a small fraction of production's: under
// the race detector a production hash takes half a second, and the suite
// logs in thousands of times to test what a login does, not what it costs.
// A hash records its own cost, so what a test binary writes is verified the
// same way; the server and every command keep production's.
var argonCost = func() argonParams {
	if testing.Testing() {
		return argonParams{memoryKiB: 256, time: 1, threads: 1}
	}
	return argonProduction
}()

const (
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Password length bounds of spec §5.
const (
	PasswordMin = 6
	PasswordMax = 15
)

// ErrPasswordLength is returned for a password outside 6–15 characters.
var ErrPasswordLength = errors.New("auth: password must be 6 to 15 characters")

// CheckPasswordLength applies the spec's length rule, counting characters.
func CheckPasswordLength(pw string) error {
	if n := utf8.RuneCountInString(pw); n < PasswordMin || n > PasswordMax {
		return ErrPasswordLength
	}
	return nil
}

// commonPasswordList is shipped with the binary; see its header for where it
// comes from.
//
//go:embed common-passwords.txt
var commonPasswordList string

// commonPasswords is the list as a set, built on first use.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, 10_000)
	for _, line := range strings.Split(commonPasswordList, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			set[line] = struct{}{}
		}
	}
	return set
})

// IsCommonPassword reports whether pw is one of the 10,000 most common
// passwords, whatever its letter case: "Password1" is no better than
// "password1".
func IsCommonPassword(pw string) bool {
	_, ok := commonPasswords()[strings.ToLower(pw)]
	return ok
}

// PasswordRuleKey applies the rule for a new password: the spec's 6–15
// characters, and none of the most common passwords. It returns the catalog
// key of what is wrong, or "" when pw may be set.
func PasswordRuleKey(pw string) string {
	switch {
	case CheckPasswordLength(pw) != nil:
		return "password.error.length"
	case IsCommonPassword(pw):
		return "password.error.common"
	}
	return ""
}

// HashPassword returns an argon2id hash in PHC string format.
func HashPassword(pw string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	c := argonCost
	key := argon2.IDKey([]byte(pw), salt, c.time, c.memoryKiB, c.threads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, c.memoryKiB, c.time, c.threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether pw matches the PHC hash, and whether the
// hash uses weaker parameters than today's and should be replaced.
func VerifyPassword(hash, pw string) (ok, rehash bool, err error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, false, errors.New("auth: unknown password hash format")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, false, errors.New("auth: unsupported argon2 version")
	}
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil || threads == 0 {
		return false, false, errors.New("auth: bad argon2 parameters")
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, false, fmt.Errorf("auth: bad salt: %w", err)
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, false, errors.New("auth: bad key")
	}
	got := argon2.IDKey([]byte(pw), salt, iters, mem, threads, uint32(len(want)))
	if subtle.ConstantTimeCompare(got, want) != 1 {
		return false, false, nil
	}
	weaker := mem < argonCost.memoryKiB || iters < argonCost.time || len(want) < argonKeyLen
	return true, weaker, nil
}

// dummyHash is verified against when a username does not exist, so a login
// for an unknown user costs the same time as one with a wrong password.
var dummyHash = func() string {
	h, err := HashPassword("voyage-timing-equaliser")
	if err != nil {
		panic(err)
	}
	return h
}()

// SpendPasswordTime burns the time of one verification.
func SpendPasswordTime(pw string) { _, _, _ = VerifyPassword(dummyHash, pw) }
