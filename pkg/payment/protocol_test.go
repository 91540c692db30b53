package payment_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	agencypkg "github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// booking records the protocol's calls. While held (unless gone, a
// booking ended meanwhile) Paid answers the payment for the ledger.
type booking struct {
	agencyID               int64
	holdErr                error
	gone                   bool
	held, settled, release []string
	putBack                []string
}

func (b *booking) Hold(_ context.Context, _ *sqlx.Tx, key string) error {
	if b.holdErr != nil {
		return b.holdErr
	}
	b.held = append(b.held, key)
	return nil
}

func (b *booking) Paid(_ context.Context, _ *sqlx.Tx, key string, res payment.ChargeResult) (payment.Taken, bool, error) {
	t := payment.Taken{Channel: "alipay", Key: key, Reference: res.Reference,
		Pay: ledger.Transfer{AgencyID: b.agencyID, IdempotencyKey: "pay-B1", From: ledger.Wallet(b.agencyID), To: ledger.Provider(ledger.KindSuppliers),
			Amount: 100_00, Currency: "CNY", PaymentType: ledger.TypeOriginFlight, OrderID: "B1", CreatedBy: "system"}}
	if b.gone {
		b.putBack = append(b.putBack, key)
		return t, false, nil
	}
	b.settled = append(b.settled, key)
	return t, true, nil
}

func (b *booking) Unpaid(_ context.Context, _ *sqlx.Tx, key string) error {
	b.release = append(b.release, key)
	return nil
}

// agency makes an agency under a provider, for its wallet.
func agency(t *testing.T, db *store.DB) int64 {
	t.Helper()
	ctx := context.Background()
	s := agencypkg.NewStore(db)
	var id int64
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		root, err := s.Create(ctx, tx, agencypkg.New{Name: "Provider"})
		if err != nil {
			return err
		}
		a, err := s.Create(ctx, tx, agencypkg.New{ParentID: &root.ID, Name: "Agency"})
		id = a.ID
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
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
	pay := payment.Protocol{DB: db, Ledger: ledger.New(db)}
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
			b, gw := &booking{agencyID: agency(t, db), holdErr: c.holdErr}, &gateway{err: c.gwErr}
			err := pay.Take(context.Background(), gw, payment.Charge{Key: "k1", Amount: 100_00, Currency: "CNY"}, b)
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
			// What was settled is in the ledger: the receipt by the
			// channel and the booking's price.
			entries, _, err := pay.Ledger.Entries(context.Background(), b.agencyID, ledger.EntryFilter{Currency: "CNY"})
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 2*c.settled {
				t.Fatalf("%d wallet entries after %d settled payments", len(entries), c.settled)
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
	db := storetest.Open(t, store.SQLite)
	pay := payment.Protocol{DB: db, Ledger: ledger.New(db)}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := &booking{agencyID: agency(t, db)}
			err := pay.Check(context.Background(), c.gw, "k1", b)
			if (err != nil) != c.wantErr || len(b.settled) != c.settled || len(b.release) != c.released {
				t.Fatalf("err %v, settled %v, released %v", err, b.settled, b.release)
			}
		})
	}
}

// TestPutBack: money a gateway took for a booking no longer held by the
// payment (ended, paid meanwhile) lands in the agency's wallet, once
// however often the status check runs.
func TestPutBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t, store.SQLite)
	pay := payment.Protocol{DB: db, Ledger: ledger.New(db)}
	b := &booking{agencyID: agency(t, db), gone: true}
	for range 3 {
		if err := pay.Check(ctx, &gateway{}, "k1", b); err != nil {
			t.Fatal(err)
		}
	}
	entries, _, err := pay.Ledger.Entries(ctx, b.agencyID, ledger.EntryFilter{Currency: "CNY"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.putBack) != 3 || len(b.settled) != 0 || len(entries) != 1 || entries[0].Type != ledger.TypeTopUp || entries[0].Amount != 100_00 {
		t.Fatalf("put back %v, settled %v, entries %+v", b.putBack, b.settled, entries)
	}
	bal, err := pay.Ledger.WalletBalance(ctx, b.agencyID, "CNY")
	if err != nil {
		t.Fatal(err)
	}
	if bal.Balance != 100_00 {
		t.Fatalf("wallet %+v, want the 100.00 CNY taken", bal)
	}
}

// TestPay: what every line's caller is told of a gateway payment, and the
// key the gateway is asked with.
func TestPay(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.SQLite)
	pay := payment.Protocol{DB: db, Ledger: ledger.New(db)}
	cases := []struct {
		name      string
		gwErr     error
		status    int
		key, want string
	}{
		{"paid", nil, 0, "k1", "train-7-k1"},
		{"declined: the spec's Pay Fail", payment.ErrDeclined, 402, "k1", "order.error.payFail"},
		{"no answer: the spec's Timeout", payment.ErrPaymentTimeout, 504, "k1", "order.error.payTimeout"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, gw := &booking{agencyID: agency(t, db)}, &gateway{err: c.gwErr}
			err := pay.Pay(context.Background(), gw, "train-7", c.key, payment.Charge{Amount: 100_00, Currency: "CNY"}, b)
			if c.status == 0 {
				if err != nil || len(b.held) != 1 || b.held[0] != c.want {
					t.Fatalf("err %v, held with %v, want %s", err, b.held, c.want)
				}
				return
			}
			fe := fault.From(err)
			if fe.Status != c.status || fe.Code != fault.CodePaymentFailed || fe.Key != c.want {
				t.Fatalf("err %v (%d %d %s), want %d %s", err, fe.Status, fe.Code, fe.Key, c.status, c.want)
			}
		})
	}
	t.Run("no key: each attempt its own payment", func(t *testing.T) {
		b := &booking{agencyID: agency(t, db)}
		for range 2 {
			if err := pay.Pay(context.Background(), &gateway{}, "group-3-first", "", payment.Charge{Amount: 100_00, Currency: "CNY"}, b); err != nil {
				t.Fatal(err)
			}
		}
		if len(b.held) != 2 || b.held[0] == b.held[1] || !strings.HasPrefix(b.held[0], "group-3-first-") || len(b.held[0]) > payment.MaxKey {
			t.Fatalf("keys %v: want two keys of the scope, each at most %d characters", b.held, payment.MaxKey)
		}
	})
}
