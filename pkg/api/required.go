package api

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/voyage/voyage/pkg/fault"
)

// RequiredKey is the catalog key of the field error for a required
// property the request left out.
const RequiredKey = "error.field.required"

// missingRequired answers the first property of data (the request's JSON)
// that t marks required (`jsonschema:"required"`, the tag the OpenAPI
// document's request schemas are reflected from) and data leaves out or
// sets to null, as a path ("flight", "passengers[1].surname"); "" when none.
// Nested objects and lists are checked where present. The document and the
// decoder read one tag, so what the reference calls required is what the
// server refuses without: a PUT that once took {"train": {...}} alone
// switched the agency's flights off.
func missingRequired(data []byte, t reflect.Type) string {
	if !hasRequired(t) {
		return ""
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return ""
	}
	return missingIn(v, t, "")
}

// requiredIn caches hasRequired by type: most writes' types tag nothing
// required, and their bodies need not be read again.
var requiredIn sync.Map // reflect.Type → bool

// hasRequired reports whether t, or a type inside it, tags a property
// required.
func hasRequired(t reflect.Type) bool {
	if v, ok := requiredIn.Load(t); ok {
		return v.(bool)
	}
	found := requiredWithin(t, map[reflect.Type]bool{})
	requiredIn.Store(t, found)
	return found
}

func requiredWithin(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return false
	}
	seen[t] = true
	for _, f := range jsonFields(t) {
		if required(f.StructField) || requiredWithin(f.Type, seen) {
			return true
		}
	}
	return false
}

func missingIn(v any, t reflect.Type, path string) string {
	return walkRequest(v, t, path, missingInObject)
}

func missingInObject(obj map[string]any, t reflect.Type, path string) string {
	for _, f := range jsonFields(t) {
		item := obj[f.Name]
		if item == nil {
			if required(f.StructField) {
				return fault.Field(path, f.Name)
			}
			continue
		}
		if p := missingIn(item, f.Type, fault.Field(path, f.Name)); p != "" {
			return p
		}
	}
	return ""
}

// walkRequest walks v, a request's JSON decoded into any, beside t, the
// type the request decodes into, through lists and maps (a map's keys in
// order), and answers the first path object answers for an object that t
// has as a struct; "" when none.
func walkRequest(v any, t reflect.Type, path string, object func(obj map[string]any, t reflect.Type, path string) string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return ""
		}
		list, _ := v.([]any)
		for i, item := range list {
			if p := walkRequest(item, t.Elem(), fault.Item(path, i), object); p != "" {
				return p
			}
		}
	case reflect.Map:
		obj, _ := v.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if p := walkRequest(obj[k], t.Elem(), fault.Field(path, k), object); p != "" {
				return p
			}
		}
	case reflect.Struct:
		if obj, ok := v.(map[string]any); ok {
			return object(obj, t, path)
		}
	}
	return ""
}

// jsonField is a property of a struct as encoding/json and the schema
// reflector see it: its name and tag options.
type jsonField struct {
	reflect.StructField
	Name, Opts string
}

// jsonFields lists the properties of struct type t in order, an embedded
// struct's among them, leaving out what json or jsonschema tags "-" and
// unexported fields. The decoder's required check and the document's
// nullable marks read a type's properties through it.
func jsonFields(t reflect.Type) []jsonField { return structFields(t, true) }

// structFields lists them as jsonFields does; with documented false it
// keeps what only jsonschema tags "-", which the decoder still reads.
func structFields(t reflect.Type, documented bool) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || documented && f.Tag.Get("jsonschema") == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, structFields(ft, documented)...)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{StructField: f, Name: name, Opts: opts})
	}
	return out
}

// required reads the jsonschema tag's options as invopop/jsonschema does.
func required(f reflect.StructField) bool {
	for _, opt := range strings.Split(f.Tag.Get("jsonschema"), ",") {
		if opt == "required" {
			return true
		}
	}
	return false
}

// unknownField answers the path of the first property of data (the
// request's JSON) that t has no field for, as the required check names
// fields ("passengers[1].surnam"), or "" when none is found. The decoder
// names an unknown property by its key alone, which in a list of five
// travellers does not say whose.
func unknownField(data []byte, t reflect.Type) string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return ""
	}
	return unknownIn(v, t, "")
}

func unknownIn(v any, t reflect.Type, path string) string {
	return walkRequest(v, t, path, unknownInObject)
}

func unknownInObject(obj map[string]any, t reflect.Type, path string) string {
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
		return ""
	}
	fields := map[string]jsonField{}
	for _, f := range structFields(t, false) {
		fields[f.Name] = f
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		f, ok := fields[k]
		if !ok {
			// encoding/json matches a key to a field case-insensitively.
			for name, g := range fields {
				if strings.EqualFold(name, k) {
					f, ok = g, true
					break
				}
			}
		}
		if !ok {
			return fault.Field(path, k)
		}
		if p := unknownIn(obj[k], f.Type, fault.Field(path, f.Name)); p != "" {
			return p
		}
	}
	return ""
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()
