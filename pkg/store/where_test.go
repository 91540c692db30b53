package store

import (
	"reflect"
	"testing"
	"time"
)

func TestWhere(t *testing.T) {
	from := time.Date(2026, 1, 1, 8, 0, 0, 0, time.FixedZone("CST", 8*3600))
	to := from.AddDate(0, 0, 1)
	var w Where
	w.And("agency_id = ?", int64(7))
	w.Equal("action", "")
	w.Equal("username", "ann")
	w.Period("created_at", from, time.Time{})
	w.Period("paid_at", time.Time{}, to)
	if got, want := w.SQL(), "agency_id = ? AND username = ? AND created_at >= ? AND paid_at < ?"; got != want {
		t.Errorf("SQL() = %q, want %q", got, want)
	}
	want := []any{int64(7), "ann", from.UTC(), to.UTC()}
	if !reflect.DeepEqual(w.Args, want) {
		t.Errorf("Args = %v, want %v", w.Args, want)
	}
	if got := (&Where{}).SQL(); got != "" {
		t.Errorf("empty SQL() = %q, want \"\"", got)
	}
}
