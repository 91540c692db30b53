package server

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLimitBodyReportsTheLimit: a body over the limit fails with the real
// limit, whether its declared length already says so or it is streamed
// without one; a body within the limit reads whole.
func TestLimitBodyReportsTheLimit(t *testing.T) {
	const limit = 100
	tests := []struct {
		name          string
		size          int
		contentLength int64
		wantLimit     int64
	}{
		{"declared over the limit", 500, 500, limit},
		{"streamed over the limit", 500, -1, limit},
		{"within the limit", 100, 100, 0},
		{"post-sale proofs", 500, 500, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotErr error
			var n int
			h := LimitBody(limit)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, err := io.ReadAll(r.Body)
				n, gotErr = len(b), err
			}))
			path := "/base/v2/applications"
			if tt.name == "post-sale proofs" {
				path = "/order/v2/flight/orders/1/refund"
			}
			r := httptest.NewRequest("POST", path, strings.NewReader(strings.Repeat("x", tt.size)))
			r.ContentLength = tt.contentLength
			h.ServeHTTP(httptest.NewRecorder(), r)
			var mbe *http.MaxBytesError
			switch {
			case tt.wantLimit == 0 && (gotErr != nil || n != tt.size):
				t.Errorf("read %d bytes, err %v; want all %d", n, gotErr, tt.size)
			case tt.wantLimit != 0 && (!errors.As(gotErr, &mbe) || mbe.Limit != tt.wantLimit):
				t.Errorf("err = %v, want a MaxBytesError with limit %d", gotErr, tt.wantLimit)
			}
		})
	}
}
