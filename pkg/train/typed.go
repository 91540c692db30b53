package train

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// TypedTicket is a ticket the provider types by hand in manual mode, for
// one passenger: the coach, seat and ticket number printed on what the
// provider bought at the railway.
type TypedTicket struct {
	PassengerID  int    `json:"passengerId" jsonschema_description:"Passenger.id of this order"`
	Coach        string `json:"coach" jsonschema_description:"coach number: 1 or 2 digits (05)"`
	Seat         string `json:"seat" jsonschema_description:"as printed: 12F or 015 or 07 lower (letters digits and spaces; at most 12)"`
	TicketNumber string `json:"ticketNumber" jsonschema_description:"6 to 20 letters and digits (E123456789); unique"`
}

var (
	coachFormat  = regexp.MustCompile(`^[0-9]{1,2}$`)
	seatFormat   = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z ]{0,11}$`)
	ticketFormat = regexp.MustCompile(`^[A-Z0-9]{6,20}$`)
)

// normalise trims what was typed, pads a one-digit coach (5 → 05, as the
// railway prints it) and capitalises the ticket number.
func (t TypedTicket) normalise() TypedTicket {
	t.Coach = strings.TrimSpace(t.Coach)
	if len(t.Coach) == 1 {
		t.Coach = "0" + t.Coach
	}
	t.Seat = strings.Join(strings.Fields(t.Seat), " ")
	t.TicketNumber = strings.ToUpper(strings.TrimSpace(t.TicketNumber))
	return t
}

// checkTyped validates typed tickets against the order: every passenger
// once, sane formats, ticket numbers unique within the request. It answers
// them normalised, in the order's passenger order.
func checkTyped(o Order, typed []TypedTicket) ([]TypedTicket, error) {
	errs := map[string]string{}
	byPax := map[int]TypedTicket{}
	numbers := map[string]bool{}
	known := map[int]bool{}
	for _, p := range o.Passengers {
		known[p.ID] = true
	}
	for i, t := range typed {
		f := func(name string) string { return fault.Field(fault.Item("tickets", i), name) }
		t = t.normalise()
		switch {
		case !known[t.PassengerID]:
			errs[f("passengerId")] = "train.error.typedPassenger"
		case byPax[t.PassengerID] != (TypedTicket{}):
			errs[f("passengerId")] = "train.error.typedPassengerTwice"
		}
		if !coachFormat.MatchString(t.Coach) || t.Coach == "00" {
			errs[f("coach")] = "train.error.typedCoach"
		}
		if !seatFormat.MatchString(t.Seat) {
			errs[f("seat")] = "train.error.typedSeat"
		}
		switch {
		case !ticketFormat.MatchString(t.TicketNumber):
			errs[f("ticketNumber")] = "train.error.typedTicketNumber"
		case numbers[t.TicketNumber]:
			errs[f("ticketNumber")] = "train.error.typedTicketNumberTwice"
		}
		numbers[t.TicketNumber] = true
		if known[t.PassengerID] {
			byPax[t.PassengerID] = t
		}
	}
	if len(errs) == 0 && len(byPax) != len(o.Passengers) {
		errs["tickets"] = "train.error.typedMissing"
	}
	if len(errs) > 0 {
		return nil, fault.Validation(errs)
	}
	out := make([]TypedTicket, 0, len(o.Passengers))
	for _, p := range o.Passengers {
		out = append(out, byPax[p.ID])
	}
	return out, nil
}

// checkNumbersFree refuses ticket numbers another order's tickets carry
// (typed as requested: the fields named are the request's).
func checkNumbersFree(ctx context.Context, db *store.DB, orderID int64, typed []TypedTicket) error {
	typed = slices.Clone(typed)
	for i := range typed {
		typed[i] = typed[i].normalise()
	}
	args := []any{orderID}
	marks := make([]string, len(typed))
	for i, t := range typed {
		args = append(args, t.TicketNumber)
		marks[i] = "?"
	}
	var taken []string
	if err := db.SelectContext(ctx, &taken, db.Rebind(`SELECT DISTINCT ticket_number FROM train_tickets
		WHERE order_id <> ? AND ticket_number IN (`+strings.Join(marks, ", ")+`)`), args...); err != nil {
		return fmt.Errorf("train: ticket numbers in use: %w", err)
	}
	if len(taken) == 0 {
		return nil
	}
	errs := map[string]string{}
	for i, t := range typed {
		for _, n := range taken {
			if t.TicketNumber == n {
				errs[fault.Field(fault.Item("tickets", i), "ticketNumber")] = "train.error.typedTicketNumberTaken"
			}
		}
	}
	return fault.Validation(errs)
}

// overlay puts the typed coach, seat and number on the railway's tickets
// of the same passengers.
func overlay(tickets []Ticket, typed []TypedTicket) {
	for _, t := range typed {
		for i := range tickets {
			if tickets[i].Passenger == t.PassengerID {
				tickets[i].Coach, tickets[i].Seat, tickets[i].Number = t.Coach, t.Seat, t.TicketNumber
			}
		}
	}
}
