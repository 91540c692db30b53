// Package mrz reads the machine-readable zone of travel documents from OCR
// text: ICAO 9303 TD3 (passports), TD2 and TD1 (ID cards), and the one-line
// zone of the Chinese Exit-Entry Permit for Hong Kong and Macao. OCR output
// is noisy, so the parser finds the zone among other lines, repairs line
// lengths and uses the check digits to undo the usual misreadings (O/0, B/8,
// '<' read as K ...), reporting every change it made. It does no OCR itself.
package mrz

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Errors a caller can test with errors.Is.
var (
	// ErrNoMRZ: nothing in the text has the shape of a supported zone.
	ErrNoMRZ = errors.New("mrz: no machine-readable zone found")
	// ErrCheckDigit: a check digit does not match and no correction fixes it.
	ErrCheckDigit = errors.New("mrz: check digit mismatch")
	// ErrInvalidField: a field holds a value its type does not allow (a date
	// that does not exist, a sex other than M/F/X/<, a country with digits).
	ErrInvalidField = errors.New("mrz: invalid field")
	// ErrUnsupported: a zone was found but this package does not read that
	// kind of document (visas; the three-line Chinese permit zones).
	ErrUnsupported = errors.New("mrz: unsupported document")
)

// FieldError says which field of which format failed.
type FieldError struct {
	Format Format
	Field  string
	Value  string
	Err    error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%v: %s %s %q", e.Err, e.Format, e.Field, e.Value)
}

func (e *FieldError) Unwrap() error { return e.Err }

// Correction is one change the parser made to the OCR text.
type Correction struct {
	Field string `json:"field"`
	// Line and Col locate the character in the zone (from 0); Col is -1 for
	// changes to a whole line (padding, trimming).
	Line int    `json:"line"`
	Col  int    `json:"col"`
	From string `json:"from"`
	To   string `json:"to"`
	// Verified is true when a check digit confirms the change.
	Verified bool `json:"verified"`
}

// Spec document types (portal-spec §3, booking-flow codes).
const (
	TypePassport        = "passport"
	TypeChinesePassport = "chinese-passport"
	TypeIDCard          = "idcard"
	TypeExitEntryPermit = "eep"
)

// Result is what the zone says. Dates are yyyy-mm-dd; Gender is "male",
// "female" or "" when the document leaves it unspecified or does not carry it.
type Result struct {
	Type           string  `json:"type"`
	TravelDocument string  `json:"travel_document"`
	Surname        string  `json:"surname"`
	GivenNames     string  `json:"given_names"`
	Nationality    string  `json:"nationality"`
	Birthday       string  `json:"birthday"`
	Gender         string  `json:"gender"`
	Expiry         string  `json:"expiry"`
	IssuingCountry string  `json:"issuing_country"`
	Confidence     float64 `json:"confidence"`

	Format       Format `json:"format"`
	DocumentCode string `json:"document_code"`
	// OptionalData is the personal number (TD3) or the first optional field;
	// OptionalData2 is TD1's second line optional field.
	OptionalData  string `json:"optional_data,omitempty"`
	OptionalData2 string `json:"optional_data2,omitempty"`
	// NameTruncated: the name filled its field to the last character, which
	// ICAO uses for names cut to fit.
	NameTruncated bool         `json:"name_truncated"`
	Corrections   []Correction `json:"corrections"`
	// Lines is the zone after corrections.
	Lines []string `json:"lines"`
}

// Parse reads the zone from OCR text, with two-digit years resolved against
// the current date.
func Parse(text string) (*Result, error) {
	return ParseAt(text, time.Now())
}

// MaxInput bounds the OCR text ParseAt reads: one document page is a few
// kilobytes, and the work grows with every line that looks like a zone.
const MaxInput = 64 << 10

// ParseAt is Parse with the date two-digit years are resolved against: a
// birth date is the latest date with those digits not after now; an expiry
// date lies within 50 years either side of now.
func ParseAt(text string, now time.Time) (*Result, error) {
	return ParseKeeping(text, now, nil)
}

// Place is one character of the OCR text: line (of the zone lines given)
// and column, both from 0.
type Place struct{ Line, Col int }

// ParseKeeping is ParseAt for a caller sure of some characters (it told
// look-alikes apart by other means): the characters at sure, placed in
// the lines of text that could be zone lines (26 characters or more), are
// never swapped for the look-alikes a check digit would allow.
func ParseKeeping(text string, now time.Time, sure []Place) (*Result, error) {
	if len(text) > MaxInput {
		return nil, fmt.Errorf("%w: text of %d bytes is over %d", ErrNoMRZ, len(text), MaxInput)
	}
	lines, notes := candidateLines(text)
	var best error
	rank := func(err error) int {
		switch {
		case errors.Is(err, ErrCheckDigit), errors.Is(err, ErrInvalidField):
			return 3
		case errors.Is(err, ErrUnsupported):
			return 2
		}
		return 1
	}
	keep := func(err error) {
		if best == nil || rank(err) > rank(best) {
			best = err
		}
	}
	for i := range lines {
		for _, l := range []layout{layoutTD3, layoutTD1, layoutTD2, layoutCNExitEntry} {
			if i+l.lines > len(lines) || !shapeFits(lines[i:i+l.lines], l) {
				continue
			}
			kept := map[pos]bool{}
			for _, k := range sure {
				kept[pos{k.Line - i, k.Col}] = true
			}
			r, err := parseZone(lines[i:i+l.lines], l, now, kept)
			if err != nil && errors.Is(err, ErrCheckDigit) {
				if r2 := realign(lines[i:i+l.lines], l, now, kept); r2 != nil {
					r, err = r2, nil
				}
			}
			if err != nil {
				keep(err)
				continue
			}
			for _, n := range notes {
				if n.Line >= i && n.Line < i+l.lines {
					n.Line -= i
					r.Corrections = append([]Correction{n}, r.Corrections...)
				}
			}
			r.Confidence = confidence(r.Corrections)
			return r, nil
		}
	}
	if best == nil {
		best = ErrNoMRZ
	}
	return nil, best
}

// realign retries a zone whose check digits failed when exactly one line is
// one character off its width: OCR drops a '<' from a long filler run or
// adds a stray character, which shifts every field after it, so padding or
// cutting at the end cannot help. Each place the character could have been
// lost or added is tried; the check digits pick the one that holds.
func realign(group []string, l layout, now time.Time, kept map[pos]bool) *Result {
	off := -1
	for k, s := range group {
		if d := len(s) - l.width; d == 1 || d == -1 {
			if off >= 0 {
				return nil
			}
			off = k
		} else if d != 0 {
			return nil
		}
	}
	if off < 0 {
		return nil
	}
	s := group[off]
	try := make([]string, len(group))
	copy(try, group)
	attempt := func(line string, fix Correction) *Result {
		try[off] = line
		r, err := parseZone(try, l, now, kept)
		if err != nil {
			return nil
		}
		r.Corrections = append([]Correction{fix}, r.Corrections...)
		return r
	}
	if len(s) > l.width {
		for col := range len(s) {
			if r := attempt(s[:col]+s[col+1:], Correction{Field: "line", Line: off, Col: col, From: s[col : col+1], To: ""}); r != nil {
				return r
			}
		}
		return nil
	}
	// A lost filler was next to another filler: try those places first, as
	// a '<' slipped into the data would pass the check digit one time in ten.
	for _, nearFiller := range []bool{true, false} {
		for col := 0; col <= len(s); col++ {
			near := (col > 0 && s[col-1] == '<') || (col < len(s) && s[col] == '<')
			if near != nearFiller {
				continue
			}
			if r := attempt(s[:col]+"<"+s[col:], Correction{Field: "line", Line: off, Col: col, From: "", To: "<"}); r != nil {
				return r
			}
		}
	}
	return nil
}

// candidateLines cleans every line of the OCR text: upper case, no blanks,
// '«' (a common misreading of '<<' or '<') turned into '<', anything outside
// the MRZ alphabet dropped. Lines too short to be part of a zone are left
// out. notes records the '«' replacements, indexed by the kept line.
func candidateLines(text string) ([]string, []Correction) {
	var out []string
	var notes []Correction
	for _, raw := range strings.Split(strings.ReplaceAll(text, "\r", "\n"), "\n") {
		var b strings.Builder
		guillemets := 0
		for _, r := range strings.ToUpper(raw) {
			switch {
			case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '<':
				b.WriteRune(r)
			case r == '«' || r == '‹':
				b.WriteByte('<')
				guillemets++
			}
		}
		s := b.String()
		if len(s) < 26 {
			continue
		}
		if guillemets > 0 {
			notes = append(notes, Correction{Field: "line", Line: len(out), Col: -1, From: "«", To: "<"})
		}
		out = append(out, s)
	}
	return out, notes
}

// shapeFits says whether lines could be zone l: each within a few characters
// of the width (OCR drops or adds a few), and the first character a document
// code letter.
func shapeFits(lines []string, l layout) bool {
	for _, s := range lines {
		if len(s) < l.width-4 || len(s) > l.width+4 {
			return false
		}
	}
	if l.format == FormatCNExitEntry {
		return strings.HasPrefix(lines[0], "C")
	}
	return strings.ContainsRune("PIACV", rune(lines[0][0]))
}

// confidence starts at 1 and drops per change: little for a change a check
// digit confirms, more for one nothing confirms (names, countries, line
// repairs).
func confidence(cs []Correction) float64 {
	c := 1.0
	for _, x := range cs {
		switch {
		case x.Verified:
			c -= 0.02
		case x.Col < 0:
			c -= 0.05
		default:
			c -= 0.08
		}
	}
	return math.Round(math.Max(c, 0.1)*100) / 100
}
