package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// staticFS holds the portal's static files and, under dist/, the islands
// bundle that Vite builds (make builds it before go build).
//
//go:embed all:static
var staticFS embed.FS

// islandsEntry is the Vite input whose output every page loads.
const islandsEntry = "islands/main.tsx"

// Assets are the script and style URLs of the islands bundle.
type Assets struct {
	Scripts []string
	Styles  []string
}

type manifestEntry struct {
	File    string   `json:"file"`
	CSS     []string `json:"css"`
	Imports []string `json:"imports"`
}

// LoadAssets reads Vite's manifest. Without a built bundle the portal still
// works, as every page does without JavaScript, so a missing manifest is
// reported as ErrNoBundle for the caller to log.
func LoadAssets(fsys fs.FS) (Assets, error) {
	b, err := fs.ReadFile(fsys, "static/dist/manifest.json")
	if errors.Is(err, fs.ErrNotExist) {
		return Assets{}, ErrNoBundle
	}
	if err != nil {
		return Assets{}, fmt.Errorf("web: read islands manifest: %w", err)
	}
	var m map[string]manifestEntry
	if err := json.Unmarshal(b, &m); err != nil {
		return Assets{}, fmt.Errorf("web: parse islands manifest: %w", err)
	}
	entry, ok := m[islandsEntry]
	if !ok || entry.File == "" {
		return Assets{}, fmt.Errorf("web: islands manifest has no entry %s", islandsEntry)
	}
	a := Assets{Scripts: []string{"/static/dist/" + entry.File}}
	seen := map[string]bool{}
	var addCSS func(e manifestEntry)
	addCSS = func(e manifestEntry) {
		for _, c := range e.CSS {
			if !seen[c] {
				seen[c] = true
				a.Styles = append(a.Styles, "/static/dist/"+c)
			}
		}
		for _, imp := range e.Imports {
			addCSS(m[imp])
		}
	}
	addCSS(entry)
	return a, nil
}

// ErrNoBundle means the islands have not been built.
var ErrNoBundle = errors.New("web: islands bundle not built (run make build); pages will render without islands")
