package pnr

import (
	"regexp"
	"strings"
	"time"
)

// ParseDocs reads the passengers and their documents out of pasted SSR DOCS
// elements, for importing them into saved travellers or a booking form:
//
//	SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN
//	3.SSR DOCS MU HK1 P/CHN/E1234/CHN/01JAN80/F/01JAN31/LI/SI MEI/P2
//	SSR DOCS YY HK1/I/CN/110101198001010011/CN/01JAN80/M//WANG/WU
//
// The text may be a whole booking display: lines without DOCS are not
// read. A DOCS line that does not hold a document type, a number, a
// birthday, a gender and a name is KeyDocsFormat with its line, as is a
// text without any DOCS line. An expiry is optional (ID cards often have
// none) but must be a date when written. A passenger's type comes from an
// infant gender (MI, FI), else from the age on now's date: under 2 infant,
// under 12 child.
func ParseDocs(text string, now time.Time) ([]Passenger, error) {
	if len(text) > MaxBytes {
		return nil, &Error{Key: KeyTooLong}
	}
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.TrimSpace(text) == "" {
		return nil, &Error{Key: KeyEmpty}
	}
	day := today(now)
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []Passenger
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r", "\n"), "\n") {
		m := docsLineRe.FindStringSubmatch(strings.ToUpper(strings.TrimSpace(raw)))
		if m == nil {
			continue
		}
		p, ok := docsPassenger(m[1], day)
		if !ok {
			return nil, &Error{Key: KeyDocsFormat, Line: i + 1}
		}
		if len(out) == MaxDocs {
			return nil, &Error{Key: KeyTooLong}
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, &Error{Key: KeyDocsFormat}
	}
	return out, nil
}

// KeyDocsFormat is a DOCS paste that cannot be read (spec §8 "Import:
// format error").
const KeyDocsFormat = "travellers.import.error.format"

// MaxDocs is the most DOCS one paste may hold: the saved travellers an
// agency keeps (spec §9, 30).
const MaxDocs = 30

// docsLineRe: an optional element number, SSR (or nothing: some terminals
// show the bare element), DOCS and the rest.
var docsLineRe = regexp.MustCompile(`^(?:>?\s*\d{1,3}\s*\.?\s*)?(?:SSR\s*)?DOCS\b\s*(.*)$`)

// docsNameRe: a surname or given name as a DOCS writes it, Latin letters,
// spaces and hyphens.
var docsNameRe = regexp.MustCompile(`^[A-Z][A-Z -]{0,49}$`)

// docsNumberRe: a document number, letters and digits.
var docsNumberRe = regexp.MustCompile(`^[A-Z0-9]{1,30}$`)

// docsTypes maps the DOCS document type to the booking flow's document code.
var docsTypes = map[string]string{"P": "passport", "PP": "passport", "I": "idcard", "NI": "idcard"}

func docsPassenger(rest string, day time.Time) (Passenger, bool) {
	free, _ := ssrText(rest)
	free = strings.TrimLeft(free, " /")
	f := strings.Split(free, "/")
	if len(f) < 9 {
		return Passenger{}, false
	}
	field := func(i int) string { return strings.TrimSpace(f[i]) }
	var p Passenger
	var ok bool
	if p.DocumentType, ok = docsTypes[field(0)]; !ok {
		return Passenger{}, false
	}
	if p.DocumentNumber = field(2); !docsNumberRe.MatchString(p.DocumentNumber) {
		return Passenger{}, false
	}
	if p.Nationality = countryCode(field(3)); p.Nationality == "" {
		return Passenger{}, false
	}
	birth, ok := birthDate(field(4), day)
	if !ok || birth.After(day) {
		return Passenger{}, false
	}
	p.Birthday = birth.Format(isoDate)
	switch field(5) {
	case "M", "MI":
		p.Gender = "male"
	case "F", "FI":
		p.Gender = "female"
	default:
		return Passenger{}, false
	}
	if e := field(6); e != "" {
		exp, ok := expiryDate(e)
		if !ok {
			return Passenger{}, false
		}
		p.DocumentExpiry = exp.Format(isoDate)
	}
	p.Surname = field(7)
	given := strings.Join(strings.Fields(strings.Join(f[8:], " ")), " ")
	p.GivenName = given
	if !docsNameRe.MatchString(p.Surname) || !docsNameRe.MatchString(p.GivenName) {
		return Passenger{}, false
	}
	switch {
	case strings.HasSuffix(field(5), "I") || birth.AddDate(2, 0, 0).After(day):
		p.Type = "infant"
	case birth.AddDate(12, 0, 0).After(day):
		p.Type = "child"
	default:
		p.Type = "adult"
	}
	return p, true
}
