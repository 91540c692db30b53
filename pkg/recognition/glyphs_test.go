package recognition

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/mrz"
	"github.com/voyage/voyage/pkg/recognition/specimen"
)

// TestShapeTellsConfusables: a cell of an OCR-B character at zone size,
// asked about as its look-alike, is told for what it is by its shape.
func TestShapeTellsConfusables(t *testing.T) {
	if templates() == nil {
		t.Fatalf("OCR-B font %s is needed (Debian's fonts-ocr-b)", ocrbPath)
	}
	face, err := ocrbFace()
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []float32{28, 40} {
		for _, g := range confusable {
			for _, truth := range []byte(g) {
				m := renderGlyph(face, rune(truth), size)
				bin := newRaster(m.Bounds().Dx(), m.Bounds().Dy())
				for i, a := range m.Pix {
					bin.pix[i] = 255
					if a >= 128 {
						bin.pix[i] = 0
					}
				}
				label, comps := components(bin)
				c := &cell{x0: bin.w, y0: bin.h, x1: -1, y1: -1}
				for k, cp := range comps {
					c.comps = append(c.comps, k)
					c.x0, c.y0, c.x1, c.y1 = min(c.x0, cp.x0), min(c.y0, cp.y0), max(c.x1, cp.x1), max(c.y1, cp.y1)
				}
				for _, asked := range []byte(g) {
					v, ok := judgeCell(label, bin.w, c, asked, 0, false)
					if !ok || v.best != truth {
						t.Errorf("size %v: %c asked as %c: shape says %c (ok %v)", size, truth, asked, v.best, ok)
					}
				}
			}
		}
	}
}

// TestShapeSkippedWithoutFont: with no font the shape check gives no
// opinion rather than failing.
func TestShapeSkippedWithoutFont(t *testing.T) {
	if _, ok := judgeCell(nil, 0, nil, 'G', 0, false); ok {
		t.Error("a missing cell gave an opinion")
	}
	if _, ok := judgeCell(nil, 0, &cell{comps: []int{0}}, 'K', 0, false); ok {
		t.Error("a character with no look-alike gave an opinion")
	}
}

// TestUncertainFields: a reading whose document number the check digit
// had to correct answers a low confidence and says the number is
// uncertain; a clean reading says nothing is.
func TestUncertainFields(t *testing.T) {
	r := New(Config{Now: func() time.Time { return now }})
	clean := "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
	fixed := "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL8989O2C36UTO7408122F1204159ZE184226B<<<<<10"
	for name, c := range map[string]struct {
		text   string
		unsure bool
	}{"clean": {clean, false}, "corrected": {fixed, true}} {
		t.Run(name, func(t *testing.T) {
			res, err := mrz.ParseAt(c.text, now)
			if err != nil {
				t.Fatal(err)
			}
			got, unsure := r.review(res, cellText{})
			if got.TravelDocument != "L898902C3" {
				t.Errorf("number %q", got.TravelDocument)
			}
			if c.unsure != slices.Contains(unsure, "travel_document") {
				t.Errorf("uncertain %v", unsure)
			}
			if c.unsure && got.Confidence > capDocNumber {
				t.Errorf("confidence %v for a corrected number", got.Confidence)
			}
			if !c.unsure && got.Confidence < 0.99 {
				t.Errorf("confidence %v for a clean reading", got.Confidence)
			}
		})
	}
}

// TestRecognizeConfusableNumbers: document numbers made of look-alikes
// (G and 6, O and 0, B and 8 ...) are read exactly, through Recognize.
func TestRecognizeConfusableNumbers(t *testing.T) {
	r := newRecognizer(t)
	for i, number := range []string{"GO6O0G8B1", "OG0SZ2I6G", "DQ0OG6B85"} {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		d := specimen.Random(rng, specimen.Passport, now)
		d.Number = number
		img, err := specimen.Render(d, specimen.Effects{Width: 1300, Angle: 2, Blur: 1, Noise: 8, Shade: 0.3, JPEG: 80}, rng)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Recognize(context.Background(), img)
		if err != nil {
			t.Fatalf("%s: %v", number, err)
		}
		if got.TravelDocument != number {
			t.Errorf("read %s as %s (confidence %.2f, uncertain %v)", number, got.TravelDocument, got.Confidence, got.Uncertain.List())
			if got.Confidence > capDocNumber || !got.Uncertain.Has("travel_document") {
				t.Errorf("a wrong number with confidence %.2f, uncertain %v", got.Confidence, got.Uncertain.List())
			}
		}
	}
}

// TestUncertainJSON: the API answer keeps its keys, adds "uncertain" as an
// array only when a field is uncertain, and reads back the same.
func TestUncertainJSON(t *testing.T) {
	for _, d := range []Document{{TravelDocument: "G54393207", Confidence: 0.6, Uncertain: "travel_document"}, {TravelDocument: "G54393207", Confidence: 1}} {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		u, has := m["uncertain"]
		if has != (d.Uncertain != "") || (has && !slices.Equal(toStrings(u), d.Uncertain.List())) {
			t.Errorf("%s", b)
		}
		var back Document
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("read back %+v, %v", back, err)
		}
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
