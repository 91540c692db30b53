package server

import (
	"strings"
	"testing"
)

// directive is the sources of name in policy, nil when it has none.
func directive(policy, name string) []string {
	for _, d := range strings.Split(policy, "; ") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == name {
			return f[1:]
		}
	}
	return nil
}

func TestContentSecurityPolicyWith(t *testing.T) {
	got := ContentSecurityPolicyWith(map[string][]string{
		"script-src":  {"https://js.stripe.com", "'self'"},
		"frame-src":   {"https://js.stripe.com"},
		"connect-src": {"https://api.stripe.com"},
	})
	for _, tt := range []struct {
		name string
		want string
	}{
		{"script-src", "'self' https://js.stripe.com"},
		{"connect-src", "'self' https://api.stripe.com"},
		// frame-src was not in the policy: it starts from default-src.
		{"frame-src", "'self' https://js.stripe.com"},
		{"style-src", "'self'"},
		{"object-src", "'none'"},
		{"frame-ancestors", "'self'"},
	} {
		if d := strings.Join(directive(got, tt.name), " "); d != tt.want {
			t.Errorf("%s: %q, want %q (policy %s)", tt.name, d, tt.want, got)
		}
	}
	if strings.Contains(ContentSecurityPolicy, "stripe") || ContentSecurityPolicyWith(nil) != ContentSecurityPolicy {
		t.Fatalf("the baseline changed: %s", ContentSecurityPolicy)
	}
}
