package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWriteErrorClientGone: an error the caller caused by hanging up is no
// server error: logged as 499 below the error level, where a failure of
// this side, even one wrapping a cancelled context while the caller still
// waits, stays a logged 500.
func TestWriteErrorClientGone(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })

	gone, hangUp := context.WithCancel(context.Background())
	hangUp()
	tests := []struct {
		name      string
		ctx       context.Context
		err       error
		status    int
		level     string
		errorLogs bool
	}{
		{"caller hung up", gone, fmt.Errorf("auth: find api key: %w", context.Canceled), StatusClientClosed, "INFO", false},
		{"cancelled inside, caller waiting", context.Background(), fmt.Errorf("supplier: %w", context.Canceled), http.StatusInternalServerError, "ERROR", true},
		{"plain failure, caller gone", gone, errors.New("database is down"), http.StatusInternalServerError, "ERROR", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs.Reset()
			r := httptest.NewRequest("GET", "/order/v2/flight/orders/5", nil).WithContext(tt.ctx)
			w := httptest.NewRecorder()
			WriteError(w, r, tt.err)
			if w.Code != tt.status {
				t.Errorf("status %d, want %d", w.Code, tt.status)
			}
			if !strings.Contains(logs.String(), "level="+tt.level) {
				t.Errorf("logged %q, want a line at %s", logs.String(), tt.level)
			}
			if got := strings.Contains(logs.String(), "level=ERROR"); got != tt.errorLogs {
				t.Errorf("error-level log %v, want %v: %q", got, tt.errorLogs, logs.String())
			}
		})
	}
}
