package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
)

// terminal is stdin as a person at a terminal types it.
type terminal struct{ io.Reader }

func (terminal) Terminal() bool { return true }

// result is one run of the command line through Root.Execute.
type result struct {
	out, err string
	code     int
}

// execute runs args in-process with stdin (nil: empty) and returns what was
// printed and the exit code.
func execute(t *testing.T, stdin io.Reader, args ...string) result {
	t.Helper()
	return runArgs(context.Background(), stdin, args...)
}

// runArgs is execute outside a test, as a template's seed runs it.
func runArgs(ctx context.Context, stdin io.Reader, args ...string) result {
	return runRoot(ctx, stdin, append(args, "--log-level", "error"))
}

// runRoot runs args as given through Root.Execute, stdin nil being empty.
func runRoot(ctx context.Context, stdin io.Reader, args []string) result {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	r, out, errb := captured(stdin, args)
	code := r.Execute(ctx)
	return result{out: out.String(), err: errb.String(), code: code}
}

// captured is a new Root set to run args, reading stdin (nil: cobra's
// default) and writing where the test reads it.
func captured(stdin io.Reader, args []string) (r *Root, out *bytes.Buffer, errb *syncBuffer) {
	r, out = New(), new(bytes.Buffer)
	// stderr is also the process's default logger while the command runs,
	// which a parallel test's server may write to at any time.
	errb = new(syncBuffer)
	r.Cmd.SetOut(out)
	r.Cmd.SetErr(errb)
	r.Err = errb
	if stdin != nil {
		r.Cmd.SetIn(stdin)
	}
	r.Cmd.SetArgs(args)
	return r, out, errb
}

// inMode runs the command line in one mode (reach: its flags) and fails
// the test unless it exits with code.
func inMode(reach []string) func(t *testing.T, code int, args ...string) result {
	return func(t *testing.T, code int, args ...string) result {
		t.Helper()
		res := execute(t, nil, append(args, reach...)...)
		if res.code != code {
			t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", args, res.code, code, res.out, res.err)
		}
		return res
	}
}

func decode[T any](t *testing.T, res result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(res.out), &v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s\n%s", err, res.out, res.err)
	}
	return v
}

// TestAdminCommands runs every admin command on SQLite and PostgreSQL, in
// both modes: in-process on --db, and remote through a server's agency API
// with the provider's API key, expecting the same answers and exit codes.
func TestAdminCommands(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		{
			// v runs a command on this database and checks its exit code.
			v := inMode(reach)
			show := func(t *testing.T, id string) agency.Detail {
				t.Helper()
				return decode[agency.Detail](t, v(t, 0, "agency", "show", id, "-o", "json"))
			}

			t.Run("agency list and show", func(t *testing.T) {
				list := decode[admin.AgencyPage](t, v(t, 0, "agency", "list", "--output", "json"))
				names := []string{}
				for _, a := range list.Items {
					names = append(names, a.Name)
				}
				if !strings.Contains(strings.Join(names, ","), "Demo Travel") || list.Total != len(list.Items) {
					t.Errorf("agency list: %+v", list)
				}
				if out := v(t, 0, "agency", "list", "--keyword", "blue").out; !strings.Contains(out, "Blue Sky") || strings.Contains(out, "Demo Travel") {
					t.Errorf("agency list --keyword blue:\n%s", out)
				}
				if out := v(t, 0, "agency", "list", "-o", "csv").out; !strings.HasPrefix(out, "id,code,name,") || !strings.Contains(out, "Demo Travel") {
					t.Errorf("agency list csv:\n%s", out)
				}
				if out := v(t, 0, "agency", "list", "-o", "yaml").out; !strings.Contains(out, "name: Demo Travel") {
					t.Errorf("agency list yaml:\n%s", out)
				}
				out := v(t, 0, "agency", "show", "222").out
				for _, want := range []string{"Blue Sky", "Balance:", "Credit limit:", "Available:", "Flight service:"} {
					if !strings.Contains(out, want) {
						t.Errorf("agency show 222 lacks %q:\n%s", want, out)
					}
				}
			})

			t.Run("agency create update block", func(t *testing.T) {
				res := v(t, 0, "agency", "create", "--name", "CLI Travel", "--contact-name", "Ann", "--contact-email", "ann@example.com",
					"--contact-phone", "12345678", "--super-username", "cli-super", "--super-password", "cli-pass-1", "-o", "json")
				created := decode[agency.Detail](t, res)
				if created.Name != "CLI Travel" || created.ParentID == nil {
					t.Fatalf("created: %+v", created)
				}
				id := itoa(created.ID)
				v(t, 0, "agency", "update", id, "--alias", "CLI")
				if d := show(t, id); d.Alias != "CLI" || d.Name != "CLI Travel" || d.ContactEmail != "ann@example.com" {
					t.Errorf("after update: %+v", d.Summary)
				}
				// Blocking asks first, as the money commands do: a script
				// must say --yes, and --dry-run changes nothing.
				if res := v(t, 2, "agency", "block", id); !strings.Contains(res.err, "--yes") {
					t.Errorf("block without --yes: %+v", res)
				}
				if res := v(t, 0, "agency", "block", id, "--dry-run"); !strings.Contains(res.out, "active -> blocked") || !strings.Contains(res.out, dryRunNote) {
					t.Errorf("block --dry-run: %+v", res)
				}
				if d := show(t, id); d.Status != agency.StatusActive {
					t.Errorf("after block without --yes and with --dry-run: %s", d.Status)
				}
				v(t, 0, "agency", "block", id, "--yes")
				if d := show(t, id); d.Status != agency.StatusBlocked {
					t.Errorf("after block: %s", d.Status)
				}
				v(t, 0, "agency", "unblock", id, "-y")
				if d := show(t, id); d.Status != agency.StatusActive {
					t.Errorf("after unblock: %s", d.Status)
				}
				v(t, 2, "agency", "create", "--name", "Bad", "--contact-name", "Ann", "--contact-email", "not-an-email",
					"--contact-phone", "12345678", "--super-username", "bad-super")
			})

			t.Run("agency channels", func(t *testing.T) {
				if out := v(t, 0, "agency", "channels", "222").out; !strings.Contains(out, "Payment channels:") || !strings.Contains(out, "all the server has") {
					t.Errorf("agency channels 222:\n%s", out)
				}
				cases := []struct {
					args []string
					code int
					want []string // nil: every channel
				}{
					{[]string{"--only", "alipay,stripe"}, 0, []string{"stripe", "alipay"}},
					{[]string{"--only", "alipay,paypal"}, 2, []string{"stripe", "alipay"}}, // refused: unchanged
					{[]string{"--all", "--wallet-only"}, 2, []string{"stripe", "alipay"}},
					{[]string{"--wallet-only"}, 0, []string{}},
					{[]string{"--all"}, 0, nil},
				}
				for _, c := range cases {
					v(t, c.code, append([]string{"agency", "channels", "222"}, c.args...)...)
					got := show(t, "222").Config.Settings.PaymentChannels
					if (got == nil) != (c.want == nil) || strings.Join(got, ",") != strings.Join(c.want, ",") {
						t.Errorf("after agency channels 222 %v: %v, want %v", c.args, got, c.want)
					}
				}
			})

			t.Run("credit set", func(t *testing.T) {
				out := v(t, 0, "credit", "set", "--agency", "222", "--limit", "999", "--dry-run").out
				if !strings.Contains(out, "0.00 -> 999.00") || !strings.Contains(out, "dry run") {
					t.Errorf("dry run:\n%s", out)
				}
				if d := show(t, "222"); d.CreditLimit != "0.00" {
					t.Fatalf("a dry run changed the credit limit: %s", d.CreditLimit)
				}
				v(t, 0, "credit", "set", "--agency", "222", "--limit", "1234.50", "--period", "30", "--unit", "day", "--yes")
				d := show(t, "222")
				if d.CreditLimit != "1234.50" || d.Available != "1234.50" || d.CreditPeriod != 30 || d.CreditPeriodUnit != "day" {
					t.Errorf("after credit set: %+v period %d %s", d.Summary, d.CreditPeriod, d.CreditPeriodUnit)
				}
				v(t, 2, "credit", "set", "--agency", "222", "--limit", "-5", "--yes")
				// Each refusal says what is wrong with the amount.
				for limit, want := range map[string]string{"1.005": "--limit 1.005: CNY allows at most 2 decimal places",
					"1e5": "--limit 1e5: Enter the amount as a plain number, such as 1234.50", "-5": "--limit -5: The amount cannot be negative"} {
					if res := v(t, 2, "credit", "set", "--agency", "222", "--limit", limit, "--yes"); !strings.Contains(res.err, want) {
						t.Errorf("credit set --limit %s: %q, want %q", limit, res.err, want)
					}
				}
				v(t, 2, "credit", "set", "--agency", "222", "--limit", "5", "--unit", "fortnight", "--yes")
				v(t, 3, "credit", "set", "--agency", "424242", "--limit", "5", "--yes")
			})

			t.Run("funds add", func(t *testing.T) {
				add := []string{"funds", "add", "--agency", "2", "--currency", "CNY", "--reference", "BANK-1", "--idempotency-key", "cli-topup-1"}
				plan := decode[fundsPlan](t, v(t, 0, append(add, "--amount", "90", "--amount-received", "100", "--fee-percent", "10", "--dry-run", "-o", "json")...))
				if !plan.DryRun || plan.Credited != "90.00" || plan.Fee != "10.00" || plan.NewBalance != "90.00" || plan.KeyUsed {
					t.Errorf("dry run plan: %+v", plan)
				}
				if d := show(t, "2"); d.Balance != "0.00" {
					t.Fatalf("a dry run moved money: %s", d.Balance)
				}
				v(t, 2, append(add, "--amount", "80", "--amount-received", "100", "--fee-percent", "10", "--dry-run")...)

				// No terminal to confirm on and no --yes: refused, nothing moves.
				if res := v(t, 2, append(add, "--amount", "100")...); !strings.Contains(res.err, "stdin is not a terminal") || !strings.Contains(res.err, "--yes") {
					t.Errorf("a money move without --yes: %q", res.err)
				}
				if d := show(t, "2"); d.Balance != "0.00" {
					t.Fatalf("an unconfirmed top-up moved money: %s", d.Balance)
				}
				add = append(append([]string{}, add...), "--yes")

				first := decode[ledger.TopUpResult](t, v(t, 0, append(add, "--amount", "100", "-o", "json")...))
				second := v(t, 0, append(add, "--amount", "100")...)
				if first.Replayed || first.Credited != "100.00" || first.Balance != "100.00" {
					t.Errorf("first top-up: %+v", first)
				}
				if !strings.Contains(second.out, "replayed") || !strings.Contains(second.out, "Transfer:  "+itoa(first.TransferID)) {
					t.Errorf("second top-up:\n%s", second.out)
				}
				if d := show(t, "2"); d.Balance != "100.00" {
					t.Errorf("balance after a replay: %s", d.Balance)
				}
				res := v(t, 4, append(add, "--amount", "150")...)
				if !strings.Contains(res.err, "voyage:") || !strings.Contains(res.err, "[code 100009]") {
					t.Errorf("mismatch stderr: %s", res.err)
				}
				if out := v(t, 0, append(add, "--amount", "100", "--dry-run")...).out; !strings.Contains(out, "already used") {
					t.Errorf("dry run of a used key:\n%s", out)
				}

				fx := decode[ledger.TopUpResult](t, v(t, 0, "funds", "add", "--agency", "2", "--currency", "CNY", "--currency-received", "USD",
					"--amount-received", "10", "--rate", "7.1", "--amount", "71", "--reference", "BANK-2", "--idempotency-key", "cli-topup-2", "--yes", "-o", "json"))
				if fx.Credited != "71.00" || fx.Balance != "171.00" {
					t.Errorf("fx top-up: %+v", fx)
				}
				v(t, 2, "funds", "add", "--agency", "2", "--currency", "CNY", "--reference", "R", "--idempotency-key", "k")
				v(t, 3, "funds", "add", "--agency", "424242", "--amount", "1", "--currency", "CNY", "--reference", "R", "--idempotency-key", "k")
			})

			t.Run("confirmation", func(t *testing.T) {
				args := []string{"funds", "add", "--agency", "3", "--amount", "5", "--currency", "CNY", "--reference", "R",
					"--idempotency-key", "cli-confirm"}
				args = append(args, reach...)
				res := execute(t, terminal{strings.NewReader("n\n")}, args...)
				if res.code != 1 || !strings.Contains(res.err, "[y/N]") || !strings.Contains(res.err, "aborted") {
					t.Errorf("declined: %+v", res)
				}
				if d := show(t, "3"); d.Balance != "0.00" {
					t.Fatalf("a declined top-up moved money: %s", d.Balance)
				}
				if res := execute(t, terminal{strings.NewReader("y\n")}, args...); res.code != 0 {
					t.Errorf("accepted: %+v", res)
				}
				if d := show(t, "3"); d.Balance != "5.00" {
					t.Errorf("balance after the accepted top-up: %s", d.Balance)
				}
				if res := execute(t, nil, append(args, "--yes")...); res.code != 0 || strings.Contains(res.err, "[y/N]") {
					t.Errorf("--yes: %+v", res)
				}
			})

			t.Run("apikey", func(t *testing.T) {
				res := v(t, 0, "apikey", "create", "--agency", "222", "--name", "ci", "--role", "operator")
				if !strings.Contains(res.out, "shown only now") || !strings.Contains(res.out, "Key:") {
					t.Errorf("create:\n%s", res.out)
				}
				created := decode[struct {
					ID     int64    `json:"id"`
					Prefix string   `json:"prefix"`
					Key    string   `json:"key"`
					Roles  []string `json:"roles"`
				}](t, v(t, 0, "apikey", "create", "--agency", "222", "-o", "json"))
				if !strings.HasPrefix(created.Key, created.Prefix+"_") || len(created.Roles) != 2 {
					t.Errorf("create json: %+v", created)
				}
				keys := decode[[]auth.APIKey](t, v(t, 0, "apikey", "list", "--agency", "222", "-o", "json"))
				if len(keys) != 2 || keys[0].Prefix != created.Prefix || keys[0].RevokedAt != nil {
					t.Fatalf("list: %+v", keys)
				}
				if out := v(t, 0, "apikey", "list", "--agency", "222").out; !strings.Contains(out, created.Prefix) || strings.Contains(out, created.Key) {
					t.Errorf("list table:\n%s", out)
				}
				v(t, 2, "apikey", "revoke", "--agency", "222", itoa(created.ID))
				v(t, 0, "apikey", "revoke", "--agency", "222", itoa(created.ID), "--dry-run")
				if keys = decode[[]auth.APIKey](t, v(t, 0, "apikey", "list", "--agency", "222", "-o", "json")); keys[0].RevokedAt != nil {
					t.Fatalf("revoked without --yes or on --dry-run: %+v", keys[0])
				}
				v(t, 0, "apikey", "revoke", "--agency", "222", itoa(created.ID), "-y")
				keys = decode[[]auth.APIKey](t, v(t, 0, "apikey", "list", "--agency", "222", "-o", "json"))
				if keys[0].RevokedAt == nil {
					t.Errorf("not revoked: %+v", keys[0])
				}
				v(t, 3, "apikey", "revoke", "--agency", "222", itoa(created.ID), "--yes")
				v(t, 3, "apikey", "revoke", "--agency", "2", itoa(keys[1].ID), "--yes") // another agency's key
				v(t, 2, "apikey", "create", "--agency", "222", "--role", "pilot")
				v(t, 3, "apikey", "list", "--agency", "424242")
			})

			t.Run("user", func(t *testing.T) {
				type userPage struct {
					Items []admin.ManagedUser `json:"items"`
					Total int                 `json:"total"`
				}
				before := decode[userPage](t, v(t, 0, "user", "list", "--agency", "222", "-o", "json"))
				u := decode[admin.ManagedUser](t, v(t, 0, "user", "create", "--agency", "222", "--username", "cli.operator", "--email", "op@example.com",
					"--role", "operator", "--role", "finance", "--password", "cli-pass-1", "-o", "json"))
				if u.AgencyID != 222 || u.Status != "active" || len(u.Role) != 2 {
					t.Errorf("created: %+v", u)
				}
				after := decode[userPage](t, v(t, 0, "user", "list", "--agency", "222", "-o", "json"))
				if after.Total != before.Total+1 {
					t.Errorf("user list: %d then %d", before.Total, after.Total)
				}
				if out := v(t, 0, "user", "create", "--agency", "222", "--username", "cli.gen", "--email", "gen@example.com", "--role", "operator").out; !strings.Contains(out, "shown only now") {
					t.Errorf("generated password:\n%s", out)
				}
				v(t, 2, "user", "disable", "--agency", "222", itoa(u.ID))
				if plan := v(t, 0, "user", "disable", "--agency", "222", itoa(u.ID), "--dry-run").out; !strings.Contains(plan, "active -> inactive") {
					t.Errorf("disable --dry-run:\n%s", plan)
				}
				disabled := decode[admin.ManagedUser](t, v(t, 0, "user", "disable", "--agency", "222", itoa(u.ID), "-o", "json", "-y"))
				if disabled.Status != "inactive" {
					t.Errorf("disabled: %+v", disabled)
				}
				var super admin.ManagedUser
				for _, x := range after.Items {
					if x.IsSuperAdmin {
						super = x
					}
				}
				v(t, 2, "user", "disable", "--agency", "222", itoa(super.ID), "--yes") // never the super admin
				v(t, 3, "user", "disable", "--agency", "2", itoa(u.ID), "--yes")       // a user of another agency
				v(t, 2, "user", "create", "--agency", "222", "--username", "x", "--email", "x@example.com", "--role", "operator")
				v(t, 3, "user", "list", "--agency", "424242")
			})

			t.Run("rates", func(t *testing.T) {
				v(t, 2, "rates", "set", "USD", "7.5")
				if plan := v(t, 0, "rates", "set", "USD", "7.5", "--dry-run").out; !strings.Contains(plan, "-> 7.5") {
					t.Errorf("rates set --dry-run:\n%s", plan)
				}
				if cur := v(t, 0, "rates", "list", "--currency", "usd", "-o", "json").out; strings.Contains(cur, `"7.5"`) {
					t.Errorf("the rate changed without --yes or on --dry-run:\n%s", cur)
				}
				v(t, 0, "rates", "set", "USD", "7.5", "--yes")
				hist := decode[[]struct {
					Currency string `json:"currency"`
					Rate     string `json:"rate"`
				}](t, v(t, 0, "rates", "list", "--currency", "usd", "-o", "json"))
				if len(hist) < 2 || hist[0].Rate != "7.5" {
					t.Errorf("history: %+v", hist)
				}
				if out := v(t, 0, "rates", "list").out; !strings.Contains(out, "USD") || !strings.Contains(out, "7.5") {
					t.Errorf("rates list:\n%s", out)
				}
				v(t, 2, "rates", "set", "XXX", "1")
				v(t, 2, "rates", "set", "USD", "-1")
				v(t, 3, "rates", "list", "--currency", "XXX")
			})

			t.Run("usage and not found", func(t *testing.T) {
				v(t, 3, "agency", "show", "424242")
				v(t, 3, "agency", "block", "1", "--yes") // the provider itself is nobody's to manage
				v(t, 2, "agency", "list", "--bogus")
				v(t, 2, "agency", "show")
				v(t, 2, "agency", "show", "abc")
				v(t, 2, "agency", "list", "-o", "xml")
				v(t, 2, "credit", "set", "--agency", "222")
				v(t, 2, "apikey", "revoke", "--agency", "222")
				v(t, 2, "agency", "frobnicate")
			})
		}
	})
}

func TestExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, ExitOK},
		{"plain", errors.New("boom"), ExitError},
		{"usage", usageErr(errors.New("bad")), ExitUsage},
		{"validation", fault.Validation(map[string]string{"x": "y"}), ExitUsage},
		{"not found", fault.NotFound(""), ExitNotFound},
		{"conflict", fault.Conflict("ledger.error.idempotencyMismatch"), ExitConflict},
		{"insufficient", fault.New(fault.CodeInsufficientFund, 422, "ledger.error.insufficient"), ExitInsufficient},
		{"wrapped insufficient", fmt.Errorf("ledger: %w", fault.New(fault.CodeInsufficientFund, 422, "ledger.error.insufficient")), ExitInsufficient},
		{"explained", describe(fault.NotFound("")), ExitNotFound},
		{"described", describe(fault.Conflict("ledger.error.idempotencyMismatch")), ExitConflict},
		{"internal", fault.Internal(errors.New("db down")), ExitError},
		{"cobra unknown flag", errors.New("unknown flag: --x"), ExitUsage},
		{"cobra required", errors.New(`required flag(s) "agency" not set`), ExitUsage},
		{"aborted", errAborted, ExitError},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("%s: exitCode = %d, want %d", tt.name, got, tt.want)
		}
	}
}
