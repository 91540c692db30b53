package demo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// LivingLogins are the accounts of the living demo agency: Harbour Travel
// has money, a credit line, its contacts filled, orders in several states,
// a statement and a sub-agency it funds that has booked too, so that a
// newcomer can pay and every order and money page has rows. The
// other demo agencies start empty, as the tests that use them expect.
var LivingLogins = []Login{
	{"harbour-super", "demo-pass-1", "Harbour Travel", "SuperUser"},
	{"harbour-sub", "demo-pass-1", "Harbour Kids Travel", "SuperUser"},
}

// The living agencies as the provider and Harbour Travel create them.
var (
	harbourTravel = agency.CreateRequest{
		Profile: agency.Profile{Name: "Harbour Travel", Alias: "Harbour", Address: "1 Harbour Road, Wan Chai, Hong Kong",
			ContactName: "Mei Chan", ContactEmail: "ops@harbour-travel.example", ContactPhone: "+852 2511 0000",
			CustomerService: "service@harbour-travel.example"},
		Config: agency.Config{Settings: agency.Settings{EnableFlight: true, EnableTrain: true, IsShowBill: true, CanCreateSubAgency: true,
			SettlementCurrency: "CNY", EmailLanguage: "en"}},
		SuperUser: agency.NewSuperAdmin{Username: "harbour-super", Email: "super@harbour-travel.example", Nickname: "Harbour Super", Password: "demo-pass-1"},
	}
	harbourKids = agency.CreateRequest{
		Profile: agency.Profile{Name: "Harbour Kids Travel", Alias: "Harbour Kids", Address: "3 Pier Road, Central, Hong Kong",
			ContactName: "Ka Lok", ContactEmail: "ops@harbour-kids.example", ContactPhone: "+852 2522 0000"},
		Config:    agency.Config{Settings: agency.Settings{EnableFlight: true, IsShowBill: true, SettlementCurrency: "CNY", EmailLanguage: "zh-tw"}},
		SuperUser: agency.NewSuperAdmin{Username: "harbour-sub", Email: "super@harbour-kids.example", Nickname: "Harbour Kids Super", Password: "demo-pass-1"},
	}
)

// SeedLiving adds the living demo agency when it is missing (`voyage demo
// seed`, which `make run` runs); the tests' seed (Seed) leaves it out, so
// that their agencies' counts and money stay as they assert. The orders are
// booked through a, on its suppliers.
func SeedLiving(ctx context.Context, a Services) error {
	created, err := seedLiving(ctx, a)
	if err != nil {
		return err
	}
	if created {
		slog.InfoContext(ctx, "demo living agency created", "logins", len(LivingLogins))
	}
	return nil
}

// seedLiving creates Harbour Travel and its sub-agency through the agency
// service, as the provider and Harbour Travel would, then their orders and
// statement (seedLivingActivity). Each step is safe to run again (an agency
// found by its super user is not made twice, a credit line is set to the
// same figure, a top-up or an order replays its idempotency key), so a seed
// stopped half-way is finished by the next run rather than skipped.
// created says whether Harbour Travel was made by this run.
func seedLiving(ctx context.Context, a Services) (created bool, err error) {
	db := a.DB
	var provider struct {
		UserID   int64 `db:"id"`
		AgencyID int64 `db:"agency_id"`
	}
	if err := db.GetContext(ctx, &provider, db.Rebind(`SELECT id, agency_id FROM users WHERE username = ?`), "provider-admin"); err != nil {
		return false, fmt.Errorf("demo: provider admin: %w", err)
	}
	svc := a.AgencyAdmin
	asProvider := auth.Principal{UserID: provider.UserID, Username: "provider-admin", AgencyID: provider.AgencyID,
		Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 0, Common: auth.CommonConfig{CanCreateSubAgency: true}}}
	harbour, created, err := agencyOf(ctx, db, "harbour-super", func() error {
		_, err := svc.Create(ctx, asProvider, harbourTravel)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("demo: create Harbour Travel: %w", err)
	}
	if _, err := svc.SetCredit(ctx, asProvider, harbour.agencyID, agency.CreditRequest{CreditLimit: "20000", CreditPeriod: 30, CreditPeriodUnit: "day"}); err != nil {
		return false, fmt.Errorf("demo: Harbour Travel credit: %w", err)
	}
	if _, err := svc.AddFunds(ctx, asProvider, harbour.agencyID, ledger.TopUp{IdempotencyKey: "demo-harbour-wire-1", Currency: "CNY",
		CurrencyReceived: "USD", AmountReceived: "7000", ExchangeRate: "7.10", FeePercent: "0.5", Reference: "HSBC-DEMO-1",
		Remark: "opening deposit"}, nil); err != nil {
		return false, fmt.Errorf("demo: Harbour Travel funds: %w", err)
	}
	asHarbour := auth.Principal{UserID: harbour.userID, Username: "harbour-super", AgencyID: harbour.agencyID,
		Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true}}}
	kids, _, err := agencyOf(ctx, db, "harbour-sub", func() error {
		_, err := svc.Create(ctx, asHarbour, harbourKids)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("demo: create Harbour Kids Travel: %w", err)
	}
	if _, err := svc.AddFunds(ctx, asHarbour, kids.agencyID, ledger.TopUp{IdempotencyKey: "demo-harbour-kids-1", Currency: "CNY",
		CurrencyReceived: "CNY", AmountReceived: "5000", ExchangeRate: "1", Reference: "HARBOUR-TRANSFER-1"}, nil); err != nil {
		return false, fmt.Errorf("demo: Harbour Kids Travel funds: %w", err)
	}
	if err := seedLivingActivity(ctx, a, asProvider, harbour, kids); err != nil {
		return false, err
	}
	return created, nil
}

// livingAgency is a demo agency and its super user.
type livingAgency struct{ agencyID, userID int64 }

// agencyOf is the agency whose super user is username, made by create when
// there is none yet (created true).
func agencyOf(ctx context.Context, db *store.DB, username string, create func() error) (livingAgency, bool, error) {
	var a livingAgency
	var row struct {
		ID       int64 `db:"id"`
		AgencyID int64 `db:"agency_id"`
	}
	err := db.GetContext(ctx, &row, db.Rebind(`SELECT id, agency_id FROM users WHERE username = ?`), username)
	if err == nil {
		return livingAgency{agencyID: row.AgencyID, userID: row.ID}, false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return a, false, err
	}
	if err := create(); err != nil {
		return a, false, err
	}
	if err := db.GetContext(ctx, &row, db.Rebind(`SELECT id, agency_id FROM users WHERE username = ?`), username); err != nil {
		return a, false, err
	}
	return livingAgency{agencyID: row.AgencyID, userID: row.ID}, true, nil
}

// AllLogins are every demo account in the order the README's table and
// `voyage demo seed` list them: the living agency first, since it is the
// one a newcomer can pay with and find orders in.
func AllLogins() []Login {
	return append(append([]Login(nil), LivingLogins...), Logins...)
}
