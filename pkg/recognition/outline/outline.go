// Package outline fills a font's glyph outlines into alpha masks, for the
// recogniser's OCR-B templates (pkg/recognition) and the made-up documents
// its tests read (pkg/recognition/specimen), so both draw a character alike.
package outline

import (
	"image"

	gtfont "github.com/go-text/typesetting/font"
	gtot "github.com/go-text/typesetting/font/opentype"
	"golang.org/x/image/vector"
)

// Fill fills r's outline in face into a w×h mask, pt placing each outline
// point (in font units) on it; nil when the face has no outline for r.
// go-text reads OCR-B's CFF outlines whole; x/image's sfnt does not.
func Fill(face *gtfont.Face, r rune, w, h int, pt func(gtot.SegmentPoint) (float32, float32)) *image.Alpha {
	gid, ok := face.NominalGlyph(r)
	if !ok {
		return nil
	}
	out, ok := face.GlyphDataOutline(gid)
	if !ok {
		return nil
	}
	ras := vector.NewRasterizer(w, h)
	for _, s := range out.Segments {
		a := s.Args
		switch s.Op {
		case gtot.SegmentOpMoveTo:
			ras.MoveTo(pt(a[0]))
		case gtot.SegmentOpLineTo:
			ras.LineTo(pt(a[0]))
		case gtot.SegmentOpQuadTo:
			x1, y1 := pt(a[0])
			x2, y2 := pt(a[1])
			ras.QuadTo(x1, y1, x2, y2)
		case gtot.SegmentOpCubeTo:
			x1, y1 := pt(a[0])
			x2, y2 := pt(a[1])
			x3, y3 := pt(a[2])
			ras.CubeTo(x1, y1, x2, y2, x3, y3)
		}
	}
	ras.ClosePath()
	m := image.NewAlpha(image.Rect(0, 0, w, h))
	ras.Draw(m, m.Bounds(), image.Opaque, image.Point{})
	return m
}
