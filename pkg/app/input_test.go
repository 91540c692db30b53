package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

const controlMsg = "This field contains characters that are not allowed (control characters such as NUL)."

// fieldsOf is the field errors of a 100001 envelope.
func fieldsOf(t *testing.T, env envelope) map[string]string {
	t.Helper()
	var vd struct{ Fields map[string]string }
	if err := json.Unmarshal(env.Data, &vd); err != nil {
		t.Fatalf("no field errors in %s", env.Data)
	}
	return vd.Fields
}

// TestControlCharactersRefused: a NUL (or another control character) in any
// text answered 500 on PostgreSQL and was stored raw on SQLite. Now every
// edge refuses it with a 400 naming the field, and nothing is stored: JSON
// bodies, query strings, the address itself, portal forms and the anonymous
// partnership form, through the API and the portal.
func TestControlCharactersRefused(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()

		// The anonymous partnership form through the API: a NUL, a bell,
		// an escape deep in a field; each named, in the request's language.
		for _, tt := range []struct{ body, lang, field, msg string }{
			{`{"name":"Li\u0000","country":"CN","phone":"12345678"}`, "en", "name", controlMsg},
			{`{"name":"Li","country":"CN","phone":"12345678","remark":"ring\u0007"}`, "zh-cn", "remark", "此项包含不允许的字符（如 NUL 等控制字符）。"},
			{`{"name":"Li","country":"CN","phone":"12345678","companyAddress":"\u001b[31m"}`, "zh-tw", "companyAddress", "此欄位包含不允許的字元（如 NUL 等控制字元）。"},
			// After Chinese text, as much as before it: the check once
			// stopped at the first non-ASCII character (a 500 on
			// PostgreSQL, stored raw on SQLite).
			{`{"name":"中\u0000文","country":"CN","phone":"12345678"}`, "zh-cn", "name", "此项包含不允许的字符（如 NUL 等控制字符）。"},
			{`{"name":"Li","country":"CN","phone":"12345678","companyName":"北京\u0085旅行社"}`, "en", "companyName", controlMsg},
		} {
			resp, env := call(t, srv, "POST", "/base/v2/applications", tt.lang, tt.body)
			if resp.StatusCode != 400 || env.Code != 100001 || fieldsOf(t, env)[tt.field] != tt.msg {
				t.Errorf("%s: status %d code %d fields %s", tt.body, resp.StatusCode, env.Code, env.Data)
			}
		}
		// Multi-line text keeps its line breaks and tabs.
		resp, env := call(t, srv, "POST", "/base/v2/applications", "en",
			`{"name":"Li","country":"CN","phone":"12345678","remark":"line one\r\nline two\ttabbed"}`)
		if resp.StatusCode != 201 {
			t.Fatalf("a multi-line remark: status %d %s %s", resp.StatusCode, env.Message, env.Data)
		}

		// The same form in the portal, without JavaScript and under htmx.
		c := browser(t)
		res, body := postForm(t, c, srv.URL+"/applications", url.Values{"name": {"Li"}, "country": {"CN"},
			"phone": {"12345678"}, "companyName": {"Blue\x00Sea"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, controlMsg) || !strings.Contains(body, "BlueSea") {
			t.Errorf("portal partnership form: status %d, message shown %v", res.StatusCode, strings.Contains(body, controlMsg))
		}
		res, body = postForm(t, c, srv.URL+"/applications", url.Values{"name": {"Li\x01"}, "country": {"CN"}, "phone": {"12345678"}},
			"Accept-Language", "en", "HX-Request", "true")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, controlMsg) {
			t.Errorf("htmx partnership form: status %d, message shown %v", res.StatusCode, strings.Contains(body, controlMsg))
		}
		res, body = postForm(t, c, srv.URL+"/applications", url.Values{"name": {"李\x00四"}, "country": {"CN"}, "phone": {"12345678"}},
			"Accept-Language", "en", "HX-Request", "true")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, controlMsg) {
			t.Errorf("htmx partnership form: status %d, message shown %v", res.StatusCode, strings.Contains(body, controlMsg))
		}
		wantApplications(t, a, 1, "the forms with control characters (only the multi-line remark is kept)")

		// A logged-in JSON update: refused, the profile unchanged.
		me := loginAs(t, srv, "demo-operator", "demo-pass-1")
		resp, env = call(t, srv, "PUT", "/base/v2/me", "en", `{"nickname":"Op\u0000erator","mobile":"13800000000"}`, bearer(me.Token)...)
		if resp.StatusCode != 400 || fieldsOf(t, env)["nickname"] != controlMsg {
			t.Errorf("PUT /me: status %d %s", resp.StatusCode, env.Data)
		}
		var nickname string
		if err := a.DB.GetContext(ctx, &nickname, a.DB.Rebind(`SELECT nickname FROM users WHERE id = ?`), me.UserInfo.ID); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsRune(nickname, 0) {
			t.Errorf("a NUL was stored: %q", nickname)
		}

		// Query strings and the address itself.
		super := loginAs(t, srv, "demo-super", "demo-pass-1")
		for path, field := range map[string]string{
			"/base/v2/agencies?keyword=a%00b":        "keyword",
			"/order/v2/flight/orders?keyword=%1b":    "keyword",
			"/base/v2/users?page=1&keyword=%FF%FE":   "keyword", // not UTF-8
			"/base/v2/agencies/1%00":                 "path",
			"/base/v2/agencies?keyword=%E4%B8%AD%00": "keyword", // 中 then NUL
		} {
			resp, env := call(t, srv, "GET", path, "en", "", bearer(super.Token)...)
			if resp.StatusCode != 400 || fieldsOf(t, env)[field] != controlMsg {
				t.Errorf("GET %s: status %d code %d %s", path, resp.StatusCode, env.Code, env.Data)
			}
		}

		// A portal form of a logged-in page, and the login form: a 400 page
		// that names the field.
		res, body = postForm(t, browser(t), srv.URL+"/login", url.Values{"username": {"demo\x00super"}, "password": {"x"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "“username”") {
			t.Errorf("portal login: status %d\n%s", res.StatusCode, body)
		}
	})
}

// TestPageNumbersBounded: a page number past 2^62 answered 500 on about 25
// list endpoints on PostgreSQL (its offset overflowed). The rule, for every
// list the API documents with a page parameter (read from the served
// OpenAPI document, not from a list kept here), and for the portal's lists:
// pages go up to input.MaxPage; past it, a 400 naming "page" in the
// caller's language, on both engines. The last page there can be is still
// answered (empty).
func TestPageNumbersBounded(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		var doc struct {
			Paths map[string]map[string]struct {
				Parameters []struct {
					Name string `json:"name"`
					In   string `json:"in"`
				} `json:"parameters"`
			} `json:"paths"`
		}
		servedOpenAPI(t, srv, &doc)
		super := loginAs(t, srv, "demo-super", "demo-pass-1")
		lists := 0
		for path, ops := range doc.Paths {
			op, ok := ops["get"]
			if !ok || !slices.ContainsFunc(op.Parameters, func(p struct {
				Name string `json:"name"`
				In   string `json:"in"`
			}) bool {
				return p.Name == "page" && p.In == "query"
			}) {
				continue
			}
			lists++
			target := concretePath(path)
			for _, tt := range []struct{ page, lang, msg string }{
				{"4611686018427387905", "en", "Pages are numbered from 1 to 10,000."},
				{"10001", "zh-cn", "页码须在 1 到 10,000 之间。"},
				{"99999999999999999999999", "zh-tw", "頁碼須介於 1 到 10,000 之間。"},
			} {
				resp, env := call(t, srv, "GET", target+"?page="+tt.page+"&pageSize=100", tt.lang, "", bearer(super.Token)...)
				if resp.StatusCode != 400 || env.Code != 100001 || fieldsOf(t, env)["page"] != tt.msg {
					t.Errorf("GET %s?page=%s: status %d code %d %s", target, tt.page, resp.StatusCode, env.Code, env.Data)
				}
			}
			if resp, env := call(t, srv, "GET", target+"?page=10000&pageSize=100", "en", "", bearer(super.Token)...); resp.StatusCode >= 500 {
				t.Errorf("GET %s?page=10000: status %d %s", target, resp.StatusCode, env.Message)
			}
		}
		if lists < 15 {
			t.Errorf("the document names %d lists with a page parameter; expected the API's eighteen", lists)
		}
		// The portal's lists answer the same rule with a page of their own
		// (the check runs before the login's: nothing is computed with it).
		c := browser(t)
		for _, path := range []string{"/flight/orders", "/train/orders", "/flight/group/order", "/bills/wallet", "/users"} {
			resp, body := get(t, c, srv.URL+path+"?page=4611686018427387905", "Accept-Language", "en")
			if resp.StatusCode != 400 || !strings.Contains(body, "Pages are numbered from 1 to 10,000.") {
				t.Errorf("portal %s past the last page: status %d", path, resp.StatusCode)
			}
		}
	})
}

// TestUnknownFieldsRefused: a write ignored what it did not understand (a
// refund's "passengerIds", misspelt, refunded every passenger). The rule,
// for every write the served OpenAPI document gives a JSON body (read from
// the document, not from a list kept here): a property the request does
// not have is a 400 naming it, in the caller's language, before anything
// is looked up or changed; on both engines.
func TestUnknownFieldsRefused(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		super := loginAs(t, srv, "provider-admin", "provider-pass-1")
		langs := []struct{ lang, msg string }{
			{"en", "This field is not part of this request: check its name against the API reference."},
			{"zh-cn", "此请求没有这个字段：请对照 API 文档核对字段名。"},
			{"zh-tw", "此請求沒有這個欄位：請對照 API 文件核對欄位名稱。"},
		}
		writes := 0
		for _, w := range jsonWrites(t, srv) {
			if w.schema.Type != "object" || len(w.schema.Properties) == 0 {
				// Not a JSON object of named properties (a bare value such
				// as a personal setting's).
				continue
			}
			writes++
			l := langs[writes%len(langs)]
			resp, env := call(t, srv, w.method, w.path, l.lang, `{"zzNotAField":1}`,
				append(bearer(super.Token), "Idempotency-Key", "unknown-field-"+strconv.Itoa(writes))...)
			if resp.StatusCode != 400 || env.Code != 100001 || fieldsOf(t, env)["zzNotAField"] != l.msg {
				t.Errorf("%s %s: status %d code %d %s %s", w.method, w.path, resp.StatusCode, env.Code, env.Message, env.Data)
			}
		}
		if writes < 40 {
			t.Errorf("the document names %d writes with a JSON body; expected about fifty", writes)
		}
	})
}

// TestWrongTypesRefused: for every write the served document gives a JSON
// object body, a property sent with a value of another JSON type (a number
// for text, text for anything else) is a 400 naming that property, in the
// caller's language, where it was once "not valid JSON" with no field; on
// both engines. The property is each body's first by name, read from the
// document, not from a list kept here.
func TestWrongTypesRefused(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		super := loginAs(t, srv, "provider-admin", "provider-pass-1")
		// A value whose type decodes itself (a time) answers that it is not
		// written as the reference gives it; any other, its wrong type.
		langs := []struct{ lang, msg, format string }{
			{"en", "This field has the wrong type (text, number, list or object): check it against the API reference.",
				"This value is not written as the API reference gives it (a date and time with its time zone, for one)."},
			{"zh-cn", "此字段的类型不对（文本、数字、列表或对象）：请对照 API 文档核对。", "此项的写法与 API 文档不符（例如日期时间须带时区）。"},
			{"zh-tw", "此欄位的型別不對（文字、數字、清單或物件）：請對照 API 文件核對。", "此欄位的寫法與 API 文件不符（例如日期時間須含時區）。"},
		}
		writes := 0
		for _, w := range jsonWrites(t, srv) {
			if w.schema.Type != "object" || len(w.schema.Properties) == 0 {
				continue
			}
			name := slices.Sorted(maps.Keys(w.schema.Properties))[0]
			var prop struct {
				Type   any    `json:"type"`
				Format string `json:"format"`
			}
			if err := json.Unmarshal(w.schema.Properties[name], &prop); err != nil {
				t.Fatal(err)
			}
			value := `"x"`
			if types := fmt.Sprint(prop.Type); strings.Contains(types, "string") {
				value = `5`
			}
			writes++
			l := langs[writes%len(langs)]
			want := l.msg
			if prop.Format == "date-time" {
				want = l.format
			}
			resp, env := call(t, srv, w.method, w.path, l.lang, `{"`+name+`":`+value+`}`,
				append(bearer(super.Token), "Idempotency-Key", "wrong-type-"+strconv.Itoa(writes))...)
			if resp.StatusCode != 400 || env.Code != 100001 || fieldsOf(t, env)[name] != want {
				t.Errorf("%s %s {%q: %s}: status %d code %d %s %s", w.method, w.path, name, value, resp.StatusCode, env.Code, env.Message, env.Data)
			}
		}
		if writes < 40 {
			t.Errorf("the document names %d writes with a JSON body; expected about fifty", writes)
		}
	})
}

// jsonWrite is a route of the served document with a JSON request body,
// and that body's schema (a $ref followed).
type jsonWrite struct {
	method, path string
	schema       bodySchema
}

type bodySchema struct {
	Ref        string                     `json:"$ref"`
	Type       string                     `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// concretePath is a path of the document with each of its parameters 1.
func concretePath(path string) string { return pathParam.ReplaceAllString(path, "1") }

// jsonWrites reads the served OpenAPI document's routes with a JSON body,
// in a stable order, their paths' parameters set to 1.
func jsonWrites(t *testing.T, srv *httptest.Server) []jsonWrite {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody *struct {
				Content map[string]struct {
					Schema bodySchema `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]bodySchema `json:"schemas"`
		} `json:"components"`
	}
	servedOpenAPI(t, srv, &doc)
	var out []jsonWrite
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if op.RequestBody == nil {
				continue
			}
			body, ok := op.RequestBody.Content["application/json"]
			if !ok {
				continue
			}
			sc := body.Schema
			if ref, isRef := strings.CutPrefix(sc.Ref, "#/components/schemas/"); isRef {
				sc = doc.Components.Schemas[ref]
			}
			out = append(out, jsonWrite{method: strings.ToUpper(method), path: concretePath(path), schema: sc})
		}
	}
	slices.SortFunc(out, func(a, b jsonWrite) int { return strings.Compare(a.method+a.path, b.method+b.path) })
	return out
}

// TestRequiredFieldsRefused: what the document marks required, the server
// requires: every write whose JSON body has required properties answers
// an empty object with a 400 naming one of them, in the caller's language,
// before anything is looked up (the rule, over the served document, not a
// list of routes). A PUT of an agency's settings that leaves a part out
// changes nothing: {"train": ...} alone once switched the agency's
// flights, bills and sub-agencies off.
func TestRequiredFieldsRefused(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		super := loginAs(t, srv, "provider-admin", "provider-pass-1")
		langs := []struct{ lang, msg string }{
			{"en", "This field is required."},
			{"zh-cn", "此项为必填项。"},
			{"zh-tw", "此欄位為必填。"},
		}
		writes := 0
		for _, w := range jsonWrites(t, srv) {
			if len(w.schema.Required) == 0 {
				continue
			}
			writes++
			l := langs[writes%len(langs)]
			resp, env := call(t, srv, w.method, w.path, l.lang, `{}`,
				append(bearer(super.Token), "Idempotency-Key", "required-field-"+strconv.Itoa(writes))...)
			named := ""
			if resp.StatusCode == 400 {
				for f, msg := range fieldsOf(t, env) {
					if msg == l.msg && slices.Contains(w.schema.Required, f) {
						named = f
					}
				}
			}
			if named == "" {
				t.Errorf("%s %s with {}: status %d code %d %s %s, want 400 naming one of %v", w.method, w.path,
					resp.StatusCode, env.Code, env.Message, env.Data, w.schema.Required)
			}
		}
		if writes < 9 {
			t.Errorf("the document marks required properties on %d writes; expected at least 9", writes)
		}

		// A part left out of a PUT: refused, the agency as it was.
		demo := loginAs(t, srv, "demo-super", "demo-pass-1")
		kid := fmt.Sprint(createSub(t, srv, demo.Token, "required-admin", true))
		_, before := call(t, srv, "GET", "/base/v2/agencies/"+kid, "en", "", bearer(demo.Token)...)
		for body, field := range map[string]string{
			`{"train":{"manual":true}}`: "settings",
			`{"settings":{"enableFlightService":true,"enableTrainService":true,"isShowBill":true,"canCreateSubAgency":true},"train":{"manual":true}}`: "flight",
			`{"settings":{"enableFlightService":true,"isShowBill":true,"canCreateSubAgency":true},"flight":{},"train":{}}`:                            "settings.enableTrainService",
		} {
			resp, env := call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/config", "en", body, bearer(demo.Token)...)
			if resp.StatusCode != 400 || fieldsOf(t, env)[field] != "This field is required." {
				t.Errorf("PUT config %s: %d %s, want 400 naming %s", body, resp.StatusCode, env.Data, field)
			}
		}
		if _, after := call(t, srv, "GET", "/base/v2/agencies/"+kid, "en", "", bearer(demo.Token)...); string(after.Data) != string(before.Data) {
			t.Errorf("refused PUTs changed the agency:\n%s\n%s", before.Data, after.Data)
		}
	})
}

// One Idempotency-Key length for every route that takes a key, the one the
// document states (90): a longer key is refused at the edge with a 400
// naming the header in the caller's language before anything is read or
// changed, a route that requires a key refuses a request without one, and
// a key of exactly 90 characters books (a 95-character key was refused by
// some routes and taken by others, whose error said 100).
func TestIdempotencyKeyLength(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		var doc struct {
			Paths map[string]map[string]struct {
				Parameters []struct {
					Ref string `json:"$ref"`
				} `json:"parameters"`
			} `json:"paths"`
			Components struct {
				Parameters map[string]struct {
					Schema struct {
						MaxLength int `json:"maxLength"`
					} `json:"schema"`
				} `json:"parameters"`
			} `json:"components"`
		}
		servedOpenAPI(t, srv, &doc)
		for _, name := range []string{"IdempotencyKey", "IdempotencyKeyRequired"} {
			if n := doc.Components.Parameters[name].Schema.MaxLength; n != 90 {
				t.Errorf("%s: maxLength %d, want 90", name, n)
			}
		}
		super := loginAs(t, srv, "provider-admin", "provider-pass-1")
		long := strings.Repeat("k", 91)
		msgs := map[string][2]string{
			"en":    {"An Idempotency-Key has at most 90 characters.", "This request needs an Idempotency-Key header (at most 90 characters): a retry with the same key answers the first result."},
			"zh-cn": {"Idempotency-Key 最多 90 个字符。", "此请求需要 Idempotency-Key 请求头（最多 90 个字符）：以同一键重试将返回首次结果。"},
		}
		routes, required := 0, 0
		for path, ops := range doc.Paths {
			for method, op := range ops {
				kind := ""
				for _, p := range op.Parameters {
					if name, ok := strings.CutPrefix(p.Ref, "#/components/parameters/"); ok && strings.HasPrefix(name, "IdempotencyKey") {
						kind = name
					}
				}
				if kind == "" {
					continue
				}
				routes++
				lang := []string{"en", "zh-cn"}[routes%2]
				target := concretePath(path)
				resp, env := call(t, srv, strings.ToUpper(method), target, lang, `{}`, append(bearer(super.Token), "Idempotency-Key", long)...)
				if resp.StatusCode != 400 || env.Code != 100001 || fieldsOf(t, env)["Idempotency-Key"] != msgs[lang][0] {
					t.Errorf("%s %s with a 91-character key: %d %d %s", strings.ToUpper(method), target, resp.StatusCode, env.Code, env.Data)
				}
				if kind == "IdempotencyKeyRequired" {
					required++
					resp, env = call(t, srv, strings.ToUpper(method), target, lang, `{}`, bearer(super.Token)...)
					if resp.StatusCode != 400 || fieldsOf(t, env)["Idempotency-Key"] != msgs[lang][1] {
						t.Errorf("%s %s without a key: %d %d %s", strings.ToUpper(method), target, resp.StatusCode, env.Code, env.Data)
					}
				}
			}
		}
		if routes < 10 || required < 3 {
			t.Fatalf("%d routes take a key, %d require one: the document lost its Idempotency-Key parameters", routes, required)
		}
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		quoteID, _ := quoteFor(t, srv, op.Token)
		if o := createOrder(t, srv, op.Token, quoteID, strings.Repeat("q", 90)); o.ID == 0 {
			t.Fatal("a 90-character key booked nothing")
		}
	})
}
