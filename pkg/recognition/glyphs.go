package recognition

import (
	"bytes"
	"image"
	"math"
	"os"
	"sync"

	gtfont "github.com/go-text/typesetting/font"
	gtot "github.com/go-text/typesetting/font/opentype"

	"github.com/voyage/voyage/pkg/recognition/outline"
)

// Tesseract's model reads some OCR-B pairs by their context more than by
// their shape (G/6, O/0), and the check digit cannot always tell them apart:
// G and 6 differ by ten, and two swaps can cancel. A second opinion that
// knows nothing of language is the shape itself: the character's cell is
// compared with the glyphs of the font the zone is printed in, rendered
// from the installed OCR-B, by normalized correlation.

// ocrbPath is where Debian's fonts-ocr-b puts the font; without it the
// second opinion is skipped.
var ocrbPath = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"

// confusable groups the characters whose shapes Tesseract mixes up.
var confusable = []string{"G6", "O0DQ", "B8", "S5", "I1", "Z2"}

// groupOf is the confusable group holding c, or "".
func groupOf(c byte) string {
	for _, g := range confusable {
		if bytes.IndexByte([]byte(g), c) >= 0 {
			return g
		}
	}
	return ""
}

// Templates are tplH pixels tall (the ink's height) on a tplW-wide field,
// centred; the width keeps the glyph's own proportions, which tell O from 0.
const (
	tplW = 30
	tplH = 32
)

var glyphSet struct {
	once sync.Once
	tpl  map[byte][]float64
	// height is each glyph's height over the mean height of the digits:
	// OCR-B's digits stand taller than its capitals (0 is 126 units to
	// O's 117), which the scaled templates no longer show.
	height map[byte]float64
}

// heightWeight prices, in correlation, a height off the glyph's by the
// whole of a digit's height; O and 0 differ by 7%, which then weighs 0.14.
const heightWeight = 2.0

// templates renders the confusable characters of OCR-B once; nil when the
// font cannot be read.
func templates() map[byte][]float64 {
	glyphSet.once.Do(func() {
		face, err := ocrbFace()
		if err != nil {
			return
		}
		tpl := map[byte][]float64{}
		height := map[byte]float64{}
		digits, n := 0.0, 0.0
		for _, g := range []string{alphanumerics} {
			for _, c := range []byte(g) {
				m := renderGlyph(face, rune(c), 160)
				if m == nil {
					return
				}
				b := inkBounds(m.Bounds(), func(x, y int) bool { return m.AlphaAt(x, y).A >= 128 })
				if b.Empty() {
					return
				}
				tpl[c] = normalizeGlyph(b, func(x, y int) float64 { return float64(m.AlphaAt(x, y).A) / 255 })
				height[c] = float64(b.Dy())
				if isDigit(c) {
					digits += float64(b.Dy())
					n++
				}
			}
		}
		for c := range height {
			height[c] /= digits / n
		}
		glyphSet.tpl, glyphSet.height = tpl, height
	})
	return glyphSet.tpl
}

// ocrbFace reads the OCR-B font.
func ocrbFace() (*gtfont.Face, error) {
	data, err := os.ReadFile(ocrbPath)
	if err != nil {
		return nil, err
	}
	return gtfont.ParseTTF(bytes.NewReader(data))
}

// renderGlyph fills r's outline at size pixels to the em.
func renderGlyph(face *gtfont.Face, r rune, size float32) *image.Alpha {
	scale := size / float32(face.Upem())
	pad := float32(8)
	w, h := int(size+2*pad), int(size*1.3+2*pad)
	return outline.Fill(face, r, w, h, func(p gtot.SegmentPoint) (float32, float32) { return pad + p.X*scale, size + pad - p.Y*scale })
}

// inkBounds is the box of the pixels of r that ink says are ink.
func inkBounds(r image.Rectangle, ink func(x, y int) bool) image.Rectangle {
	out := image.Rectangle{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ink(x, y) {
				out = out.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return out
}

// normalizeGlyph samples the ink in box b (ink(x, y) from 0 to 1) onto the
// template field: scaled to tplH tall, centred, each sample the mean of the
// source pixels it covers.
func normalizeGlyph(b image.Rectangle, ink func(x, y int) float64) []float64 {
	s := float64(b.Dy()) / tplH // source pixels per template pixel
	cx := float64(b.Min.X+b.Max.X) / 2
	out := make([]float64, tplW*tplH)
	for oy := range tplH {
		sy0 := float64(b.Min.Y) + float64(oy)*s
		for ox := range tplW {
			sx0 := cx + (float64(ox)-tplW/2)*s
			sum, n := 0.0, 0.0
			for y := int(math.Floor(sy0)); float64(y) < sy0+s; y++ {
				for x := int(math.Floor(sx0)); float64(x) < sx0+s; x++ {
					if image.Pt(x, y).In(b) {
						sum += ink(x, y)
					}
					n++
				}
			}
			if n > 0 {
				out[oy*tplW+ox] = sum / n
			}
		}
	}
	return out
}

// correlation is the normalized cross-correlation of a and b, from -1 to 1.
func correlation(a, b []float64) float64 {
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var ab, aa, bb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		ab += da * db
		aa += da * da
		bb += db * db
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// shapeVote is what the shape of one cell says among the characters of a
// confusable group: the best-fitting character, and by how much its
// correlation beats that of the character asked about.
type shapeVote struct {
	best   byte
	margin float64
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isDigit(c) || (c >= 'A' && c <= 'Z') }

// alphanumerics are the characters a cell Tesseract was unsure of is
// compared with: its misreadings are not all look-alikes (it reads OCR-B's
// 9 as I, U as V).
const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// judgeCell compares the ink of cell c (its own components in label) with
// the OCR-B glyphs of char's confusable group (of all alphanumerics when
// wide), and its height with theirs when
// digitH, the height of the digits on its line, is known (else 0); ok is
// false when there is nothing to compare (no font, no group, no cell).
func judgeCell(label []int32, w int, c *cell, char byte, digitH float64, wide bool) (shapeVote, bool) {
	tpl := templates()
	g := groupOf(char)
	if wide && isAlnum(char) {
		g = alphanumerics
	}
	if tpl == nil || g == "" || c == nil || len(c.comps) == 0 {
		return shapeVote{}, false
	}
	mine := func(x, y int) bool {
		l := label[y*w+x]
		if l == 0 {
			return false
		}
		for _, k := range c.comps {
			if int(l-1) == k {
				return true
			}
		}
		return false
	}
	b := image.Rect(c.x0, c.y0, c.x1+1, c.y1+1)
	if b.Dy() < 8 {
		return shapeVote{}, false
	}
	sample := normalizeGlyph(b, func(x, y int) float64 {
		if mine(x, y) {
			return 1
		}
		return 0
	})
	scores := map[byte]float64{}
	best := char
	for _, k := range []byte(g) {
		scores[k] = correlation(sample, tpl[k])
		if digitH > 0 {
			scores[k] -= heightWeight * math.Abs(float64(b.Dy())/digitH-glyphSet.height[k])
		}
		if scores[k] > scores[best] {
			best = k
		}
	}
	return shapeVote{best: best, margin: scores[best] - scores[char]}, true
}
