package cli

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestPaymentsReconcile: `voyage payments reconcile` writes a day's
// channel reconciliation as CSV or XLSX, in the language asked, to a file
// or to standard output, and sums it up; a day that is none or a format it
// does not write is a usage error. On both engines.
func TestPaymentsReconcile(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			dsn := seededDB(t, string(d))
			a := apptest.Open(t, dsn)
			paid := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
			if _, err := a.DB.ExecContext(t.Context(), a.DB.Rebind(`INSERT INTO channel_payments (trade_no, payment_key, channel, line,
				booking_id, stage, agency_id, amount, currency, state, reference, fee, expires_at, paid_at, created_at, updated_at)
				VALUES (?, 'cli-lost', 'stripe', 'train', 12, '', 222, 9900, 'USD', 'paid', 'pi_1', 317, ?, ?, ?, ?)`),
				payment.TradeNo("cli-lost"), paid, paid, paid, paid); err != nil {
				t.Fatal(err)
			}

			file := filepath.Join(t.TempDir(), "day.csv")
			res := execute(t, nil, "payments", "reconcile", "--date", "2026-11-20", "-o", file, "--db", dsn)
			if res.code != 0 || !strings.Contains(res.out, "2026-11-20 (Asia/Shanghai): 1 transaction, 1 difference → "+file) ||
				!strings.Contains(res.out, "stripe") || !strings.Contains(res.out, "gross 99.00  fee 3.17  net 95.83  differences 1") {
				t.Fatalf("exit %d\n%s%s", res.code, res.out, res.err)
			}
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(body, []byte("\ufeff")))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 2 || rows[1][0] != "No ledger entry" || rows[1][3] != payment.TradeNo("cli-lost") || rows[1][5] != "Train #12" ||
				!strings.HasSuffix(rows[1][6], "(222)") || rows[1][10] != "95.83" {
				t.Errorf("rows %q", rows)
			}

			res = execute(t, nil, "payments", "reconcile", "--date", "2026-11-20", "--format", "xlsx", "--lang", "zh-tw", "-o", "-", "--db", dsn)
			if res.code != 0 {
				t.Fatalf("xlsx: exit %d\n%s", res.code, res.err)
			}
			x, err := excelize.OpenReader(strings.NewReader(res.out))
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			if v, _ := x.GetCellValue("支付通路對帳", "A2"); v != "無帳本紀錄" {
				t.Errorf("A2 = %q", v)
			}

			for _, bad := range [][]string{{"--date", "2026-11-31"}, {"--date", "20261120"}, {"--format", "pdf"}, {"--lang", "fr"}} {
				res := execute(t, nil, append([]string{"payments", "reconcile", "--db", dsn}, bad...)...)
				if res.code != ExitUsage {
					t.Errorf("%q: exit %d, want %d\n%s", bad, res.code, ExitUsage, res.err)
				}
			}
		})
	}
}
