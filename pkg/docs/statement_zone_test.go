package docs

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
)

// A statement is written on its agency's clock and says which (issue 20),
// as an offset and an IANA name in every language: "CST" read as US
// Central time abroad. The CSV header and the XLSX cells and summary, the
// PDF's times and summary, for an agency in Asia/Shanghai.
func TestStatementInAgencyZone(t *testing.T) {
	t.Parallel()
	const zone = "UTC+08:00 (Asia/Shanghai)"
	for _, tt := range []struct{ lang, timeCol string }{
		{i18n.EN, "Payment time"}, {i18n.ZhCN, "支付时间"}, {i18n.ZhTW, "支付時間"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			t.Parallel()
			s := sample(tt.lang, false)
			s.Zone = display.ResolveZone("", "Asia/Shanghai")
			heading := tt.timeCol + " (UTC+08:00 Asia/Shanghai)"

			var buf bytes.Buffer
			if err := WriteCSV(&buf, s); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(buf.Bytes(), []byte(utf8BOM)))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if rows[0][0] != heading || rows[1][0] != "2026-10-01 09:00:00" || rows[2][0] != "2026-10-03 08:00:00" {
				t.Fatalf("CSV times: %v / %v / %v", rows[0][0], rows[1][0], rows[2][0])
			}

			f := statementXLSX(t, s)
			sheets := f.GetSheetList()
			cells, err := f.GetRows(sheets[0])
			if err != nil {
				t.Fatal(err)
			}
			if cells[0][0] != heading || cells[1][0] != "2026-10-01 09:00:00" {
				t.Errorf("XLSX times: %v / %v", cells[0][0], cells[1][0])
			}
			summary, err := f.GetRows(sheets[1])
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, r := range summary {
				if len(r) == 2 && r[0] == s.T("finance.timezone") {
					found = r[1] == zone
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
			wantInPDFText(t, text, "2026-10-01 09:00", "2026-10-03 08:00", zone)
			if strings.Contains(text, "CST") || strings.Contains(text, ": UTC\n") {
				t.Errorf("the PDF names the zone by an abbreviation or as UTC:\n%s", text)
			}
		})
	}
}

// TestStatementProvisionalNote: a statement of a period not over says up
// to when its entries run, in the summary of the PDF and the XLSX; a past
// period's says nothing of the kind.
func TestStatementProvisionalNote(t *testing.T) {
	t.Parallel()
	s := sample(i18n.EN, false)
	s.Zone = display.ResolveZone("", "Asia/Shanghai")
	s.Info.Provisional, s.Info.AsOf = true, s.Info.From.Add(72*time.Hour+30*time.Minute)
	const note = "2026-10-04 08:30 UTC+08:00 (Asia/Shanghai)"
	var buf bytes.Buffer
	if err := writeStatementPDF(&buf, s, false); err != nil {
		t.Fatal(err)
	}
	wantInPDFText(t, pdfText(t, buf.String()), note)
	f := statementXLSX(t, s)
	summary, _ := f.GetRows(f.GetSheetList()[1])
	if last := summary[len(summary)-1]; len(last) != 2 || !strings.Contains(last[1], note) {
		t.Errorf("XLSX summary's last line = %v, want the provisional note", last)
	}
	if past := sample(i18n.EN, false); past.provisionalNote() != "" {
		t.Errorf("a past period's note = %q", past.provisionalNote())
	}
}

// TestStatementXLSXPrints: the entries sheet prints on A4 landscape, one
// page wide, with margins and its heading row on every page (page 2 used to
// print without it); the summary on A4 portrait.
func TestStatementXLSXPrints(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{i18n.EN, i18n.ZhCN, i18n.ZhTW} {
		f := statementXLSX(t, sample(lang, true))
		sheets := f.GetSheetList()
		for i, want := range []string{"landscape", "portrait"} {
			l, err := f.GetPageLayout(sheets[i])
			if err != nil {
				t.Fatal(err)
			}
			if l.Size == nil || *l.Size != 9 || l.Orientation == nil || *l.Orientation != want || l.FitToWidth == nil || *l.FitToWidth != 1 ||
				l.FitToHeight == nil || *l.FitToHeight != 0 {
				t.Errorf("%s %s: page layout size %v orientation %v fit %v×%v", lang, sheets[i], deref(l.Size), deref(l.Orientation), deref(l.FitToWidth), deref(l.FitToHeight))
			}
			props, _ := f.GetSheetProps(sheets[i])
			if props.FitToPage == nil || !*props.FitToPage {
				t.Errorf("%s %s: fit to page is off, so the fit is ignored", lang, sheets[i])
			}
			m, _ := f.GetPageMargins(sheets[i])
			if m.Left == nil || *m.Left < 0.4 || m.Top == nil || *m.Top < 0.4 {
				t.Errorf("%s %s: margins %+v", lang, sheets[i], m)
			}
		}
		titles := ""
		for _, d := range f.GetDefinedName() {
			if d.Name == "_xlnm.Print_Titles" && d.Scope == sheets[0] {
				titles = d.RefersTo
			}
		}
		if want := "'" + sheets[0] + "'!$1:$1"; titles != want {
			t.Errorf("%s: print titles %q, want %q", lang, titles, want)
		}
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// statementXLSX writes s as a workbook and opens it.
func statementXLSX(t *testing.T, s Statement) *excelize.File {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteXLSX(&buf, s); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
