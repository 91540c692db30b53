package train

import (
	"slices"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

func TestValidateCreate(t *testing.T) {
	adult := Passenger{Type: "adult", Surname: "张", GivenName: "伟", DocumentType: "id_card", DocumentNumber: "11010519491231002X"}
	ok := CreateRequest{OfferID: "cr-sim~x", SeatClass: "second", Passengers: []Passenger{adult}, Contact: Contact{Name: "Zhang", Phone: "138"}}
	with := func(f func(r *CreateRequest)) CreateRequest {
		r := ok
		r.Passengers = append([]Passenger(nil), ok.Passengers...)
		f(&r)
		r.normalize()
		return r
	}
	for _, c := range []struct {
		name  string
		req   CreateRequest
		field string
	}{
		{"valid", with(func(*CreateRequest) {}), ""},
		{"lower-case id card x", with(func(r *CreateRequest) { r.Passengers[0].DocumentNumber = "11010519491231002x" }), ""},
		{"id card check digit", with(func(r *CreateRequest) { r.Passengers[0].DocumentNumber = "110105194912310021" }), "passengers[0].documentNumber"},
		{"passport too short", with(func(r *CreateRequest) {
			r.Passengers[0].DocumentType, r.Passengers[0].DocumentNumber = "passport", "E12"
		}), "passengers[0].documentNumber"},
		{"hk permit", with(func(r *CreateRequest) {
			r.Passengers[0].DocumentType, r.Passengers[0].DocumentNumber = "hk_macao_permit", "H12345678"
		}), ""},
		{"taiwan permit letters", with(func(r *CreateRequest) {
			r.Passengers[0].DocumentType, r.Passengers[0].DocumentNumber = "taiwan_permit", "T1234567"
		}), "passengers[0].documentNumber"},
		{"unknown document", with(func(r *CreateRequest) { r.Passengers[0].DocumentType = "driving_licence" }), "passengers[0].documentType"},
		{"no surname", with(func(r *CreateRequest) { r.Passengers[0].Surname = " " }), "passengers[0].surname"},
		{"child alone", with(func(r *CreateRequest) { r.Passengers[0].Type = "child" }), "passengers"},
		{"child with adult", with(func(r *CreateRequest) {
			r.Passengers = append(r.Passengers, Passenger{Type: "child", Surname: "张", GivenName: "小", DocumentType: "passport", DocumentNumber: "E1234567"})
		}), ""},
		{"same document twice", with(func(r *CreateRequest) { r.Passengers = append(r.Passengers, adult) }), "passengers[1].documentNumber"},
		{"six passengers", with(func(r *CreateRequest) {
			for i := 0; i < 5; i++ {
				r.Passengers = append(r.Passengers, Passenger{Type: "adult", Surname: "A", GivenName: "B", DocumentType: "passport", DocumentNumber: "E123456" + string(rune('0'+i))})
			}
		}), "passengers"},
		{"seat letter", with(func(r *CreateRequest) { r.Passengers[0].SeatLetter = "e" }), "passengers[0].seatLetter"},
		{"no contact phone", with(func(r *CreateRequest) { r.Contact.Phone = "" }), "contact.phone"},
		{"bad email", with(func(r *CreateRequest) { r.Contact.Email = "not-mail" }), "contact.email"},
		{"no offer", with(func(r *CreateRequest) { r.OfferID = "" }), "offerId"},
	} {
		err := c.req.validate()
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		fe, ok := fault.As(err)
		if !ok || fe.Fields[c.field] == "" {
			t.Errorf("%s: want a message on %s, got %v", c.name, c.field, err)
		}
	}
}

func TestDepartWindowAndOfferID(t *testing.T) {
	if f, to, err := departWindow("06:30", ""); err != nil || f != 390 || to != 1440 {
		t.Errorf("departWindow: %d %d %v", f, to, err)
	}
	if _, _, err := departWindow("25:00", ""); err == nil {
		t.Error("25:00 accepted")
	}
	if s, r, ok := splitOfferID("cr-sim~20261128.G1.VNP.AOH.1"); !ok || s != "cr-sim" || r != "20261128.G1.VNP.AOH.1" {
		t.Errorf("split: %s %s %v", s, r, ok)
	}
	if _, _, ok := splitOfferID("G1"); ok {
		t.Error("an id without supplier split")
	}
}

func TestSortOffers(t *testing.T) {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	offer := func(n string, dep, dur int, prices ...int64) rail.Offer {
		o := rail.Offer{Run: rail.Run{TrainNumber: n, DepartAt: day.Add(time.Duration(dep) * time.Hour), DurationMinutes: dur}}
		o.ArriveAt = o.DepartAt.Add(time.Duration(dur) * time.Minute)
		for i, p := range prices {
			o.Classes = append(o.Classes, rail.ClassOffer{Price: money.Amount{Minor: p, Currency: "CNY"}, Available: i})
		}
		return o
	}
	base := []rail.Offer{offer("G1", 7, 300, 90000, 55300), offer("G3", 8, 270, 80000, 60000), offer("K1", 9, 900, 10000, 20000)}
	for _, c := range []struct {
		by   string
		want []string
	}{
		{"", []string{"G1", "G3", "K1"}},
		{"duration", []string{"G3", "G1", "K1"}},
		// K1's cheaper class has no seats left: its price is the other's.
		{"price", []string{"K1", "G1", "G3"}},
		{"arrive", []string{"G1", "G3", "K1"}},
	} {
		got := slices.Clone(base)
		sortOffers(got, c.by)
		var names []string
		for _, o := range got {
			names = append(names, o.TrainNumber)
		}
		if !slices.Equal(names, c.want) {
			t.Errorf("sort %q: %v, want %v", c.by, names, c.want)
		}
	}
}
