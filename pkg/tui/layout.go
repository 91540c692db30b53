package tui

import "strings"

// wideAt is the width from which a screen shows its list and the selected
// item's detail (or the open form) side by side instead of one over the
// other: at 160×48 the list takes every line on the left and the detail
// every line on the right, so nothing is left half empty. Below it (120
// columns included) the two are one over the other, each the whole width:
// side by side at 120 the detail's pane was 50 cells, which cut balances,
// wallet sums and periods.
const wideAt = 160

// paned draws a screen of a list and a pane in w cells by h lines. top is
// the lines above the list (the info line and the column header), rows the
// list's lines (its message when it has no items, then at most n item
// rows, scrolled to the cursor), pane the detail or the open form. items is
// how many items the list has.
func (m *Model) paned(w, h, items int, top func(w int) []string, rows func(w, n int) []string, pane func(w, h int) []string) []string {
	if w < wideAt {
		t := top(w)
		listRows, lower := split(h-len(t), items)
		lines := append(t, rows(w, listRows)...)
		for len(lines) < len(t)+listRows {
			lines = append(lines, "")
		}
		return append(lines, pane(w, lower)...)
	}
	lw := w * 11 / 20
	rw := w - lw - 3
	left := top(lw)
	left = append(left, rows(lw, max(1, h-len(left)))...)
	right := pane(rw, h)
	out := make([]string, h)
	for i := range out {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = fit(l, lw) + m.st.Muted.Render(" │ ") + strings.TrimRight(fit(r, rw), " ")
	}
	return out
}

// rule is a pane's title line: "─ title ───…" across w cells.
func (m *Model) rule(title string, w int) string {
	t := "─ " + title + " "
	return m.st.Title.Render(fit(t+strings.Repeat("─", max(0, w-cellWidth(t))), w))
}

// detailRows is how many lines the detail pane has: the whole height
// below the header when wide, paneHeight otherwise.
func (m *Model) detailRows() int {
	if m.width >= wideAt {
		return max(paneHeight, m.height-4)
	}
	return paneHeight
}

// clip is at most the first h of lines: a pane never runs past its height.
func clip(lines []string, h int) []string {
	if len(lines) > h {
		return lines[:h]
	}
	return lines
}

// column is a list's column, w cells wide, right-aligned for amounts. The
// one column of w 0 takes the cells the others leave, at least min.
type column struct {
	w, min int
	right  bool
}

// columns are a list's columns laid out in a width.
type columns []column

// layout gives the list's columns their widths in w cells, after the
// two-cell marker and a space between columns.
func layout(w int, cs ...column) columns {
	out := make(columns, len(cs))
	copy(out, cs)
	rest := w - 2 - (len(cs) - 1)
	for _, c := range cs {
		rest -= c.w
	}
	for i, c := range out {
		if c.w == 0 {
			out[i].w = max(c.min, rest)
		}
	}
	return out
}

// row is a list line: the marker, then each cell fitted to its column.
func (cs columns) row(mark string, cells ...string) string {
	var b strings.Builder
	b.WriteString(fit(mark, 2))
	for i, c := range cs {
		if i > 0 {
			b.WriteString(" ")
		}
		if c.right {
			b.WriteString(fitRight(cells[i], c.w))
		} else {
			b.WriteString(fit(cells[i], c.w))
		}
	}
	return b.String()
}
