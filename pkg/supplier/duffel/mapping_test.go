package duffel

import (
	"errors"
	"reflect"
	"testing"

	"github.com/voyage/voyage/pkg/supplier"
)

func TestSplitEven(t *testing.T) {
	tests := []struct {
		total int64
		n     int
		want  []int64
	}{
		{100, 1, []int64{100}},
		{100, 4, []int64{25, 25, 25, 25}},
		{151000, 3, []int64{50334, 50333, 50333}},
		{2, 3, []int64{1, 1, 0}},
		{-5, 2, []int64{-3, -2}},
		{0, 2, []int64{0, 0}},
	}
	for _, tc := range tests {
		got := splitEven(tc.total, tc.n)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitEven(%d, %d) = %v, want %v", tc.total, tc.n, got, tc.want)
		}
		var sum int64
		for _, v := range got {
			sum += v
		}
		if sum != tc.total {
			t.Errorf("splitEven(%d, %d) adds up to %d", tc.total, tc.n, sum)
		}
	}
}

func TestSharesWithoutTaxAmount(t *testing.T) {
	// tax_amount null: taxes are what the total adds to the base.
	o := wireOfferFile(t, "offer.json")
	o.TaxAmount, o.TaxCurrency = nil, nil
	off, err := mapOffer([]wireOffer{o})
	if err != nil {
		t.Fatal(err)
	}
	if off.Total() != 204587 {
		t.Errorf("total %d", off.Total())
	}
}

func TestSharesInfantsAndJPY(t *testing.T) {
	o := wireOffer{
		ID: "off_x", TotalAmount: "100001", TotalCurrency: "JPY", BaseAmount: "80000", BaseCurrency: "JPY",
		Passengers: []wireOfferPassenger{{ID: "a", Type: "adult"}, {ID: "i", Type: "infant_without_seat"}},
	}
	pax, total, err := shares(o)
	if err != nil {
		t.Fatal(err)
	}
	if total != 100001 {
		t.Errorf("total %d", total)
	}
	want := []supplier.PaxFare{
		{Type: supplier.Adult, Count: 1, Base: 40000, Taxes: 10001},
		{Type: supplier.Infant, Count: 1, Base: 40000, Taxes: 10000},
	}
	if got := groupFares(pax); !reflect.DeepEqual(got, want) {
		t.Errorf("fares %+v", got)
	}
}

func TestSharesRefuseTooManyDecimals(t *testing.T) {
	o := wireOffer{ID: "off_x", TotalAmount: "10.001", TotalCurrency: "GBP", Passengers: []wireOfferPassenger{{ID: "a", Type: "adult"}}}
	if _, _, err := shares(o); err == nil {
		t.Error("a third decimal was accepted")
	}
}

func TestPassengerType(t *testing.T) {
	age := func(n int) *int { return &n }
	tests := []struct {
		p    wireOfferPassenger
		want string
	}{
		{wireOfferPassenger{Type: "adult"}, supplier.Adult},
		{wireOfferPassenger{Type: "child"}, supplier.Child},
		{wireOfferPassenger{Type: "infant_without_seat"}, supplier.Infant},
		{wireOfferPassenger{Age: age(1)}, supplier.Infant},
		{wireOfferPassenger{Age: age(8)}, supplier.Child},
		{wireOfferPassenger{Age: age(15)}, supplier.Adult},
	}
	for _, tc := range tests {
		if got := passengerType(tc.p); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.p, got, tc.want)
		}
	}
}

func TestISOMinutes(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"PT7H45M", 465, true},
		{"PT45M", 45, true},
		{"P1DT2H", 1560, true},
		{"PT1H30M15S", 90, true},
		{"", 0, false},
		{"7H", 0, false},
		{"PT7", 0, false},
	}
	for _, tc := range tests {
		got, ok := isoMinutes(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("isoMinutes(%q) = %d, %v", tc.in, got, ok)
		}
	}
}

func TestDurationFromDuffelWhenZoneUnknown(t *testing.T) {
	s := wireSegment{
		ID: "seg", DepartingAt: "2026-06-10T08:20:00", ArrivingAt: "2026-06-10T11:05:00", Duration: "PT7H45M",
		Origin: wirePlace{IATACode: "LHR"}, Destination: wirePlace{IATACode: "JFK"},
	}
	seg, err := mapSegment(s, "")
	if err != nil {
		t.Fatal(err)
	}
	if seg.DurationMinutes != 465 {
		t.Errorf("%d minutes", seg.DurationMinutes)
	}
}

func TestCabinClass(t *testing.T) {
	for in, want := range map[string]string{
		supplier.CabinPremiumFirst: "first", supplier.CabinBusiness: "business", supplier.CabinPremiumBusiness: "business",
		supplier.CabinPremiumEconomy: "premium_economy", supplier.CabinEconomy: "economy", "": "",
	} {
		if got := cabinClass(in); got != want {
			t.Errorf("cabinClass(%q) = %q, want %q", in, got, want)
		}
	}
}

// A number without a country code is read as one of the traveller's
// country: Duffel refuses anything but E.164 (invalid_phone_number).
func TestE164(t *testing.T) {
	tests := []struct {
		in, region, want string
		bad              bool
	}{
		{in: "+86 138-0013 8000", region: "GB", want: "+8613800138000"},
		{in: "(020) 7946 0000", region: "GB", want: "+442079460000"},
		{in: "13800138000", region: "CN", want: "+8613800138000"},
		{in: "0086 138 0013 8000", region: "", want: "+8613800138000"},
		{in: "", region: "CN", want: ""},
		{in: "12", region: "CN", bad: true},
		{in: "020 7946 0000", region: "", bad: true},
	}
	for _, tc := range tests {
		got, err := e164(tc.in, tc.region)
		if tc.bad {
			if !errors.Is(err, supplier.ErrRejected) {
				t.Errorf("e164(%q, %q) = %q, %v; want a refusal", tc.in, tc.region, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("e164(%q, %q) = %q, %v; want %q", tc.in, tc.region, got, err, tc.want)
		}
	}
}
