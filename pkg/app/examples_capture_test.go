package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/routers"

	"github.com/voyage/voyage/pkg/api"
)

// The document's examples are exchanges the test suite had with a real
// server: `VOYAGE_CAPTURE_EXAMPLES=1 go test ./pkg/app` keeps, for each
// operation, the richest accepted JSON exchange the tests' clients made
// (English preferred, lists cut to two items) and writes them to
// pkg/api/examples.json, which the document embeds. Every test run then
// loads the document with kin-openapi, which checks each example against
// its schema: an example the API has outgrown fails every test until it is
// captured again.

const examplesFile = "../api/examples.json"

// captured records exchanges when capturing, else it is nil.
var captured *exampleRecorder

func TestMain(m *testing.M) {
	if os.Getenv("VOYAGE_CAPTURE_EXAMPLES") != "" {
		captured = &exampleRecorder{best: map[string]capturedExample{}}
	}
	code := m.Run()
	if captured != nil {
		if err := captured.write(examplesFile); err != nil {
			fmt.Fprintln(os.Stderr, "capture examples:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// capturedExample is an operation's example and how full it is.
type capturedExample struct {
	api.Captured
	score int
}

type exampleRecorder struct {
	mu   sync.Mutex
	best map[string]capturedExample
}

func (e *exampleRecorder) record(router routers.Router, req *http.Request, body []byte, status int, header http.Header, raw []byte) {
	if status < 200 || status > 299 || !isJSON(header.Get("Content-Type")) {
		return
	}
	// An upload's answer is kept; its request (a file) is not.
	upload := len(body) > 0 && !isJSON(req.Header.Get("Content-Type"))
	probe := req.Clone(context.Background())
	probe.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := router.FindRoute(probe)
	if err != nil {
		return
	}
	ex := capturedExample{Captured: api.Captured{Path: params, Status: status}}
	q := req.URL.Query()
	lang := q.Get("lang")
	q.Del("lang")
	ex.Query = q.Encode()
	if len(body) > 0 && !upload {
		if ex.Request = shortened(body); ex.Request == nil {
			return
		}
	}
	if ex.Response = shortened(raw); ex.Response == nil {
		return
	}
	ex.score = richness(ex.Response) + richness(ex.Request)
	if lang == "" {
		lang = req.Header.Get("Accept-Language")
	}
	if lang == "" || strings.HasPrefix(lang, "en") {
		ex.score += 1 << 20 // English first: the reference is in English
	}
	key := route.Method + " " + route.Path
	e.mu.Lock()
	defer e.mu.Unlock()
	if old, ok := e.best[key]; !ok || ex.score > old.score {
		e.best[key] = ex
	}
}

func (e *exampleRecorder) write(file string) error {
	out := map[string]api.Captured{}
	for k, ex := range e.best {
		out[k] = ex.Captured
	}
	raw, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(raw, '\n'), 0o644)
}

func isJSON(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "application/json"
}

// shortened is the JSON with every list cut to its first two items, nil if
// it is not JSON.
func shortened(raw []byte) json.RawMessage {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil
	}
	var cut func(any) any
	cut = func(v any) any {
		switch v := v.(type) {
		case []any:
			if len(v) > 2 {
				v = v[:2]
			}
			for i := range v {
				v[i] = cut(v[i])
			}
			return v
		case map[string]any:
			for k, c := range v {
				v[k] = cut(c)
			}
		}
		return v
	}
	out, err := json.Marshal(cut(v))
	if err != nil {
		return nil
	}
	return out
}

// richness counts the example's filled values: the fuller of two answers
// shows more of the schema.
func richness(raw json.RawMessage) int {
	if len(raw) == 0 {
		return 0
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	n := 0
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, c := range v {
				walk(c)
			}
		case map[string]any:
			for _, c := range v {
				walk(c)
			}
		case string:
			if v != "" {
				n++
			}
		case float64:
			if v != 0 {
				n++
			}
		case bool:
			if v {
				n++
			}
		}
	}
	walk(v)
	return n
}

// TestCapturedExamplesCoverTheAPI: the reference shows a real exchange for
// most operations (the rest keep an example built from their schema).
func TestCapturedExamplesCoverTheAPI(t *testing.T) {
	raw, err := os.ReadFile(examplesFile)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]api.Captured
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) < capturedAtLeast {
		t.Errorf("%d operations have a captured example, want at least %d", len(got), capturedAtLeast)
	}
}

// capturedAtLeast is how many operations had a captured example when they
// were last captured: fewer means an operation lost its tests' calls.
const capturedAtLeast = 107
