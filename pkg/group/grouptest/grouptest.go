// Package grouptest builds passenger-list files as agencies upload them,
// for the tests of the group line, its API, portal and the chaos run. It
// imports nothing of pkg/group, so the line's own tests use it too.
package grouptest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// Header is the passenger list's header row, in the columns' API names.
var Header = []string{"type", "surname", "givenName", "gender", "birthday", "nationality", "documentType", "documentNumber", "documentExpiry"}

// Rows is a valid list of adults and children under a copy of Header
// (tests edit the rows they get): Chinese passports, names WANG XIAO A,
// B…, the children eight years old.
func Rows(adults, children int) [][]string {
	rows := [][]string{slices.Clone(Header)}
	for i := 0; i < adults+children; i++ {
		typ, born := "adult", "1980-03-04"
		if i >= adults {
			typ, born = "child", time.Now().AddDate(-8, 0, 0).Format(time.DateOnly)
		}
		rows = append(rows, []string{typ, "WANG", fmt.Sprintf("XIAO %c", 'A'+i%26), []string{"male", "female"}[i%2], born, "CN", "passport",
			fmt.Sprintf("E%08d", 1000+i), "2035-06-30"})
	}
	return rows
}

// Workbook is rows as the first sheet of an xlsx file, every cell text.
func Workbook(t testing.TB, rows [][]string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for r, row := range rows {
		vals := make([]any, len(row))
		for i, v := range row {
			vals[i] = v
		}
		cell, _ := excelize.CoordinatesToCellName(1, r+1)
		if err := sw.SetRow(cell, vals); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
