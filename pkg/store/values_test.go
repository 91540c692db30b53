package store_test

import (
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/store"
)

func TestValues(t *testing.T) {
	t.Parallel()
	shanghai := time.FixedZone("CST", 8*3600)
	at := time.Date(2027, 1, 1, 8, 0, 0, 0, shanghai)
	cases := []struct {
		name      string
		got, want any
	}{
		{"zero time is NULL", store.NullTime(time.Time{}), nil},
		{"a time is written in UTC", store.NullTime(at), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"no id is NULL", store.NullID(0), nil},
		{"an id", store.NullID(42), int64(42)},
		{"a document", store.JSON(struct {
			Name string `json:"name"`
		}{"Zhang"}), `{"name":"Zhang"}`},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %#v, want %#v", c.name, c.got, c.want)
		}
	}
}
