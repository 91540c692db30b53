package recognition

import (
	"slices"
	"strings"

	"github.com/voyage/voyage/pkg/mrz"
)

// The shape check's thresholds. Tesseract's character confidences run from
// 0 to 100; under unsureConf it is guessing between shapes. A shape that
// fits better by more than strongMargin overrules any reading, by more than
// weakMargin only an unsure one; a fit within sureMargin of another glyph
// confirms nothing.
const (
	unsureConf   = 90
	strongMargin = 0.10
	weakMargin   = 0.03
	sureMargin   = 0.03
)

// Confidence caps for a reading with uncertain fields: the document number
// is what a booking cannot do with wrong.
const (
	capDocNumber = 0.6
	capOther     = 0.75
)

// review checks the letters-and-digits fields of res (document number,
// optional data) against the shapes of their cells in the cell reading
// cells, changes the characters whose shape says otherwise when the check
// digits still hold, and says which fields are uncertain, lowering the
// confidence to match.
func (r *Recognizer) review(res *mrz.Result, cells cellText) (*mrz.Result, []string) {
	unsure := map[string]bool{}
	shaped := map[mrz.Place]bool{} // characters the shapes are sure of
	aligned := len(cells.grid) == len(res.Lines) && len(cells.text) == len(res.Lines)
	for li := range res.Lines {
		if !aligned || len(cells.grid[li]) != len(res.Lines[li]) {
			aligned = false
		}
	}
	if aligned {
		lines := make([][]byte, len(res.Lines))
		for i, l := range res.Lines {
			lines[i] = []byte(l)
		}
		type change struct {
			line, col int
			to        byte
			field     string
			strong    bool
		}
		var changes []change
		var sure []mrz.Place
		for li, l := range lines {
			for col, ch := range l {
				field := mrz.FieldAt(res.Format, li, col)
				if field == "" || ch == '<' {
					continue
				}
				c := cells.grid[li][col]
				conf := cells.conf[li][col]
				if cells.text[li][col] != ch {
					// The parser changed what Tesseract read here.
					conf = 0
				}
				// Where Tesseract was unsure, every glyph is a candidate.
				v, ok := judgeCell(cells.label, cells.w, c, ch, digitHeight(cells, li), conf < unsureConf)
				switch {
				case ok && v.best != ch && (v.margin > strongMargin || (conf < unsureConf && v.margin > weakMargin)):
					changes = append(changes, change{li, col, v.best, field, v.margin > strongMargin})
					sure = append(sure, mrz.Place{Line: li, Col: col})
				case ok && v.best != ch:
					unsure[field] = true
				case ok && sureOf(cells, li, c, ch):
					sure = append(sure, mrz.Place{Line: li, Col: col})
				case conf < unsureConf:
					unsure[field] = true
				}
			}
		}
		try := func(changes []change, sure []mrz.Place) bool {
			text := make([]string, len(lines))
			for i, l := range lines {
				t := []byte(l)
				for _, c := range changes {
					if c.line == i {
						t[c.col] = c.to
					}
				}
				text[i] = string(t)
			}
			fixed, err := mrz.ParseKeeping(strings.Join(text, "\n"), r.cfg.Now(), sure)
			held := err == nil && fixed.Format == res.Format && len(fixed.Lines) == len(lines)
			for _, c := range changes {
				if held && fixed.Lines[c.line][c.col] != c.to {
					held = false
				}
			}
			if held {
				// What the shapes say is kept; what the check digits
				// needed besides is recorded in fixed's corrections.
				fixed.Confidence = min(fixed.Confidence, res.Confidence)
				res = fixed
			}
			return held
		}
		if len(changes) > 0 {
			held := try(changes, sure)
			for _, c := range changes {
				// A shape that overruled the reading only narrowly, or
				// that the check digits refuse, leaves doubt.
				if !held || !c.strong {
					unsure[c.field] = true
				}
			}
			if !held {
				// Tesseract is sometimes sure and wrong beyond the
				// look-alikes (OCR-B's 9 read as I, U as V): every
				// character the whole alphabet's shapes clearly read
				// otherwise is changed too, if the check digits then hold.
				var wide []change
				wideSure := slices.Clone(sure)
				for li, l := range lines {
					for col, ch := range l {
						field := mrz.FieldAt(res.Format, li, col)
						if field == "" || ch == '<' {
							continue
						}
						v, ok := judgeCell(cells.label, cells.w, cells.grid[li][col], ch, digitHeight(cells, li), true)
						if ok && v.best != ch && v.margin > strongMargin {
							wide = append(wide, change{li, col, v.best, field, true})
							wideSure = append(wideSure, mrz.Place{Line: li, Col: col})
						} else if k := slices.IndexFunc(changes, func(c change) bool { return c.line == li && c.col == col }); k >= 0 {
							wide = append(wide, changes[k])
						}
					}
				}
				if !slices.Equal(wide, changes) && try(wide, wideSure) {
					sure = wideSure
				}
			}
		}
		for _, p := range sure {
			shaped[p] = true
		}
	}
	// A check digit's correction is a guess among look-alikes unless the
	// shape of the character confirms it.
	for _, c := range res.Corrections {
		switch c.Field {
		case "travel_document", "optional_data":
			if c.Col < 0 || !shaped[mrz.Place{Line: c.Line, Col: c.Col}] {
				unsure[c.Field] = true
			}
		}
	}
	var out []string
	if unsure["travel_document"] {
		out = append(out, "travel_document")
		res.Confidence = min(res.Confidence, capDocNumber)
	}
	if unsure["optional_data"] {
		// Not a field of the answer, but the composite check digit covers
		// it together with the document number.
		res.Confidence = min(res.Confidence, capOther)
	}
	slices.Sort(out)
	return res, out
}

// sureOf says whether the shape of cell c clearly fits ch better than every
// other glyph of its confusable group (or ch has no such group).
func sureOf(cells cellText, li int, c *cell, ch byte) bool {
	if groupOf(ch) == "" {
		return false
	}
	v, ok := judgeCell(cells.label, cells.w, c, ch, digitHeight(cells, li), false)
	if !ok || v.best != ch {
		return false
	}
	return runnerUp(cells, li, c, ch) > sureMargin
}

// runnerUp is how much better ch's glyph fits cell c than the next best of
// its group.
func runnerUp(cells cellText, li int, c *cell, ch byte) float64 {
	best := 2.0
	for _, k := range []byte(groupOf(ch)) {
		if k == ch {
			continue
		}
		v, ok := judgeCell(cells.label, cells.w, c, k, digitHeight(cells, li), false)
		if !ok {
			return 0
		}
		// judgeCell's margin is best − asked; with ch the best, asked k
		// gives score(ch) − score(k).
		best = min(best, v.margin)
	}
	return best
}

// digitHeight is the median height of the cells of line li that Tesseract
// read, surely, as digits that have no look-alike; 0 when there are too few
// to tell.
func digitHeight(cells cellText, li int) float64 {
	var hs []int
	for i, c := range cells.grid[li] {
		ch := cells.text[li][i]
		if c != nil && isDigit(ch) && groupOf(ch) == "" && cells.conf[li][i] >= unsureConf {
			hs = append(hs, c.y1-c.y0+1)
		}
	}
	if len(hs) < 3 {
		return 0
	}
	slices.Sort(hs)
	return float64(hs[len(hs)/2])
}
