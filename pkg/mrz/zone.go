package mrz

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// OCR confusions, per the kind of field the character sits in.
var (
	// toDigit: letters OCR reads for digits, in digit-only fields.
	toDigit = map[byte]byte{'O': '0', 'D': '0', 'Q': '0', 'I': '1', 'L': '1', 'B': '8', 'S': '5', 'Z': '2', 'G': '6'}
	// toLetter: digits OCR reads for letters, in letter-only fields.
	toLetter = map[byte]byte{'0': 'O', '1': 'I', '8': 'B', '5': 'S', '2': 'Z', '6': 'G'}
	// alternatives: what an ambiguous character in a letters-and-digits
	// field may really be; the check digit decides. G/6, L/1 and K/< are
	// missing on purpose: their values differ by 10 or 20, so the 7-3-1
	// check digit cannot tell them apart (see contextFix).
	alternatives = map[byte][]byte{
		'0': {'O', 'D'}, 'O': {'0', 'D'}, 'D': {'0', 'O'}, 'Q': {'0'},
		'1': {'I'}, 'I': {'1'},
		'8': {'B'}, 'B': {'8'}, '5': {'S'}, 'S': {'5'},
		'2': {'Z'}, 'Z': {'2'},
		'C': {'<'}, 'X': {'<'},
	}
)

// fillerLike are letters OCR reads for the filler '<'.
const fillerLike = "KCX"

// maxChanges bounds the corrections tried in one checked field. A check
// digit passes one wrong reading in ten, so every extra change tried makes a
// false "correction" likelier; two is where real double misreadings are
// still caught.
const maxChanges = 2

type zone struct {
	l     layout
	lines [][]byte
	fixes []Correction
	// keep: characters the caller is sure of, never swapped.
	keep map[pos]bool
}

func (z *zone) at(p pos) byte { return z.lines[p.line][p.col] }

func (z *zone) read(ps []pos) string {
	b := make([]byte, len(ps))
	for i, p := range ps {
		b[i] = z.at(p)
	}
	return string(b)
}

func (z *zone) set(field string, p pos, c byte, verified bool) {
	if z.at(p) == c {
		return
	}
	// A second change of one character (8 → B → S) is one correction
	// from what OCR read.
	for i := range z.fixes {
		if f := &z.fixes[i]; f.Line == p.line && f.Col == p.col {
			z.lines[p.line][p.col] = c
			if f.From == string(c) {
				z.fixes = append(z.fixes[:i], z.fixes[i+1:]...)
			} else {
				f.To, f.Verified = string(c), verified
			}
			return
		}
	}
	z.fixes = append(z.fixes, Correction{Field: field, Line: p.line, Col: p.col, From: string(z.at(p)), To: string(c), Verified: verified})
	z.lines[p.line][p.col] = c
}

func (z *zone) fail(field string, value string, err error) error {
	return &FieldError{Format: z.l.format, Field: field, Value: value, Err: err}
}

// fit pads or cuts a line to the layout's width. OCR most often loses or
// gains fillers at the end of a line, so that is where it pads and cuts; a
// line whose middle moved fails its check digits.
func (z *zone) fit(i int, s string) {
	w := z.l.width
	switch {
	case len(s) > w:
		z.fixes = append(z.fixes, Correction{Field: "line", Line: i, Col: -1, From: s[w:], To: ""})
		s = s[:w]
	case len(s) < w:
		pad := strings.Repeat("<", w-len(s))
		z.fixes = append(z.fixes, Correction{Field: "line", Line: i, Col: -1, From: "", To: pad})
		s += pad
	}
	z.lines = append(z.lines, []byte(s))
}

// digits makes every character of a digits-only field a digit, through
// toDigit; allowFiller keeps '<' (and maps K/C/X to it) for check digits of
// optional data.
func (z *zone) digits(field string, ps []pos, allowFiller bool) {
	for _, p := range ps {
		c := z.at(p)
		if d, ok := toDigit[c]; ok {
			z.set(field, p, d, false)
		} else if allowFiller && strings.IndexByte(fillerLike, c) >= 0 {
			z.set(field, p, '<', false)
		}
	}
}

// letters makes every character of a letters-only field a letter or '<'.
func (z *zone) letters(field string, ps []pos) {
	for _, p := range ps {
		if l, ok := toLetter[z.at(p)]; ok {
			z.set(field, p, l, false)
		}
	}
}

type candidate struct {
	value   string
	changed []int
	cost    int
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' }

// changeCost prices swapping b[i] for alt by its neighbours: a change that
// makes a character agree with the class of a neighbour (a letter among
// digits becoming a digit) is plausible; one against both neighbours, or a
// filler not next to another filler, is not tried at all (-1). Without this a check digit, which passes one reading in
// ten, would "confirm" arbitrary swaps.
func changeCost(b []byte, i int, alt byte) int {
	agree, disagree := 0, 0
	for _, j := range []int{i - 1, i + 1} {
		if j < 0 || j >= len(b) {
			continue
		}
		n := b[j]
		switch {
		case alt == '<' && n == '<', isDigit(alt) && isDigit(n), isLetter(alt) && isLetter(n):
			agree++
		case n != '<':
			disagree++
		}
	}
	if disagree == 2 || (alt == '<' && agree == 0) {
		return -1
	}
	cost := 3 + disagree - agree
	if isLetter(alt) {
		// Document numbers and personal numbers are mostly digits.
		cost++
	}
	return cost
}

// variants lists the readings of value, with at most maxChanges plausible
// swaps (changeCost), that ok accepts, cheapest first.
func variants(value string, fixed []bool, ok func(string) bool) []candidate {
	var out []candidate
	b := []byte(value)
	orig := []byte(value)
	var changed []int
	var walk func(from, left, cost int)
	walk = func(from, left, cost int) {
		if ok(string(b)) {
			out = append(out, candidate{string(b), append([]int(nil), changed...), cost})
		}
		if left == 0 || len(out) >= 32 {
			return
		}
		for i := from; i < len(b); i++ {
			if fixed[i] {
				continue
			}
			for _, alt := range alternatives[orig[i]] {
				c := changeCost(orig, i, alt)
				if c < 0 {
					continue
				}
				b[i] = alt
				changed = append(changed, i)
				walk(i+1, left-1, cost+c)
				changed = changed[:len(changed)-1]
			}
			b[i] = orig[i]
		}
	}
	walk(0, maxChanges, 0)
	sort.SliceStable(out, func(i, j int) bool { return out[i].cost < out[j].cost })
	return out
}

// contextFix makes the swaps a check digit cannot see (G/6, L/1 and K/<
// differ by a multiple of ten) where the neighbours leave no doubt: K after
// a filler and before a filler or the end is a filler; G or L between two
// digits is 6 or 1. Nothing confirms these, so they are reported unverified.
func (z *zone) contextFix(field string, ps []pos) {
	v := []byte(z.read(ps))
	for i, c := range v {
		if z.keep[ps[i]] {
			continue
		}
		left := i > 0 && v[i-1] == '<'
		right := i == len(v)-1 || v[i+1] == '<'
		switch {
		case c == 'K' && left && right:
			v[i] = '<'
		case (c == 'G' || c == 'L') && i > 0 && i < len(v)-1 && isDigit(v[i-1]) && isDigit(v[i+1]):
			v[i] = map[byte]byte{'G': '6', 'L': '1'}[c]
		default:
			continue
		}
		z.set(field, ps[i], v[i], false)
	}
}

// docNumberWellFormed: fillers only at the end of a document number.
// permitNumberWellFormed: a letter, then a letter or digit, then seven
// digits.
func permitNumberWellFormed(s string) bool {
	if len(s) != 9 || !isLetter(s[0]) || !(isLetter(s[1]) || isDigit(s[1])) {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func docNumberWellFormed(s string) bool {
	t := strings.TrimRight(s, "<")
	return t != "" && !strings.Contains(t, "<")
}

// checked is a letters-and-digits field with its own check digit, and the
// readings that pass it.
type checked struct {
	name  string
	ps    []pos
	cands []candidate
}

func parseZone(raw []string, l layout, now time.Time, keep map[pos]bool) (*Result, error) {
	z := &zone{l: l, keep: keep}
	for i, s := range raw {
		z.fit(i, s)
	}

	// Document code and countries: letters only.
	code := l.code.positions()
	z.letters("document_code", code)
	if l.format != FormatCNExitEntry && strings.IndexByte(fillerLike, z.at(code[1])) >= 0 && z.at(code[0]) != 'P' {
		// "I<", "A<", "C<": the second character is a filler more often
		// than a rare sub-type letter.
		z.set("document_code", code[1], '<', false)
	}
	if l.format == FormatCNExitEntry && z.at(code[0]) == 'C' && strings.IndexByte("CBGOEQ", z.at(code[1])) >= 0 {
		// The permit's code is always "CS"; OCR reads its S as C, or as a
		// 5 or 8 that letters() turned into S or B already.
		z.set("document_code", code[1], 'S', false)
	}
	docCode := z.read(code)
	switch {
	case l.format == FormatCNExitEntry:
		if docCode != "CS" {
			return nil, z.fail("document_code", docCode, ErrNoMRZ)
		}
	case docCode[0] == 'V':
		return nil, z.fail("document_code", docCode, ErrUnsupported)
	case docCode[0] == 'C':
		// The three-line zones of the Chinese permits (Mainland Travel
		// Permit for Hong Kong and Macao Residents, Taiwan permits, the
		// three-line Exit-Entry Permit) put a coded Chinese name and other
		// non-ICAO fields in the TD1 frame; no official layout could be
		// confirmed, so they are refused rather than misread.
		return nil, z.fail("document_code", docCode, ErrUnsupported)
	case l.format == FormatTD3 && docCode[0] != 'P':
		return nil, z.fail("document_code", docCode, ErrNoMRZ)
	case l.format != FormatTD3 && docCode[0] == 'P':
		return nil, z.fail("document_code", docCode, ErrNoMRZ)
	}
	for _, c := range []struct {
		name string
		s    span
	}{{"issuing_country", l.issuing}, {"nationality", l.nation}} {
		if c.s.n == 0 {
			continue
		}
		ps := c.s.positions()
		z.letters(c.name, ps)
		z.country(c.name, ps)
		v := z.read(ps)
		if v[0] < 'A' || v[0] > 'Z' || strings.Trim(v, "<ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return nil, z.fail(c.name, v, ErrInvalidField)
		}
	}

	// Dates: digits only, each with its check digit.
	dates := []struct {
		name  string
		s     span
		check pos
	}{{"birthday", l.birth, l.birthChk}, {"expiry", l.expiry, l.expChk}}
	for _, d := range dates {
		ps := d.s.positions()
		z.digits(d.name, append(ps, d.check), false)
		v := z.read(ps)
		if !checkMatches(v, z.at(d.check)) || z.at(d.check) == '<' {
			return nil, z.fail(d.name, v, ErrCheckDigit)
		}
	}

	// Document number and optional data: letters and digits, so an
	// ambiguous character is tried both ways until the check digit agrees.
	var fields []*checked
	docPs := l.docNum.positions()
	z.digits("travel_document", []pos{l.docCheck}, true)
	longEnd := -1 // where a TD1 long number's check digit sits in the optional data
	switch {
	case l.longDocNum && z.at(l.docCheck) == '<' && !strings.Contains(z.read(docPs), "<"):
		// TD1 long number: it runs on in the optional data up to the first
		// filler, whose preceding character is its check digit.
		opt := l.opt.positions()
		longEnd = strings.IndexByte(z.read(opt), '<') - 1
		if longEnd < 1 {
			return nil, z.fail("travel_document", z.read(docPs), ErrCheckDigit)
		}
		docPs = append(docPs, opt[:longEnd]...)
		z.digits("travel_document", []pos{opt[longEnd]}, false)
		fields = append(fields, z.checkedField("travel_document", docPs, opt[longEnd], docNumberWellFormed))
	case z.at(l.docCheck) == '<':
		return nil, z.fail("travel_document", z.read(docPs), ErrCheckDigit)
	case l.format == FormatCNExitEntry:
		// The permit's number is a letter and eight digits (C12345678); its
		// last seven are digits in every number seen, the second may not be.
		z.letters("travel_document", docPs[:1])
		z.digits("travel_document", docPs[2:], false)
		fields = append(fields, z.checkedField("travel_document", docPs, l.docCheck, permitNumberWellFormed))
	default:
		fields = append(fields, z.checkedField("travel_document", docPs, l.docCheck, docNumberWellFormed))
	}
	if l.optCheck != noPos {
		z.digits("optional_data", []pos{l.optCheck}, true)
		fields = append(fields, z.checkedField("optional_data", l.opt.positions(), l.optCheck, nil))
	}
	for _, f := range fields {
		if len(f.cands) == 0 {
			return nil, z.fail(f.name, z.read(f.ps), ErrCheckDigit)
		}
	}
	z.digits("composite", []pos{l.compCheck}, false)
	if err := z.chooseComposite(fields); err != nil {
		return nil, err
	}

	r := &Result{Format: l.format, DocumentCode: strings.TrimRight(docCode, "<")}
	var err error
	if r.Birthday, err = birthDate(z.read(l.birth.positions()), now); err != nil {
		return nil, z.fail("birthday", z.read(l.birth.positions()), ErrInvalidField)
	}
	if r.Expiry, err = expiryDate(z.read(l.expiry.positions()), now); err != nil {
		return nil, z.fail("expiry", z.read(l.expiry.positions()), ErrInvalidField)
	}
	r.TravelDocument = strings.TrimRight(z.read(fields[0].ps), "<")

	if l.format == FormatCNExitEntry {
		r.IssuingCountry, r.Nationality = "CHN", "CHN"
		r.Type = TypeExitEntryPermit
	} else {
		r.IssuingCountry = strings.TrimRight(z.read(l.issuing.positions()), "<")
		r.Nationality = strings.TrimRight(z.read(l.nation.positions()), "<")
		switch sex := z.at(l.sex); sex {
		case 'M':
			r.Gender = "male"
		case 'F':
			r.Gender = "female"
		case '<', 'X':
		default:
			return nil, z.fail("gender", string(sex), ErrInvalidField)
		}
		r.Surname, r.GivenNames, r.NameTruncated = z.name(l.name.positions())
		if r.Surname == "" {
			return nil, z.fail("surname", z.read(l.name.positions()), ErrInvalidField)
		}
		r.OptionalData = trimFiller(z.read(l.opt.positions()))
		if longEnd >= 0 {
			r.OptionalData = trimFiller(z.read(l.opt.positions())[longEnd+1:])
		}
		if l.opt2.n > 0 {
			r.OptionalData2 = trimFiller(z.read(l.opt2.positions()))
		}
		r.Type = documentType(docCode, r.IssuingCountry)
	}
	r.Corrections = z.fixes
	if r.Corrections == nil {
		r.Corrections = []Correction{}
	}
	for _, b := range z.lines {
		r.Lines = append(r.Lines, string(b))
	}
	return r, nil
}

// checkedField lists the readings of the field at ps that pass the check
// digit at check (and wellFormed, when given).
func (z *zone) checkedField(name string, ps []pos, check pos, wellFormed func(string) bool) *checked {
	z.contextFix(name, ps)
	c := z.at(check)
	fixed := make([]bool, len(ps))
	for i, p := range ps {
		fixed[i] = z.keep[p]
	}
	return &checked{name: name, ps: ps, cands: variants(z.read(ps), fixed, func(s string) bool {
		return checkMatches(s, c) && (wellFormed == nil || wellFormed(s))
	})}
}

// chooseComposite picks, among the readings of the checked fields, the
// cheapest that also passes the composite check digit, and
// writes it into the zone.
func (z *zone) chooseComposite(fields []*checked) error {
	idx := make([]int, len(fields))
	bestCost, best, ties := -1, []int(nil), 0
	var walk func(i, cost int)
	walk = func(i, cost int) {
		if bestCost >= 0 && cost > bestCost {
			return
		}
		if i == len(fields) {
			for k, f := range fields {
				for j, p := range f.ps {
					z.lines[p.line][p.col] = f.cands[idx[k]].value[j]
				}
			}
			var b strings.Builder
			for _, s := range z.l.composite {
				b.WriteString(z.read(s.positions()))
			}
			if checkMatches(b.String(), z.at(z.l.compCheck)) {
				if cost == bestCost {
					ties++
					return
				}
				bestCost, best, ties = cost, append([]int(nil), idx...), 1
			}
			return
		}
		for j, c := range fields[i].cands {
			idx[i] = j
			walk(i+1, cost+c.cost)
		}
	}
	orig := make([]string, len(fields))
	for k, f := range fields {
		orig[k] = z.read(f.ps)
	}
	walk(0, 0)
	// Restore, then apply the winner through set so the changes are recorded.
	for k, f := range fields {
		for j, p := range f.ps {
			z.lines[p.line][p.col] = orig[k][j]
		}
	}
	if best == nil {
		var b strings.Builder
		for _, s := range z.l.composite {
			b.WriteString(z.read(s.positions()))
		}
		return z.fail("composite", b.String(), ErrCheckDigit)
	}
	// With two equally likely readings the check digits confirm neither:
	// the first is kept, reported unverified.
	for k, f := range fields {
		v := f.cands[best[k]].value
		for j, p := range f.ps {
			z.set(f.name, p, v[j], ties == 1)
		}
	}
	return nil
}

// name splits the name field: primary identifier (surname) before "<<",
// secondary (given names) after, fillers as spaces. Digits become the
// letters OCR mistakes them for, and K, C or X standing alone between
// fillers in the trailing filler run become '<'.
func (z *zone) name(ps []pos) (surname, given string, truncated bool) {
	z.letters("name", ps)
	v := []byte(z.read(ps))
	// The trailing run: from the end, back over fillers and filler-like
	// letters, stopping at a letter that follows another letter.
	start := len(v)
	for start > 0 && (v[start-1] == '<' || strings.IndexByte(fillerLike, v[start-1]) >= 0) {
		start--
	}
	for i := start; i < len(v); i++ {
		if strings.IndexByte(fillerLike, v[i]) < 0 {
			continue
		}
		leftFiller := i > 0 && (v[i-1] == '<' || strings.IndexByte(fillerLike, v[i-1]) >= 0)
		rightFiller := i == len(v)-1 || v[i+1] == '<' || strings.IndexByte(fillerLike, v[i+1]) >= 0
		// A filler-like letter right after the first letters of the run is
		// part of a name (ERIC<<); only one with fillers on both sides is
		// taken for a filler, and only past the "<<" that ends the name
		// proper (two fillers before it).
		if leftFiller && rightFiller && i >= 2 && v[i-1] == '<' && v[i-2] == '<' {
			z.set("name", ps[i], '<', false)
			v[i] = '<'
		}
	}
	s := string(v)
	truncated = s[len(s)-1] != '<'
	s = strings.TrimRight(s, "<")
	sur, giv, _ := strings.Cut(s, "<<")
	return spaced(sur), spaced(giv), truncated
}

func spaced(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '<' }), " ")
}

func trimFiller(s string) string { return strings.Trim(s, "<") }

// documentType maps the ICAO document code (Part 3 §4.2.2: P passport;
// I, A, C identity-type cards) to the spec's document types.
func documentType(code, issuing string) string {
	if code[0] == 'P' {
		if issuing == "CHN" {
			return TypeChinesePassport
		}
		return TypePassport
	}
	return TypeIDCard
}

// birthDate resolves YYMMDD to the latest such date not after now.
func birthDate(s string, now time.Time) (string, error) {
	t, err := time.Parse("060102", s)
	if err != nil {
		return "", err
	}
	y := now.Year()/100*100 + t.Year()%100
	d := time.Date(y, t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if d.After(now) {
		d = d.AddDate(-100, 0, 0)
	}
	if d.Month() != t.Month() { // 29 February moved to a non-leap year
		return "", fmt.Errorf("no such date %s", s)
	}
	return d.Format(time.DateOnly), nil
}

// expiryDate resolves YYMMDD into the century that puts it within 50 years
// of now: documents run for at most a few decades, and expired ones are
// still read.
func expiryDate(s string, now time.Time) (string, error) {
	t, err := time.Parse("060102", s)
	if err != nil {
		return "", err
	}
	y := now.Year()/100*100 + t.Year()%100
	switch {
	case y > now.Year()+50:
		y -= 100
	case y <= now.Year()-50:
		y += 100
	}
	d := time.Date(y, t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if d.Month() != t.Month() {
		return "", fmt.Errorf("no such date %s", s)
	}
	return d.Format(time.DateOnly), nil
}
