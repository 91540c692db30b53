package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/store/storetest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestAgencyListGolden: columns stay aligned when names are Chinese (two
// terminal columns a character), compared with a golden file.
func TestAgencyListGolden(t *testing.T) {
	t.Parallel()
	page := admin.AgencyPage{Total: 3, Page: 1, PageSize: 20, Items: []agency.Summary{
		{ID: 222, Code: "ASG5DF48", Name: "蓝天旅行社", Status: "active", Currency: "CNY", Balance: "1,250.50", CreditLimit: "0.00", Available: "1,250.50", ContactEmail: "ops@bluesky.example"},
		{ID: 3, Code: "A7ZN3YWP", Name: "Demo Sub Travel", Status: "active", Currency: "CNY", Balance: "0.00", CreditLimit: "50,000.00", Available: "50,000.00", ContactEmail: "sub@demo.example"},
		{ID: 2, Code: "DT000001", Name: "示例國際旅遊有限公司", Status: "blocked", Currency: "HKD", Balance: "-12.00", CreditLimit: "100.00", Available: "88.00"},
	}}
	cmd := &cobra.Command{Use: "list"}
	cmd.Flags().StringP("output", "o", FormatTable, "")
	var out bytes.Buffer
	cmd.SetOut(&out)
	if err := printList(cmd, pageListed(page), "agencies", agencyHeaders, agencyRow); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "agency_list_zh.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("agency list:\n%s\nwant:\n%s", out.String(), want)
	}
	// Every row's STATUS column starts at the same display column.
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	col := -1
	for _, l := range lines {
		for _, w := range []string{"STATUS", "active", "blocked"} {
			if i := strings.Index(l, w); i >= 0 {
				at := runewidth.StringWidth(l[:i])
				if col >= 0 && at != col {
					t.Errorf("status at display column %d, want %d:\n%s", at, col, out.String())
				}
				col = at
				break
			}
		}
	}
}

// executeLogs runs args like execute but without the tests' --log-level,
// to see what an ordinary run prints on stderr.
func executeLogs(t *testing.T, args ...string) result {
	t.Helper()
	return runRoot(context.Background(), nil, args)
}

func TestCommandErrors(t *testing.T) {
	t.Parallel()
	dsn := seededDB(t, string(storetest.Engines[0]))
	missing := filepath.Join(t.TempDir(), "typo.db")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"unknown agency", []string{"agency", "show", "9999", "--db", dsn}, ExitNotFound, []string{"agency 9999 not found"}},
		{"unknown agency flag", []string{"credit", "set", "--agency", "424242", "--limit", "5", "--yes", "--db", dsn}, ExitNotFound, []string{"agency 424242 not found"}},
		{"flag named", []string{"credit", "set", "--agency", "222", "--limit", "-5", "--yes", "--db", dsn}, ExitUsage, []string{"--limit -5: The amount cannot be negative"}},
		{"misspelt verb", []string{"agency", "shw", "1", "--db", dsn}, ExitUsage, []string{`unknown command "shw"`, "Did you mean this?", "show"}},
		{"misspelt noun", []string{"agensy", "list"}, ExitUsage, []string{`unknown command "agensy"`, "Did you mean this?", "agency"}},
		{"mistyped --db", []string{"agency", "list", "--db", missing}, ExitUsage, []string{"no database at " + missing, "voyage migrate up --db " + missing}},
		{"mistyped --db status", []string{"migrate", "status", "--db", missing}, ExitUsage, []string{"no database at"}},
		{"money move without --yes", []string{"funds", "add", "--agency", "222", "--amount", "1", "--currency", "CNY", "--reference", "R",
			"--idempotency-key", "no-yes", "--db", dsn}, ExitUsage, []string{"stdin is not a terminal", "--yes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := execute(t, nil, tt.args...)
			if res.code != tt.code {
				t.Errorf("exit %d, want %d: %+v", res.code, tt.code, res)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.err, w) {
					t.Errorf("stderr %q lacks %q", res.err, w)
				}
			}
		})
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a mistyped --db created %s", missing)
	}
	// migrate up is how a database is made.
	if res := execute(t, nil, "migrate", "up", "--db", missing); res.code != 0 {
		t.Errorf("migrate up on a new file: %+v", res)
	}
}

func TestQuietStderr(t *testing.T) {
	// Not parallel: it reads the process's log, which other tests write to.
	dsn := seededDB(t, string(storetest.Engines[0]))
	res := executeLogs(t, "agency", "list", "--db", dsn)
	if res.code != 0 || res.err != "" {
		t.Errorf("agency list printed on stderr: %+v", res)
	}
	// Migrating a new database logs each migration at INFO: shown with
	// --log-level info, not by default.
	dir := t.TempDir()
	if res := executeLogs(t, "migrate", "up", "--db", filepath.Join(dir, "quiet.db")); res.code != 0 || res.err != "" {
		t.Errorf("migrate up printed on stderr: %+v", res)
	}
	if res := executeLogs(t, "migrate", "up", "--db", filepath.Join(dir, "told.db"), "--log-level", "info"); res.code != 0 ||
		!strings.Contains(res.err, "level=INFO") || !strings.Contains(res.err, "migration applied") {
		t.Errorf("--log-level info shows no log lines: %+v", res)
	}
}

func TestJSONOutput(t *testing.T) {
	t.Parallel()
	dsn := seededDB(t, string(storetest.Engines[0]))
	var version struct{ Version string }
	if res := execute(t, nil, "version", "-o", "json"); res.code != 0 || json.Unmarshal([]byte(res.out), &version) != nil || version.Version == "" {
		t.Errorf("version -o json: %+v", res)
	}
	var migrations []struct {
		Version int64
		State   string
		File    string
	}
	if res := execute(t, nil, "migrate", "status", "-o", "json", "--db", dsn); res.code != 0 || json.Unmarshal([]byte(res.out), &migrations) != nil ||
		len(migrations) == 0 || migrations[0].Version != 1 || migrations[0].State != "applied" {
		t.Errorf("migrate status -o json: %+v", res)
	}
	var seed struct {
		Logins []struct{ Username, Password string }
	}
	if res := execute(t, nil, "demo", "seed", "-o", "json", "--db", dsn); res.code != 0 || json.Unmarshal([]byte(res.out), &seed) != nil ||
		len(seed.Logins) == 0 || seed.Logins[0].Username == "" {
		t.Errorf("demo seed -o json: %+v", res)
	}
	if res := execute(t, nil, "version", "-o", "xml"); res.code != ExitUsage {
		t.Errorf("version -o xml: %+v", res)
	}
}

// TestEveryCommandHasExamples: each runnable command shows how it is used.
func TestEveryCommandHasExamples(t *testing.T) {
	t.Parallel()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && !c.HasSubCommands() && !c.Hidden && c.Name() != "help" && !strings.HasPrefix(c.CommandPath(), "voyage completion") &&
			c.Parent() != nil && c.Example == "" {
			t.Errorf("%s has no example", c.CommandPath())
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(New().Cmd)
}

func TestCompletion(t *testing.T) {
	// Not parallel: it reads the process's log, which other tests write to.
	dsn := seededDB(t, string(storetest.Engines[0]))
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "statements", "export", "--format", ""}, []string{"csv", "xlsx", "pdf"}},
		{[]string{"__complete", "statements", "export", "--lang", "zh"}, []string{"zh-cn", "zh-tw"}},
		{[]string{"__complete", "agency", "list", "-o", ""}, []string{"table", "json", "yaml", "csv"}},
		{[]string{"__complete", "agency", "show", "--db", dsn, "22"}, []string{"222\tBlue Sky Travel"}},
		{[]string{"__complete", "credit", "set", "--db", dsn, "--agency", ""}, []string{"222\tBlue Sky Travel", "3\tDemo Sub Travel"}},
	}
	for _, tt := range tests {
		res := executeLogs(t, tt.args...)
		for _, w := range tt.want {
			if !strings.Contains(res.out, w) {
				t.Errorf("%v: %q lacks %q", tt.args[1:], res.out, w)
			}
		}
	}
}
