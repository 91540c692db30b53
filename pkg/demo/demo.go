// Package demo seeds a database with the demo data that `make run` shows: it
// is idempotent, so running it on every start changes nothing the second time.
package demo

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/store"
)

// rates are indicative CNY values of one unit of each supported currency,
// for a demo that shows converted prices; production sets its own.
var rates = map[string]string{
	"USD": "7.10", "EUR": "8.25", "HKD": "0.913", "JPY": "0.0468", "GBP": "9.45", "AUD": "4.62",
	"CAD": "5.10", "THB": "0.215", "SGD": "5.45", "CHF": "8.85", "DKK": "1.106", "MOP": "0.886",
	"MYR": "1.62", "NOK": "0.70", "NZD": "4.20", "PHP": "0.122", "RUB": "0.088", "SEK": "0.745",
	"TWD": "0.222", "KRW": "0.00505", "ZAR": "0.40", "ILS": "1.95",
}

// Seed adds what is missing of the demo data.
func Seed(ctx context.Context, db *store.DB, site *siteinfo.Service) error {
	created, err := seedIdentity(ctx, db)
	if err != nil {
		return err
	}
	if created {
		slog.InfoContext(ctx, "demo agencies and users created", "logins", len(Logins))
	}
	info, err := site.Get(ctx)
	if err != nil {
		return err
	}
	if info.DefaultCurrency != "CNY" {
		slog.InfoContext(ctx, "demo rates skipped: they are quoted against CNY", "default_currency", info.DefaultCurrency)
		return nil
	}
	added := 0
	for cur, r := range rates {
		if cur == info.DefaultCurrency {
			continue
		}
		var n int
		if err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM exchange_rates WHERE base = ? AND currency = ?`), info.DefaultCurrency, cur); err != nil {
			return fmt.Errorf("demo: check rate %s: %w", cur, err)
		}
		if n > 0 {
			continue
		}
		if err := site.SetRate(ctx, cur, decimal.RequireFromString(r), "demo"); err != nil {
			return err
		}
		added++
	}
	slog.InfoContext(ctx, "demo data seeded", "rates_added", added)
	return nil
}
