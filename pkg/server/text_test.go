package server

import (
	"cmp"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/input"
)

// TestPlainText: the path, the query and a URL-encoded form are checked; the
// form reaches the handler whole, and a read error (a body over the limit)
// reaches it too, so handlers answer as before.
func TestPlainText(t *testing.T) {
	tests := []struct {
		name, target, ctype, body string
		limit                     int64
		refused                   string // the field named, "" when let through
		key                       string // the error's key, input.FieldKey when empty
		wantBody                  string
		wantTooLarge              bool
	}{
		{name: "clean form", target: "/applications?x=1", ctype: "application/x-www-form-urlencoded", body: "name=Li&remark=a%0D%0Ab", limit: 1 << 10, wantBody: "name=Li&remark=a%0D%0Ab"},
		{name: "NUL in a form", target: "/applications", ctype: "application/x-www-form-urlencoded; charset=utf-8", body: "name=Li&remark=a%00b", limit: 1 << 10, refused: "remark"},
		{name: "NUL in the query", target: "/orders?keyword=%00", refused: "keyword"},
		{name: "escape in the path", target: "/base/v2/agencies/1%1B", refused: "path"},
		{name: "form over the limit", target: "/applications", ctype: "application/x-www-form-urlencoded", body: "name=" + strings.Repeat("x", 100), limit: 10, wantTooLarge: true},
		{name: "the last page", target: "/base/v2/users?page=10000&pageSize=100"},
		{name: "a page past the last", target: "/base/v2/users?page=10001", refused: "page", key: input.PageKey},
		{name: "a page past 2^62", target: "/order/v2/flight/orders?page=4611686018427387905", refused: "page", key: input.PageKey},
		{name: "a page past any int", target: "/orders?page=%2B99999999999999999999999", refused: "page", key: input.PageKey},
		{name: "no number is page 1, as before", target: "/orders?page=x&pageSize=-1"},
		{name: "JSON is the decoder's", target: "/base/v2/me", ctype: "application/json", body: `{"a":"\u0000"}`, limit: 1 << 10, wantBody: `{"a":"\u0000"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var refused, key, got string
			var readErr error
			reached := false
			h := Chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reached = true
				b, err := io.ReadAll(r.Body)
				got, readErr = string(b), err
			}), LimitBody(max(tt.limit, 1)), PlainText(func(w http.ResponseWriter, r *http.Request, field, k string) { refused, key = field, k }))
			r := httptest.NewRequest("POST", tt.target, strings.NewReader(tt.body))
			if tt.ctype != "" {
				r.Header.Set("Content-Type", tt.ctype)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			if refused != tt.refused || reached == (tt.refused != "") {
				t.Fatalf("refused %q (handler reached %v), want %q", refused, reached, tt.refused)
			}
			if want := cmp.Or(tt.key, input.FieldKey); refused != "" && key != want {
				t.Errorf("refused with %q, want %q", key, want)
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
