// Package specimen renders made-up travel documents for the recognition
// tests and benchmark: a passport data page (TD3), an ID card (TD1) or an
// Exit-Entry Permit (one-line CS zone), with its machine-readable zone set in
// the real OCR-B font (Debian's fonts-ocr-b) and some other print on the
// page, then photographed badly: turned a few degrees, blurred, noisy, lit
// unevenly and saved as JPEG or PNG.
package specimen

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	gtfont "github.com/go-text/typesetting/font"
	gtot "github.com/go-text/typesetting/font/opentype"
	"golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/f64"
	"golang.org/x/image/math/fixed"

	"github.com/voyage/voyage/pkg/recognition/outline"
)

// FontPath is where Debian's fonts-ocr-b puts the OCR-B font.
const FontPath = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"

// Kind is the document's layout.
type Kind int

// The layouts rendered.
const (
	Passport Kind = iota // TD3, 2 × 44
	IDCard               // TD1, 3 × 30
	Permit               // CS zone, 1 × 30
)

func (k Kind) String() string {
	return [...]string{"passport", "idcard", "permit"}[k]
}

// Document is what is printed. Dates are UTC midnights.
type Document struct {
	Kind        Kind
	Code        string // "P<", "I<", "CS"
	Issuing     string
	Number      string
	Surname     string
	GivenNames  string // words separated by spaces
	Nationality string
	Birth       time.Time
	Expiry      time.Time
	Sex         byte // 'M', 'F' or '<'
	Optional    string
}

var (
	surnames = []string{"ERIKSSON", "SMITH", "OBRIEN", "ZHANG", "WANG", "MUELLER", "GARCIA", "NGUYEN", "KOWALSKI", "DUBOIS",
		"ROSSI", "SILVA", "TANAKA", "KIM", "HOLMQVIST", "OKONKWO", "BOOTH", "OLSEN", "BOOKER", "KOOB"}
	givens = []string{"ANNA", "MARIA", "JOHN", "WEI", "LI", "HANS", "PETER", "CARLOS", "OLGA", "BOB", "KLAUS", "OTTO",
		"ZOE", "MEI", "SOFIA", "BORIS", "OBI", "KAI", "LOK", "BO"}
	nations = []string{"UTO", "GBR", "USA", "CHN", "DEU", "FRA", "ITA", "ESP", "JPN", "KOR", "NLD", "BEL", "SWE", "POL", "BRA", "D<<"}
)

// Random makes up a document of kind k. Numbers are shaped like real ones,
// a letter prefix and digits (letters such as O, B, I, S and Z that OCR
// takes for digits included).
func Random(rng *rand.Rand, k Kind, now time.Time) Document {
	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	alnum := func(n, prefix int) string {
		var b strings.Builder
		for i := range n {
			if i < prefix {
				b.WriteByte(letters[rng.IntN(len(letters))])
			} else {
				b.WriteByte(byte('0' + rng.IntN(10)))
			}
		}
		return b.String()
	}
	d := Document{Kind: k, Surname: pick(surnames), Nationality: pick(nations)}
	if rng.IntN(3) == 0 {
		d.Surname += " " + pick(surnames)
	}
	d.GivenNames = pick(givens)
	if rng.IntN(2) == 0 {
		d.GivenNames += " " + pick(givens)
	}
	d.Issuing = d.Nationality
	d.Sex = "MF<"[rng.IntN(3)]
	d.Birth = now.AddDate(-1-rng.IntN(80), -rng.IntN(12), -rng.IntN(28)).Truncate(24 * time.Hour)
	d.Expiry = now.AddDate(-1+rng.IntN(11), rng.IntN(12), rng.IntN(28)).Truncate(24 * time.Hour)
	switch k {
	case Passport:
		d.Code = "P<"
		d.Number = alnum(9, 1+rng.IntN(2))
		if rng.IntN(2) == 0 {
			d.Optional = alnum(3+rng.IntN(8), rng.IntN(3))
		}
	case IDCard:
		d.Code = "I<"
		d.Number = alnum(9, 1+rng.IntN(3))
	case Permit:
		d.Code, d.Issuing, d.Nationality, d.Surname, d.GivenNames, d.Sex = "CS", "CHN", "CHN", "", "", '<'
		d.Number = "C" + alnum(8, 0)
	}
	return d
}

// Lines is the document's machine-readable zone.
func (d Document) Lines() []string {
	name := func(width int) string {
		s := strings.ReplaceAll(d.Surname, " ", "<") + "<<" + strings.ReplaceAll(d.GivenNames, " ", "<")
		return pad(s, width)[:width]
	}
	num := pad(d.Number, 9)
	birth, expiry := d.Birth.Format("060102"), d.Expiry.Format("060102")
	sex := string(d.Sex)
	switch d.Kind {
	case Passport:
		opt := pad(d.Optional, 14)
		optCheck := check(opt)
		if strings.Trim(opt, "<") == "" {
			optCheck = "<"
		}
		l2 := num + check(num) + d.Nationality + birth + check(birth) + sex + expiry + check(expiry) + opt + optCheck
		l2 += check(l2[0:10] + l2[13:20] + l2[21:43])
		return []string{pad(d.Code+d.Issuing+name(39), 44), l2}
	case IDCard:
		l1 := pad(d.Code+d.Issuing+num+check(num), 30)
		l2 := birth + check(birth) + sex + expiry + check(expiry) + d.Nationality + strings.Repeat("<", 11)
		l2 += check(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29])
		return []string{l1, l2, name(30)}
	default:
		l := d.Code + num + check(num) + "<" + expiry + check(expiry) + "<" + birth + check(birth) + "<"
		return []string{l + check(l[2:12]+l[13:20]+l[21:28])}
	}
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat("<", n-len(s))
}

// check is the ICAO 9303 7-3-1 check digit.
func check(s string) string {
	sum := 0
	for i := range len(s) {
		c, v := s[i], 0
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
		case c >= 'A' && c <= 'Z':
			v = int(c-'A') + 10
		}
		sum += v * [3]int{7, 3, 1}[i%3]
	}
	return string(rune('0' + sum%10))
}

// Effects is how badly the page is photographed.
type Effects struct {
	// Width of the document in the picture, in pixels.
	Width int
	// Angle turns the page, in degrees (counter-clockwise).
	Angle float64
	// Blur is the radius of a box blur, 0 for none.
	Blur int
	// Noise is the standard deviation of Gaussian noise, in grey levels.
	Noise float64
	// Shade darkens one side of the picture by up to this share (0–0.6).
	Shade float64
	// Photo sets the page on a dark table with a margin around it, as a
	// phone photo does; otherwise the page lies on a scanner's white bed.
	Photo bool
	// JPEG quality, 0 for PNG.
	JPEG int
	// Framed draws the page's printed outline (see Shot.Framed).
	Framed bool
}

// RandomEffects draws a bad but readable photograph or scan.
func RandomEffects(rng *rand.Rand) Effects {
	e := Effects{
		Width: 1000 + rng.IntN(700),
		Angle: (rng.Float64()*2 - 1) * 6,
		Blur:  rng.IntN(2),
		Noise: 4 + rng.Float64()*10,
		Shade: rng.Float64() * 0.45,
		Photo: rng.IntN(2) == 0,
	}
	if rng.IntN(3) > 0 {
		e.JPEG = 60 + rng.IntN(35)
	}
	return e
}

var fonts struct {
	once sync.Once
	ocrb *gtfont.Face
	text *opentype.Font
	err  error
}

func loadFonts() (*gtfont.Face, *opentype.Font, error) {
	fonts.once.Do(func() {
		data, err := os.ReadFile(FontPath)
		if err != nil {
			fonts.err = fmt.Errorf("specimen: OCR-B font (Debian package fonts-ocr-b): %w", err)
			return
		}
		if fonts.ocrb, fonts.err = gtfont.ParseTTF(bytes.NewReader(data)); fonts.err != nil {
			return
		}
		fonts.text, fonts.err = opentype.Parse(goregular.TTF)
	})
	return fonts.ocrb, fonts.text, fonts.err
}

// Render draws d photographed with e and encodes it.
func Render(d Document, e Effects, rng *rand.Rand) ([]byte, error) {
	img, err := Draw(d, e, rng)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if e.JPEG > 0 {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: e.JPEG})
	} else {
		err = png.Encode(&buf, img)
	}
	return buf.Bytes(), err
}

// Draw is Render without the encoding.
func Draw(d Document, e Effects, rng *rand.Rand) (*image.RGBA, error) {
	if e.Width < 200 {
		e.Width = 1200
	}
	page, err := drawPage(d, e.Width, false, rng)
	if err != nil {
		return nil, err
	}
	if e.Framed {
		wmm, _ := pageMM(d.Kind)
		px := float64(e.Width) / wmm
		frame(page, page.Bounds().Inset(int(1.5*px)), max(2, int(0.35*px)), color.RGBA{40, 40, 45, 255})
	}

	// Photograph: place on a canvas, turn, shade, blur, add noise.
	// A scan has the scanner's white bed around the page: wide enough that
	// turning the page keeps its corners in the picture.
	a := e.Angle * math.Pi / 180
	margin := int(math.Abs(math.Sin(a))*float64(max(page.Bounds().Dx(), page.Bounds().Dy()))/2) + 8
	if e.Photo {
		margin = max(margin, e.Width/8)
	}
	w, h := page.Bounds().Dx()+2*margin, page.Bounds().Dy()+2*margin
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := color.RGBA{uint8(60 + rng.IntN(40)), uint8(45 + rng.IntN(30)), uint8(35 + rng.IntN(30)), 255}
	if !e.Photo {
		bg = color.RGBA{250, 250, 250, 255}
	}
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	cos, sin := math.Cos(a), math.Sin(a)
	cx, cy := float64(page.Bounds().Dx())/2, float64(page.Bounds().Dy())/2
	tx, ty := float64(w)/2, float64(h)/2
	// dst = R·(src − c) + t, with y pointing down (so +Angle turns counter-clockwise on screen).
	m := f64.Aff3{cos, sin, tx - cos*cx - sin*cy, -sin, cos, ty + sin*cx - cos*cy}
	draw.BiLinear.Transform(canvas, m, page, page.Bounds(), draw.Over, nil)

	out := canvas
	if e.Blur > 0 {
		out = boxBlur(out, e.Blur)
	}
	dir := rng.Float64() * 2 * math.Pi
	dx, dy := math.Cos(dir), math.Sin(dir)
	diag := math.Hypot(float64(w), float64(h))
	for y := range h {
		for x := range w {
			// Light falls off from one side to the other.
			t := ((float64(x)-float64(w)/2)*dx + (float64(y)-float64(h)/2)*dy) / diag
			f := 1 - e.Shade*(t+0.5)
			c := out.RGBAAt(x, y)
			n := rng.NormFloat64() * e.Noise
			out.SetRGBA(x, y, color.RGBA{clamp(float64(c.R)*f + n), clamp(float64(c.G)*f + n), clamp(float64(c.B)*f + n), 255})
		}
	}
	return out, nil
}

// drawPage draws the document width pixels wide, flat and sharp: a
// tinted page with a guilloche-like wash, or, plain, black print on white
// paper (a photocopy, or a page a form system printed).
func drawPage(d Document, width int, plain bool, rng *rand.Rand) (*image.RGBA, error) {
	ocrb, text, err := loadFonts()
	if err != nil {
		return nil, err
	}
	wmm, hmm := pageMM(d.Kind)
	px := float64(width) / wmm
	page := image.NewRGBA(image.Rect(0, 0, width, int(hmm*px)))
	tint := color.RGBA{uint8(232 + rng.IntN(20)), uint8(228 + rng.IntN(20)), uint8(220 + rng.IntN(25)), 255}
	if plain {
		tint = color.RGBA{255, 255, 255, 255}
	}
	draw.Draw(page, page.Bounds(), image.NewUniform(tint), image.Point{}, draw.Src)
	// A light guilloche-like wash and a photo box, as on real pages.
	for y := 0; !plain && y < page.Bounds().Dy()*2/3; y++ {
		for x := 0; x < width; x++ {
			v := math.Sin(float64(x)/(7*px)+3*math.Sin(float64(y)/(11*px))) * 10
			c := page.RGBAAt(x, y)
			page.SetRGBA(x, y, color.RGBA{clamp(float64(c.R) + v), clamp(float64(c.G) + v/2), c.B, 255})
		}
	}
	top, ph := 14.0, hmm*0.45
	if d.Kind != Passport {
		top, ph = 10, hmm*0.42
	}
	photo := image.Rect(int(5*px), int(top*px), int(5*px+ph*0.78*px), int((top+ph)*px))
	draw.Draw(page, photo, image.NewUniform(color.RGBA{150, 140, 135, 255}), image.Point{}, draw.Src)

	ink := image.NewUniform(color.RGBA{25, 25, 35, 255})
	label := image.NewUniform(color.RGBA{90, 80, 120, 255})
	textFace, err := opentype.NewFace(text, &opentype.FaceOptions{Size: 2.4 * px, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, err
	}
	defer textFace.Close()
	title := map[Kind]string{Passport: "PASSPORT / PASSEPORT", IDCard: "IDENTITY CARD", Permit: "EXIT-ENTRY PERMIT"}[d.Kind]
	write(page, textFace, ink, title, 5*px, 8*px)
	x0 := float64(photo.Max.X) + 4*px
	fields := [][2]string{{"Surname", d.Surname}, {"Given names", d.GivenNames}, {"Nationality", d.Nationality},
		{"Date of birth", d.Birth.Format("02 Jan 2006")}, {"Sex", string(d.Sex)}, {"Date of expiry", d.Expiry.Format("02 Jan 2006")},
		{"Document No.", d.Number}}
	y := (top + 2) * px
	step := (float64(photo.Max.Y) - y) / float64(len(fields))
	small, err := opentype.NewFace(text, &opentype.FaceOptions{Size: step * 0.6, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, err
	}
	defer small.Close()
	for _, f := range fields {
		write(page, small, label, f[0]+":", x0, y)
		write(page, small, ink, f[1], x0+step*5, y)
		y += step
	}

	// Each character sits on its own 2.54 mm pitch, about 2.4 mm tall.
	lines := d.Lines()
	lineGap := 4.23 * px
	base := hmm*px - 4*px - lineGap*float64(len(lines)-1)
	for i, l := range lines {
		lx := (wmm*px - float64(len(l))*2.54*px) / 2
		for j, c := range l {
			drawGlyph(page, ocrb, c, lx+float64(j)*2.54*px, base+float64(i)*lineGap, 3.4*px, ink)
		}
	}
	return page, nil
}

// pageMM is the document's size in mm (ICAO 9303 Parts 4 and 5); the
// zone's characters are set 2.54 mm apart, its lines about 4.2 mm.
func pageMM(k Kind) (w, h float64) {
	if k == Passport {
		return 125, 88
	}
	return 85.6, 54
}

// drawGlyph fills the outline of r with its origin at (x, y), the em being
// size pixels. go-text reads the CFF outlines of OCR-B whole; x/image's sfnt
// stops at the flex1 operator of '8' and '<'.
func drawGlyph(dst *image.RGBA, face *gtfont.Face, r rune, x, y, size float64, ink image.Image) {
	scale := float32(size) / float32(face.Upem())
	pad := 2
	w, h := int(size)+2*pad, int(size*1.3)+2*pad
	oy := float32(size) + float32(pad)
	mask := outline.Fill(face, r, w, h, func(p gtot.SegmentPoint) (float32, float32) { return float32(pad) + p.X*scale, oy - p.Y*scale })
	if mask == nil {
		return
	}
	at := image.Pt(int(math.Round(x))-pad, int(math.Round(y-float64(oy))))
	draw.DrawMask(dst, mask.Bounds().Add(at), ink, image.Point{}, mask, image.Point{}, draw.Over)
}

func write(dst draw.Image, face font.Face, src image.Image, s string, x, y float64) {
	dr := font.Drawer{Dst: dst, Src: src, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	dr.DrawString(s)
}

func clamp(v float64) uint8 {
	return uint8(math.Max(0, math.Min(255, math.Round(v))))
}

// boxBlur blurs each channel with a (2r+1)² box, horizontally then vertically.
func boxBlur(src *image.RGBA, r int) *image.RGBA {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	tmp := image.NewRGBA(b)
	dst := image.NewRGBA(b)
	pass := func(from, to *image.RGBA, horizontal bool) {
		n, m := w, h
		if !horizontal {
			n, m = h, w
		}
		for j := range m {
			for i := range n {
				var s [3]int
				cnt := 0
				for k := max(0, i-r); k <= min(n-1, i+r); k++ {
					x, y := k, j
					if !horizontal {
						x, y = j, k
					}
					o := from.PixOffset(x, y)
					s[0] += int(from.Pix[o])
					s[1] += int(from.Pix[o+1])
					s[2] += int(from.Pix[o+2])
					cnt++
				}
				x, y := i, j
				if !horizontal {
					x, y = j, i
				}
				o := to.PixOffset(x, y)
				to.Pix[o], to.Pix[o+1], to.Pix[o+2], to.Pix[o+3] = uint8(s[0]/cnt), uint8(s[1]/cnt), uint8(s[2]/cnt), 255
			}
		}
	}
	pass(src, tmp, true)
	pass(tmp, dst, false)
	return dst
}
