package recognition

import (
	"context"
	"html"
	"image"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Tesseract's English model reads single fillers ('<') well but long runs
// of them badly ("<<<<<<" comes out as "KKKK", "SSSSSKECK" or nothing), and
// a lost filler shifts every field after it. The zone is monospaced, so the
// characters sit on a grid that can be found from the picture itself: each
// character cell is classified as filler or not by the filler's shape (a
// chevron: ink at the left only in its middle rows), the fillers are wiped
// out, Tesseract reads what is left as words with their positions, and the
// words are put back into their cells.

// cell is one character place on a zone line.
type cell struct {
	x0, x1, y0, y1 int
	filler         bool
	comps          []int // indexes into the components
}

func (c cell) cx() float64 { return float64(c.x0+c.x1) / 2 }

// zoneGrid finds the character cells of each line of the thresholded zone
// cut bin; bands are the lines' row ranges in bin, h the character height.
// A line's cells are indexed from its first character (cells[i] == nil for
// a place where nothing was found).
func zoneGrid(bin *raster, label []int32, comps []component, bands [][2]int, h float64) [][]*cell {
	out := make([][]*cell, len(bands))
	for li, band := range bands {
		var cs []*cell
		for i, c := range comps {
			cy := float64(c.y0+c.y1) / 2
			if cy < float64(band[0]) || cy >= float64(band[1]) || float64(c.height()) < 0.4*h || float64(c.height()) > 1.6*h ||
				float64(c.width()) > 1.5*h || c.area < int(0.03*h*h) {
				continue
			}
			cs = append(cs, &cell{x0: c.x0, x1: c.x1, y0: c.y0, y1: c.y1, comps: []int{i}})
		}
		slices.SortFunc(cs, func(a, b *cell) int { return a.x0 - b.x0 })
		// Pieces of one broken character overlap horizontally: join them.
		var merged []*cell
		for _, c := range cs {
			if n := len(merged); n > 0 {
				p := merged[n-1]
				overlap := min(p.x1, c.x1) - max(p.x0, c.x0)
				if float64(overlap) > 0.5*float64(min(p.x1-p.x0, c.x1-c.x0)) {
					p.x0, p.x1, p.y0, p.y1 = min(p.x0, c.x0), max(p.x1, c.x1), min(p.y0, c.y0), max(p.y1, c.y1)
					p.comps = append(p.comps, c.comps...)
					continue
				}
			}
			merged = append(merged, c)
		}
		if len(merged) < 10 {
			continue
		}
		gaps := make([]float64, 0, len(merged)-1)
		for k := 1; k < len(merged); k++ {
			gaps = append(gaps, merged[k].cx()-merged[k-1].cx())
		}
		sorted := slices.Clone(gaps)
		slices.Sort(sorted)
		pitch := sorted[len(sorted)/2]
		if pitch <= 0 {
			continue
		}
		idx := 0
		line := []*cell{merged[0]}
		for k := 1; k < len(merged); k++ {
			step := int(math.Round(gaps[k-1] / pitch))
			if step < 1 {
				// Two blobs in one place: keep the bigger.
				if merged[k].x1-merged[k].x0 > line[idx].x1-line[idx].x0 {
					line[idx] = merged[k]
				}
				continue
			}
			for range step - 1 {
				line = append(line, nil)
			}
			idx += step
			line = append(line, merged[k])
		}
		for _, c := range line {
			if c != nil {
				c.filler = isFiller(label, bin.w, comps, c)
			}
		}
		out[li] = line
	}
	return out
}

// isFiller says whether the cell's ink is the chevron '<': in its top and
// bottom rows the ink keeps to the right half, in its middle rows it
// reaches the left edge.
func isFiller(label []int32, w int, comps []component, c *cell) bool {
	if len(c.comps) != 1 {
		return false
	}
	id := int32(c.comps[0] + 1)
	bw, bh := c.x1-c.x0+1, c.y1-c.y0+1
	if bw < 3 || bh < 5 || float64(bw) > 1.2*float64(bh) {
		return false
	}
	leftmost := func(y0, y1 int) float64 {
		m := bw
		for y := y0; y <= y1; y++ {
			for x := c.x0; x <= c.x1; x++ {
				if label[y*w+x] == id {
					m = min(m, x-c.x0)
					break
				}
			}
		}
		return float64(m) / float64(bw)
	}
	band := max(1, bh/6)
	top := leftmost(c.y0, c.y0+band-1)
	bottom := leftmost(c.y1-band+1, c.y1)
	mid := leftmost(c.y0+bh/2-band/2, c.y0+bh/2+band/2)
	return top > 0.45 && bottom > 0.45 && mid < 0.2
}

// maxRereads bounds the characters read again one by one.
const maxRereads = 4

// glyph is one character of Tesseract's hOCR output with its box.
type glyph struct {
	x0, y0, x1, y1 int
	conf           float64
	char           byte
}

var cinfo = regexp.MustCompile(`x_bboxes (\d+) (\d+) (\d+) (\d+); x_conf ([\d.]+)'>([^<]*)</span>`)

// parseCharBoxes reads the characters of `tesseract ... -c
// hocr_char_boxes=1 hocr`.
func parseCharBoxes(out string) []glyph {
	var gs []glyph
	for _, m := range cinfo.FindAllStringSubmatch(out, -1) {
		text := html.UnescapeString(m[6])
		if len(text) != 1 {
			continue
		}
		var n [4]int
		for i := range 4 {
			n[i], _ = strconv.Atoi(m[1+i])
		}
		conf, _ := strconv.ParseFloat(m[5], 64)
		gs = append(gs, glyph{n[0], n[1], n[2], n[3], conf, text[0]})
	}
	return gs
}

// cellText is a cell reading: each line's characters ('?' where none was
// read) and Tesseract's confidence in each.
type cellText struct {
	text [][]byte
	conf [][]float64
	// grid, label and w are the cells the reading was made from and the
	// components of its picture, for the shape check (glyphs.go).
	grid  [][]*cell
	label []int32
	w     int
}

func (c cellText) String() string {
	lines := make([]string, len(c.text))
	for i, t := range c.text {
		lines[i] = string(t)
	}
	return strings.Join(lines, "\n")
}

// merge keeps, cell by cell, the surer of two readings of the same grid;
// readings of different grids are not merged (ok false).
func (c cellText) merge(o cellText) (cellText, bool) {
	if len(c.text) != len(o.text) {
		return c, false
	}
	for i := range c.text {
		if len(c.text[i]) != len(o.text[i]) {
			return c, false
		}
	}
	m := cellText{text: make([][]byte, len(c.text)), conf: make([][]float64, len(c.text)), grid: c.grid, label: c.label, w: c.w}
	for i := range c.text {
		m.text[i], m.conf[i] = slices.Clone(c.text[i]), slices.Clone(c.conf[i])
		for k, ch := range o.text[i] {
			if ch != '?' && (m.text[i][k] == '?' || o.conf[i][k] > m.conf[i][k]) {
				m.text[i][k], m.conf[i][k] = ch, o.conf[i][k]
			}
		}
	}
	return m, true
}

// readByCells reads the zone cut bin cell by cell (see the top of this
// file).
func (r *Recognizer) readByCells(ctx context.Context, bin *raster, bands [][2]int, h float64) (cellText, error) {
	label, comps := components(bin)
	grid := zoneGrid(bin, label, comps, bands, h)
	wiped := &raster{w: bin.w, h: bin.h, pix: slices.Clone(bin.pix)}
	any := false
	for _, line := range grid {
		for _, c := range line {
			if c == nil || !c.filler {
				continue
			}
			any = true
			id := int32(c.comps[0] + 1)
			for y := c.y0; y <= c.y1; y++ {
				for x := c.x0; x <= c.x1; x++ {
					if label[y*bin.w+x] == id {
						wiped.pix[y*bin.w+x] = 255
					}
				}
			}
		}
	}
	if !any {
		return cellText{}, nil
	}
	const pad = charHeight / 2
	out, err := r.tesseract(ctx, wiped.pad(pad), psmBlock, "-c", "hocr_char_boxes=1", "hocr")
	if err != nil {
		return cellText{}, err
	}
	text := make([][]byte, len(grid))
	conf := make([][]float64, len(grid))
	for li, line := range grid {
		text[li] = make([]byte, len(line))
		conf[li] = make([]float64, len(line))
		for i, c := range line {
			text[li][i] = '?'
			if c != nil && c.filler {
				text[li][i] = '<'
			}
		}
	}
	// Each character goes to the cell under its centre; of two read in one
	// cell, the surer.
	for _, g := range parseCharBoxes(out) {
		cx, cy := float64(g.x0+g.x1)/2-pad, (g.y0+g.y1)/2-pad
		li := -1
		for k, b := range bands {
			if cy >= b[0] && cy < b[1] {
				li = k
			}
		}
		if li < 0 {
			continue
		}
		best, dist := -1, math.MaxFloat64
		for i, c := range grid[li] {
			if c == nil || c.filler {
				continue
			}
			if d := math.Abs(c.cx() - cx); d < dist {
				best, dist = i, d
			}
		}
		if best < 0 || dist > h {
			continue
		}
		if text[li][best] == '?' || g.conf > conf[li][best] {
			text[li][best], conf[li][best] = g.char, g.conf
		}
	}
	// A character Tesseract skipped is read again on its own (a few at
	// most: more means the grid is wrong, and the other readings follow).
	missing := 0
	for li, line := range grid {
		for i, c := range line {
			if c == nil || c.filler || text[li][i] != '?' {
				continue
			}
			if missing++; missing > maxRereads {
				break
			}
			m := int(h / 3)
			one := bin.crop(image.Rect(c.x0-m, c.y0-m, c.x1+m+1, c.y1+m+1), 1)
			got, err := r.tesseract(ctx, one.pad(int(h/2)), psmChar)
			if err != nil {
				return cellText{}, err
			}
			if got = strings.TrimSpace(got); len(got) == 1 {
				text[li][i] = got[0]
			}
		}
	}
	// Tesseract takes OCR-B's L for I; the shapes settle it (isL).
	for li, line := range grid {
		for i, c := range line {
			if c != nil && (text[li][i] == 'I' || text[li][i] == 'L') {
				if isL(label, bin.w, c) {
					text[li][i] = 'L'
				} else {
					text[li][i] = 'I'
				}
			}
		}
	}
	return cellText{text: text, conf: conf, grid: grid, label: label, w: bin.w}, nil
}

// isL tells OCR-B's L from its I by the top rows of the cell: the I's bar
// spans the glyph there, the L has only its stem.
func isL(label []int32, w int, c *cell) bool {
	bw, bh := c.x1-c.x0+1, c.y1-c.y0+1
	mine := func(l int32) bool { return l != 0 && slices.Contains(c.comps, int(l-1)) }
	x0, x1 := c.x1+1, c.x0-1
	for y := c.y0; y < c.y0+max(1, bh/5); y++ {
		for x := c.x0; x <= c.x1; x++ {
			if mine(label[y*w+x]) {
				x0, x1 = min(x0, x), max(x1, x)
			}
		}
	}
	return x1 >= x0 && float64(x1-x0+1) < 0.5*float64(bw)
}
