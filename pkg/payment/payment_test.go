package payment_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestTestGatewayKeepsItsPayments: the test gateway answers as a real one
// does, on both engines: the first charge of a key decides it, a time-out
// is a payment taken whose answer was lost, and what it took is known to a
// gateway of another instance on the same database (a restarted one after
// a kill -9) as well as to the one that took it.
func TestTestGatewayKeepsItsPayments(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		gw := payment.NewTestGateway(db)
		gw.FeePercent = 2
		other := payment.NewTestGateway(db)
		charge := func(key, outcome string) payment.Charge {
			return payment.Charge{Key: key, Channel: "alipay", OrderID: 7, Amount: 150_00, Currency: "CNY", TestOutcome: outcome}
		}

		cases := []struct {
			name, key, outcome string
			chargeErr          error
			statusErr          error
		}{
			{"paid", "k-paid", payment.OutcomeSuccess, nil, nil},
			{"declined", "k-declined", payment.OutcomeFailure, payment.ErrDeclined, payment.ErrDeclined},
			{"answer lost", "k-timeout", payment.OutcomeTimeout, payment.ErrPaymentTimeout, nil},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := gw.Charge(ctx, charge(c.key, c.outcome))
				if !errors.Is(err, c.chargeErr) || (c.chargeErr == nil && err != nil) {
					t.Fatalf("charge: %v, want %v", err, c.chargeErr)
				}
				// Another instance's gateway, asked after the first one
				// answered (or died), knows the key.
				res, err := other.Status(ctx, c.key)
				if !errors.Is(err, c.statusErr) || (c.statusErr == nil && err != nil) {
					t.Fatalf("status elsewhere: %v, want %v", err, c.statusErr)
				}
				if c.statusErr == nil && (res.Reference != "test-"+c.key || res.Fee != 3_00) {
					t.Errorf("status elsewhere: %+v, want reference test-%s and a 2%% fee of 3.00", res, c.key)
				}
				// A replay, whatever it asks for now, answers what the key is.
				_, err = other.Charge(ctx, charge(c.key, payment.OutcomeSuccess))
				if !errors.Is(err, c.statusErr) || (c.statusErr == nil && err != nil) {
					t.Errorf("replayed charge: %v, want %v", err, c.statusErr)
				}
			})
		}

		if _, err := gw.Status(ctx, "k-never"); !errors.Is(err, payment.ErrUnknownPayment) {
			t.Errorf("status of a key never charged: %v, want ErrUnknownPayment", err)
		}

		// Replays at once on two instances take one payment.
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				g := gw
				if i%2 == 1 {
					g = other
				}
				_, errs[i] = g.Charge(ctx, charge("k-race", payment.OutcomeSuccess))
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("replay %d: %v", i, err)
			}
		}
		var n int
		if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM test_gateway_payments WHERE payment_key = 'k-race'`); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("%d payments recorded for one key, want 1", n)
		}

		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := gw.Charge(cancelled, charge("k-cancelled", payment.OutcomeSuccess)); err == nil {
			t.Error("a charge on a cancelled request went through")
		}
		if _, err := gw.Status(ctx, "k-cancelled"); !errors.Is(err, payment.ErrUnknownPayment) {
			t.Errorf("a cancelled charge left %v, want nothing taken", err)
		}
	})
}
