package docs

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
)

// A statement is written on its agency's clock and says which (issue 20):
// the CSV header and the XLSX cells and summary, the PDF's times and
// summary, for an agency in Asia/Shanghai.
func TestStatementInAgencyZone(t *testing.T) {
	t.Parallel()
	s := sample(i18n.EN, false)
	s.Zone = display.ResolveZone("", "Asia/Shanghai")

	var buf bytes.Buffer
	if err := WriteCSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(buf.Bytes(), []byte(utf8BOM)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0] != "Payment time (Asia/Shanghai)" || rows[1][0] != "2026-10-01 09:00:00" || rows[2][0] != "2026-10-03 08:00:00" {
		t.Fatalf("CSV times: %v / %v / %v", rows[0][0], rows[1][0], rows[2][0])
	}

	buf.Reset()
	if err := WriteXLSX(&buf, s); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	sheets := f.GetSheetList()
	cells, err := f.GetRows(sheets[0])
	if err != nil {
		t.Fatal(err)
	}
	if cells[0][0] != "Payment time (Asia/Shanghai)" || cells[1][0] != "2026-10-01 09:00:00" {
		t.Errorf("XLSX times: %v / %v", cells[0][0], cells[1][0])
	}
	summary, err := f.GetRows(sheets[1])
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range summary {
		if len(r) == 2 && r[0] == s.T("finance.timezone") {
			found = r[1] == "Asia/Shanghai (UTC+8)"
			if !found {
				t.Errorf("XLSX time zone line = %v", r)
			}
		}
	}
	if !found {
		t.Errorf("no time zone line in the XLSX summary: %v", summary)
	}

	buf.Reset()
	if err := writeStatementPDF(&buf, s, false); err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, buf.String())
	wantInPDFText(t, text, "2026-10-01 09:00 CST", "2026-10-03 08:00 CST", "Asia/Shanghai (UTC+8)")
	if strings.Contains(text, " UTC\n") || strings.Contains(text, ": UTC") {
		t.Errorf("the PDF still says UTC:\n%s", text)
	}
}
