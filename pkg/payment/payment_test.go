package payment_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
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

// TestKey: a payment key names its scope and the caller's key, and stays
// short enough for the ledger's record of it ("receipt-" + key, at most
// 100 characters) whatever the caller's key (the API takes 100).
func TestKey(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("k", 100)
	tests := []struct {
		name, scope, key, want string
	}{
		{"short key kept", "order-12", "pay-1", "order-12-pay-1"},
		{"at the bound kept", "train-9", strings.Repeat("a", payment.MaxKey-len("train-9-")), "train-9-" + strings.Repeat("a", payment.MaxKey-len("train-9-"))},
		{"the longest key hashed", "group-123456789-second", long, ""},
		{"non-ASCII counted in bytes", "order-1", strings.Repeat("中", 30), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := payment.Key(tt.scope, tt.key)
			if tt.want != "" && got != tt.want {
				t.Errorf("Key(%q, %q) = %q, want %q", tt.scope, tt.key, got, tt.want)
			}
			if len(got) > payment.MaxKey || len("receipt-"+got) > 100 {
				t.Errorf("Key(%q, %d-byte key) = %q: %d bytes, over %d", tt.scope, len(tt.key), got, len(got), payment.MaxKey)
			}
			if !strings.HasPrefix(got, tt.scope+"-") {
				t.Errorf("Key(%q, …) = %q does not name its scope", tt.scope, got)
			}
			if again := payment.Key(tt.scope, tt.key); again != got {
				t.Errorf("the same key made %q then %q", got, again)
			}
		})
	}
	if payment.Key("order-1", long) == payment.Key("order-1", long[:99]+"j") {
		t.Error("two long keys made one payment key")
	}
	if payment.Key("order-1", long) == payment.Key("order-2", long) {
		t.Error("one long key made the same payment key on two orders")
	}
}

func TestTradeNo(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"order_12_abc", "order_12_abc"},
		{"order-12-abc", "v" + sha256Hex("order-12-abc")[:31]},
		{"group_7_first", "group_7_first"},
		{"abc", "v" + "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"[:31]},
		{"order-12-" + strings.Repeat("k", 30), "v" + sha256Hex("order-12-" + strings.Repeat("k", 30))[:31]},
		{"order-12-ключ", "v" + sha256Hex("order-12-ключ")[:31]},
	} {
		got := payment.TradeNo(tc.key)
		if got != tc.want || len(got) > 32 {
			t.Errorf("TradeNo(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
