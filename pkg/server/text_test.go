package server

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPlainText: the path, the query and a URL-encoded form are checked; the
// form reaches the handler whole, and a read error (a body over the limit)
// reaches it too, so handlers answer as before.
func TestPlainText(t *testing.T) {
	tests := []struct {
		name, target, ctype, body string
		limit                     int64
		refused                   string // the field named, "" when let through
		wantBody                  string
		wantTooLarge              bool
	}{
		{name: "clean form", target: "/applications?x=1", ctype: "application/x-www-form-urlencoded", body: "name=Li&remark=a%0D%0Ab", limit: 1 << 10, wantBody: "name=Li&remark=a%0D%0Ab"},
		{name: "NUL in a form", target: "/applications", ctype: "application/x-www-form-urlencoded; charset=utf-8", body: "name=Li&remark=a%00b", limit: 1 << 10, refused: "remark"},
		{name: "NUL in the query", target: "/orders?keyword=%00", refused: "keyword"},
		{name: "escape in the path", target: "/base/v2/agencies/1%1B", refused: "path"},
		{name: "form over the limit", target: "/applications", ctype: "application/x-www-form-urlencoded", body: "name=" + strings.Repeat("x", 100), limit: 10, wantTooLarge: true},
		{name: "JSON is the decoder's", target: "/base/v2/me", ctype: "application/json", body: `{"a":"\u0000"}`, limit: 1 << 10, wantBody: `{"a":"\u0000"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var refused, got string
			var readErr error
			reached := false
			h := Chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reached = true
				b, err := io.ReadAll(r.Body)
				got, readErr = string(b), err
			}), LimitBody(max(tt.limit, 1)), PlainText(func(w http.ResponseWriter, r *http.Request, field string) { refused = field }))
			r := httptest.NewRequest("POST", tt.target, strings.NewReader(tt.body))
			if tt.ctype != "" {
				r.Header.Set("Content-Type", tt.ctype)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			if refused != tt.refused || reached == (tt.refused != "") {
				t.Fatalf("refused %q (handler reached %v), want %q", refused, reached, tt.refused)
			}
			var mbe *http.MaxBytesError
			if tt.wantTooLarge != errors.As(readErr, &mbe) {
				t.Errorf("handler read error %v, want too large %v", readErr, tt.wantTooLarge)
			}
			if !tt.wantTooLarge && got != tt.wantBody {
				t.Errorf("handler read %q, want %q", got, tt.wantBody)
			}
		})
	}
}
