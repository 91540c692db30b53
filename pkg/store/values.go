package store

import (
	"encoding/json"
	"fmt"
	"time"
)

// The column values every table with JSON documents, optional times and
// optional references writes alike, on both engines.

// JSON is v as a JSON text column. v is a plain struct of strings, numbers
// and slices of them: one that cannot be encoded is a programming error.
func JSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("store: encode %T: %v", v, err))
	}
	return string(b)
}

// NullTime is t in UTC, or NULL for the zero time.
func NullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// NullID is id, or NULL for 0 (no row referred to).
func NullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
