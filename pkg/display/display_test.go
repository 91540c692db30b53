package display_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
)

func TestLoadZone(t *testing.T) {
	for _, name := range []string{"Asia/Shanghai", "Europe/London", "UTC", "America/Argentina/Buenos_Aires", " Asia/Tokyo "} {
		if _, err := display.LoadZone(name); err != nil {
			t.Errorf("LoadZone(%q) = %v, want a zone", name, err)
		}
	}
	for _, name := range []string{"", "Local", "Mars/Olympus", "asia/shanghai ", "../../etc/passwd", "/etc/localtime", "Asia/Shang hai", "CST+8"} {
		if display.ValidZone(name) {
			t.Errorf("ValidZone(%q) = true, want false", name)
		}
	}
}

func TestResolveZone(t *testing.T) {
	for _, tt := range []struct{ user, agency, want string }{
		{"Europe/Paris", "Asia/Shanghai", "Europe/Paris"},
		{"", "Asia/Tokyo", "Asia/Tokyo"},
		{"Nowhere/Land", "Asia/Tokyo", "Asia/Tokyo"}, // a stored name the database lost
		{"", "", display.DefaultZone},
	} {
		if got := display.ResolveZone(tt.user, tt.agency).String(); got != tt.want {
			t.Errorf("ResolveZone(%q, %q) = %s, want %s", tt.user, tt.agency, got, tt.want)
		}
	}
}

func TestTimeNamesItsZone(t *testing.T) {
	at := time.Date(2026, 11, 25, 10, 6, 0, 0, time.UTC)
	summer := time.Date(2026, 7, 1, 10, 6, 0, 0, time.UTC)
	for _, tt := range []struct {
		zone string
		at   time.Time
		want string
	}{
		{"Asia/Shanghai", at, "2026-11-25 18:06 CST"},
		{"UTC", at, "2026-11-25 10:06 UTC"},
		{"Europe/London", summer, "2026-07-01 11:06 BST"},
		{"America/New_York", at, "2026-11-25 05:06 EST"},
		{"Asia/Dubai", at, "2026-11-25 14:06 UTC+4"}, // no abbreviation: the offset
		{"Asia/Kolkata", at, "2026-11-25 15:36 IST"},
		{"Asia/Kathmandu", at, "2026-11-25 15:51 UTC+5:45"},
		{"America/Sao_Paulo", at, "2026-11-25 07:06 UTC-3"},
	} {
		loc, err := display.LoadZone(tt.zone)
		if err != nil {
			t.Fatal(err)
		}
		ctx := display.WithZone(context.Background(), loc)
		if got := display.Time(ctx, tt.at); got != tt.want {
			t.Errorf("Time in %s = %q, want %q", tt.zone, got, tt.want)
		}
	}
	if got := display.Time(context.Background(), at); got != "2026-11-25 10:06 UTC" {
		t.Errorf("Time without a zone = %q, want UTC named", got)
	}
	if got := display.Time(context.Background(), time.Time{}); got != "" {
		t.Errorf("zero time = %q", got)
	}
}

func TestLocalKeepsThePlacesClock(t *testing.T) {
	cat := i18n.MustLoad()
	pek, _ := time.LoadLocation("Asia/Shanghai")
	dep := time.Date(2026, 12, 24, 18, 20, 0, 0, time.UTC).In(pek) // 02:20 on the 25th in Beijing
	paris, _ := display.LoadZone("Europe/Paris")
	for lang, want := range map[string]string{i18n.EN: "2026-12-25 02:20 local", i18n.ZhCN: "2026-12-25 02:20（当地时间）", i18n.ZhTW: "2026-12-25 02:20（當地時間）"} {
		// The user's zone does not move a flight's time.
		ctx := display.WithZone(i18n.WithLocalizer(context.Background(), cat, lang), paris)
		if got := display.Local(ctx, dep); got != want {
			t.Errorf("%s: Local = %q, want %q", lang, got, want)
		}
	}
}

// TestZoneNameIsTranslated: the zones a form offers read as cities in the
// reader's language, every one of them in every language; a zone the list
// does not hold keeps its IANA name.
func TestZoneNameIsTranslated(t *testing.T) {
	cat := i18n.MustLoad()
	at := time.Date(2026, 11, 25, 10, 6, 0, 0, time.UTC)
	ny, _ := display.LoadZone("America/New_York")
	sh, _ := display.LoadZone("Asia/Shanghai")
	kathmandu, _ := display.LoadZone("Asia/Kathmandu")
	for _, tt := range []struct {
		lang string
		loc  *time.Location
		want string
	}{
		{i18n.EN, ny, "New York (UTC-5)"},
		{i18n.ZhCN, ny, "纽约（UTC-5）"},
		{i18n.ZhTW, ny, "紐約（UTC-5）"},
		{i18n.ZhCN, sh, "北京、上海（UTC+8）"},
		{i18n.ZhCN, kathmandu, "Asia/Kathmandu (UTC+5:45)"},
	} {
		ctx := i18n.WithLocalizer(context.Background(), cat, tt.lang)
		if got := display.ZoneName(ctx, tt.loc, at); got != tt.want {
			t.Errorf("%s: ZoneName(%s) = %q, want %q", tt.lang, tt.loc, got, tt.want)
		}
	}
	for _, lang := range []string{i18n.EN, i18n.ZhCN, i18n.ZhTW} {
		ctx := i18n.WithLocalizer(context.Background(), cat, lang)
		for _, z := range display.Zones {
			if !i18n.Has(ctx, "timezone.zone."+z) {
				t.Errorf("%s: the listed zone %s has no name", lang, z)
			}
		}
	}
}

func TestApprox(t *testing.T) {
	// Rates as siteinfo serves them: one unit's worth in CNY.
	rates := map[string]string{"CNY": "1", "USD": "7.1", "JPY": "0.048", "EUR": "bad"}
	c := display.Currency{Code: "USD", Rates: rates}
	ctx := display.WithCurrency(context.Background(), c)
	for _, tt := range []struct{ amount, from, want string }{
		{"1,000.00", "CNY", "≈ USD 140.85"}, // 140.845… rounded up
		{"71", "CNY", "≈ USD 10.00"},
		{"10,000", "JPY", "≈ USD 67.61"}, // 480 CNY
		{"100.00", "USD", ""},            // already the display currency
		{"100.00", "EUR", ""},            // no usable rate for the pair
		{"100.00", "GBP", ""},
		{"abc", "CNY", ""},
		{"-1,000.00", "CNY", "≈ USD -140.85"}, // a debit: the size rounded up, the sign kept
		{"+1,000.00", "CNY", "≈ USD 140.85"},  // a credit as the wallet writes it
		{"-0.01", "CNY", "≈ USD -0.01"},
		{"0.00", "CNY", ""}, // zero in every currency
	} {
		if got := display.Approx(ctx, tt.amount, tt.from); got != tt.want {
			t.Errorf("Approx(%s %s) = %q, want %q", tt.amount, tt.from, got, tt.want)
		}
	}
	yen := display.WithCurrency(context.Background(), display.Currency{Code: "JPY", Rates: rates})
	if got := display.ApproxAmount(yen, money.Amount{Minor: 100, Currency: "CNY"}); got != "≈ JPY 21" { // 20.83 up
		t.Errorf("JPY display = %q", got)
	}
	if got := display.Approx(context.Background(), "100", "CNY"); got != "" {
		t.Errorf("no display currency = %q", got)
	}
	if v, ok := c.Convert(decimal.RequireFromString("7.1"), "CNY"); !ok || !v.Equal(decimal.NewFromInt(1)) {
		t.Errorf("Convert 7.1 CNY = %s %v", v, ok)
	}
	// With no rate for the display currency itself, nothing is shown.
	if got := (display.Currency{Code: "GBP", Rates: rates}).Approx(decimal.NewFromInt(100), "CNY"); got != "" {
		t.Errorf("GBP without a rate = %q", got)
	}
}
