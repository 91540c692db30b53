package demo

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// LivingLogins are the accounts of the living demo agency: Harbour Travel
// has money, a credit line and its contacts filled, and a sub-agency it
// funds, so that a newcomer can pay and every money page has rows. The
// other demo agencies start empty, as the tests that use them expect.
var LivingLogins = []Login{
	{"harbour-super", "demo-pass-1", "Harbour Travel", "SuperUser"},
	{"harbour-sub", "demo-pass-1", "Harbour Kids Travel", "SuperUser"},
}

// SeedLiving adds the living demo agency when it is missing (`voyage demo
// seed`, which `make run` runs); the tests' seed (Seed) leaves it out, so
// that their agencies' counts and money stay as they assert.
func SeedLiving(ctx context.Context, db *store.DB) error {
	created, err := seedLiving(ctx, db)
	if err != nil {
		return err
	}
	if created {
		slog.InfoContext(ctx, "demo living agency created", "logins", len(LivingLogins))
	}
	return nil
}

// seedLiving creates Harbour Travel and its sub-agency through the agency
// service, as the provider and Harbour Travel would, once: the accounts'
// existence says it was done, and the top-ups carry idempotency keys.
func seedLiving(ctx context.Context, db *store.DB) (bool, error) {
	var n int
	if err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM users WHERE username = ?`), "harbour-super"); err != nil {
		return false, fmt.Errorf("demo: check living agency: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	var provider struct {
		UserID   int64 `db:"id"`
		AgencyID int64 `db:"agency_id"`
	}
	if err := db.GetContext(ctx, &provider, db.Rebind(`SELECT id, agency_id FROM users WHERE username = ?`), "provider-admin"); err != nil {
		return false, fmt.Errorf("demo: provider admin: %w", err)
	}
	svc := agency.NewService(db, agency.NewStore(db), ledger.New(db))
	asProvider := auth.Principal{UserID: provider.UserID, Username: "provider-admin", AgencyID: provider.AgencyID,
		Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 0, Common: auth.CommonConfig{CanCreateSubAgency: true}}}
	harbour, err := svc.Create(ctx, asProvider, agency.CreateRequest{
		Profile: agency.Profile{Name: "Harbour Travel", Alias: "Harbour", Address: "1 Harbour Road, Wan Chai, Hong Kong",
			ContactName: "Mei Chan", ContactEmail: "ops@harbour-travel.example", ContactPhone: "+852 2511 0000",
			CustomerService: "service@harbour-travel.example"},
		Config: agency.Config{Settings: agency.Settings{EnableFlight: true, EnableTrain: true, IsShowBill: true, CanCreateSubAgency: true,
			SettlementCurrency: "CNY", EmailLanguage: "en"}},
		SuperUser: agency.NewSuperAdmin{Username: "harbour-super", Email: "super@harbour-travel.example", Nickname: "Harbour Super", Password: "demo-pass-1"},
	})
	if err != nil {
		return false, fmt.Errorf("demo: create Harbour Travel: %w", err)
	}
	if _, err := svc.SetCredit(ctx, asProvider, harbour.ID, agency.CreditRequest{CreditLimit: "20000", CreditPeriod: 30, CreditPeriodUnit: "day"}); err != nil {
		return false, fmt.Errorf("demo: Harbour Travel credit: %w", err)
	}
	if _, err := svc.AddFunds(ctx, asProvider, harbour.ID, ledger.TopUp{IdempotencyKey: "demo-harbour-wire-1", Currency: "CNY",
		CurrencyReceived: "USD", AmountReceived: "7000", ExchangeRate: "7.10", FeePercent: "0.5", Reference: "HSBC-DEMO-1",
		Remark: "opening deposit"}, nil); err != nil {
		return false, fmt.Errorf("demo: Harbour Travel funds: %w", err)
	}
	var super int64
	if err := db.GetContext(ctx, &super, db.Rebind(`SELECT id FROM users WHERE username = ?`), "harbour-super"); err != nil {
		return false, fmt.Errorf("demo: Harbour super user: %w", err)
	}
	asHarbour := auth.Principal{UserID: super, Username: "harbour-super", AgencyID: harbour.ID,
		Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true}}}
	kids, err := svc.Create(ctx, asHarbour, agency.CreateRequest{
		Profile: agency.Profile{Name: "Harbour Kids Travel", Alias: "Harbour Kids", Address: "3 Pier Road, Central, Hong Kong",
			ContactName: "Ka Lok", ContactEmail: "ops@harbour-kids.example", ContactPhone: "+852 2522 0000"},
		Config:    agency.Config{Settings: agency.Settings{EnableFlight: true, IsShowBill: true, SettlementCurrency: "CNY", EmailLanguage: "zh-tw"}},
		SuperUser: agency.NewSuperAdmin{Username: "harbour-sub", Email: "super@harbour-kids.example", Nickname: "Harbour Kids Super", Password: "demo-pass-1"},
	})
	if err != nil {
		return false, fmt.Errorf("demo: create Harbour Kids Travel: %w", err)
	}
	if _, err := svc.AddFunds(ctx, asHarbour, kids.ID, ledger.TopUp{IdempotencyKey: "demo-harbour-kids-1", Currency: "CNY",
		CurrencyReceived: "CNY", AmountReceived: "5000", ExchangeRate: "1", Reference: "HARBOUR-TRANSFER-1"}, nil); err != nil {
		return false, fmt.Errorf("demo: Harbour Kids Travel funds: %w", err)
	}
	return true, nil
}
