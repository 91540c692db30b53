package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func logLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// TestAccessLogSumsUpSuccesses: successful requests make no line each but
// one summary with their count; a failed request gets its own line at once;
// at DEBUG every request is logged as before.
func TestAccessLogSumsUpSuccesses(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/boom":
			w.WriteHeader(http.StatusInternalServerError)
		case "/missing":
			w.WriteHeader(http.StatusNotFound)
		case "/moved":
			http.Redirect(w, r, "/", http.StatusSeeOther)
		default:
			_, _ = w.Write([]byte("hello"))
		}
	})
	var buf bytes.Buffer
	l := NewAccessLog(slog.New(slog.NewJSONHandler(&buf, nil)), time.Hour)
	defer l.Close()
	srv := l.Handler(h)
	for range 100 {
		srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/order/v2/flight/orders", nil))
	}
	srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/moved", nil))
	if buf.Len() != 0 {
		t.Fatalf("successful requests logged one by one: %s", buf.String())
	}
	srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/boom", nil))
	srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/missing", nil))
	lines := logLines(t, &buf)
	if len(lines) != 2 || lines[0]["level"] != "ERROR" || lines[0]["path"] != "/boom" || lines[0]["status"] != float64(500) ||
		lines[1]["level"] != "INFO" || lines[1]["path"] != "/missing" || lines[1]["status"] != float64(404) {
		t.Fatalf("failed requests: %v", lines)
	}
	buf.Reset()
	l.Flush()
	lines = logLines(t, &buf)
	if len(lines) != 1 || lines[0]["msg"] != "http requests" || lines[0]["count"] != float64(101) || lines[0]["2xx"] != float64(100) ||
		lines[0]["3xx"] != float64(1) || lines[0]["bytes"].(float64) < 500 {
		t.Fatalf("summary: %v", lines)
	}
	// Nothing since: no line.
	buf.Reset()
	l.Flush()
	if buf.Len() != 0 {
		t.Fatalf("empty summary written: %s", buf.String())
	}

	var dbg bytes.Buffer
	ld := NewAccessLog(slog.New(slog.NewJSONHandler(&dbg, &slog.HandlerOptions{Level: slog.LevelDebug})), time.Hour)
	ld.Handler(h).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil))
	ld.Close()
	lines = logLines(t, &dbg)
	if len(lines) != 1 || lines[0]["msg"] != "http request" || lines[0]["path"] != "/x" {
		t.Fatalf("debug: %v", lines)
	}
}

// TestAccessLogCloseWritesTheLast: the summary of the last interval is not
// lost when the server stops.
func TestAccessLogCloseWritesTheLast(t *testing.T) {
	var buf bytes.Buffer
	l := NewAccessLog(slog.New(slog.NewJSONHandler(&buf, nil)), time.Hour)
	l.Handler(http.NotFoundHandler()).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/nothing", nil))
	l.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	l.Close()
	l.Close()
	lines := logLines(t, &buf)
	if len(lines) != 2 || lines[1]["msg"] != "http requests" || lines[1]["count"] != float64(1) {
		t.Fatalf("lines: %v", lines)
	}
}
