package docs

import (
	_ "embed"
	"fmt"
	"io"

	"github.com/signintech/gopdf"
)

// siteLogo is the site's logo (pkg/web/static/logo.svg) as a 128×128 PNG:
// gopdf draws no SVG. It was made once with librsvg's
// `rsvg-convert -w 128 -h 128 pkg/web/static/logo.svg -o pkg/docs/images/logo.png`;
// make it again the same way when the logo changes.
//
//go:embed images/logo.png
var siteLogo []byte

// logoSize is the logo's side in the letterhead, in points.
const logoSize = 20.0

// WritePDF writes the statement as an A4 landscape PDF in the reader's
// language.
func WritePDF(w io.Writer, s Statement) error {
	return writeStatementPDF(w, s, true)
}

// statementLayout is where the statement's parts go on A4 landscape, in
// points.
const (
	stMargin    = 36.0
	stLineH     = 16.0
	stTableTop  = stMargin + 112 // below the letterhead, title and summary (three lines: a provisional statement says so)
	stFooterGap = 18.0
)

// statementPages splits rows table rows (entries and the totals row) over
// pages: perFirst fit below the summary, perPage on each later page under
// the repeated header. Both passes (numbering and drawing) use it, so "Page
// n of m" is right before the last page is drawn.
func statementPages(rows int) (perFirst, perPage, pages int) {
	bottom := gopdf.PageSizeA4Landscape.H - stMargin - stFooterGap
	perFirst = int((bottom - stTableTop - stLineH) / stLineH)
	perPage = int((bottom - stMargin - stLineH) / stLineH)
	pages = 1
	if rows > perFirst {
		pages += (rows - perFirst + perPage - 1) / perPage
	}
	return perFirst, perPage, pages
}

// writeStatementPDF writes the statement as a PDF; tests turn compression
// off to read the text back.
func writeStatementPDF(w io.Writer, s Statement, compress bool) error {
	p, err := newPDF(*gopdf.PageSizeA4Landscape, gopdf.PdfInfo{Title: s.T("statement.title") + " " + s.AgencyName, Creator: "Voyage"}, compress)
	if err != nil {
		return err
	}
	if err := drawStatement(p, s); err != nil {
		return fmt.Errorf("docs: pdf: %w", err)
	}
	if err := p.pdf.Write(w); err != nil {
		return fmt.Errorf("docs: pdf write: %w", err)
	}
	return nil
}

func drawStatement(p *pdfFonts, s Statement) error {
	pdf := p.pdf
	pageW, pageH := gopdf.PageSizeA4Landscape.W, gopdf.PageSizeA4Landscape.H
	widths := []float64{110, 85, 85, 105, 175, 100, 100}
	if s.InvoiceType {
		widths = []float64{105, 75, 80, 95, 150, 95, 95, 75}
	}
	// The amount and balance columns are right-aligned, so the decimals line up.
	right := map[int]bool{5: true, 6: true}
	tableW := 0.0
	for _, wd := range widths {
		tableW += wd
	}
	cells := func(vs []string, c rgb) error {
		x, y := stMargin, pdf.GetY()
		for i, v := range vs {
			v = p.fit(v, widths[i]-6, 9)
			tx := x + 3
			if right[i] {
				tx = x + widths[i] - 3 - p.measure(v, 9)
			}
			if err := p.text(tx, y, 9, c, v); err != nil {
				return err
			}
			x += widths[i]
		}
		pdf.SetY(y + stLineH)
		return nil
	}
	band := func(c rgb) {
		pdf.SetFillColor(c.r, c.g, c.b)
		pdf.RectFromUpperLeftWithStyle(stMargin, pdf.GetY()-3, tableW, stLineH, "F")
	}
	header := func() error {
		band(colorHead)
		h := s.header()
		// The summary names the zone; the column keeps its plain title,
		// which its width holds.
		h[0] = s.T("finance.col.time")
		return cells(h, colorAccent)
	}

	rows := make([][]string, 0, len(s.Entries)+1)
	for _, e := range s.Entries {
		r := s.row(e)
		// The heading names the zone (zoneName); an abbreviation here
		// ("CST") would read as another zone abroad.
		r[0] = e.PaidAt.In(s.zone()).Format("2006-01-02 15:04")
		r[5], r[6] = s.grouped(e.Amount), s.grouped(e.BalanceAfter)
		rows = append(rows, r)
	}
	totals := make([]string, len(widths))
	totals[0] = s.T("finance.total")
	totals[4] = s.T("statement.entries", "count", len(s.Entries))
	totals[5], totals[6] = s.grouped(s.total()), s.grouped(s.Info.Closing)
	rows = append(rows, totals)
	perFirst, perPage, pages := statementPages(len(rows))

	page := 0
	newPage := func() error {
		pdf.AddPage()
		page++
		foot := s.Provider
		if foot != "" {
			foot += " · "
		}
		foot += s.AgencyCode + " · " + s.period()
		if err := p.text(stMargin, pageH-stMargin, 8, colorMuted, foot); err != nil {
			return err
		}
		n := s.T("finance.page", "page", page, "pages", pages)
		return p.text(pageW-stMargin-p.measure(n, 8), pageH-stMargin, 8, colorMuted, n)
	}
	if err := newPage(); err != nil {
		return err
	}
	// Letterhead: the site's logo and the provider's name as the site
	// shows it, over a rule.
	logo, err := gopdf.ImageHolderByBytes(siteLogo)
	if err != nil {
		return fmt.Errorf("logo: %w", err)
	}
	if err := pdf.ImageByHolder(logo, stMargin, stMargin-2, &gopdf.Rect{W: logoSize, H: logoSize}); err != nil {
		return fmt.Errorf("logo: %w", err)
	}
	if s.Provider != "" {
		if err := p.text(stMargin+logoSize+8, stMargin, 14, colorAccent, s.Provider); err != nil {
			return err
		}
	}
	pdf.SetStrokeColor(colorRule.r, colorRule.g, colorRule.b)
	pdf.SetLineWidth(1)
	pdf.Line(stMargin, stMargin+22, pageW-stMargin, stMargin+22)
	if err := p.text(stMargin, stMargin+30, 16, colorText, s.T("statement.title")+" — "+s.AgencyName+" ("+s.AgencyCode+")"); err != nil {
		return err
	}
	summary := []string{
		s.T("statement.period") + ": " + s.period() + "    " + s.T("statement.currency") + ": " + s.Info.Currency +
			"    " + s.T("finance.timezone") + ": " + s.zoneName(),
		s.T("statement.opening") + ": " + s.grouped(s.Info.Opening) + "    " + s.T("statement.closing") + ": " + s.grouped(s.Info.Closing) +
			"    " + s.T("statement.entries", "count", len(s.Entries)),
	}
	if note := s.provisionalNote(); note != "" {
		summary = append(summary, note)
	}
	y := stMargin + 56
	for _, l := range summary {
		if err := p.text(stMargin, y, 10, colorText, l); err != nil {
			return err
		}
		y += stLineH
	}
	pdf.SetY(stTableTop)
	if err := header(); err != nil {
		return err
	}
	for i, r := range rows {
		if i == perFirst || (i > perFirst && (i-perFirst)%perPage == 0) {
			if err := newPage(); err != nil {
				return err
			}
			pdf.SetY(stMargin)
			if err := header(); err != nil {
				return err
			}
		}
		c := colorText
		if i == len(rows)-1 {
			band(colorHead)
			c = colorAccent
		}
		if err := cells(r, c); err != nil {
			return err
		}
	}
	return nil
}
