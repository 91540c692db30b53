package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

// testNow is the tests' clock: 1 March 2026, 08:00 UTC.
var testNow = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newSim(t testing.TB, profile string, edit ...func(*Config)) (*Supplier, *clock) {
	t.Helper()
	c := &clock{t: testNow}
	cfg := Steady(profile, 42)
	cfg.Clock = c.now
	for _, e := range edit {
		e(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func oneWay(origin, dest, date string, adults int) supplier.SearchRequest {
	return supplier.SearchRequest{
		Journeys:   []supplier.JourneyQuery{{Origin: origin, Destination: dest, Date: date}},
		Passengers: supplier.Passengers{Adult: adults},
	}
}

func search(t testing.TB, s *Supplier, req supplier.SearchRequest) []supplier.Offer {
	t.Helper()
	offers, err := s.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("search %+v: %v", req.Journeys, err)
	}
	return offers
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     Config
		wantErr bool
		check   func(*Supplier) bool
	}{
		{"gds defaults", Config{Profile: "gds"}, false, func(s *Supplier) bool {
			return s.knobs.Latency == 1200*time.Millisecond && s.knobs.ErrorRate == DefaultErrorRate && s.volatility == DefaultVolatility && s.cur.code == "CNY"
		}},
		{"lcc defaults", Config{Profile: "lcc"}, false, func(s *Supplier) bool { return s.knobs.Latency == 500*time.Millisecond && s.ttl == 15*time.Minute }},
		{"off means none", Steady("ndc", 1), false, func(s *Supplier) bool {
			return s.knobs.Latency == 0 && s.knobs.Jitter == 0 && s.knobs.ErrorRate == 0 && s.knobs.TimeoutRate == 0 && s.volatility == 0
		}},
		{"explicit values", Config{Profile: "gds", Latency: time.Second, ErrorRate: 0.5, Currency: "EUR"}, false, func(s *Supplier) bool {
			return s.knobs.Latency == time.Second && s.knobs.ErrorRate == 0.5 && s.cur.code == "EUR"
		}},
		{"unknown profile", Config{Profile: "amadeus"}, true, nil},
		{"rate over one", Config{Profile: "gds", ErrorRate: 1.5}, true, nil},
		{"unknown currency", Config{Profile: "gds", Currency: "XYZ"}, true, nil},
		{"unforceable outcome", Config{Profile: "gds", PriceOutcomes: []supplier.PriceStatus{supplier.PriceOK}}, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.cfg)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && !tt.check(s) {
				t.Errorf("unexpected settings: %+v", s)
			}
			if err == nil && s.Name() != tt.cfg.Profile {
				t.Errorf("Name() = %q", s.Name())
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, p := range Profiles {
		t.Run(string(p), func(t *testing.T) {
			req := oneWay("PEK", "SHA", "2026-03-20", 1)
			if p == ProfileLCC {
				req = lccRequest(t)
			}
			a, _ := newSim(t, string(p))
			b, _ := newSim(t, string(p))
			oa, ob := search(t, a, req), search(t, b, req)
			if len(oa) == 0 {
				t.Fatal("no offers")
			}
			if mustJSON(t, oa) != mustJSON(t, ob) {
				t.Error("two searches with one config differ")
			}
			if mustJSON(t, oa) != mustJSON(t, search(t, a, req)) {
				t.Error("a repeated search differs")
			}
			c, _ := newSim(t, string(p), func(c *Config) { c.Seed = 7 })
			if mustJSON(t, oa) == mustJSON(t, search(t, c, req)) {
				t.Error("another seed gives the same offers")
			}
		})
	}
}

// lccRequest finds a real low-cost route in the data and asks for it.
func lccRequest(t testing.TB) supplier.SearchRequest {
	t.Helper()
	for _, r := range geo.Routes() {
		if al, ok := geo.AirlineByCode(r.Carrier); ok && al.LowCost && geo.DistanceKm(r.Origin, r.Destination) < 2500 {
			if a, _ := geo.AirportByCode(r.Origin); a.Rank > 0 && a.Rank <= 60 {
				return oneWay(r.Origin, r.Destination, "2026-03-20", 1)
			}
		}
	}
	t.Fatal("no low-cost route in geo data")
	return supplier.SearchRequest{}
}

func TestPEKLHR(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	offers := search(t, s, oneWay("PEK", "LHR", "2026-03-20", 1))
	london := geo.Location("LHR")
	nonstop := map[string]bool{}
	for _, o := range offers {
		if len(o.Segments) != 1 {
			continue
		}
		sg := o.Segments[0]
		nonstop[sg.Carrier] = true
		if sg.DurationMinutes < 600 || sg.DurationMinutes > 690 {
			t.Errorf("%s takes %d min, want 10h–11h30", sg.FlightNumber, sg.DurationMinutes)
		}
		if sg.ArriveAt.Location().String() != london.String() {
			t.Errorf("%s arrives in zone %s, want %s", sg.FlightNumber, sg.ArriveAt.Location(), london)
		}
		if got := sg.ArriveAt.Sub(sg.DepartAt); got != time.Duration(sg.DurationMinutes)*time.Minute {
			t.Errorf("%s: arrival − departure = %v, duration %d min", sg.FlightNumber, got, sg.DurationMinutes)
		}
		if sg.DepartAt.Format(time.DateOnly) != "2026-03-20" {
			t.Errorf("%s departs %v, not on the 20th local", sg.FlightNumber, sg.DepartAt)
		}
		if !regexp.MustCompile(`^[A-Z0-9]{2}\d{1,4}$`).MatchString(sg.FlightNumber) {
			t.Errorf("flight number %q", sg.FlightNumber)
		}
		if sg.Aircraft == "" || !isWide(sg.Aircraft) {
			t.Errorf("%s flies a %q, want a wide-body", sg.FlightNumber, sg.Aircraft)
		}
	}
	for _, c := range []string{"CA", "BA"} {
		if !nonstop[c] {
			t.Errorf("no %s nonstop PEK→LHR among %d offers (nonstop carriers %v)", c, len(offers), nonstop)
		}
	}
	for _, o := range offers {
		if o.Supplier != "gds" || o.Currency != "CNY" || o.Total() <= 0 || o.Ref == "" || o.ValidatingCarrier == "" {
			t.Errorf("incomplete offer %+v", o)
		}
		if !o.ExpiresAt.Equal(testNow.Add(30 * time.Minute)) {
			t.Errorf("expires %v", o.ExpiresAt)
		}
		if !slices.Contains([]int{60, 120, 2880}, o.TicketingMinutes) {
			t.Errorf("ticketing %d min", o.TicketingMinutes)
		}
		for _, sg := range o.Segments {
			if !regexp.MustCompile(`^[A-Z][HL][WX](7|14|21)?[A-Z]{2}$`).MatchString(sg.FareBasis) {
				t.Errorf("fare basis %q", sg.FareBasis)
			}
			if al, _ := geo.AirlineByCode(sg.Carrier); al.LowCost {
				t.Errorf("gds sells low-cost %s", sg.Carrier)
			}
		}
		for _, f := range o.Fares {
			if f.Taxes < f.AirportTax+f.FuelSurcharge || f.FuelSurcharge == 0 {
				t.Errorf("taxes %+v", f)
			}
		}
	}
	if !slices.IsSortedFunc(offers, func(a, b supplier.Offer) int { return int(a.Total() - b.Total()) }) {
		t.Error("offers not cheapest first")
	}
}

func TestDomesticChina(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	offers := search(t, s, oneWay("PEK", "SHA", "2026-03-20", 1))
	flights := map[string]map[string]bool{}
	for _, o := range offers {
		if len(o.Segments) != 1 {
			continue
		}
		sg := o.Segments[0]
		if flights[sg.Carrier] == nil {
			flights[sg.Carrier] = map[string]bool{}
		}
		flights[sg.Carrier][sg.FlightNumber] = true
		if sg.DurationMinutes < 100 || sg.DurationMinutes > 170 {
			t.Errorf("%s takes %d min", sg.FlightNumber, sg.DurationMinutes)
		}
		if h := sg.DepartAt.Hour(); h >= 1 && h < 5 || h == 5 && sg.DepartAt.Minute() < 30 {
			t.Errorf("%s leaves at %s", sg.FlightNumber, sg.DepartAt.Format("15:04"))
		}
		if !slices.Equal(o.Restrictions.Documents, []string{"idcard", "passport"}) {
			t.Errorf("domestic gds fare takes %v", o.Restrictions.Documents)
		}
		if o.Fares[0].FuelSurcharge == 0 || o.Fares[0].AirportTax != 5000 {
			t.Errorf("domestic taxes %+v", o.Fares[0])
		}
	}
	for _, c := range []string{"CA", "MU"} {
		if n := len(flights[c]); n < 6 {
			t.Errorf("%s has %d PEK→SHA flights, want many", c, n)
		}
	}
}

func TestConnections(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"gds", "ndc"} {
		t.Run(p, func(t *testing.T) {
			s, _ := newSim(t, p)
			offers := search(t, s, oneWay("PEK", "LHR", "2026-03-20", 1))
			connecting := 0
			for _, o := range offers {
				for _, j := range o.Journeys {
					for k := 1; k < len(j); k++ {
						connecting++
						a, b := o.Segments[j[k-1]], o.Segments[j[k]]
						if a.Destination != b.Origin {
							t.Fatalf("%s→%s do not connect", a.FlightNumber, b.FlightNumber)
						}
						mct := minConnect(b.Origin, o.Segments[j[0]].Origin, o.Segments[j[len(j)-1]].Destination)
						gap := b.DepartAt.Sub(a.ArriveAt)
						if gap < mct || gap > 24*time.Hour {
							t.Errorf("%s→%s at %s: %v layover (minimum %v)", a.FlightNumber, b.FlightNumber, b.Origin, gap, mct)
						}
						if p == "ndc" && a.Carrier != b.Carrier {
							t.Errorf("ndc interline %s→%s", a.FlightNumber, b.FlightNumber)
						}
					}
				}
				if p == "ndc" && !ndcCarriers[o.ValidatingCarrier] {
					t.Errorf("ndc sells %s", o.ValidatingCarrier)
				}
			}
			if connecting == 0 {
				t.Error("no connections PEK→LHR")
			}
		})
	}
}

func TestNDCBrands(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "ndc")
	offers := search(t, s, oneWay("PEK", "LHR", "2026-03-20", 1))
	byItin := map[string][]supplier.Offer{}
	for _, o := range offers {
		k := ""
		for _, sg := range o.Segments {
			k += sg.FlightNumber + sg.DepartAt.String()
		}
		byItin[k] = append(byItin[k], o)
	}
	if len(byItin) == 0 {
		t.Fatal("no offers")
	}
	for _, os := range byItin {
		if len(os) != 3 {
			t.Fatalf("%d brands for one itinerary", len(os))
		}
		slices.SortFunc(os, func(a, b supplier.Offer) int { return int(a.Total() - b.Total()) })
		basic, flex := os[0], os[2]
		if basic.Brand == flex.Brand || basic.Brand == "" {
			t.Errorf("brands %q %q", basic.Brand, flex.Brand)
		}
		if basic.Baggage.CheckedPieces >= flex.Baggage.CheckedPieces || basic.Conditions.Refundable || !flex.Conditions.Refundable {
			t.Errorf("basic %+v %+v vs flex %+v %+v", basic.Baggage, basic.Conditions, flex.Baggage, flex.Conditions)
		}
		if basic.TicketingMinutes != 30 || !basic.ExpiresAt.Equal(testNow.Add(20*time.Minute)) {
			t.Errorf("ticketing %d, expires %v", basic.TicketingMinutes, basic.ExpiresAt)
		}
	}
}

func TestLCC(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "lcc")
	req := lccRequest(t)
	j := req.Journeys[0]
	req.Journeys = append(req.Journeys, supplier.JourneyQuery{Origin: j.Destination, Destination: j.Origin, Date: "2026-03-25"})
	offers := search(t, s, req)
	if len(offers) == 0 {
		t.Fatalf("no lcc offers for %+v", req.Journeys)
	}
	back := false
	for i, o := range offers {
		if len(o.Segments) != 1 || !slices.Equal(o.Journeys[0], []int{0}) || len(o.Journeys) != 1 {
			t.Fatalf("lcc offer %d: %d segments, journeys %v", i, len(o.Segments), o.Journeys)
		}
		sg := o.Segments[0]
		if al, _ := geo.AirlineByCode(sg.Carrier); !al.LowCost {
			t.Errorf("lcc sells %s", sg.Carrier)
		}
		if o.Baggage.CheckedPieces != 0 || o.Baggage.CheckedKg != 0 || o.Fares[0].FuelSurcharge != 0 || o.Conditions.Refundable {
			t.Errorf("lcc offer %+v %+v %+v", o.Baggage, o.Fares[0], o.Conditions)
		}
		isBack := geo.CityOf(sg.Origin) == geo.CityOf(j.Destination) || sg.Origin == j.Destination
		if back && !isBack {
			t.Error("lcc offers not in journey order")
		}
		back = back || isBack
	}
	if !back {
		t.Error("no offers for the return journey")
	}
	if got := search(t, s, supplier.SearchRequest{Journeys: req.Journeys[:1], Passengers: req.Passengers, Cabin: supplier.CabinBusiness}); len(got) != 0 {
		t.Errorf("lcc sells business: %d offers", len(got))
	}
}

func TestPassengerTypes(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	req := oneWay("PEK", "LHR", "2026-03-20", 2)
	req.Passengers.Child, req.Passengers.Infant = 1, 1
	for _, o := range search(t, s, req) {
		if len(o.Fares) != 3 {
			t.Fatalf("fares %+v", o.Fares)
		}
		ad, ch, in := o.Fares[0], o.Fares[1], o.Fares[2]
		if ad.Type != supplier.Adult || ad.Count != 2 || ch.Type != supplier.Child || ch.Count != 1 || in.Type != supplier.Infant || in.Count != 1 {
			t.Fatalf("fares %+v", o.Fares)
		}
		if r := float64(ch.Base) / float64(ad.Base); math.Abs(r-0.75) > 0.01 {
			t.Errorf("child pays %.3f of adult", r)
		}
		if r := float64(in.Base) / float64(ad.Base); math.Abs(r-0.10) > 0.01 {
			t.Errorf("infant pays %.3f of adult", r)
		}
		if in.Taxes != 0 || ch.Taxes == 0 {
			t.Errorf("taxes child %d infant %d", ch.Taxes, in.Taxes)
		}
		if o.Total() != 2*ad.Total()+ch.Total()+in.Total() {
			t.Errorf("total %d", o.Total())
		}
	}
	bad := []supplier.Passengers{{}, {Adult: 1, Infant: 2}, {Adult: 10}, {Adult: -1, Child: 2}}
	for _, p := range bad {
		req.Passengers = p
		if _, err := s.Search(context.Background(), req); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("%+v: err = %v, want ErrRejected", p, err)
		}
	}
}

func TestAdvancePurchase(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	avg := func(date string) float64 {
		offers := search(t, s, oneWay("PEK", "SHA", date, 1))
		var sum int64
		for _, o := range offers {
			sum += o.Total()
		}
		return float64(sum) / float64(len(offers))
	}
	soon, early := avg("2026-03-02"), avg("2026-04-20")
	if early >= soon*0.9 {
		t.Errorf("booking 50 days out averages %.0f, 1 day out %.0f: want cheaper", early/100, soon/100)
	}
}

func TestSeatsLimit(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	one := search(t, s, oneWay("PEK", "LHR", "2026-03-20", 1))
	nine := search(t, s, oneWay("PEK", "LHR", "2026-03-20", 9))
	for _, o := range nine {
		for _, sg := range o.Segments {
			if sg.SeatsLeft < 9 {
				t.Errorf("%s class %s offered to 9 with %d seats left", sg.FlightNumber, sg.BookingClass, sg.SeatsLeft)
			}
		}
	}
	// A fare with few seats is not sold to a bigger party.
	for _, o := range one {
		left := math.MaxInt
		for _, sg := range o.Segments {
			left = min(left, sg.SeatsLeft)
		}
		if left >= 9 {
			continue
		}
		pax := supplier.Passengers{Adult: left + 1}
		res, err := s.Price(context.Background(), o, pax)
		if err != nil || res.Status != supplier.PriceInvalid {
			t.Errorf("pricing %d seats of a fare with %d: %v %v", left+1, left, res.Status, err)
		}
		return
	}
	t.Error("no fare with fewer than 9 seats left")
}

func TestPriceOutcomes(t *testing.T) {
	t.Parallel()
	base, _ := newSim(t, "gds")
	offers := search(t, base, oneWay("PEK", "LHR", "2026-03-20", 1))
	offer := offers[0]
	pax := supplier.Passengers{Adult: 1}

	t.Run("ok", func(t *testing.T) {
		other, _ := newSim(t, "gds") // another instance: the Ref is enough
		res, err := other.Price(context.Background(), offer, pax)
		if err != nil || res.Status != supplier.PriceOK || mustJSON(t, res.Offer) != mustJSON(t, offer) {
			t.Fatalf("status %v err %v", res.Status, err)
		}
	})
	tests := []struct {
		status supplier.PriceStatus
		check  func(t *testing.T, got supplier.Offer)
	}{
		{supplier.PriceChanged, func(t *testing.T, got supplier.Offer) {
			r := float64(got.Total())/float64(offer.Total()) - 1
			if math.Abs(r) < 0.025 || math.Abs(r) > 0.16 {
				t.Errorf("price moved %.3f", r)
			}
		}},
		{supplier.PackageChanged, func(t *testing.T, got supplier.Offer) {
			if got.Baggage == offer.Baggage && got.Conditions == offer.Conditions {
				t.Error("package unchanged")
			}
		}},
		{supplier.PriceInvalid, func(t *testing.T, got supplier.Offer) {
			if got.Ref != "" {
				t.Error("invalid with an offer")
			}
		}},
		{supplier.DocumentRestrictionChanged, func(t *testing.T, got supplier.Offer) {
			if slices.Equal(got.Restrictions.Documents, offer.Restrictions.Documents) || len(got.Restrictions.Documents) == 0 {
				t.Errorf("documents %v → %v", offer.Restrictions.Documents, got.Restrictions.Documents)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.status), func(t *testing.T) {
			s, c := newSim(t, "gds", func(c *Config) {
				c.Volatility = 1
				c.PriceOutcomes = []supplier.PriceStatus{tt.status}
			})
			c.t = testNow.Add(5 * time.Minute)
			res, err := s.Price(context.Background(), offer, pax)
			if err != nil || res.Status != tt.status {
				t.Fatalf("status %v err %v, want %v", res.Status, err, tt.status)
			}
			tt.check(t, res.Offer)
			if tt.status == supplier.PriceInvalid {
				return
			}
			if res.Offer.Ref == offer.Ref || !res.Offer.ExpiresAt.Equal(c.t.Add(30*time.Minute)) {
				t.Errorf("changed offer keeps ref or expiry: %v", res.Offer.ExpiresAt)
			}
			// The changed offer prices as is on a calm instance.
			calm, cc := newSim(t, "gds")
			cc.t = c.t
			again, err := calm.Price(context.Background(), res.Offer, pax)
			if err != nil || again.Status != supplier.PriceOK || again.Offer.Total() != res.Offer.Total() {
				t.Errorf("re-pricing the changed offer: %v %v", again.Status, err)
			}
		})
	}
	t.Run("default mix reaches every outcome", func(t *testing.T) {
		s, _ := newSim(t, "gds", func(c *Config) { c.Volatility = 1 })
		seen := map[supplier.PriceStatus]bool{}
		for i := 0; i < 200 && len(seen) < 4; i++ {
			res, err := s.Price(context.Background(), offers[i%len(offers)], pax)
			if err != nil {
				t.Fatal(err)
			}
			seen[res.Status] = true
		}
		if len(seen) != 4 || seen[supplier.PriceOK] {
			t.Errorf("outcomes %v", seen)
		}
	})
	t.Run("expired", func(t *testing.T) {
		s, c := newSim(t, "gds")
		c.t = testNow.Add(31 * time.Minute)
		if res, err := s.Price(context.Background(), offer, pax); err != nil || res.Status != supplier.PriceInvalid {
			t.Errorf("status %v err %v", res.Status, err)
		}
	})
	t.Run("departed", func(t *testing.T) {
		s, c := newSim(t, "gds")
		c.t = offer.Segments[0].DepartAt.Add(time.Hour)
		if res, err := s.Price(context.Background(), offer, pax); err != nil || res.Status != supplier.PriceInvalid {
			t.Errorf("status %v err %v", res.Status, err)
		}
	})
	t.Run("tampered price", func(t *testing.T) {
		o := offer
		o.Fares = slices.Clone(o.Fares)
		o.Fares[0].Base -= 10000
		res, err := base.Price(context.Background(), o, pax)
		if err != nil || res.Status != supplier.PriceChanged || res.Offer.Total() != offer.Total() {
			t.Errorf("status %v err %v", res.Status, err)
		}
	})
	t.Run("foreign ref", func(t *testing.T) {
		ndc, _ := newSim(t, "ndc")
		if _, err := ndc.Price(context.Background(), offer, pax); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("err = %v", err)
		}
		o := offer
		o.Ref = offer.Ref[:len(offer.Ref)-1] + "x"
		if _, err := base.Price(context.Background(), o, pax); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("garbled ref: err = %v", err)
		}
	})
}

func TestFailures(t *testing.T) {
	t.Parallel()
	req := oneWay("PEK", "SHA", "2026-03-20", 1)
	t.Run("error rate 1 always fails", func(t *testing.T) {
		s, _ := newSim(t, "gds", func(c *Config) { c.ErrorRate = 1 })
		for i := 0; i < 5; i++ {
			if _, err := s.Search(context.Background(), req); !errors.Is(err, supplier.ErrUnavailable) {
				t.Fatalf("err = %v", err)
			}
		}
		if _, err := s.Ticket(context.Background(), "ABCDEF"); !errors.Is(err, supplier.ErrUnavailable) {
			t.Fatalf("ticket err = %v", err)
		}
	})
	t.Run("error rate is per attempt", func(t *testing.T) {
		s, _ := newSim(t, "gds", func(c *Config) { c.ErrorRate = 0.5 })
		fails := 0
		for i := 0; i < 40; i++ {
			if _, err := s.Search(context.Background(), req); err != nil {
				fails++
			}
		}
		if fails < 8 || fails > 32 {
			t.Errorf("%d of 40 failed at rate 0.5", fails)
		}
	})
	t.Run("time-out holds until the deadline", func(t *testing.T) {
		s, _ := newSim(t, "gds", func(c *Config) { c.TimeoutRate = 1 })
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		// Measured against the context's own deadline: a pause between
		// setting it and a start time taken after (a loaded machine under
		// -race paused 9 ms once) made a 41 ms answer look early.
		deadline, _ := ctx.Deadline()
		_, err := s.Search(ctx, req)
		answered := time.Now()
		if !errors.Is(err, supplier.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v", err)
		}
		if answered.Before(deadline) || answered.Sub(deadline) > 2*time.Second {
			t.Errorf("answered %v after the deadline", answered.Sub(deadline))
		}
	})
	t.Run("latency cut by the deadline", func(t *testing.T) {
		s, _ := newSim(t, "gds", func(c *Config) { c.Latency = 10 * time.Second })
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		start := time.Now()
		if _, err := s.Search(ctx, req); !errors.Is(err, supplier.ErrTimeout) {
			t.Fatalf("err = %v", err)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("answered after %v", el)
		}
	})
	t.Run("latency", func(t *testing.T) {
		s, _ := newSim(t, "gds", func(c *Config) { c.Latency = 60 * time.Millisecond; c.LatencyJitter = Off })
		start := time.Now()
		search(t, s, req)
		if el := time.Since(start); el < 60*time.Millisecond {
			t.Errorf("answered after %v, want at least 60ms", el)
		}
	})
	t.Run("zero latency answers at once", func(t *testing.T) {
		s, _ := newSim(t, "gds")
		search(t, s, req) // warm the timetable
		start := time.Now()
		search(t, s, req)
		if el := time.Since(start); el > 500*time.Millisecond {
			t.Errorf("answered after %v", el)
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		s, _ := newSim(t, "gds")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Search(ctx, req); !errors.Is(err, supplier.ErrTimeout) || !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
}

func traveller(typ, surname, birthday string) supplier.Traveller {
	return supplier.Traveller{Type: typ, Surname: surname, GivenName: "ALEX", Gender: "male", Birthday: birthday,
		Nationality: "GB", DocumentType: "passport", DocumentNumber: "E12345678", DocumentExpiry: "2031-01-01"}
}

// refundable finds an offer whose fare is refundable and changeable.
func refundable(t *testing.T, offers []supplier.Offer) supplier.Offer {
	t.Helper()
	for _, o := range offers {
		if o.Conditions.Refundable && o.Conditions.Changeable && o.Conditions.RefundFee > 0 && len(o.Restrictions.IneligibleCountries) == 0 {
			return o
		}
	}
	t.Fatal("no refundable offer")
	return supplier.Offer{}
}

func TestBookingFlow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, c := newSim(t, "gds")
	req := oneWay("PEK", "LHR", "2026-03-20", 1)
	req.Passengers.Infant = 1
	offer := refundable(t, search(t, s, req))
	br := supplier.BookRequest{
		Offer:      offer,
		Travellers: []supplier.Traveller{traveller(supplier.Adult, "SMITH", "1980-05-01"), traveller(supplier.Infant, "SMITH", "2025-06-01")},
		Contact:    supplier.Contact{Name: "Alex Smith", Email: "a@example.com", Phone: "+441234"},
		Key:        "order-1",
	}
	bk, err := s.Book(ctx, br)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[A-Z2-9]{6}$`).MatchString(bk.PNR) || bk.Ref == "" || bk.Total != offer.Total() || bk.Currency != "CNY" {
		t.Errorf("booking %+v", bk)
	}
	if !bk.TicketBy.After(testNow) {
		t.Errorf("ticket by %v", bk.TicketBy)
	}
	again, err := s.Book(ctx, br)
	if err != nil || again != bk {
		t.Errorf("retried Book gave %+v, %v", again, err)
	}
	other, _ := newSim(t, "gds")
	if b2, err := other.Book(ctx, br); err != nil || b2.PNR != bk.PNR {
		t.Errorf("PNR not deterministic from the key: %v %v", b2.PNR, err)
	}

	tickets, err := s.Ticket(ctx, bk.Ref)
	if err != nil || len(tickets) != 2 {
		t.Fatalf("tickets %v, %v", tickets, err)
	}
	for i, tk := range tickets {
		if tk.Traveller != i || !regexp.MustCompile(`^\d{13}$`).MatchString(tk.Number) {
			t.Errorf("ticket %+v", tk)
		}
		if offer.ValidatingCarrier == "CA" && tk.Number[:3] != "999" || offer.ValidatingCarrier == "BA" && tk.Number[:3] != "125" {
			t.Errorf("ticket %s of %s", tk.Number, offer.ValidatingCarrier)
		}
	}
	if again, _ := s.Ticket(ctx, bk.Ref); !slices.Equal(again, tickets) {
		t.Error("re-ticketing gave other numbers")
	}
	if err := s.Cancel(ctx, bk.Ref); !errors.Is(err, supplier.ErrRejected) {
		t.Errorf("cancel ticketed: %v", err)
	}

	c.t = testNow.Add(time.Hour)
	q, err := s.RefundQuote(ctx, bk.Ref)
	if err != nil {
		t.Fatal(err)
	}
	if q.Fee != offer.Conditions.RefundFee || q.Refund != offer.Total()-q.Fee || q.Currency != "CNY" || !q.ExpiresAt.After(c.t) {
		t.Errorf("quote %+v for total %d fee %d", q, offer.Total(), offer.Conditions.RefundFee)
	}
	if err := s.Refund(ctx, bk.Ref, "nope"); !errors.Is(err, supplier.ErrNotFound) {
		t.Errorf("refund bad quote: %v", err)
	}
	if err := s.Refund(ctx, bk.Ref, q.Ref); err != nil {
		t.Fatal(err)
	}
	// Again, as a job run again after a crash does, after the quote
	// lapsed: the refund was made, once.
	c.t = c.t.Add(24 * time.Hour)
	if err := s.Refund(ctx, bk.Ref, q.Ref); err != nil {
		t.Errorf("confirming the refund again: %v", err)
	}
	if err := s.Refund(ctx, bk.Ref, "nope"); !errors.Is(err, supplier.ErrRejected) {
		t.Errorf("refund of a refunded booking with an unknown quote: %v", err)
	}
	if _, err := s.RefundQuote(ctx, bk.Ref); !errors.Is(err, supplier.ErrRejected) {
		t.Errorf("refund quote after refund: %v", err)
	}
	if _, err := s.Ticket(ctx, "ZZZZZZ"); !errors.Is(err, supplier.ErrNotFound) {
		t.Errorf("unknown booking: %v", err)
	}
}

func TestNonRefundableReturnsTaxes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSim(t, "lcc")
	offers := search(t, s, lccRequest(t))
	bk, err := s.Book(ctx, supplier.BookRequest{Offer: offers[0], Travellers: []supplier.Traveller{traveller(supplier.Adult, "LI", "")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ticket(ctx, bk.Ref); err != nil {
		t.Fatal(err)
	}
	q, err := s.RefundQuote(ctx, bk.Ref)
	if err != nil {
		t.Fatal(err)
	}
	if q.Refund != offers[0].Fares[0].Taxes || q.Fee != offers[0].Fares[0].Base {
		t.Errorf("quote %+v for fare %+v", q, offers[0].Fares[0])
	}
}

func TestVoidSameDayOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		after time.Duration
		ok    bool
	}{
		{"same day", 2 * time.Hour, true},
		{"next day", 26 * time.Hour, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, c := newSim(t, "gds")
			c.t = time.Date(2026, 3, 1, 1, 0, 0, 0, time.UTC) // 09:00 in Beijing
			offers := search(t, s, oneWay("PEK", "SHA", "2026-03-20", 1))
			bk, err := s.Book(ctx, supplier.BookRequest{Offer: offers[0], Travellers: []supplier.Traveller{traveller(supplier.Adult, "WANG", "1990-01-01")}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Ticket(ctx, bk.Ref); err != nil {
				t.Fatal(err)
			}
			c.t = c.t.Add(tt.after)
			err = s.Void(ctx, bk.Ref)
			if tt.ok && err != nil || !tt.ok && !errors.Is(err, supplier.ErrRejected) {
				t.Errorf("void: %v", err)
			}
		})
	}
}

func TestBookChecks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, c := newSim(t, "gds")
	offers := search(t, s, oneWay("PEK", "SHA", "2026-03-20", 1))
	offer := offers[0]
	tests := []struct {
		name string
		edit func(*supplier.BookRequest)
		want error
	}{
		{"document not accepted", func(r *supplier.BookRequest) { r.Travellers[0].DocumentType = "eep" }, supplier.ErrRejected},
		{"adult too young", func(r *supplier.BookRequest) { r.Travellers[0].Birthday = "2020-01-01" }, supplier.ErrRejected},
		{"bad surname", func(r *supplier.BookRequest) { r.Travellers[0].Surname = "O'NEIL" }, supplier.ErrRejected},
		{"no travellers", func(r *supplier.BookRequest) { r.Travellers = nil }, supplier.ErrRejected},
		{"tampered price", func(r *supplier.BookRequest) {
			r.Offer.Fares = slices.Clone(r.Offer.Fares)
			r.Offer.Fares[0].Base = 1
		}, supplier.ErrRejected},
		{"expired offer", func(r *supplier.BookRequest) { c.t = testNow.Add(time.Hour) }, supplier.ErrOfferGone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = testNow
			r := supplier.BookRequest{Offer: offer, Travellers: []supplier.Traveller{traveller(supplier.Adult, "WANG", "1990-01-01")}}
			tt.edit(&r)
			if _, err := s.Book(ctx, r); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestTicketAfterTimeLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, c := newSim(t, "ndc")
	offers := search(t, s, oneWay("PEK", "LHR", "2026-03-20", 1))
	bk, err := s.Book(ctx, supplier.BookRequest{Offer: offers[0], Travellers: []supplier.Traveller{traveller(supplier.Adult, "SMITH", "")}})
	if err != nil {
		t.Fatal(err)
	}
	c.t = bk.TicketBy.Add(time.Minute)
	if _, err := s.Ticket(ctx, bk.Ref); !errors.Is(err, supplier.ErrOfferGone) {
		t.Errorf("late ticketing: %v", err)
	}
	if err := s.Cancel(ctx, bk.Ref); err != nil {
		t.Errorf("cancel expired: %v", err)
	}
}

func TestChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, c := newSim(t, "gds")
	offer := refundable(t, search(t, s, oneWay("PEK", "LHR", "2026-03-20", 1)))
	bk, err := s.Book(ctx, supplier.BookRequest{Offer: offer, Travellers: []supplier.Traveller{traveller(supplier.Adult, "SMITH", "1980-05-01")}})
	if err != nil {
		t.Fatal(err)
	}
	old, err := s.Ticket(ctx, bk.Ref)
	if err != nil {
		t.Fatal(err)
	}
	c.t = testNow.Add(2 * time.Hour)
	quotes, err := s.ChangeQuotes(ctx, bk.Ref, []supplier.JourneyQuery{{Origin: "PEK", Destination: "LHR", Date: "2026-03-22"}})
	if err != nil || len(quotes) == 0 {
		t.Fatalf("%d quotes, %v", len(quotes), err)
	}
	for _, q := range quotes {
		if q.Offer == nil || q.Offer.ValidatingCarrier != offer.ValidatingCarrier || q.Due < q.Fee || q.Fee != offer.Conditions.ChangeFee {
			t.Errorf("quote %+v", q)
		}
		if q.Due != max(q.Offer.Total()-offer.Total(), 0)+q.Fee {
			t.Errorf("due %d for %d → %d + fee %d", q.Due, offer.Total(), q.Offer.Total(), q.Fee)
		}
	}
	changed, err := s.Change(ctx, bk.Ref, quotes[0].Ref)
	if err != nil {
		t.Fatal(err)
	}
	if changed.PNR != bk.PNR || changed.Total != quotes[0].Offer.Total() {
		t.Errorf("changed %+v", changed)
	}
	tickets, _ := s.Ticket(ctx, bk.Ref)
	if tickets[0].Number == old[0].Number {
		t.Error("tickets not reissued")
	}
	// Confirming the same quote again (a job run again after a crash)
	// answers the booking as changed, without changing it twice.
	again, err := s.Change(ctx, bk.Ref, quotes[0].Ref)
	if err != nil || again.PNR != changed.PNR || again.Total != changed.Total {
		t.Errorf("confirming the change again: %+v, %v; want %+v", again, err, changed)
	}
	if after, _ := s.Ticket(ctx, bk.Ref); !slices.Equal(after, tickets) {
		t.Errorf("confirming the change again reissued %v, had %v", after, tickets)
	}
	if len(quotes) > 1 {
		if _, err := s.Change(ctx, bk.Ref, quotes[1].Ref); !errors.Is(err, supplier.ErrNotFound) {
			t.Errorf("another quote of the same request after the change: %v", err)
		}
	}
}

// londonRoundTrip is one adult's Beijing–London round trip, out on 20
// March 2026 and back a week later.
func londonRoundTrip() supplier.SearchRequest {
	return supplier.SearchRequest{
		Journeys: []supplier.JourneyQuery{
			{Origin: "PEK", Destination: "LHR", Date: "2026-03-20"},
			{Origin: "LHR", Destination: "PEK", Date: "2026-03-27"},
		},
		Passengers: supplier.Passengers{Adult: 1},
	}
}

func TestMultiJourney(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	req := londonRoundTrip()
	rt := search(t, s, req)
	if len(rt) == 0 {
		t.Fatal("no return offers")
	}
	for _, o := range rt {
		if len(o.Journeys) != 2 {
			t.Fatalf("journeys %v", o.Journeys)
		}
		out, back := o.Segments[o.Journeys[0][len(o.Journeys[0])-1]], o.Segments[o.Journeys[1][0]]
		if !back.DepartAt.After(out.ArriveAt) {
			t.Errorf("return leaves before arrival")
		}
		for _, j := range o.Journeys {
			for _, i := range j {
				if i < 0 || i >= len(o.Segments) {
					t.Fatalf("journey index %d", i)
				}
			}
		}
	}
	// A return is cheaper than its two one-ways: by about a quarter on a
	// long-haul route (the one-way premium), hardly on a short one.
	for _, c := range []struct {
		from, to string
		lo, hi   float64
	}{{"PEK", "LHR", 0.6, 0.8}, {"PEK", "SHA", 0.85, 0.99}} {
		req := supplier.SearchRequest{Passengers: supplier.Passengers{Adult: 1}, Journeys: []supplier.JourneyQuery{
			{Origin: c.from, Destination: c.to, Date: "2026-03-20"}, {Origin: c.to, Destination: c.from, Date: "2026-03-27"}}}
		ow := func(q supplier.JourneyQuery, seg supplier.Segment) int64 {
			for _, o := range search(t, s, supplier.SearchRequest{Journeys: []supplier.JourneyQuery{q}, Passengers: req.Passengers}) {
				if len(o.Segments) == 1 && o.Segments[0].FlightNumber == seg.FlightNumber && o.Segments[0].BookingClass == seg.BookingClass {
					return o.Fares[0].Base
				}
			}
			return 0
		}
		compared := 0
		for _, o := range search(t, s, req) {
			if len(o.Segments) != 2 {
				continue
			}
			a, b := ow(req.Journeys[0], o.Segments[0]), ow(req.Journeys[1], o.Segments[1])
			if a == 0 || b == 0 {
				continue
			}
			compared++
			if r := float64(o.Fares[0].Base) / float64(a+b); r < c.lo || r > c.hi {
				t.Errorf("%s-%s: return base %d is %.2f of one-ways %d + %d, want %.2f-%.2f", c.from, c.to, o.Fares[0].Base, r, a, b, c.lo, c.hi)
			}
		}
		if compared == 0 {
			t.Errorf("%s-%s: no nonstop return to compare", c.from, c.to)
		}
	}
}

func TestSearchEdges(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	tests := []struct {
		name   string
		req    supplier.SearchRequest
		want   error
		offers bool
	}{
		{"unknown airport", oneWay("PEK", "QQQ", "2026-03-20", 1), nil, false},
		{"past date", oneWay("PEK", "SHA", "2026-02-20", 1), nil, false},
		{"beyond the schedule", oneWay("PEK", "SHA", "2027-06-20", 1), nil, false},
		{"bad date", oneWay("PEK", "SHA", "20/03/2026", 1), supplier.ErrRejected, false},
		{"no journeys", supplier.SearchRequest{Passengers: supplier.Passengers{Adult: 1}}, supplier.ErrRejected, false},
		{"bad cabin", supplier.SearchRequest{Journeys: oneWay("PEK", "SHA", "2026-03-20", 1).Journeys, Passengers: supplier.Passengers{Adult: 1}, Cabin: "deluxe"}, supplier.ErrRejected, false},
		{"business", supplier.SearchRequest{Journeys: oneWay("PEK", "LHR", "2026-03-20", 1).Journeys, Passengers: supplier.Passengers{Adult: 1}, Cabin: supplier.CabinBusiness}, nil, true},
		{"carrier filter", supplier.SearchRequest{Journeys: oneWay("PEK", "LHR", "2026-03-20", 1).Journeys, Passengers: supplier.Passengers{Adult: 1}, Carriers: []string{"BA"}}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			offers, err := s.Search(context.Background(), tt.req)
			if !errors.Is(err, tt.want) || (len(offers) > 0) != tt.offers {
				t.Fatalf("%d offers, err %v", len(offers), err)
			}
			for _, o := range offers {
				for _, sg := range o.Segments {
					if tt.req.Cabin != "" && sg.Cabin != tt.req.Cabin {
						t.Errorf("cabin %s", sg.Cabin)
					}
					if len(tt.req.Carriers) > 0 && !slices.Contains(tt.req.Carriers, sg.Carrier) {
						t.Errorf("carrier %s", sg.Carrier)
					}
				}
			}
		})
	}
}

func TestCurrency(t *testing.T) {
	t.Parallel()
	cny, _ := newSim(t, "gds")
	usd, _ := newSim(t, "gds", func(c *Config) { c.Currency = "USD" })
	jpy, _ := newSim(t, "gds", func(c *Config) { c.Currency = "JPY" })
	req := oneWay("PEK", "SHA", "2026-03-20", 1)
	a, b, c := search(t, cny, req)[0], search(t, usd, req)[0], search(t, jpy, req)[0]
	if b.Currency != "USD" || c.Currency != "JPY" {
		t.Fatal(b.Currency, c.Currency)
	}
	if r := float64(a.Total()) / float64(b.Total()); r < 6.5 || r > 8 {
		t.Errorf("CNY/USD %.2f", r)
	}
	// JPY has no minor unit: ¥ ≈ CNY/0.048, and CNY is in fen.
	if r := float64(c.Total()) / (float64(a.Total()) / 100); r < 18 || r > 23 {
		t.Errorf("JPY per CNY %.2f", r)
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds", func(c *Config) { c.Volatility = 0.5 })
	ctx := context.Background()
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			offers, err := s.Search(ctx, oneWay("PEK", "SHA", "2026-03-2"+string(rune('0'+g)), 1))
			if err == nil && len(offers) > 0 {
				_, err = s.Price(ctx, offers[0], supplier.Passengers{Adult: 1})
			}
			if err == nil && len(offers) > 0 {
				_, err = s.Book(ctx, supplier.BookRequest{Offer: offers[0], Key: "k" + string(rune('0'+g%2)),
					Travellers: []supplier.Traveller{traveller(supplier.Adult, "CHEN", "1985-02-03")}})
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	s, _ := newSim(b, "gds")
	req := londonRoundTrip()
	ctx := context.Background()
	offers := 0
	b.ReportAllocs()
	for b.Loop() {
		got, err := s.Search(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		offers += len(got)
	}
	b.ReportMetric(float64(offers)/float64(b.N), "offers/op")
}

// A direct search answers the nonstop flights of the same search without
// the connections: the same flights at the same prices, nothing else.
func TestSearchDirect(t *testing.T) {
	t.Parallel()
	s, _ := newSim(t, "gds")
	all, err := s.Search(context.Background(), oneWay("PEK", "LHR", "2026-03-20", 1))
	if err != nil {
		t.Fatal(err)
	}
	req := oneWay("PEK", "LHR", "2026-03-20", 1)
	req.Direct = true
	direct, err := s.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	summary := func(offers []supplier.Offer, nonstopOnly bool) []string {
		var out []string
		for _, o := range offers {
			if nonstopOnly && len(o.Segments) != 1 {
				continue
			}
			var b strings.Builder
			for _, sg := range o.Segments {
				b.WriteString(sg.FlightNumber + " " + sg.DepartAt.Format(time.RFC3339) + " ")
			}
			fmt.Fprintf(&b, "%s %d", o.Brand, o.Total())
			out = append(out, b.String())
		}
		slices.Sort(out)
		return out
	}
	want := summary(all, true)
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("PEK-LHR: %d offers, %d nonstop; want both nonstops and connections", len(all), len(want))
	}
	if got := summary(direct, false); !slices.Equal(got, want) {
		t.Fatalf("direct search: %d offers %v\nwant the %d nonstops of the full search %v", len(got), got, len(want), want)
	}
}

// The simulator draws a call's outcome from its request's key: the key must
// not change with how it is written.
func TestSearchKey(t *testing.T) {
	t.Parallel()
	req := oneWay("PEK", "LHR", "2026-03-20", 2)
	req.Passengers.Child, req.Cabin, req.Carriers = 1, "business", []string{"CA", "BA"}
	if got, want := SearchKey(req), "PEKLHR2026-03-20/2.1.0/business/CA,BA"; got != want {
		t.Errorf("key %q, want %q", got, want)
	}
	req.Direct = true
	if got, want := SearchKey(req), "PEKLHR2026-03-20/2.1.0/business/CA,BA/direct"; got != want {
		t.Errorf("direct key %q, want %q", got, want)
	}
}

// TestHangRedrawnOnAnotherInstance: a call that hung until its deadline is
// not bound to hang again when it is retried by another instance (or the
// same one restarted), whose attempt counts start over: of the calls that
// hung on the first, some answer on the second.
func TestHangRedrawnOnAnotherInstance(t *testing.T) {
	t.Parallel()
	first, _ := newSim(t, "gds", func(c *Config) { c.TimeoutRate = 0.5 })
	second, _ := newSim(t, "gds", func(c *Config) { c.TimeoutRate = 0.5 })
	hung, answered := 0, 0
	for i := range 60 {
		req := oneWay("PEK", "SHA", fmt.Sprintf("2026-03-%02d", 1+i%28), 1+i/28)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		_, err := first.Search(ctx, req)
		cancel()
		if !errors.Is(err, supplier.ErrTimeout) {
			continue
		}
		hung++
		ctx, cancel = context.WithTimeout(context.Background(), 10*time.Millisecond)
		if _, err := second.Search(ctx, req); err == nil {
			answered++
		}
		cancel()
	}
	if hung == 0 || answered == 0 {
		t.Fatalf("%d calls hung on the first instance, %d of them answered on the second", hung, answered)
	}
}

// TestBookRetriedKey: a booking's key is looked up only when the booking
// cannot go ahead, so the retries a caller makes must still be answered
// with the live booking: when the offer would now be refused (its price
// changed meanwhile), and when the same request is sent again as is. A key
// whose booking was cancelled books anew.
func TestBookRetriedKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSim(t, "gds")
	offer := refundable(t, search(t, s, oneWay("PEK", "LHR", "2026-03-20", 1)))
	br := supplier.BookRequest{Offer: offer, Key: "order-7",
		Travellers: []supplier.Traveller{traveller(supplier.Adult, "SMITH", "1980-05-01")}}
	bk, err := s.Book(ctx, br)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := s.Book(ctx, br); err != nil || again != bk {
		t.Errorf("the same request again gave %+v, %v; want %+v", again, err, bk)
	}
	stale := br
	stale.Offer.Fares = slices.Clone(offer.Fares)
	stale.Offer.Fares[0].Base++
	if again, err := s.Book(ctx, stale); err != nil || again != bk {
		t.Errorf("a retry the source would now refuse gave %+v, %v; want the live booking", again, err)
	}
	other := stale
	other.Key = "order-8"
	if _, err := s.Book(ctx, other); !errors.Is(err, supplier.ErrRejected) {
		t.Errorf("a new key at a changed price: %v, want refused", err)
	}

	if err := s.Cancel(ctx, bk.Ref); err != nil {
		t.Fatal(err)
	}
	fresh, err := s.Book(ctx, br)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Ref == bk.Ref {
		t.Errorf("the key of a cancelled booking answered it again: %+v", fresh)
	}
	if again, err := s.Book(ctx, br); err != nil || again != fresh {
		t.Errorf("after booking anew the key gave %+v, %v; want %+v", again, err, fresh)
	}
}
