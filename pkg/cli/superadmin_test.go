package cli

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/auth"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	r, out, _ := captured(nil, append(args, "--log-level", "error"))
	err := r.Cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestSuperadminResetPassword(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		{
			a := apptest.Open(t, dsn)
			ctx := context.Background()
			sub, err := a.Auth.Login(ctx, "sub-super", "demo-pass-1", auth.Meta{IP: "cli-test"})
			if err != nil {
				t.Fatal(err)
			}
			subID := sub.Principal.AgencyID
			provider, _ := a.Agencies.Provider(ctx)

			tests := []struct {
				name string
				args []string
				err  string
			}{
				{"too short", []string{"--agency", itoa(subID), "--password", "123"}, "6 to 15 characters"},
				{"common", []string{"--agency", itoa(subID), "--password", "Password123"}, "one of the most common"},
				{"the provider itself", []string{"--agency", itoa(provider.ID), "--password", "new-pass-1"}, "You do not have the access"},
				{"unknown agency", []string{"--agency", "424242", "--password", "new-pass-1"}, "[code 100004]"},
			}
			for _, tt := range tests {
				_, err := run(t, append(append([]string{"superadmin", "reset-password"}, reach...), tt.args...)...)
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("%s: err = %v, want %q", tt.name, err, tt.err)
				}
			}
			if _, err := a.Auth.Login(ctx, "sub-super", "demo-pass-1", auth.Meta{IP: "cli-test"}); err != nil {
				t.Fatalf("a refused reset changed the password: %v", err)
			}

			out, err := run(t, append([]string{"superadmin", "reset-password", "--agency", itoa(subID), "--password", "new-pass-1"}, reach...)...)
			if err != nil || !strings.Contains(out, "reset") {
				t.Fatalf("reset: %q %v", out, err)
			}
			if _, err := a.Auth.Login(ctx, "sub-super", "new-pass-1", auth.Meta{IP: "cli-test"}); err != nil {
				t.Errorf("login with the new password: %v", err)
			}
			out, err = run(t, append([]string{"superadmin", "reset-password", "--agency", itoa(subID)}, reach...)...)
			pw := strings.TrimSpace(out[strings.LastIndex(out, ":")+1:])
			if err != nil || len(pw) != 12 {
				t.Fatalf("generated password: %q %v", out, err)
			}
			if _, err := a.Auth.Login(ctx, "sub-super", pw, auth.Meta{IP: "cli-test"}); err != nil {
				t.Errorf("login with the generated password: %v", err)
			}
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
