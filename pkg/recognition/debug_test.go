package recognition

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/voyage/voyage/pkg/recognition/specimen"
)

func TestDebugOne(t *testing.T) {
	if os.Getenv("DEBUG_SEED") == "" {
		t.Skip()
	}
	var seed, kind int
	fmt.Sscan(os.Getenv("DEBUG_SEED"), &seed)
	fmt.Sscan(os.Getenv("DEBUG_KIND"), &kind)
	r := newRecognizer(t)
	rng := rand.New(rand.NewPCG(uint64(seed), 200))
	kind = []int{0, 0, 1, 1, 2}[seed%5]
	d := specimen.Random(rng, specimen.Kind(kind), now)
	e := specimen.RandomEffects(rng)
	if os.Getenv("DEBUG_FIXED") != "" {
		e = specimen.Effects{Width: 1200, Angle: -5, Noise: 8, Shade: 0.3, JPEG: 0}
	}
	img, _ := specimen.Render(d, e, rng)
	os.WriteFile("/tmp/i18/dbg_in.png", img, 0o644)
	n := 0
	debugHook = func(p *raster, text string) {
		g := image.NewGray(image.Rect(0, 0, p.w, p.h))
		copy(g.Pix, p.pix)
		f, _ := os.Create(fmt.Sprintf("/tmp/i18/dbg_%d.png", n))
		png.Encode(f, g)
		f.Close()
		t.Logf("pic %d %dx%d: %q", n, p.w, p.h, text)
		n++
	}
	t.Logf("effects %+v lines %v", e, d.Lines())
	got, err := r.Recognize(context.Background(), img)
	t.Logf("got %+v err %v", got, err)
}

func TestDebugLines(t *testing.T) {
	if os.Getenv("DEBUG_SEED") == "" {
		t.Skip()
	}
	var seed int
	fmt.Sscan(os.Getenv("DEBUG_SEED"), &seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 200))
	kind := []int{0, 0, 1, 1, 2}[seed%5]
	d := specimen.Random(rng, specimen.Kind(kind), now)
	e := specimen.RandomEffects(rng)
	data, _ := specimen.Render(d, e, rng)
	img, _, _ := image.Decode(bytes.NewReader(data))
	full := toRaster(img, fullSide)
	f := 1
	for max(full.w, full.h)/f > findSide {
		f++
	}
	small := full.shrink(f)
	rad := max(8, max(small.w, small.h)/50)
	angle := skew(glyphMask(small.binarize(rad, 15)))
	small = small.rotate(angle)
	m := glyphMask(small.binarize(rad, 15))
	g := image.NewGray(image.Rect(0, 0, m.w, m.h))
	copy(g.Pix, m.pix)
	fo, _ := os.Create("/tmp/i18/mask.png")
	png.Encode(fo, g)
	fo.Close()
	t.Logf("angle %.2f (true %.2f)", angle, e.Angle)
	for _, l := range zoneLines(m) {
		t.Logf("%+v", l)
	}
	for _, z := range zones(zoneLines(m)) {
		t.Logf("zone %d lines", len(z))
	}
}
