// Package apptest helps tests outside pkg/app build the application on a
// test database and put it in the states they need.
package apptest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// Open builds the application on dsn with the simulated suppliers answering
// at once and never failing; it is closed when the test ends.
func Open(t testing.TB, dsn string) *app.App {
	t.Helper()
	cfg, err := config.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DB = dsn
	cfg.Shopping.Sim.LatencyScale, cfg.Shopping.Sim.ErrorRate, cfg.Shopping.Sim.TimeoutRate, cfg.Shopping.Sim.Volatility = 0, 0, 0, 0
	a, err := app.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// RefundRequest books, funds, pays and tickets a PEK-SHA order for the demo
// data's Demo Travel (as demo-operator) through the services and files a
// refund request against it: an order in the provider's review queue. It
// answers the request's id.
func RefundRequest(t testing.TB, a *app.App) int64 {
	t.Helper()
	ctx := context.Background()
	who := demoOperator(t, a)
	started, err := a.Shopping.Start(ctx, who, shopping.Request{Journeys: []supplier.JourneyQuery{{Origin: "PEK", Destination: "SHA",
		Date: time.Now().AddDate(0, 0, 25).Format(time.DateOnly)}}, Passengers: supplier.Passengers{Adult: 1}, CabinClass: "economy", BookingType: "oneway"})
	if err != nil {
		t.Fatal(err)
	}
	var page shopping.Page
	for deadline := time.Now().Add(30 * time.Second); !page.Complete; time.Sleep(20 * time.Millisecond) {
		if page, err = a.Shopping.Solutions(ctx, who, shopping.Query{SearchID: started.SearchID, Sort: "price"}, "en"); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("search did not complete")
		}
	}
	var quoteID string
	for _, s := range page.Items {
		// Special ticketing-speed products wait for the provider first.
		if strings.HasPrefix(s.TicketingSpeed, "special") {
			continue
		}
		if v, err := a.Shopping.Verify(ctx, who, s.ID, "en"); err == nil && v.QuoteID != "" {
			quoteID = v.QuoteID
			break
		}
	}
	if quoteID == "" {
		t.Fatal("no quote")
	}
	key := fmt.Sprintf("apptest-%d", time.Now().UnixNano())
	o, err := a.Orders.Create(ctx, who, key, flight.CreateRequest{QuoteID: quoteID,
		Passengers: []flight.Passenger{{Type: "adult", Surname: "LI", GivenName: "NA", Gender: "female", Birthday: "1990-05-06", Nationality: "CN",
			DocumentType: "passport", DocumentNumber: "E7654321", DocumentExpiry: "2035-01-01"}},
		Contact: flight.Contact{Name: "Li Na", Email: "li.na@example.com", Phone: "+86 139 0000 0000"}})
	if err != nil {
		t.Fatal(err)
	}
	fundWallet(t, a, who.AgencyID, key+"-fund")
	if _, err := a.Orders.Pay(ctx, who, o.ID, key+"-pay", flight.PayRequest{Channel: "balance"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Orders.Ticket(ctx, o.ID, false); err != nil {
		t.Fatal(err)
	}
	reason := 0
	rf, err := a.Orders.Request(ctx, who, o.ID, flight.TypeRefund, flight.PostSaleRequest{Reason: &reason, Remark: "plans changed"})
	if err != nil {
		t.Fatal(err)
	}
	return rf.ID
}

// demoOperator is demo-operator of the demo data's Demo Travel as the
// services see it after a login.
func demoOperator(t testing.TB, a *app.App) auth.Principal {
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
	return auth.Principal{UserID: userID, AgencyID: agencyID, Username: "demo-operator",
		Subject: auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: ag.ProxyLevel, Common: ag.Common()}}
}

// fundWallet tops agencyID's wallet up by 10,000 CNY from the provider, once
// per key.
func fundWallet(t testing.TB, a *app.App, agencyID int64, key string) {
	t.Helper()
	if _, err := a.Ledger.Post(context.Background(), ledger.Transfer{AgencyID: agencyID, IdempotencyKey: key, From: ledger.Provider(ledger.KindFunding),
		To: ledger.Wallet(agencyID), Amount: 10_000_00, Currency: "CNY", PaymentType: ledger.TypeTopUp}); err != nil {
		t.Fatal(err)
	}
}
