package app_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/train"
)

// TestTrainBookingsOutliveTheInstance: the simulated railway's bookings are
// in the database, so an order booked, paid and ticketed through one
// instance is refunded through another on the same database (a restart, or
// two servers), and a manual-mode order paid through one is ticketed by the
// provider through the other.
func TestTrainBookingsOutliveTheInstance(t *testing.T) {
	t.Parallel()
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		first, srv1 := newAppOn(t, dsn)
		runJobs(t, first)
		demoID := agencyID(t, first, "Demo Travel")
		fund(t, first, demoID, "10000.00")
		op := loginAs(t, srv1, "demo-operator", "demo-pass-1").Token
		offer := secondClassOffer(t, srv1, op, 3, 2)
		resp, env, v := bookTrain(t, srv1, op, offer.ID, twoPassengers, "instances-book-1")
		if resp.StatusCode != 201 {
			t.Fatalf("create: %d %+v", resp.StatusCode, env)
		}
		if resp, env, _ := payTrain(t, srv1, op, v.ID, "instances-pay-1"); resp.StatusCode != 200 {
			t.Fatalf("pay: %d %+v", resp.StatusCode, env)
		}
		waitTrain(t, srv1, op, v.ID, train.Issued)
		manual := apptest.ManualTrainOrder(t, first)

		other, srv2 := newAppOn(t, dsn)
		runJobs(t, other)
		op2 := loginAs(t, srv2, "demo-operator", "demo-pass-1").Token
		resp, env = call(t, srv2, "POST", fmt.Sprintf("/order/v2/train/orders/%d/refund", v.ID), "en", `{"passengers":[2]}`, bearer(op2)...)
		if resp.StatusCode != 200 {
			t.Fatalf("refund quote on the other instance: %d %+v", resp.StatusCode, env)
		}
		resp, env = call(t, srv2, "POST", fmt.Sprintf("/order/v2/train/orders/%d/confirmation", v.ID), "en", "", bearer(op2)...)
		var done train.View
		_ = json.Unmarshal(env.Data, &done)
		if resp.StatusCode != 200 || done.Status != train.PartiallyRefunded {
			t.Fatalf("refund confirmed on the other instance: %d %+v", resp.StatusCode, env)
		}

		provider := loginAs(t, srv2, "provider-admin", "provider-pass-1").Token
		resp, env = call(t, srv2, "POST", fmt.Sprintf("/order/v2/train/orders/%d/tickets", manual), "en", `{}`, bearer(provider)...)
		var issued train.View
		_ = json.Unmarshal(env.Data, &issued)
		if resp.StatusCode != 200 || issued.Status != train.Issued || len(issued.Tickets) != 1 || issued.Tickets[0].Number == "" {
			t.Fatalf("manual tickets issued on the other instance: %d %+v", resp.StatusCode, env)
		}
	})
}
