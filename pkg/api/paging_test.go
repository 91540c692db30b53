package api

import (
	"net/http/httptest"
	"testing"
)

func TestPageFromQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query            string
		wantPage, wantSz int
	}{
		{"", 1, 20},
		{"?page=3&pageSize=50", 3, 50},
		{"?page=-1&pageSize=1000", 1, 100},
		{"?page=x&pageSize=0", 1, 20},
	} {
		page, size := pageFromQuery(httptest.NewRequest("GET", "/base/v2/users"+tc.query, nil))
		if page != tc.wantPage || size != tc.wantSz {
			t.Errorf("%q: page %d size %d, want %d %d", tc.query, page, size, tc.wantPage, tc.wantSz)
		}
	}
}
