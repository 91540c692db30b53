package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo/demotest"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// newApp starts the whole handler behind a real HTTP server on the engine d.
func newApp(t testing.TB, d store.Dialect, mods ...func(*config.Config)) (*app.App, *httptest.Server) {
	t.Helper()
	return newAppOn(t, storetest.DSN(t, d), mods...)
}

// newSeededApp is newApp on a database that holds the demo data.
func newSeededApp(t testing.TB, d store.Dialect, mods ...func(*config.Config)) (*app.App, *httptest.Server) {
	t.Helper()
	return newAppOn(t, demotest.DSN(t, d), mods...)
}

// newAppOn is an app on an existing database (dsn), as a restarted server
// or a second instance would be.
func newAppOn(t testing.TB, dsn string, mods ...func(*config.Config)) (*app.App, *httptest.Server) {
	t.Helper()
	cfg, err := config.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DB = dsn
	cfg.HTTP.MaxBodyBytes = 64 << 10
	// Emails go to the test's own folder, not ./var/outbox in the source
	// tree; a test that reads them sets its own.
	cfg.Mail.OutboxDir = t.TempDir()
	// The simulated suppliers answer at once and never fail: tests that need
	// failures script their own suppliers (pkg/shopping).
	cfg.Shopping.Sim.LatencyScale, cfg.Shopping.Sim.ErrorRate, cfg.Shopping.Sim.TimeoutRate, cfg.Shopping.Sim.Volatility = 0, 0, 0, 0
	for _, m := range mods {
		m(&cfg)
	}
	a, err := app.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(srv.Close)
	validate(t, srv)
	return a, srv
}

// forEachEngine runs fn on an app on each engine, the two in parallel.
func forEachEngine(t *testing.T, fn func(t *testing.T, a *app.App, srv *httptest.Server)) {
	onEachEngine(t, newApp, nil, fn)
}

// onEachEngine runs fn on the app open starts (newApp or newSeededApp, with
// mod when given) on each engine, the two in parallel.
func onEachEngine(t *testing.T, open func(testing.TB, store.Dialect, ...func(*config.Config)) (*app.App, *httptest.Server),
	mod func(*config.Config), fn func(t *testing.T, a *app.App, srv *httptest.Server)) {
	var mods []func(*config.Config)
	if mod != nil {
		mods = append(mods, mod)
	}
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			a, srv := open(t, d, mods...)
			fn(t, a, srv)
		})
	}
}

type envelope struct {
	Code    int             `json:"code"`
	Data    json.RawMessage `json:"data"`
	Message string          `json:"message"`
}

func call(t testing.TB, srv *httptest.Server, method, path, lang, body string, hdr ...string) (*http.Response, envelope) {
	t.Helper()
	req := newRequest(t, method, srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	resp, raw := send(t, srv.Client(), req, hdr...)
	return resp, asEnvelope(t, method+" "+path, raw)
}

// okData calls the API in English, which must answer 200 with code 0, and
// decodes the answer's data; what names the call in a failure.
func okData[T any](t testing.TB, srv *httptest.Server, what, method, path, body string, hdr ...string) T {
	t.Helper()
	resp, env := call(t, srv, method, path, "en", body, hdr...)
	return dataOf[T](t, what, resp, env, http.StatusOK)
}

// dataOf decodes the data of an answer that must have the status and code
// 0; what names the call in a failure.
func dataOf[T any](t testing.TB, what string, resp *http.Response, env envelope, status int) T {
	t.Helper()
	if resp.StatusCode != status || env.Code != 0 {
		t.Fatalf("%s: %d %+v", what, resp.StatusCode, env)
	}
	var v T
	if err := json.Unmarshal(env.Data, &v); err != nil {
		t.Fatalf("%s: %v in %s", what, err, env.Data)
	}
	return v
}

func newRequest(t testing.TB, method, url string, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// send sends req through c with the header pairs hdr (name, value, …) set
// last, so they win over the caller's defaults, and reads the whole answer.
func send(t testing.TB, c *http.Client, req *http.Request, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, raw
}

// rawGet fetches an answer that is not an envelope (an image, a document).
func rawGet(t *testing.T, srv *httptest.Server, path string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	return send(t, srv.Client(), newRequest(t, "GET", srv.URL+path, nil), hdr...)
}

// servedOpenAPI decodes the OpenAPI document srv serves into doc, a pointer
// to a struct of the parts a test reads; raw is the document as served.
func servedOpenAPI(t *testing.T, srv *httptest.Server, doc any) (raw []byte) {
	t.Helper()
	_, raw = rawGet(t, srv, "/openapi.json")
	if err := json.Unmarshal(raw, doc); err != nil {
		t.Fatal(err)
	}
	return raw
}

// asEnvelope decodes an API answer; what names the request in a failure.
func asEnvelope(t testing.TB, what string, raw []byte) envelope {
	t.Helper()
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("%s: body is not an envelope: %v\n%.200s", what, err, raw)
	}
	return env
}

// wantApplications fails the test unless the partnership applications
// stored number want; after names what was just sent.
func wantApplications(t *testing.T, a *app.App, want int, after string) {
	t.Helper()
	var n int
	if err := a.DB.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM applications`); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("after %s: %d applications stored, want %d", after, n, want)
	}
}

func TestSiteConfig(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		resp, env := call(t, srv, "GET", "/base/v2/config/getSiteConfig", "", "")
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("status %d code %d", resp.StatusCode, env.Code)
		}
		var info map[string]any
		if err := json.Unmarshal(env.Data, &info); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"logo", "whiteLogo", "name", "shortName", "chineseName", "chineseShortName", "type", "dateFormat",
			"defaultCurrency", "defaultLanguage", "currencies", "favicon", "isIcp", "icpCode", "isNetworkSecurity", "networkSecurityCode", "rateMap"} {
			if _, ok := info[f]; !ok {
				t.Errorf("site info lacks %s", f)
			}
		}
		if info["dateFormat"] != "yyyy-MM-dd" || info["defaultCurrency"] != "CNY" || info["defaultLanguage"] != "zh-cn" || info["type"] != "client" {
			t.Errorf("defaults wrong: %v %v %v %v", info["dateFormat"], info["defaultCurrency"], info["defaultLanguage"], info["type"])
		}
		if cur, _ := info["currencies"].([]any); len(cur) != 23 {
			t.Errorf("currencies = %v, want the 23 of spec §9", info["currencies"])
		}
		rates, _ := info["rateMap"].(map[string]any)
		if rates["CNY"] != "1" {
			t.Errorf("rateMap[CNY] = %v, want 1", rates["CNY"])
		}
	})
}

func TestApplicationsAPI(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		// Invalid: every spec §5 message, in the request's language, nothing stored.
		resp, env := call(t, srv, "POST", "/base/v2/applications", "en", `{"name":" ","country":"","email":"","phone":""}`)
		if resp.StatusCode != 400 || env.Code != 100001 {
			t.Fatalf("invalid application: status %d code %d", resp.StatusCode, env.Code)
		}
		var vd struct{ Fields map[string]string }
		if err := json.Unmarshal(env.Data, &vd); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"name": "Please input the username", "country": "Please select your country", "email": "Please input email address or phone number"}
		for f, msg := range want {
			if vd.Fields[f] != msg {
				t.Errorf("field %s: %q, want %q", f, vd.Fields[f], msg)
			}
		}
		_, env = call(t, srv, "POST", "/base/v2/applications", "en", `{"name":"Li","country":"CN","email":"li@"}`)
		if err := json.Unmarshal(env.Data, &vd); err != nil || vd.Fields["email"] != "The email format is incorrect." {
			t.Errorf("bad email: %s", env.Data)
		}
		_, env = call(t, srv, "POST", "/base/v2/applications", "zh-CN,zh;q=0.9", `{"name":"","country":"CN","phone":"+86 10 1234 5678"}`)
		if err := json.Unmarshal(env.Data, &vd); err != nil || vd.Fields["name"] != "请输入用户名" {
			t.Errorf("zh-cn message: %s", env.Data)
		}
		_, env = call(t, srv, "POST", "/base/v2/applications", "", `{"name":"X","country":"ZZ","phone":"12345"}`, "Cookie", "lang=zh-tw")
		if err := json.Unmarshal(env.Data, &vd); err != nil || vd.Fields["country"] != "請選擇您的國家/地區" {
			t.Errorf("zh-tw cookie message: %s", env.Data)
		}
		wantApplications(t, a, 0, "the invalid applications")

		resp, env = call(t, srv, "POST", "/base/v2/applications", "en",
			`{"name":"Ms Zhang","email":"zhang@example.com","country":"cn","companyName":"Blue Sea Travel","website":"blue-sea.example.com","remark":"200 tickets a month"}`)
		if resp.StatusCode != 201 || env.Code != 0 {
			t.Fatalf("valid application: status %d code %d %s", resp.StatusCode, env.Code, env.Message)
		}
		var got struct{ ID int64 }
		if err := json.Unmarshal(env.Data, &got); err != nil || got.ID == 0 {
			t.Fatalf("no id in %s", env.Data)
		}
		var row struct {
			Country string `db:"country"`
			Lang    string `db:"lang"`
		}
		if err := a.DB.GetContext(context.Background(), &row, `SELECT country, lang FROM applications`); err != nil {
			t.Fatal(err)
		}
		if row.Country != "CN" || row.Lang != "en" {
			t.Errorf("stored %+v, want CN/en", row)
		}
	})
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		tests := []struct {
			name, method, path, lang, body string
			status, code                   int
			message                        string
		}{
			{"malformed JSON", "POST", "/base/v2/applications", "en", `{"name":`, 400, 100001, "The request body is not valid JSON."},
			{"malformed JSON zh-cn", "POST", "/base/v2/applications", "zh-cn", `nope`, 400, 100001, "请求内容不是有效的 JSON。"},
			{"trailing data", "POST", "/base/v2/applications", "en", `{"name":"a"} {}`, 400, 100001, "The request body is not valid JSON."},
			{"empty body", "POST", "/base/v2/applications", "en", ``, 400, 100001, "The request body is not valid JSON."},
			// The answer names the real limit (64 KiB in these tests), not 0.
			{"oversize body", "POST", "/base/v2/applications", "en", `{"remark":"` + strings.Repeat("x", 70<<10) + `"}`, 413, 100002,
				"The request is too large (the limit is 65536 bytes)."},
			{"oversize body zh-cn", "POST", "/base/v2/applications", "zh-cn", `{"remark":"` + strings.Repeat("x", 70<<10) + `"}`, 413, 100002,
				"请求内容过大（上限为 65536 字节）。"},
			{"unknown API path", "GET", "/base/v2/nothing-here", "en", ``, 404, 100004, "Not Found"},
			{"unknown order path", "GET", "/order/v2/x", "zh-tw", ``, 404, 100004, "找不到"},
			{"wrong method", "DELETE", "/base/v2/config/getSiteConfig", "en", ``, 405, 100004, "This method is not allowed for this address."},
			{"default language is zh-cn", "GET", "/shopping/v2/none", "", ``, 404, 100004, "未找到"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				resp, env := call(t, srv, tt.method, tt.path, tt.lang, tt.body)
				if resp.StatusCode != tt.status || env.Code != tt.code {
					t.Fatalf("status %d code %d (%s), want %d %d", resp.StatusCode, env.Code, env.Message, tt.status, tt.code)
				}
				if tt.message != "" && env.Message != tt.message {
					t.Errorf("message %q, want %q", env.Message, tt.message)
				}
				if env.Message == "" {
					t.Error("error without a message")
				}
			})
		}
		wantApplications(t, a, 0, "the bad requests")
	})
}

func TestOpenAPICoversEveryRoute(t *testing.T) {
	t.Parallel()
	a, srv := newApp(t, store.SQLite)
	var doc struct {
		OpenAPI    string                               `json:"openapi"`
		Paths      map[string]map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	raw := servedOpenAPI(t, srv, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	routes := a.Router.Routes()
	if len(routes) == 0 {
		t.Fatal("no routes registered")
	}
	for _, r := range routes {
		op, ok := doc.Paths[r.Path][strings.ToLower(r.Method)]
		if !ok {
			t.Errorf("%s %s is registered but missing from /openapi.json", r.Method, r.Path)
			continue
		}
		if op["summary"] == "" || op["responses"] == nil {
			t.Errorf("%s %s: operation without summary or responses", r.Method, r.Path)
		}
		// The route answers through the mux, not the unknown-path fallback.
		path := strings.NewReplacer("{id}", "1", "{a}", "1", "{b}", "1").Replace(r.Path)
		req, _ := http.NewRequest(r.Method, srv.URL+path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == 404 || res.StatusCode == 405 {
			t.Errorf("%s %s answers %d: registered in the document but not routed", r.Method, r.Path, res.StatusCode)
		}
	}
	// Every $ref points at a schema that exists.
	for _, m := range refPattern.FindAllStringSubmatch(string(raw), -1) {
		if _, ok := doc.Components.Schemas[m[1]]; !ok {
			t.Errorf("dangling $ref to %s", m[1])
		}
	}
}

func TestSecurityHeadersAndCrossOrigin(t *testing.T) {
	t.Parallel()
	_, srv := newApp(t, store.SQLite)
	resp, err := srv.Client().Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "object-src 'none'", "frame-ancestors 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("missing nosniff or request id: %v", resp.Header)
	}

	// A cross-site form post is refused and stores nothing; same-origin passes.
	form := url.Values{"name": {"A"}, "country": {"CN"}, "email": {"a@example.com"}}.Encode()
	req, _ := http.NewRequest("POST", srv.URL+"/applications", strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site post answered %d, want 403", res.StatusCode)
	}
	_, env := call(t, srv, "POST", "/base/v2/applications", "en", `{"name":"A","country":"CN","email":"a@example.com"}`, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if env.Code != 200003 {
		t.Errorf("cross-site API call code %d, want 200003", env.Code)
	}
}

var refPattern = regexp.MustCompile(`"#/components/schemas/([^"]+)"`)
