package booking

import (
	"context"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// Filter is what a list of one line's bookings keeps: the filters every
// line offers. A line's own filters (a flight's pending group or order type)
// sit beside it in the line's filter.
type Filter struct {
	// AgencyID keeps one agency's bookings: the viewer's own or one below it.
	AgencyID int64
	Statuses []string
	// Keyword is matched by the line (booking number, passenger, ticket…).
	Keyword string
	// DirectOnly keeps the viewer's agency's own bookings, not its
	// sub-agencies'.
	DirectOnly bool
	// From and To bound the creation time, To excluded.
	From, To time.Time
	Page     int
	PageSize int
}

// List starts the query of the bookings of a line the viewer sees that f
// keeps, and the page asked for within bounds; the line adds its keyword
// match and its own filters. valid says whether a status is one of the
// line's: a status it refuses, or an agency the viewer does not see, is a
// translated field error and nothing is read.
func (v Viewer) List(ctx context.Context, agencies *agency.Store, f Filter, valid func(string) bool) (*Query, Paging, error) {
	for _, st := range f.Statuses {
		if !valid(st) {
			return nil, Paging{}, fault.Validation(map[string]string{"status": "booking.error.status"})
		}
	}
	if f.AgencyID != 0 && v.Scope.Agency != 0 {
		ok, err := agencies.IsWithin(ctx, v.Scope.Agency, f.AgencyID)
		if err != nil {
			return nil, Paging{}, err
		}
		if !ok {
			return nil, Paging{}, fault.Validation(map[string]string{"agencyId": "booking.error.agency"})
		}
	}
	sc := v.Scope
	if f.DirectOnly {
		sc.Agency, sc.DirectOnly = v.Who.AgencyID, true
	}
	q := sc.Query("agency_id", "user_id")
	if f.AgencyID != 0 {
		q.And("agency_id = ?", f.AgencyID)
	}
	q.In("status", f.Statuses)
	if !f.From.IsZero() {
		q.And("created_at >= ?", f.From.UTC())
	}
	if !f.To.IsZero() {
		q.And("created_at < ?", f.To.UTC())
	}
	return q, Pages(f.Page, f.PageSize), nil
}

// Like is the pattern a keyword matches as, upper-cased ("" for none): a
// line compares it with UPPER(column) LIKE ?.
func (f Filter) Like() string {
	k := strings.TrimSpace(f.Keyword)
	if k == "" {
		return ""
	}
	return "%" + strings.ToUpper(k) + "%"
}

// Rows reads one page of table's rows the query keeps, newest first, each
// decoded, and how many rows it keeps in all.
func Rows[R, B any](ctx context.Context, db *store.DB, q *Query, columns, table string, p Paging, decode func(R) (B, error)) ([]B, int, error) {
	total, err := q.Count(ctx, db, table)
	if err != nil {
		return nil, 0, err
	}
	var rows []R
	if err := q.Page(ctx, db, &rows, columns, table, p); err != nil {
		return nil, 0, err
	}
	out := make([]B, 0, len(rows))
	for _, r := range rows {
		b, err := decode(r)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, b)
	}
	return out, total, nil
}
