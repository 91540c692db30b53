package api

import (
	"bytes"
	"encoding/json"
	"iter"
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
	if t == nil || !hasRequired(t) {
		return ""
	}
	return requestWalk{required: true}.first(data, t)
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

// requestWalk walks a request's JSON, decoded into any, beside t, the type
// the request decodes into, through objects, lists and maps (keys in
// order), and answers the first path at fault, "" when none. Each of the
// decoder's checks is one walk: required, a property t requires and the
// request leaves out (or null); unknown, a property t has no field for;
// own, a value whose type decodes itself (a time, an amount), which is not
// walked into and passed over when own is nil.
type requestWalk struct {
	required bool
	unknown  bool
	own      func(v any, t reflect.Type) bool
}

// first decodes data and walks it beside t; "" when data is not JSON or t
// is nil (nothing to walk beside).
func (w requestWalk) first(data []byte, t reflect.Type) string {
	if t == nil {
		return ""
	}
	var v any
	if w.own == nil {
		// The required check runs on every write: Unmarshal is the
		// cheaper read.
		if err := json.Unmarshal(data, &v); err != nil {
			return ""
		}
		return w.walk(v, t, "")
	}
	// own is shown a value as it was sent: a number's digits, not a
	// float64's.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return ""
	}
	return w.walk(v, t, "")
}

func (w requestWalk) walk(v any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
		if w.own != nil && w.own(v, t) {
			return path
		}
		return ""
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return ""
		}
		list, _ := v.([]any)
		for i, item := range list {
			if p := w.walk(item, t.Elem(), fault.Item(path, i)); p != "" {
				return p
			}
		}
	case reflect.Map:
		obj, _ := v.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if p := w.walk(obj[k], t.Elem(), fault.Field(path, k)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if w.required {
			// By the type's fields: a missing one has no key to find.
			for _, f := range jsonFields(t) {
				item := obj[f.Name]
				if item == nil {
					if required(f.StructField) {
						return fault.Field(path, f.Name)
					}
					continue
				}
				if p := w.walk(item, f.Type, fault.Field(path, f.Name)); p != "" {
					return p
				}
			}
			return ""
		}
		for k, f := range keyedFields(obj, t) {
			if f == nil {
				if w.unknown {
					return fault.Field(path, k)
				}
				continue
			}
			if p := w.walk(obj[k], f.Type, fault.Field(path, f.Name)); p != "" {
				return p
			}
		}
	}
	return ""
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// keyedFields lists obj's keys in order, each with the field of struct type t
// that encoding/json decodes it into (nil for none): the key's own name
// first, else one differing only in case, as encoding/json matches.
func keyedFields(obj map[string]any, t reflect.Type) iter.Seq2[string, *jsonField] {
	return func(yield func(string, *jsonField) bool) {
		fields := map[string]jsonField{}
		for _, f := range structFields(t, false) {
			fields[f.Name] = f
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			f, ok := fields[k]
			if !ok {
				for name, g := range fields {
					if strings.EqualFold(name, k) {
						f, ok = g, true
						break
					}
				}
			}
			var field *jsonField
			if ok {
				field = &f
			}
			if !yield(k, field) {
				return
			}
		}
	}
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
	return requestWalk{unknown: true}.first(data, t)
}

// refusedValue answers the path of the first value of data (the request's
// JSON) that its type, decoding itself, refuses: a number for a time, a
// time without its zone; "" when none. encoding/json passes such a type's
// error on without saying where the value was.
func refusedValue(data []byte, t reflect.Type) string {
	return requestWalk{own: refused}.first(data, t)
}

// refused says whether t, decoding itself, refuses v.
func refused(v any, t reflect.Type) bool {
	raw, err := json.Marshal(v)
	return err == nil && json.Unmarshal(raw, reflect.New(t).Interface()) != nil
}
