package marketing

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/voyage/voyage/pkg/i18n"
)

var cat = i18n.MustLoad()

func render(t *testing.T, c templ.Component, lang string) string {
	t.Helper()
	ctx := i18n.WithLocalizer(context.Background(), cat, lang)
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatalf("render %s: %v", lang, err)
	}
	return buf.String()
}

func count(html, class string) int {
	return strings.Count(html, `class="`+class+`"`)
}

func TestHomeSections(t *testing.T) {
	tests := []struct {
		lang  string
		title string
		about string
	}{
		{"en", "One platform for every trip your agency sells", "About us"},
		{"zh-cn", "一个平台，满足贵社销售的每一段行程", "关于我们"},
		{"zh-tw", "一個平台，滿足貴社銷售的每一段行程", "關於我們"},
	}
	leak := regexp.MustCompile(`home\.[a-z]`)
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			html := render(t, HomeSections(), tt.lang)
			if n := strings.Count(html, "<h1"); n != 1 {
				t.Errorf("got %d <h1>, want 1", n)
			}
			if !strings.Contains(html, tt.title) {
				t.Errorf("hero title %q missing", tt.title)
			}
			if !strings.Contains(html, ">"+tt.about+"</h2>") {
				t.Errorf("about heading %q missing", tt.about)
			}
			for class, want := range map[string]int{"mk-figure": 5, "mk-solution": 4, "mk-reason": 9, "mk-card mk-product": 9, "mk-card mk-mode": 4} {
				if n := count(html, class); n != want {
					t.Errorf("%s: got %d, want %d", class, n, want)
				}
			}
			if n := strings.Count(html, "<section"); n != 7 {
				t.Errorf("got %d sections, want 7", n)
			}
			if n := strings.Count(html, "aria-labelledby="); n != 7 {
				t.Errorf("got %d aria-labelledby, want 7", n)
			}
			if !strings.Contains(html, `class="mk-btn mk-btn-primary" href="#apply"`) {
				t.Error("primary call to action to #apply missing")
			}
			if !strings.Contains(html, `href="/openapi.json"`) {
				t.Error("API link missing")
			}
			for _, bad := range []string{"/login", "<main", "style=", "<script", "<html"} {
				if strings.Contains(html, bad) {
					t.Errorf("output contains %q", bad)
				}
			}
			if m := leak.FindString(html); m != "" {
				t.Errorf("untranslated key in output near %q", m)
			}
		})
	}
}

func TestLegalPages(t *testing.T) {
	pages := []struct {
		name   string
		c      func() templ.Component
		titles map[string]string
	}{
		{"terms", TermsContent, map[string]string{"en": "Terms &amp; Conditions", "zh-cn": "条款与条件", "zh-tw": "條款與條件"}},
		{"privacy", PrivacyContent, map[string]string{"en": "Privacy Policy", "zh-cn": "隐私政策", "zh-tw": "隱私權政策"}},
	}
	leak := regexp.MustCompile(`legal\.[a-z]`)
	for _, p := range pages {
		for _, lang := range i18n.Supported() {
			t.Run(p.name+"/"+lang, func(t *testing.T) {
				html := render(t, p.c(), lang)
				if !strings.HasPrefix(html, `<article class="mk-legal"`) {
					t.Errorf("output does not start with the mk-legal article: %.60s", html)
				}
				if n := strings.Count(html, "<h1"); n != 1 {
					t.Errorf("got %d <h1>, want 1", n)
				}
				if !strings.Contains(html, p.titles[lang]+"</h1>") {
					t.Errorf("title %q missing", p.titles[lang])
				}
				if n := strings.Count(html, "<h2"); n < 7 {
					t.Errorf("got %d <h2>, want at least 7", n)
				}
				if !strings.Contains(html, ">1. ") {
					t.Error("sections are not numbered")
				}
				if !strings.Contains(html, `<time datetime="`+LegalUpdated+`">`) {
					t.Error("last updated date missing")
				}
				if m := leak.FindString(html); m != "" {
					t.Errorf("untranslated key in output near %q", m)
				}
			})
		}
	}
}

// TestKeysExist checks every catalog key the components build from their
// lists, so a typo fails here with the key's name rather than as a leak.
func TestKeysExist(t *testing.T) {
	var keys []string
	for _, k := range []string{"hero.title", "hero.slogan", "hero.cta.apply", "hero.cta.api", "products.title", "products.intro", "products.badge.bookable", "products.badge.request", "platform.title", "platform.intro", "figures.title", "solutions.title", "solutions.intro", "why.title", "about.title", "about.p1", "about.p2"} {
		keys = append(keys, "home."+k)
	}
	for _, p := range products {
		keys = append(keys, "home.products."+p.Key+".title", "home.products."+p.Key+".desc")
	}
	for _, k := range platformModes {
		keys = append(keys, "home.platform."+k+".title", "home.platform."+k+".desc")
	}
	for _, k := range figures {
		keys = append(keys, "home.figures."+k+".value", "home.figures."+k+".label")
	}
	for _, k := range solutions {
		keys = append(keys, "home.solutions."+k+".title", "home.solutions."+k+".desc")
	}
	for _, k := range reasons {
		keys = append(keys, "home.why."+k+".title", "home.why."+k+".desc")
	}
	keys = append(keys, "legal.updated")
	for prefix, secs := range map[string][]legalSection{"legal.terms": termsSections, "legal.privacy": privacySections} {
		keys = append(keys, prefix+".title", prefix+".intro")
		for _, s := range secs {
			keys = append(keys, prefix+"."+s.Key+".title")
			keys = append(keys, paraKeys(prefix, s)...)
		}
	}
	for _, lang := range i18n.Supported() {
		for _, k := range keys {
			if !cat.Has(lang, k) {
				t.Errorf("%s: missing key %q", lang, k)
			}
		}
	}
}
