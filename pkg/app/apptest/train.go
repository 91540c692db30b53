package apptest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/train"
)

// ManualTrainOrder sets the demo data's Demo Travel to manual train
// ticketing, funds its wallet and books and pays (as demo-operator) a
// Beijing South → Shanghai Hongqiao second-class seat three days ahead
// through a's train service: an order waiting in proceeding for the
// provider. It answers the order's id. The simulated railway keeps the
// booking in the database: any instance on it (or the CLI in-process)
// confirms it.
func ManualTrainOrder(t testing.TB, a *app.App) int64 {
	t.Helper()
	ctx := context.Background()
	who := demoOperator(t, a)
	if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE agencies SET train_settings = ? WHERE id = ?`), `{"notifyUrl":"","manual":true}`, who.AgencyID); err != nil {
		t.Fatal(err)
	}
	a.Agencies.Forget(who.AgencyID)
	date := time.Now().In(time.FixedZone("CST", 8*3600)).AddDate(0, 0, 3).Format(time.DateOnly)
	res, err := a.Trains.Search(ctx, who, train.SearchRequest{Origin: "VNP", Destination: "AOH", Date: date})
	if err != nil || len(res.Items) == 0 {
		t.Fatalf("train search: %v", err)
	}
	key := fmt.Sprintf("apptest-train-%d", time.Now().UnixNano())
	o, err := a.Trains.Create(ctx, who, key, train.CreateRequest{OfferID: res.Items[0].ID, SeatClass: "second",
		Passengers: []train.Passenger{{Type: "adult", Surname: "LI", GivenName: "NA", DocumentType: "passport", DocumentNumber: "E7654321"}},
		Contact:    train.Contact{Name: "Li Na", Phone: "+86 139 0000 0000"}})
	if err != nil {
		t.Fatal(err)
	}
	fundWallet(t, a, who.AgencyID, key+"-fund")
	if _, err := a.Trains.Pay(ctx, who, o.ID, key+"-pay", train.PayRequest{Channel: train.ChannelBalance}); err != nil {
		t.Fatal(err)
	}
	return o.ID
}
