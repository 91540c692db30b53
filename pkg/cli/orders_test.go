package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/order"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// refundRequest books, pays and tickets an order for Demo Travel through the
// services and files a refund request against it, answering the request's id.
func refundRequest(t *testing.T, dsn string) int64 {
	t.Helper()
	ctx := context.Background()
	cfg, err := config.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DB = dsn
	cfg.Shopping.Sim.LatencyScale, cfg.Shopping.Sim.ErrorRate, cfg.Shopping.Sim.TimeoutRate, cfg.Shopping.Sim.Volatility = 0, 0, 0, 0
	a, err := app.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
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
	o, err := a.Orders.Create(ctx, who, "cli-test", order.CreateRequest{QuoteID: quoteID,
		Passengers: []order.Passenger{{Type: "adult", Surname: "LI", GivenName: "NA", Gender: "female", Birthday: "1990-05-06", Nationality: "CN",
			DocumentType: "passport", DocumentNumber: "E7654321", DocumentExpiry: "2035-01-01"}},
		Contact: order.Contact{Name: "Li Na", Email: "li.na@example.com", Phone: "+86 139 0000 0000"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Ledger.Post(ctx, ledger.Transfer{AgencyID: agencyID, IdempotencyKey: "cli-test-fund", From: ledger.Provider(ledger.KindFunding),
		To: ledger.Wallet(agencyID), Amount: 10_000_00, Currency: "CNY", PaymentType: ledger.TypeTopUp}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Orders.Pay(ctx, who, o.ID, "cli-pay", order.PayRequest{Channel: "balance"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Orders.Ticket(ctx, o.ID, false); err != nil {
		t.Fatal(err)
	}
	reason := 0
	rf, err := a.Orders.Request(ctx, who, o.ID, order.TypeRefund, order.PostSaleRequest{Reason: &reason, Remark: "plans changed"})
	if err != nil {
		t.Fatal(err)
	}
	return rf.ID
}

func TestOrderCommands(t *testing.T) {
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		{
			id := refundRequest(t, dsn)
			v := func(t *testing.T, code int, args ...string) result {
				t.Helper()
				res := execute(t, nil, append(args, reach...)...)
				if res.code != code {
					t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", args, res.code, code, res.out, res.err)
				}
				return res
			}

			queue := decode[order.Page](t, v(t, 0, "orders", "list", "--group", "reviewing", "-o", "json"))
			if queue.Total != 1 || queue.Items[0].ID != id || queue.Items[0].Status != order.RfdReviewing {
				t.Fatalf("review queue = %+v", queue)
			}
			all := decode[order.Page](t, v(t, 0, "orders", "list", "--type", "origin", "-o", "json"))
			if all.Total != 1 || all.Items[0].Status != order.Issued {
				t.Fatalf("origin orders = %+v", all)
			}
			if table := v(t, 0, "orders", "list").out; !strings.Contains(table, "rfd_reviewing") || !strings.Contains(table, "PEK-SHA") {
				t.Fatalf("table:\n%s", table)
			}
			shown := decode[order.View](t, v(t, 0, "orders", "show", fmt.Sprint(id), "-o", "json"))
			if shown.Type != order.TypeRefund || len(shown.Actions) != 3 {
				t.Fatalf("show = %+v", shown)
			}
			v(t, 2, "orders", "review", fmt.Sprint(id), "--action", "explode")
			v(t, 3, "orders", "show", "999999")

			dry := v(t, 0, "orders", "review", fmt.Sprint(id), "--action", "approve", "--dry-run", "-o", "json")
			if !strings.Contains(dry.err, "dry run") || decode[order.View](t, dry).Status != order.RfdReviewing {
				t.Fatalf("dry run: %+v", dry)
			}
			done := decode[order.View](t, v(t, 0, "orders", "review", fmt.Sprint(id), "--action", "approve", "--remark", "ok",
				"--refund-amount", "100.00", "--fee", "20.00", "--yes", "-o", "json"))
			// The sim supplier keeps its bookings in the server's memory, so a
			// command in another process sets the figures itself.
			if done.Status != order.RfdToBeConfirm || done.ReviewRemark != "ok" || done.ConfirmBy == nil || done.PriceBreakdown.RefundAmount.Amount != "100.00" {
				t.Fatalf("approved = %+v", done)
			}
			// Approving twice is a state conflict.
			v(t, 4, "orders", "review", fmt.Sprint(id), "--action", "approve", "--yes")
		}
	})
}
