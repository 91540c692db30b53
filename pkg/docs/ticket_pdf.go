package docs

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/signintech/gopdf"
)

var (
	colorText    = rgb{33, 37, 41}
	colorMuted   = rgb{108, 117, 125}
	colorAccent  = rgb{31, 59, 115}
	colorRule    = rgb{206, 212, 218}
	colorHead    = rgb{230, 236, 245}
	colorAlert   = rgb{150, 30, 45}
	colorAlertBg = rgb{248, 215, 218}
)

const (
	pageMargin = 40.0
	// leading is the line height as a multiple of the font size.
	leading = 1.35
)

// pdfWriter lays a ticketDoc out on A4 pages, top to bottom; its pdfFonts
// draw and measure the text.
type pdfWriter struct {
	*pdfFonts
	doc    ticketDoc
	y      float64
	page   int
	width  float64
	bottom float64
}

// writeTicketPDF writes d as a PDF; tests turn compression off to read the
// text back.
func writeTicketPDF(w io.Writer, d ticketDoc, compress bool) error {
	fonts, err := newPDF(*gopdf.PageSizeA4, gopdf.PdfInfo{Title: d.footer, Creator: "Voyage"}, compress)
	if err != nil {
		return err
	}
	p := &pdfWriter{pdfFonts: fonts, doc: d,
		width: gopdf.PageSizeA4.W - 2*pageMargin, bottom: gopdf.PageSizeA4.H - pageMargin - 14}
	if err := p.newPage(); err != nil {
		return fmt.Errorf("docs: pdf: %w", err)
	}
	for i, b := range d.blocks {
		if err := p.block(b, i == 0); err != nil {
			return fmt.Errorf("docs: pdf: %w", err)
		}
	}
	if err := p.pdf.Write(w); err != nil {
		return fmt.Errorf("docs: pdf write: %w", err)
	}
	return nil
}

func (p *pdfWriter) newPage() error {
	p.pdf.AddPage()
	p.page++
	p.y = pageMargin
	// The footer goes on as the page opens: the page count is not needed,
	// and it keeps the body's layout free of it.
	y := gopdf.PageSizeA4.H - pageMargin + 2
	p.pdf.SetStrokeColor(colorRule.r, colorRule.g, colorRule.b)
	p.pdf.SetLineWidth(0.5)
	p.pdf.Line(pageMargin, y-6, pageMargin+p.width, y-6)
	if err := p.text(pageMargin, y, 7.5, colorMuted, p.doc.footer); err != nil {
		return err
	}
	n := strconv.Itoa(p.page)
	if p.doc.pageLabel != nil {
		n = p.doc.pageLabel(p.page)
	}
	return p.text(pageMargin+p.width-p.measure(n, 7.5), y, 7.5, colorMuted, n)
}

// ensure starts a new page unless h more points fit on this one.
func (p *pdfWriter) ensure(h float64) (bool, error) {
	if p.y+h <= p.bottom {
		return false, nil
	}
	return true, p.newPage()
}

func (p *pdfWriter) block(b docBlock, first bool) error {
	if b.newPage && !first {
		if err := p.newPage(); err != nil {
			return err
		}
	}
	if b.title != "" {
		if _, err := p.ensure(60); err != nil {
			return err
		}
		if err := p.text(pageMargin, p.y, 18, colorAccent, b.title); err != nil {
			return err
		}
		p.y += 18*leading + 2
		p.rule(colorAccent, 1)
		p.y += 8
	}
	if b.heading != "" {
		// A heading is never left alone at the foot of a page.
		if _, err := p.ensure(11*leading + 40); err != nil {
			return err
		}
		p.y += 6
		if err := p.text(pageMargin, p.y, 11, colorAccent, b.heading); err != nil {
			return err
		}
		p.y += 11*leading + 2
	}
	var err error
	switch {
	case b.amounts:
		err = p.amounts(b.fields)
	case len(b.fields) > 0:
		err = p.fields(b.fields)
	}
	if err != nil {
		return err
	}
	if len(b.cols) > 0 {
		if err := p.table(b.cols, b.rows); err != nil {
			return err
		}
	}
	if b.note != "" {
		if err := p.note(b.note, b.alert); err != nil {
			return err
		}
	}
	p.y += 8
	return nil
}

// fields draws label–value pairs two to a line.
func (p *pdfWriter) fields(fs []docField) error {
	const size = 9.5
	colW := p.width / 2
	labelW := 0.0
	for _, f := range fs {
		labelW = max(labelW, p.measure(f.label, size-1))
	}
	labelW = min(labelW+8, colW*0.5)
	for i := 0; i < len(fs); i += 2 {
		row := fs[i:min(i+2, len(fs))]
		var lines [][]string
		h := 0.0
		for _, f := range row {
			ls := p.wrap(f.value, colW-labelW-8, size)
			ll := p.wrap(f.label, labelW-4, size-1)
			lines = append(lines, ls)
			h = max(h, float64(max(len(ls), len(ll)))*size*leading)
		}
		if _, err := p.ensure(h); err != nil {
			return err
		}
		for j, f := range row {
			x := pageMargin + float64(j)*colW
			if err := p.lines(x, p.y+0.7, size-1, colorMuted, p.wrap(f.label, labelW-4, size-1)); err != nil {
				return err
			}
			vs := size
			if f.bold {
				vs = size + 1
			}
			if err := p.lines(x+labelW, p.y, vs, colorText, lines[j]); err != nil {
				return err
			}
		}
		p.y += h + 2
	}
	return nil
}

// amounts draws one amount a line, right-aligned under each other.
func (p *pdfWriter) amounts(fs []docField) error {
	const boxW = 300.0
	for _, f := range fs {
		size := 9.5
		if f.bold {
			size = 11
		}
		if _, err := p.ensure(size * leading); err != nil {
			return err
		}
		if f.bold {
			p.rule(colorRule, 0.5)
			p.y += 3
		}
		if err := p.text(pageMargin, p.y, size, colorText, f.label); err != nil {
			return err
		}
		if err := p.text(pageMargin+boxW-p.measure(f.value, size), p.y, size, colorText, f.value); err != nil {
			return err
		}
		p.y += size*leading + 1
	}
	return nil
}

func (p *pdfWriter) table(cols []docColumn, rows [][]string) error {
	const size, pad = 8.5, 3.0
	widths := make([]float64, len(cols))
	for i, c := range cols {
		widths[i] = c.share * p.width
	}
	row := func(cells []string, color rgb, fill bool) error {
		wrapped := make([][]string, len(cells))
		h := 0.0
		for i, c := range cells {
			if i >= len(widths) {
				break
			}
			wrapped[i] = p.wrap(c, widths[i]-2*pad, size)
			h = max(h, float64(len(wrapped[i]))*size*leading)
		}
		h += 2 * pad
		if fill {
			p.pdf.SetFillColor(colorHead.r, colorHead.g, colorHead.b)
			p.pdf.RectFromUpperLeftWithStyle(pageMargin, p.y, p.width, h, "F")
		}
		x := pageMargin
		for i := range wrapped {
			if err := p.lines(x+pad, p.y+pad, size, color, wrapped[i]); err != nil {
				return err
			}
			x += widths[i]
		}
		p.y += h
		p.rule(colorRule, 0.5)
		return nil
	}
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.title
	}
	if _, err := p.ensure(40); err != nil {
		return err
	}
	if err := row(header, colorAccent, true); err != nil {
		return err
	}
	for _, r := range rows {
		h := 0.0
		for i, c := range r {
			if i < len(widths) {
				h = max(h, float64(len(p.wrap(c, widths[i]-2*pad, size)))*size*leading)
			}
		}
		paged, err := p.ensure(h + 2*pad)
		if err != nil {
			return err
		}
		if paged {
			if err := row(header, colorAccent, true); err != nil {
				return err
			}
		}
		if err := row(r, colorText, false); err != nil {
			return err
		}
	}
	return nil
}

func (p *pdfWriter) note(s string, alert bool) error {
	size, color, pad := 8.5, colorMuted, 0.0
	if alert {
		size, color, pad = 10, colorAlert, 6
	}
	lines := p.wrap(s, p.width-2*pad, size)
	h := float64(len(lines))*size*leading + 2*pad
	if _, err := p.ensure(h); err != nil {
		return err
	}
	if alert {
		p.pdf.SetFillColor(colorAlertBg.r, colorAlertBg.g, colorAlertBg.b)
		p.pdf.RectFromUpperLeftWithStyle(pageMargin, p.y, p.width, h, "F")
	}
	if err := p.lines(pageMargin+pad, p.y+pad, size, color, lines); err != nil {
		return err
	}
	p.y += h
	return nil
}

func (p *pdfWriter) rule(c rgb, width float64) {
	p.pdf.SetStrokeColor(c.r, c.g, c.b)
	p.pdf.SetLineWidth(width)
	p.pdf.Line(pageMargin, p.y, pageMargin+p.width, p.y)
}

func (p *pdfWriter) lines(x, top, size float64, c rgb, ls []string) error {
	for i, l := range ls {
		if err := p.text(x, top+float64(i)*size*leading, size, c, l); err != nil {
			return err
		}
	}
	return nil
}

// wrap breaks s into lines no wider than width: at spaces, between CJK
// characters, and inside a word only when the word alone is too wide.
func (p *pdfWriter) wrap(s string, width, size float64) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, tok := range tokens(para) {
			if p.measure(line+tok, size) <= width {
				line += tok
				continue
			}
			if strings.TrimSpace(line) != "" {
				out = append(out, strings.TrimRight(line, " "))
			}
			line = strings.TrimLeft(tok, " ")
			for line != "" && p.measure(line, size) > width {
				r := []rune(line)
				n := len(r) - 1
				for n > 1 && p.measure(string(r[:n]), size) > width {
					n--
				}
				out = append(out, string(r[:n]))
				line = string(r[n:])
			}
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// tokens splits text at the places a line may break: spaces are tokens of
// their own, as is each CJK character; other runs of characters are words.
func tokens(s string) []string {
	var out []string
	word := ""
	flush := func() {
		if word != "" {
			out = append(out, word)
			word = ""
		}
	}
	for _, r := range s {
		switch {
		case r == ' ':
			flush()
			out = append(out, " ")
		case r >= 0x2E80 || unicode.Is(unicode.Han, r):
			flush()
			out = append(out, string(r))
		default:
			word += string(r)
		}
	}
	flush()
	return out
}
