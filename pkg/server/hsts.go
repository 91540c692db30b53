package server

import (
	"net/http"
	"strconv"
	"time"
)

// StrictTransportSecurity is the value of the Strict-Transport-Security
// header for maxAge (whole seconds) and, when includeSubdomains, every
// subdomain.
func StrictTransportSecurity(maxAge time.Duration, includeSubdomains bool) string {
	v := "max-age=" + strconv.FormatInt(int64(maxAge/time.Second), 10)
	if includeSubdomains {
		v += "; includeSubDomains"
	}
	return v
}

// HSTS sets Strict-Transport-Security on every response when enabled; when
// not, it changes nothing. The header goes out over plain HTTP too: behind a
// proxy that ends TLS the server sees only HTTP, and browsers ignore the
// header on a response that did not come over HTTPS.
func HSTS(enabled bool, maxAge time.Duration, includeSubdomains bool) Middleware {
	if !enabled {
		return func(next http.Handler) http.Handler { return next }
	}
	value := StrictTransportSecurity(maxAge, includeSubdomains)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Strict-Transport-Security", value)
			next.ServeHTTP(w, r)
		})
	}
}
