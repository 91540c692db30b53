package docs

import (
	"bytes"
	"encoding/csv"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
)

func sample(lang string, invoice bool) Statement {
	cat := i18n.MustLoad()
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	entries := []ledger.Entry{
		{ID: 1, Type: ledger.TypeTopUp, Amount: 1000_00, Currency: "CNY", BalanceAfter: 1200_00, Reference: "HSBC-1", Description: "top-up", PaidAt: from.Add(time.Hour), Detail: "{}"},
		{ID: 2, Type: ledger.TypeOriginFlight, Amount: -350_50, Currency: "CNY", BalanceAfter: 849_50, OrderID: "F100", Description: "北京—伦敦", PaidAt: from.Add(48 * time.Hour), Detail: `{"invoiceType":"Itinerary"}`},
	}
	return Statement{AgencyName: "示例旅行社", AgencyCode: "A2345678", InvoiceType: invoice, Entries: entries,
		Info: ledger.StatementInfo{ID: 7, Currency: "CNY", From: from, To: from.AddDate(0, 1, 0), Opening: 200_00, Closing: 849_50},
		T:    func(key string, args ...any) string { return cat.T(lang, key, args...) }}
}

func TestCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, sample("zh-cn", false)); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(&buf)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	if rows[0][0] != "对账单" || rows[1][1] != "2026-10-01 – 2026-10-31" || rows[3][1] != "200.00" || rows[4][1] != "849.50" {
		t.Errorf("summary rows = %v", rows[:5])
	}
	last := rows[len(rows)-1]
	if last[1] != "机票" || last[2] != "F100" || last[5] != "-350.50" || last[6] != "849.50" || len(last) != 7 {
		t.Errorf("entry row = %v", last)
	}
}

func TestXLSX(t *testing.T) {
	for _, invoice := range []bool{false, true} {
		var buf bytes.Buffer
		if err := WriteXLSX(&buf, sample("en", invoice)); err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenReader(&buf)
		if err != nil {
			t.Fatalf("not XLSX: %v", err)
		}
		rows, err := f.GetRows("Statement")
		if err != nil {
			t.Fatal(err)
		}
		header := rows[6]
		if header[0] != "Payment time" || (len(header) == 8) != invoice {
			t.Errorf("invoice %v: header = %v", invoice, header)
		}
		last := rows[len(rows)-1]
		if last[2] != "F100" || last[5] != "-350.5" {
			t.Errorf("entry row = %v", last)
		}
		if invoice && last[7] != "Itinerary" {
			t.Errorf("invoice type = %v", last)
		}
		f.Close()
	}
}

func TestPDF(t *testing.T) {
	s := sample("zh-tw", true)
	// Enough entries for several pages.
	for i := 0; i < 120; i++ {
		s.Entries = append(s.Entries, s.Entries[1])
	}
	var buf bytes.Buffer
	if err := WritePDF(&buf, s); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "%PDF-") || strings.Count(out, "/FontFile2") != 2 {
		t.Fatalf("not a PDF with both fonts embedded (%d bytes)", buf.Len())
	}
	m := regexp.MustCompile(`/Count (\d+)`).FindStringSubmatch(out)
	if m == nil || m[1] < "3" || len(m[1]) != 1 {
		t.Errorf("page count %v, want 3 to 9 pages for 122 entries", m)
	}
	if buf.Len() > 3<<20 {
		t.Errorf("PDF is %d bytes: the font should be subset", buf.Len())
	}
}

// TestStatementPDFText reads the text back from uncompressed statement PDFs:
// the CJK font has no Latin letters or digits, so the agency code,
// references, dates and amounts must come out of the Latin font and the
// Chinese out of the CJK one.
func TestStatementPDFText(t *testing.T) {
	tests := []struct {
		lang    string
		invoice bool
		want    []string
	}{
		{"zh-cn", false, []string{"对账单 — 示例旅行社 (A2345678)", "期间: 2026-10-01 – 2026-10-31", "期初余额: 200.00", "共 3 笔", "充值", "机票"}},
		{"zh-tw", true, []string{"對帳單 — 示例旅行社 (A2345678)", "共 3 筆", "儲值", "Itinerary", "None"}},
		{"en", false, []string{"Statement — 示例旅行社 (A2345678)", "Opening balance: 200.00", "3 entries", "Top-up", "Flight ticket"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			s := sample(tt.lang, tt.invoice)
			// A description too long for its column is cut with an ellipsis.
			long := s.Entries[1]
			long.Description = strings.Repeat("伦敦往返", 20) + "TAIL"
			s.Entries = append(s.Entries, long)
			var buf bytes.Buffer
			if err := writeStatementPDF(&buf, s, false); err != nil {
				t.Fatal(err)
			}
			text := pdfText(t, buf.String())
			want := append([]string{"示例旅行社", "HSBC-1", "F100", "top-up", "2026-10-03 00:00:00",
				"1000.00", "1200.00", "-350.50", "849.50", "北京—伦敦", "F100伦敦往返伦敦往返", "…-350.50"}, tt.want...)
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("%q not in the PDF text:\n%s", w, text)
				}
			}
			if strings.Contains(text, "TAIL") {
				t.Errorf("the long description is not cut:\n%s", text)
			}
		})
	}
}
