package agency_test

import (
	"context"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/demo/demotest"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

type world struct {
	svc                          *agency.Service
	auth                         *auth.Service
	ledger                       *ledger.Ledger
	provider, demo, sub, bluesky auth.Principal
}

// onDemo runs body on every store holding the demo agencies (demotest's),
// with their users logged in.
func onDemo(t *testing.T, body func(t *testing.T, ctx context.Context, db *store.DB, w world)) {
	t.Helper()
	storetest.RunOn(t, demotest.DSN, func(t *testing.T, db *store.DB) {
		body(t, context.Background(), db, setup(t, db))
	})
}

// setup is the demo agencies (db is demotest's) and their users logged in.
func setup(t *testing.T, db *store.DB) world {
	t.Helper()
	ctx := context.Background()
	st := agency.NewStore(db)
	w := world{auth: auth.NewService(db, st, time.Hour, time.Hour), ledger: ledger.New(db)}
	w.svc = agency.NewService(db, st, w.ledger)
	login := func(u, p string) auth.Principal {
		res, err := w.auth.Login(ctx, u, p, auth.Meta{IP: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Principal
	}
	w.provider = login("provider-admin", "provider-pass-1")
	w.demo = login("demo-super", "demo-pass-1")
	w.sub = login("sub-super", "demo-pass-1")
	w.bluesky = login("bluesky-super", "demo-pass-1")
	return w
}

func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	if fe, ok := fault.As(err); !ok || fe.Code != code {
		t.Fatalf("err = %v, want code %d", err, code)
	}
}

func newAgency(name, user string) agency.CreateRequest {
	return agency.CreateRequest{
		Profile:   agency.Profile{Name: name, ContactName: "Lee", ContactEmail: "lee@" + user + ".example", ContactPhone: "+852 2123 4567"},
		Config:    agency.Config{Settings: agency.Settings{EnableFlight: true, IsShowBill: true}},
		SuperUser: agency.NewSuperAdmin{Username: user, Email: "admin@" + user + ".example", Password: "start-pass-1"},
	}
}

func TestWhoManagesWhom(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		all, total, err := w.svc.List(ctx, w.provider, agency.ListFilter{Page: 1, PageSize: 20})
		if err != nil || total != 3 || len(all) != 3 {
			t.Fatalf("provider lists %d of %d: %v", len(all), total, err)
		}
		mine, total, _ := w.svc.List(ctx, w.demo, agency.ListFilter{Page: 1, PageSize: 20})
		if total != 1 || mine[0].ID != w.sub.AgencyID {
			t.Fatalf("Demo Travel lists %+v", mine)
		}
		if _, total, _ := w.svc.List(ctx, w.bluesky, agency.ListFilter{Page: 1, PageSize: 20}); total != 0 {
			t.Errorf("Blue Sky lists %d agencies", total)
		}
		if _, total, _ := w.svc.List(ctx, w.sub, agency.ListFilter{Page: 1, PageSize: 20}); total != 0 {
			t.Errorf("a sub-agency lists %d agencies", total)
		}
		if got, _, _ := w.svc.List(ctx, w.provider, agency.ListFilter{Keyword: "blue", Page: 1, PageSize: 20}); len(got) != 1 || got[0].ID != 222 {
			t.Errorf("keyword search = %+v", got)
		}

		for _, tc := range []struct {
			name  string
			actor auth.Principal
			id    int64
			ok    bool
		}{
			{"provider → sub-sub", w.provider, w.sub.AgencyID, true},
			{"parent → its sub", w.demo, w.sub.AgencyID, true},
			{"stranger → sub", w.bluesky, w.sub.AgencyID, false},
			{"sub → parent", w.sub, w.demo.AgencyID, false},
			{"self", w.demo, w.demo.AgencyID, false},
			{"sibling", w.demo, 222, false},
		} {
			_, err := w.svc.Managed(ctx, tc.actor, tc.id)
			if (err == nil) != tc.ok {
				t.Errorf("%s: err = %v", tc.name, err)
			}
		}
		// What a stranger cannot see, it cannot change either.
		_, err = w.svc.Update(ctx, w.bluesky, w.sub.AgencyID, agency.Profile{Name: "Hijacked", ContactName: "x", ContactEmail: "x@x.example", ContactPhone: "1"})
		wantCode(t, err, fault.CodeNotFound)
		_, err = w.svc.SetStatus(ctx, w.bluesky, w.sub.AgencyID, agency.StatusBlocked)
		wantCode(t, err, fault.CodeNotFound)
		_, err = w.svc.SetCredit(ctx, w.bluesky, w.sub.AgencyID, agency.CreditRequest{CreditLimit: "1000"})
		wantCode(t, err, fault.CodeNotFound)
		wantCode(t, w.svc.Delete(ctx, w.bluesky, w.sub.AgencyID), fault.CodeNotFound)
		if d, _ := w.svc.Get(ctx, w.provider, w.sub.AgencyID, nil); d.Profile.Name != "Demo Sub Travel" || d.CreditLimit != "0.00" {
			t.Errorf("after refused changes: %+v", d.Summary)
		}
		// The contact email is optional: its parent saves the profile
		// without one; a malformed one is still refused.
		if _, err := w.svc.Update(ctx, w.demo, w.sub.AgencyID, agency.Profile{Name: "Demo Sub Travel", ContactName: "Sub", ContactPhone: "1"}); err != nil {
			t.Errorf("profile without a contact email: %v", err)
		}
		_, err = w.svc.Update(ctx, w.demo, w.sub.AgencyID, agency.Profile{Name: "Demo Sub Travel", ContactName: "Sub", ContactEmail: "nope", ContactPhone: "1"})
		if fe, _ := fault.As(err); fe == nil || fe.Fields["contactEmail"] != "agency.error.contactEmail" {
			t.Errorf("malformed contact email: %v", err)
		}
	})
}

func TestCreateConfigureCreditBlockDelete(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {

		// Blue Sky may not create sub-agencies.
		_, err := w.svc.Create(ctx, w.bluesky, newAgency("Blue Sub", "bluesub"))
		wantCode(t, err, fault.CodeNoAccess)
		bad := newAgency("", "x")
		bad.ContactEmail = "nope"
		bad.SuperUser.Password = "1"
		_, err = w.svc.Create(ctx, w.demo, bad)
		fe, _ := fault.As(err)
		if fe == nil || fe.Fields["name"] == "" || fe.Fields["contactEmail"] == "" {
			t.Fatalf("invalid agency: %v", err)
		}
		// A bad super user rolls the whole creation back.
		_, err = w.svc.Create(ctx, w.demo, agency.CreateRequest{Profile: newAgency("Half", "half").Profile,
			SuperUser: agency.NewSuperAdmin{Username: "demo-super", Email: "a@b.example", Password: "long-enough"}})
		wantCode(t, err, fault.CodeValidation)
		if _, total, _ := w.svc.List(ctx, w.demo, agency.ListFilter{Keyword: "half", Page: 1, PageSize: 20}); total != 0 {
			t.Fatalf("a failed creation left an agency behind")
		}

		a, err := w.svc.Create(ctx, w.demo, newAgency("Kowloon Tours", "kowloon-admin"))
		if err != nil {
			t.Fatal(err)
		}
		if a.ProxyLevel != 2 || *a.ParentID != w.demo.AgencyID || len(a.Code) != 8 {
			t.Errorf("created = %+v", a)
		}
		if _, err := w.auth.Login(ctx, "kowloon-admin", "start-pass-1", auth.Meta{IP: "192.0.2.9"}); err != nil {
			t.Fatalf("the new super admin cannot log in: %v", err)
		}

		cfg := a.Config()
		cfg.Settings.SettlementCurrency = "HKD"
		cfg.Flight.Markups["international"] = agency.Markup{Unit: "percent", Value: "3.5", Limit: "200"}
		cfg.Flight.AirlineFilter = agency.AirlineFilter{Mode: "blacklist", Airlines: []string{"mu", "CZ"}}
		updated, changed, err := w.svc.SetConfig(ctx, w.demo, a.ID, cfg)
		if err != nil || !changed || updated.SettlementCurrency != "HKD" || updated.Config().Flight.AirlineFilter.Airlines[0] != "MU" {
			t.Fatalf("config: %+v changed=%v err=%v", updated.Config(), changed, err)
		}
		if _, changed, _ := w.svc.SetConfig(ctx, w.demo, a.ID, updated.Config()); changed {
			t.Error("the same config reports a currency change")
		}
		badCfg := updated.Config()
		badCfg.Flight.Markups["domestic"] = agency.Markup{Unit: "kg", Value: "x"}
		badCfg.Flight.MaxResponseTime = 500
		_, _, err = w.svc.SetConfig(ctx, w.demo, a.ID, badCfg)
		wantCode(t, err, fault.CodeValidation)

		// The provider's credit line; a parent's is held from its wallet
		// (pkg/app TestParentFundsSubAgencyFromItsWallet).
		sum, err := w.svc.SetCredit(ctx, w.provider, a.ID, agency.CreditRequest{CreditLimit: "5000", CreditPeriod: 2, CreditPeriodUnit: "week"})
		if err != nil || sum.CreditLimit != "5000.00" || sum.Available != "5000.00" || sum.Currency != "HKD" {
			t.Fatalf("credit: %+v %v", sum, err)
		}
		_, err = w.svc.SetCredit(ctx, w.demo, a.ID, agency.CreditRequest{CreditLimit: "", CreditPeriodUnit: "fortnight"})
		wantCode(t, err, fault.CodeValidation)

		if _, err := w.svc.SetStatus(ctx, w.demo, a.ID, agency.StatusBlocked); err != nil {
			t.Fatal(err)
		}
		_, err = w.auth.Login(ctx, "kowloon-admin", "start-pass-1", auth.Meta{IP: "192.0.2.9"})
		wantCode(t, err, fault.CodeNoAccess)
		if _, err := w.svc.SetStatus(ctx, w.demo, a.ID, agency.StatusActive); err != nil {
			t.Fatal(err)
		}

		// Money moved: deletion is refused; an agency without history goes.
		if _, err := w.ledger.Post(ctx, ledger.Transfer{AgencyID: a.ID, IdempotencyKey: "k", From: ledger.Provider(ledger.KindFunding),
			To: ledger.Wallet(a.ID), Amount: 1, Currency: "HKD", PaymentType: ledger.TypeTopUp}); err != nil {
			t.Fatal(err)
		}
		wantCode(t, w.svc.Delete(ctx, w.demo, a.ID), fault.CodeConflict)
		wantCode(t, w.svc.Delete(ctx, w.provider, w.demo.AgencyID), fault.CodeConflict) // has a sub-agency
		empty, err := w.svc.Create(ctx, w.demo, newAgency("Empty Travel", "empty-admin"))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.svc.Delete(ctx, w.demo, empty.ID); err != nil {
			t.Fatalf("delete an agency without history: %v", err)
		}
		_, err = w.auth.Login(ctx, "empty-admin", "start-pass-1", auth.Meta{IP: "192.0.2.9"})
		wantCode(t, err, fault.CodeBadCredentials)
	})
}

func TestAddFundsEmailsWithTheMoney(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		cat := i18n.MustLoad()
		a, err := w.svc.Create(ctx, w.demo, newAgency("Kowloon Tours", "kowloon-admin"))
		if err != nil {
			t.Fatal(err)
		}
		emails := func() int {
			var n int
			_ = db.Get(&n, `SELECT COUNT(*) FROM emails`)
			return n
		}
		req := ledger.TopUp{IdempotencyKey: "w1", CurrencyReceived: "USD", AmountReceived: "100", ExchangeRate: "7.8", Reference: "HSBC-1", SendEmail: true}
		res, err := w.svc.AddFunds(ctx, w.provider, a.ID, req, cat)
		if err != nil || res.Credited != "780.00" {
			t.Fatalf("add funds: %+v %v", res, err)
		}
		if _, err := w.svc.AddFunds(ctx, w.provider, a.ID, req, cat); err != nil || emails() != 1 {
			t.Fatalf("a replay sent another email: %d emails, %v", emails(), err)
		}
		var subject, to string
		_ = db.QueryRow(`SELECT subject, to_addr FROM emails`).Scan(&subject, &to)
		if subject != "780.00 CNY added to your wallet" || to != "lee@kowloon-admin.example" {
			t.Errorf("email %q to %q", subject, to)
		}
		bad := req
		bad.IdempotencyKey, bad.Reference = "w2", ""
		if _, err := w.svc.AddFunds(ctx, w.provider, a.ID, bad, cat); err == nil || emails() != 1 {
			t.Errorf("a refused top-up: %v, %d emails", err, emails())
		}
		if _, err := w.svc.AddFunds(ctx, w.bluesky, a.ID, ledger.TopUp{IdempotencyKey: "w3", AmountReceived: "1", ExchangeRate: "1", Reference: "x"}, cat); err == nil {
			t.Error("a stranger added funds")
		}
		var logged int
		_ = db.Get(&logged, db.Rebind(`SELECT COUNT(*) FROM user_logs WHERE action = 'agency.funds' AND agency_id = ?`), w.provider.AgencyID)
		if logged != 1 {
			t.Errorf("user log has %d top-ups", logged)
		}
	})
}
