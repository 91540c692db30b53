package app_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/store"
)

// BenchmarkHomePage renders the home page (marketing sections, the form with
// its country list, layout) through the full middleware chain, in memory.
func BenchmarkHomePage(b *testing.B) {
	a, _ := newApp(b, store.SQLite)
	for _, lang := range []string{"en", "zh-cn"} {
		b.Run(lang, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Language", lang)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				a.Handler.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
}

// BenchmarkEnvelopeRoundTrip is one API call over a real loopback HTTP
// connection: request, routing, middleware, handler, JSON envelope, read.
func BenchmarkEnvelopeRoundTrip(b *testing.B) {
	a, _ := newApp(b, store.SQLite)
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	client := srv.Client()
	b.Run("getSiteConfig", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := client.Get(srv.URL + "/base/v2/config/getSiteConfig")
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Fatalf("status %d", res.StatusCode)
			}
		}
	})
	b.Run("validationError", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := client.Post(srv.URL+"/base/v2/applications", "application/json", strings.NewReader(`{"name":""}`))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest {
				b.Fatalf("status %d", res.StatusCode)
			}
		}
	})
}

// BenchmarkAuthentication measures what identity costs a request: a login
// (dominated by the argon2id hash), and the per-request authentication of a
// bearer token and of an API key, each through the whole handler on a
// route that needs a login.
func BenchmarkAuthentication(b *testing.B) {
	a, _ := newApp(b, store.SQLite)
	ctx := context.Background()
	if err := demo.Seed(ctx, a.DB, a.Site); err != nil {
		b.Fatal(err)
	}
	res, err := a.Auth.Login(ctx, "demo-super", "demo-pass-1", auth.Meta{IP: "192.0.2.1"})
	if err != nil {
		b.Fatal(err)
	}
	key, err := a.Auth.CreateAPIKey(ctx, res.Principal.AgencyID, "bench", []string{auth.RoleSuperUser}, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("login", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			// A distinct address per login keeps the throttle out of it.
			if _, err := a.Auth.Login(ctx, "demo-operator", "demo-pass-1", auth.Meta{IP: fmt.Sprintf("10.1.%d.%d", i/250, i%250)}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// /base/v2/me/sessions needs a user; the superuser password route needs
	// only the SuperUser role, which the API key has. Both are answered
	// after authentication; the handler's own cost is small.
	for _, tc := range []struct{ name, path, header, value string }{
		{"bearer", "/base/v2/me/sessions", "Authorization", "Bearer " + res.Token},
		{"apiKey", "/base/v2/agencies/999999/superuser/password", "X-Api-Key", key.Key},
	} {
		b.Run(tc.name, func(b *testing.B) {
			method := "GET"
			if tc.name == "apiKey" {
				method = "POST"
			}
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(method, tc.path, strings.NewReader(`{"password":"whatever-1"}`))
				req.Header.Set(tc.header, tc.value)
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				a.Handler.ServeHTTP(w, req)
				if w.Code == 401 || w.Code == 403 {
					b.Fatalf("not authenticated: %d %s", w.Code, w.Body)
				}
			}
		})
	}
}
