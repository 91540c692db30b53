package docs

import (
	_ "embed"
	"fmt"

	"github.com/signintech/gopdf"
)

// The PDFs draw text in two embedded fonts, so they render in all three
// interface languages without the host's fonts: Droid Sans Fallback (cjkFont)
// has the Chinese but no Latin letters or digits at all (gopdf would print
// spaces), and DejaVu Sans Condensed has the Latin letters, digits and
// punctuation. Each piece of text is drawn with the font that has its
// glyphs.

//go:embed fonts/DroidSansFallbackFull.ttf
var cjkFont []byte

//go:embed fonts/DejaVuSansCondensed.ttf
var latinFont []byte

const (
	fontLatin = "latin"
	fontCJK   = "cjk"

	// ascent places a line's baseline below its top, as a multiple of the
	// font size; both fonts share it so mixed text sits on one baseline.
	ascent = 0.85
	// probeSize is the font size glyph lookups set the Latin font at.
	probeSize = 10.0
)

type rgb struct{ r, g, b uint8 }

// pdfFonts is a gopdf document with both fonts added, and the text
// drawing that picks between them.
type pdfFonts struct {
	pdf   *gopdf.GoPdf
	latin map[rune]bool // whether the Latin font has a rune's glyph
}

// newPDF starts a document of the page size with both fonts; tests turn
// compression off to read the text back.
func newPDF(page gopdf.Rect, info gopdf.PdfInfo, compress bool) (*pdfFonts, error) {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: page, Unit: gopdf.UnitPT})
	if !compress {
		pdf.SetNoCompression()
	}
	pdf.SetInfo(info)
	if err := pdf.AddTTFFontData(fontLatin, latinFont); err != nil {
		return nil, fmt.Errorf("docs: pdf font: %w", err)
	}
	if err := pdf.AddTTFFontData(fontCJK, cjkFont); err != nil {
		return nil, fmt.Errorf("docs: pdf font: %w", err)
	}
	return &pdfFonts{pdf: pdf, latin: map[rune]bool{}}, nil
}

// text draws s with its top at y, switching fonts between runs.
func (p *pdfFonts) text(x, top, size float64, c rgb, s string) error {
	p.pdf.SetTextColor(c.r, c.g, c.b)
	for _, r := range p.runs(s) {
		if err := p.pdf.SetFont(r.font, "", size); err != nil {
			return err
		}
		p.pdf.SetXY(x, top+ascent*size)
		if err := p.pdf.Text(r.text); err != nil {
			return err
		}
		w, err := p.pdf.MeasureTextWidth(r.text)
		if err != nil {
			return err
		}
		x += w
	}
	return nil
}

// measure is the width of s drawn by text at size.
func (p *pdfFonts) measure(s string, size float64) float64 {
	total := 0.0
	for _, r := range p.runs(s) {
		if p.pdf.SetFont(r.font, "", size) != nil {
			continue
		}
		if w, err := p.pdf.MeasureTextWidth(r.text); err == nil {
			total += w
		}
	}
	return total
}

// fit shortens s with an ellipsis until it fits width at size.
func (p *pdfFonts) fit(s string, width, size float64) string {
	if p.measure(s, size) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if p.measure(string(r)+"…", size) <= width {
			return string(r) + "…"
		}
	}
	return string(r)
}

type fontRun struct{ font, text string }

// runs splits s into pieces each drawn with one font: the Latin font where
// it has the glyph, else the CJK font.
func (p *pdfFonts) runs(s string) []fontRun {
	var out []fontRun
	for _, r := range s {
		f := fontCJK
		if p.hasLatin(r) {
			f = fontLatin
		}
		if n := len(out); n > 0 && out[n-1].font == f {
			out[n-1].text += string(r)
			continue
		}
		out = append(out, fontRun{f, string(r)})
	}
	return out
}

func (p *pdfFonts) hasLatin(r rune) bool {
	if ok, seen := p.latin[r]; seen {
		return ok
	}
	ok := false
	if p.pdf.SetFont(fontLatin, "", probeSize) == nil {
		ok, _ = p.pdf.IsCurrFontContainGlyph(r)
	}
	p.latin[r] = ok
	return ok
}
