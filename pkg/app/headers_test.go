package app_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/store"
)

// TestHSTSSetting: Strict-Transport-Security is sent only when configured,
// on pages and API answers alike.
func TestHSTSSetting(t *testing.T) {
	t.Parallel()
	_, off := newApp(t, store.SQLite)
	_, on := newApp(t, store.SQLite, func(c *config.Config) {
		c.HTTP.HSTS.Enabled, c.HTTP.HSTS.MaxAge, c.HTTP.HSTS.IncludeSubdomains = true, 180*24*time.Hour, true
	})
	for _, path := range []string{"/", "/login", "/base/v2/config/getSiteConfig", "/openapi.json"} {
		resp, err := off.Client().Get(off.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if v := resp.Header.Get("Strict-Transport-Security"); v != "" {
			t.Errorf("%s: HSTS %q sent by default", path, v)
		}
		resp, err = on.Client().Get(on.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if v := resp.Header.Get("Strict-Transport-Security"); v != "max-age=15552000; includeSubDomains" {
			t.Errorf("%s: HSTS %q, want max-age=15552000; includeSubDomains", path, v)
		}
	}
}

// TestBuildVersionNotPublished: the build's version (git describe, with its
// commit) is in no answer to an anonymous caller: not in /openapi.json, not
// in a page, not in a header.
func TestBuildVersionNotPublished(t *testing.T) {
	// Not parallel: it sets the package's Version, which every app reads.
	const build = "v0.9.1-42-gdeadbee7c0de"
	saved := app.Version
	app.Version = build
	t.Cleanup(func() { app.Version = saved })
	_, srv := newApp(t, store.SQLite)
	for _, path := range []string{"/openapi.json", "/", "/login", "/terms", "/privacy", "/no-such-page", "/base/v2/config/getSiteConfig", "/healthz", "/readyz"} {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "deadbee") {
			t.Errorf("%s publishes the build in its body", path)
		}
		for name, vals := range resp.Header {
			if strings.Contains(strings.Join(vals, " "), "deadbee") {
				t.Errorf("%s publishes the build in header %s", path, name)
			}
		}
		if path == "/openapi.json" && (resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"version": "2"`)) {
			t.Errorf("/openapi.json: %d, want the API's own version 2", resp.StatusCode)
		}
	}
}

// TestCompressedAnswers: JSON, pages, scripts and styles are gzipped for a
// client that asks (the OpenAPI document was 1.48 MB on the wire) and
// read back as they were; a client that does not ask gets them plain.
func TestCompressedAnswers(t *testing.T) {
	t.Parallel()
	_, srv := newApp(t, store.SQLite)
	for _, path := range []string{"/openapi.json", "/login", "/static/dist/scalar/standalone.js", "/static/manager.css"} {
		resp, plain := rawGet(t, srv, path, "Accept-Encoding", "identity")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" {
			t.Fatalf("%s plain: %d, Content-Encoding %q", path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		resp, zipped := rawGet(t, srv, path, "Accept-Encoding", "gzip")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: %d, Content-Encoding %q, want gzip (%d bytes plain)", path, resp.StatusCode, resp.Header.Get("Content-Encoding"), len(plain))
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(zipped))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// A page carries a fresh nonce per answer: compare its length.
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			if len(unzipped) != len(plain) {
				t.Errorf("%s: %d bytes unzipped, %d plain", path, len(unzipped), len(plain))
			}
		} else if !bytes.Equal(unzipped, plain) {
			t.Errorf("%s: the gzipped answer reads otherwise than the plain one", path)
		}
		t.Logf("%s: %d bytes plain, %d gzipped", path, len(plain), len(zipped))
		if path == "/openapi.json" && len(zipped) > len(plain)/8 {
			t.Errorf("/openapi.json: %d bytes gzipped from %d", len(zipped), len(plain))
		}
	}
}
