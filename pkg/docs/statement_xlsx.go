package docs

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/money"
)

// xlsxDateTime is the number format of the payment times, which are real
// dates in the workbook (sortable, filterable), on the agency's clock as the
// header says.
const xlsxDateTime = "yyyy-mm-dd hh:mm:ss"

// WriteXLSX writes the statement as an Excel workbook: a sheet of entries
// (a styled, frozen header with a filter, times as dates, amounts as
// numbers with thousands separators) and a summary sheet (letterhead,
// period, opening and closing balances, totals), so the entries sheet is a
// clean table for pivot tables and importers.
func WriteXLSX(w io.Writer, s Statement) error {
	f, sheet, st, err := newWorkbook(s.T("statement.title"))
	if err != nil {
		return err
	}
	defer f.Close()
	moneyStyle, err := st.money(s.numFmt(), false)
	if err != nil {
		return err
	}
	totalStyle, err := st.money(s.numFmt(), true)
	if err != nil {
		return err
	}
	dateStyle, err := st.dateTime()
	if err != nil {
		return err
	}
	num := func(v int64) float64 {
		n, _ := money.Amount{Minor: v, Currency: s.Info.Currency}.Decimal().Float64()
		return n
	}

	header := s.header()
	widths, err := putHeading(f, sheet, header)
	if err != nil {
		return err
	}
	for i, e := range s.Entries {
		r := s.row(e)
		values := []any{s.wallClock(e.PaidAt), r[1], r[2], r[3], r[4], num(e.Amount), num(e.BalanceAfter)}
		if s.InvoiceType {
			values = append(values, r[7])
		}
		for c, v := range r {
			widths[c] = max(widths[c], displayWidth(v))
		}
		if err := putRow(f, sheet, i+2, values); err != nil {
			return err
		}
	}
	last := len(s.Entries) + 1
	lastCol, _ := excelize.ColumnNumberToName(len(header))
	cellRange := func(col string) (string, string) { return col + "2", fmt.Sprintf("%s%d", col, last) }
	if err := f.SetCellStyle(sheet, "A1", lastCol+"1", st.head); err != nil {
		return fmt.Errorf("docs: xlsx style: %w", err)
	}
	if len(s.Entries) > 0 {
		from, to := cellRange("A")
		if err := f.SetCellStyle(sheet, from, to, dateStyle); err != nil {
			return fmt.Errorf("docs: xlsx style: %w", err)
		}
		from, _ = cellRange("F")
		_, to = cellRange("G")
		if err := f.SetCellStyle(sheet, from, to, moneyStyle); err != nil {
			return fmt.Errorf("docs: xlsx style: %w", err)
		}
	}
	widths[0] = max(widths[0], len(xlsxDateTime))
	if err := finishTable(f, sheet, widths, last); err != nil {
		return err
	}

	if err := printSetup(f, sheet, "landscape", 1); err != nil {
		return err
	}

	summary := sheetName(s.T("finance.summary"))
	if _, err := f.NewSheet(summary); err != nil {
		return fmt.Errorf("docs: xlsx sheet: %w", err)
	}
	type line struct {
		label string
		value any
		style int
	}
	lines := []line{
		{s.T("finance.provider"), s.Provider, 0},
		{s.T("finance.agency"), s.AgencyName, 0},
		{s.T("finance.agencyCode"), s.AgencyCode, 0},
		{s.T("statement.period"), s.period(), 0},
		{s.T("statement.currency"), s.Info.Currency, 0},
		{s.T("statement.opening"), num(s.Info.Opening), moneyStyle},
		{s.T("finance.total"), num(s.total()), moneyStyle},
		{s.T("statement.closing"), num(s.Info.Closing), totalStyle},
		{s.T("finance.entryCount"), len(s.Entries), 0},
		{s.T("finance.timezone"), s.zoneName(), 0},
	}
	if note := s.provisionalNote(); note != "" {
		lines = append(lines, line{s.T("statement.provisional"), note, 0})
	}
	labelWidth := 0
	for i, l := range lines {
		if err := putRow(f, summary, i+1, []any{l.label, l.value}); err != nil {
			return err
		}
		labelWidth = max(labelWidth, displayWidth(l.label))
		a, _ := excelize.CoordinatesToCellName(1, i+1)
		b, _ := excelize.CoordinatesToCellName(2, i+1)
		if err := f.SetCellStyle(summary, a, a, st.label); err != nil {
			return fmt.Errorf("docs: xlsx style: %w", err)
		}
		if l.style != 0 {
			if err := f.SetCellStyle(summary, b, b, l.style); err != nil {
				return fmt.Errorf("docs: xlsx style: %w", err)
			}
		}
	}
	if err := f.SetColWidth(summary, "A", "A", float64(labelWidth+2)); err != nil {
		return fmt.Errorf("docs: xlsx width: %w", err)
	}
	if err := f.SetColWidth(summary, "B", "B", float64(max(displayWidth(s.AgencyName), displayWidth(s.period()), 16)+2)); err != nil {
		return fmt.Errorf("docs: xlsx width: %w", err)
	}
	if err := printSetup(f, summary, "portrait", 0); err != nil {
		return err
	}
	return writeWorkbook(w, f, excelize.DocProperties{Title: s.T("statement.title") + " " + s.AgencyName, Creator: "Voyage",
		Created: time.Now().UTC().Format(time.RFC3339)})
}

// putRow writes values into row (from 1) of sheet, from column A on.
func putRow(f *excelize.File, sheet string, row int, values []any) error {
	cell, _ := excelize.CoordinatesToCellName(1, row)
	if err := f.SetSheetRow(sheet, cell, &values); err != nil {
		return fmt.Errorf("docs: xlsx row %d: %w", row, err)
	}
	return nil
}

// putHeading writes header as row 1 of sheet and returns the width of
// each heading, for finishTable once the rows have widened them.
func putHeading(f *excelize.File, sheet string, header []string) ([]int, error) {
	widths := make([]int, len(header))
	hdr := make([]any, len(header))
	for i, h := range header {
		hdr[i], widths[i] = h, displayWidth(h)
	}
	return widths, putRow(f, sheet, 1, hdr)
}

// finishTable ends a sheet that is one table under a heading row, rows 1
// to last: each column as wide as its widest cell (widths, in characters,
// kept between 10 and 48), the heading frozen above the rows and a filter
// over them all.
func finishTable(f *excelize.File, sheet string, widths []int, last int) error {
	for c, wd := range widths {
		col, _ := excelize.ColumnNumberToName(c + 1)
		if err := f.SetColWidth(sheet, col, col, float64(min(max(wd+2, 10), 48))); err != nil {
			return fmt.Errorf("docs: xlsx width: %w", err)
		}
	}
	lastCol, _ := excelize.ColumnNumberToName(len(widths))
	// excelize leaves the dimension at A1 unless told; readers that size
	// their grid by it would see one cell.
	if err := f.SetSheetDimension(sheet, fmt.Sprintf("A1:%s%d", lastCol, last)); err != nil {
		return fmt.Errorf("docs: xlsx dimension: %w", err)
	}
	if err := f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return fmt.Errorf("docs: xlsx panes: %w", err)
	}
	if err := f.AutoFilter(sheet, fmt.Sprintf("A1:%s%d", lastCol, last), nil); err != nil {
		return fmt.Errorf("docs: xlsx filter: %w", err)
	}
	return nil
}

// printSetup makes a sheet print as people file it: A4 in orientation, as
// wide as one page (as many pages down as it takes), with margins, and
// the first titleRows rows repeated at the top of every page (page 2 of a
// statement used to print without its column headings).
func printSetup(f *excelize.File, sheet, orientation string, titleRows int) error {
	fit := true
	if err := f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return fmt.Errorf("docs: xlsx print %s: %w", sheet, err)
	}
	a4, wide, tall := 9, 1, 0 // 9 is A4 in the paper size table; 0 pages tall is "as many as needed"
	if err := f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Size: &a4, Orientation: &orientation, FitToWidth: &wide, FitToHeight: &tall}); err != nil {
		return fmt.Errorf("docs: xlsx print %s: %w", sheet, err)
	}
	// Inches, as the format keeps them: about 15 mm round, 20 mm top and
	// bottom for the header and footer, 8 mm from the edge.
	side, edge, header := 0.6, 0.8, 0.3
	centre := true
	if err := f.SetPageMargins(sheet, &excelize.PageLayoutMarginsOptions{Left: &side, Right: &side, Top: &edge, Bottom: &edge,
		Header: &header, Footer: &header, Horizontally: &centre}); err != nil {
		return fmt.Errorf("docs: xlsx margins %s: %w", sheet, err)
	}
	if titleRows == 0 {
		return nil
	}
	err := f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", Scope: sheet,
		RefersTo: fmt.Sprintf("'%s'!$1:$%d", strings.ReplaceAll(sheet, "'", "''"), titleRows)})
	if err != nil {
		return fmt.Errorf("docs: xlsx print titles %s: %w", sheet, err)
	}
	return nil
}
