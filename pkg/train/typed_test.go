package train

import (
	"testing"

	"github.com/voyage/voyage/pkg/fault"
)

func TestCheckTyped(t *testing.T) {
	o := Order{Passengers: []Passenger{{ID: 1}, {ID: 2}}}
	ok := func() []TypedTicket {
		return []TypedTicket{{PassengerID: 2, Coach: "5", Seat: " 12f ", TicketNumber: "e123456789"},
			{PassengerID: 1, Coach: "05", Seat: "07  lower", TicketNumber: "E123456790"}}
	}
	with := func(f func(ts []TypedTicket) []TypedTicket) []TypedTicket { return f(ok()) }
	for _, c := range []struct {
		name  string
		typed []TypedTicket
		field string // "" when valid
		key   string
	}{
		{"valid, any order", ok(), "", ""},
		{"unknown passenger", with(func(ts []TypedTicket) []TypedTicket { ts[0].PassengerID = 3; return ts }), "tickets[0].passengerId", "train.error.typedPassenger"},
		{"passenger twice", with(func(ts []TypedTicket) []TypedTicket { ts[1].PassengerID = 2; return ts }), "tickets[1].passengerId", "train.error.typedPassengerTwice"},
		{"passenger missing", ok()[:1], "tickets", "train.error.typedMissing"},
		{"coach letters", with(func(ts []TypedTicket) []TypedTicket { ts[0].Coach = "A"; return ts }), "tickets[0].coach", "train.error.typedCoach"},
		{"coach zero", with(func(ts []TypedTicket) []TypedTicket { ts[0].Coach = "0"; return ts }), "tickets[0].coach", "train.error.typedCoach"},
		{"coach three digits", with(func(ts []TypedTicket) []TypedTicket { ts[0].Coach = "105"; return ts }), "tickets[0].coach", "train.error.typedCoach"},
		{"seat empty", with(func(ts []TypedTicket) []TypedTicket { ts[1].Seat = "  "; return ts }), "tickets[1].seat", "train.error.typedSeat"},
		{"seat punctuation", with(func(ts []TypedTicket) []TypedTicket { ts[1].Seat = "12<F>"; return ts }), "tickets[1].seat", "train.error.typedSeat"},
		{"number short", with(func(ts []TypedTicket) []TypedTicket { ts[0].TicketNumber = "E12"; return ts }), "tickets[0].ticketNumber", "train.error.typedTicketNumber"},
		{"number punctuation", with(func(ts []TypedTicket) []TypedTicket { ts[0].TicketNumber = "E-1234567"; return ts }), "tickets[0].ticketNumber", "train.error.typedTicketNumber"},
		{"number twice (any case)", with(func(ts []TypedTicket) []TypedTicket { ts[1].TicketNumber = "E123456789"; return ts }), "tickets[1].ticketNumber", "train.error.typedTicketNumberTwice"},
	} {
		got, err := checkTyped(o, c.typed)
		if c.field == "" {
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			want := []TypedTicket{{PassengerID: 1, Coach: "05", Seat: "07 lower", TicketNumber: "E123456790"},
				{PassengerID: 2, Coach: "05", Seat: "12f", TicketNumber: "E123456789"}}
			if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
				t.Fatalf("%s: normalised %+v, want %+v", c.name, got, want)
			}
			continue
		}
		fe, ok := fault.As(err)
		if !ok || fe.Fields[c.field] != c.key {
			t.Errorf("%s: want %s on %s, got %v", c.name, c.key, c.field, err)
		}
	}
}

func TestOverlay(t *testing.T) {
	ts := []Ticket{{Passenger: 1, Number: "E1", Coach: "03", Seat: "01A"}, {Passenger: 2, Number: "E2", Coach: "03", Seat: "01B"}}
	overlay(ts, []TypedTicket{{PassengerID: 2, Coach: "07", Seat: "09F", TicketNumber: "Z1234567"}})
	if ts[0].Number != "E1" || ts[1].Coach != "07" || ts[1].Seat != "09F" || ts[1].Number != "Z1234567" {
		t.Fatalf("overlay: %+v", ts)
	}
}
