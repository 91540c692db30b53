package api

import (
	_ "embed"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// descriptionsJSON holds the doc comments of the Go types and fields the
// document reflects, keyed "import/path.Type" and "import/path.Type.Field":
// the binary carries no source, so pkg/app's TestDocumentDescriptions
// extracts them from it and keeps this file current (VOYAGE_UPDATE_DOCS=1).
// A field's comment is what an integrator reads as the property's
// description.
//
//go:embed descriptions.json
var descriptionsJSON []byte

var descriptions = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	if err := json.Unmarshal(descriptionsJSON, &m); err != nil {
		panic("api: descriptions.json: " + err.Error())
	}
	return m
})

// DescriptionKey is the key of a type's (field "") or a field's comment.
func DescriptionKey(t reflect.Type, field string) string {
	name := t.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] // a generic type's comment is its declaration's
	}
	k := t.PkgPath() + "." + name
	if field != "" {
		k += "." + field
	}
	return k
}

// describer answers the reflector's comment lookups and, when asked,
// remembers which keys the document looked up (the document is reflected
// in one goroutine).
type describer struct {
	looked map[string]bool
}

func (d *describer) lookup(t reflect.Type, field string) string {
	if t.PkgPath() == "" || t.Name() == "" {
		return ""
	}
	k := DescriptionKey(t, field)
	if d != nil {
		d.looked[k] = true
	}
	if field == "" {
		// A type's comment opens with its Go name too ("CreateRequest
		// books…"), which the document calls otherwise.
		name, _, _ := strings.Cut(t.Name(), "[")
		return withoutName(descriptions()[k], name)
	}
	return withoutName(descriptions()[k], field)
}

// withoutName drops a Go comment's leading "Name is", "Name are" or
// "Name:" (the property's JSON name, or the schema's name, is another),
// capitalizing what is left.
func withoutName(s, field string) string {
	rest, ok := strings.CutPrefix(s, field)
	if !ok {
		return s
	}
	for _, lead := range []string{" is ", " are ", ": "} {
		if r, ok := strings.CutPrefix(rest, lead); ok && r != "" {
			return strings.ToUpper(r[:1]) + r[1:]
		}
	}
	// "Ledger lists the movements" reads on as "Lists the movements".
	if r, ok := strings.CutPrefix(rest, " "); ok && strings.Contains(r, " ") && r[0] >= 'a' && r[0] <= 'z' {
		return strings.ToUpper(r[:1]) + r[1:]
	}
	return s
}

// DescriptionKeys lists the type and field keys the document looks up, for
// the test that extracts their comments from the source.
func (rt *Router) DescriptionKeys() []string {
	d := &describer{looked: map[string]bool{}}
	rt.openAPI(d)
	keys := make([]string, 0, len(d.looked))
	for k := range d.looked {
		keys = append(keys, k)
	}
	return keys
}
