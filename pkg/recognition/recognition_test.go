package recognition

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/recognition/specimen"
)

// now fixes the date the specimens and two-digit years are made against.
var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func newRecognizer(t testing.TB) *Recognizer {
	t.Helper()
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Fatalf("tesseract is needed (make test installs Debian's tesseract-ocr): %v", err)
	}
	// The tests check what is read, not how fast (TestRecognizeBounds
	// checks the deadline): on a machine shared with other builds a
	// recognition can wait far past the default 20 s for a core.
	return New(Config{Now: func() time.Time { return now }, Timeout: 10 * time.Minute})
}

// want is what a specimen should be read as.
func want(d specimen.Document) Document {
	w := Document{
		TravelDocument: d.Number, Surname: d.Surname, GivenNames: d.GivenNames,
		Nationality: strings.TrimRight(d.Nationality, "<"), IssuingCountry: strings.TrimRight(d.Issuing, "<"),
		Birthday: d.Birth.Format(time.DateOnly), Expiry: d.Expiry.Format(time.DateOnly),
		Gender: map[byte]string{'M': "male", 'F': "female"}[d.Sex],
	}
	switch {
	case d.Kind == specimen.IDCard:
		w.Type = "idcard"
	case d.Kind == specimen.Permit:
		w.Type = "eep"
	case d.Issuing == "CHN":
		w.Type = "chinese-passport"
	default:
		w.Type = "passport"
	}
	return w
}

// diff lists the fields of got that differ from w (confidence aside).
func diff(got *Document, w Document) string {
	g := *got
	g.Confidence, g.Uncertain = 0, ""
	if g == w {
		return ""
	}
	return fmt.Sprintf("got  %+v\nwant %+v", g, w)
}

func TestRecognizeSpecimens(t *testing.T) {
	r := newRecognizer(t)
	cases := []struct {
		kind    specimen.Kind
		effects specimen.Effects
	}{
		{specimen.Passport, specimen.Effects{Width: 1400, Angle: 4, Blur: 1, Noise: 10, Shade: 0.4, Photo: true, JPEG: 75}},
		{specimen.Passport, specimen.Effects{Width: 1250, Angle: -4.5, Noise: 8, Shade: 0.3, JPEG: 0}},
		{specimen.Passport, specimen.Effects{Width: 1600, Angle: 2.5, Blur: 1, Noise: 14, Shade: 0.45, Photo: true, JPEG: 60}},
		{specimen.IDCard, specimen.Effects{Width: 1300, Angle: -3.5, Blur: 1, Noise: 10, Shade: 0.4, Photo: true, JPEG: 80}},
		{specimen.IDCard, specimen.Effects{Width: 1100, Angle: 5, Noise: 12, Shade: 0.2, JPEG: 0}},
		{specimen.Permit, specimen.Effects{Width: 1200, Angle: -2, Blur: 1, Noise: 8, Shade: 0.3, Photo: true, JPEG: 85}},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.kind, i), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(i), 18))
			d := specimen.Random(rng, c.kind, now)
			img, err := specimen.Render(d, c.effects, rng)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Recognize(context.Background(), img)
			if err != nil {
				t.Fatalf("%v: %v", d.Lines(), err)
			}
			if s := diff(got, want(d)); s != "" {
				t.Errorf("%v:\n%s", d.Lines(), s)
			}
			if got.Confidence <= 0 || got.Confidence > 1 {
				t.Errorf("confidence %v", got.Confidence)
			}
		})
	}
}

func TestRecognizeRefuses(t *testing.T) {
	r := newRecognizer(t)
	rng := rand.New(rand.NewPCG(1, 1))
	for name, c := range map[string]struct {
		data []byte
		want error
	}{
		"pdf":       {[]byte("%PDF-1.4\n%âãÏÓ\n1 0 obj\n"), ErrType},
		"gif":       {[]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), ErrType},
		"text":      {[]byte("P<UTOERIKSSON<<ANNA<MARIA"), ErrType},
		"too large": {append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, MaxBytes)...), ErrTooLarge},
		"truncated": {[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), ErrUnreadable},
		// A 30000×30000 PNG header in a few bytes: refused before decoding.
		"bomb":    {pngHeader(30000, 30000), ErrTooLarge},
		"no zone": {blankPage(t, rng), ErrUnreadable},
		"empty":   {nil, ErrType},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := r.Recognize(context.Background(), c.data)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

// pngHeader is the start of a PNG that says it is w×h pixels.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0 // 8-bit grey
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// blankPage is a photo of a noisy page with a few boxes and no text.
func blankPage(t *testing.T, rng *rand.Rand) []byte {
	img := image.NewGray(image.Rect(0, 0, 900, 600))
	for i := range img.Pix {
		img.Pix[i] = uint8(200 + rng.IntN(40))
	}
	for k := range 6 {
		r := image.Rect(50+k*130, 100+k*60, 120+k*130, 160+k*60)
		draw.Draw(img, r, image.NewUniform(color.Gray{40}), image.Point{}, draw.Src)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRecognizeBounds: a recognition that runs past its deadline stops
// with ErrTimeout (an unreadable image to the caller), and one that cannot
// get a turn within Queue is refused with ErrBusy.
func TestRecognizeBounds(t *testing.T) {
	newRecognizer(t)
	rng := rand.New(rand.NewPCG(3, 18))
	img, err := specimen.Render(specimen.Random(rng, specimen.Passport, now), specimen.Effects{Width: 1200, Angle: 2, Noise: 6}, rng)
	if err != nil {
		t.Fatal(err)
	}
	slow := New(Config{Timeout: time.Millisecond, Now: func() time.Time { return now }})
	if _, err := slow.Recognize(context.Background(), img); !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrUnreadable) {
		t.Errorf("past the deadline: %v", err)
	}
	busy := New(Config{Parallel: 1, Queue: 10 * time.Millisecond, Now: func() time.Time { return now }})
	busy.slots <- struct{}{}
	if _, err := busy.Recognize(context.Background(), img); !errors.Is(err, ErrBusy) {
		t.Errorf("no turn: %v", err)
	}
}
