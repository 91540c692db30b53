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
		}
		var changes []change
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
				v, ok := judgeCell(cells.label, cells.w, c, ch)
				switch {
				case ok && v.best != ch && (v.margin > strongMargin || (conf < unsureConf && v.margin > weakMargin)):
					changes = append(changes, change{li, col, v.best, field})
				case ok && v.best != ch:
					unsure[field] = true
				case conf < unsureConf && !(ok && sureOf(cells, c, ch)):
					unsure[field] = true
				}
			}
		}
		if len(changes) > 0 {
			for _, c := range changes {
				lines[c.line][c.col] = c.to
			}
			text := make([]string, len(lines))
			for i, l := range lines {
				text[i] = string(l)
			}
			fixed, err := mrz.ParseAt(strings.Join(text, "\n"), r.cfg.Now())
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
			for _, c := range changes {
				// A shape against the reading is doubt either way.
				unsure[c.field] = true
			}
		}
	}
	// Without a cell reading to check against, only the corrections speak.
	for _, c := range res.Corrections {
		switch c.Field {
		case "travel_document", "optional_data":
			unsure[c.Field] = true
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
func sureOf(cells cellText, c *cell, ch byte) bool {
	if groupOf(ch) == "" {
		return false
	}
	v, ok := judgeCell(cells.label, cells.w, c, ch)
	if !ok || v.best != ch {
		return false
	}
	return runnerUp(cells, c, ch) > sureMargin
}

// runnerUp is how much better ch's glyph fits cell c than the next best of
// its group.
func runnerUp(cells cellText, c *cell, ch byte) float64 {
	best := 2.0
	for _, k := range []byte(groupOf(ch)) {
		if k == ch {
			continue
		}
		v, ok := judgeCell(cells.label, cells.w, c, k)
		if !ok {
			return 0
		}
		// judgeCell's margin is best − asked; with ch the best, asked k
		// gives score(ch) − score(k).
		best = min(best, v.margin)
	}
	return best
}
