package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestHSTS(t *testing.T) {
	tests := []struct {
		name       string
		enabled    bool
		maxAge     time.Duration
		subdomains bool
		want       string
	}{
		{"off by default", false, 365 * 24 * time.Hour, true, ""},
		{"a year", true, 365 * 24 * time.Hour, false, "max-age=31536000"},
		{"with subdomains", true, 24 * time.Hour, true, "max-age=86400; includeSubDomains"},
		{"whole seconds", true, 1500 * time.Millisecond, false, "max-age=1"},
	}
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			HSTS(tt.enabled, tt.maxAge, tt.subdomains)(ok).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			if got := rec.Header().Get("Strict-Transport-Security"); got != tt.want {
				t.Errorf("Strict-Transport-Security = %q, want %q", got, tt.want)
			}
		})
	}
}
