// Package booking holds the rules every product line (flight, group, train)
// shares, written once: who sees a booking and who acts on it, who may book
// on each line, the agency-tree list query and "today" in the agency's zone.
// The lines import it; it imports none of them.
package booking

import (
	"context"
	"fmt"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
)

// The sides of every line's status machine: a step is the booking agency's
// or the provider's.
const (
	ByAgency   = "agency"
	ByProvider = "provider"
)

// Scope is what a viewer may list: an agency and the agencies below it
// (Agency 0: the provider, who sees all), optionally one user's bookings.
type Scope struct {
	Agency int64
	// User limits the list to the bookings one user made (an agency set
	// to show only own orders).
	User int64
	// DirectOnly keeps the Agency's own bookings, not its sub-agencies'.
	DirectOnly bool
}

// Viewer is who is looking at bookings of one line, and what they may do.
//
// The rule, the same on every line: the provider sees every booking and
// takes the provider's steps on other agencies' bookings; an agency sees its
// own bookings and its sub-agencies' (only the user's own where the agency
// shows only own orders, its SuperUser and API keys excepted); only the
// booking agency's own users who may book on the line act on a booking
// (pay, cancel, ask for a change or a refund, send names). A parent agency
// looks at its sub-agencies' bookings and acts on none of them.
type Viewer struct {
	Who    auth.Principal
	Agency agency.Agency
	Scope  Scope
	// books: the viewer may book on the line, and so act on its own
	// agency's bookings.
	books bool
}

// NewViewer is who as a viewer of line's bookings.
func NewViewer(ctx context.Context, agencies *agency.Store, line Line, who auth.Principal) (Viewer, error) {
	a, err := agencies.Cached(ctx, who.AgencyID)
	if err != nil {
		return Viewer{}, fmt.Errorf("booking: viewer's agency %d: %w", who.AgencyID, err)
	}
	v := Viewer{Who: who, Agency: a, books: line.MayBook(who.Subject)}
	if who.Subject.IsProvider() {
		return v, nil
	}
	v.Scope.Agency = who.AgencyID
	if a.OnlyOwnOrders && who.UserID != 0 && !who.Subject.HasRole(auth.RoleSuperUser) {
		v.Scope.User = who.UserID
	}
	return v, nil
}

// Sees reports whether the viewer may see a booking of agencyID made by
// userID.
func (v Viewer) Sees(ctx context.Context, agencies *agency.Store, agencyID, userID int64) (bool, error) {
	if v.Scope.Agency == 0 {
		return true, nil
	}
	if v.Scope.User != 0 && userID != v.Scope.User {
		return false, nil
	}
	return agencies.IsWithin(ctx, v.Scope.Agency, agencyID)
}

// Side is the side of the line's status machine the viewer acts on for a
// booking of agencyID: ByAgency for the booking agency's own users who may
// book, ByProvider for the provider on another agency's booking, "" for a
// viewer who only looks (a parent agency, a user without the line's role).
func (v Viewer) Side(agencyID int64) string {
	switch {
	case agencyID == v.Who.AgencyID:
		if v.books {
			return ByAgency
		}
		return ""
	case v.Scope.Agency == 0:
		return ByProvider
	}
	return ""
}

// Find loads a booking of line for who: find reads it, and its Owner says
// whose it is (agency and user). A booking who may not see is notFound, as one that
// does not exist: nobody learns another agency's booking numbers.
func Find[B Owned](ctx context.Context, agencies *agency.Store, line Line, who auth.Principal, find func() (B, error),
	notFound error) (B, Viewer, error) {
	var zero B
	v, err := NewViewer(ctx, agencies, line, who)
	if err != nil {
		return zero, v, err
	}
	b, err := find()
	if err != nil {
		return zero, v, err
	}
	agencyID, userID := b.Owner()
	ok, err := v.Sees(ctx, agencies, agencyID, userID)
	if err != nil {
		return zero, v, err
	}
	if !ok {
		return zero, v, notFound
	}
	return b, v, nil
}

// Actor is the name a booking's timeline gives who took a step: the user,
// the API key, or the system.
func Actor(who auth.Principal) string {
	switch {
	case who.Username != "":
		return who.Username
	case who.APIKeyID != 0:
		return fmt.Sprintf("apikey:%d", who.APIKeyID)
	}
	return "system"
}
