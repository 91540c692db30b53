package booking

import (
	"slices"

	"github.com/voyage/voyage/pkg/fault"
)

// Page is one page of a line's bookings as the caller sees them. Every
// line's list answers it, so the API, the CLI and the portal read pages
// alike.
type Page[V any] struct {
	Items    []V `json:"items"`
	Total    int `json:"total"`
	Page     int `json:"page"`
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

// StatusCount is how many of the viewer's bookings of a line are in one
// status (S is the line's status type, or string where a count is not of
// one status, such as a group's "all").
type StatusCount[S ~string] struct {
	Status S   `json:"status"`
	Cnt    int `json:"cnt"`
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
