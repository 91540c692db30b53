package app_test

import (
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
