package booking

import (
	"slices"

	"github.com/voyage/voyage/pkg/fault"
)

// Page is one page of a line's bookings as the caller sees them. Every
// line's list answers it, so the API, the CLI and the portal read pages
// alike.
type Page[V any] struct {
	// Items are the orders of this page, newest first (the provider's
	// group quote queue lists its page oldest first).
	Items []V `json:"items"`
	// Total is how many orders match, on every page.
	Total int `json:"total"`
	// Page is this page's number, from 1.
	Page int `json:"page"`
	// PageSize is how many orders a page holds (20 unless asked, at most
	// 100).
	PageSize int `json:"pageSize"`
}

// PageOf is the page p of total bookings, each of rows seen through view.
func PageOf[B, V any](p Paging, total int, rows []B, view func(B) V) Page[V] {
	out := Page[V]{Items: make([]V, 0, len(rows)), Total: total, Page: p.Page, PageSize: p.Size}
	for _, b := range rows {
		out.Items = append(out.Items, view(b))
	}
	return out
}

// StatusCount is how many of the orders the caller sees are in one status.
//
// S is the line's status type, or string where a count is not of one
// status, such as a group's "all".
type StatusCount[S ~string] struct {
	// Status is the status counted (for group orders, "all" counts every
	// status).
	Status S `json:"status"`
	// Cnt is how many of the orders the caller may see are in the status
	// (0 included).
	Cnt int `json:"cnt"`
}

// Counts lists the counts of the statuses asked for, in the order asked,
// or of every one of the line's statuses (all, in the line's order) when
// none is asked; zeros included. A status that is not the line's is a
// translated field error.
func Counts[S ~string](all []S, asked []string, m map[string]int) ([]StatusCount[S], error) {
	for _, st := range asked {
		if !slices.Contains(all, S(st)) {
			return nil, fault.Validation(map[string]string{"status": "booking.error.status"})
		}
	}
	out := make([]StatusCount[S], 0, max(len(asked), len(all)))
	if len(asked) == 0 {
		for _, st := range all {
			out = append(out, StatusCount[S]{Status: st, Cnt: m[string(st)]})
		}
		return out, nil
	}
	for _, st := range asked {
		out = append(out, StatusCount[S]{Status: S(st), Cnt: m[st]})
	}
	return out, nil
}
