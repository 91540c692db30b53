package store

import (
	"strings"
	"time"
)

// Where is the conditions of a listing's WHERE clause and their arguments,
// for filters whose fields each narrow it only when set.
type Where struct {
	Conds []string
	Args  []any
}

// And adds a condition and its arguments.
func (w *Where) And(cond string, args ...any) {
	w.Conds = append(w.Conds, cond)
	w.Args = append(w.Args, args...)
}

// Equal adds col = value unless value is "".
func (w *Where) Equal(col, value string) {
	if value != "" {
		w.And(col+" = ?", value)
	}
}

// Period adds from <= col < to, leaving out a bound that is the zero time.
// The bounds are compared in UTC like the stored times: SQLite compares
// them as text.
func (w *Where) Period(col string, from, to time.Time) {
	if !from.IsZero() {
		w.And(col+" >= ?", from.UTC())
	}
	if !to.IsZero() {
		w.And(col+" < ?", to.UTC())
	}
}

// SQL is the conditions joined with AND.
func (w *Where) SQL() string { return strings.Join(w.Conds, " AND ") }
