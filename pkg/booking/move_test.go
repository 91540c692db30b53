package booking

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestMoved: a move writes the booking and its timeline step only while
// the booking is still in the status it was read in; a booking another
// writer moved first answers the line's "not now" error and gets no step,
// and a failed write leaves nothing either. On both engines.
func TestMoved(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		serial := "INTEGER PRIMARY KEY"
		if db.Dialect == store.Postgres {
			serial = "BIGSERIAL PRIMARY KEY"
		}
		for _, q := range []string{
			`CREATE TABLE moving (id INTEGER PRIMARY KEY, status TEXT NOT NULL)`,
			`CREATE TABLE moving_events (id ` + serial + `, order_id BIGINT NOT NULL, action TEXT NOT NULL, from_status TEXT NOT NULL,
				to_status TEXT NOT NULL, actor TEXT NOT NULL, remark TEXT NOT NULL, created_at TIMESTAMP NOT NULL)`,
			`INSERT INTO moving (id, status) VALUES (1, 'held'), (2, 'paid'), (3, 'held')`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		stale, broken := errors.New("not now"), errors.New("disk full")
		at := time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC)
		move := func(id int64, from string, fail bool) error {
			return db.InTx(ctx, func(tx *sqlx.Tx) error {
				sh := Shift[string, string]{ID: id, Action: "pay", From: from, To: "paid", Actor: "ann", Remark: "by card", At: at}
				write := func() (bool, error) {
					if fail {
						return false, broken
					}
					return Guarded(ctx, tx, `UPDATE moving SET status = ? WHERE id = ? AND status = ?`, sh.To, id, from)
				}
				return Moved(ctx, tx, Timeline("moving_events"), sh, write, stale)
			})
		}
		for _, c := range []struct {
			name       string
			id         int64
			fail       bool
			want       error
			wantStatus string
			wantSteps  int
		}{
			{"still held: moved, with its step", 1, false, nil, "paid", 1},
			{"moved by another first: not now, no step", 2, false, stale, "paid", 0},
			{"the write failed: its error, no step", 3, true, broken, "held", 0},
		} {
			err := move(c.id, "held", c.fail)
			if !errors.Is(err, c.want) {
				t.Errorf("%s: err %v, want %v", c.name, err, c.want)
			}
			var status string
			var steps int
			if err := db.GetContext(ctx, &status, db.Rebind(`SELECT status FROM moving WHERE id = ?`), c.id); err != nil {
				t.Fatal(err)
			}
			if err := db.GetContext(ctx, &steps, db.Rebind(`SELECT COUNT(*) FROM moving_events WHERE order_id = ?`), c.id); err != nil {
				t.Fatal(err)
			}
			if status != c.wantStatus || steps != c.wantSteps {
				t.Errorf("%s: status %q with %d steps, want %q with %d", c.name, status, steps, c.wantStatus, c.wantSteps)
			}
		}
		// A second move from the status the first left: the first still
		// holds, the replay is refused.
		if err := move(1, "held", false); !errors.Is(err, stale) {
			t.Errorf("a replay of a move already made: %v, want not now", err)
		}
		var step struct {
			Action, From, To, Actor, Remark string
		}
		if err := db.QueryRowxContext(ctx, db.Rebind(`SELECT action, from_status, to_status, actor, remark FROM moving_events WHERE order_id = ?`), 1).
			Scan(&step.Action, &step.From, &step.To, &step.Actor, &step.Remark); err != nil {
			t.Fatal(err)
		}
		if step.Action != "pay" || step.From != "held" || step.To != "paid" || step.Actor != "ann" || step.Remark != "by card" {
			t.Errorf("the step written: %+v", step)
		}
	})
}
