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
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/order"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// silentBook is a supplier whose bookings never answer, as the simulators'
// now and then (their time-out rate): Book holds until its context ends, or
// fails after a minute when nothing ends it.
type silentBook struct {
	supplier.Supplier
	calls *atomic.Int32
}

func (s silentBook) Book(ctx context.Context, _ supplier.BookRequest) (supplier.Booking, error) {
	s.calls.Add(1)
	select {
	case <-ctx.Done():
		return supplier.Booking{}, fmt.Errorf("silent: %w: %w", supplier.ErrTimeout, ctx.Err())
	case <-time.After(time.Minute):
		return supplier.Booking{}, errors.New("silent: the booking was never given up")
	}
}

// A booking the supplier never answers fails as the supplier being busy
// instead of holding the agent's request; nothing is stored under its key,
// so the same request books once the supplier answers again.
func TestCreateOrderGivesUpOnASupplierThatNeverBooks(t *testing.T) {
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		quoteID, _ := quoteFor(t, srv, op.Token)
		var calls atomic.Int32
		silent := order.New(order.Options{DB: a.DB, Ledger: a.Ledger, Quotes: shopping.NewQuotes(a.DB), Agencies: a.Agencies, Looks: a.AgencyAdmin,
			Suppliers: func(name string) (supplier.Supplier, bool) {
				sup, ok := a.Shopping.Supplier(name)
				return silentBook{sup, &calls}, ok
			},
			BookTimeout: 200 * time.Millisecond})
		var req order.CreateRequest
		if err := json.Unmarshal(fmt.Appendf(nil, adultBody, quoteID), &req); err != nil {
			t.Fatal(err)
		}
		who := auth.Principal{UserID: op.UserInfo.ID, AgencyID: op.Company.ID, Username: "demo-operator",
			Subject: auth.Subject{Roles: []string{auth.RoleOperator}}}
		_, err := silent.Create(ctx, who, "silent-1", req)
		fe, ok := fault.As(err)
		if !ok || fe.Key != "order.error.supplierBusy" || fe.Code != fault.CodeSearchTimeout {
			t.Fatalf("create with a silent supplier: %v, want order.error.supplierBusy", err)
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
