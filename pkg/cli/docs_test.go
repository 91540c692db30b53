package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReferenceDocsCurrent fails when docs/cli no longer matches the
// commands: regenerate with `go run ./cmd/voyage docs --dir docs/cli`.
func TestReferenceDocsCurrent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if res := execute(t, nil, "docs", "--dir", dir); res.code != 0 {
		t.Fatalf("docs: %+v", res)
	}
	committed := filepath.Join("..", "..", "docs", "cli")
	fresh, _ := os.ReadDir(dir)
	old, err := os.ReadDir(committed)
	if err != nil {
		t.Fatalf("docs/cli missing: %v", err)
	}
	if len(fresh) != len(old) {
		t.Fatalf("docs/cli has %d pages, the commands make %d: regenerate it", len(old), len(fresh))
	}
	for _, f := range fresh {
		want, _ := os.ReadFile(filepath.Join(dir, f.Name()))
		got, err := os.ReadFile(filepath.Join(committed, f.Name()))
		if err != nil || string(got) != string(want) {
			t.Errorf("docs/cli/%s is stale: regenerate with `go run ./cmd/voyage docs --dir docs/cli`", f.Name())
		}
	}
}
