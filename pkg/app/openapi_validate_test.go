package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/voyage/voyage/pkg/store"
)

// The API test suite's answers are checked against the served OpenAPI
// document: newAppOn wraps the test server's client in validatingTransport,
// so every response a test reads through srv.Client() must match the
// document (status, headers, content type and body schema), and every
// request the server accepted (2xx) must be one the document allows. A
// handler and its documentation cannot drift apart unnoticed.

var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
	// specBodies checks JSON bodies against the document's schemas.
	specBodies *bodySchemas
)

// loadSpec fetches /openapi.json from srv once per test binary and loads it
// with kin-openapi (every app serves the same document).
func loadSpec(srv *httptest.Server, base http.RoundTripper) (*openapi3.T, routers.Router, error) {
	specOnce.Do(func() {
		res, err := (&http.Client{Transport: base}).Get(srv.URL + "/openapi.json")
		if err != nil {
			specErr = err
			return
		}
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		if err != nil {
			specErr = err
			return
		}
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(raw)
		if err != nil {
			specErr = fmt.Errorf("load /openapi.json: %w", err)
			return
		}
		if err := doc.Validate(loader.Context); err != nil {
			specErr = fmt.Errorf("/openapi.json is not a valid OpenAPI document: %w", err)
			return
		}
		if out := os.Getenv("VOYAGE_OPENAPI_OUT"); out != "" {
			_ = os.WriteFile(out, raw, 0o644)
		}
		// The document's server is "/": match any host.
		doc.Servers = nil
		r, err := legacy.NewRouter(doc)
		if err != nil {
			specErr = err
			return
		}
		bodies, err := newBodySchemas(raw)
		if err != nil {
			specErr = err
			return
		}
		specDoc, specRouter, specBodies = doc, r, bodies
	})
	return specDoc, specRouter, specErr
}

// apiPath reports a path the document must describe.
func apiPath(p string) bool {
	return strings.HasPrefix(p, "/base/") || strings.HasPrefix(p, "/order/") || strings.HasPrefix(p, "/shopping/")
}

type validatingTransport struct {
	t      testing.TB
	base   http.RoundTripper
	router routers.Router
}

// validate wraps srv's client so every answer is checked against the
// document.
func validate(t testing.TB, srv *httptest.Server) {
	t.Helper()
	c := srv.Client()
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	_, r, err := loadSpec(srv, base)
	if err != nil {
		t.Fatal(err)
	}
	c.Transport = &validatingTransport{t: t, base: base, router: r}
}

func (v *validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !apiPath(req.URL.Path) {
		return v.base.RoundTrip(req)
	}
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req.Body = http.NoBody
		if len(body) > 0 {
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
	}
	res, err := v.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return res, nil
	}
	if msg := v.check(req, body, res, raw); msg != "" {
		v.t.Errorf("OpenAPI: %s %s answered %d, not as documented: %s\nbody: %.600s", req.Method, req.URL.RequestURI(), res.StatusCode, msg, raw)
	} else if captured != nil {
		captured.record(v.router, req, body, res.StatusCode, res.Header, raw)
	}
	return res, nil
}

// check is what is wrong with the exchange by the document, "" if nothing.
func (v *validatingTransport) check(req *http.Request, body []byte, res *http.Response, raw []byte) string {
	return checkExchange(v.router, req, body, res.StatusCode, res.Header, raw)
}

func checkExchange(router routers.Router, req *http.Request, body []byte, status int, header http.Header, raw []byte) string {
	probe := req.Clone(context.Background())
	probe.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := router.FindRoute(probe)
	if err != nil {
		// The unknown-path and wrong-method fallbacks answer 404/405.
		if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
			return ""
		}
		return "no documented operation: " + err.Error()
	}
	if status == http.StatusMethodNotAllowed {
		return ""
	}
	// JSON bodies are checked against schemas compiled once (specBodies):
	// kin-openapi compiles a 3.1 document's schema again on every check,
	// which was a tenth of this package's test time under -race.
	jsonRequest := isJSON(req.Header.Get("Content-Type"))
	opts := &openapi3filter.Options{
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		MultiError:         true,
		ExcludeRequestBody: jsonRequest,
	}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route, Options: opts}
	if status >= 200 && status < 300 {
		// The server accepted it, so the document must allow it.
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			return "the accepted request does not match the document: " + err.Error()
		}
		if rb := route.Operation.RequestBody; jsonRequest && len(body) > 0 && rb != nil && rb.Value.Content.Get("application/json") != nil {
			if msg := specBodies.check(route, "requestBody", body); msg != "" {
				return "the accepted request does not match the document: " + msg
			}
		}
	}
	jsonResponse := isJSON(header.Get("Content-Type"))
	rin := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: status, Header: header,
		Body:    io.NopCloser(bytes.NewReader(raw)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, ExcludeResponseBody: jsonResponse},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), rin); err != nil {
		return err.Error()
	}
	if key := responseKey(route.Operation, status); jsonResponse && key != "" {
		// What kin-openapi checks before the body, which it now skips.
		content := route.Operation.Responses.Value(key).Value.Content
		if len(content) == 0 {
			return ""
		}
		if content.Get(header.Get("Content-Type")) == nil {
			return fmt.Sprintf("response: the content type %q is not documented", header.Get("Content-Type"))
		}
		if mt := content.Get("application/json"); mt != nil && mt.Schema != nil {
			return specBodies.check(route, "responses/"+key, raw)
		}
	}
	return ""
}

// responseKey is the document's key of the response that describes
// status: the code itself, its range (4XX) or default, as OpenAPI picks.
func responseKey(op *openapi3.Operation, status int) string {
	for _, k := range []string{strconv.Itoa(status), strconv.Itoa(status/100) + "XX", "default"} {
		if op.Responses.Value(k) != nil {
			return k
		}
	}
	return ""
}

// bodySchemas compiles, once each, the JSON body schemas of the document
// (a request body or a response under an operation), the document being one
// JSON Schema 2020-12 resource so that its $refs resolve.
type bodySchemas struct {
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

const specURL = "file:///openapi.json"

// pointerEscape writes a path as a JSON pointer's token.
var pointerEscape = strings.NewReplacer("~", "~0", "/", "~1")

func newBodySchemas(raw []byte) (*bodySchemas, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read /openapi.json as JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, err
	}
	return &bodySchemas{compiler: c, compiled: map[string]*jsonschema.Schema{}}, nil
}

// check is what is wrong with body by the JSON schema of the part
// (requestBody, responses/200) of route's operation, "" if nothing.
func (b *bodySchemas) check(route *routers.Route, part string, body []byte) string {
	ptr := "#/paths/" + pointerEscape.Replace(route.Path) + "/" + strings.ToLower(route.Method) + "/" + part + "/content/application~1json/schema"
	b.mu.Lock()
	sch, ok := b.compiled[ptr]
	if !ok {
		var err error
		if sch, err = b.compiler.Compile(specURL + ptr); err != nil {
			b.mu.Unlock()
			return "the document's schema " + ptr + " does not compile: " + err.Error()
		}
		b.compiled[ptr] = sch
	}
	b.mu.Unlock()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return "the body is not JSON: " + err.Error()
	}
	if err := sch.Validate(v); err != nil {
		return "body: " + err.Error()
	}
	return ""
}

// TestOpenAPIValidationCatchesDrift proves the check bites: a wallet answer
// that lost a documented field, one with a wrong type, an undocumented status
// and an accepted request the document forbids are each reported, while the
// real answer passes.
func TestOpenAPIValidationCatchesDrift(t *testing.T) {
	t.Parallel()
	_, srv := newSeededApp(t, store.SQLite)
	me := loginAs(t, srv, "demo-super", "demo-pass-1")
	base := srv.Client().Transport.(*validatingTransport).base
	_, router, err := loadSpec(srv, base)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (*http.Request, *http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+me.Token)
		res, err := (&http.Client{Transport: base}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return req, res, raw
	}
	req, res, raw := get("/base/v2/wallet")
	if msg := checkExchange(router, req, nil, res.StatusCode, res.Header, raw); msg != "" {
		t.Fatalf("the real wallet answer fails the document: %s", msg)
	}
	var env map[string]any
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	data := env["data"].(map[string]any)
	drifts := map[string]func() (int, []byte){
		"a documented field missing": func() (int, []byte) {
			d := maps.Clone(data)
			delete(d, "balance")
			b, _ := json.Marshal(map[string]any{"code": 0, "data": d, "message": ""})
			return 200, b
		},
		"money as a number": func() (int, []byte) {
			d := maps.Clone(data)
			d["balance"] = 12.5
			b, _ := json.Marshal(map[string]any{"code": 0, "data": d, "message": ""})
			return 200, b
		},
		"an undocumented status": func() (int, []byte) { return 418, raw },
		"an error without the envelope": func() (int, []byte) {
			return 404, []byte(`{"error":"not found"}`)
		},
	}
	for name, drift := range drifts {
		status, body := drift()
		if msg := checkExchange(router, req, nil, status, res.Header, body); msg == "" {
			t.Errorf("%s: the validator let it pass", name)
		}
	}
	// A body the server accepted but the document forbids: a login whose
	// username is a number, checked with the real login's answer.
	login := func(body string) *http.Request {
		req, _ := http.NewRequest("POST", srv.URL+"/base/v2/login", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return req
	}
	good := `{"username":"demo-super","password":"demo-pass-1"}`
	lres, err := (&http.Client{Transport: base}).Do(login(good))
	if err != nil {
		t.Fatal(err)
	}
	lraw, _ := io.ReadAll(lres.Body)
	lres.Body.Close()
	if msg := checkExchange(router, login(good), []byte(good), lres.StatusCode, lres.Header, lraw); msg != "" {
		t.Fatalf("the real login fails the document: %s", msg)
	}
	bad := `{"username":5,"password":"demo-pass-1"}`
	if msg := checkExchange(router, login(bad), []byte(bad), lres.StatusCode, lres.Header, lraw); !strings.Contains(msg, "request") {
		t.Errorf("an accepted login body outside the document: %q, want the request reported", msg)
	}
	// A request the server accepted but the document forbids: an order
	// list with an undocumented status value.
	lreq, lres, lraw := get("/order/v2/flight/orders?status=no_such_status")
	if lres.StatusCode == 200 {
		if msg := checkExchange(router, lreq, nil, lres.StatusCode, lres.Header, lraw); msg == "" {
			t.Errorf("an accepted request outside the document passed")
		}
	}
}
