package booking

import (
	"context"
	"fmt"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/store"
)

// Books is a line's bookings as the shared rules reach them: the line (its
// switch and roles), its table, and how one booking is read; whose a
// booking is, its Head says. Each line's service holds one; who is looking,
// which booking they may read, the status counts and the agency delete
// guard are its methods, the same for every line.
type Books[B Owned] struct {
	Line     Line
	Table    string // the line's bookings table, with agency_id, user_id and status
	DB       *store.DB
	Agencies *agency.Store
	// Load reads one booking by id (the line's not-found error when none).
	Load func(ctx context.Context, id int64) (B, error)
	// NotFound is the line's answer for a booking the caller may not see.
	NotFound func() error
	// HasBookings is the translation key of why an agency with bookings on
	// the line may not be deleted.
	HasBookings string
}

// Viewer is who is looking at the line's bookings.
func (b Books[B]) Viewer(ctx context.Context, who auth.Principal) (Viewer, error) {
	return NewViewer(ctx, b.Agencies, b.Line, who)
}

// Booker is who books a new booking of the line under key, which a create
// needs (a replay with it answers the first booking): the key checked as
// the API edge checks it, for callers that come another way (the portal,
// the local CLI), then who's viewer.
func (b Books[B]) Booker(ctx context.Context, who auth.Principal, key string) (Viewer, error) {
	if err := idempotency.Check(key, true); err != nil {
		return Viewer{}, err
	}
	return b.Viewer(ctx, who)
}

// Get loads booking id for who, with who's viewer; a booking who may not
// see is not found.
func (b Books[B]) Get(ctx context.Context, who auth.Principal, id int64) (B, Viewer, error) {
	return b.Seen(ctx, who, func() (B, error) { return b.Load(ctx, id) })
}

// For loads booking id for who to take a step on it now: need is the side
// the line's status table opens the step to in the booking's status (""
// when it has no such move), and Step answers notNow or forbidden.
func (b Books[B]) For(ctx context.Context, who auth.Principal, id int64, need func(B) string, notNow error) (B, Viewer, error) {
	o, v, err := b.Get(ctx, who, id)
	if err != nil {
		return o, v, err
	}
	agencyID, _ := o.Owner()
	return o, v, Step(need(o), v.Side(agencyID), notNow)
}

// Seen is the booking find answers (found some other way than by id), with
// who's viewer, when who may see it; not found otherwise.
func (b Books[B]) Seen(ctx context.Context, who auth.Principal, find func() (B, error)) (B, Viewer, error) {
	return Find(ctx, b.Agencies, b.Line, who, find, b.NotFound())
}

// DeleteGuard refuses deleting an agency that has bookings on the line:
// they are its accounting history (agency.Service.AddDeleteGuard).
func (b Books[B]) DeleteGuard(ctx context.Context, agencyID int64) (string, error) {
	var n int
	if err := b.DB.GetContext(ctx, &n, b.DB.Rebind(`SELECT COUNT(*) FROM `+b.Table+` WHERE agency_id = ?`), agencyID); err != nil {
		return "", fmt.Errorf("%s: count agency bookings: %w", b.Table, err)
	}
	if n > 0 {
		return b.HasBookings, nil
	}
	return "", nil
}

// Count is the line's status-count answer: how many of the bookings who
// sees are in each status asked for, every one of the line's statuses (all)
// when none is asked (Counts).
func Count[B Owned, S ~string](ctx context.Context, b Books[B], who auth.Principal, all []S, asked []string) ([]StatusCount[S], error) {
	v, err := b.Viewer(ctx, who)
	if err != nil {
		return nil, err
	}
	m, err := v.Scope.Query("agency_id", "user_id").In("status", asked).StatusCounts(ctx, b.DB, b.Table)
	if err != nil {
		return nil, err
	}
	return Counts(all, asked, m)
}

// Read is the line's answer for booking id as who sees it: detail fills it
// from the booking and who's viewer. A booking who may not see is not
// found.
func Read[B Owned, V any](ctx context.Context, b Books[B], who auth.Principal, id int64, detail func(context.Context, B, Viewer) (V, error)) (V, error) {
	o, v, err := b.Get(ctx, who, id)
	if err != nil {
		var zero V
		return zero, err
	}
	return detail(ctx, o, v)
}
