package recognition

import (
	"image"
	"math"
	"slices"
)

// skew estimates the angle, in degrees, by which the text of the binarized
// picture b rises to the right: the angle whose projection of the ink onto
// the vertical axis is sharpest (lines of text become tall peaks with empty
// rows between them). A coarse pass over ±maxSkew is refined around its best.
func skew(b *raster) float64 {
	var xs, ys []int32
	for y := range b.h {
		for x := range b.w {
			if b.pix[y*b.w+x] == 0 {
				xs, ys = append(xs, int32(x)), append(ys, int32(y))
			}
		}
	}
	if len(xs) == 0 {
		return 0
	}
	// Too much ink is texture, not text: thin it evenly to bound the work.
	step := max(1, len(xs)/150000)
	hist := make([]int32, b.h+b.w+2)
	score := func(deg float64) float64 {
		clear(hist)
		t := math.Tan(deg * math.Pi / 180)
		off := float64(b.w) * math.Abs(t)
		for i := 0; i < len(xs); i += step {
			k := int(float64(ys[i]) + float64(xs[i])*t + off)
			if k >= 0 && k < len(hist) {
				hist[k]++
			}
		}
		var s float64
		for k := 1; k < len(hist); k++ {
			d := float64(hist[k] - hist[k-1])
			s += d * d
		}
		return s
	}
	best, bestScore := 0.0, -1.0
	search := func(from, to, by float64) {
		for a := from; a <= to+1e-9; a += by {
			if s := score(a); s > bestScore {
				best, bestScore = a, s
			}
		}
	}
	search(-maxSkew, maxSkew, 0.5)
	c := best
	search(c-0.5, c+0.5, 0.1)
	return best
}

// maxSkew is the largest tilt looked for, in degrees.
const maxSkew = 12

// line is one row of characters found in the binarized picture.
type line struct {
	top, bottom int // rows, bottom exclusive
	left, right int // columns of the first and last character
	chars       int
	pitch       float64
}

func (l line) height() int { return l.bottom - l.top }

// zoneLines finds the rows of evenly spaced characters that make up a
// machine-readable zone: bands of rows with ink, cut into character blobs;
// a band qualifies when a run of at least minChars blobs has the constant
// pitch of a monospaced face (the zone's OCR-B), which proportional print
// around it does not have.
func zoneLines(b *raster) []line {
	rows := make([]int, b.h)
	for y := range b.h {
		n := 0
		for _, p := range b.pix[y*b.w : (y+1)*b.w] {
			if p == 0 {
				n++
			}
		}
		rows[y] = n
	}
	minInk := max(3, b.w/150)
	var out []line
	for y := 0; y < b.h; {
		if rows[y] < minInk {
			y++
			continue
		}
		top := y
		for y < b.h && rows[y] >= minInk {
			y++
		}
		// A band taller than a sixth of the picture is texture, not a
		// line, unless the picture is the zone alone: a line's height is
		// bounded by its width too (30 characters or more at a pitch about
		// its height).
		if h := y - top; h < 4 || h > max(b.h/6, b.w/12) {
			continue
		}
		out = append(out, bandLines(b, top, y)...)
	}
	return out
}

const minChars = 20

// bandLines looks for monospaced character runs within rows [top, bottom).
func bandLines(b *raster, top, bottom int) []line {
	h := bottom - top
	minCol := max(1, h/10)
	occupied := make([]bool, b.w)
	for x := range b.w {
		n := 0
		for y := top; y < bottom; y++ {
			if b.pix[y*b.w+x] == 0 {
				n++
			}
		}
		occupied[x] = n >= minCol
	}
	type blob struct{ l, r int }
	var blobs []blob
	for x := 0; x < b.w; {
		if !occupied[x] {
			x++
			continue
		}
		l := x
		for x < b.w && occupied[x] {
			x++
		}
		if w := x - l; w >= 2 && w <= h*3 {
			blobs = append(blobs, blob{l, x})
		}
	}
	var out []line
	// Chains of blobs no further apart than a few character heights.
	for i := 0; i < len(blobs); {
		j := i + 1
		for j < len(blobs) && blobs[j].l-blobs[j-1].r < h*2 {
			j++
		}
		chain := blobs[i:j]
		i = j
		if len(chain) < minChars {
			continue
		}
		gaps := make([]float64, len(chain)-1)
		for k := 1; k < len(chain); k++ {
			gaps[k-1] = float64(chain[k].l+chain[k].r-chain[k-1].l-chain[k-1].r) / 2
		}
		sorted := slices.Clone(gaps)
		slices.Sort(sorted)
		pitch := sorted[len(sorted)/2]
		regular := 0
		for _, g := range gaps {
			// A blob split in two or two blobs run together still lie on
			// the grid: count distances near a whole number of pitches.
			if n := math.Round(g / pitch); n >= 1 && math.Abs(g-n*pitch) < pitch*0.3 {
				regular++
			}
		}
		if float64(regular) < 0.8*float64(len(gaps)) || pitch < float64(h)*0.3 || pitch > float64(h)*2 {
			continue
		}
		// Specks and edges next to the line are off its grid: trim them.
		onGrid := func(g float64) bool { return math.Abs(g-pitch) < pitch*0.3 }
		for len(chain) > minChars && !onGrid(gaps[0]) {
			chain, gaps = chain[1:], gaps[1:]
		}
		for len(chain) > minChars && !onGrid(gaps[len(gaps)-1]) {
			chain, gaps = chain[:len(chain)-1], gaps[:len(gaps)-1]
		}
		l := line{top: top, bottom: bottom, left: chain[0].l, right: chain[len(chain)-1].r,
			chars: int(math.Round(float64(chain[len(chain)-1].r-chain[0].l)/pitch)) + 1, pitch: pitch}
		// The band may hold ink above or below the line (a frame, the
		// page's edge): keep the rows the line's own columns fill.
		counts := make([]int, h)
		most := 0
		for y := top; y < bottom; y++ {
			for x := l.left; x < l.right; x++ {
				if b.pix[y*b.w+x] == 0 {
					counts[y-top]++
				}
			}
			most = max(most, counts[y-top])
		}
		first, last := -1, -1
		for i, c := range counts {
			if c*8 >= most {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first >= 0 {
			l.top, l.bottom = top+first, top+last+1
		}
		out = append(out, l)
	}
	return out
}

// zones groups the lines into candidate zones, the lowest first: up to
// three consecutive lines of about the same height and pitch, stacked
// closely.
func zones(ls []line) [][]line {
	var out [][]line
	for i := len(ls) - 1; i >= 0; {
		group := []line{ls[i]}
		j := i - 1
		for ; j >= 0 && len(group) < 3; j-- {
			a, b := ls[j], group[0]
			if b.top-a.bottom > 2*b.height() || math.Abs(a.pitch-b.pitch) > 0.2*b.pitch ||
				a.height() > b.height()*3/2+1 || b.height() > a.height()*3/2+1 {
				break
			}
			group = append([]line{a}, group...)
		}
		out = append(out, group)
		i = j
	}
	return out
}

// bounds is the rectangle around a group of lines, with a margin of about
// a character on each side.
func bounds(g []line) image.Rectangle {
	r := image.Rect(g[0].left, g[0].top, g[0].right, g[0].bottom)
	for _, l := range g[1:] {
		r = r.Union(image.Rect(l.left, l.top, l.right, l.bottom))
	}
	mx, my := int(g[0].pitch*1.2)+2, g[0].height()/2+2
	return image.Rect(r.Min.X-mx, r.Min.Y-my, r.Max.X+mx, r.Max.Y+my)
}

// component is a connected run of ink (8-connected) and its bounding box
// (x1, y1 inclusive).
type component struct {
	x0, y0, x1, y1, area int
}

func (c component) width() int  { return c.x1 - c.x0 + 1 }
func (c component) height() int { return c.y1 - c.y0 + 1 }

// components labels the ink of b: label[i] is 0 for paper, else 1 + the
// index of the pixel's component in comps.
func components(b *raster) (label []int32, comps []component) {
	w, h := b.w, b.h
	label = make([]int32, w*h)
	parent := []int32{0}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for y := range h {
		for x := range w {
			i := y*w + x
			if b.pix[i] != 0 {
				continue
			}
			var ns [4]int32
			n := 0
			if x > 0 && label[i-1] != 0 {
				ns[n], n = label[i-1], n+1
			}
			if y > 0 {
				for dx := -1; dx <= 1; dx++ {
					if x+dx >= 0 && x+dx < w && label[i-w+dx] != 0 {
						ns[n], n = label[i-w+dx], n+1
					}
				}
			}
			if n == 0 {
				parent = append(parent, int32(len(parent)))
				label[i] = int32(len(parent) - 1)
				continue
			}
			root := find(ns[0])
			for _, o := range ns[1:n] {
				if r := find(o); r != root {
					if r < root {
						root, r = r, root
					}
					parent[r] = root
				}
			}
			label[i] = root
		}
	}
	index := make([]int32, len(parent))
	for y := range h {
		for x := range w {
			i := y*w + x
			if label[i] == 0 {
				continue
			}
			r := find(label[i])
			if index[r] == 0 {
				comps = append(comps, component{x0: x, y0: y, x1: x, y1: y})
				index[r] = int32(len(comps))
			}
			label[i] = index[r]
			c := &comps[index[r]-1]
			c.x0, c.y0 = min(c.x0, x), min(c.y0, y)
			c.x1, c.y1 = max(c.x1, x), max(c.y1, y)
			c.area++
		}
	}
	return label, comps
}

// glyphMask keeps the ink of b that could be characters: connected
// components of character size. Frames, photo edges, rules and specks go,
// so that they neither join nor fake rows of text.
func glyphMask(b *raster) *raster {
	label, comps := components(b)
	// A character is at most a twentieth of the picture's width: a zone
	// line holds 30 or more of them side by side. (Bounding it by the
	// height instead drops every character of a picture that is the zone
	// alone.)
	maxH := max(8, b.w/20)
	keep := make([]bool, len(comps)+1)
	for i, c := range comps {
		keep[i+1] = c.height() >= 4 && c.height() <= maxH && c.width() <= c.height()*3 && c.area >= 6
	}
	out := newRaster(b.w, b.h)
	for i, l := range label {
		if l != 0 && keep[l] {
			out.pix[i] = 0
		} else {
			out.pix[i] = 255
		}
	}
	return out
}
