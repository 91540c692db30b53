package pnr

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Passenger types.
const (
	Adult  = "adult"
	Child  = "child"
	Infant = "infant"
)

// pax is a passenger while the display is read: the public fields plus where
// it stands in the display, so that SSR elements (/P2, -1.2ZHANG/SAN) find it.
type pax struct {
	Passenger
	elem     int    // name element number (P2 → 2); 0 for an infant written inside its adult's element
	sub      int    // place inside a Sabre name field (1.2 → 2); 1 otherwise
	infantOf int    // index in parser.pax of the carrying adult, or seated / unplaced
	hint     string // Child or Infant from titles, markers and SSR CHLD/INFT
}

const (
	seated   = -1 // not an infant on a lap
	unplaced = -2 // a Sabre infant name (I/...) whose adult is not known yet
)

// titleGender lists the titles a name may end with, and the gender each one
// implies. MSTR and MISS are the airline titles for boys and girls.
var titleGender = map[string]string{
	"MR": "male", "MSTR": "male", "MS": "female", "MRS": "female", "MISS": "female",
	"DR": "", "PROF": "", "REV": "", "CAPT": "", "MX": "", "CHD": "", "INF": "",
}

// gluedTitles are titles agents type without a space (ZHANG/SANMR). MS is
// not among them: too many given names end in it (JAMES, WILLIAMS).
var gluedTitles = []string{"MSTR", "MISS", "MRS", "MR", "CHD", "INF"}

var (
	// nameStartRe finds each "N." that opens a name element on a name line.
	nameStartRe = regexp.MustCompile(`(?:^| )(\d{1,3})\.`)
	// markerRe: Amadeus markers after a name: (CHD/10JAN18), (INFLI/XIAO MSTR/12MAR25), (ADT).
	markerRe = regexp.MustCompile(`\(([^()]*)\)`)
	// sabreMarkerRe: Sabre's suffix after a name: *C10, *CNN, *INF, *12MAR25.
	sabreMarkerRe = regexp.MustCompile(`\*([A-Z0-9]+)$`)
	// latinNameRe: SURNAME/GIVEN NAMES TITLE, with more slashes in a Sabre
	// name field holding several people.
	latinNameRe = regexp.MustCompile(`^[A-Z\p{Han}][A-Z\p{Han}' -]*(?:/[A-Z\p{Han}' -]*)+$`)
	// hanNameRe: a name written in Chinese characters (· joins the parts of
	// some minority names).
	hanNameRe = regexp.MustCompile(`^[\p{Han}·]+$`)
	hanRe     = regexp.MustCompile(`\p{Han}`)
	// locatorRe: a record locator token.
	locatorRe  = regexp.MustCompile(`^[A-Z0-9]{6}$`)
	childAgeRe = regexp.MustCompile(`^C\d{1,2}$`)
)

// names reads a name line: one or more "N.SURNAME/GIVEN TITLE" elements, and
// in Travelsky the record locator after the last one. ok is false, and
// nothing is kept, unless every element reads as a name.
func (p *parser) names(up string) bool {
	starts := nameStartRe.FindAllStringSubmatchIndex(up, -1)
	if len(starts) == 0 || starts[0][0] != 0 {
		return false
	}
	var people, infants []*pax
	var adultOf []int // for each infant, its adult's index in people
	locator, sabre, han, markers := "", false, false, false
	for i, s := range starts {
		end := len(up)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		elem, _ := strconv.Atoi(up[s[2]:s[3]])
		text := strings.TrimSpace(up[s[1]:end])
		if i == len(starts)-1 {
			text, locator = cutLocator(text)
		}
		e, ok := p.nameElement(elem, text)
		if !ok {
			return false
		}
		for _, inf := range e.infants {
			infants = append(infants, inf)
			adultOf = append(adultOf, len(people)+len(e.people)-1)
		}
		people = append(people, e.people...)
		sabre = sabre || e.sabre
		han = han || e.han
		markers = markers || len(e.infants) > 0 || e.markers
	}
	base := len(p.pax)
	p.pax = append(p.pax, people...)
	for i, inf := range infants {
		inf.infantOf = base + adultOf[i]
		p.pax = append(p.pax, inf)
	}
	if locator != "" {
		p.setLocator(locator, locGDS)
		p.vote(styleTravelsky, 2)
	}
	if sabre {
		p.vote(styleSabre, 3)
	}
	if han {
		p.vote(styleTravelsky, 3)
	}
	if markers {
		p.vote(styleAmadeus, 1)
	}
	return true
}

// cutLocator takes a Travelsky record locator off the end of a name line
// (" 1.张三 2.ZHANG/SAN MR HXYZ12"). An all-letter token is taken only after
// something that cannot be part of a given name (a title, a marker, a
// Chinese name); otherwise ZHANG/SAN YUQING would lose YUQING.
func cutLocator(s string) (rest, locator string) {
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return s, ""
	}
	tok, before := s[i+1:], strings.TrimSpace(s[:i])
	if !locatorRe.MatchString(tok) {
		return s, ""
	}
	words := strings.Fields(before)
	if len(words) == 0 {
		return s, ""
	}
	last := words[len(words)-1]
	_, isTitle := titleGender[last]
	if strings.ContainsAny(tok, "0123456789") || isTitle || strings.HasSuffix(last, ")") || hanRe.MatchString(last) {
		return before, tok
	}
	return s, ""
}

// nameElement is what one name element holds.
type nameElement struct {
	people  []*pax // the seated passengers (several in a Sabre name field)
	infants []*pax // infants written inside the element, on the last person's lap
	sabre   bool   // written with Sabre's passenger count (1.2ZHANG/...)
	han     bool   // written in Chinese characters
	markers bool   // carried Amadeus-style markers
}

// nameElement reads one name element, e.g. ZHANG/SAN MR(INFLI/XIAO MSTR/12MAR25),
// 2ZHANG/SAN MR/LI/SI MS (Sabre), I/ZHANG/BABY MISS*12MAR25 (Sabre infant),
// 张三 or 李小明CHD (Travelsky).
func (p *parser) nameElement(elem int, s string) (nameElement, bool) {
	var e nameElement
	var markers []string
	for _, m := range markerRe.FindAllStringSubmatch(s, -1) {
		markers = append(markers, strings.TrimSpace(m[1]))
	}
	e.markers = len(markers) > 0
	s = strings.TrimSpace(markerRe.ReplaceAllString(s, " "))
	if strings.ContainsAny(s, "()") {
		return e, false
	}
	count := 1
	if len(s) > 1 && s[0] >= '1' && s[0] <= '9' && (s[1] < '0' || s[1] > '9') {
		count, s, e.sabre = int(s[0]-'0'), s[1:], true
	}
	// Sabre writes a lap infant as its own name field, 3.1I/ZHANG/BABY.
	infantName := e.sabre && strings.HasPrefix(s, "I/")
	if infantName {
		s = s[2:]
	}
	sabreMark := ""
	if m := sabreMarkerRe.FindStringSubmatch(s); m != nil {
		sabreMark = m[1]
		s = strings.TrimSpace(strings.TrimSuffix(s, m[0]))
	}

	if hanRe.MatchString(s) && !strings.Contains(s, "/") {
		person, ok := chineseName(s)
		if !ok {
			return e, false
		}
		e.han = true
		e.people = []*pax{person}
	} else {
		if !latinNameRe.MatchString(s) {
			return e, false
		}
		if e.people = latinNames(s, count); len(e.people) == 0 {
			return e, false
		}
	}
	for i, person := range e.people {
		person.elem, person.sub, person.infantOf = elem, i+1, seated
		if infantName {
			person.infantOf, person.hint = unplaced, Infant
		}
	}
	last := e.people[len(e.people)-1]
	if sabreMark != "" {
		p.sabreMarker(last, sabreMark)
	}
	for _, m := range markers {
		inf, ok := p.marker(last, m)
		if !ok {
			return e, false
		}
		if inf != nil {
			e.infants = append(e.infants, inf)
		}
	}
	return e, true
}

// chineseName reads a name in Chinese characters; Travelsky appends CHD for a
// child and INF for an infant. The whole name goes in Surname: a Chinese name
// is not split for booking.
func chineseName(s string) (*pax, bool) {
	person := &pax{}
	s = strings.ReplaceAll(s, " ", "")
	switch {
	case strings.HasSuffix(s, "CHD"):
		s, person.hint, person.Title = strings.TrimSuffix(s, "CHD"), Child, "CHD"
	case strings.HasSuffix(s, "INF"):
		s, person.hint, person.Title = strings.TrimSuffix(s, "INF"), Infant, "INF"
	}
	if !hanNameRe.MatchString(s) {
		return nil, false
	}
	person.Surname = s
	return person, true
}

// latinNames reads SURNAME/GIVEN TITLE. A Sabre field for count people is
// either one surname with count given names (2ZHANG/SAN MR/SI MS) or count
// surname/given pairs (2ZHANG/SAN MR/LI/SI MS).
func latinNames(s string, count int) []*pax {
	parts := strings.Split(s, "/")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	var people []*pax
	add := func(surname, given string) {
		person := &pax{}
		person.Surname = surname
		person.GivenName, person.Title = splitTitle(given)
		person.hint = titleHint(person.Title)
		people = append(people, person)
	}
	switch {
	case count > 1 && len(parts) == 2*count:
		for i := 0; i < len(parts); i += 2 {
			add(parts[i], parts[i+1])
		}
	case count > 1:
		for _, given := range parts[1:] {
			add(parts[0], given)
		}
	default:
		add(parts[0], strings.Join(parts[1:], " "))
	}
	for _, person := range people {
		// 2ZHANG/SAN// is two pairs, the second with no surname: not a name.
		if person.Surname == "" {
			return nil
		}
	}
	return people
}

// splitTitle takes the title off the end of the given names: SAN MR, or
// SANMR as agents often type it.
func splitTitle(given string) (name, title string) {
	words := strings.Fields(given)
	if len(words) == 0 {
		return "", ""
	}
	last := words[len(words)-1]
	if _, ok := titleGender[last]; ok {
		return strings.Join(words[:len(words)-1], " "), last
	}
	for _, t := range gluedTitles {
		if len(last) > len(t)+1 && strings.HasSuffix(last, t) {
			words[len(words)-1] = strings.TrimSuffix(last, t)
			return strings.Join(words, " "), t
		}
	}
	return strings.Join(words, " "), ""
}

// titleHint is the passenger type a title implies.
func titleHint(title string) string {
	switch title {
	case "MSTR", "MISS", "CHD":
		return Child
	case "INF":
		return Infant
	}
	return ""
}

// marker applies an Amadeus marker written after person's name: (CHD),
// (CHD/10JAN18), or an infant on the lap, which it returns. Other markers
// (ADT, YTH, ID numbers) say nothing the search needs. ok is false when an
// infant marker is malformed.
func (p *parser) marker(person *pax, m string) (infant *pax, ok bool) {
	switch {
	case strings.HasPrefix(m, "INF"):
		return p.infantMarker(person, strings.TrimPrefix(m, "INF"))
	case m == "CHD" || strings.HasPrefix(m, "CHD/"):
		person.hint = Child
		if b, ok := birthDate(strings.TrimPrefix(m, "CHD/"), p.today); ok {
			person.Birthday = b.Format(isoDate)
		}
	}
	return nil, true
}

// sabreMarker applies Sabre's suffix after a name: *INF or *INS an infant,
// *CNN or *C10 a child, *12MAR25 the birthday of an infant name.
func (p *parser) sabreMarker(person *pax, m string) {
	switch {
	case m == "INF" || m == "INS":
		person.hint = Infant
	case m == "CNN" || m == "CHD" || childAgeRe.MatchString(m):
		person.hint = Child
	default:
		if b, ok := birthDate(m, p.today); ok {
			person.Birthday = b.Format(isoDate)
		}
	}
}

// infantMarker reads what follows INF in an Amadeus marker: nothing, /GIVEN,
// SURNAME/GIVEN TITLE, each optionally followed by /BIRTHDAY. Without a
// surname the infant has the adult's.
func (p *parser) infantMarker(adult *pax, s string) (*pax, bool) {
	inf := &pax{hint: Infant}
	for i, part := range strings.Split(s, "/") {
		part = strings.TrimSpace(part)
		if b, ok := birthDate(part, p.today); ok {
			inf.Birthday = b.Format(isoDate)
		} else if i == 0 {
			inf.Surname = part
		} else if inf.GivenName == "" && inf.Title == "" {
			inf.GivenName, inf.Title = splitTitle(part)
		}
	}
	if inf.Surname == "" {
		inf.Surname = adult.Surname
	} else if !latinNameRe.MatchString(inf.Surname+"/") && !hanNameRe.MatchString(inf.Surname) {
		return nil, false
	}
	return inf, true
}

// element is an SSR or XN element kept for the second pass, when every name
// is known.
type element struct {
	kind string // DOCS, FOID, CHLD, INFT or XN
	text string // what follows the keyword
}

var (
	// ssrRe: SSR DOCS CA HK1 ..., the code and the rest.
	ssrRe = regexp.MustCompile(`^SSR ?([A-Z]{4})\b ?(.*)$`)
	// ssrHeadRe: the airline and status (HK1) that open an SSR's text. One
	// slash after the status is a separator (Sabre: HK1/P/CN/...).
	ssrHeadRe = regexp.MustCompile(`^(?:[A-Z][A-Z0-9]|[0-9][A-Z]) ?(?:[A-Z]{2}\d{1,3}(?:/| |$))? ?(.*)$`)
	// paxRefRe and segRefRe: Amadeus and Travelsky associations (/P1, /S3).
	paxRefRe = regexp.MustCompile(`/P(\d{1,2})$`)
	segRefRe = regexp.MustCompile(`/S\d{1,2}(?:-\d{1,2})?$`)
	// sabreRefRe: Sabre's association, the name number and name (-1.2LI/SI MS).
	sabreRefRe = regexp.MustCompile(`-(\d{1,2})\.(\d{1,2})[^.]*$`)
	// foidRe: the document in SSR FOID (NI national identity, PP passport).
	foidRe = regexp.MustCompile(`^(NI|PP|ID|CC|DL|FF|TN)([A-Z0-9]+)$`)
	// inftFlightRe: the flight an SSR INFT may repeat before the name.
	inftFlightRe = regexp.MustCompile(`^[A-Z]{6} ?\d{1,4} ?[A-Z] ?\d{1,2}[A-Z]{3}(?:\d{2})?[ /]*`)
	// trailingDateRe: a birthday at the end of an SSR INFT or XN text.
	trailingDateRe = regexp.MustCompile(`[ /](\d{1,2}[A-Z]{3}(?:\d{4}|\d{2}))$`)
	// xnBirthRe: Travelsky's infant birth month, INF(MAR25).
	xnBirthRe = regexp.MustCompile(` ?INF\([A-Z0-9]*\)`)
)

// ssr reads an SSR line. DOCS, FOID, CHLD and INFT are kept for later; the
// others (meals, seats, ticket numbers, contacts) are understood and ignored.
func (p *parser) ssr(rest string) bool {
	m := ssrRe.FindStringSubmatch(rest)
	if m == nil {
		return false
	}
	switch m[1] {
	case "DOCS", "FOID", "CHLD", "INFT":
		p.elems = append(p.elems, element{kind: m[1], text: m[2]})
		p.cont = len(p.elems) - 1
	default:
		p.cont = contIgnored
	}
	return true
}

// xn reads Travelsky's infant element, XN/IN/张小宝INF(MAR25)/P1.
func (p *parser) xn(rest string) bool {
	text, ok := strings.CutPrefix(rest, "XN/IN/")
	if !ok {
		return false
	}
	p.elems = append(p.elems, element{kind: "XN", text: text})
	p.cont = len(p.elems) - 1
	p.vote(styleTravelsky, 1)
	return true
}

// ref is the passenger an element is associated with.
type ref struct{ elem, sub int }

// ssrText strips the airline, status and associations from an SSR text.
func ssrText(s string) (string, ref) {
	if m := ssrHeadRe.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	return cutRef(s)
}

// cutRef takes the passenger association off the end of an element text.
func cutRef(s string) (string, ref) {
	var r ref
	s = strings.TrimSpace(s)
	if m := sabreRefRe.FindStringSubmatchIndex(s); m != nil {
		r.elem, _ = strconv.Atoi(s[m[2]:m[3]])
		r.sub, _ = strconv.Atoi(s[m[4]:m[5]])
		return strings.TrimRight(s[:m[0]], " /"), r
	}
	for {
		if m := segRefRe.FindStringIndex(s); m != nil {
			s = s[:m[0]]
		} else if m := paxRefRe.FindStringSubmatchIndex(s); m != nil {
			r.elem, _ = strconv.Atoi(s[m[2]:m[3]])
			r.sub = 1
			s = s[:m[0]]
		} else {
			return strings.TrimRight(s, " /"), r
		}
	}
}

// applyElements applies the kept SSR and XN elements in display order.
func (p *parser) applyElements() {
	for _, e := range p.elems {
		switch e.kind {
		case "DOCS":
			p.docs(e.text)
		case "FOID":
			p.foid(e.text)
		case "CHLD":
			p.chld(e.text)
		case "INFT":
			p.inft(e.text)
		case "XN":
			p.xnInfant(e.text)
		}
	}
}

// docs applies SSR DOCS:
// type/issuer/number/nationality/birthday/gender/expiry/surname/given/middle.
// DOCS is the authority on documents and birthdays: it overrides FOID and
// CHLD whatever their order.
func (p *parser) docs(text string) {
	free, r := ssrText(text)
	f := strings.Split(free, "/")
	field := func(i int) string {
		if i < len(f) {
			return strings.TrimSpace(f[i])
		}
		return ""
	}
	gender := field(5)
	infant := gender == "MI" || gender == "FI"
	t := p.target(r, field(7), field(8), infant)
	if t == nil {
		return
	}
	if number := field(2); number != "" {
		t.DocumentNumber = number
		switch field(0) {
		case "P", "PP":
			t.DocumentType = "passport"
		case "I":
			t.DocumentType = "idcard"
		default:
			t.DocumentType = ""
		}
	}
	if c := countryCode(field(3)); c != "" {
		t.Nationality = c
	}
	if b, ok := birthDate(field(4), p.today); ok {
		t.Birthday = b.Format(isoDate)
	}
	switch gender {
	case "M", "MI":
		t.Gender = "male"
	case "F", "FI":
		t.Gender = "female"
	}
	if e, ok := expiryDate(field(6)); ok {
		t.DocumentExpiry = e.Format(isoDate)
	}
}

// foid applies SSR FOID, the identity document of Chinese domestic bookings.
// It only fills a passenger without a document, so that a DOCS passport wins.
func (p *parser) foid(text string) {
	free, r := ssrText(text)
	m := foidRe.FindStringSubmatch(strings.ReplaceAll(free, " ", ""))
	if m == nil {
		return
	}
	t := p.target(r, "", "", false)
	if t == nil || t.DocumentNumber != "" {
		return
	}
	switch m[1] {
	case "NI":
		t.DocumentType, t.DocumentNumber = "idcard", m[2]
	case "PP":
		t.DocumentType, t.DocumentNumber = "passport", m[2]
	}
}

// chld applies SSR CHLD: the passenger is a child, born on the date given.
func (p *parser) chld(text string) {
	free, r := ssrText(text)
	t := p.target(r, "", "", false)
	if t == nil {
		return
	}
	t.hint = Child
	if b, ok := birthDate(strings.Trim(free, " /"), p.today); ok && t.Birthday == "" {
		t.Birthday = b.Format(isoDate)
	}
}

// inft applies SSR INFT: an infant on the associated adult's lap, with its
// name and birthday, after the flight the airline may repeat.
func (p *parser) inft(text string) {
	free, r := ssrText(text)
	free = inftFlightRe.ReplaceAllString(free, "")
	p.infant(free, r)
}

// xnInfant applies Travelsky's XN/IN element.
func (p *parser) xnInfant(text string) {
	free, r := cutRef(text)
	free = xnBirthRe.ReplaceAllString(free, "")
	p.infant(free, r)
}

// infant adds or completes the infant of r from "NAME BIRTHDAY".
func (p *parser) infant(free string, r ref) {
	var birthday string
	if m := trailingDateRe.FindStringSubmatchIndex(free); m != nil {
		if b, ok := birthDate(free[m[2]:m[3]], p.today); ok {
			birthday = b.Format(isoDate)
		}
		free = free[:m[0]]
	}
	var surname, given, title string
	free = strings.TrimSpace(free)
	if person, ok := chineseName(free); ok {
		surname = person.Surname
	} else if latinNameRe.MatchString(free) {
		person := latinNames(free, 1)[0]
		surname, given, title = person.Surname, person.GivenName, person.Title
	}
	t := p.target(r, surname, given, true)
	if t == nil {
		return
	}
	if t.Surname == "" {
		t.Surname, t.GivenName = surname, given
	}
	if t.Title == "" {
		t.Title = title
	}
	if t.Birthday == "" {
		t.Birthday = birthday
	}
}

// target finds the passenger an element is about: by the name it carries
// when exactly one passenger has that name, then by its association, then,
// without one, the only passenger there is. With infant set, the element is
// about the infant on that passenger's lap, who is added if not yet known.
func (p *parser) target(r ref, surname, given string, infant bool) *pax {
	if m := p.byName(surname, given); m != nil {
		return m
	}
	adult := -1
	switch {
	case r.elem > 0:
		for i, x := range p.pax {
			if x.elem == r.elem && x.sub == max(r.sub, 1) {
				adult = i
				break
			}
		}
	case infant:
		// No association: the first adult without an infant.
		for i, x := range p.pax {
			if x.infantOf == seated && p.lapInfant(i) < 0 {
				adult = i
				break
			}
		}
	default:
		for i, x := range p.pax {
			if x.infantOf == seated {
				if adult >= 0 {
					return nil // several passengers: cannot tell which
				}
				adult = i
			}
		}
	}
	if adult < 0 {
		return nil
	}
	if a := p.pax[adult]; !infant || a.infantOf != seated || a.hint == Infant {
		return a
	}
	if i := p.lapInfant(adult); i >= 0 {
		return p.pax[i]
	}
	if surname == "" {
		// An element that does not name the infant (an empty SSR INFT, a
		// bare birthday) completes a known one but never adds a nameless
		// passenger, who would then be typed by that birthday alone
		// (found by FuzzParse).
		return nil
	}
	inf := &pax{infantOf: adult, hint: Infant}
	inf.Surname, inf.GivenName = surname, given
	p.pax = append(p.pax, inf)
	return inf
}

// byName finds the one passenger called surname/given; nil when none or
// several are.
func (p *parser) byName(surname, given string) *pax {
	if surname == "" {
		return nil
	}
	key := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	var found *pax
	for _, x := range p.pax {
		if key(x.Surname) == key(surname) && key(x.GivenName) == key(given) {
			if found != nil {
				return nil
			}
			found = x
		}
	}
	return found
}

// lapInfant is the index of the infant on adult's lap, -1 when none.
func (p *parser) lapInfant(adult int) int {
	for i, x := range p.pax {
		if x.infantOf == adult {
			return i
		}
	}
	return -1
}

// placeInfants seats each Sabre infant name (I/...) on the lap of the first
// adult without one: Sabre does not say whose infant it is in the name.
func (p *parser) placeInfants() {
	for i, x := range p.pax {
		if x.infantOf != unplaced {
			continue
		}
		x.infantOf = seated
		for j, a := range p.pax {
			if a.infantOf == seated && a.hint != Infant && a.hint != Child && p.lapInfant(j) < 0 && j != i {
				x.infantOf = j
				break
			}
		}
	}
}

// passengers finishes the passengers: type, gender, what an identity card
// number tells. Seated passengers come in display order, each lap infant
// after all of them in the order of its adult.
//
// Type: a birthday decides when there is one, by the age on the first
// segment's date (under 2 infant, under 12 child); otherwise a lap seat,
// INF or CHD markers, SSR CHLD/INFT, and the titles MSTR and MISS.
func (p *parser) passengers(first time.Time) []Passenger {
	var out []Passenger
	finish := func(x *pax) {
		x.Type = Adult
		switch {
		case x.infantOf >= 0 || x.hint == Infant:
			x.Type = Infant
		case x.hint == Child:
			x.Type = Child
		}
		if x.DocumentType == "idcard" && (x.Birthday == "" || x.Gender == "") {
			if birth, male, ok := chineseIDCard(x.DocumentNumber); ok {
				if x.Birthday == "" {
					x.Birthday = birth.Format(isoDate)
				}
				if x.Gender == "" {
					x.Gender = map[bool]string{true: "male", false: "female"}[male]
				}
			}
		}
		if b, err := time.Parse(isoDate, x.Birthday); err == nil && !first.IsZero() {
			switch age := ageAt(b, first); {
			case age < 2:
				x.Type = Infant
			case age < 12:
				x.Type = Child
			default:
				x.Type = Adult
			}
		}
		if x.Gender == "" {
			x.Gender = titleGender[x.Title]
		}
		out = append(out, x.Passenger)
	}
	for _, x := range p.pax {
		if x.infantOf < 0 {
			finish(x)
		}
	}
	for adult, a := range p.pax {
		if a.infantOf >= 0 {
			continue
		}
		for _, x := range p.pax {
			if x.infantOf == adult {
				finish(x)
			}
		}
	}
	return out
}

// chineseIDCard reads the birthday and sex a PRC resident identity card
// number encodes (GB 11643: digits 7-14 the birthday, digit 17 odd for men,
// an ISO 7064 check character last). ok is false for anything else.
func chineseIDCard(n string) (birth time.Time, male, ok bool) {
	if len(n) != 18 {
		return time.Time{}, false, false
	}
	weights := [17]int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	sum := 0
	for i, w := range weights {
		if n[i] < '0' || n[i] > '9' {
			return time.Time{}, false, false
		}
		sum += int(n[i]-'0') * w
	}
	if n[17] != "10X98765432"[sum%11] {
		return time.Time{}, false, false
	}
	y, _ := strconv.Atoi(n[6:10])
	m, _ := strconv.Atoi(n[10:12])
	d, _ := strconv.Atoi(n[12:14])
	birth, ok = civil(y, time.Month(m), d)
	return birth, (n[16]-'0')%2 == 1, ok
}
