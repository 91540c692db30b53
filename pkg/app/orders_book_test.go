package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// silent is a supplier that never answers a booking, a refund quote or a
// void, as the simulators now and then do (their time-out rate): the call
// holds until its context ends, or fails after a minute when nothing ends
// it.
type silent struct {
	supplier.Supplier
	calls *atomic.Int32
}

func (s silent) wait(ctx context.Context) error {
	s.calls.Add(1)
	select {
	case <-ctx.Done():
		return fmt.Errorf("silent: %w: %w", supplier.ErrTimeout, ctx.Err())
	case <-time.After(time.Minute):
		return errors.New("silent: the call was never given up")
	}
}

func (s silent) Book(ctx context.Context, _ supplier.BookRequest) (supplier.Booking, error) {
	return supplier.Booking{}, s.wait(ctx)
}

func (s silent) Void(ctx context.Context, _ string) error { return s.wait(ctx) }

func (s silent) RefundQuote(ctx context.Context, _ string) (supplier.Quote, error) {
	return supplier.Quote{}, s.wait(ctx)
}

// silentOrders is the order service of another instance on a's database
// whose suppliers are silent and whose calls are bounded at 200 ms.
func silentOrders(a *app.App, calls *atomic.Int32) *flight.Service {
	return flight.New(flight.Options{Deps: booking.Deps{DB: a.DB, Ledger: a.Ledger, Agencies: a.Agencies}, Quotes: shopping.NewQuotes(a.DB), Looks: a.AgencyAdmin, Suppliers: func(name string) (supplier.Supplier, bool) {
		sup, ok := a.Shopping.Supplier(name)
		return silent{sup, calls}, ok
	}, CallTimeout: 200 * time.Millisecond})
}

// principal is who a session token signs in as, for calling a service
// directly.
func principal(t *testing.T, a *app.App, token string) auth.Principal {
	t.Helper()
	p, err := a.Auth.Authenticate(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A booking the supplier never answers fails as the supplier being busy
// instead of holding the agent's request; nothing is stored under its key,
// so the same request books once the supplier answers again.
func TestCreateOrderGivesUpOnASupplierThatNeverBooks(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		quoteID, _ := quoteFor(t, srv, op.Token)
		var calls atomic.Int32
		silent := silentOrders(a, &calls)
		var req flight.CreateRequest
		if err := json.Unmarshal(fmt.Appendf(nil, adultBody, quoteID), &req); err != nil {
			t.Fatal(err)
		}
		_, err := silent.Create(ctx, principal(t, a, op.Token), "silent-1", req)
		fe, ok := fault.As(err)
		if !ok || fe.Key != "order.error.supplierBusy" || fe.Code != fault.CodeSearchTimeout || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("create with a silent supplier: %v, want order.error.supplierBusy at the call's deadline", err)
		}
		if calls.Load() != 1 {
			t.Fatalf("the supplier was asked to book %d times, want 1", calls.Load())
		}
		var n int
		if err := a.DB.GetContext(ctx, &n, a.DB.Rebind(`SELECT COUNT(*) FROM flight_orders WHERE agency_id = ?`), op.Company.ID); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("%d orders stored after a booking that failed", n)
		}
		o := createOrder(t, srv, op.Token, quoteID, "silent-1")
		if o.ID == 0 || len(o.BookingNumber) == 0 {
			t.Fatalf("the same request, tried again, gave %+v", o)
		}
	})
}

// A refund the supplier never quotes is answered as unavailable instead of
// holding the provider's review; the request stays as it was, to review
// again.
func TestRefundReviewGivesUpOnASupplierThatNeverQuotes(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()
		id := apptest.RefundRequest(t, a)
		provider := principal(t, a, loginAs(t, srv, "provider-admin", "provider-pass-1").Token)
		before, err := a.Orders.Get(ctx, provider, id)
		if err != nil {
			t.Fatal(err)
		}
		var calls atomic.Int32
		_, err = silentOrders(a, &calls).Review(ctx, provider, id, flight.ReviewRequest{Action: flight.ActApprove})
		fe, ok := fault.As(err)
		if !ok || fe.Key != "order.error.refundUnavailable" || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("review with a silent supplier: %v, want order.error.refundUnavailable at the call's deadline", err)
		}
		if calls.Load() == 0 {
			t.Fatal("the supplier was never asked for a quote")
		}
		after, err := a.Orders.Get(ctx, provider, id)
		if err != nil {
			t.Fatal(err)
		}
		if after.Status != before.Status || after.Total != before.Total {
			t.Fatalf("the request moved from %s (%v) to %s (%v)", before.Status, before.Total, after.Status, after.Total)
		}
	})
}

// A void the supplier never answers is held for the provider to check
// (the tickets may or may not be void), with nothing paid back, instead of
// holding the provider's review.
func TestVoidReviewGivesUpOnASupplierThatNeverVoids(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		ctx := context.Background()
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		fund(t, a, op.Company.ID, "20000")
		quoteID, _ := quoteFor(t, srv, op.Token)
		o, void := voidRequest(t, a, srv, op.Token, quoteID, "silent-void")
		paid := walletMinor(t, a, op.Company.ID)
		var calls atomic.Int32
		got, err := silentOrders(a, &calls).Review(ctx, principal(t, a, provider.Token), void.ID, flight.ReviewRequest{Action: flight.ActApprove})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != flight.VoidHolding || calls.Load() == 0 {
			t.Fatalf("void after a silent supplier: %s (%d calls), want %s", got.Status, calls.Load(), flight.VoidHolding)
		}
		if w := walletMinor(t, a, op.Company.ID); w != paid {
			t.Fatalf("wallet %d after a void nobody confirmed, want %d", w, paid)
		}
		if orig := getOrder(t, srv, op.Token, o.ID); orig.Status == flight.Closed {
			t.Fatal("the original order was closed by a void nobody confirmed")
		}
	})
}
