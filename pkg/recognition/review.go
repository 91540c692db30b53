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
		res = r.reviewLetters(res, cells, unsure)
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
	// A letter the parser swapped for another letter in a field without a
	// check digit (SPN → SPM, to make a known country) is a guess unless
	// the cell's shape says so too.
	for _, c := range res.Corrections {
		if c.Verified || c.Col < 0 || len(c.From) != 1 || len(c.To) != 1 || !isLetter(c.From[0]) || !isLetter(c.To[0]) {
			continue
		}
		field := mrz.LetterFieldAt(res.Format, c.Line, c.Col)
		if field == "" {
			continue
		}
		if aligned {
			v, ok := judgeCell(cells.label, cells.w, cells.grid[c.Line][c.Col], c.To[0], digitHeight(cells, c.Line), true)
			if ok && v.best == c.To[0] {
				continue
			}
		}
		unsure[answerField(res, c.Line, c.Col, field)] = true
	}
	var out []string
	for _, f := range []string{"surname", "given_names", "nationality", "issuing_country"} {
		if unsure[f] {
			out = append(out, f)
			res.Confidence = min(res.Confidence, capOther)
		}
	}
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

// rewriteMargin is how much better the shape of a cell in a letters-only
// field (names, country codes) must fit another letter to replace
// Tesseract's reading: no check digit confirms such a change, so the bar
// is higher than strongMargin, which only marks the field uncertain.
const rewriteMargin = 0.3

// reviewLetters checks the letters of the fields no check digit guards
// (names, nationality, issuing country) against the shapes of their cells:
// Tesseract now and then reads a letter as another with high confidence
// (OCR-B's K as A, J as 5), and nothing else would notice. A letter whose
// shape clearly fits another marks its field uncertain; one whose shape
// fits another by far is replaced, when the zone still parses with it.
func (r *Recognizer) reviewLetters(res *mrz.Result, cells cellText, unsure map[string]bool) *mrz.Result {
	lines := make([][]byte, len(res.Lines))
	var changed []mrz.Place
	for li, l := range res.Lines {
		lines[li] = []byte(l)
		for col := range len(l) {
			ch := l[col]
			field := mrz.LetterFieldAt(res.Format, li, col)
			if field == "" || !isLetter(ch) {
				continue
			}
			v, ok := judgeCell(cells.label, cells.w, cells.grid[li][col], ch, digitHeight(cells, li), true)
			if !ok || v.best == ch || v.margin <= strongMargin {
				continue
			}
			unsure[answerField(res, li, col, field)] = true
			if v.margin > rewriteMargin && isLetter(v.best) {
				lines[li][col] = v.best
				changed = append(changed, mrz.Place{Line: li, Col: col})
			}
		}
	}
	if len(changed) == 0 {
		return res
	}
	text := make([]string, len(lines))
	for i, l := range lines {
		text[i] = string(l)
	}
	fixed, err := mrz.ParseKeeping(strings.Join(text, "\n"), r.cfg.Now(), changed)
	if err != nil || fixed.Format != res.Format || len(fixed.Lines) != len(lines) {
		return res
	}
	for _, p := range changed {
		if fixed.Lines[p.Line][p.Col] != lines[p.Line][p.Col] {
			return res
		}
	}
	fixed.Confidence = min(fixed.Confidence, res.Confidence)
	return fixed
}

// answerField is the Document field (its JSON key) that holds the
// character at line, col of letters-only field: a name's characters
// before its first "<<" are the surname's, the rest the given names'.
func answerField(res *mrz.Result, line, col int, field string) string {
	if field != "name" {
		return field
	}
	l := res.Lines[line]
	start := col
	for start > 0 && mrz.LetterFieldAt(res.Format, line, start-1) == "name" {
		start--
	}
	if k := strings.Index(l[start:], "<<"); k >= 0 && col >= start+k {
		return "given_names"
	}
	return "surname"
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' }
