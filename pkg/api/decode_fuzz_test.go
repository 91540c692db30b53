package api

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/input"
)

// FuzzDecode feeds the JSON request decoder any body, into a flight order
// (lists of nested passengers with required fields) and an agency's
// config (maps, nested objects). It never panics and refuses only with a
// 4xx fault; what it takes is valid JSON, holds no control character, no
// property the type lacks, and every property the type requires.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"quoteId":"q","passengers":[{"type":"adult","surname":"LI","givenName":"NA","gender":"female","birthday":"1990-05-06","nationality":"CN","documentType":"passport","documentNumber":"E7654321","documentExpiry":"2035-01-01"}],"contact":{"name":"Li","email":"li@example.com","phone":"1"}}`), false)
	f.Add([]byte(`{"settings":{"enableFlightService":true,"enableTrainService":false,"isShowBill":true,"canCreateSubAgency":false},"flight":{"markups":{"domestic":{"unit":"amount","value":"1"}}},"train":{}}`), true)
	f.Add([]byte(`{"passengers":[{"surname":"中\u0000文"}]}`), false)
	f.Add([]byte(`{"passengerIds":[1]}`), false)
	f.Add([]byte(`{"train":{"manual":true}}`), true)
	f.Add([]byte(`{} {}`), false)
	f.Add([]byte(`[`), true)
	f.Fuzz(func(t *testing.T, data []byte, config bool) {
		var v any = &flight.CreateRequest{}
		if config {
			v = &agency.Config{}
		}
		req := httptest.NewRequest("POST", "/x", bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		err := Decode(req, v)
		if err != nil {
			fe, ok := fault.As(err)
			if !ok || fe.Status < 400 || fe.Status >= 500 {
				t.Fatalf("refused with %v (%T), want a 4xx fault", err, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("took invalid JSON %q", data)
		}
		if field, bad, err := input.BadJSON(data); err != nil || bad {
			t.Fatalf("took a control character in %q (%v)", field, err)
		}
		if field := missingRequired(data, reflect.TypeOf(v)); field != "" {
			t.Fatalf("took a body without the required %s", field)
		}
		strict := json.NewDecoder(bytes.NewReader(data))
		strict.DisallowUnknownFields()
		if err := strict.Decode(reflect.New(reflect.TypeOf(v).Elem()).Interface()); err != nil {
			t.Fatalf("took a body the strict decoder refuses: %v", err)
		}
	})
}
