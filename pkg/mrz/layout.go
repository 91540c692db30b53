package mrz

// Format names the physical layout of a machine-readable zone.
type Format string

// The layouts this package reads.
const (
	// FormatTD3 is the passport data page: 2 lines of 44 (ICAO 9303 Part 4).
	FormatTD3 Format = "TD3"
	// FormatTD2 is 2 lines of 36 (ICAO 9303 Part 6).
	FormatTD2 Format = "TD2"
	// FormatTD1 is the ID card: 3 lines of 30 (ICAO 9303 Part 5).
	FormatTD1 Format = "TD1"
	// FormatCNExitEntry is the one-line, 30-character zone on the card-type
	// Exit-Entry Permit for Travelling to and from Hong Kong and Macao
	// (往来港澳通行证, document code "CS"). It is not an ICAO layout; see
	// layoutCNExitEntry for the sources.
	FormatCNExitEntry Format = "CN-EEP"
)

// pos is one character of the zone: line index and column, both from 0.
type pos struct{ line, col int }

// span is a run of n characters of one line.
type span struct{ line, start, n int }

// holds reports whether the character at line, col lies in the span; an
// empty span (a field the format lacks) holds none.
func (s span) holds(line, col int) bool {
	return s.n > 0 && line == s.line && col >= s.start && col < s.start+s.n
}

func (s span) positions() []pos {
	p := make([]pos, s.n)
	for i := range p {
		p[i] = pos{s.line, s.start + i}
	}
	return p
}

// layout says where each field sits. A zero span (n == 0) means the format
// does not carry the field; a check position with line -1 means the field
// has no check digit of its own.
type layout struct {
	format   Format
	lines    int
	width    int
	code     span
	issuing  span
	docNum   span
	docCheck pos
	birth    span
	birthChk pos
	sex      pos
	expiry   span
	expChk   pos
	nation   span
	opt      span
	optCheck pos
	opt2     span
	name     span
	// composite lists the spans the final check digit covers, in order.
	composite []span
	compCheck pos
	// longDocNum: TD1 carries document numbers longer than 9 characters on
	// into the optional data, with '<' in the check-digit place (Part 5 §4.2.2
	// note j).
	longDocNum bool
}

var noPos = pos{-1, -1}

// ICAO 9303 Part 4 §4.2.2 (TD3).
var layoutTD3 = layout{
	format: FormatTD3, lines: 2, width: 44,
	code: span{0, 0, 2}, issuing: span{0, 2, 3}, name: span{0, 5, 39},
	docNum: span{1, 0, 9}, docCheck: pos{1, 9},
	nation: span{1, 10, 3},
	birth:  span{1, 13, 6}, birthChk: pos{1, 19},
	sex:    pos{1, 20},
	expiry: span{1, 21, 6}, expChk: pos{1, 27},
	opt: span{1, 28, 14}, optCheck: pos{1, 42},
	composite: []span{{1, 0, 10}, {1, 13, 7}, {1, 21, 22}}, compCheck: pos{1, 43},
}

// ICAO 9303 Part 6 §4.2.2 (TD2).
var layoutTD2 = layout{
	format: FormatTD2, lines: 2, width: 36,
	code: span{0, 0, 2}, issuing: span{0, 2, 3}, name: span{0, 5, 31},
	docNum: span{1, 0, 9}, docCheck: pos{1, 9},
	nation: span{1, 10, 3},
	birth:  span{1, 13, 6}, birthChk: pos{1, 19},
	sex:    pos{1, 20},
	expiry: span{1, 21, 6}, expChk: pos{1, 27},
	opt: span{1, 28, 7}, optCheck: noPos,
	composite: []span{{1, 0, 10}, {1, 13, 7}, {1, 21, 14}}, compCheck: pos{1, 35},
}

// ICAO 9303 Part 5 §4.2.2 (TD1).
var layoutTD1 = layout{
	format: FormatTD1, lines: 3, width: 30,
	code: span{0, 0, 2}, issuing: span{0, 2, 3},
	docNum: span{0, 5, 9}, docCheck: pos{0, 14},
	opt: span{0, 15, 15}, optCheck: noPos,
	birth: span{1, 0, 6}, birthChk: pos{1, 6},
	sex:    pos{1, 7},
	expiry: span{1, 8, 6}, expChk: pos{1, 14},
	nation:    span{1, 15, 3},
	opt2:      span{1, 18, 11},
	name:      span{2, 0, 30},
	composite: []span{{0, 5, 25}, {1, 0, 7}, {1, 8, 7}, {1, 18, 11}}, compCheck: pos{1, 29},
	longDocNum: true,
}

// layoutCNExitEntry is the one-line zone of the card-type Exit-Entry Permit
// for Travelling to and from Hong Kong and Macao (2014 card):
//
//	CS NNNNNNNNN C < YYMMDD C < YYMMDD C < C
//	   number      expiry     birth      composite
//
// Sources: Alibaba Cloud OCR RecognizeExitEntryPermitToHK reference
// (help.aliyun.com/en/ocr/developer-reference/api-recognizeexitentrypermittohk),
// whose sample zone "CSC886084772<2800800<8200000<6" has a valid 7-3-1 check
// digit on its number (its dates are anonymised and do not verify); and two
// open parsers (a Swift and a Java EepMrzParser) that read number [2:11],
// expiry [13:19] and birth [21:27], each followed by its check digit, and a
// composite at 29 over [2:12]+[13:20]+[21:28]. The zone carries no name, sex
// or nationality: the permit is issued by China to Chinese citizens, so
// nationality and issuing country are CHN. The composite's coverage comes
// from one of those parsers only and is not confirmed by an official text.
var layoutCNExitEntry = layout{
	format: FormatCNExitEntry, lines: 1, width: 30,
	code:   span{0, 0, 2},
	docNum: span{0, 2, 9}, docCheck: pos{0, 11},
	expiry: span{0, 13, 6}, expChk: pos{0, 19},
	birth: span{0, 21, 6}, birthChk: pos{0, 27},
	sex:       noPos,
	optCheck:  noPos,
	composite: []span{{0, 2, 10}, {0, 13, 7}, {0, 21, 7}}, compCheck: pos{0, 29},
}

// layouts finds the layout of each format by its name.
var layouts = map[Format]layout{
	FormatTD3:         layoutTD3,
	FormatTD2:         layoutTD2,
	FormatTD1:         layoutTD1,
	FormatCNExitEntry: layoutCNExitEntry,
}

// FieldAt names the field of a zone of format f that holds the character
// at line, col (from 0): "travel_document" or "optional_data" for the
// letters-and-digits fields a check digit guards, "" for the others and
// for places outside the zone. A TD1 number longer than nine characters
// runs on into its optional data, which is named so.
func FieldAt(f Format, line, col int) string {
	l, ok := layouts[f]
	if !ok {
		return ""
	}
	switch {
	case l.docNum.holds(line, col):
		return "travel_document"
	case l.opt.holds(line, col), l.opt2.holds(line, col):
		return "optional_data"
	}
	return ""
}

// LetterFieldAt names the letters-only field of a zone of format f that
// holds the character at line, col: "name", "nationality" or
// "issuing_country"; "" elsewhere. No check digit guards these fields, so a
// reader checks their characters another way (pkg/recognition compares
// their shapes with the font's).
func LetterFieldAt(f Format, line, col int) string {
	l, ok := layouts[f]
	if !ok {
		return ""
	}
	switch {
	case l.name.holds(line, col):
		return "name"
	case l.nation.holds(line, col):
		return "nationality"
	case l.issuing.holds(line, col):
		return "issuing_country"
	}
	return ""
}
