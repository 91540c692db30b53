// Package docs renders documents people download: statements and bills as
// CSV, XLSX (excelize) and PDF (gopdf, with embedded Latin and CJK fonts so
// any of the interface languages renders without the host's fonts; see
// pdftext.go).
package docs

import (
	"fmt"
	"io"
	"time"

	"github.com/signintech/gopdf"
	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
)

// Formats a statement exports to.
const (
	CSV  = "csv"
	XLSX = "xlsx"
	PDF  = "pdf"
)

// Formats lists the statement formats.
var Formats = []string{CSV, XLSX, PDF}

// Write writes a statement in format (CSV, XLSX or PDF).
func Write(w io.Writer, format string, s Statement) error {
	switch format {
	case CSV:
		return WriteCSV(w, s)
	case XLSX:
		return WriteXLSX(w, s)
	case PDF:
		return WritePDF(w, s)
	}
	return fmt.Errorf("docs: unknown format %q", format)
}

// ContentType is the MIME type of format.
func ContentType(format string) string {
	switch format {
	case CSV:
		return "text/csv; charset=utf-8"
	case XLSX:
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	case PDF:
		return "application/pdf"
	}
	return "application/octet-stream"
}

// Translate is the catalog lookup of the reader's language.
type Translate func(key string, args ...any) string

// Statement is what a statement document shows.
type Statement struct {
	AgencyName  string
	AgencyCode  string
	Info        ledger.StatementInfo
	Entries     []ledger.Entry
	InvoiceType bool // the agency's "show invoice type on Excel bill" setting
	T           Translate
}

func (s Statement) amount(v int64) string {
	return money.Amount{Minor: v, Currency: s.Info.Currency}.String()
}

func (s Statement) header() []string {
	h := []string{s.T("statement.col.time"), s.T("statement.col.type"), s.T("statement.col.orderId"), s.T("statement.col.reference"),
		s.T("statement.col.description"), s.T("statement.col.amount"), s.T("statement.col.balance")}
	if s.InvoiceType {
		h = append(h, s.T("statement.col.invoiceType"))
	}
	return h
}

func (s Statement) row(e ledger.Entry) []string {
	r := []string{e.PaidAt.UTC().Format("2006-01-02 15:04:05"), s.T("statement.type." + e.Type), e.OrderID, e.Reference, e.Description,
		s.amount(e.Amount), s.amount(e.BalanceAfter)}
	if s.InvoiceType {
		r = append(r, invoiceType(e))
	}
	return r
}

// invoiceType reads the invoice type an order payment recorded (Bill,
// Itinerary, ItineraryWithBill, None).
func invoiceType(e ledger.Entry) string {
	if t := detailValue(e.Detail, "invoiceType"); t != "" {
		return t
	}
	return "None"
}

func (s Statement) period() string {
	// The period is [from, to); people read the last day inclusively.
	return s.Info.From.UTC().Format(time.DateOnly) + " – " + s.Info.To.UTC().Add(-time.Nanosecond).Format(time.DateOnly)
}

// WriteCSV writes the statement as CSV: a summary block, then the entries.
func WriteCSV(w io.Writer, s Statement) error {
	rows := [][]string{
		{s.T("statement.title"), s.AgencyName, s.AgencyCode},
		{s.T("statement.period"), s.period()},
		{s.T("statement.currency"), s.Info.Currency},
		{s.T("statement.opening"), s.amount(s.Info.Opening)},
		{s.T("statement.closing"), s.amount(s.Info.Closing)},
		{},
		s.header(),
	}
	for _, e := range s.Entries {
		rows = append(rows, s.row(e))
	}
	// Agency names, references and descriptions are typed by people:
	// WriteCSVRows keeps them from running as formulas.
	return WriteCSVRows(w, rows)
}

// WriteXLSX writes the statement as an Excel workbook with the streaming
// writer, so memory does not grow with the number of entries.
func WriteXLSX(w io.Writer, s Statement) error {
	f := excelize.NewFile()
	defer f.Close()
	sheet := "Statement"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return fmt.Errorf("docs: xlsx sheet: %w", err)
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return fmt.Errorf("docs: xlsx stream: %w", err)
	}
	row := 1
	put := func(values ...any) error {
		cell, _ := excelize.CoordinatesToCellName(1, row)
		row++
		return sw.SetRow(cell, values)
	}
	num := func(v int64) any {
		f, _ := money.Amount{Minor: v, Currency: s.Info.Currency}.Decimal().Float64()
		return f
	}
	lines := [][]any{
		{s.T("statement.title"), s.AgencyName, s.AgencyCode},
		{s.T("statement.period"), s.period()},
		{s.T("statement.currency"), s.Info.Currency},
		{s.T("statement.opening"), num(s.Info.Opening)},
		{s.T("statement.closing"), num(s.Info.Closing)},
		{},
	}
	for _, l := range lines {
		if err := put(l...); err != nil {
			return fmt.Errorf("docs: xlsx row: %w", err)
		}
	}
	hdr := []any{}
	for _, h := range s.header() {
		hdr = append(hdr, h)
	}
	if err := put(hdr...); err != nil {
		return fmt.Errorf("docs: xlsx header: %w", err)
	}
	for _, e := range s.Entries {
		r := s.row(e)
		values := []any{r[0], r[1], r[2], r[3], r[4], num(e.Amount), num(e.BalanceAfter)}
		if s.InvoiceType {
			values = append(values, r[7])
		}
		if err := put(values...); err != nil {
			return fmt.Errorf("docs: xlsx row: %w", err)
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("docs: xlsx flush: %w", err)
	}
	if _, err := f.WriteTo(w); err != nil {
		return fmt.Errorf("docs: xlsx write: %w", err)
	}
	return nil
}

// WritePDF writes the statement as an A4 PDF in the reader's language.
func WritePDF(w io.Writer, s Statement) error {
	return writeStatementPDF(w, s, true)
}

// writeStatementPDF writes the statement as a PDF; tests turn compression
// off to read the text back.
func writeStatementPDF(w io.Writer, s Statement, compress bool) error {
	p, err := newPDF(*gopdf.PageSizeA4Landscape, gopdf.PdfInfo{Title: s.T("statement.title") + " " + s.AgencyName, Creator: "Voyage"}, compress)
	if err != nil {
		return err
	}
	pdf := p.pdf
	const margin, lineH = 36.0, 16.0
	widths := []float64{110, 90, 90, 110, 170, 90, 90}
	if s.InvoiceType {
		widths = []float64{100, 80, 80, 100, 150, 80, 80, 100}
	}
	pageH := gopdf.PageSizeA4Landscape.H
	text := func(x, y float64, size float64, v string) error {
		return p.text(x, y, size, colorText, v)
	}
	cells := func(vs []string) error {
		x, y := margin, pdf.GetY()
		for i, v := range vs {
			if err := text(x+2, y, 9, p.fit(v, widths[i]-4, 9)); err != nil {
				return err
			}
			x += widths[i]
		}
		pdf.SetY(y + lineH)
		return nil
	}
	header := func() error {
		total := 0.0
		for _, wd := range widths {
			total += wd
		}
		pdf.SetFillColor(colorHead.r, colorHead.g, colorHead.b)
		pdf.RectFromUpperLeftWithStyle(margin, pdf.GetY()-2, total, lineH, "F")
		return cells(s.header())
	}
	pdf.AddPage()
	if err := text(margin, margin, 16, s.T("statement.title")+" — "+s.AgencyName+" ("+s.AgencyCode+")"); err != nil {
		return fmt.Errorf("docs: pdf: %w", err)
	}
	summary := []string{
		s.T("statement.period") + ": " + s.period() + "    " + s.T("statement.currency") + ": " + s.Info.Currency,
		s.T("statement.opening") + ": " + s.amount(s.Info.Opening) + "    " + s.T("statement.closing") + ": " + s.amount(s.Info.Closing) +
			"    " + s.T("statement.entries", "count", len(s.Entries)),
	}
	y := margin + 28
	for _, l := range summary {
		if err := text(margin, y, 10, l); err != nil {
			return fmt.Errorf("docs: pdf: %w", err)
		}
		y += lineH
	}
	pdf.SetY(y + 8)
	if err := header(); err != nil {
		return fmt.Errorf("docs: pdf: %w", err)
	}
	for _, e := range s.Entries {
		if pdf.GetY()+lineH > pageH-margin {
			pdf.AddPage()
			pdf.SetY(margin)
			if err := header(); err != nil {
				return fmt.Errorf("docs: pdf: %w", err)
			}
		}
		if err := cells(s.row(e)); err != nil {
			return fmt.Errorf("docs: pdf: %w", err)
		}
	}
	if err := pdf.Write(w); err != nil {
		return fmt.Errorf("docs: pdf write: %w", err)
	}
	return nil
}
