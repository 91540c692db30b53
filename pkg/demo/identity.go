package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/store"
)

// Login is a demo account, printed by `make run`.
type Login struct {
	Username, Password, Agency, Role string
}

// Logins are the demo accounts the seed creates.
var Logins = []Login{
	{"provider-admin", "provider-pass-1", "Voyage Provider", "SuperUser (provider)"},
	{"demo-super", "demo-pass-1", "Demo Travel", "SuperUser"},
	{"demo-operator", "demo-pass-1", "Demo Travel", "operator"},
	{"demo-finance", "demo-pass-1", "Demo Travel", "finance"},
	{"sub-super", "demo-pass-1", "Demo Sub Travel", "SuperUser"},
	{"bluesky-super", "demo-pass-1", "Blue Sky Travel (id 222)", "SuperUser"},
}

// BlueSkyID is the agency of spec §1 with its own branding.
const BlueSkyID = 222

// seedIdentity creates the demo agency tree and its users once.
func seedIdentity(ctx context.Context, db *store.DB) (bool, error) {
	var n int
	if err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM users WHERE username = ?`), "provider-admin"); err != nil {
		return false, fmt.Errorf("demo: check users: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	agencies := agency.NewStore(db)
	now := time.Now().UTC()
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		provider, err := agencies.Create(ctx, tx, agency.New{Name: "Voyage Provider", Alias: "Voyage", Address: "1 Century Avenue, Pudong, Shanghai",
			EnableFlightService: true, EnableTrainService: true, IsShowBill: true, CanCreateSubAgency: true})
		if err != nil {
			return err
		}
		demo, err := agencies.Create(ctx, tx, agency.New{ParentID: &provider.ID, Name: "Demo Travel", Alias: "Demo", Address: "88 Nathan Road, Kowloon, Hong Kong",
			EnableFlightService: true, EnableTrainService: true, IsShowBill: true, CanCreateSubAgency: true,
			SSOSecret: "demo-sso-secret", AllowedHosts: []string{"https://demo-travel.example"}})
		if err != nil {
			return err
		}
		sub, err := agencies.Create(ctx, tx, agency.New{ParentID: &demo.ID, Name: "Demo Sub Travel", Alias: "Demo Sub", Address: "12 Queen's Road, Central, Hong Kong",
			EnableFlightService: true, IsShowBill: true})
		if err != nil {
			return err
		}
		blue, err := agencies.Create(ctx, tx, agency.New{ID: BlueSkyID, ParentID: &provider.ID, Name: "Blue Sky Travel", Alias: "Blue Sky",
			Address: "5 Xinyi Road, Taipei", EnableFlightService: true, IsShowBill: true, SSOSecret: "bluesky-sso-secret",
			AllowedHosts: []string{"https://bluesky-travel.example"},
			Branding:     agency.Branding{Theme: "sky", Favicon: "/static/favicon-bluesky.svg", HideCSWidget: true, HideSSOMessage: true}})
		if err != nil {
			return err
		}
		users := []auth.NewUser{
			{AgencyID: provider.ID, Username: "provider-admin", Email: "admin@voyage.example", Nickname: "Provider Admin", Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "provider-pass-1"},
			{AgencyID: demo.ID, Username: "demo-super", Email: "super@demo-travel.example", Nickname: "Demo Super", Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "demo-pass-1"},
			{AgencyID: demo.ID, Username: "demo-operator", Email: "operator@demo-travel.example", Nickname: "Demo Operator", Roles: []string{auth.RoleOperator}, Password: "demo-pass-1"},
			{AgencyID: demo.ID, Username: "demo-finance", Email: "finance@demo-travel.example", Nickname: "Demo Finance", Roles: []string{auth.RoleFinance}, Password: "demo-pass-1"},
			{AgencyID: sub.ID, Username: "sub-super", Email: "super@demo-sub.example", Nickname: "Sub Super", Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "demo-pass-1"},
			{AgencyID: blue.ID, Username: "bluesky-super", Email: "super@bluesky-travel.example", Nickname: "Blue Sky Super", Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "demo-pass-1"},
		}
		for _, u := range users {
			u.Mobile = "13800138000"
			if _, err := auth.CreateUser(ctx, tx, u, now); err != nil {
				return fmt.Errorf("demo: user %s: %w", u.Username, err)
			}
		}
		return nil
	})
	return err == nil, err
}
