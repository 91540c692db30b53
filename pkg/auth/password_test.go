package auth

import (
	"strings"
	"testing"
	"time"
)

// TestPasswordHashing hashes at production's cost, which the rest of the
// package's tests do not pay (argonCost). Not parallel: it sets the cost
// the others read, before they start.
func TestPasswordHashing(t *testing.T) {
	test := argonCost
	argonCost = argonProduction
	t.Cleanup(func() { argonCost = test })
	h, err := HashPassword("demo-pass-1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q is not argon2id with OWASP parameters", h)
	}
	h2, _ := HashPassword("demo-pass-1")
	if h == h2 {
		t.Error("two hashes of one password are equal: salt missing")
	}
	tests := []struct {
		pw         string
		ok, rehash bool
	}{
		{"demo-pass-1", true, false},
		{"demo-pass-2", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		ok, rehash, err := VerifyPassword(h, tt.pw)
		if err != nil || ok != tt.ok || rehash != tt.rehash {
			t.Errorf("VerifyPassword(%q) = %v, %v, %v", tt.pw, ok, rehash, err)
		}
	}
	weak := "$argon2id$v=19$m=8192,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$" + strings.Repeat("A", 43)
	if _, _, err := VerifyPassword(weak, "x"); err != nil {
		t.Errorf("weak hash rejected: %v", err)
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=1,t=1,p=1$a$b", "$argon2id$v=19$m=x$a$b"} {
		if ok, _, err := VerifyPassword(bad, "x"); ok || err == nil {
			t.Errorf("VerifyPassword(%q) accepted a malformed hash", bad)
		}
	}
}

func TestPasswordLength(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pw string
		ok bool
	}{
		{"12345", false}, {"123456", true}, {"123456789012345", true}, {"1234567890123456", false},
		{"密码密码密码", true}, {"密码密码密", false},
	}
	for _, tt := range tests {
		if err := CheckPasswordLength(tt.pw); (err == nil) != tt.ok {
			t.Errorf("CheckPasswordLength(%q) = %v, want ok %v", tt.pw, err, tt.ok)
		}
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	tok, hash, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) != 43 || HashToken(tok) != hash || strings.Contains(hash, tok) {
		t.Errorf("token %q hash %q", tok, hash)
	}
	tok2, _, _ := NewToken()
	if tok == tok2 {
		t.Error("two tokens are equal")
	}
}

func BenchmarkHashPassword(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HashPassword("demo-pass-1"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyPassword(b *testing.B) {
	h, _ := HashPassword("demo-pass-1")
	b.ReportAllocs()
	for b.Loop() {
		if ok, _, _ := VerifyPassword(h, "demo-pass-1"); !ok {
			b.Fatal("mismatch")
		}
	}
}

func TestPasswordRule(t *testing.T) {
	t.Parallel()
	if n := len(commonPasswords()); n != 10_000 {
		t.Fatalf("the shipped list holds %d passwords, want 10,000", n)
	}
	tests := []struct {
		pw, key string
	}{
		{"12345", "password.error.length"},
		{"1234567890123456", "password.error.length"},
		{"123456", "password.error.common"},
		{"password", "password.error.common"},
		{"PassWord1", "password.error.common"}, // letter case does not help
		{"qwerty123", "password.error.common"},
		{"iloveyou", "password.error.common"},
		// The demo logins of the README still pass.
		{"demo-pass-1", ""},
		{"provider-pass-1", ""},
		{"new-pass-22", ""},
		{"旅行社密码很安全", ""},
	}
	for _, tt := range tests {
		if got := PasswordRuleKey(tt.pw); got != tt.key {
			t.Errorf("PasswordRuleKey(%q) = %q, want %q", tt.pw, got, tt.key)
		}
	}
}

func TestThrottleWaits(t *testing.T) {
	t.Parallel()
	l := limit{free: 5, base: 5 * time.Second, max: 15 * time.Minute, leak: 15 * time.Minute}
	for failures, want := range map[int]time.Duration{0: 0, 4: 0, 5: 5 * time.Second, 6: 10 * time.Second, 12: 640 * time.Second, 13: 15 * time.Minute, 40: 15 * time.Minute} {
		if got := l.wait(failures); got != want {
			t.Errorf("wait(%d) = %v, want %v", failures, got, want)
		}
	}
	if c := l.ceiling(); c != 14 || l.wait(c-1) != l.max {
		t.Errorf("ceiling %d", c)
	}
	for _, l := range []limit{accountLimit, knownAddressLimit, addressLimit, passwordLimit, ssoLimit, apiKeyLimit} {
		if time.Duration(l.ceiling())*l.leak > throttleKeep {
			t.Errorf("%s: a full count takes longer than throttleKeep to leak away", l.scope)
		}
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := l.settled(10, now.Add(-46*time.Minute), now); got != 7 {
		t.Errorf("settled after 46 quiet minutes = %d, want 7", got)
	}
}
