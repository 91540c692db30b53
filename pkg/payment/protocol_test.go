package payment_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// booking records the protocol's calls.
type booking struct {
	holdErr                error
	held, settled, release []string
}

func (b *booking) Hold(_ context.Context, _ *sqlx.Tx, key string) error {
	if b.holdErr != nil {
		return b.holdErr
	}
	b.held = append(b.held, key)
	return nil
}

func (b *booking) Settle(_ context.Context, key string, _ payment.ChargeResult) error {
	b.settled = append(b.settled, key)
	return nil
}

func (b *booking) Release(_ context.Context, key string) error {
	b.release = append(b.release, key)
	return nil
}

// gateway answers Charge and Status with err.
type gateway struct {
	err     error
	charges int
}

func (g *gateway) Charge(context.Context, payment.Charge) (payment.ChargeResult, error) {
	g.charges++
	return payment.ChargeResult{Reference: "ref"}, g.err
}

func (g *gateway) Status(context.Context, string) (payment.ChargeResult, error) {
	return payment.ChargeResult{Reference: "ref"}, g.err
}

// TestTake: hold first, then charge; settle on success, release on a
// decline, neither when the gateway does not answer (the status check
// will); nothing is charged when the booking cannot be held.
func TestTake(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.SQLite)
	other := errors.New("connection reset")
	cases := []struct {
		name                    string
		gwErr, holdErr          error
		want                    error
		charges                 int
		held, settled, released int
	}{
		{"paid", nil, nil, nil, 1, 1, 1, 0},
		{"declined", payment.ErrDeclined, nil, payment.ErrDeclined, 1, 1, 0, 1},
		{"no answer", payment.ErrPaymentTimeout, nil, payment.ErrPaymentTimeout, 1, 1, 0, 0},
		{"broken connection", other, nil, payment.ErrPaymentTimeout, 1, 1, 0, 0},
		{"not payable", nil, errors.New("paid meanwhile"), nil, 0, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, gw := &booking{holdErr: c.holdErr}, &gateway{err: c.gwErr}
			err := payment.Take(context.Background(), db, gw, payment.Charge{Key: "k1", Amount: 100, Currency: "CNY"}, b)
			switch {
			case c.holdErr != nil:
				if !errors.Is(err, c.holdErr) {
					t.Fatalf("err %v, want the hold's", err)
				}
			case c.want == nil && err != nil, c.want != nil && !errors.Is(err, c.want):
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if gw.charges != c.charges || len(b.held) != c.held || len(b.settled) != c.settled || len(b.release) != c.released {
				t.Fatalf("charges %d, held %v, settled %v, released %v", gw.charges, b.held, b.settled, b.release)
			}
		})
	}
}

// TestCheck: the status check settles what the gateway took, releases what
// it did not (or does not know), and asks again later when it cannot say.
func TestCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name              string
		gw                payment.Gateway
		wantErr           bool
		settled, released int
	}{
		{"took it", &gateway{}, false, 1, 0},
		{"declined", &gateway{err: payment.ErrDeclined}, false, 0, 1},
		{"never saw it", &gateway{err: payment.ErrUnknownPayment}, false, 0, 1},
		{"cannot say yet", &gateway{err: payment.ErrPaymentTimeout}, true, 0, 0},
		{"channel gone", nil, false, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := &booking{}
			err := payment.Check(context.Background(), c.gw, "k1", b)
			if (err != nil) != c.wantErr || len(b.settled) != c.settled || len(b.release) != c.released {
				t.Fatalf("err %v, settled %v, released %v", err, b.settled, b.release)
			}
		})
	}
}
