package booking

import (
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

// Line is a product line's switch and roles (spec §6): an operator or a
// SuperUser books on a line the company has switched on; who may only look
// at its bookings differs by line.
type Line struct {
	Name string
	// on is the company's switch for the line.
	on func(auth.CommonConfig) bool
	// anyRoleSees: every user of a company with the line on sees its
	// bookings (the spec lists no role for the train orders); otherwise
	// only those who may book.
	anyRoleSees bool
}

// The product lines.
var (
	Flights = Line{Name: "flight", on: func(c auth.CommonConfig) bool { return c.EnableFlightService }}
	Groups  = Line{Name: "group", on: func(c auth.CommonConfig) bool { return c.EnableFlightService }}
	Trains  = Line{Name: "train", on: func(c auth.CommonConfig) bool { return c.EnableTrainService }, anyRoleSees: true}
)

// MayBook: the company has the line on and the user is an operator or a
// SuperUser. Searching, booking and acting on one's own agency's bookings
// all need it.
func (l Line) MayBook(s auth.Subject) bool {
	return l.on(s.Common) && (s.HasRole(auth.RoleOperator))
}

// MaySee: who may open the line's lists and bookings at all.
func (l Line) MaySee(s auth.Subject) bool {
	if l.anyRoleSees {
		return l.on(s.Common)
	}
	return l.MayBook(s)
}

// Step checks that the viewer's side takes a step whose side the line's
// status table gives as need ("" when the step is not open in the
// booking's status): notNow (the line's "not in this status" error) when it
// is not open; nil when it is the viewer's; forbidden when it is the other
// side's or the viewer only looks.
func Step(need, side string, notNow error) error {
	switch {
	case need == "":
		return notNow
	case need == side:
		return nil
	}
	return fault.Forbidden()
}
