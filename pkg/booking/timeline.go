package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
)

// Timeline is the table of a line's timeline: every step taken on a booking
// (a status move, or a step that keeps the status), by whom, with a remark.
// The lines' tables have the same columns; each line publishes its events
// under its own type (E of Events), which reads them by their db tags.
type Timeline string

// The lines' timelines.
const (
	FlightTimeline Timeline = "flight_order_events"
	TrainTimeline  Timeline = "train_order_events"
	GroupTimeline  Timeline = "group_order_events"
)

// Event is one step of a flight or group order's timeline: what was done,
// by whom, and the status it moved the order from and to.
//
// The train line publishes its own event, whose statuses are named from
// and to, as its published JSON always has.
type Event struct {
	// ID is the event's id; events are listed oldest first.
	ID int64 `json:"id" db:"id"`
	// Action is what was done: the order's first step (create for a
	// flight order, request for a group), then one of the actions of the
	// order's line (pay, cancel, quote, confirm, ...), by a person or by
	// the system.
	Action string `json:"action" db:"action"`
	// FromStatus is the order's status before the step; empty for the
	// order's first step.
	FromStatus string `json:"fromStatus" db:"from_status"`
	// ToStatus is the order's status after the step (the same as
	// fromStatus for a step that keeps it, such as a passenger-list
	// upload).
	ToStatus string `json:"toStatus" db:"to_status"`
	// Actor is who took the step: a username, apikey:<id> for an
	// integration's API key, or system.
	Actor string `json:"actor" db:"actor"`
	// Remark says more about the step: what a person typed (a request's
	// remark, a reason), a related booking number, or on a group order what
	// a quote or payment amounted to or which deadline passed, in the
	// request's language; empty when there is nothing to add.
	Remark string `json:"remark" db:"remark"`
	// CreatedAt is when the step was taken, in UTC.
	CreatedAt time.Time `json:"createdAt" db:"created_at"`
}

// Add puts a step on booking sh.ID's timeline t in tx.
func Add[S, A ~string](ctx context.Context, tx *sqlx.Tx, t Timeline, sh Shift[S, A]) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO `+string(t)+` (order_id, action, from_status, to_status, actor, remark, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), sh.ID, string(sh.Action), string(sh.From), string(sh.To), sh.Actor, sh.Remark, sh.At.UTC())
	if err != nil {
		return fmt.Errorf("%s of %d: %w", t, sh.ID, err)
	}
	return nil
}

// Events is booking id's timeline, oldest first ([] when empty).
func Events[E any](ctx context.Context, db *store.DB, t Timeline, id int64) ([]E, error) {
	out := []E{}
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT id, action, from_status, to_status, actor, remark, created_at
		FROM `+string(t)+` WHERE order_id = ? ORDER BY id`), id)
	if err != nil {
		return nil, fmt.Errorf("%s of %d: %w", t, id, err)
	}
	return out, nil
}
