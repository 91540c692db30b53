package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestWalletGroupPaymentInReadersLanguage: a group deposit posted with its
// English description reads in Chinese on a Chinese wallet, from the
// payment's stage and its order; a payment whose order is gone reads as
// posted.
func TestWalletGroupPaymentInReadersLanguage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t, store.SQLite)
	agencies := agency.NewStore(db)
	if err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		one := int64(1)
		for _, n := range []agency.New{{ID: 1, Name: "Voyage"}, {ID: 2, ParentID: &one, Name: "Demo Travel"}} {
			if _, err := agencies.Create(ctx, tx, n); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Group order G0001 of agency 2: Beijing to Shanghai, 20 passengers.
	var orderID int64
	at := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	if err := db.GetContext(ctx, &orderID, db.Rebind(`INSERT INTO group_orders (booking_number, agency_id, status, journeys, adults, children, infants,
		cabin, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		"G0001", 2, "deposit_paid", `[{"origin":"PEK","destination":"SHA","date":"2026-12-20"}]`, 18, 2, 0, "Y", "CNY", at, at); err != nil {
		t.Fatal(err)
	}
	led := ledger.New(db)
	for _, tr := range []ledger.Transfer{
		{IdempotencyKey: "t1", From: ledger.Provider(ledger.KindFunding), To: ledger.Wallet(2), Amount: 500000, PaymentType: ledger.TypeTopUp, Description: "top-up"},
		{IdempotencyKey: fmt.Sprintf("group-%d-first", orderID), From: ledger.Wallet(2), To: ledger.Provider(ledger.KindSuppliers), Amount: 100000,
			PaymentType: ledger.TypeGroupDeposit, OrderID: "G0001", Description: "group PEK-SHA first (20 pax)"},
		{IdempotencyKey: fmt.Sprintf("group-%d-final", orderID+1), From: ledger.Wallet(2), To: ledger.Provider(ledger.KindSuppliers), Amount: 50000,
			PaymentType: ledger.TypeGroupPayment, OrderID: "G0404", Description: "group CAN-HKG final (12 pax)"},
	} {
		tr.AgencyID, tr.Currency, tr.CreatedBy = 2, "CNY", "test"
		if _, err := led.Post(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	finance := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{IsShowBill: true, SettlementCurrency: "CNY"}}
	id := &fakeIdentity{sessions: map[string]auth.Principal{"fin": {UserID: 5, Username: "fin", AgencyID: 2, SessionID: 50, Subject: finance}}}
	s := &Server{identity: managerIdentity{id}, agencies: agencies, wallets: led, groupEntries: group.New(group.Options{Deps: booking.Deps{DB: db}}), now: time.Now}
	s.site = testSite(db, nil)
	mux := http.NewServeMux()
	s.Register(mux)
	cat := i18n.MustLoad()
	h := s.Guard(mux)
	for _, tt := range []struct {
		lang, want, notWant string
	}{
		{i18n.ZhCN, "团队订单 PEK-SHA：第一期定金，20 名乘客", "group PEK-SHA first"},
		{i18n.ZhTW, "團體訂單 PEK-SHA：第一期定金，20 名乘客", "group PEK-SHA first"},
		{i18n.EN, "Group order PEK-SHA: First deposit, 20 passengers", "group PEK-SHA first"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			lh := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(w, r.WithContext(i18n.WithLocalizer(r.Context(), cat, tt.lang)))
			})
			res := send(lh, "fin", "GET", "/bills/wallet", nil)
			page := billBody(t, res)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d\n%s", res.StatusCode, page)
			}
			if !strings.Contains(page, tt.want) {
				t.Errorf("the wallet lacks %q", tt.want)
			}
			if strings.Contains(page, tt.notWant) {
				t.Errorf("the wallet still shows the posted English %q", tt.notWant)
			}
			// The order is not found: the entry keeps its posted text.
			if !strings.Contains(page, "group CAN-HKG final (12 pax)") {
				t.Error("a payment of an unknown order lost its description")
			}
		})
	}
}
