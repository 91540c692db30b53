package api

import (
	"reflect"
	"testing"
)

type reqPassenger struct {
	Surname   string `json:"surname" jsonschema:"required"`
	GivenName string `json:"givenName" jsonschema:"required"`
	Remark    string `json:"remark,omitempty"`
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
