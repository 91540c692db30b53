package mrz

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// now fixes the date two-digit years are resolved against.
var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// ICAO 9303 specimens (Part 4 Appendix A TD3, Part 5 TD1, Part 6 TD2).
const (
	td3L1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
	td3L2 = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
	td1L1 = "I<UTOD231458907<<<<<<<<<<<<<<<"
	td1L2 = "7408122F1204159UTO<<<<<<<<<<<6"
	td1L3 = "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"
	td2L1 = "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<"
	td2L2 = "D231458907UTO7408122F1204159<<<<<<<6"
	// Part 5's example of a document number longer than nine characters.
	td1LongL1 = "I<UTOD23145890<7349<<<<<<<<<<<"
	// A Chinese passport's second line: the optional data is the coded
	// name and is full of letters OCR confuses, which must stay as they
	// are when the check digits already agree. Check digits computed by hand.
	cnL1 = "POCHNZHANG<<WEI<<<<<<<<<<<<<<<<<<<<<<<<<<<<<"
	cnL2 = "E123456782CHN8503150M3001019LCOCKMLBLCPA<<32"
	// One-line Exit-Entry Permit zone built to the layout of
	// layoutCNExitEntry (the public samples are anonymised).
	cs = "CSC123456788<2906106<9001011<0"
)

func TestCheckDigitICAOValues(t *testing.T) {
	// Check digits printed in the ICAO specimens.
	for s, want := range map[string]byte{
		"L898902C3": '6', "740812": '2', "120415": '9', "ZE184226B<<<<<": '1',
		"L898902C3674081221204159ZE184226B<<<<<1": '0', "D23145890": '7', "D23145890734": '9',
	} {
		if got, _ := checkDigit(s); got != want {
			t.Errorf("checkDigit(%q) = %c, want %c", s, got, want)
		}
	}
}

func lines(ls ...string) string { return strings.Join(ls, "\n") }

type fix struct{ field, from, to string }

func TestParse(t *testing.T) {
	utopia := Result{
		TravelDocument: "L898902C3", Surname: "ERIKSSON", GivenNames: "ANNA MARIA", Nationality: "UTO",
		Birthday: "1974-08-12", Gender: "female", Expiry: "2012-04-15", IssuingCountry: "UTO",
		Type: TypePassport, Format: FormatTD3, DocumentCode: "P", OptionalData: "ZE184226B",
	}
	card := utopia
	card.TravelDocument, card.Type, card.Format, card.DocumentCode, card.OptionalData = "D23145890", TypeIDCard, FormatTD1, "I", ""
	chinese := Result{
		TravelDocument: "E12345678", Surname: "ZHANG", GivenNames: "WEI", Nationality: "CHN",
		Birthday: "1985-03-15", Gender: "male", Expiry: "2030-01-01", IssuingCountry: "CHN",
		Type: TypeChinesePassport, Format: FormatTD3, DocumentCode: "PO", OptionalData: "LCOCKMLBLCPA",
	}
	tests := []struct {
		name  string
		in    string
		want  Result
		fixes []fix
	}{
		{name: "TD3 specimen", in: lines(td3L1, td3L2), want: utopia},
		{name: "TD1 specimen", in: lines(td1L1, td1L2, td1L3), want: card},
		{name: "TD2 specimen", in: lines(td2L1, td2L2), want: func() Result { r := card; r.Format = FormatTD2; return r }()},
		{name: "TD1 long document number", in: lines(td1LongL1, td1L2, td1L3),
			want: func() Result { r := card; r.TravelDocument = "D23145890734"; return r }()},
		{name: "chinese passport keeps confusable letters", in: lines(cnL1, cnL2), want: chinese},
		{name: "exit-entry permit one line", in: cs, want: Result{
			TravelDocument: "C12345678", Nationality: "CHN", IssuingCountry: "CHN",
			Birthday: "1990-01-01", Expiry: "2029-06-10", Type: TypeExitEntryPermit,
			Format: FormatCNExitEntry, DocumentCode: "CS",
		}},
		// OCR confusions, one per case.
		{name: "O for 0 in document number", in: lines(td3L1, "L8989O2C36UTO7408122F1204159ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"travel_document", "O", "0"}}},
		{name: "D for 0 in document number", in: lines(td3L1, "L8989D2C36UTO7408122F1204159ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"travel_document", "D", "0"}}},
		{name: "B for 8 in document number", in: lines(td3L1, "L89B902C36UTO7408122F1204159ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"travel_document", "B", "8"}}},
		{name: "I for 1 in optional data", in: lines(td3L1, "L898902C36UTO7408122F1204159ZEI84226B<<<<<10"),
			want: utopia, fixes: []fix{{"optional_data", "I", "1"}}},
		{name: "8 for B in optional data", in: lines(td3L1, "L898902C36UTO7408122F1204159ZE1842268<<<<<10"),
			want: utopia, fixes: []fix{{"optional_data", "8", "B"}}},
		{name: "G for 6 between digits in document number", in: lines(cnL1, strings.Replace(cnL2, "E12345678", "E12345G78", 1)),
			want: chinese, fixes: []fix{{"travel_document", "G", "6"}}},
		{name: "O and L in a birth date", in: lines(cnL1, "E123456782CHN85O3L50M3001019LCOCKMLBLCPA<<32"),
			want: chinese, fixes: []fix{{"birthday", "O", "0"}, {"birthday", "L", "1"}}},
		{name: "S for 5 and O for 0 in expiry", in: lines(td3L1, "L898902C36UTO7408122F12O41S9ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"expiry", "O", "0"}, {"expiry", "S", "5"}}},
		{name: "Z for 2 in birth check digit", in: lines(td3L1, "L898902C36UTO740812ZF1204159ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"birthday", "Z", "2"}}},
		{name: "I for 1 in birth date", in: lines(td3L1, "L898902C36UTO74O8I22F1204159ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"birthday", "O", "0"}, {"birthday", "I", "1"}}},
		{name: "0 for O in country and name", in: lines("P<UT0ERIKSS0N<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UT07408122F1204159ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"issuing_country", "0", "O"}, {"nationality", "0", "O"}, {"name", "0", "O"}}},
		{name: "K for < in optional data", in: lines(td3L1, "L898902C36UTO7408122F1204159ZE184226B<<K<<10"),
			want: utopia, fixes: []fix{{"optional_data", "K", "<"}}},
		{name: "C and X for < in name fillers", in: lines("P<UTOERIKSSON<<ANNA<MARIA<<<<C<<<<<<<X<<<<<<", td3L2),
			want: utopia, fixes: []fix{{"name", "C", "<"}, {"name", "X", "<"}}},
		{name: "guillemet for < and lower case with blanks", in: lines(strings.ToLower(td3L1[:20])+"  "+td3L1[20:42]+"«<", "l898902c36 uto7408122f 1204159ze184226b<<<<<10"),
			want: utopia, fixes: []fix{{"line", "«", "<"}}},
		{name: "garbage lines and wrong lengths", in: lines("REPUBLIC OF UTOPIA", "PASSPORT  PASSEPORT", "Surname / Nom ERIKSSON", "",
			"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<", td3L2+"<", "  4711 ~ ."),
			want: utopia, fixes: []fix{{"line", "", "<<"}, {"line", "<", ""}}},
		{name: "filler lost in the middle of line 2", in: lines(td3L1, "L898902C36UTO7408122F1204159ZE184226B<<<<10"),
			want: utopia, fixes: []fix{{"line", "", "<"}}},
		{name: "stray character in line 2", in: lines(td3L1, "L898902C36UTO7408122F12041598ZE184226B<<<<<10"),
			want: utopia, fixes: []fix{{"line", "8", ""}}},
		{name: "5 for S in permit code", in: "C5C123456788<2906106<9001011<0", want: Result{
			TravelDocument: "C12345678", Nationality: "CHN", IssuingCountry: "CHN",
			Birthday: "1990-01-01", Expiry: "2029-06-10", Type: TypeExitEntryPermit,
			Format: FormatCNExitEntry, DocumentCode: "CS",
		}, fixes: []fix{{"document_code", "5", "S"}}},
		{name: "O for D in a nationality", in: lines(td3L1, "L898902C36UTO7408122F1204159ZE184226B<<<<<10"),
			want: utopia},
		{name: "NLO is no country, NLD is", in: lines("P<NLOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36NLD7408122F1204159ZE184226B<<<<<10"),
			want: func() Result { r := utopia; r.IssuingCountry, r.Nationality = "NLD", "NLD"; return r }(), fixes: []fix{{"issuing_country", "O", "D"}}},
		{name: "0<< for Germany's D<<", in: lines("P<D<<ERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C360<<7408122F1204159ZE184226B<<<<<10"),
			want: func() Result { r := utopia; r.IssuingCountry, r.Nationality = "D", "D"; return r }(), fixes: []fix{{"nationality", "0", "D"}}},
		{name: "B for 8 in a permit number", in: "CSC1234567B8<2906106<9001011<0", want: Result{
			TravelDocument: "C12345678", Nationality: "CHN", IssuingCountry: "CHN",
			Birthday: "1990-01-01", Expiry: "2029-06-10", Type: TypeExitEntryPermit,
			Format: FormatCNExitEntry, DocumentCode: "CS",
		}, fixes: []fix{{"travel_document", "B", "8"}}},
		{name: "C for S in permit code", in: "CCC123456788<2906106<9001011<0", want: Result{
			TravelDocument: "C12345678", Nationality: "CHN", IssuingCountry: "CHN",
			Birthday: "1990-01-01", Expiry: "2029-06-10", Type: TypeExitEntryPermit,
			Format: FormatCNExitEntry, DocumentCode: "CS",
		}, fixes: []fix{{"document_code", "C", "S"}}},
		{name: "8 for S in permit code", in: "C8C123456788<2906106<9001011<0", want: Result{
			TravelDocument: "C12345678", Nationality: "CHN", IssuingCountry: "CHN",
			Birthday: "1990-01-01", Expiry: "2029-06-10", Type: TypeExitEntryPermit,
			Format: FormatCNExitEntry, DocumentCode: "CS",
		}, fixes: []fix{{"document_code", "8", "S"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseAt(tt.in, now)
			if err != nil {
				t.Fatalf("ParseAt: %v", err)
			}
			got := *r
			got.Corrections, got.Lines, got.Confidence = nil, nil, 0
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			var fixes []fix
			for _, c := range r.Corrections {
				fixes = append(fixes, fix{c.Field, c.From, c.To})
			}
			if len(fixes) != len(tt.fixes) {
				t.Fatalf("corrections %+v, want %+v", r.Corrections, tt.fixes)
			}
			for i := range fixes {
				if fixes[i] != tt.fixes[i] {
					t.Errorf("correction %d = %+v, want %+v", i, fixes[i], tt.fixes[i])
				}
			}
			if len(tt.fixes) == 0 && r.Confidence != 1 {
				t.Errorf("confidence %v for a clean zone, want 1", r.Confidence)
			}
			if len(tt.fixes) > 0 && !(r.Confidence < 1 && r.Confidence > 0) {
				t.Errorf("confidence %v after corrections, want below 1", r.Confidence)
			}
			if err := verifyLines(r); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  error
		field string
	}{
		{"empty", "", ErrNoMRZ, ""},
		{"prose", "The quick brown fox jumps over the lazy dog near the river bank", ErrNoMRZ, ""},
		{"half a zone", td3L1, ErrNoMRZ, ""},
		{"text over MaxInput", strings.Repeat("x", MaxInput-len(td3L1)) + lines(td3L1, td3L2), ErrNoMRZ, ""},
		// The failing field may be the number or the composite: a reading of
		// the number may pass its own check and then fail the composite.
		{"wrong document check digit", lines(td3L1, "L898902C35UTO7408122F1204159ZE184226B<<<<<10"), ErrCheckDigit, ""},
		{"wrong birth check digit", lines(td3L1, "L898902C36UTO7408123F1204159ZE184226B<<<<<10"), ErrCheckDigit, "birthday"},
		{"wrong composite", lines(td3L1, "L898902C36UTO7408122F1204159ZE184226B<<<<<19"), ErrCheckDigit, "composite"},
		{"digit misread as another digit", lines(td3L1, "L893902C36UTO7408122F1204159ZE184226B<<<<<10"), ErrCheckDigit, "travel_document"},
		{"month 13 with a matching check digit", lines(td3L1, "L898902C36UTO7413128F1204159ZE184226B<<<<<10"), ErrInvalidField, "birthday"},
		{"sex Q", lines(td3L1, "L898902C36UTO7408122Q1204159ZE184226B<<<<<10"), ErrInvalidField, "gender"},
		{"filler as document check digit", lines("I<UTOD2314589<<<<<<<<<<<<<<<<<", td1L2, td1L3), ErrCheckDigit, "travel_document"},
		{"TD1 long number without its check digit", lines("I<UTOD23145890<7<<<<<<<<<<<<<<", td1L2, td1L3), ErrCheckDigit, "travel_document"},
		{"visa", lines("V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", td3L2), ErrUnsupported, "document_code"},
		{"three-line chinese permit", lines("C<CHNC123456788<<<<<<<<<<<<<<<", td1L2, td1L3), ErrUnsupported, "document_code"},
		{"no name", lines("P<UTO<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<", td3L2), ErrInvalidField, "surname"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseAt(tt.in, now)
			if !errors.Is(err, tt.want) {
				t.Fatalf("ParseAt = %+v, %v; want %v", r, err, tt.want)
			}
			var fe *FieldError
			if tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field) {
				t.Errorf("error %v, want field %s", err, tt.field)
			}
		})
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		name, l3, surname, given string
		truncated                bool
	}{
		{"plain", td1L3, "ERIKSSON", "ANNA MARIA", false},
		{"truncated", "ERIKSSON<<ANNA<MARIA<ELISABETH", "ERIKSSON", "ANNA MARIA ELISABETH", true},
		{"surname only", "ERIKSSON<<<<<<<<<<<<<<<<<<<<<<", "ERIKSSON", "", false},
		{"name ending in C keeps it", "ERIC<<ANNA<<<<<<<<<<<<<<<<<<<<", "ERIC", "ANNA", false},
		{"two-part surname", "VAN<DER<BERG<<JAN<<<<<<<<<<<<<", "VAN DER BERG", "JAN", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseAt(lines(td1L1, td1L2, tt.l3), now)
			if err != nil {
				t.Fatal(err)
			}
			if r.Surname != tt.surname || r.GivenNames != tt.given || r.NameTruncated != tt.truncated {
				t.Errorf("got %q %q truncated=%v, want %q %q %v", r.Surname, r.GivenNames, r.NameTruncated, tt.surname, tt.given, tt.truncated)
			}
		})
	}
}

func TestTwoDigitYears(t *testing.T) {
	tests := []struct {
		name, yymmdd, birth, expiry string
	}{
		{"seventies", "740812", "1974-08-12", "2074-08-12"},
		{"this century", "200101", "2020-01-01", "2020-01-01"},
		{"later this year is last century for a birth", "261231", "1926-12-31", "2026-12-31"},
		{"today", "261125", "2026-11-25", "2026-11-25"},
		{"expiry over 50 years ahead is last century", "800101", "1980-01-01", "1980-01-01"},
		{"expiry 40 years ahead", "660101", "1966-01-01", "2066-01-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := birthDate(tt.yymmdd, now)
			if err != nil || b != tt.birth {
				t.Errorf("birthDate(%s) = %s, %v; want %s", tt.yymmdd, b, err, tt.birth)
			}
			e, err := expiryDate(tt.yymmdd, now)
			if err != nil || e != tt.expiry {
				t.Errorf("expiryDate(%s) = %s, %v; want %s", tt.yymmdd, e, err, tt.expiry)
			}
		})
	}
	if _, err := birthDate("000229", time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("29 February 1900 accepted")
	}
}

// verifyLines checks an accepted result on its own terms: every check digit
// of its corrected zone holds and its dates are real dates.
func verifyLines(r *Result) error {
	l, ok := layouts[r.Format]
	if !ok || len(r.Lines) != l.lines {
		return fmt.Errorf("format %q with %d lines", r.Format, len(r.Lines))
	}
	for _, s := range r.Lines {
		if len(s) != l.width || strings.Trim(s, "<0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return fmt.Errorf("line %q", s)
		}
	}
	get := func(s span) string { return r.Lines[s.line][s.start : s.start+s.n] }
	at := func(p pos) byte { return r.Lines[p.line][p.col] }
	checks := []struct {
		s span
		c pos
	}{{l.birth, l.birthChk}, {l.expiry, l.expChk}}
	if !(l.longDocNum && at(l.docCheck) == '<') {
		checks = append(checks, struct {
			s span
			c pos
		}{l.docNum, l.docCheck})
	}
	if l.optCheck != noPos {
		checks = append(checks, struct {
			s span
			c pos
		}{l.opt, l.optCheck})
	}
	for _, c := range checks {
		if !checkMatches(get(c.s), at(c.c)) {
			return fmt.Errorf("check digit of %q in %q", get(c.s), r.Lines)
		}
	}
	var comp strings.Builder
	for _, s := range l.composite {
		comp.WriteString(get(s))
	}
	if !checkMatches(comp.String(), at(l.compCheck)) {
		return fmt.Errorf("composite check digit in %q", r.Lines)
	}
	for _, d := range []string{r.Birthday, r.Expiry} {
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			return fmt.Errorf("date %q: %v", d, err)
		}
	}
	if r.Birthday > now.Format(time.DateOnly) && r.Format != "" {
		// Only meaningful for ParseAt(…, now) callers; Parse uses time.Now.
		return fmt.Errorf("birthday %s after %s", r.Birthday, now.Format(time.DateOnly))
	}
	if r.TravelDocument == "" || r.Type == "" {
		return fmt.Errorf("empty document number or type: %+v", r)
	}
	return nil
}

func TestCorrectionsVerified(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		verified bool
	}{
		// A check digit confirms a number change...
		{"number", lines(td3L1, "L8989O2C36UTO7408122F1204159ZE184226B<<<<<10"), true},
		// OCR-B's D read as O (a bilevel scan): the check digit finds it.
		{"D read as O", lines("P<ITAKIM<<JOHN<LOK<<<<<<<<<<<<<<<<<<<<<<<<<<", "FO78689604ITA5012181<2901260<<<<<<<<<<<<<<<8"), true},
		// ...but not a name change, nor a swap the check digit cannot see.
		{"name", lines("P<UTOERIKSS0N<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", td3L2), false},
		{"K filler in optional data", lines(td3L1, "L898902C36UTO7408122F1204159ZE184226B<<K<<10"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseAt(tt.in, now)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Corrections) != 1 || r.Corrections[0].Verified != tt.verified {
				t.Fatalf("corrections %+v, want one with verified=%v", r.Corrections, tt.verified)
			}
		})
	}
}
