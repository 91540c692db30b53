package group

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/group/grouptest"
)

var testOrder = Order{Journeys: []Journey{{Origin: "PEK", Destination: "SHA", Date: "2027-03-01", ReturnDate: "2027-03-08"}},
	Counts: Counts{Adult: 10, Child: 2, Infant: 1}}

var listDay = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

func listRows(adults, children, infants int) [][]string {
	rows := [][]string{listColumns}
	add := func(typ, born string, i int) {
		rows = append(rows, []string{typ, "ZHAO", fmt.Sprintf("MING %d", i), "female", born, "CN", "passport", fmt.Sprintf("G%07d", i), "2031-01-01",
			"", "", ""})
	}
	for i := 0; i < adults; i++ {
		add("adult", "1975-06-01", i)
	}
	for i := 0; i < children; i++ {
		add("child", "2019-06-01", 100000+i)
	}
	for i := 0; i < infants; i++ {
		add("infant", "2026-01-01", 200000+i)
	}
	return rows
}

func parse(t testing.TB, data []byte, free int) ([]Passenger, error) {
	t.Helper()
	s := New(Options{})
	return s.ParseList(bytes.NewReader(data), int64(len(data)), testOrder, free, listDay)
}

func TestParseListRules(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		edit   func(rows [][]string) [][]string
		free   int
		errors []RowError
	}{
		{"valid", func(r [][]string) [][]string { return r }, 0, nil},
		{"names A-Z only", func(r [][]string) [][]string { r[2][1] = "ZHAO-LI"; return r }, 0,
			[]RowError{{Row: 3, Column: "surname", Cell: "B3", Message: "profile.passenger.error.surnameFormat"}}},
		{"a date that is no date", func(r [][]string) [][]string { r[4][4] = "1975-13-01"; return r }, 0,
			[]RowError{{Row: 5, Column: "birthday", Cell: "E5", Message: "profile.passenger.error.birthdayFormat"}}},
		{"an unknown nationality", func(r [][]string) [][]string { r[5][5] = "XX"; return r }, 0,
			[]RowError{{Row: 6, Column: "nationality", Cell: "F6", Message: "profile.passenger.error.nationality"}}},
		{"a document expiring before the way back", func(r [][]string) [][]string { r[6][8] = "2027-03-05"; return r }, 0,
			[]RowError{{Row: 7, Column: "documentExpiry", Cell: "I7", Message: "order.passenger.error.documentExpired"}}},
		{"a type the age contradicts", func(r [][]string) [][]string { r[12][0] = "adult"; return r }, 0,
			[]RowError{{Row: 13, Column: "type", Cell: "A13", Message: "order.passenger.error.typeByAge"}}},
		{"the same passport twice", func(r [][]string) [][]string { r[3][7] = r[2][7]; return r }, 0,
			[]RowError{{Row: 4, Column: "documentNumber", Cell: "H4", Message: "group.error.listDuplicate?row=3"}}},
		{"one adult short", func(r [][]string) [][]string { return append(r[:1], r[2:]...) }, 0,
			[]RowError{{Row: 0, Column: "type", Message: "group.error.listCounts?adult=10&child=2&infant=1"}}},
		{"one adult short within the free drops", func(r [][]string) [][]string { return append(r[:1], r[2:]...) }, 1, nil},
		{"excel date serials", func(r [][]string) [][]string { r[1][4] = "27546"; return r }, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps, err := parse(t, grouptest.Workbook(t, c.edit(listRows(10, 2, 1))), c.free)
			var le *ListError
			switch {
			case c.errors == nil && err != nil:
				t.Fatalf("refused: %v %+v", err, le)
			case c.errors == nil:
				if len(ps) == 0 || ps[0].Surname != "ZHAO" || ps[0].Nationality != "CN" {
					t.Fatalf("passengers: %+v", ps)
				}
			case !errors.As(err, &le):
				t.Fatalf("err = %v, want row errors", err)
			case fmt.Sprint(le.Errors) != fmt.Sprint(c.errors):
				t.Fatalf("errors = %+v, want %+v", le.Errors, c.errors)
			case ps != nil:
				t.Fatal("a refused list returned passengers")
			}
		})
	}
}

func TestParseListRefusesFiles(t *testing.T) {
	t.Parallel()
	huge := [][]string{listColumns}
	for i := 0; i < 100_000; i++ {
		huge = append(huge, []string{"adult"})
	}
	bigFile := grouptest.Workbook(t, huge)
	for name, c := range map[string]struct {
		data []byte
		key  string
	}{
		"100k rows":  {bigFile, "group.error.listTooManyRows"},
		"not a zip":  {[]byte("%PDF-1.4 nope"), "group.error.listNotXlsx"},
		"no headers": {grouptest.Workbook(t, [][]string{{"a", "b"}}), "group.error.listHeaders"},
		"empty":      {grouptest.Workbook(t, [][]string{listColumns}), "group.error.listInvalid"},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "100k rows" && len(c.data) > MaxListBytes {
				t.Skipf("the 100k-row workbook is %d bytes, refused for its size first", len(c.data))
			}
			_, err := parse(t, c.data, 0)
			fe, ok := fault.As(err)
			if !ok || fe.Key != c.key || fe.Code != fault.CodeValidation {
				t.Fatalf("err = %v, want %s", err, c.key)
			}
		})
	}
}

func TestTemplateRoundTrip(t *testing.T) {
	t.Parallel()
	s := New(Options{})
	tpl, err := s.Template("zh-cn")
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(tpl))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := listRows(10, 2, 1)
	for r, row := range rows[1:] {
		for c, v := range row {
			cell, _ := excelize.CoordinatesToCellName(c+1, r+2)
			_ = f.SetCellStr("Passengers", cell, v)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	ps, err := parse(t, buf.Bytes(), 0)
	if err != nil || len(ps) != 13 {
		t.Fatalf("a filled-in template: %d passengers, %v", len(ps), err)
	}
}

// TestParseListCapsItsErrors: a list wrong in every cell is answered with
// its first MaxListErrors problems and one line saying how many more.
func TestParseListCapsItsErrors(t *testing.T) {
	t.Parallel()
	rows := listRows(10, 2, 1)
	for r := 1; r < len(rows); r++ {
		for c := range rows[r] {
			rows[r][c] = "?"
		}
	}
	_, err := parse(t, grouptest.Workbook(t, rows), 0)
	var le *ListError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want row errors", err)
	}
	if len(le.Errors) != MaxListErrors+1 {
		t.Fatalf("%d errors, want %d and a last line", len(le.Errors), MaxListErrors+1)
	}
	last := le.Errors[MaxListErrors]
	if !strings.HasPrefix(last.Message, "group.error.listMoreErrors?count=") || last.Message == "group.error.listMoreErrors?count=0" {
		t.Fatalf("last line = %+v", last)
	}
}
