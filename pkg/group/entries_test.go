package group

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func TestEntryStage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key     string
		id      int64
		stage   string
		forfeit bool
		ok      bool
	}{
		{"group-7-first", 7, StageFirst, false, true},
		{"group-12-final", 12, StageFinal, false, true},
		{"group-7-second-forfeit", 7, StageSecond, true, true},
		{"group-7-confirm", 0, "", false, false},
		{"group-x-first", 0, "", false, false},
		{"group-0-first", 0, "", false, false},
		{"credit-group-7-first-abc", 0, "", false, false},
		{"t1", 0, "", false, false},
		{"", 0, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			id, stage, forfeit, ok := EntryStage(tt.key)
			if id != tt.id || stage != tt.stage || forfeit != tt.forfeit || ok != tt.ok {
				t.Errorf("EntryStage(%q) = %d %q %v %v, want %d %q %v %v", tt.key, id, stage, forfeit, ok, tt.id, tt.stage, tt.forfeit, tt.ok)
			}
		})
	}
}

// TestEntryOrders: a wallet's agency reads its own group orders' route and
// passengers, never another agency's.
func TestEntryOrders(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		agencies := agency.NewStore(db)
		var own, other int64
		if err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			root, err := agencies.Create(ctx, tx, agency.New{Name: "Voyage"})
			if err != nil {
				return err
			}
			a, err := agencies.Create(ctx, tx, agency.New{ParentID: &root.ID, Name: "Demo Travel"})
			if err != nil {
				return err
			}
			b, err := agencies.Create(ctx, tx, agency.New{ParentID: &root.ID, Name: "Other Travel"})
			own, other = a.ID, b.ID
			return err
		}); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
		for i, o := range []struct {
			number   string
			agency   int64
			journeys string
		}{
			{"G0001", own, `[{"origin":"PEK","destination":"SHA","date":"2026-12-20"}]`},
			{"G0002", own, `[]`},
			{"G0003", other, `[{"origin":"CAN","destination":"HKG","date":"2026-12-20"}]`},
		} {
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO group_orders (booking_number, agency_id, status, journeys, adults, children, infants,
				cabin, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
				o.number, o.agency, "quoted", o.journeys, 15+i, 4, 1, "Y", "CNY", now, now); err != nil {
				t.Fatal(err)
			}
		}
		s := New(Options{Deps: booking.Deps{DB: db}})
		got, err := s.EntryOrders(ctx, own, []string{"G0001", "G0002", "G0003", "G0404"})
		if err != nil {
			t.Fatal(err)
		}
		if e := got["G0001"]; e.ID == 0 || e.Origin != "PEK" || e.Destination != "SHA" || e.Passengers != 20 {
			t.Errorf("G0001 = %+v", e)
		}
		if e := got["G0002"]; e.Origin != "" || e.Passengers != 21 {
			t.Errorf("G0002 = %+v", e)
		}
		if _, ok := got["G0003"]; ok {
			t.Error("another agency's order was read")
		}
		if len(got) != 2 {
			t.Errorf("orders = %s", fmt.Sprint(got))
		}
		// A year's statement may name more orders than one query binds.
		many := []string{}
		for i := range 1200 {
			many = append(many, fmt.Sprintf("G9%04d", i))
		}
		got, err = s.EntryOrders(ctx, own, append(many, "G0002"))
		if err != nil || len(got) != 1 || got["G0002"].Passengers != 21 {
			t.Errorf("1,201 numbers: %v %v", got, err)
		}
	})
}
