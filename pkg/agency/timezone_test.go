package agency_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// An agency's time zone (issue 20): the demo agencies start in
// Asia/Shanghai; the settings take an IANA name; a name that is no zone is
// refused on its field with the catalog's message and nothing of the
// config changes; left empty it is the default.
func TestAgencyTimeZone(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		sub, err := w.svc.Get(ctx, w.demo, w.sub.AgencyID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := sub.Config.Settings.TimeZone; got != "Asia/Shanghai" {
			t.Fatalf("demo sub-agency zone = %q, want Asia/Shanghai", got)
		}

		cfg := sub.Config
		cfg.Settings.TimeZone = "Europe/London"
		a, _, err := w.svc.SetConfig(ctx, w.demo, w.sub.AgencyID, cfg)
		if err != nil || a.TimeZone != "Europe/London" {
			t.Fatalf("set Europe/London: %q %v", a.TimeZone, err)
		}

		for _, bad := range []string{"Mars/Olympus", "Local", "UTC+8", "../zoneinfo/UTC"} {
			c := a.Config()
			c.Settings.TimeZone = bad
			c.Settings.SettlementCurrency = "USD" // would change too if the config were taken
			_, _, err := w.svc.SetConfig(ctx, w.demo, w.sub.AgencyID, c)
			fe, ok := fault.As(err)
			if !ok || fe.Code != fault.CodeValidation || fe.Fields["settings.timeZone"] != display.ErrZoneKey {
				t.Errorf("%q: err = %v, want %s on settings.timeZone", bad, err, display.ErrZoneKey)
			}
		}
		again, err := w.svc.Get(ctx, w.demo, w.sub.AgencyID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st := again.Config.Settings; st.TimeZone != "Europe/London" || st.SettlementCurrency == "USD" {
			t.Fatalf("after refused zones: %+v", st)
		}

		c := again.Config
		c.Settings.TimeZone = ""
		if a, _, err = w.svc.SetConfig(ctx, w.demo, w.sub.AgencyID, c); err != nil || a.TimeZone != display.DefaultZone {
			t.Fatalf("empty zone = %q %v, want the default", a.TimeZone, err)
		}
		// Another agency's settings stay out of reach.
		c.Settings.TimeZone = "Asia/Tokyo"
		if _, _, err := w.svc.SetConfig(ctx, w.bluesky, w.sub.AgencyID, c); err == nil {
			t.Fatal("Blue Sky changed Demo's sub-agency")
		}
	})
}

// The top-up email tells the time on the agency's clock and names the zone.
func TestTopUpEmailInAgencyZone(t *testing.T) {
	t.Parallel()
	onDemo(t, func(t *testing.T, ctx context.Context, db *store.DB, w world) {
		a, err := w.svc.Create(ctx, w.demo, newAgency("Tokyo Tours", "tokyo-admin"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := a.Config()
		cfg.Settings.TimeZone = "Asia/Tokyo"
		if _, _, err := w.svc.SetConfig(ctx, w.demo, a.ID, cfg); err != nil {
			t.Fatal(err)
		}
		req := ledger.TopUp{IdempotencyKey: "tz1", CurrencyReceived: "CNY", AmountReceived: "100", ExchangeRate: "1", Reference: "TZ-1", SendEmail: true}
		if _, err := w.svc.AddFunds(ctx, w.provider, a.ID, req, i18n.MustLoad()); err != nil {
			t.Fatal(err)
		}
		var body string
		if err := db.Get(&body, `SELECT body FROM emails`); err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`at \d{4}-\d{2}-\d{2} \d{2}:\d{2} JST\.`).MatchString(body) {
			t.Errorf("the email's time is not on Tokyo's clock with its zone:\n%s", body)
		}
	})
}
