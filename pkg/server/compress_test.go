package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCompress(t *testing.T) {
	t.Parallel()
	big := strings.Repeat(`{"code":0,"data":{"name":"Harbour Travel"}}`, 100)
	tests := []struct {
		name, contentType, body, acceptEncoding string
		gzipped                                 bool
	}{
		{"json", "application/json; charset=utf-8", big, "gzip, deflate, br", true},
		{"html", "text/html; charset=utf-8", "<p>" + big, "gzip", true},
		{"javascript", "text/javascript; charset=utf-8", big, "gzip", true},
		{"css", "text/css; charset=utf-8", big, "gzip", true},
		{"client without gzip", "application/json", big, "", false},
		{"client refusing gzip", "application/json", big, "gzip;q=0", false},
		{"small answer", "application/json", `{"code":0}`, "gzip", false},
		{"image", "image/png", big, "gzip", false},
		{"workbook", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", big, "gzip", false},
		{"pdf", "application/pdf", big, "gzip", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := Compress()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				w.Header().Set("ETag", `"v1"`)
				_, _ = io.WriteString(w, tc.body)
			}))
			req := httptest.NewRequest("GET", "/x", nil)
			if tc.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tc.acceptEncoding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := rec.Body.Bytes()
			if got := rec.Header().Get("Content-Encoding") == "gzip"; got != tc.gzipped {
				t.Fatalf("Content-Encoding %q, want gzip: %v", rec.Header().Get("Content-Encoding"), tc.gzipped)
			}
			if tc.gzipped {
				if len(body) >= len(tc.body)/4 {
					t.Errorf("%d bytes gzipped from %d", len(body), len(tc.body))
				}
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
				if etag := rec.Header().Get("ETag"); etag == `"v1"` {
					t.Errorf("the gzipped answer kept the plain answer's ETag %s", etag)
				}
			}
			if string(body) != tc.body {
				t.Errorf("body changed: %.80q…", body)
			}
			if !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") && tc.body == big {
				t.Errorf("Vary %q lacks Accept-Encoding", rec.Header().Get("Vary"))
			}
		})
	}
}
