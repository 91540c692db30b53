package demo

import (
	"context"
	"testing"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// The living demo agency has money, a credit line, its contacts and a
// funded sub-agency; seeding twice adds nothing.
func TestSeedLivingAgencyTwice(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := seedIdentity(ctx, db); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			created, err := seedLiving(ctx, db)
			if err != nil {
				t.Fatalf("seed %d: %v", i+1, err)
			}
			if created != (i == 0) {
				t.Errorf("seed %d created = %v", i+1, created)
			}
		}
		var harbour struct {
			ID    int64  `db:"id"`
			Email string `db:"contact_email"`
		}
		if err := db.GetContext(ctx, &harbour, db.Rebind(`SELECT id, contact_email FROM agencies WHERE name = ?`), "Harbour Travel"); err != nil {
			t.Fatal(err)
		}
		if harbour.Email != "ops@harbour-travel.example" {
			t.Errorf("contact email %q", harbour.Email)
		}
		l := ledger.New(db)
		b, err := l.WalletBalance(ctx, harbour.ID, "CNY")
		if err != nil {
			t.Fatal(err)
		}
		// 7,000 USD at 7.10 less 0.5 %: 49,700.00 − 248.50, less the
		// 5,000.00 given to Harbour Kids Travel.
		if b.Balance != 4445150 || b.CreditLimit != 2000000 {
			t.Errorf("Harbour Travel balance %d credit %d, want 4445150 and 2000000", b.Balance, b.CreditLimit)
		}
		var kids int64
		if err := db.GetContext(ctx, &kids, db.Rebind(`SELECT id FROM agencies WHERE name = ? AND parent_id = ?`), "Harbour Kids Travel", harbour.ID); err != nil {
			t.Fatal(err)
		}
		if b, err := l.WalletBalance(ctx, kids, "CNY"); err != nil || b.Balance != 500000 {
			t.Errorf("Harbour Kids Travel balance %+v %v, want 5,000.00", b, err)
		}
		var n int
		if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM agencies WHERE name LIKE 'Harbour%'`); err != nil || n != 2 {
			t.Errorf("%d Harbour agencies, want 2 (%v)", n, err)
		}
	})
}
