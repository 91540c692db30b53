package railsim

import (
	"fmt"
	"strings"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

func validTicketType(t string) bool {
	switch t {
	case rail.TicketAdult, rail.TicketChild, rail.TicketStudent, rail.TicketDisabledMilitary:
		return true
	}
	return false
}

// checkPassenger applies the real-name rule's form checks (the railway
// checks the name against the document itself) and the seat letter.
func checkPassenger(p rail.Passenger, lay classLayout) error {
	if !validTicketType(p.Type) {
		return fmt.Errorf("ticket type %q: %w", p.Type, rail.ErrRejected)
	}
	if strings.TrimSpace(p.Surname) == "" || strings.TrimSpace(p.GivenName) == "" {
		return fmt.Errorf("name missing: %w", rail.ErrRejected)
	}
	num := strings.ToUpper(strings.TrimSpace(p.DocumentNumber))
	known, ok := rail.ValidDocument(p.DocumentType, num)
	if !known {
		return fmt.Errorf("document type %q: %w", p.DocumentType, rail.ErrRejected)
	}
	if !ok {
		return fmt.Errorf("%s number %q is malformed: %w", p.DocumentType, p.DocumentNumber, rail.ErrRejected)
	}
	if p.SeatLetter != "" {
		l := strings.ToUpper(p.SeatLetter)
		if lay.kind != kindRow || len(l) != 1 || !strings.Contains(lay.letters, l) {
			return fmt.Errorf("seat letter %q in %s: %w", p.SeatLetter, lay.class, rail.ErrRejected)
		}
	}
	return nil
}
