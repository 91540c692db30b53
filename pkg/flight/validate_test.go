package flight

import (
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// An ID card travels only within mainland China, by the DOCS import's rule
// (profile.Domestic): Hong Kong, Macao and Taiwan are not domestic.
func TestIDCardOnlyWithinTheMainland(t *testing.T) {
	t.Parallel()
	today := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	depart := time.Date(2027, 3, 20, 8, 0, 0, 0, time.FixedZone("", 8*3600))
	trip := func(airports ...string) shopping.Solution {
		var sol shopping.Solution
		for i := 0; i+1 < len(airports); i++ {
			sol.Segments = append(sol.Segments, shopping.SegmentView{Segment: supplier.Segment{Origin: airports[i], Destination: airports[i+1],
				DepartAt: depart.Add(time.Duration(i) * 3 * time.Hour)}})
		}
		return sol
	}
	for _, tc := range []struct {
		name string
		doc  string
		sol  shopping.Solution
		want string
	}{
		{"ID card, Beijing-Shanghai", "idcard", trip("PEK", "SHA"), ""},
		{"ID card, Beijing-Guangzhou-Chengdu", "idcard", trip("PEK", "CAN", "CTU"), ""},
		{"ID card, Beijing-Hong Kong", "idcard", trip("PEK", "HKG"), "order.passenger.error.idCardInternational"},
		{"ID card, Shanghai-Macao", "idcard", trip("PVG", "MFM"), "order.passenger.error.idCardInternational"},
		{"ID card, via Hong Kong", "idcard", trip("PEK", "HKG", "SZX"), "order.passenger.error.idCardInternational"},
		{"ID card, Shanghai-Taipei", "idcard", trip("PVG", "TPE"), "order.passenger.error.idCardInternational"},
		{"passport, Beijing-Hong Kong", "passport", trip("PEK", "HKG"), ""},
		{"permit, Beijing-Hong Kong", "hk-macau-permit", trip("PEK", "HKG"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Passenger{Type: "adult", Surname: "ZHANG", GivenName: "SAN", Gender: "male", Birthday: "1985-05-12", Nationality: "CN",
				DocumentType: tc.doc, DocumentNumber: "110101198505120011", DocumentExpiry: "2035-01-01"}
			errs := validatePassengers([]Passenger{p}, supplier.Passengers{Adult: 1}, tc.sol, today)
			if got := errs["passengers[0].documentType"]; got != tc.want {
				t.Fatalf("documentType: %q, want %q (all: %v)", got, tc.want, errs)
			}
		})
	}
}
