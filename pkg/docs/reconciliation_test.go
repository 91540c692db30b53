package docs

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/payment"
)

func reconSample(lang string, truncated bool) Reconciliation {
	cat := i18n.MustLoad()
	loc, _ := time.LoadLocation("Asia/Shanghai")
	from := time.Date(2026, 12, 2, 0, 0, 0, 0, loc)
	rows := []payment.ReconRow{
		{Kind: payment.ReconPayment, Flag: payment.FlagNoLedger, Channel: "wechat-pay", TradeNo: "VY2", Reference: "=HYPERLINK(\"x\")",
			Line: "group", BookingID: 9, Stage: "first", AgencyID: 5, Currency: "CNY", Gross: 2000_00, Fee: 12_00, Net: 1988_00, State: "paid",
			At: from.Add(3 * time.Hour), LedgerKey: "receipt-k2"},
		{Kind: payment.ReconRefund, Flag: payment.FlagMatched, Channel: "alipay", TradeNo: "R1", Reference: "AR1", Line: "flight",
			BookingID: 7, AgencyID: 6, Currency: "CNY", Gross: -40_00, Net: -40_00, State: "done", At: from.Add(7 * time.Hour),
			LedgerKey: "channel-refund-R1", InLedger: true, LedgerAmount: 40_00, LedgerCurrency: "CNY"},
	}
	return Reconciliation{Report: payment.Reconciliation{Date: "2026-12-02", Zone: loc, From: from, To: from.AddDate(0, 0, 1), Rows: rows,
		Totals: []payment.ReconTotal{{Channel: "alipay", Currency: "CNY", Count: 1, Gross: -40_00, Net: -40_00},
			{Channel: "wechat-pay", Currency: "CNY", Count: 1, Gross: 2000_00, Fee: 12_00, Net: 1988_00, Differences: 1}},
		Differences: 1, Truncated: truncated},
		T:        func(key string, args ...any) string { return cat.T(lang, key, args...) },
		Agencies: map[int64]string{5: "示例旅行社"}}
}

// TestReconciliationCSV reads the export as an importer does: a byte-order
// mark, the translated header, one record per row in the report's order,
// all the same width; a cell a spreadsheet would run is quoted; a day
// past the bound ends with its note.
func TestReconciliationCSV(t *testing.T) {
	for _, c := range []struct {
		lang, flag, channel, booking, time string
		truncated                          bool
	}{
		{"en", "No ledger entry", "WeChat Pay", "Group #9 (first deposit)", "Time (Asia/Shanghai)", false},
		{"zh-cn", "无账本记录", "微信支付", "团队票 #9 (首期定金)", "时间 (Asia/Shanghai)", true},
		{"zh-tw", "無帳本紀錄", "微信支付", "團體票 #9 (首期定金)", "時間 (Asia/Shanghai)", false},
	} {
		t.Run(c.lang, func(t *testing.T) {
			r := reconSample(c.lang, c.truncated)
			f, err := ExportReconciliation(CSV, r)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name != "reconciliation-20261202.csv" || f.ContentType != "text/csv; charset=utf-8" {
				t.Errorf("file %s (%s)", f.Name, f.ContentType)
			}
			body, ok := bytes.CutPrefix(f.Body, []byte(utf8BOM))
			if !ok {
				t.Fatal("no byte-order mark")
			}
			rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			want := 3
			if c.truncated {
				want = 4
			}
			if len(rows) != want {
				t.Fatalf("%d records, want %d: %q", len(rows), want, rows)
			}
			if rows[0][13] != c.time || len(rows[0]) != 15 {
				t.Errorf("header %q", rows[0])
			}
			got := rows[1]
			for i, w := range map[int]string{0: c.flag, 2: c.channel, 3: "VY2", 4: `'=HYPERLINK("x")`, 5: c.booking, 6: "示例旅行社 (5)",
				7: "CNY", 8: "2000.00", 9: "12.00", 10: "1988.00", 11: "receipt-k2", 12: "", 13: "2026-12-02 03:00:00"} {
				if got[i] != w {
					t.Errorf("cell %d = %q, want %q", i, got[i], w)
				}
			}
			if refund := rows[2]; refund[8] != "-40.00" || refund[12] != "40.00" || refund[6] != "6" {
				t.Errorf("refund %q", refund)
			}
			if c.truncated && !strings.Contains(rows[3][0], "10,000") {
				t.Errorf("no note of the bound: %q", rows[3])
			}
		})
	}
}

// TestReconciliationXLSX opens the workbook: the rows sheet with numbers
// and dates, and the summary with the totals per channel and currency.
func TestReconciliationXLSX(t *testing.T) {
	f, err := ExportReconciliation(XLSX, reconSample("en", true))
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "reconciliation-20261202.xlsx" {
		t.Errorf("name %s", f.Name)
	}
	x, err := excelize.OpenReader(bytes.NewReader(f.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := x.GetSheetList(); len(got) != 2 || got[0] != "Channel reconciliation" || got[1] != "Summary" {
		t.Fatalf("sheets %q", got)
	}
	rows, err := x.GetRows("Channel reconciliation")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != "Check" || rows[1][0] != "No ledger entry" || rows[2][0] != "Matched" {
		t.Fatalf("rows %q", rows)
	}
	for cell, want := range map[string]string{"I2": "2000", "J2": "12", "K2": "1988", "I3": "-40", "M3": "40"} {
		if v, _ := x.GetCellValue("Channel reconciliation", cell, excelize.Options{RawCellValue: true}); v != want {
			t.Errorf("%s = %q, want %q", cell, v, want)
		}
	}
	if v, _ := x.GetCellValue("Channel reconciliation", "N2"); v != "2026-12-02 03:00:00" {
		t.Errorf("time %q", v)
	}
	sum, err := x.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, r := range sum {
		text += strings.Join(r, "|") + "\n"
	}
	for _, want := range []string{"Day|2026-12-02", "Differences|1", "More than 10,000 transactions on 2026-12-02",
		"Channel|Currency|Count|Gross|Fee|Net|Differences", "WeChat Pay|CNY|1|2,000.00|12.00|1,988.00|1", "Alipay|CNY|1|-40.00|0.00|-40.00|0"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}
