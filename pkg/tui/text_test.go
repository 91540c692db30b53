package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

func TestFit(t *testing.T) {
	tests := []struct {
		s     string
		w     int
		want  string
		right string
	}{
		{"abc", 5, "abc  ", "  abc"},
		{"abcdef", 4, "abc…", "abc…"},
		{"abcd", 4, "abcd", "abcd"},
		{"", 2, "  ", "  "},
		{"abc", 0, "", ""},
		{"環球旅行", 6, "環球… ", " 環球…"}, // wide characters count two cells
	}
	for _, tt := range tests {
		if got := fit(tt.s, tt.w); got != tt.want {
			t.Errorf("fit(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
		if got := fitRight(tt.s, tt.w); got != tt.right {
			t.Errorf("fitRight(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.right)
		}
		if got := lipgloss.Width(fit(tt.s, tt.w)); got != tt.w {
			t.Errorf("fit(%q, %d) is %d cells", tt.s, tt.w, got)
		}
	}
}

func TestSpread(t *testing.T) {
	if got := spread("left", "right", 12); got != "left   right" {
		t.Errorf("spread = %q", got)
	}
	if got := spread("a long left part", "right", 12); got != "a lon… right" {
		t.Errorf("spread = %q (%d cells)", got, lipgloss.Width(got))
	}
	if got := spread("left", "much too long on the right", 10); lipgloss.Width(got) != 10 {
		t.Errorf("spread = %q (%d cells)", got, lipgloss.Width(got))
	}
}

func TestScroll(t *testing.T) {
	tests := []struct{ cursor, offset, rows, n, want int }{
		{0, 0, 5, 10, 0},
		{4, 0, 5, 10, 0},
		{5, 0, 5, 10, 1},  // one below the window: it moves by one
		{2, 4, 5, 10, 2},  // above the window: it starts at the cursor
		{9, 0, 5, 10, 5},  // the end
		{3, 8, 5, 10, 3},  // the list shrank
		{0, 3, 5, 2, 0},   // fewer items than rows
		{0, 0, 0, 10, 0},  // no room
		{1, 9, 5, 10, 1},  // far above
		{7, 2, 5, 10, 3},  // below
		{6, 2, 5, 10, 2},  // inside
		{0, 0, 5, 0, 0},   // empty
		{2, 0, 3, 3, 0},   // exactly full
		{2, 1, 3, 3, 0},   // over-scrolled
		{4, 0, 1, 10, 4},  // one row
		{9, 0, 20, 10, 0}, // all fit
	}
	for _, tt := range tests {
		if got := scroll(tt.cursor, tt.offset, tt.rows, tt.n); got != tt.want {
			t.Errorf("scroll(%d, %d, %d, %d) = %d, want %d", tt.cursor, tt.offset, tt.rows, tt.n, got, tt.want)
		}
	}
}

func TestPages(t *testing.T) {
	for _, tt := range []struct{ total, size, want int }{{0, 20, 1}, {1, 20, 1}, {20, 20, 1}, {21, 20, 2}, {3, 2, 2}, {5, 0, 1}} {
		if got := pages(tt.total, tt.size); got != tt.want {
			t.Errorf("pages(%d, %d) = %d, want %d", tt.total, tt.size, got, tt.want)
		}
	}
}

func TestNewKey(t *testing.T) {
	a, b := newKey(), newKey()
	if a == b || len(a) > 90 || !strings.HasPrefix(a, "tui-") {
		t.Errorf("keys %q and %q", a, b)
	}
}
