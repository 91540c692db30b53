package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStatementsCommands(t *testing.T) {
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		// run is the command line in this mode.
		run := func(args ...string) result {
			t.Helper()
			return execute(t, nil, append(args, reach...)...)
		}
		{
			// Blue Sky (222) receives two top-ups.
			for i, amt := range []string{"1000.00", "250.50"} {
				res := run("funds", "add", "--agency", "222", "--amount", amt, "--currency", "CNY",
					"--reference", "WIRE-"+string(rune('A'+i)), "--idempotency-key", "k"+string(rune('0'+i)), "--yes")
				if res.code != 0 {
					t.Fatalf("funds add: %+v", res)
				}
			}
			today := time.Now().UTC().Format(time.DateOnly)

			res := run("statements", "create", "--agency", "222", "--from", "2026-01-01", "--to", today, "-o", "json")
			var line statementLine
			if res.code != 0 || json.Unmarshal([]byte(res.out), &line) != nil || line.Closing != "1250.50" || line.Entries != 2 || line.StatementID == 0 {
				t.Fatalf("create: %+v", res)
			}

			out := t.TempDir()
			res = run("statements", "export", "--all", "--from", "2026-01-01", "--to", today, "--format", "csv", "--out", out, "-o", "json")
			if res.code != 0 {
				t.Fatalf("export: %+v", res)
			}
			var lines []statementLine
			sc := bufio.NewScanner(strings.NewReader(res.out))
			for sc.Scan() {
				var l statementLine
				if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
					t.Fatalf("not JSON lines: %v\n%s", err, res.out)
				}
				lines = append(lines, l)
			}
			// The provider's agencies: Demo Travel, its sub-agency, Blue Sky.
			if len(lines) != 3 {
				t.Fatalf("exported %d agencies: %s", len(lines), res.out)
			}
			files, _ := os.ReadDir(out)
			if len(files) != 3 {
				t.Errorf("%d files in %s", len(files), out)
			}
			for _, l := range lines {
				b, err := os.ReadFile(l.File)
				if err != nil || filepath.Dir(l.File) != out {
					t.Fatalf("file %s: %v", l.File, err)
				}
				if l.AgencyID == 222 && (!strings.Contains(string(b), "WIRE-B") || !strings.Contains(string(b), "1250.50")) {
					t.Errorf("Blue Sky's statement:\n%s", b)
				}
			}

			res = run("statements", "export", "--agency", "222", "--from", "2026-01-01", "--to", today, "--format", "pdf", "--out", out, "--lang", "zh-tw")
			if res.code != 0 || !strings.Contains(res.out, "1 statements (2 entries) exported") {
				t.Errorf("pdf export: %+v", res)
			}

			for _, bad := range [][]string{
				{"statements", "export", "--from", "2026-01-01", "--to", today},                             // neither --agency nor --all
				{"statements", "export", "--all", "--from", "2026-02-01", "--to", "2026-01-01"},             // backwards
				{"statements", "export", "--all", "--from", "2026-01-01", "--to", today, "--format", "doc"}, // format
			} {
				if res := run(bad...); res.code != 2 {
					t.Errorf("%v: exit %d, want 2 (%s)", bad, res.code, res.err)
				}
			}
			if res := run("statements", "create", "--agency", "424242", "--from", "2026-01-01", "--to", today); res.code != 3 {
				t.Errorf("unknown agency: exit %d", res.code)
			}
		}
	})
}
