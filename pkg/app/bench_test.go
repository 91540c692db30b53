package app_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
