package mrz

import (
	"errors"
	"testing"
	"time"
)

// TestParseKeeping: a character the caller is sure of is not swapped for a
// look-alike the check digit would accept; the others still are.
func TestParseKeeping(t *testing.T) {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	// The number is GO1234567 (a letter O); OCR read a zero.
	number := "GO1234567"
	nc, _ := checkDigit(number)
	l2 := number + string(nc) + "UTO7408122F1204159ZE184226B<<<<<"
	oc, _ := checkDigit("ZE184226B<<<<<")
	l2 += string(oc)
	cc, _ := checkDigit(l2[0:10] + l2[13:20] + l2[21:43])
	l2 += string(cc)
	read := "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n" + l2[:1] + "0" + l2[2:]

	res, err := ParseAt(read, now)
	if err != nil || res.TravelDocument != number {
		t.Fatalf("ParseAt: %v %v", res, err)
	}
	// Sure of the zero, the check digit cannot hold.
	if _, err := ParseKeeping(read, now, []Place{{Line: 1, Col: 1}}); !errors.Is(err, ErrCheckDigit) {
		t.Errorf("kept zero: %v", err)
	}
	// Sure of another character, the zero is still corrected.
	res, err = ParseKeeping(read, now, []Place{{Line: 1, Col: 0}})
	if err != nil || res.TravelDocument != number {
		t.Errorf("kept G: %v %v", res, err)
	}
}

// TestFieldAt covers both lookups of a zone's fields by place: FieldAt
// (the fields a check digit guards) and LetterFieldAt (the letters-only ones).
func TestFieldAt(t *testing.T) {
	type place struct {
		f         Format
		line, col int
		want      string
	}
	for _, tc := range []struct {
		name  string
		at    func(Format, int, int) string
		cases []place
	}{
		{"FieldAt", FieldAt, []place{
			{FormatTD3, 1, 0, "travel_document"}, {FormatTD3, 1, 8, "travel_document"}, {FormatTD3, 1, 9, ""},
			{FormatTD3, 1, 28, "optional_data"}, {FormatTD3, 0, 5, ""},
			{FormatTD1, 0, 5, "travel_document"}, {FormatTD1, 0, 15, "optional_data"}, {FormatTD1, 1, 18, "optional_data"},
			{FormatCNExitEntry, 0, 2, "travel_document"}, {FormatCNExitEntry, 0, 13, ""},
			{Format("X"), 0, 0, ""},
		}},
		{"LetterFieldAt", LetterFieldAt, []place{
			{FormatTD3, 0, 2, "issuing_country"}, {FormatTD3, 0, 5, "name"}, {FormatTD3, 0, 43, "name"},
			{FormatTD3, 1, 10, "nationality"}, {FormatTD3, 1, 13, ""}, {FormatTD3, 1, 0, ""}, {FormatTD3, 0, 1, ""},
			{FormatTD1, 0, 4, "issuing_country"}, {FormatTD1, 1, 15, "nationality"}, {FormatTD1, 2, 0, "name"}, {FormatTD1, 1, 0, ""},
			// The permit's zone carries no letters-only field.
			{FormatCNExitEntry, 0, 2, ""}, {FormatCNExitEntry, 0, 13, ""},
			{Format("X"), 0, 0, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range tc.cases {
				if got := tc.at(c.f, c.line, c.col); got != c.want {
					t.Errorf("%s %d,%d: %q, want %q", c.f, c.line, c.col, got, c.want)
				}
			}
		})
	}
}
