package recognition

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
)

// raster is an 8-bit grey picture, 0 black, 255 white.
type raster struct {
	w, h int
	pix  []uint8
}

func newRaster(w, h int) *raster { return &raster{w: w, h: h, pix: make([]uint8, w*h)} }

func (r *raster) at(x, y int) uint8 { return r.pix[y*r.w+x] }

// toRaster takes the luma of img, shrinking it by an integer factor so that
// its longer side is at most maxSide (box averaging, which also smooths
// sensor noise). JPEG's Y plane is used as it is.
func toRaster(img image.Image, maxSide int) *raster {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	f := 1
	for max(w, h)/f > maxSide {
		f++
	}
	out := newRaster(w/f, h/f)
	lum := func(x, y int) int {
		switch m := img.(type) {
		case *image.YCbCr:
			return int(m.Y[m.YOffset(x, y)])
		case *image.Gray:
			return int(m.Pix[m.PixOffset(x, y)])
		case *image.RGBA:
			o := m.PixOffset(x, y)
			return (299*int(m.Pix[o]) + 587*int(m.Pix[o+1]) + 114*int(m.Pix[o+2])) / 1000
		case *image.NRGBA:
			o := m.PixOffset(x, y)
			return (299*int(m.Pix[o]) + 587*int(m.Pix[o+1]) + 114*int(m.Pix[o+2])) / 1000
		}
		return int(color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y)
	}
	for y := range out.h {
		for x := range out.w {
			s := 0
			for dy := range f {
				for dx := range f {
					s += lum(b.Min.X+x*f+dx, b.Min.Y+y*f+dy)
				}
			}
			out.pix[y*out.w+x] = uint8(s / (f * f))
		}
	}
	return out
}

// shrink divides both sides by the integer f (box average).
func (r *raster) shrink(f int) *raster {
	if f <= 1 {
		return r
	}
	out := newRaster(r.w/f, r.h/f)
	for y := range out.h {
		for x := range out.w {
			s := 0
			for dy := range f {
				row := (y*f + dy) * r.w
				for dx := range f {
					s += int(r.pix[row+x*f+dx])
				}
			}
			out.pix[y*out.w+x] = uint8(s / (f * f))
		}
	}
	return out
}

// sample reads (x, y) by bilinear interpolation, white outside.
func (r *raster) sample(x, y float64) uint8 {
	if x < 0 || y < 0 || x > float64(r.w-1) || y > float64(r.h-1) {
		return 255
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, r.w-1), min(y0+1, r.h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	a := float64(r.at(x0, y0))*(1-fx) + float64(r.at(x1, y0))*fx
	b := float64(r.at(x0, y1))*(1-fx) + float64(r.at(x1, y1))*fx
	return uint8(a*(1-fy) + b*fy + 0.5)
}

// rotate turns the picture by deg degrees about its centre (positive turns
// a line that rises to the right back to level), keeping its size.
func (r *raster) rotate(deg float64) *raster {
	if deg == 0 {
		return r
	}
	a := deg * math.Pi / 180
	cos, sin := math.Cos(a), math.Sin(a)
	cx, cy := float64(r.w-1)/2, float64(r.h-1)/2
	out := newRaster(r.w, r.h)
	for y := range r.h {
		dy := float64(y) - cy
		for x := range r.w {
			dx := float64(x) - cx
			// Inverse mapping: the source of a destination pixel.
			out.pix[y*r.w+x] = r.sample(cx+dx*cos+dy*sin, cy-dx*sin+dy*cos)
		}
	}
	return out
}

// crop cuts rect (clipped to the picture) and scales it by s.
func (r *raster) crop(rect image.Rectangle, s float64) *raster {
	rect = rect.Intersect(image.Rect(0, 0, r.w, r.h))
	w, h := max(1, int(float64(rect.Dx())*s)), max(1, int(float64(rect.Dy())*s))
	out := newRaster(w, h)
	for y := range h {
		for x := range w {
			out.pix[y*w+x] = r.sample(float64(rect.Min.X)+(float64(x)+0.5)/s-0.5, float64(rect.Min.Y)+(float64(y)+0.5)/s-0.5)
		}
	}
	return out
}

// integral is the summed-area table of r, (w+1)×(h+1).
func (r *raster) integral() []int64 {
	w := r.w + 1
	sum := make([]int64, w*(r.h+1))
	for y := range r.h {
		var row int64
		for x := range r.w {
			row += int64(r.pix[y*r.w+x])
			sum[(y+1)*w+x+1] = sum[y*w+x+1] + row
		}
	}
	return sum
}

// binarize marks a pixel dark when it is darker by pct percent than the
// mean of the square of radius rad around it (Bradley's local threshold),
// which follows uneven light. The result holds 0 (ink) or 255.
func (r *raster) binarize(rad int, pct int) *raster {
	sum := r.integral()
	w := r.w + 1
	out := newRaster(r.w, r.h)
	for y := range r.h {
		y0, y1 := max(0, y-rad), min(r.h, y+rad+1)
		for x := range r.w {
			x0, x1 := max(0, x-rad), min(r.w, x+rad+1)
			n := int64((x1 - x0) * (y1 - y0))
			s := sum[y1*w+x1] - sum[y0*w+x1] - sum[y1*w+x0] + sum[y0*w+x0]
			v := int64(r.pix[y*r.w+x])
			if v*n*100 < s*int64(100-pct) {
				out.pix[y*r.w+x] = 0
			} else {
				out.pix[y*r.w+x] = 255
			}
		}
	}
	return out
}

// pad surrounds the picture with n white pixels.
func (r *raster) pad(n int) *raster {
	out := newRaster(r.w+2*n, r.h+2*n)
	for i := range out.pix {
		out.pix[i] = 255
	}
	for y := range r.h {
		copy(out.pix[(y+n)*out.w+n:], r.pix[y*r.w:(y+1)*r.w])
	}
	return out
}

// pgm encodes the picture as a binary PGM, which Tesseract (Leptonica)
// reads from stdin without any compression work on either side.
func (r *raster) pgm() []byte {
	var b bytes.Buffer
	b.Grow(len(r.pix) + 32)
	fmt.Fprintf(&b, "P5\n%s %s\n255\n", strconv.Itoa(r.w), strconv.Itoa(r.h))
	b.Write(r.pix)
	return b.Bytes()
}
