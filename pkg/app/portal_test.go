package app_test

import (
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/store"
)

// browser is an HTTP client with cookies that does not follow redirects.
func browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, u string, hdr ...string) (*http.Response, string) {
	t.Helper()
	res, b := send(t, c, newRequest(t, "GET", u, nil), hdr...)
	return res, string(b)
}

func postForm(t *testing.T, c *http.Client, u string, form url.Values, hdr ...string) (*http.Response, string) {
	t.Helper()
	req := newRequest(t, "POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, b := send(t, c, req, hdr...)
	return res, string(b)
}

func TestHomePageLanguages(t *testing.T) {
	t.Parallel()
	_, srv := newApp(t, store.SQLite)
	tests := []struct {
		accept, cookie, htmlLang, nav, formTitle string
	}{
		{accept: "en-US,en;q=0.9", htmlLang: `lang="en"`, nav: "Privacy Policy", formTitle: "Apply for partnership"},
		{accept: "zh-CN", htmlLang: `lang="zh-CN"`, nav: "隐私政策", formTitle: "申请成为合作伙伴"},
		{accept: "zh-TW", htmlLang: `lang="zh-TW"`, nav: "隱私權政策", formTitle: "申請成為合作夥伴"},
		{accept: "", htmlLang: `lang="zh-CN"`, nav: "隐私政策", formTitle: "申请成为合作伙伴"},
		{accept: "en", cookie: "zh-tw", htmlLang: `lang="zh-TW"`, nav: "隱私權政策", formTitle: "申請成為合作夥伴"},
	}
	for _, tt := range tests {
		t.Run(tt.accept+"/"+tt.cookie, func(t *testing.T) {
			hdr := []string{"Accept-Language", tt.accept}
			if tt.cookie != "" {
				hdr = append(hdr, "Cookie", "lang="+tt.cookie)
			}
			res, body := get(t, srv.Client(), srv.URL+"/", hdr...)
			if res.StatusCode != 200 {
				t.Fatalf("status %d", res.StatusCode)
			}
			for _, want := range []string{tt.htmlLang, tt.nav, tt.formTitle, `id="apply"`, `data-island="CountrySelect"`, `name="country"`, "/terms", "/privacy"} {
				if !strings.Contains(body, want) {
					t.Errorf("home page lacks %q", want)
				}
			}
			if strings.Count(body, "<h1") != 1 {
				t.Errorf("home page has %d h1 elements, want 1", strings.Count(body, "<h1"))
			}
		})
	}
}

func TestLegalPagesAndTitles(t *testing.T) {
	t.Parallel()
	_, srv := newApp(t, store.SQLite)
	for path, title := range map[string]string{"/terms": "<title>Terms &amp; Conditions</title>", "/privacy": "<title>Privacy Policy</title>", "/": "<title>Voyage</title>"} {
		res, body := get(t, srv.Client(), srv.URL+path, "Accept-Language", "en")
		if res.StatusCode != 200 || !strings.Contains(body, title) {
			t.Errorf("%s: status %d, want title %s", path, res.StatusCode, title)
		}
	}
	res, body := get(t, srv.Client(), srv.URL+"/no/such/page", "Accept-Language", "en")
	if res.StatusCode != 404 || !strings.Contains(body, "Page not found") {
		t.Errorf("unknown page: status %d", res.StatusCode)
	}
}

func TestApplicationFormWithoutJavaScript(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		c := browser(t)
		res, body := postForm(t, c, srv.URL+"/applications", url.Values{"name": {""}, "email": {"bad@"}, "country": {""}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("invalid form: status %d", res.StatusCode)
		}
		for _, want := range []string{"Please input the username", "Please select your country", "The email format is incorrect.", `value="bad@"`, `aria-invalid="true"`} {
			if !strings.Contains(body, want) {
				t.Errorf("invalid form page lacks %q", want)
			}
		}
		wantApplications(t, a, 0, "the invalid form")
		res, body = postForm(t, c, srv.URL+"/applications", url.Values{"name": {"王先生"}, "phone": {""}, "email": {""}, "country": {"CN"}}, "Accept-Language", "zh-CN")
		if !strings.Contains(body, "请输入电子邮箱或电话号码") {
			t.Errorf("missing contact message in zh-cn (status %d)", res.StatusCode)
		}

		res, _ = postForm(t, c, srv.URL+"/applications", url.Values{"name": {"Ms Chen"}, "email": {"chen@example.com"}, "country": {"SG"}, "remark": {"hello"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/?applied=1#apply" {
			t.Fatalf("valid form: status %d location %q", res.StatusCode, res.Header.Get("Location"))
		}
		_, body = get(t, c, srv.URL+"/?applied=1", "Accept-Language", "en")
		if !strings.Contains(body, "Submitted") || !strings.Contains(body, "An account manager will reach out to you soon.") {
			t.Error("success message missing after redirect")
		}
		wantApplications(t, a, 1, "the valid form")
	})
}

func TestApplicationFormWithHtmx(t *testing.T) {
	t.Parallel()
	a, srv := newApp(t, store.SQLite)
	c := browser(t)
	res, body := postForm(t, c, srv.URL+"/applications", url.Values{"name": {"A"}, "country": {"CN"}}, "Accept-Language", "zh-TW", "HX-Request", "true")
	if res.StatusCode != 200 || strings.Contains(body, "<html") || !strings.Contains(body, `id="apply"`) || !strings.Contains(body, "請輸入電子郵件或電話號碼") {
		t.Fatalf("htmx invalid: status %d, partial expected with zh-tw error:\n%.300s", res.StatusCode, body)
	}
	res, body = postForm(t, c, srv.URL+"/applications", url.Values{"name": {"A"}, "country": {"CN"}, "phone": {"+86 138 0000 0000"}}, "Accept-Language", "zh-TW", "HX-Request", "true")
	if res.StatusCode != 200 || !strings.Contains(body, "已送出") || strings.Contains(body, "<form") {
		t.Fatalf("htmx valid: status %d\n%.300s", res.StatusCode, body)
	}
	wantApplications(t, a, 1, "the htmx forms")
}

func TestGuardAndPreferences(t *testing.T) {
	t.Parallel()
	_, srv := newApp(t, store.SQLite)
	c := browser(t)
	res, _ := get(t, c, srv.URL+"/bills/wallet", "Accept-Language", "en")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
		t.Fatalf("guard: status %d location %q, want 303 to /", res.StatusCode, res.Header.Get("Location"))
	}
	_, body := get(t, c, srv.URL+"/", "Accept-Language", "en")
	if !strings.Contains(body, "Please login") {
		t.Error("guard message 'Please login' not shown after the redirect")
	}
	_, body = get(t, c, srv.URL+"/", "Accept-Language", "en")
	if strings.Contains(body, "Please login") {
		t.Error("flash shown twice")
	}

	res, _ = postForm(t, c, srv.URL+"/prefs/lang", url.Values{"lang": {"zh-tw"}, "next": {"/terms"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/terms" {
		t.Fatalf("lang pref: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	_, body = get(t, c, srv.URL+"/terms", "Accept-Language", "en")
	if !strings.Contains(body, `lang="zh-TW"`) {
		t.Error("language cookie did not win over Accept-Language")
	}
	res, _ = postForm(t, c, srv.URL+"/prefs/lang", url.Values{"lang": {"en"}, "next": {"//evil.example/x"}})
	if loc := res.Header.Get("Location"); loc != "/" {
		t.Errorf("open redirect: Location %q", loc)
	}
	res, _ = postForm(t, c, srv.URL+"/prefs/currency", url.Values{"currency": {"usd"}, "next": {"/"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("currency pref: %d", res.StatusCode)
	}
	_, body = get(t, c, srv.URL+"/")
	if !strings.Contains(body, `<option value="USD" selected`) {
		t.Error("currency selector does not show USD as chosen")
	}
	res, _ = postForm(t, c, srv.URL+"/prefs/currency", url.Values{"currency": {"XXX"}, "next": {"/"}})
	_, body = get(t, c, srv.URL+"/")
	if !strings.Contains(body, `<option value="USD" selected`) {
		t.Error("an unknown currency replaced the choice")
	}
}
