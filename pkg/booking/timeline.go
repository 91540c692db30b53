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

// Event is one step of a booking's timeline as the flight and group lines
// publish it (the train line's event names its statuses from and to, as
// its published JSON always has).
type Event struct {
	ID         int64     `json:"id" db:"id"`
	Action     string    `json:"action" db:"action"`
	FromStatus string    `json:"fromStatus" db:"from_status"`
	ToStatus   string    `json:"toStatus" db:"to_status"`
	Actor      string    `json:"actor" db:"actor"`
	Remark     string    `json:"remark" db:"remark"`
	CreatedAt  time.Time `json:"createdAt" db:"created_at"`
}

// Add puts a step on booking id's timeline in tx.
func Add[S, A ~string](ctx context.Context, tx *sqlx.Tx, t Timeline, id int64, action A, from, to S, actor, remark string, at time.Time) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO `+string(t)+` (order_id, action, from_status, to_status, actor, remark, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), id, string(action), string(from), string(to), actor, remark, at.UTC())
	if err != nil {
		return fmt.Errorf("%s of %d: %w", t, id, err)
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
