package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
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
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return ""
	}
	return missingIn(v, t, "")
}

func missingIn(v any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		list, _ := v.([]any)
		if t.Elem().Kind() == reflect.Uint8 {
			return ""
		}
		for i, item := range list {
			if p := missingIn(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Map:
		obj, _ := v.(map[string]any)
		for k, item := range obj {
			if p := missingIn(item, t.Elem(), join(path, k)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		return missingInStruct(obj, t, path)
	}
	return ""
}

func missingInStruct(obj map[string]any, t reflect.Type, path string) string {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || f.Tag.Get("jsonschema") == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if p := missingInStruct(obj, ft, path); p != "" {
					return p
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		item, present := obj[name]
		if present && item == nil {
			present = false
		}
		if !present {
			if required(f) {
				return join(path, name)
			}
			continue
		}
		if p := missingIn(item, f.Type, join(path, name)); p != "" {
			return p
		}
	}
	return ""
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

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
