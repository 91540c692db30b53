package demo

import (
	"context"
	"testing"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// The living demo agency has money, a credit line, its contacts and a
// funded sub-agency; seeding twice adds nothing, and a seed stopped after
// making Harbour Travel is finished by the next one.
func TestSeedLivingAgencyTwice(t *testing.T) {
	for _, tc := range []struct {
		name string
		// halfDone makes Harbour Travel alone, as a seed stopped after its
		// first step leaves it.
		halfDone bool
	}{{"fresh", false}, {"stopped half-way", true}} {
		t.Run(tc.name, func(t *testing.T) { testSeedLiving(t, tc.halfDone) })
	}
}

func testSeedLiving(t *testing.T, halfDone bool) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := seedIdentity(ctx, db); err != nil {
			t.Fatal(err)
		}
		if halfDone {
			var p struct {
				ID       int64 `db:"id"`
				AgencyID int64 `db:"agency_id"`
			}
			if err := db.GetContext(ctx, &p, db.Rebind(`SELECT id, agency_id FROM users WHERE username = ?`), "provider-admin"); err != nil {
				t.Fatal(err)
			}
			svc := agency.NewService(db, agency.NewStore(db), ledger.New(db))
			provider := auth.Principal{UserID: p.ID, Username: "provider-admin", AgencyID: p.AgencyID,
				Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, Common: auth.CommonConfig{CanCreateSubAgency: true}}}
			if _, err := svc.Create(ctx, provider, harbourTravel); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 2; i++ {
			created, err := seedLiving(ctx, db)
			if err != nil {
				t.Fatalf("seed %d: %v", i+1, err)
			}
			if created != (i == 0 && !halfDone) {
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
