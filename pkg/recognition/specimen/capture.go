package specimen

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os/exec"
	"time"

	"github.com/signintech/gopdf"
	"golang.org/x/image/draw"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/f64"
)

// Capture is how a document became the picture an agent uploads: the
// recognition has to read clean scans as well as bad photographs.
type Capture int

// The captures rendered.
const (
	// Photo is a phone photo or a bad scan: RandomEffects.
	Photo Capture = iota
	// Scan is a flatbed scan: straight (within half a degree), sharp, on
	// the scanner's pure white bed, whole A4 or cropped to the document.
	Scan
	// Rotated is a sharp scan of a document laid crooked, 3 to 10 degrees.
	Rotated
	// Bilevel is a black-and-white (1-bit) scan.
	Bilevel
	// Band is the zone alone, cut out of a scan, grey or black and white.
	Band
	// PDFPage is an A4 PDF page holding the document, made with gopdf and
	// rendered by poppler-utils' pdftoppm.
	PDFPage
	// LowContrast is faded print or a scanner set too light: grey ink on
	// grey paper, slightly tilted and soft.
	LowContrast
)

// Captures lists every capture, in order.
var Captures = []Capture{Photo, Scan, Rotated, Bilevel, Band, PDFPage, LowContrast}

func (c Capture) String() string {
	return [...]string{"photo", "scan", "rotated", "bilevel", "band", "pdf", "lowcontrast"}[c]
}

// Shot is one capture's drawn settings.
type Shot struct {
	Capture Capture
	// DPI is the scanner's (or pdftoppm's) resolution.
	DPI int
	// Angle turns the document, in degrees (counter-clockwise).
	Angle float64
	// Plain prints on white paper instead of a tinted, washed page.
	Plain bool
	// Framed draws a dark rule around the document (around the zone for a
	// Band): the card's outline on a photocopy, a form's box.
	Framed bool
	// Bed keeps the whole A4 scanner bed (PDF page) around the document;
	// otherwise the picture is cropped a few millimetres around it.
	Bed bool
	// Mono thresholds a Band to black and white.
	Mono bool
	// Low and High squeeze the grey levels of a LowContrast scan: black
	// becomes Low, white High.
	Low, High int
	// Effects is a Photo's photograph.
	Effects Effects
	// JPEG quality, 0 for PNG.
	JPEG int
}

// RandomShot draws the settings of capture c.
func RandomShot(rng *rand.Rand, c Capture, framed bool) Shot {
	s := Shot{Capture: c, Framed: framed, Plain: rng.IntN(2) == 0, DPI: []int{200, 300, 300, 400}[rng.IntN(4)]}
	if rng.IntN(3) == 0 {
		s.Angle = (rng.Float64()*2 - 1) * 0.5
	}
	switch c {
	case Photo:
		s.Effects = RandomEffects(rng)
	case Scan:
		s.Bed = rng.IntN(2) == 0 && s.DPI <= 300
		if rng.IntN(3) == 0 {
			s.JPEG = 85 + rng.IntN(11)
		}
	case Rotated:
		s.Angle = (3 + rng.Float64()*7) * float64(1-2*rng.IntN(2))
		s.Bed = rng.IntN(3) == 0 && s.DPI <= 300
	case Bilevel:
		s.DPI = []int{200, 300}[rng.IntN(2)]
		s.Bed = rng.IntN(2) == 0
	case Band:
		s.DPI = []int{200, 300, 400, 600}[rng.IntN(4)]
		s.Mono = rng.IntN(2) == 0
	case PDFPage:
		s.DPI = []int{150, 200, 300}[rng.IntN(3)]
		s.Bed = true
	case LowContrast:
		s.DPI = []int{200, 300}[rng.IntN(2)]
		s.Angle = (rng.Float64()*2 - 1) * 2
		s.Low, s.High = 90+rng.IntN(60), 195+rng.IntN(45)
		s.JPEG = 80 + rng.IntN(16)
	}
	return s
}

// Shoot renders d as s captures it, encoded as PNG or JPEG. A PDFPage
// needs pdftoppm (Debian's poppler-utils) on the PATH.
func Shoot(ctx context.Context, d Document, s Shot, rng *rand.Rand) ([]byte, error) {
	if s.Capture == Photo {
		e := s.Effects
		e.Framed = s.Framed
		img, err := Draw(d, e, rng)
		if err != nil {
			return nil, err
		}
		return encode(img, e.JPEG)
	}
	wmm, hmm := pageMM(d.Kind)
	px := float64(s.DPI) / 25.4
	if s.Capture == PDFPage {
		// The page is embedded at 300 dpi, as a scanned copy saved into a
		// PDF; pdftoppm then resamples it to the rendering's resolution.
		px = 300 / 25.4
	}
	page, err := drawPage(d, int(wmm*px), s.Plain, rng)
	if err != nil {
		return nil, err
	}
	if s.Framed && s.Capture != Band {
		// The card's or page's outline, about 1.5 mm inside its edge.
		frame(page, page.Bounds().Inset(int(1.5*px)), max(2, int(0.35*px)), color.RGBA{40, 40, 45, 255})
	}
	switch s.Capture {
	case PDFPage:
		return pdfPage(ctx, page, wmm, hmm, s, rng)
	case Band:
		// The zone's lines sit in the bottom 4 + 4.23·(n−1) + 3 mm.
		n := len(d.Lines())
		top := hmm - 4 - 4.23*float64(n-1) - 2.4 - 1 - rng.Float64()*3
		bottom := hmm - 4 + 1 + rng.Float64()*2.5
		side := (wmm - float64(len(d.Lines()[0]))*2.54) / 2
		in := side - 1 - rng.Float64()*(side-2)
		r := image.Rect(int(in*px), int(top*px), int((wmm-in)*px), min(page.Bounds().Dy(), int(bottom*px)))
		band := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		draw.Draw(band, band.Bounds(), page, r.Min, draw.Src)
		var img image.Image = band
		if s.Framed {
			frame(band, band.Bounds().Inset(max(1, int(0.2*px))), max(2, int(0.3*px)), color.RGBA{30, 30, 30, 255})
		}
		if s.Mono {
			img = bilevel(band, 140)
		}
		return encode(img, 0)
	}
	w, h := page.Bounds().Dx()+int(6*px), page.Bounds().Dy()+int(6*px)
	at := [2]float64{float64(w) / 2, float64(h) / 2}
	if s.Bed {
		w, h = int(210*px), int(297*px)
		at = [2]float64{(10 + rng.Float64()*60 + wmm/2) * px, (10 + rng.Float64()*150 + hmm/2) * px}
	}
	if a := math.Abs(s.Angle) * math.Pi / 180; a > 0 && !s.Bed {
		// Room for the turned corners.
		w += int(math.Sin(a) * float64(page.Bounds().Dy()))
		h += int(math.Sin(a) * float64(page.Bounds().Dx()))
		at = [2]float64{float64(w) / 2, float64(h) / 2}
	}
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(color.RGBA{255, 255, 255, 255}), image.Point{}, draw.Src)
	place(canvas, page, at, s.Angle)
	switch s.Capture {
	case Bilevel:
		return encode(bilevel(canvas, 120+rng.IntN(50)), 0)
	case LowContrast:
		out := boxBlur(canvas, 1)
		for i := 0; i < len(out.Pix); i += 4 {
			for k := range 3 {
				v := float64(s.Low) + float64(out.Pix[i+k])*float64(s.High-s.Low)/255
				out.Pix[i+k] = clamp(v + rng.NormFloat64()*3)
			}
		}
		canvas = out
	}
	return encode(canvas, s.JPEG)
}

// place draws src onto dst turned by deg degrees (counter-clockwise) about
// its centre, the centre landing at at.
func place(dst *image.RGBA, src *image.RGBA, at [2]float64, deg float64) {
	a := deg * math.Pi / 180
	cos, sin := math.Cos(a), math.Sin(a)
	cx, cy := float64(src.Bounds().Dx())/2, float64(src.Bounds().Dy())/2
	m := f64.Aff3{cos, sin, at[0] - cos*cx - sin*cy, -sin, cos, at[1] + sin*cx - cos*cy}
	if deg == 0 {
		draw.Draw(dst, src.Bounds().Add(image.Pt(int(at[0]-cx), int(at[1]-cy))), src, image.Point{}, draw.Src)
		return
	}
	draw.BiLinear.Transform(dst, m, src, src.Bounds(), draw.Over, nil)
}

// frame draws a rectangle's outline of width th inside r.
func frame(img *image.RGBA, r image.Rectangle, th int, c color.RGBA) {
	u := image.NewUniform(c)
	for _, side := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+th)}, {image.Pt(r.Min.X, r.Max.Y-th), r.Max},
		{r.Min, image.Pt(r.Min.X+th, r.Max.Y)}, {image.Pt(r.Max.X-th, r.Min.Y), r.Max},
	} {
		draw.Draw(img, side, u, image.Point{}, draw.Src)
	}
}

// bilevel thresholds img's luma at t into a 1-bit picture, as a scanner's
// black-and-white mode does.
func bilevel(img *image.RGBA, t int) *image.Paletted {
	b := img.Bounds()
	out := image.NewPaletted(b, color.Palette{color.Black, color.White})
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if (299*int(c.R)+587*int(c.G)+114*int(c.B))/1000 >= t {
				out.SetColorIndex(x, y, 1)
			}
		}
	}
	return out
}

func encode(img image.Image, quality int) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if quality > 0 {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality})
	} else {
		err = png.Encode(&buf, img)
	}
	return buf.Bytes(), err
}

// pdfPage lays page (wmm × hmm) on an A4 PDF page with a heading, as an
// agency's "passport copy" is, and renders it with pdftoppm at s.DPI.
func pdfPage(ctx context.Context, page *image.RGBA, wmm, hmm float64, s Shot, rng *rand.Rand) ([]byte, error) {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4, Unit: gopdf.UnitMM})
	pdf.AddPage()
	if err := pdf.AddTTFFontData("go", goregular.TTF); err != nil {
		return nil, fmt.Errorf("specimen: pdf font: %w", err)
	}
	if err := pdf.SetFont("go", "", 11); err != nil {
		return nil, fmt.Errorf("specimen: pdf font: %w", err)
	}
	x, y := 15+rng.Float64()*50, 30+rng.Float64()*120
	pdf.SetXY(15, 15)
	if err := pdf.Text(fmt.Sprintf("Travel document copy, booking %06d", rng.IntN(1_000_000))); err != nil {
		return nil, fmt.Errorf("specimen: pdf text: %w", err)
	}
	if err := pdf.ImageFrom(page, x, y, &gopdf.Rect{W: wmm, H: hmm}); err != nil {
		return nil, fmt.Errorf("specimen: pdf image: %w", err)
	}
	if s.Framed {
		pdf.SetLineWidth(0.4)
		pdf.RectFromUpperLeftWithStyle(x-3, y-3, wmm+6, hmm+6, "D")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "pdftoppm", "-r", fmt.Sprint(s.DPI), "-png", "-singlefile")
	cmd.Stdin = bytes.NewReader(pdf.GetBytesPdf())
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("specimen: pdftoppm (Debian's poppler-utils; make ocr installs it): %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out.Bytes(), nil
}
