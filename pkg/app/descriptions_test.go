package app_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/store"
)

// TestDocumentDescriptions keeps pkg/api/descriptions.json, the doc comments
// the served document gives its schemas and properties, equal to the
// source's (VOYAGE_UPDATE_DOCS=1 rewrites it).
func TestDocumentDescriptions(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t, store.SQLite)
	want := map[string]string{}
	comments, err := sourceComments("../..", "github.com/voyage/voyage")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range a.Router.DescriptionKeys() {
		if c, ok := comments[k]; ok {
			want[k] = c
		}
	}
	const file = "../api/descriptions.json"
	if os.Getenv("VOYAGE_UPDATE_DOCS") != "" {
		raw, err := json.MarshalIndent(want, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, append(raw, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var got map[string]string
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	var stale []string
	for k, c := range want {
		if got[k] != c {
			stale = append(stale, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			stale = append(stale, k)
		}
	}
	slices.Sort(stale)
	if len(stale) > 0 {
		t.Errorf("pkg/api/descriptions.json is not the source's comments for %d keys (first: %s): run VOYAGE_UPDATE_DOCS=1 go test ./pkg/app -run TestDocumentDescriptions",
			len(stale), stale[0])
	}
}

var spaces = regexp.MustCompile(`[ \t]*\n[ \t]*`)

// sourceComments reads the doc comments of the exported types (their first
// sentence) and struct fields (whole) of the module's non-test Go files
// under root/pkg, keyed as api.DescriptionKey keys them.
func sourceComments(root, module string) (map[string]string, error) {
	out := map[string]string{}
	defined := map[string]string{}
	var pkgDoc doc.Package
	text := func(g *ast.CommentGroup) string {
		s := strings.TrimSpace(g.Text())
		paras := strings.Split(s, "\n\n")
		for i, p := range paras {
			paras[i] = spaces.ReplaceAllString(p, " ")
		}
		return strings.Join(paras, "\n\n")
	}
	err := filepath.WalkDir(filepath.Join(root, "pkg"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := module + "/" + filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				ts := spec.(*ast.TypeSpec)
				// A type defined as another of the package (CardPage is
				// Page[Card]) has that type's fields and their comments.
				if base := baseType(ts.Type); base != "" {
					defined[pkg+"."+ts.Name.Name] = pkg + "." + base
				}
				c := ts.Doc
				if c == nil && len(g.Specs) == 1 {
					c = g.Doc
				}
				if c != nil {
					out[pkg+"."+ts.Name.Name] = pkgDoc.Synopsis(c.Text())
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fld := range st.Fields.List {
					c := fld.Doc
					if c == nil {
						c = fld.Comment
					}
					if c == nil {
						continue
					}
					for _, n := range fld.Names {
						if n.IsExported() {
							out[pkg+"."+ts.Name.Name+"."+n.Name] = text(c)
						}
					}
				}
			}
		}
		return nil
	})
	for name, base := range defined {
		for k, c := range out {
			if field, ok := strings.CutPrefix(k, base+"."); ok && !strings.Contains(field, ".") {
				if _, own := out[name+"."+field]; !own {
					out[name+"."+field] = c
				}
			}
		}
	}
	return out, err
}

// baseType is the name of the package's type that expr names (Page in
// Page[Card]), "" if it is not one.
func baseType(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return baseType(e.X)
	case *ast.IndexListExpr:
		return baseType(e.X)
	}
	return ""
}

// undescribedAllowed is how many properties may still go without a
// description: it only falls, to none.
const undescribedAllowed = 0

// TestEveryPropertyDescribed: an integrator reads what each property of
// every request and answer, and each parameter, means, in the document
// itself.
func TestEveryPropertyDescribed(t *testing.T) {
	t.Parallel()
	a, srv := newApp(t, store.SQLite)
	var doc map[string]any
	raw := servedOpenAPI(t, srv, &doc)
	var bare []string
	var walk func(where string, v any)
	walk = func(where string, v any) {
		switch v := v.(type) {
		case map[string]any:
			// A parameter (path, query or header) is described too.
			if in, ok := v["in"].(string); ok && v["name"] != nil {
				if d, _ := v["description"].(string); strings.TrimSpace(d) == "" {
					bare = append(bare, where+" "+in+" parameter "+fmt.Sprint(v["name"]))
				}
			}
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					if d, _ := p.(map[string]any)["description"].(string); strings.TrimSpace(d) == "" {
						bare = append(bare, where+"."+name)
					}
				}
			}
			for k, c := range v {
				walk(where+"/"+k, c)
			}
		case []any:
			for _, c := range v {
				walk(where, c)
			}
		}
	}
	walk("", doc)
	slices.Sort(bare)
	bare = slices.Compact(bare)
	var fields []string
	for _, k := range a.Router.DescriptionKeys() {
		if strings.Count(k[strings.LastIndexByte(k, '/')+1:], ".") == 2 {
			fields = append(fields, k)
		}
	}
	raw, _ = os.ReadFile("../api/descriptions.json")
	var have map[string]string
	_ = json.Unmarshal(raw, &have)
	var missing []string
	for _, k := range fields {
		if have[k] == "" {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	if len(bare) > undescribedAllowed {
		t.Errorf("%d properties have no description; the %d Go fields without a doc comment:\n%s\nthe properties:\n%s",
			len(bare), len(missing), strings.Join(missing, "\n"), strings.Join(bare, "\n"))
	}
}
