package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/display"
)

func TestStatementsCommands(t *testing.T) {
	t.Parallel()
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
			// Today on the demo agencies' clock (the default zone), whose
			// days the dates are.
			today := time.Now().In(display.ResolveZone("", "")).Format(time.DateOnly)
			// From the first of this year: a statement covers at most 366
			// days, so a fixed first day would be refused a year on.
			from := today[:4] + "-01-01"

			res := run("statements", "create", "--agency", "222", "--from", from, "--to", today, "-o", "json")
			var line statementLine
			if res.code != 0 || json.Unmarshal([]byte(res.out), &line) != nil || line.Closing != "1250.50" || line.Entries != 2 || line.StatementID == 0 {
				t.Fatalf("create: %+v", res)
			}

			// The same period again (a retried run): the same statement.
			res = run("statements", "create", "--agency", "222", "--from", from, "--to", today, "-o", "json")
			var repeat statementLine
			if res.code != 0 || json.Unmarshal([]byte(res.out), &repeat) != nil || repeat.StatementID != line.StatementID {
				t.Fatalf("create again: %+v, want statement %d", res, line.StatementID)
			}

			out := t.TempDir()
			// Only Blue Sky has a statement for the period: without --create
			// the export names the agency that has none and writes nothing new.
			res = run("statements", "export", "--all", "--from", from, "--to", today, "--format", "csv", "--out", out, "-o", "json")
			if res.code == 0 || !strings.Contains(res.err, "has no statement for "+from) || !strings.Contains(res.err, "--create") {
				t.Fatalf("export without --create: %+v", res)
			}
			jsonLines := func(out string) []statementLine {
				var lines []statementLine
				sc := bufio.NewScanner(strings.NewReader(out))
				for sc.Scan() {
					var l statementLine
					if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
						t.Fatalf("not JSON lines: %v\n%s", err, out)
					}
					lines = append(lines, l)
				}
				return lines
			}
			res = run("statements", "export", "--agency", "222", "--from", from, "--to", today, "--format", "csv", "--out", out, "-o", "json")
			if got := jsonLines(res.out); res.code != 0 || len(got) != 1 || got[0].StatementID != line.StatementID {
				t.Fatalf("export of the existing statement %d: %+v", line.StatementID, res)
			}
			res = run("statements", "export", "--all", "--from", from, "--to", today, "--format", "csv", "--out", out, "-o", "json", "--create")
			if res.code != 0 {
				t.Fatalf("export --create: %+v", res)
			}
			lines := jsonLines(res.out)
			// Run again: the same statements, no new copies.
			res = run("statements", "export", "--all", "--from", from, "--to", today, "--format", "csv", "--out", out, "-o", "json")
			again := jsonLines(res.out)
			if res.code != 0 || len(again) != len(lines) {
				t.Fatalf("second export: %+v", res)
			}
			for i := range again {
				if again[i].StatementID != lines[i].StatementID {
					t.Errorf("second export made a new statement: %+v, then %+v", lines[i], again[i])
				}
				if again[i].AgencyID == 222 && again[i].StatementID != line.StatementID {
					t.Errorf("Blue Sky's export is statement %d, not the one created (%d)", again[i].StatementID, line.StatementID)
				}
			}
			// The provider's agencies: Demo Travel, its sub-agency, Blue Sky,
			// and the living demo agency Harbour Travel with its sub-agency.
			if len(lines) != 5 {
				t.Fatalf("exported %d agencies: %s", len(lines), res.out)
			}
			files, _ := os.ReadDir(out)
			if len(files) != 5 {
				t.Errorf("%d files in %s", len(files), out)
			}
			for _, l := range lines {
				b, err := os.ReadFile(l.File)
				if err != nil || filepath.Dir(l.File) != out {
					t.Fatalf("file %s: %v", l.File, err)
				}
				if want := "statement-" + l.Code + "-" + strings.ReplaceAll(from, "-", "") + "-" + strings.ReplaceAll(today, "-", "") + ".csv"; filepath.Base(l.File) != want {
					t.Errorf("file %s, want %s (the portal's name)", l.File, want)
				}
				if !strings.HasPrefix(string(b), "\ufeff") {
					t.Errorf("%s has no byte-order mark", l.File)
				}
				// Each agency's file in its own language: Harbour Kids
				// reads Traditional Chinese, the others English.
				wantLang, heading := "en", "Payment time (UTC+08:00 Asia/Shanghai)"
				if l.Agency == "Harbour Kids Travel" {
					wantLang, heading = "zh-tw", "支付時間 (UTC+08:00 Asia/Shanghai)"
				}
				if l.Lang != wantLang || !strings.Contains(string(b), heading) {
					t.Errorf("%s's file is in %q, want %s with the heading %q:\n%.200s", l.Agency, l.Lang, wantLang, heading, b)
				}
				if l.AgencyID == 222 && (!strings.Contains(string(b), "WIRE-B") || !strings.Contains(string(b), "1250.50")) {
					t.Errorf("Blue Sky's statement:\n%s", b)
				}
			}

			res = run("statements", "export", "--agency", "222", "--from", from, "--to", today, "--format", "pdf", "--out", out, "--lang", "zh-tw")
			if res.code != 0 || !strings.Contains(res.out, "1 statement (2 entries) exported") {
				t.Errorf("pdf export: %+v", res)
			}

			for _, bad := range [][]string{
				{"statements", "export", "--from", from, "--to", today},                             // neither --agency nor --all
				{"statements", "export", "--all", "--from", "2026-02-01", "--to", "2026-01-01"},     // backwards
				{"statements", "export", "--all", "--from", from, "--to", today, "--format", "doc"}, // format
				{"statements", "export", "--all", "--from", from, "--to", today, "--lang", "fr"},    // language
			} {
				if res := run(bad...); res.code != 2 {
					t.Errorf("%v: exit %d, want 2 (%s)", bad, res.code, res.err)
				}
			}
			if res := run("statements", "create", "--agency", "424242", "--from", from, "--to", today); res.code != 3 {
				t.Errorf("unknown agency: exit %d", res.code)
			}
		}
	})
}
