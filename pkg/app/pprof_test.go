package app_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPprofBehindProviderLogin: the provider's SuperUser downloads a CPU and
// a heap profile of the running server and sees pprof's index; an agency's
// SuperUser and a visitor are refused and get no profile.
func TestPprofBehindProviderLogin(t *testing.T) {
	t.Parallel()
	// One engine after the other: a process runs one CPU profile at a time.
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		_, srv := newAppOn(t, dsn)
		testPprof(t, srv)
	})
}

func testPprof(t *testing.T, srv *httptest.Server) {
	provider := portalAs(t, srv, loginAs(t, srv, "provider-admin", "provider-pass-1").Token)
	for _, path := range []string{"/debug/pprof/profile?seconds=1", "/debug/pprof/heap"} {
		res, body := get(t, provider, srv.URL+path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("provider %s: %d %.200s", path, res.StatusCode, body)
		}
		// A profile is a gzipped protocol buffer.
		zr, err := gzip.NewReader(strings.NewReader(body))
		if err != nil {
			t.Fatalf("provider %s: not a profile: %v", path, err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil || len(raw) == 0 {
			t.Fatalf("provider %s: empty profile (%v)", path, err)
		}
	}
	res, body := get(t, provider, srv.URL+"/debug/pprof/")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Fatalf("provider index: %d", res.StatusCode)
	}

	agency := portalAs(t, srv, loginAs(t, srv, "demo-super", "demo-pass-1").Token)
	visitor := browser(t)
	for name, c := range map[string]*http.Client{"agency SuperUser": agency, "visitor": visitor} {
		for _, path := range []string{"/debug/pprof/heap", "/debug/pprof/profile?seconds=1", "/debug/pprof/"} {
			res, body := get(t, c, srv.URL+path)
			if res.StatusCode == http.StatusOK || bytes.HasPrefix([]byte(body), []byte{0x1f, 0x8b}) || strings.Contains(body, "goroutine") {
				t.Errorf("%s got %s: %d", name, path, res.StatusCode)
			}
		}
	}
	// An htmx or API-style request gets the refusal's status itself.
	res, _ = get(t, agency, srv.URL+"/debug/pprof/heap", "HX-Request", "true")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("agency SuperUser, htmx: %d, want 403", res.StatusCode)
	}
}
