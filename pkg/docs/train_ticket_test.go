package docs

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func sampleTrainOrder(issued bool) Train {
	dep := time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC) // 09:00 in China
	o := Train{BookingNumber: "T26112500000007", Status: "to_be_paid", RailwayRef: "E123456789",
		Number: "G1", Origin: "VNP", Destination: "AOH", DepartAt: dep, ArriveAt: dep.Add(4*time.Hour + 28*time.Minute),
		SeatClass: "second", Total: Money{Amount: "1106.00", Currency: "CNY"},
		Passengers: []TrainPassenger{
			{ID: 1, Type: "adult", Surname: "张", GivenName: "伟", DocumentType: "id_card", DocumentNumber: "11010519491231002X"},
			{ID: 2, Type: "student", Surname: "Smith", GivenName: "Anna", DocumentType: "passport", DocumentNumber: "E12345678"},
		}}
	if issued {
		// The second passenger's ticket was refunded: only the first is
		// valid for travel.
		o.Status = "partially_refunded"
		o.Tickets = []TrainTicketLine{
			{Passenger: 1, Number: "E987654321", TrainNumber: "G1", Origin: "VNP", Destination: "AOH", DepartAt: dep,
				Class: "second", Coach: "05", Seat: "12F", Fare: Money{Amount: "553.00", Currency: "CNY"}},
		}
	}
	return o
}

// TestTrainTicketPDF: one page per passenger; a valid ticket shows its
// coach, seat and number in China time; a refunded or unissued one is
// marked not valid for travel, in each language.
func TestTrainTicketPDF(t *testing.T) {
	t.Parallel()
	stations := map[string]string{"VNP": "北京南", "AOH": "上海虹桥"}
	for _, c := range []struct {
		lang    string
		issued  bool
		want    []string
		notWant []string
	}{
		{"zh-cn", true, []string{"火车电子客票", "E987654321", "05 / 12F", "2026-12-01 09:00", "北京南 (VNP)", "二等座", "该车票未出票"}, nil},
		{"en", false, []string{"Train e-ticket", "Not issued", "This ticket is not issued"}, []string{"E987654321"}},
		{"zh-tw", true, []string{"火車電子客票", "E987654321"}, nil},
	} {
		t.Run(c.lang, func(t *testing.T) {
			d, err := buildTrainTicket(TrainTicket{Train: sampleTrainOrder(c.issued), Lang: c.lang, T: translator(t, c.lang),
				Station: func(code string) string { return stations[code] }, Date: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			raw, text := ticketPDF(t, d)
			wantInPDFText(t, text, append([]string{"T26112500000007", "G1"}, c.want...)...)
			for _, w := range c.notWant {
				if strings.Contains(text, w) {
					t.Errorf("%q in the PDF text", w)
				}
			}
			if m := regexp.MustCompile(`/Count (\d+)`).FindStringSubmatch(raw); m == nil || m[1] != "2" {
				t.Errorf("page count %v, want one page per passenger", m)
			}
		})
	}
}

// A changed ticket is for another train: its e-ticket prints that train's
// arrival (it printed none, the order's arrival being the first train's),
// and a ticket kept without one still prints the order's when it is for the
// order's train.
func TestTrainTicketChangedArrival(t *testing.T) {
	t.Parallel()
	stations := map[string]string{"VNP": "北京南", "AOH": "上海虹桥"}
	changed := sampleTrainOrder(true)
	dep := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC) // 14:00 in China
	arr := dep.Add(5*time.Hour + 7*time.Minute)         // 19:07
	changed.Tickets[0].TrainNumber, changed.Tickets[0].DepartAt, changed.Tickets[0].ArriveAt = "G17", dep, &arr
	for _, c := range []struct {
		name  string
		order Train
		want  []string
	}{
		{"changed", changed, []string{"G17", "2026-12-02 14:00", "2026-12-02 19:07"}},
		{"first train, no arrival kept", sampleTrainOrder(true), []string{"G1", "2026-12-01 09:00", "2026-12-01 13:28"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := buildTrainTicket(TrainTicket{Train: c.order, Lang: "en", T: translator(t, "en"),
				Station: func(code string) string { return stations[code] }, Date: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			_, text := ticketPDF(t, d)
			wantInPDFText(t, text, c.want...)
		})
	}
}
