package api

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/flight"
)

// BenchmarkDecode: what every JSON write pays before its handler, over a
// flight booking's body with five travellers.
func BenchmarkDecode(b *testing.B) {
	pax := `{"type":"adult","surname":"ZHANG","givenName":"SAN","gender":"male","birthday":"1988-02-03","nationality":"CN",` +
		`"documentType":"passport","documentNumber":"E12345678","documentExpiry":"2031-05-06","phone":"+86 13800000000","email":"zhang.san@example.com"}`
	body := []byte(`{"quoteId":"q-77a1","passengers":[` + strings.Repeat(pax+",", 4) + pax +
		`],"contact":{"name":"Zhang San","email":"ops@example.com","phone":"+86 13800000000"},"remark":"window seats, please\nand a vegetarian meal"}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		req := httptest.NewRequest("POST", "/order/v2/flight/orders", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if err := Decode(req, &flight.CreateRequest{}); err != nil {
			b.Fatal(err)
		}
	}
}
