package recognition

import (
	"bufio"
	"context"
	"math"
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

// word is one word of Tesseract's TSV output.
type word struct {
	left, top, width, height int
	text                     string
}

// parseTSV reads the words (level 5) of `tesseract ... tsv`.
func parseTSV(out string) []word {
	var ws []word
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		text := strings.TrimSpace(f[11])
		if text == "" {
			continue
		}
		n := [4]int{}
		ok := true
		for i := range 4 {
			v, err := strconv.Atoi(f[6+i])
			n[i], ok = v, ok && err == nil
		}
		if ok {
			ws = append(ws, word{n[0], n[1], n[2], n[3], text})
		}
	}
	return ws
}

// readByCells reads the zone cut bin cell by cell (see the top of this
// file) and returns the zone's lines, '?' where a character was not read.
func (r *Recognizer) readByCells(ctx context.Context, bin *raster, bands [][2]int, h float64) (string, error) {
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
		return "", nil
	}
	const pad = charHeight / 2
	out, err := r.tesseract(ctx, wiped.pad(pad), psmBlock, "tsv")
	if err != nil {
		return "", err
	}
	text := make([][]byte, len(grid))
	for li, line := range grid {
		text[li] = make([]byte, len(line))
		for i, c := range line {
			switch {
			case c == nil:
				text[li][i] = '?'
			case c.filler:
				text[li][i] = '<'
			default:
				text[li][i] = '?'
			}
		}
	}
	for _, wd := range parseTSV(out) {
		wd.left -= pad
		wd.top -= pad
		cy := wd.top + wd.height/2
		li := -1
		for k, b := range bands {
			if cy >= b[0] && cy < b[1] {
				li = k
			}
		}
		if li < 0 || len(grid[li]) == 0 {
			continue
		}
		var places []int
		for i, c := range grid[li] {
			if c != nil && !c.filler && c.cx() >= float64(wd.left) && c.cx() <= float64(wd.left+wd.width) {
				places = append(places, i)
			}
		}
		if len(places) == 0 {
			continue
		}
		if len(places) == len(wd.text) {
			for k, i := range places {
				text[li][i] = wd.text[k]
			}
			continue
		}
		// Tesseract read more or fewer characters than there are: put
		// each where its share of the word's width falls.
		for k := range len(wd.text) {
			x := float64(wd.left) + (float64(k)+0.5)*float64(wd.width)/float64(len(wd.text))
			best, dist := -1, math.MaxFloat64
			for _, i := range places {
				if d := math.Abs(grid[li][i].cx() - x); d < dist && text[li][i] == '?' {
					best, dist = i, d
				}
			}
			if best >= 0 {
				text[li][best] = wd.text[k]
			}
		}
	}
	lines := make([]string, len(text))
	for i, t := range text {
		lines[i] = string(t)
	}
	return strings.Join(lines, "\n"), nil
}
