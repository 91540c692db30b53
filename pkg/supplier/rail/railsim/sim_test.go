package railsim

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier/rail"
	"github.com/voyage/voyage/pkg/supplier/sim"
)

// clock is a settable test clock.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) set(t time.Time)     { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *testClock) add(d time.Duration) { c.set(c.now().Add(d)) }

// start is a Tuesday morning; the sales window runs to 2026-12-15.
var start = time.Date(2026, 12, 1, 8, 0, 0, 0, china)

func newSim(t testing.TB, seed int64) (*Supplier, *testClock) {
	t.Helper()
	c := &testClock{t: start}
	cfg := Steady(seed)
	cfg.Clock = c.now
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// idCard makes a valid resident ID card number from 17 digits.
func idCard(first17 string) string { return first17 + string(rail.IDCardCheck(first17)) }

func adults(n int, letter string) []rail.Passenger {
	out := make([]rail.Passenger, n)
	for i := range out {
		out[i] = rail.Passenger{Type: rail.TicketAdult, Surname: "Wang", GivenName: fmt.Sprintf("Lei%d", i),
			DocumentType: rail.DocIDCard, DocumentNumber: idCard(fmt.Sprintf("110101199003%05d", 7000+i)), SeatLetter: letter}
	}
	return out
}

func search(t testing.TB, s *Supplier, o, d, date string) []rail.Offer {
	t.Helper()
	offers, err := s.Search(context.Background(), rail.SearchRequest{Origin: o, Destination: d, Date: date})
	if err != nil {
		t.Fatalf("search %s–%s %s: %v", o, d, date, err)
	}
	return offers
}

func find(t testing.TB, offers []rail.Offer, train string) rail.Offer {
	t.Helper()
	for _, o := range offers {
		if o.TrainNumber == train {
			return o
		}
	}
	t.Fatalf("%s not among the offers", train)
	return rail.Offer{}
}

func avail(t testing.TB, s *Supplier, o rail.Offer, class string) int {
	t.Helper()
	date := o.DepartAt.In(china).Format(time.DateOnly)
	c, ok := find(t, search(t, s, o.Origin, o.Destination, date), o.TrainNumber).Class(class)
	if !ok {
		t.Fatalf("%s has no %s", o.TrainNumber, class)
	}
	return c.Available
}

// preBook pre-books pax in class on o.
func preBook(t testing.TB, s *Supplier, o rail.Offer, class string, pax []rail.Passenger) rail.Booking {
	t.Helper()
	b, err := s.PreBook(context.Background(), rail.PreBookRequest{OfferRef: o.Ref, Class: class, Passengers: pax})
	if err != nil {
		t.Fatalf("prebook %s %s: %v", o.TrainNumber, class, err)
	}
	return b
}

// book pre-books pax in class on o and confirms it.
func book(t testing.TB, s *Supplier, o rail.Offer, class string, pax []rail.Passenger) rail.Booking {
	t.Helper()
	b, err := s.Confirm(context.Background(), preBook(t, s, o, class, pax).Ref)
	if err != nil {
		t.Fatalf("confirm %s: %v", b.Ref, err)
	}
	return b
}

// The published Beijing South–Shanghai Hongqiao G second-class fare is 553
// yuan at the floor and up to 662 at peak (market pricing since 2020).
func TestSearchBeijingShanghai(t *testing.T) {
	s, _ := newSim(t, 1)
	for _, date := range []string{"2026-12-01", "2026-12-04", "2026-12-08"} { // Tue (partly gone), Fri, Tue
		offers := search(t, s, "VNP", "AOH", date)
		var g, z int
		var low, high bool
		for _, o := range offers {
			if !o.DepartAt.After(start) {
				t.Errorf("%s left at %s, before now", o.TrainNumber, o.DepartAt)
			}
			if got := o.DepartAt.In(china).Format(time.DateOnly); got != date {
				t.Errorf("%s departs %s, asked %s", o.TrainNumber, got, date)
			}
			if len(o.Stops) < 2 || o.Stops[0].Station != o.Origin || o.Stops[len(o.Stops)-1].Station != o.Destination {
				t.Errorf("%s: stops %v do not run %s to %s", o.TrainNumber, o.Stops, o.Origin, o.Destination)
			}
			if o.DurationMinutes <= 0 || !o.ArriveAt.After(o.DepartAt) {
				t.Errorf("%s: duration %d", o.TrainNumber, o.DurationMinutes)
			}
			var n int
			fmt.Sscanf(strings.TrimLeft(o.TrainNumber, "GDCZTK"), "%d", &n)
			if n%2 != 1 {
				t.Errorf("%s runs away from Beijing with an even number", o.TrainNumber)
			}
			switch o.TrainType {
			case rail.TypeG:
				g++
				if o.Origin != "VNP" || o.Destination != "AOH" || o.DistanceKm != 1318 {
					t.Errorf("%s: %s–%s %d km, want VNP–AOH 1318 km", o.TrainNumber, o.Origin, o.Destination, o.DistanceKm)
				}
				sec, ok := o.Class(rail.ClassSecond)
				if !ok {
					t.Fatalf("%s has no second class", o.TrainNumber)
				}
				if sec.Price.Minor < 55300 || sec.Price.Minor > 66200 || sec.Price.Currency != "CNY" {
					t.Errorf("%s second class %s %s, want 553–662 CNY", o.TrainNumber, sec.Price, sec.Price.Currency)
				}
				low = low || sec.Price.Minor == 55300
				high = high || sec.Price.Minor == 66200
				if !reflect.DeepEqual(sec.SeatLetters, []string{"A", "B", "C", "D", "F"}) {
					t.Errorf("%s second-class letters %v", o.TrainNumber, sec.SeatLetters)
				}
				for _, c := range []string{rail.ClassBusiness, rail.ClassFirst} {
					if _, ok := o.Class(c); !ok {
						t.Errorf("%s has no %s", o.TrainNumber, c)
					}
				}
				if o.TrainNumber == "G1" && (o.DurationMinutes < 260 || o.DurationMinutes > 290) {
					t.Errorf("G1 takes %d min, the real one about 4 h 30", o.DurationMinutes)
				}
			case rail.TypeZ:
				z++
				if o.Origin != "BJP" || o.Destination != "SHH" {
					t.Errorf("%s: %s–%s, want the conventional BJP–SHH", o.TrainNumber, o.Origin, o.Destination)
				}
			}
		}
		if g < 10 {
			t.Errorf("%s: %d G trains", date, g)
		}
		if date == "2026-12-04" {
			if z == 0 {
				t.Error("no Z train from Beijing station (the city's other stations are searched too)")
			}
			if !high {
				t.Error("no Friday peak G at 662 yuan")
			}
		}
		if date == "2026-12-08" && !low {
			t.Error("no G at the 553-yuan floor")
		}
	}
}

func TestSearchUpDirectionEven(t *testing.T) {
	s, _ := newSim(t, 1)
	offers := search(t, s, "AOH", "VNP", "2026-12-05")
	if len(offers) == 0 {
		t.Fatal("no trains Shanghai to Beijing")
	}
	for _, o := range offers {
		var n int
		fmt.Sscanf(strings.TrimLeft(o.TrainNumber, "GDCZTK"), "%d", &n)
		if n%2 != 0 {
			t.Errorf("%s runs towards Beijing with an odd number", o.TrainNumber)
		}
	}
	for i := 1; i < len(offers); i++ {
		if offers[i].DepartAt.Before(offers[i-1].DepartAt) {
			t.Fatalf("offers not in departure order at %d", i)
		}
	}
}

func TestSearchIntermediateAndPassengerFares(t *testing.T) {
	s, _ := newSim(t, 1)
	offers, err := s.Search(context.Background(), rail.SearchRequest{Origin: "JGK", Destination: "NKH", Date: "2026-12-03",
		Passengers: []string{rail.TicketAdult, rail.TicketChild, rail.TicketStudent}})
	if err != nil {
		t.Fatal(err)
	}
	if len(offers) == 0 {
		t.Fatal("no Jinan West–Nanjing South trains")
	}
	o := offers[0]
	if o.DistanceKm != 1023-406 {
		t.Errorf("Jinan West–Nanjing South %d km, want %d", o.DistanceKm, 1023-406)
	}
	sec, _ := o.Class(rail.ClassSecond)
	adult, child, student := sec.Fares[rail.TicketAdult], sec.Fares[rail.TicketChild], sec.Fares[rail.TicketStudent]
	if adult != sec.Price || child.Minor != roundHalfYuan(float64(adult.Minor)/2) || student.Minor != roundHalfYuan(float64(adult.Minor)*0.75) {
		t.Errorf("fares adult %v child %v student %v", adult, child, student)
	}
	first, _ := o.Class(rail.ClassFirst)
	if first.Fares[rail.TicketStudent] != first.Price {
		t.Errorf("student discount applied in first class: %v of %v", first.Fares[rail.TicketStudent], first.Price)
	}
}

func TestSearchErrors(t *testing.T) {
	for _, c := range []struct {
		name      string
		o, d, day string
		pax       []string
		want      error
	}{
		{"same station", "VNP", "VNP", "2026-12-03", nil, rail.ErrSameStation},
		{"same city", "VNP", "BJP", "2026-12-03", nil, rail.ErrSameStation},
		{"unknown origin", "XXX", "AOH", "2026-12-03", nil, rail.ErrUnknownStation},
		{"unknown destination", "VNP", "", "2026-12-03", nil, rail.ErrUnknownStation},
		{"yesterday", "VNP", "AOH", "2026-11-30", nil, rail.ErrOutsideSalesWindow},
		{"16th day", "VNP", "AOH", "2026-12-16", nil, rail.ErrOutsideSalesWindow},
		{"malformed date", "VNP", "AOH", "12/03/2026", nil, rail.ErrRejected},
		{"no train links them", "KOM", "HBB", "2026-12-03", nil, rail.ErrNoService},
		{"unknown ticket type", "VNP", "AOH", "2026-12-03", []string{"infant"}, rail.ErrRejected},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSim(t, 1)
			_, err := s.Search(context.Background(), rail.SearchRequest{Origin: c.o, Destination: c.d, Date: c.day, Passengers: c.pax})
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestSalesWindowConfigurable(t *testing.T) {
	p := rail.ChinaRailway()
	p.SalesWindowDays = 30
	cfg := Steady(1)
	cfg.Policy = &p
	cfg.Clock = func() time.Time { return start }
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := search(t, s, "VNP", "AOH", "2026-12-25"); len(got) == 0 {
		t.Fatal("no trains 24 days ahead with a 30-day window")
	}
	if first, last := s.SalesWindow(); first != "2026-12-01" || last != "2026-12-30" {
		t.Fatalf("window %s..%s", first, last)
	}
}

func TestDeterminism(t *testing.T) {
	a, _ := newSim(t, 7)
	b, _ := newSim(t, 7)
	c, _ := newSim(t, 8)
	oa := search(t, a, "BXP", "IZQ", "2026-12-06")
	ob := search(t, b, "BXP", "IZQ", "2026-12-06")
	oc := search(t, c, "BXP", "IZQ", "2026-12-06")
	if !reflect.DeepEqual(oa, ob) {
		t.Fatal("the same seed gave different offers")
	}
	if len(oa) != len(oc) {
		t.Fatalf("the timetable depends on the seed: %d vs %d trains", len(oa), len(oc))
	}
	sameAvail := true
	for i := range oa {
		if oa[i].TrainNumber != oc[i].TrainNumber || !oa[i].DepartAt.Equal(oc[i].DepartAt) {
			t.Fatalf("train %d differs by seed: %s vs %s", i, oa[i].TrainNumber, oc[i].TrainNumber)
		}
		for j := range oa[i].Classes {
			if oa[i].Classes[j].Price != oc[i].Classes[j].Price {
				t.Errorf("%s %s price depends on the seed", oa[i].TrainNumber, oa[i].Classes[j].Class)
			}
			if oa[i].Classes[j].Available != oc[i].Classes[j].Available {
				sameAvail = false
			}
		}
	}
	if sameAvail {
		t.Error("another seed gave the same seat availability everywhere")
	}
}

func TestSellsOut(t *testing.T) {
	s, _ := newSim(t, 3)
	// The smallest business-class stock on the Friday G trains.
	var o rail.Offer
	left := 1 << 30
	for _, x := range search(t, s, "VNP", "AOH", "2026-12-04") {
		if c, ok := x.Class(rail.ClassBusiness); ok && c.Available > 0 && c.Available < left {
			o, left = x, c.Available
		}
	}
	if o.Ref == "" {
		t.Fatal("no G with business seats left")
	}
	for i := 0; i < left; i++ {
		book(t, s, o, rail.ClassBusiness, adults(1, ""))
		if got := avail(t, s, o, rail.ClassBusiness); got != left-i-1 {
			t.Fatalf("after %d bookings %d left, want %d", i+1, got, left-i-1)
		}
	}
	_, err := s.PreBook(context.Background(), rail.PreBookRequest{OfferRef: o.Ref, Class: rail.ClassBusiness, Passengers: adults(1, "")})
	if !errors.Is(err, rail.ErrSoldOut) {
		t.Fatalf("booking a sold-out class: %v, want ErrSoldOut", err)
	}
}

func TestSellsOutConcurrently(t *testing.T) {
	s, _ := newSim(t, 5)
	o := search(t, s, "ICW", "CQW", "2026-12-02")[0]
	c, _ := o.Class(rail.ClassFirst)
	var ok sync.WaitGroup
	var mu sync.Mutex
	got, out := 0, 0
	for i := 0; i < c.Available+10; i++ {
		ok.Add(1)
		go func() {
			defer ok.Done()
			_, err := s.PreBook(context.Background(), rail.PreBookRequest{OfferRef: o.Ref, Class: rail.ClassFirst, Passengers: adults(1, "")})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				got++
			case errors.Is(err, rail.ErrSoldOut):
				out++
			default:
				t.Error(err)
			}
		}()
	}
	ok.Wait()
	if got != c.Available || out != 10 {
		t.Fatalf("%d booked and %d sold out, want %d and 10", got, out, c.Available)
	}
}

func TestPreBookHoldExpiry(t *testing.T) {
	s, clk := newSim(t, 1)
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-03"), "G3")
	before := avail(t, s, o, rail.ClassSecond)
	b := preBook(t, s, o, rail.ClassSecond, adults(2, ""))
	if b.Status != rail.StatusPreBooked || !b.HoldExpiresAt.Equal(start.Add(DefaultHoldTTL)) || len(b.Tickets) != 0 {
		t.Fatalf("pre-booking %+v", b)
	}
	if b.Total.Minor != 2*o.Classes[2].Price.Minor {
		t.Errorf("total %v for two at %v", b.Total, o.Classes[2].Price)
	}
	if got := avail(t, s, o, rail.ClassSecond); got != before-2 {
		t.Fatalf("held seats not taken: %d left, want %d", got, before-2)
	}
	clk.add(DefaultHoldTTL)
	if _, err := s.Confirm(context.Background(), b.Ref); !errors.Is(err, rail.ErrHoldExpired) {
		t.Fatalf("confirming after the hold: %v, want ErrHoldExpired", err)
	}
	got, err := s.Booking(context.Background(), b.Ref)
	if err != nil || got.Status != rail.StatusExpired {
		t.Fatalf("booking after hold: %v %v", got.Status, err)
	}
	clk.set(start) // the offer is still valid then; availability is back
	if got := avail(t, s, o, rail.ClassSecond); got != before {
		t.Fatalf("expired hold kept its seats: %d left, want %d", got, before)
	}
}

func TestCancelReleases(t *testing.T) {
	s, _ := newSim(t, 1)
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-03"), "G5")
	before := avail(t, s, o, rail.ClassFirst)
	b := preBook(t, s, o, rail.ClassFirst, adults(1, ""))
	if err := s.Cancel(context.Background(), b.Ref); err != nil {
		t.Fatal(err)
	}
	if err := s.Cancel(context.Background(), b.Ref); err != nil {
		t.Fatalf("cancelling twice: %v", err)
	}
	if got := avail(t, s, o, rail.ClassFirst); got != before {
		t.Fatalf("cancel kept the seat: %d, want %d", got, before)
	}
	if _, err := s.Confirm(context.Background(), b.Ref); !errors.Is(err, rail.ErrRejected) {
		t.Fatalf("confirming a cancelled booking: %v", err)
	}
	t2 := book(t, s, o, rail.ClassFirst, adults(1, ""))
	if err := s.Cancel(context.Background(), t2.Ref); !errors.Is(err, rail.ErrRejected) {
		t.Fatalf("cancelling a ticketed booking: %v, want ErrRejected", err)
	}
	if err := s.Cancel(context.Background(), "nope"); !errors.Is(err, rail.ErrNotFound) {
		t.Fatal("cancelling an unknown booking is not ErrNotFound")
	}
}

func TestOfferExpired(t *testing.T) {
	s, clk := newSim(t, 1)
	o := search(t, s, "VNP", "AOH", "2026-12-03")[0]
	clk.add(DefaultOfferTTL + time.Second)
	_, err := s.PreBook(context.Background(), rail.PreBookRequest{OfferRef: o.Ref, Class: rail.ClassSecond, Passengers: adults(1, "")})
	if !errors.Is(err, rail.ErrOfferExpired) {
		t.Fatalf("pre-booking a 15-minute-old offer: %v, want ErrOfferExpired", err)
	}
	for _, ref := range []string{"", "garbage", "20261203.G9999.VNP.AOH.1", "20261203.G1.AOH.VNP.99999999999"} {
		_, err := s.PreBook(context.Background(), rail.PreBookRequest{OfferRef: ref, Class: rail.ClassSecond, Passengers: adults(1, "")})
		if !errors.Is(err, rail.ErrNotFound) {
			t.Errorf("offer %q: %v, want ErrNotFound", ref, err)
		}
	}
}

func TestPreBookIdempotent(t *testing.T) {
	s, _ := newSim(t, 1)
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-03"), "G7")
	before := avail(t, s, o, rail.ClassSecond)
	req := rail.PreBookRequest{OfferRef: o.Ref, Class: rail.ClassSecond, Passengers: adults(2, ""), Key: "k1"}
	a, err := s.PreBook(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.PreBook(context.Background(), req)
	if err != nil || a.Ref != b.Ref {
		t.Fatalf("retried pre-booking: %s vs %s (%v)", a.Ref, b.Ref, err)
	}
	if got := avail(t, s, o, rail.ClassSecond); got != before-2 {
		t.Fatalf("retry took seats again: %d, want %d", got, before-2)
	}
	c1, _ := s.Confirm(context.Background(), a.Ref)
	c2, err := s.Confirm(context.Background(), a.Ref)
	if err != nil || !reflect.DeepEqual(c1, c2) {
		t.Fatalf("confirming twice changed the booking (%v)", err)
	}
}

func TestPassengerChecks(t *testing.T) {
	s, _ := newSim(t, 1)
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-03"), "G9")
	z := find(t, search(t, s, "BJP", "SHH", "2026-12-03"), "Z281")
	good := adults(1, "")[0]
	for _, c := range []struct {
		name  string
		offer rail.Offer
		class string
		edit  func(*rail.Passenger)
		ok    bool
	}{
		{"valid id card", o, rail.ClassSecond, func(*rail.Passenger) {}, true},
		{"id card check digit", o, rail.ClassSecond, func(p *rail.Passenger) {
			p.DocumentNumber = p.DocumentNumber[:17] + map[bool]string{true: "1", false: "2"}[p.DocumentNumber[17] != '1']
		}, false},
		{"passport", o, rail.ClassSecond, func(p *rail.Passenger) { p.DocumentType, p.DocumentNumber = rail.DocPassport, "E12345678" }, true},
		{"bad passport", o, rail.ClassSecond, func(p *rail.Passenger) { p.DocumentType, p.DocumentNumber = rail.DocPassport, "E1-2" }, false},
		{"hk macao permit", o, rail.ClassSecond, func(p *rail.Passenger) { p.DocumentType, p.DocumentNumber = rail.DocHKMacaoPermit, "H12345678" }, true},
		{"taiwan permit", o, rail.ClassSecond, func(p *rail.Passenger) { p.DocumentType, p.DocumentNumber = rail.DocTaiwanPermit, "12345678" }, true},
		{"unknown document", o, rail.ClassSecond, func(p *rail.Passenger) { p.DocumentType = "driving_licence" }, false},
		{"no name", o, rail.ClassSecond, func(p *rail.Passenger) { p.Surname = " " }, false},
		{"bad ticket type", o, rail.ClassSecond, func(p *rail.Passenger) { p.Type = "infant" }, false},
		{"seat letter F", o, rail.ClassSecond, func(p *rail.Passenger) { p.SeatLetter = "f" }, true},
		{"no E in second class", o, rail.ClassSecond, func(p *rail.Passenger) { p.SeatLetter = "E" }, false},
		{"no B in first class", o, rail.ClassFirst, func(p *rail.Passenger) { p.SeatLetter = "B" }, false},
		{"no letters on sleepers", z, rail.ClassSoftSleeper, func(p *rail.Passenger) { p.SeatLetter = "A" }, false},
		{"class the train lacks", z, rail.ClassSecond, func(*rail.Passenger) {}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := good
			c.edit(&p)
			_, err := s.PreBook(context.Background(), rail.PreBookRequest{OfferRef: c.offer.Ref, Class: c.class, Passengers: []rail.Passenger{p}})
			if c.ok && err != nil {
				t.Fatal(err)
			}
			if !c.ok && !errors.Is(err, rail.ErrRejected) {
				t.Fatalf("err = %v, want ErrRejected", err)
			}
		})
	}
}

func TestTicketingUniqueSeats(t *testing.T) {
	s, _ := newSim(t, 2)
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-05"), "G13")
	seats := map[string]bool{}
	numbers := map[string]bool{}
	for i := 0; i < 30; i++ {
		letter := ""
		if i%3 == 0 {
			letter = "F"
		}
		b := book(t, s, o, rail.ClassSecond, adults(4, letter))
		if b.Status != rail.StatusTicketed || len(b.Tickets) != 4 {
			t.Fatalf("booking %s: %s with %d tickets", b.Ref, b.Status, len(b.Tickets))
		}
		for j, tk := range b.Tickets {
			if tk.Passenger != j || tk.Number == "" || tk.Coach == "" || len(tk.Seat) != 3 || tk.Status != rail.TicketIssued {
				t.Fatalf("ticket %+v", tk)
			}
			if !strings.Contains("ABCDF", tk.Seat[2:]) {
				t.Errorf("second-class seat %s has no A B C D F letter", tk.Seat)
			}
			if letter != "" && tk.Seat[2:] != letter {
				t.Errorf("asked for %s, seated at %s", letter, tk.Seat)
			}
			if tk.TrainNumber != "G13" || tk.Class != rail.ClassSecond || !tk.DepartAt.Equal(o.DepartAt) {
				t.Errorf("ticket for %s %s %s", tk.TrainNumber, tk.Class, tk.DepartAt)
			}
			key := tk.Coach + "/" + tk.Seat
			if seats[key] {
				t.Fatalf("coach %s seat %s sold twice", tk.Coach, tk.Seat)
			}
			seats[key] = true
			if numbers[tk.Number] {
				t.Fatalf("ticket number %s twice", tk.Number)
			}
			numbers[tk.Number] = true
		}
	}
}

// bookAhead books a G1 ticket on 2026-12-12 (11 days ahead) and returns it
// with its departure.
func bookAhead(t *testing.T, s *Supplier, n int) (rail.Booking, time.Time) {
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-12"), "G1")
	return book(t, s, o, rail.ClassSecond, adults(n, "")), o.DepartAt
}

func TestRefundFeeBands(t *testing.T) {
	for _, c := range []struct {
		name   string
		before time.Duration
		pct    int64
		closed bool
	}{
		{"9 days: free", 9 * 24 * time.Hour, 0, false},
		{"8 days: free", 8 * 24 * time.Hour, 0, false},
		{"5 days: 5%", 5 * 24 * time.Hour, 5, false},
		{"48 h: 5%", 48 * time.Hour, 5, false},
		{"30 h: 10%", 30 * time.Hour, 10, false},
		{"24 h: 10%", 24 * time.Hour, 10, false},
		{"10 h: 20%", 10 * time.Hour, 20, false},
		{"31 min: 20%", 31 * time.Minute, 20, false},
		{"29 min: closed", 29 * time.Minute, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, clk := newSim(t, 4)
			b, dep := bookAhead(t, s, 2)
			clk.set(dep.Add(-c.before))
			ro, err := s.RefundOffer(context.Background(), b.Ref, []int{1})
			if c.closed {
				if !errors.Is(err, rail.ErrRefundClosed) {
					t.Fatalf("err = %v, want ErrRefundClosed", err)
				}
				later := find(t, search(t, s, "VNP", "AOH", dep.In(china).Format(time.DateOnly)), "G3")
				if _, err := s.ExchangeOffer(context.Background(), rail.ExchangeRequest{BookingRef: b.Ref, OfferRef: later.Ref, Class: rail.ClassSecond}); !errors.Is(err, rail.ErrRefundClosed) {
					t.Fatalf("exchange when closed: %v, want ErrRefundClosed", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			fare := b.Tickets[1].Fare.Minor
			want := roundHalfYuan(float64(fare * c.pct / 100))
			if ro.Fare.Minor != fare || ro.Fee.Minor != want || ro.Refund.Minor != fare-want {
				t.Fatalf("refund offer fare %v fee %v refund %v; want fee %d of %d", ro.Fare, ro.Fee, ro.Refund, want, fare)
			}
			if !reflect.DeepEqual(ro.Passengers, []int{1}) {
				t.Fatalf("passengers %v", ro.Passengers)
			}
			if ro.ValidUntil.After(dep.Add(-30 * time.Minute)) {
				t.Fatalf("offer valid until %s, past the close", ro.ValidUntil)
			}
		})
	}
}

func TestPartialRefund(t *testing.T) {
	s, clk := newSim(t, 4)
	b, dep := bookAhead(t, s, 2)
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-12"), "G1")
	before := avail(t, s, o, rail.ClassSecond)
	clk.set(dep.Add(-72 * time.Hour))
	ro, err := s.RefundOffer(context.Background(), b.Ref, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ConfirmRefund(context.Background(), b.Ref, ro.Ref)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != rail.StatusTicketed || got.Tickets[0].Status != rail.TicketRefunded || got.Tickets[1].Status != rail.TicketIssued {
		t.Fatalf("after refunding one: %s %s %s", got.Status, got.Tickets[0].Status, got.Tickets[1].Status)
	}
	again, err := s.ConfirmRefund(context.Background(), b.Ref, ro.Ref)
	if err != nil || !reflect.DeepEqual(again, got) {
		t.Fatalf("confirming the refund again: %v", err)
	}
	if _, err := s.RefundOffer(context.Background(), b.Ref, []int{0}); !errors.Is(err, rail.ErrRejected) {
		t.Fatalf("refunding a refunded ticket: %v", err)
	}
	clk.set(start)
	if n := avail(t, s, o, rail.ClassSecond); n != before+1 {
		t.Fatalf("refunded seat not back on sale: %d, want %d", n, before+1)
	}
	clk.set(dep.Add(-72 * time.Hour))
	rest, err := s.RefundOffer(context.Background(), b.Ref, nil)
	if err != nil || !reflect.DeepEqual(rest.Passengers, []int{1}) {
		t.Fatalf("refund of the rest: %v %v", rest.Passengers, err)
	}
	clk.add(afterSalesTTL + time.Second)
	if _, err := s.ConfirmRefund(context.Background(), b.Ref, rest.Ref); !errors.Is(err, rail.ErrOfferExpired) {
		t.Fatalf("confirming a stale refund offer: %v, want ErrOfferExpired", err)
	}
	rest, _ = s.RefundOffer(context.Background(), b.Ref, nil)
	if got, err = s.ConfirmRefund(context.Background(), b.Ref, rest.Ref); err != nil || got.Status != rail.StatusRefunded {
		t.Fatalf("refunding everyone: %s %v", got.Status, err)
	}
	if _, err := s.ConfirmRefund(context.Background(), b.Ref, "R1"); !errors.Is(err, rail.ErrNotFound) {
		t.Fatalf("unknown refund offer: %v", err)
	}
	pre, _ := s.PreBook(context.Background(), rail.PreBookRequest{OfferRef: find(t, search(t, s, "VNP", "AOH", "2026-12-12"), "G3").Ref,
		Class: rail.ClassSecond, Passengers: adults(1, "")})
	if _, err := s.RefundOffer(context.Background(), pre.Ref, nil); !errors.Is(err, rail.ErrRejected) {
		t.Fatalf("refunding an unticketed booking: %v", err)
	}
}

func TestExchange(t *testing.T) {
	s, clk := newSim(t, 6)
	b, dep := bookAhead(t, s, 2)
	// 3 days out: any train in the window; G105 (12-12) to a D sleeper.
	clk.set(dep.Add(-72 * time.Hour))
	day := dep.In(china).Format(time.DateOnly)
	offers := search(t, s, "VNP", "AOH", day)
	g := find(t, offers, "G105")
	eo, err := s.ExchangeOffer(context.Background(), rail.ExchangeRequest{BookingRef: b.Ref, Passengers: []int{0}, OfferRef: g.Ref, Class: rail.ClassFirst})
	if err != nil {
		t.Fatal(err)
	}
	newFare, _ := g.Class(rail.ClassFirst)
	if diff := newFare.Price.Minor - b.Tickets[0].Fare.Minor; eo.Due.Minor != diff || eo.Refund.Minor != 0 {
		t.Fatalf("upgrade: due %v refund %v, want due %d", eo.Due, eo.Refund, diff)
	}
	got, err := s.ConfirmExchange(context.Background(), b.Ref, eo.Ref)
	if err != nil {
		t.Fatal(err)
	}
	tk := got.Tickets[0]
	if tk.TrainNumber != "G105" || tk.Class != rail.ClassFirst || tk.Exchanges != 1 || tk.Number == b.Tickets[0].Number || got.Tickets[1] != b.Tickets[1] {
		t.Fatalf("after exchange: %+v", got.Tickets)
	}
	if again, err := s.ConfirmExchange(context.Background(), b.Ref, eo.Ref); err != nil || !reflect.DeepEqual(again, got) {
		t.Fatalf("confirming the exchange again: %v", err)
	}
	// Once per ticket.
	d := find(t, offers, "D701")
	if _, err := s.ExchangeOffer(context.Background(), rail.ExchangeRequest{BookingRef: b.Ref, Passengers: []int{0}, OfferRef: d.Ref, Class: rail.ClassSecond}); !errors.Is(err, rail.ErrAlreadyExchanged) {
		t.Fatalf("second exchange: %v, want ErrAlreadyExchanged", err)
	}
	// A cheaper train: the difference back minus the refund fee on it (5% at 72 h).
	eo, err = s.ExchangeOffer(context.Background(), rail.ExchangeRequest{BookingRef: b.Ref, Passengers: []int{1}, OfferRef: d.Ref, Class: rail.ClassSecond})
	if err != nil {
		t.Fatal(err)
	}
	dsec, _ := d.Class(rail.ClassSecond)
	diff := b.Tickets[1].Fare.Minor - dsec.Price.Minor
	fee := roundHalfYuan(float64(diff * 5 / 100))
	if eo.Due.Minor != 0 || eo.Fee.Minor != fee || eo.Refund.Minor != diff-fee {
		t.Fatalf("downgrade: due %v fee %v refund %v; want fee %d refund %d", eo.Due, eo.Fee, eo.Refund, fee, diff-fee)
	}
	clk.add(afterSalesTTL + time.Second)
	if _, err := s.ConfirmExchange(context.Background(), b.Ref, eo.Ref); !errors.Is(err, rail.ErrOfferExpired) {
		t.Fatalf("confirming a stale exchange offer: %v, want ErrOfferExpired", err)
	}
	if _, err := s.ConfirmExchange(context.Background(), b.Ref, "X1"); !errors.Is(err, rail.ErrNotFound) {
		t.Fatalf("unknown exchange offer: %v, want ErrNotFound", err)
	}
	// Another trip is not an exchange.
	other := search(t, s, "VNP", "NKH", day)[0]
	if _, err := s.ExchangeOffer(context.Background(), rail.ExchangeRequest{BookingRef: b.Ref, Passengers: []int{1}, OfferRef: other.Ref, Class: rail.ClassSecond}); !errors.Is(err, rail.ErrRejected) {
		t.Fatalf("exchange to another trip: %v", err)
	}
}

func TestExchangeWithin48h(t *testing.T) {
	s, clk := newSim(t, 6)
	b, dep := bookAhead(t, s, 1)
	clk.set(dep.Add(-24 * time.Hour))
	next := dep.In(china).AddDate(0, 0, 1).Format(time.DateOnly)
	later := search(t, s, "VNP", "AOH", next)[0]
	if _, err := s.ExchangeOffer(context.Background(), rail.ExchangeRequest{BookingRef: b.Ref, OfferRef: later.Ref, Class: rail.ClassSecond}); !errors.Is(err, rail.ErrRejected) {
		t.Fatalf("within 48 h to the next day: %v, want ErrRejected", err)
	}
	sameDay := find(t, search(t, s, "VNP", "AOH", dep.In(china).Format(time.DateOnly)), "G19")
	if _, err := s.ExchangeOffer(context.Background(), rail.ExchangeRequest{BookingRef: b.Ref, OfferRef: sameDay.Ref, Class: rail.ClassSecond}); err != nil {
		t.Fatalf("within 48 h to a later train the same day: %v", err)
	}
}

func TestKnobs(t *testing.T) {
	req := rail.SearchRequest{Origin: "VNP", Destination: "AOH", Date: "2026-12-03"}
	mk := func(edit func(*Config)) *Supplier {
		cfg := Steady(1)
		cfg.Clock = func() time.Time { return start }
		edit(&cfg)
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if _, err := mk(func(c *Config) { c.ErrorRate = 1 }).Search(context.Background(), req); !errors.Is(err, rail.ErrUnavailable) {
		t.Errorf("ErrorRate 1: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := mk(func(c *Config) { c.TimeoutRate = 1 }).Search(ctx, req); !errors.Is(err, rail.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("TimeoutRate 1: %v", err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if _, err := mk(func(c *Config) { c.Latency = time.Minute }).Search(ctx2, req); !errors.Is(err, rail.ErrTimeout) {
		t.Errorf("latency past the deadline: %v", err)
	}
	done, cancel3 := context.WithCancel(context.Background())
	cancel3()
	if _, err := mk(func(*Config) {}).Search(done, req); !errors.Is(err, rail.ErrTimeout) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	v := mk(func(c *Config) { c.Volatility = 1 })
	o, err := v.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.PreBook(context.Background(), rail.PreBookRequest{OfferRef: o[0].Ref, Class: rail.ClassSecond, Passengers: adults(1, "")}); !errors.Is(err, rail.ErrSoldOut) {
		t.Errorf("Volatility 1: %v, want ErrSoldOut", err)
	}
	if _, err := New(Config{ErrorRate: 2}); err == nil {
		t.Error("ErrorRate 2 accepted")
	}
	bad := rail.ChinaRailway()
	bad.SalesWindowDays = 0
	if _, err := New(Config{Policy: &bad}); err == nil {
		t.Error("a policy without a sales window accepted")
	}
}

func TestTimetable(t *testing.T) {
	s, _ := newSim(t, 1)
	types := map[string]int{}
	for _, tr := range s.tt.trains {
		types[tr.typ]++
		if len(tr.calls) < 2 {
			t.Fatalf("%s has %d calls", tr.number, len(tr.calls))
		}
		for i := 1; i < len(tr.calls); i++ {
			prev, cur := tr.calls[i-1], tr.calls[i]
			if cur.km <= prev.km || cur.arrive <= prev.depart {
				t.Fatalf("%s: %s→%s goes back (km %d→%d, %v→%v)", tr.number, prev.code, cur.code, prev.km, cur.km, prev.depart, cur.arrive)
			}
			if cur.depart >= 0 && cur.depart < cur.arrive {
				t.Fatalf("%s leaves %s before arriving", tr.number, cur.code)
			}
		}
	}
	for _, typ := range []string{rail.TypeG, rail.TypeD, rail.TypeC, rail.TypeZ, rail.TypeT, rail.TypeK, rail.TypeOrdinary} {
		if types[typ] == 0 {
			t.Errorf("no %q trains", typ)
		}
	}
	for _, c := range corridors {
		if c.stops[0].km != 0 {
			t.Errorf("%s does not start at km 0", c.id)
		}
	}
}

func TestStationsAPI(t *testing.T) {
	s, _ := newSim(t, 1)
	if got := s.Stations("bjn", 5); len(got) == 0 || got[0].Code != "VNP" {
		t.Fatalf("bjn: %v", got)
	}
	if st, ok := s.Station("aoh"); !ok || st.NameHans != "上海虹桥" || st.Country != "CN" {
		t.Fatalf("AOH: %+v", st)
	}
}

func BenchmarkSearch(b *testing.B) {
	s, _ := newSim(b, 1)
	req := rail.SearchRequest{Origin: "VNP", Destination: "AOH", Date: "2026-12-04", Passengers: []string{rail.TicketAdult, rail.TicketChild}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Search(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// Two simulators on one store (two servers on one database, or one
// restarted) share the bookings and the seats: what one booked the other
// tickets, refunds and exchanges, and neither sells a place the other holds.
func TestSharedRecords(t *testing.T) {
	records := sim.NewMemoryRecords()
	clk := &testClock{t: start}
	newOn := func() *Supplier {
		cfg := Steady(1)
		cfg.Clock, cfg.Records = clk.now, records
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := newOn(), newOn()
	ctx := context.Background()
	o := find(t, search(t, a, "VNP", "AOH", "2026-12-12"), "G1")
	before := avail(t, b, o, rail.ClassSecond)
	pre, err := a.PreBook(ctx, rail.PreBookRequest{OfferRef: o.Ref, Class: rail.ClassSecond, Passengers: adults(2, ""), Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if n := avail(t, b, o, rail.ClassSecond); n != before-2 {
		t.Fatalf("the other instance sees %d seats left, want %d", n, before-2)
	}
	if again, err := b.PreBook(ctx, rail.PreBookRequest{OfferRef: o.Ref, Class: rail.ClassSecond, Passengers: adults(2, ""), Key: "k"}); err != nil || again.Ref != pre.Ref {
		t.Fatalf("the key retried on the other instance: %s vs %s (%v)", again.Ref, pre.Ref, err)
	}
	got, err := b.Confirm(ctx, pre.Ref)
	if err != nil || got.Status != rail.StatusTicketed || len(got.Tickets) != 2 || got.Tickets[0].Number == "" {
		t.Fatalf("ticketed on the other instance: %+v %v", got, err)
	}
	// A ticketed place is not freed when the hold would have run out.
	clk.add(DefaultHoldTTL + time.Minute)
	if n := avail(t, a, find(t, search(t, a, "VNP", "AOH", "2026-12-12"), "G1"), rail.ClassSecond); n != before-2 {
		t.Fatalf("ticketed seats back on sale: %d, want %d", n, before-2)
	}
	ro, err := a.RefundOffer(ctx, pre.Ref, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	if got, err = b.ConfirmRefund(ctx, pre.Ref, ro.Ref); err != nil || got.Tickets[0].Status != rail.TicketRefunded {
		t.Fatalf("refund offered on one instance, confirmed on the other: %+v %v", got, err)
	}
	o2 := find(t, search(t, b, "VNP", "AOH", "2026-12-12"), "G3")
	eo, err := b.ExchangeOffer(ctx, rail.ExchangeRequest{BookingRef: pre.Ref, OfferRef: o2.Ref, Class: rail.ClassSecond, Passengers: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err = a.ConfirmExchange(ctx, pre.Ref, eo.Ref); err != nil || got.Tickets[1].TrainNumber != "G3" {
		t.Fatalf("exchange offered on one instance, confirmed on the other: %+v %v", got, err)
	}
	if n := avail(t, a, find(t, search(t, a, "VNP", "AOH", "2026-12-12"), "G1"), rail.ClassSecond); n != before {
		t.Fatalf("refunded and exchanged places not back on G1: %d, want %d", n, before)
	}
}

func TestSleepersAndConventionalFares(t *testing.T) {
	s, _ := newSim(t, 9)
	offers := search(t, s, "BJP", "SHH", "2026-12-06")
	for _, c := range []struct {
		train, class string
		seat         string // a pattern: "NN level", "NNN" or empty
		lo, hi       int64  // adult fare range, yuan
	}{
		// Published Beijing–Shanghai conventional fares: T/Z hard seat about
		// 177.5, K about 156.5 (fare.go fits its factors to these).
		{"Z281", rail.ClassHardSeat, "NNN", 175, 180},
		{"K101", rail.ClassHardSeat, "NNN", 154, 159},
		{"Z281", rail.ClassSoftSleeper, "NN berth", 480, 520},
		{"Z281", rail.ClassDeluxeSoftSleeper, "NN berth", 900, 980},
		{"T109", rail.ClassHardSleeperLower, "NN lower", 320, 350},
		{"T109", rail.ClassHardSleeperMiddle, "NN middle", 310, 340},
		{"T109", rail.ClassHardSleeperUpper, "NN upper", 300, 330},
		{"T109", rail.ClassStanding, "", 175, 180},
	} {
		t.Run(c.train+" "+c.class, func(t *testing.T) {
			o := find(t, offers, c.train)
			cl, ok := o.Class(c.class)
			if !ok {
				t.Fatalf("%s has no %s", c.train, c.class)
			}
			if y := cl.Price.Minor / 100; y < c.lo || y > c.hi {
				t.Errorf("%s %s %s, want %d–%d yuan", c.train, c.class, cl.Price, c.lo, c.hi)
			}
			if cl.Available == 0 {
				t.Skipf("%s %s sold out with this seed", c.train, c.class)
			}
			b := book(t, s, o, c.class, adults(1, ""))
			tk := b.Tickets[0]
			if tk.Coach == "" {
				t.Fatalf("no coach on %+v", tk)
			}
			var n int
			var lv string
			switch c.seat {
			case "NNN":
				if _, err := fmt.Sscanf(tk.Seat, "%03d", &n); err != nil || len(tk.Seat) != 3 {
					t.Errorf("seat %q is not a number", tk.Seat)
				}
			case "":
				if tk.Seat != "" {
					t.Errorf("standing ticket with seat %q", tk.Seat)
				}
			default:
				if _, err := fmt.Sscanf(tk.Seat, "%02d %s", &n, &lv); err != nil {
					t.Fatalf("berth %q: %v", tk.Seat, err)
				}
				want := strings.Fields(c.seat)[1]
				if want == "berth" && lv != "lower" && lv != "upper" || want != "berth" && lv != want {
					t.Errorf("berth %q, want level %s", tk.Seat, want)
				}
			}
		})
	}
}

func TestEMUSleeper(t *testing.T) {
	s, _ := newSim(t, 9)
	o := find(t, search(t, s, "VNP", "AOH", "2026-12-06"), "D701")
	if o.ArriveAt.In(china).Hour() < 5 || o.ArriveAt.In(china).Hour() > 9 {
		t.Errorf("night sleeper arrives at %s, not in the morning", o.ArriveAt.In(china).Format("15:04"))
	}
	b := book(t, s, o, rail.ClassEMUSleeper, adults(2, ""))
	levels := map[string]bool{}
	for _, tk := range b.Tickets {
		var n int
		var lv string
		if _, err := fmt.Sscanf(tk.Seat, "%02d %s", &n, &lv); err != nil {
			t.Fatalf("berth %q: %v", tk.Seat, err)
		}
		levels[lv] = true
	}
	if !levels["lower"] && !levels["upper"] {
		t.Fatalf("berth levels %v", levels)
	}
}

// BenchmarkSearchParallel runs searches from every P at once on a warm
// simulator (inventories drawn), the engine's case of concurrent users.
func BenchmarkSearchParallel(b *testing.B) {
	s, _ := newSim(b, 1)
	req := rail.SearchRequest{Origin: "VNP", Destination: "AOH", Date: "2026-12-04", Passengers: []string{rail.TicketAdult}}
	if _, err := s.Search(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetParallelism(50)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Search(context.Background(), req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
