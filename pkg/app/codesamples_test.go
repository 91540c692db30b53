package app_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/store"
)

// TestCodeSamplesCompile builds every operation's Go sample, as the
// reference shows it, against the committed pkg/apiclient; curl and
// TypeScript samples are there too (the TypeScript ones are type-checked
// by e2e/api_client_ts.test.mjs).
func TestCodeSamplesCompile(t *testing.T) {
	t.Parallel()
	_, srv := newApp(t, store.SQLite)
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Samples     []struct {
				Lang, Label, Source string
			} `json:"x-codeSamples"`
		} `json:"paths"`
	}
	servedOpenAPI(t, srv, &doc)
	var src strings.Builder
	src.WriteString("package samples\n\nimport (\n\t\"bytes\"\n\t\"context\"\n\t\"fmt\"\n\t\"mime/multipart\"\n\t\"os\"\n\t\"strings\"\n\n\t\"github.com/voyage/voyage/pkg/apiclient\"\n)\n\n")
	src.WriteString("var _, _, _, _ = bytes.NewReader, multipart.NewWriter, os.ReadFile, strings.NewReader\n\n")
	var ids []string
	samples := map[string]string{}
	for path, item := range doc.Paths {
		for method, op := range item {
			labels := []string{}
			for _, s := range op.Samples {
				labels = append(labels, s.Label)
				if s.Lang == "Go" {
					samples[op.OperationID] = s.Source
				}
			}
			if strings.Join(labels, ",") != "curl,Go,TypeScript" {
				t.Errorf("%s %s: samples %v, want curl, Go and TypeScript", method, path, labels)
			}
			ids = append(ids, op.OperationID)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		body := strings.ReplaceAll(samples[id], "\n", "\n\t")
		fmt.Fprintf(&src, "func %s(ctx context.Context, c *apiclient.ClientWithResponses) error {\n\t%s\n\treturn nil\n}\n\n", "sample_"+id, body)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "samples.go")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgDir, err := filepath.Abs("../apiclient/samples")
	if err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(pkgDir, "samples.go"): file}})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", os.DevNull, "../apiclient/samples")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the Go code samples do not build (%d operations): %v\n%s", len(ids), err, msg)
	}
}
