package docs

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/xuri/excelize/v2"
)

// xlsxCell is a value and the style it is written with.
type xlsxCell struct {
	v     any
	style int
	// wide cells (titles, notes) may run over the next columns, so they do
	// not size their column.
	wide bool
}

// writeTicketXLSX writes d as one sheet: the fields as label–value rows,
// tables under their header, amounts as numbers.
func writeTicketXLSX(w io.Writer, d ticketDoc) error {
	f, sheet, st, err := newWorkbook(d.title)
	if err != nil {
		return err
	}
	defer f.Close()
	var rows [][]xlsxCell
	add := func(cells ...xlsxCell) { rows = append(rows, cells) }
	for i, b := range d.blocks {
		if b.newPage && i > 0 {
			add()
		}
		if b.title != "" {
			add(xlsxCell{v: b.title, style: st.title, wide: true})
		} else if i > 0 {
			add()
		}
		if b.heading != "" {
			add(xlsxCell{v: b.heading, style: st.heading, wide: true})
		}
		for _, fd := range b.fields {
			label := xlsxCell{v: fd.label, style: st.label}
			if fd.money != nil {
				if v, format, ok := moneyCell(*fd.money); ok {
					ms, err := st.money(format, fd.bold)
					if err != nil {
						return err
					}
					add(label, xlsxCell{v: v, style: ms}, xlsxCell{v: fd.money.Currency})
					continue
				}
			}
			vs := 0
			if fd.bold {
				vs = st.bold
			}
			add(label, xlsxCell{v: fd.value, style: vs})
		}
		if len(b.cols) > 0 {
			var head []xlsxCell
			for _, c := range b.cols {
				head = append(head, xlsxCell{v: c.title, style: st.head})
			}
			add(head...)
			for _, r := range b.rows {
				var cells []xlsxCell
				for _, v := range r {
					// A PDF cell's lines are one spreadsheet cell's words.
					cells = append(cells, xlsxCell{v: strings.ReplaceAll(v, "\n", " ")})
				}
				add(cells...)
			}
		}
		if b.note != "" {
			s := 0
			if b.alert {
				s = st.alert
			}
			for _, line := range strings.Split(b.note, "\n") {
				add(xlsxCell{v: line, style: s, wide: true})
			}
		}
	}
	widths := map[int]int{}
	for r, cells := range rows {
		for c, cell := range cells {
			name, err := excelize.CoordinatesToCellName(c+1, r+1)
			if err != nil {
				return fmt.Errorf("docs: xlsx cell: %w", err)
			}
			if err := f.SetCellValue(sheet, name, cell.v); err != nil {
				return fmt.Errorf("docs: xlsx cell %s: %w", name, err)
			}
			if cell.style != 0 {
				if err := f.SetCellStyle(sheet, name, name, cell.style); err != nil {
					return fmt.Errorf("docs: xlsx style %s: %w", name, err)
				}
			}
			if s, ok := cell.v.(string); ok && !cell.wide {
				widths[c] = max(widths[c], displayWidth(s))
			} else if !cell.wide {
				widths[c] = max(widths[c], 12)
			}
		}
	}
	for c, wd := range widths {
		col, err := excelize.ColumnNumberToName(c + 1)
		if err != nil {
			return fmt.Errorf("docs: xlsx column: %w", err)
		}
		if err := f.SetColWidth(sheet, col, col, float64(min(max(wd+2, 8), 48))); err != nil {
			return fmt.Errorf("docs: xlsx width: %w", err)
		}
	}
	return writeWorkbook(w, f, excelize.DocProperties{Title: d.footer, Creator: "Voyage"})
}

// newWorkbook starts a workbook with the house styles, its one sheet named
// for title (fitted to Excel's rules).
func newWorkbook(title string) (*excelize.File, string, *xlsxStyles, error) {
	f := excelize.NewFile()
	sheet := sheetName(title)
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		f.Close()
		return nil, "", nil, fmt.Errorf("docs: xlsx sheet: %w", err)
	}
	st, err := newXLSXStyles(f)
	if err != nil {
		f.Close()
		return nil, "", nil, err
	}
	return f, sheet, st, nil
}

// writeWorkbook gives f its document properties and writes it to w.
func writeWorkbook(w io.Writer, f *excelize.File, props excelize.DocProperties) error {
	if err := f.SetDocProps(&props); err != nil {
		return fmt.Errorf("docs: xlsx properties: %w", err)
	}
	if _, err := f.WriteTo(w); err != nil {
		return fmt.Errorf("docs: xlsx write: %w", err)
	}
	return nil
}

type xlsxStyles struct {
	f                                        *excelize.File
	title, heading, label, bold, head, alert int
	moneys                                   map[string]int
}

func newXLSXStyles(f *excelize.File) (*xlsxStyles, error) {
	st := &xlsxStyles{f: f, moneys: map[string]int{}}
	for _, s := range []struct {
		id    *int
		style excelize.Style
	}{
		{&st.title, excelize.Style{Font: &excelize.Font{Bold: true, Size: 16, Color: "1F3B73"}}},
		{&st.heading, excelize.Style{Font: &excelize.Font{Bold: true, Size: 12, Color: "1F3B73"}}},
		{&st.label, excelize.Style{Font: &excelize.Font{Color: "6C757D"}}},
		{&st.bold, excelize.Style{Font: &excelize.Font{Bold: true}}},
		{&st.head, excelize.Style{Font: &excelize.Font{Bold: true, Color: "1F3B73"},
			Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E6ECF5"}},
			Border: []excelize.Border{{Type: "bottom", Color: "CED4DA", Style: 1}}}},
		{&st.alert, excelize.Style{Font: &excelize.Font{Bold: true, Color: "961E2D"}}},
	} {
		id, err := f.NewStyle(&s.style)
		if err != nil {
			return nil, fmt.Errorf("docs: xlsx style: %w", err)
		}
		*s.id = id
	}
	return st, nil
}

// money is the style of an amount with format's decimals.
func (st *xlsxStyles) money(format string, bold bool) (int, error) {
	key := fmt.Sprint(format, bold)
	if id, ok := st.moneys[key]; ok {
		return id, nil
	}
	id, err := st.f.NewStyle(&excelize.Style{CustomNumFmt: &format, Font: &excelize.Font{Bold: bold}})
	if err != nil {
		return 0, fmt.Errorf("docs: xlsx style: %w", err)
	}
	st.moneys[key] = id
	return id, nil
}

// dateTime is a new style of a time cell, shown as xlsxDateTime.
func (st *xlsxStyles) dateTime() (int, error) {
	format := xlsxDateTime
	id, err := st.f.NewStyle(&excelize.Style{CustomNumFmt: &format})
	if err != nil {
		return 0, fmt.Errorf("docs: xlsx style: %w", err)
	}
	return id, nil
}

// sheetName fits a title to Excel's rules: at most 31 characters, none of
// : \ / ? * [ ].
func sheetName(title string) string {
	r := []rune(strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return ' '
		}
		return r
	}, strings.TrimSpace(title)))
	if len(r) > 31 {
		r = r[:31]
	}
	if len(r) == 0 {
		return "Sheet1"
	}
	return string(r)
}

// displayWidth counts CJK characters twice, as Excel's column width unit is
// one Latin digit.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF) {
			n += 2
		} else {
			n++
		}
	}
	return n
}
