package pnr

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseDocs(t *testing.T) {
	zhang := Passenger{Surname: "ZHANG", GivenName: "SAN", Type: "adult", Gender: "male", Birthday: "1985-05-12",
		Nationality: "CN", DocumentType: "passport", DocumentNumber: "E12345678", DocumentExpiry: "2030-03-15"}
	for _, tc := range []struct {
		name string
		text string
		want []Passenger
	}{
		{"the spec's line", "SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN", []Passenger{zhang}},
		{"lower case, element number, association", "  3.ssr docs ca hk1 p/cn/e12345678/cn/12may85/m/15mar30/zhang/san/p1\r\n", []Passenger{zhang}},
		{"alpha-3 codes and a Sabre separator", "SSR DOCS CA HK1/P/CHN/E12345678/CHN/12MAY1985/M/15MAR2030/ZHANG/SAN", []Passenger{zhang}},
		{"Sabre association", "3.SSR DOCS CA HK1/P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN-1.1ZHANG/SAN MR", []Passenger{zhang}},
		{"bare element", "DOCS P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN", []Passenger{zhang}},
		{"other lines of a display are passed over", " 1.ZHANG/SAN MR\n 2.CA937 Y 20DEC PEKLHR HK1 1400 1810\n 3.SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN/P1\n 4.SSR FOID CA HK1 NI110101198505120011/P1",
			[]Passenger{zhang}},
		{"ID card without expiry, middle name", "SSR DOCS MU HK1 I/CN/110101198001010011/CN/01JAN80/F//LI/SI/MEI",
			[]Passenger{{Surname: "LI", GivenName: "SI MEI", Type: "adult", Gender: "female", Birthday: "1980-01-01", Nationality: "CN",
				DocumentType: "idcard", DocumentNumber: "110101198001010011"}}},
		{"child by age, infant by gender", "SSR DOCS CA HK1 P/CN/E1/CN/01JAN20/M/01JAN30/WANG/XIAO\nSSR DOCS CA HK1 P/CN/E2/CN/01JAN26/FI/01JAN30/WANG/BAO",
			[]Passenger{
				{Surname: "WANG", GivenName: "XIAO", Type: "child", Gender: "male", Birthday: "2020-01-01", Nationality: "CN", DocumentType: "passport", DocumentNumber: "E1", DocumentExpiry: "2030-01-01"},
				{Surname: "WANG", GivenName: "BAO", Type: "infant", Gender: "female", Birthday: "2026-01-01", Nationality: "CN", DocumentType: "passport", DocumentNumber: "E2", DocumentExpiry: "2030-01-01"},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDocs(tc.text, now)
			if err != nil {
				t.Fatalf("ParseDocs: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseDocsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, key string
		line            int
	}{
		{"empty", " \n ", KeyEmpty, 0},
		{"no DOCS line", "1.ZHANG/SAN MR\n2.CA937 Y 20DEC PEKLHR HK1", KeyDocsFormat, 0},
		{"too few fields", "SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M", KeyDocsFormat, 1},
		{"unknown document type", "SSR DOCS CA HK1 X/CN/E1/CN/12MAY85/M/15MAR30/ZHANG/SAN", KeyDocsFormat, 1},
		{"no number", "SSR DOCS CA HK1 P/CN//CN/12MAY85/M/15MAR30/ZHANG/SAN", KeyDocsFormat, 1},
		{"unknown country", "SSR DOCS CA HK1 P/CN/E1/QQQ/12MAY85/M/15MAR30/ZHANG/SAN", KeyDocsFormat, 1},
		{"birthday not a date", "SSR DOCS CA HK1 P/CN/E1/CN/31FEB85/M/15MAR30/ZHANG/SAN", KeyDocsFormat, 1},
		{"birthday after today", "SSR DOCS CA HK1 P/CN/E1/CN/12MAY2027/M/15MAR30/ZHANG/SAN", KeyDocsFormat, 1},
		{"no gender", "SSR DOCS CA HK1 P/CN/E1/CN/12MAY85/U/15MAR30/ZHANG/SAN", KeyDocsFormat, 1},
		{"expiry not a date", "SSR DOCS CA HK1 P/CN/E1/CN/12MAY85/M/15MAR/ZHANG/SAN", KeyDocsFormat, 1},
		{"name in Chinese", "SSR DOCS CA HK1 P/CN/E1/CN/12MAY85/M/15MAR30/张/三", KeyDocsFormat, 1},
		{"second line bad", "SSR DOCS CA HK1 P/CN/E1/CN/12MAY85/M/15MAR30/ZHANG/SAN\n\nSSR DOCS CA HK1 P/CN/E1/CN", KeyDocsFormat, 3},
		{"too many", strings.Repeat("SSR DOCS CA HK1 P/CN/E1/CN/12MAY85/M/15MAR30/ZHANG/SAN\n", MaxDocs+1), KeyTooLong, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDocs(tc.text, now)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("ParseDocs = %+v, %v; want error %s", got, err, tc.key)
			}
			if pe.Key != tc.key || pe.Line != tc.line {
				t.Fatalf("error %s line %d, want %s line %d", pe.Key, pe.Line, tc.key, tc.line)
			}
		})
	}
}

func FuzzParseDocs(f *testing.F) {
	for _, s := range []string{
		"SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN",
		"3.SSR DOCS MU HK1 I/CN/110101198001010011/CN/01JAN80/F//LI/SI/MEI/P2",
		"DOCS ////////", "SSR DOCS", "DOCS P/CN/1/CN/29FEB24/MI/29FEB28/A/B-1.1", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := ParseDocs(text, now)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || ps != nil {
				t.Fatalf("error %v with %d passengers", err, len(ps))
			}
			return
		}
		if len(ps) == 0 || len(ps) > MaxDocs {
			t.Fatalf("%d passengers without an error", len(ps))
		}
		for _, p := range ps {
			checkPassenger(t, p)
			switch {
			case p.DocumentType != "passport" && p.DocumentType != "idcard":
				t.Fatalf("document type %q", p.DocumentType)
			case p.DocumentNumber == "" || p.Birthday == "" || p.Gender == "" || p.GivenName == "" || p.Nationality == "":
				t.Fatalf("incomplete passenger accepted: %+v", p)
			}
		}
		again, _ := ParseDocs(text, now)
		if !reflect.DeepEqual(ps, again) {
			t.Fatalf("two parses differ")
		}
	})
}
