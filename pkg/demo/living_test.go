package demo

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// The living demo agency has money, a credit line, its contacts, orders in
// several states, a statement and a funded sub-agency that has booked;
// seeding twice adds nothing, and a seed stopped half-way (Harbour Travel
// made, one order booked but not paid) is finished by the next one.
func TestSeedLivingAgencyTwice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// halfDone makes Harbour Travel and books its first order without
		// paying it, as a seed stopped after those steps leaves them.
		halfDone bool
	}{{"fresh", false}, {"stopped half-way", true}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, d := range storetest.Engines {
				t.Run(string(d), func(t *testing.T) { testSeedLiving(t, apptest.Open(t, storetest.DSN(t, d)), tc.halfDone) })
			}
		})
	}
}

func testSeedLiving(t *testing.T, a *app.App, halfDone bool) {
	ctx := context.Background()
	sv := Services{DB: a.DB, Agencies: a.Agencies, AgencyAdmin: a.AgencyAdmin, Ledger: a.Ledger, Shopping: a.Shopping, Orders: a.Orders, Trains: a.Trains, Groups: a.Groups}
	if _, err := seedIdentity(ctx, a.DB); err != nil {
		t.Fatal(err)
	}
	if halfDone {
		var p struct {
			ID       int64 `db:"id"`
			AgencyID int64 `db:"agency_id"`
		}
		if err := a.DB.GetContext(ctx, &p, a.DB.Rebind(`SELECT id, agency_id FROM users WHERE username = ?`), "provider-admin"); err != nil {
			t.Fatal(err)
		}
		provider, err := principal(ctx, sv, livingAgency{agencyID: p.AgencyID, userID: p.ID}, "provider-admin")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.AgencyAdmin.Create(ctx, provider, harbourTravel); err != nil {
			t.Fatal(err)
		}
		harbour, _, err := agencyOf(ctx, a.DB, "harbour-super", nil)
		if err != nil {
			t.Fatal(err)
		}
		who, err := principal(ctx, sv, harbour, "harbour-super")
		if err != nil {
			t.Fatal(err)
		}
		booked := harbourFlights[0]
		booked.state = stateUnpaid
		if err := seedFlight(ctx, sv, who, booked); err != nil {
			t.Fatal(err)
		}
	}
	var first livingSnapshot
	for i := 0; i < 2; i++ {
		created, err := seedLiving(ctx, sv)
		if err != nil {
			t.Fatalf("seed %d: %v", i+1, err)
		}
		if created != (i == 0 && !halfDone) {
			t.Errorf("seed %d created = %v", i+1, created)
		}
		s := checkLiving(t, a)
		if i == 0 {
			first = s
		} else if !maps.Equal(s.flights, first.flights) || !maps.Equal(s.trains, first.trains) || !maps.Equal(s.groups, first.groups) || s.statements != first.statements ||
			s.harbourBalance != first.harbourBalance || s.kidsBalance != first.kidsBalance || s.transfers != first.transfers {
			t.Errorf("the second seed changed the data:\n%+v\nafter the first:\n%+v", s, first)
		}
	}
}

// livingSnapshot is what a seed leaves, to compare two runs.
type livingSnapshot struct {
	// flights and trains count orders by agency, type and status; groups
	// by agency, status and total.
	flights, trains, groups     map[string]int
	statements                  int
	harbourBalance, kidsBalance int64
	transfers                   int
}

// harbourOrder is an order of a living agency as a line's table holds it.
type harbourOrder struct {
	Agency string `db:"name"`
	Status string `db:"status"`
	Total  int64  `db:"total"`
}

// harbourOrders reads the living agencies' orders from table, a line's.
func harbourOrders(t *testing.T, a *app.App, table string) []harbourOrder {
	t.Helper()
	var rows []harbourOrder
	if err := a.DB.SelectContext(context.Background(), &rows, `SELECT a.name, o.status, o.total FROM `+table+` o
		JOIN agencies a ON a.id = o.agency_id WHERE a.name LIKE 'Harbour%'`); err != nil {
		t.Fatal(err)
	}
	return rows
}

// checkLiving asserts the living agencies' data after a seed and answers
// it.
func checkLiving(t *testing.T, a *app.App) livingSnapshot {
	t.Helper()
	ctx := context.Background()
	db := a.DB
	var harbour struct {
		ID    int64  `db:"id"`
		Email string `db:"contact_email"`
	}
	if err := db.GetContext(ctx, &harbour, db.Rebind(`SELECT id, contact_email FROM agencies WHERE name = ?`), "Harbour Travel"); err != nil {
		t.Fatal(err)
	}
	if harbour.Email != "ops@harbour-travel.example" {
		t.Errorf("contact email %q", harbour.Email)
	}
	var kids int64
	if err := db.GetContext(ctx, &kids, db.Rebind(`SELECT id FROM agencies WHERE name = ? AND parent_id = ?`), "Harbour Kids Travel", harbour.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM agencies WHERE name LIKE 'Harbour%'`); err != nil || n != 2 {
		t.Errorf("%d Harbour agencies, want 2 (%v)", n, err)
	}

	s := livingSnapshot{flights: map[string]int{}, trains: map[string]int{}, groups: map[string]int{}}
	var rows []struct {
		Agency string `db:"name"`
		Type   string `db:"type"`
		Status string `db:"status"`
		Total  int64  `db:"total"`
		Paid   string `db:"payment_status"`
	}
	if err := db.SelectContext(ctx, &rows, `SELECT a.name, o.type, o.status, o.total, o.payment_status FROM flight_orders o
		JOIN agencies a ON a.id = o.agency_id WHERE a.name LIKE 'Harbour%'`); err != nil {
		t.Fatal(err)
	}
	paid := map[string]int64{}
	for _, r := range rows {
		s.flights[r.Agency+" "+r.Type+" "+r.Status]++
		if r.Type == "origin" && r.Paid == "paid" {
			paid[r.Agency] += r.Total
		}
	}
	wantFlights := map[string]int{
		// Ticketed, and the one whose refund is asked for.
		"Harbour Travel origin issued":        2,
		"Harbour Travel origin to_be_paid":    1,
		"Harbour Travel origin canceled":      1,
		"Harbour Travel refund rfd_reviewing": 1,
		"Harbour Kids Travel origin issued":   1,
	}
	if !maps.Equal(s.flights, wantFlights) {
		t.Errorf("flight orders by agency, type and status:\n%v\nwant\n%v", s.flights, wantFlights)
	}
	for _, r := range harbourOrders(t, a, "train_orders") {
		s.trains[r.Agency+" "+r.Status]++
		paid[r.Agency] += r.Total
	}
	if want := map[string]int{"Harbour Travel issued": 1}; !maps.Equal(s.trains, want) {
		t.Errorf("train orders %v, want %v", s.trains, want)
	}
	// The group request, quoted and waiting for Harbour Travel: 4 adults
	// at 1,450.00 and 12 children at 1,100.00. Nothing is paid yet.
	for _, r := range harbourOrders(t, a, "group_orders") {
		s.groups[fmt.Sprintf("%s %s %d", r.Agency, r.Status, r.Total)]++
	}
	if want := map[string]int{"Harbour Travel to_be_confirm 1900000": 1}; !maps.Equal(s.groups, want) {
		t.Errorf("group orders %v, want %v", s.groups, want)
	}

	// 7,000 USD at 7.10 less 0.5 %: 49,700.00 − 248.50, less the 5,000.00
	// given to Harbour Kids Travel, less what its orders cost.
	b, err := a.Ledger.WalletBalance(ctx, harbour.ID, "CNY")
	if err != nil {
		t.Fatal(err)
	}
	if b.Balance != 4445150-paid["Harbour Travel"] || b.CreditLimit != 2000000 || paid["Harbour Travel"] <= 0 {
		t.Errorf("Harbour Travel balance %d credit %d, want 44,451.50 less %d paid and 20,000.00", b.Balance, b.CreditLimit, paid["Harbour Travel"])
	}
	s.harbourBalance = b.Balance
	kb, err := a.Ledger.WalletBalance(ctx, kids, "CNY")
	if err != nil || kb.Balance != 500000-paid["Harbour Kids Travel"] || paid["Harbour Kids Travel"] <= 0 {
		t.Errorf("Harbour Kids Travel balance %+v %v, want 5,000.00 less %d paid", kb, err, paid["Harbour Kids Travel"])
	}
	s.kidsBalance = kb.Balance
	for id, bal := range map[int64]int64{harbour.ID: b.Balance, kids: kb.Balance} {
		if sum := walletEntriesSum(t, a, id); sum != bal {
			t.Errorf("agency %d: wallet entries sum to %s, balance %s", id, money.Amount{Minor: sum, Currency: "CNY"}, money.Amount{Minor: bal, Currency: "CNY"})
		}
	}
	var sums []struct {
		Currency string `db:"currency"`
		Sum      int64  `db:"s"`
	}
	if err := db.SelectContext(ctx, &sums, `SELECT currency, SUM(balance) AS s FROM ledger_accounts GROUP BY currency`); err != nil {
		t.Fatal(err)
	}
	for _, r := range sums {
		if r.Sum != 0 {
			t.Errorf("ledger %s sums to %d", r.Currency, r.Sum)
		}
	}
	if err := db.GetContext(ctx, &s.transfers, `SELECT COUNT(*) FROM ledger_transfers`); err != nil {
		t.Fatal(err)
	}

	// The statement covers the seed: its closing balance is the wallet's,
	// and it still reconciles when opened.
	items, total, err := a.Ledger.Statements(ctx, harbour.ID, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	s.statements = total
	if total != 1 {
		t.Fatalf("%d statements of Harbour Travel, want 1", total)
	}
	st := items[0]
	if st.Opening != 0 || st.Closing != b.Balance || st.EntryCount < 4 || st.CreatedBy != "harbour-super" {
		t.Errorf("statement %+v, want 0.00 to the balance %d over the top-up, the transfer and the payments", st, b.Balance)
	}
	if _, _, err := a.Ledger.StatementOf(ctx, harbour.ID, st.ID); err != nil {
		t.Errorf("open the statement: %v", err)
	}
	return s
}

// walletEntriesSum adds up the entries of an agency's CNY wallet.
func walletEntriesSum(t *testing.T, a *app.App, agencyID int64) int64 {
	t.Helper()
	var sum int64
	err := a.DB.GetContext(context.Background(), &sum, a.DB.Rebind(`SELECT COALESCE(SUM(CASE WHEN t.to_account = w.id THEN t.amount ELSE -t.amount END), 0)
		FROM ledger_transfers t JOIN ledger_accounts w ON w.id IN (t.from_account, t.to_account)
		WHERE w.agency_id = ? AND w.kind = 'wallet' AND w.currency = 'CNY'`), agencyID)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}
