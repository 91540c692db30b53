package tui

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// fit makes s exactly w cells wide: cut with an ellipsis when longer,
// padded with spaces when shorter. Widths are terminal cells, so wide (CJK)
// names line up too.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", max(0, w-lipgloss.Width(s)))
}

// fitRight is fit aligned to the right, for amounts.
func fitRight(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", max(0, w-lipgloss.Width(s))) + s
}

// wrap breaks s into lines of at most w cells, at spaces where it can.
func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// spread puts left and right on one line of w cells, right-aligned; the
// left part gives way when both do not fit.
func spread(left, right string, w int) string {
	rw := lipgloss.Width(right)
	if rw >= w {
		return fit(right, w)
	}
	return fit(left, w-rw-1) + " " + right
}

// scroll keeps the cursor inside a window of rows lines over n items: the
// first item shown, given the one shown before.
func scroll(cursor, offset, rows, n int) int {
	if rows <= 0 || n <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+rows {
		offset = cursor - rows + 1
	}
	return max(0, min(offset, n-rows))
}

// pages is how many pages total items make, at least one.
func pages(total, size int) int {
	if size <= 0 || total <= 0 {
		return 1
	}
	return (total + size - 1) / size
}

// newKey is a fresh idempotency key: one per add-funds form, so that a
// retry of the same form never credits twice.
func newKey() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on supported platforms; a key that is
		// not random would still be unique enough only by luck, so say so.
		panic(fmt.Sprintf("tui: random key: %v", err))
	}
	return "tui-" + hex.EncodeToString(b)
}

// onOff is a setting as a word.
func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// paneHeight is the lower pane's height: a detail (title, five rows of
// figures, the entries' title and five entries) or a form with its error.
const paneHeight = 12

// split shares h lines between a list of n items and the pane below it:
// the pane gets its height first, the list what is left, but no more than
// it needs (at least minRows), so that the pane follows the list closely
// on a tall terminal. On a short one the pane gives way first.
func split(h, n int) (listRows, pane int) {
	const minRows = 5
	listRows = max(2, min(h-paneHeight, max(n, minRows)))
	return listRows, max(0, h-listRows)
}

// cellWidth is how many terminal cells s takes.
func cellWidth(s string) int { return lipgloss.Width(s) }
