package booking

import (
	"context"
	"fmt"
	"strings"

	"github.com/voyage/voyage/pkg/store"
)

// treeCTE selects the ids of an agency and every agency below it.
const treeCTE = `WITH RECURSIVE tree(id) AS (SELECT CAST(? AS BIGINT) UNION ALL SELECT a.id FROM agencies a JOIN tree t ON a.parent_id = t.id) `

// Query is the WHERE clause of a list of one line's bookings: it starts
// with what the scope may see, and each line adds its own filters.
type Query struct {
	with  string
	conds []string
	args  []any
}

// Query starts a list of what the scope sees; agencyCol and userCol name
// the booking's agency and user columns ("agency_id", "o.user_id").
func (sc Scope) Query(agencyCol, userCol string) *Query {
	q := &Query{}
	if sc.Agency != 0 {
		if sc.DirectOnly {
			q.And(agencyCol+" = ?", sc.Agency)
		} else {
			q.with = treeCTE
			q.And(agencyCol+" IN (SELECT id FROM tree)", sc.Agency)
		}
	}
	if sc.User != 0 {
		q.And(userCol+" = ?", sc.User)
	}
	return q
}

// And adds a condition and its arguments.
func (q *Query) And(cond string, args ...any) *Query {
	q.conds = append(q.conds, cond)
	q.args = append(q.args, args...)
	return q
}

// In adds col IN (values), nothing when values is empty.
func (q *Query) In(col string, values []string) *Query {
	if len(values) == 0 {
		return q
	}
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v
	}
	return q.And(col+" IN ("+store.Marks(len(values))+")", args...)
}

// SQL is head (SELECT … FROM …) with the query's WHERE clause, then tail
// (ORDER BY …, LIMIT ? OFFSET ?), unbound.
func (q *Query) SQL(head, tail string) string {
	w := ""
	if len(q.conds) > 0 {
		w = " WHERE " + strings.Join(q.conds, " AND ")
	}
	return q.with + head + w + tail
}

// Args are the query's arguments followed by extra (the tail's).
func (q *Query) Args(extra ...any) []any {
	return append(append(make([]any, 0, len(q.args)+len(extra)), q.args...), extra...)
}

// Count counts the rows of from (a table, or a join) the query keeps.
func (q *Query) Count(ctx context.Context, db *store.DB, from string) (int, error) {
	var n int
	if err := db.GetContext(ctx, &n, db.Rebind(q.SQL("SELECT COUNT(*) FROM "+from, "")), q.Args()...); err != nil {
		return 0, fmt.Errorf("booking: count %s: %w", from, err)
	}
	return n, nil
}

// Page selects one page of columns from from into dest, newest first (a
// queue's oldest first: Paging.OldestFirst).
func (q *Query) Page(ctx context.Context, db *store.DB, dest any, columns, from string, p Paging) error {
	order := " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?"
	if p.OldestFirst {
		order = " ORDER BY created_at, id LIMIT ? OFFSET ?"
	}
	sql := q.SQL("SELECT "+columns+" FROM "+from, order)
	if err := db.SelectContext(ctx, dest, db.Rebind(sql), q.Args(p.Size, p.Offset())...); err != nil {
		return fmt.Errorf("booking: list %s: %w", from, err)
	}
	return nil
}

// StatusCounts counts the rows of table the query keeps by status.
func (q *Query) StatusCounts(ctx context.Context, db *store.DB, table string) (map[string]int, error) {
	var rows []struct {
		Status string `db:"status"`
		Cnt    int    `db:"cnt"`
	}
	if err := db.SelectContext(ctx, &rows, db.Rebind(q.SQL("SELECT status, COUNT(*) AS cnt FROM "+table, " GROUP BY status")), q.Args()...); err != nil {
		return nil, fmt.Errorf("booking: status counts of %s: %w", table, err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Status] = r.Cnt
	}
	return out, nil
}

// Paging is one page of a list. Every list is bounded: at most MaxPageSize
// rows a page.
type Paging struct {
	Page int
	Size int
	// OldestFirst pages a queue, oldest first; lists are newest first.
	OldestFirst bool
}

// The bounds of a page.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// Pages is the page asked for within the bounds: page 1 and
// DefaultPageSize when not given, at most MaxPageSize.
func Pages(page, size int) Paging {
	if size < 1 {
		size = DefaultPageSize
	}
	return Paging{Page: max(page, 1), Size: min(size, MaxPageSize)}
}

// Offset is how many rows come before the page.
func (p Paging) Offset() int { return (p.Page - 1) * p.Size }
