package api

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/input"
)

type reqPassenger struct {
	Surname   string     `json:"surname" jsonschema:"required"`
	GivenName string     `json:"givenName" jsonschema:"required"`
	Remark    string     `json:"remark,omitempty"`
	Since     *time.Time `json:"since,omitempty"`
}

type reqEmbedded struct {
	Contact string `json:"contact" jsonschema:"required"`
}

type reqOrder struct {
	reqEmbedded
	OfferID    string                  `json:"offerId" jsonschema:"required,minLength=1"`
	Passengers []reqPassenger          `json:"passengers" jsonschema:"required"`
	Lead       *reqPassenger           `json:"lead,omitempty"`
	ByName     map[string]reqPassenger `json:"byName,omitempty"`
	Note       string                  `json:"note,omitempty"`
	Hidden     string                  `json:"hidden,omitempty" jsonschema:"-"`
	Count      int                     `json:"count,omitempty"`
	At         time.Time               `json:"at,omitempty"`
}

func TestMissingRequired(t *testing.T) {
	t.Parallel()
	full := `"contact":"x","offerId":"o1","passengers":[{"surname":"LI","givenName":"NA"}]`
	tests := []struct{ name, body, want string }{
		{"complete", `{` + full + `}`, ""},
		{"optional parts absent or null", `{` + full + `,"lead":null,"note":null}`, ""},
		{"empty object", `{}`, "contact"},
		{"top-level property missing", `{"contact":"x","passengers":[]}`, "offerId"},
		{"null counts as missing", `{"contact":"x","offerId":null,"passengers":[]}`, "offerId"},
		{"embedded struct's property", `{"offerId":"o1","passengers":[]}`, "contact"},
		{"in a list", `{"contact":"x","offerId":"o1","passengers":[{"surname":"LI","givenName":"NA"},{"surname":"WANG"}]}`, "passengers[1].givenName"},
		{"in an optional object present", `{` + full + `,"lead":{"givenName":"NA"}}`, "lead.surname"},
		{"in a map", `{` + full + `,"byName":{"li":{"surname":"LI"}}}`, "byName.li.givenName"},
		{"empty string is present (the service judges it)", `{"contact":"","offerId":"","passengers":[]}`, ""},
		{"not an object", `[1,2]`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := missingRequired([]byte(tc.body), reflect.TypeOf(&reqOrder{})); got != tc.want {
				t.Errorf("missingRequired(%s) = %q, want %q", tc.body, got, tc.want)
			}
		})
	}
}

// TestHasRequired: a type that tags nothing required, however deep, is
// not read again; one that tags a property inside a list or a pointer is.
func TestHasRequired(t *testing.T) {
	t.Parallel()
	type loose struct {
		Name  string            `json:"name"`
		Items []struct{ A int } `json:"items"`
		Self  *loose            `json:"self"`
	}
	type deep struct {
		Lead *struct {
			Orders []reqOrder `json:"orders"`
		} `json:"lead"`
	}
	for _, tc := range []struct {
		v    any
		want bool
	}{{loose{}, false}, {&reqOrder{}, true}, {deep{}, true}, {map[string]reqPassenger{}, true}, {[]byte{}, false}} {
		if got := hasRequired(reflect.TypeOf(tc.v)); got != tc.want {
			t.Errorf("hasRequired(%T) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestDecodeFieldPaths: the decoder's three field checks (a control
// character, a property the request does not have, a required one left
// out) name a field in one form, its full path with list items by index,
// wherever it is; an unknown property's path was once its key alone.
func TestDecodeFieldPaths(t *testing.T) {
	t.Parallel()
	head := `"contact":"x","offerId":"o1",`
	tests := []struct{ name, body, field, key string }{
		{"control character in a list", `{` + head + `"passengers":[{"surname":"LI","givenName":"NA"},{"surname":"W\u0000NG","givenName":"A"}]}`, "passengers[1].surname", input.FieldKey},
		{"unknown in a list", `{` + head + `"passengers":[{"surname":"LI","givenName":"NA"},{"surname":"WANG","givenName":"A","surnam":"X"}]}`, "passengers[1].surnam", UnknownFieldKey},
		{"required in a list", `{` + head + `"passengers":[{"surname":"LI","givenName":"NA"},{"surname":"WANG"}]}`, "passengers[1].givenName", RequiredKey},
		{"unknown at the top", `{` + head + `"passengers":[],"passengerIds":[1]}`, "passengerIds", UnknownFieldKey},
		{"unknown in an object", `{` + head + `"passengers":[],"lead":{"surname":"LI","givenName":"NA","age":3}}`, "lead.age", UnknownFieldKey},
		{"unknown in a map's value", `{` + head + `"passengers":[],"byName":{"li":{"surname":"LI","givenName":"NA","x":1}}}`, "byName.li.x", UnknownFieldKey},
		{"unknown in an embedded struct's place", `{` + head + `"passengers":[],"contactt":"y"}`, "contactt", UnknownFieldKey},
		// A key differing in case matches its field, as the decoder has it,
		// and a field left out of the document is still one the decoder reads:
		// neither is the unknown one.
		{"wrong type in a list", `{` + head + `"passengers":[{"surname":"LI","givenName":"NA"},{"surname":5,"givenName":"A"}]}`, "passengers[1].surname", TypeKey},
		{"a list for an object", `{` + head + `"passengers":[],"lead":[1]}`, "lead", TypeKey},
		{"a fraction for a whole number", `{` + head + `"passengers":[],"count":1.5}`, "count", TypeKey},
		{"a number for a time", `{` + head + `"passengers":[],"at":5}`, "at", FormatKey},
		{"a time without its zone, in a list", `{` + head + `"passengers":[{"surname":"LI","givenName":"NA","since":"2026-01-02T03:04:05Z"},{"surname":"W","givenName":"A","since":"2026-01-02 03:04"}]}`, "passengers[1].since", FormatKey},
		{"case and hidden fields are known", `{` + head + `"Note":"n","hidden":"h","passengers":[{"SURNAME":"LI","givenName":"NA","zz":1}]}`, "passengers[0].zz", UnknownFieldKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("POST", "/", strings.NewReader(tc.body))
			err := Decode(r, &reqOrder{})
			fe, ok := fault.As(err)
			if !ok || fe.Code != fault.CodeValidation {
				t.Fatalf("Decode(%s) = %v, want a validation error", tc.body, err)
			}
			if len(fe.Fields) != 1 || fe.Fields[tc.field] != tc.key {
				t.Errorf("Decode(%s) fields = %v, want {%s: %s}", tc.body, fe.Fields, tc.field, tc.key)
			}
		})
	}
}
