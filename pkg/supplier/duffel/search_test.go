package duffel

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

var returnSearch = supplier.SearchRequest{
	Journeys: []supplier.JourneyQuery{
		{Origin: "LHR", Destination: "JFK", Date: "2026-06-10"},
		{Origin: "JFK", Destination: "LHR", Date: "2026-06-17"},
	},
	Passengers: supplier.Passengers{Adult: 2, Child: 1},
	Cabin:      supplier.CabinEconomy,
}

func TestSearchReturnOfferRequest(t *testing.T) {
	f := newFake(t).on("POST /air/offer_requests", reply{status: http.StatusCreated, file: "offer_request_return.json"})
	c := newTestClient(t, f, Config{})

	offers, err := c.Search(context.Background(), returnSearch)
	if err != nil {
		t.Fatal(err)
	}

	reqs := f.requests("POST /air/offer_requests")
	if len(reqs) != 1 {
		t.Fatalf("%d offer requests, want 1", len(reqs))
	}
	if got := reqs[0].query["return_offers"]; !reflect.DeepEqual(got, []string{"true"}) {
		t.Errorf("return_offers = %v", got)
	}
	if reqs[0].query["supplier_timeout"] == nil {
		t.Error("no supplier_timeout")
	}
	data := reqs[0].body["data"].(map[string]any)
	wantSlices := []any{
		map[string]any{"origin": "LHR", "destination": "JFK", "departure_date": "2026-06-10"},
		map[string]any{"origin": "JFK", "destination": "LHR", "departure_date": "2026-06-17"},
	}
	if !reflect.DeepEqual(data["slices"], wantSlices) {
		t.Errorf("slices = %v", data["slices"])
	}
	wantPax := []any{map[string]any{"type": "adult"}, map[string]any{"type": "adult"}, map[string]any{"age": float64(8)}}
	if !reflect.DeepEqual(data["passengers"], wantPax) {
		t.Errorf("passengers = %v", data["passengers"])
	}
	if data["cabin_class"] != "economy" {
		t.Errorf("cabin_class = %v", data["cabin_class"])
	}

	if len(offers) != 2 {
		t.Fatalf("%d offers, want 2", len(offers))
	}
	ba, ei := offers[0], offers[1]

	london, _ := time.LoadLocation("Europe/London")
	newYork, _ := time.LoadLocation("America/New_York")
	dublin, _ := time.LoadLocation("Europe/Dublin")
	segs := []struct {
		offer     supplier.Offer
		i         int
		flight    string
		operating string
		from, to  string
		dep, arr  time.Time
		depOffset int // seconds east of UTC
		arrOffset int
		minutes   int
		fareBasis string
		class     string
		aircraft  string
		cabin     string
	}{
		{ba, 0, "BA117", "", "LHR", "JFK", time.Date(2026, 6, 10, 8, 20, 0, 0, london), time.Date(2026, 6, 10, 11, 5, 0, 0, newYork), 3600, -4 * 3600, 465, "NKN0S1Z1", "N", "77W", "economy"},
		{ba, 1, "BA112", "", "JFK", "LHR", time.Date(2026, 6, 17, 18, 30, 0, 0, newYork), time.Date(2026, 6, 18, 6, 45, 0, 0, london), -4 * 3600, 3600, 435, "NKN0S1Z1", "N", "77W", "economy"},
		{ei, 0, "EI155", "", "LHR", "DUB", time.Date(2026, 6, 10, 7, 0, 0, 0, london), time.Date(2026, 6, 10, 8, 20, 0, 0, dublin), 3600, 3600, 80, "SNC7R2", "S", "320", "economy"},
		{ei, 1, "EI105", "", "DUB", "JFK", time.Date(2026, 6, 10, 10, 50, 0, 0, dublin), time.Date(2026, 6, 10, 13, 15, 0, 0, newYork), 3600, -4 * 3600, 445, "SNC7R2", "S", "333", "economy"},
		{ei, 2, "EI104", "", "JFK", "DUB", time.Date(2026, 6, 17, 20, 5, 0, 0, newYork), time.Date(2026, 6, 18, 7, 30, 0, 0, dublin), -4 * 3600, 3600, 385, "SNC7R2", "S", "333", "economy"},
		{ei, 3, "EI3332", "BA", "DUB", "LHR", time.Date(2026, 6, 18, 9, 0, 0, 0, dublin), time.Date(2026, 6, 18, 10, 20, 0, 0, london), 3600, 3600, 80, "SNC7R2", "S", "320", "economy"},
	}
	for _, tc := range segs {
		s := tc.offer.Segments[tc.i]
		name := tc.offer.Ref + "/" + tc.flight
		if s.FlightNumber != tc.flight || s.OperatingCarrier != tc.operating || s.Origin != tc.from || s.Destination != tc.to {
			t.Errorf("%s: got %s op %q %s-%s", name, s.FlightNumber, s.OperatingCarrier, s.Origin, s.Destination)
		}
		if !s.DepartAt.Equal(tc.dep) || !s.ArriveAt.Equal(tc.arr) {
			t.Errorf("%s: times %s → %s, want %s → %s", name, s.DepartAt, s.ArriveAt, tc.dep, tc.arr)
		}
		if _, off := s.DepartAt.Zone(); off != tc.depOffset {
			t.Errorf("%s: departure offset %d, want %d", name, off, tc.depOffset)
		}
		if _, off := s.ArriveAt.Zone(); off != tc.arrOffset {
			t.Errorf("%s: arrival offset %d, want %d", name, off, tc.arrOffset)
		}
		if s.DurationMinutes != tc.minutes {
			t.Errorf("%s: %d minutes, want %d", name, s.DurationMinutes, tc.minutes)
		}
		if s.FareBasis != tc.fareBasis || s.BookingClass != tc.class || s.Aircraft != tc.aircraft || s.Cabin != tc.cabin {
			t.Errorf("%s: fare %s class %s aircraft %s cabin %s", name, s.FareBasis, s.BookingClass, s.Aircraft, s.Cabin)
		}
	}

	// Offer A: 2045.87 = base 1510.00 + tax 535.87 over three travellers,
	// the odd cents on the first ones.
	wantBA := supplier.Offer{
		Supplier: "duffel", Ref: "off_0000B7qXvb3PkE2HfC8tZ1",
		Journeys: [][]int{{0}, {1}}, Currency: "GBP",
		Fares: []supplier.PaxFare{
			{Type: supplier.Adult, Count: 1, Base: 50334, Taxes: 17863},
			{Type: supplier.Adult, Count: 1, Base: 50333, Taxes: 17862},
			{Type: supplier.Child, Count: 1, Base: 50333, Taxes: 17862},
		},
		ValidatingCarrier: "BA", Brand: "Economy Standard",
		Baggage:          supplier.Baggage{CheckedPieces: 1, CabinPieces: 1},
		Conditions:       supplier.Conditions{Refundable: true, RefundFee: 5000, Changeable: true, ChangeFee: 0},
		Restrictions:     supplier.Restrictions{Documents: []string{"passport"}, IdentityDocumentsRequired: true},
		TicketingMinutes: 30,
		ExpiresAt:        time.Date(2026, 5, 10, 10, 34, 31, 402137000, time.UTC),
	}
	gotBA := ba
	gotBA.Segments = nil
	if !reflect.DeepEqual(gotBA, wantBA) {
		t.Errorf("offer A =\n%+v\nwant\n%+v", gotBA, wantBA)
	}
	if ba.Total() != 204587 {
		t.Errorf("offer A total %d, want 204587", ba.Total())
	}

	// Offer B divides evenly; refunds are not allowed, the change penalty
	// of 90.00 is 30.00 a traveller.
	wantFares := []supplier.PaxFare{
		{Type: supplier.Adult, Count: 2, Base: 40000, Taxes: 16600},
		{Type: supplier.Child, Count: 1, Base: 40000, Taxes: 16600},
	}
	if !reflect.DeepEqual(ei.Fares, wantFares) || ei.Total() != 169800 {
		t.Errorf("offer B fares %+v total %d", ei.Fares, ei.Total())
	}
	if ei.Conditions != (supplier.Conditions{Changeable: true, ChangeFee: 3000}) {
		t.Errorf("offer B conditions %+v", ei.Conditions)
	}
	if ei.Baggage != (supplier.Baggage{CabinPieces: 1}) || len(ei.Restrictions.Documents) != 0 {
		t.Errorf("offer B baggage %+v documents %v", ei.Baggage, ei.Restrictions.Documents)
	}
	if !reflect.DeepEqual(ei.Journeys, [][]int{{0, 1}, {2, 3}}) {
		t.Errorf("offer B journeys %v", ei.Journeys)
	}
}

func TestSearchFiltersCarriers(t *testing.T) {
	f := newFake(t).on("POST /air/offer_requests", reply{status: http.StatusCreated, file: "offer_request_return.json"})
	c := newTestClient(t, f, Config{})
	req := returnSearch
	req.Carriers = []string{"BA"}
	offers, err := c.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// The Aer Lingus offer has EI segments (one operated by BA): gone.
	if len(offers) != 1 || offers[0].ValidatingCarrier != "BA" {
		t.Fatalf("offers %+v", offers)
	}
}

// A direct search asks Duffel for no connections; an ordinary one leaves
// Duffel's default.
func TestSearchDirectAsksForNoConnections(t *testing.T) {
	for _, direct := range []bool{false, true} {
		f := newFake(t).on("POST /air/offer_requests", reply{status: http.StatusCreated, file: "offer_request_return.json"})
		c := newTestClient(t, f, Config{})
		req := returnSearch
		req.Direct = direct
		if _, err := c.Search(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		data := f.requests("POST /air/offer_requests")[0].body["data"].(map[string]any)
		got, sent := data["max_connections"]
		if sent != direct || (direct && got != float64(0)) {
			t.Fatalf("direct=%v: max_connections %v (sent %v)", direct, got, sent)
		}
	}
}

func TestSearchRejectsEmptyRequest(t *testing.T) {
	c := newTestClient(t, newFake(t), Config{})
	_, err := c.Search(context.Background(), supplier.SearchRequest{Passengers: supplier.Passengers{Adult: 1}})
	wantErr(t, err, supplier.ErrRejected)
}

func TestPrice(t *testing.T) {
	held, err := mapOffer([]wireOffer{wireOfferFile(t, "offer.json")})
	if err != nil {
		t.Fatal(err)
	}
	pax := supplier.Passengers{Adult: 2, Child: 1}
	tests := []struct {
		name  string
		reply reply
		want  supplier.PriceStatus
	}{
		{"unchanged", reply{file: "offer.json"}, supplier.PriceOK},
		{"price changed", reply{body: patched(t, "offer.json", func(o map[string]any) {
			o["total_amount"], o["base_amount"] = "2101.87", "1566.00"
		})}, supplier.PriceChanged},
		{"bag allowance changed", reply{body: patched(t, "offer.json", func(o map[string]any) {
			for _, sl := range o["slices"].([]any) {
				for _, s := range sl.(map[string]any)["segments"].([]any) {
					for _, p := range s.(map[string]any)["passengers"].([]any) {
						p.(map[string]any)["baggages"] = []any{map[string]any{"type": "carry_on", "quantity": 1}}
					}
				}
			}
		})}, supplier.PackageChanged},
		{"refund rule changed", reply{body: patched(t, "offer.json", func(o map[string]any) {
			o["conditions"].(map[string]any)["refund_before_departure"] = map[string]any{"allowed": false, "penalty_amount": nil, "penalty_currency": nil}
		})}, supplier.PackageChanged},
		{"documents changed", reply{body: patched(t, "offer.json", func(o map[string]any) {
			o["supported_passenger_identity_document_types"] = []any{}
			o["passenger_identity_documents_required"] = false
		})}, supplier.DocumentRestrictionChanged},
		{"expired", reply{body: patched(t, "offer.json", func(o map[string]any) {
			o["expires_at"] = "2026-05-10T10:04:59Z"
		})}, supplier.PriceInvalid},
		{"not found", reply{status: http.StatusNotFound, file: "error_not_found.json"}, supplier.PriceInvalid},
		{"no longer available", reply{status: http.StatusUnprocessableEntity, file: "error_offer_gone.json"}, supplier.PriceInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t).on("GET /air/offers/off_0000B7qXvb3PkE2HfC8tZ1", tc.reply)
			c := newTestClient(t, f, Config{})
			got, err := c.Price(context.Background(), held, pax)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != tc.want {
				t.Fatalf("status %s, want %s", got.Status, tc.want)
			}
			if tc.want == supplier.PriceOK && !reflect.DeepEqual(got.Offer, held) {
				t.Errorf("offer changed:\n%+v\n%+v", got.Offer, held)
			}
			if tc.want == supplier.PriceChanged && got.Offer.Total() != 210187 {
				t.Errorf("new total %d", got.Offer.Total())
			}
		})
	}
}

func TestPriceOtherTravellersRejected(t *testing.T) {
	held, _ := mapOffer([]wireOffer{wireOfferFile(t, "offer.json")})
	f := newFake(t).on("GET /air/offers/off_0000B7qXvb3PkE2HfC8tZ1", reply{file: "offer.json"})
	c := newTestClient(t, f, Config{})
	_, err := c.Price(context.Background(), held, supplier.Passengers{Adult: 1})
	wantErr(t, err, supplier.ErrRejected)
}
