package apptest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/group"
)

// GroupRequest files a group request of the demo data's Demo Travel (as
// demo-operator) through the service, PEK to SHA 60 days out for the
// default 10 adults and 10 children: a request in the provider's queue to
// quote. It answers the order's id.
func GroupRequest(t testing.TB, a *app.App) int64 {
	t.Helper()
	ctx := context.Background()
	var agencyID, userID int64
	if err := a.DB.GetContext(ctx, &agencyID, `SELECT id FROM agencies WHERE name = 'Demo Travel'`); err != nil {
		t.Fatal(err)
	}
	if err := a.DB.GetContext(ctx, &userID, a.DB.Rebind(`SELECT id FROM users WHERE username = ?`), "demo-operator"); err != nil {
		t.Fatal(err)
	}
	ag, err := a.Agencies.Get(ctx, agencyID)
	if err != nil {
		t.Fatal(err)
	}
	who := auth.Principal{UserID: userID, AgencyID: agencyID, Username: "demo-operator",
		Subject: auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: ag.ProxyLevel, Common: ag.Common()}}
	v, err := a.Groups.Request(ctx, who, fmt.Sprintf("apptest-group-%d", time.Now().UnixNano()), group.RequestInput{
		Journeys:   []group.Journey{{Origin: "PEK", Destination: "SHA", Date: time.Now().AddDate(0, 0, 60).Format(time.DateOnly)}},
		CabinClass: "economy", Contact: group.Contact{Name: "Li Lei", Email: "li.lei@example.com", Phone: "+86 138 0000 1111"}})
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}
