// Package siteinfo serves the provider's site info (spec §3): branding and
// defaults from configuration, and the exchange rates in force from the
// database.
package siteinfo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// ShortNameIn is the site's short name for a reader of lang: Simplified
// Chinese for zh-cn, Traditional for zh-tw (Simplified when the site has no
// Traditional name), else the English one.
func (i Info) ShortNameIn(lang string) string {
	return pick(lang, i.ShortName, i.ChineseShortName, i.TraditionalShortName)
}

// NameIn is the site's full name for a reader of lang, as ShortNameIn.
func (i Info) NameIn(lang string) string {
	return pick(lang, i.Name, i.ChineseName, i.TraditionalName)
}

func pick(lang, en, simplified, traditional string) string {
	switch {
	case lang == "zh-tw" && traditional != "":
		return traditional
	case strings.HasPrefix(lang, "zh") && simplified != "":
		return simplified
	case en != "":
		return en
	}
	return simplified
}

// Info is the provider site's public branding and defaults: its names,
// logos, legal filing numbers, currencies and the exchange rates in force.
// Field names are the spec's.
type Info struct {
	// Logo is the URL of the site's logo, absolute or relative to the site
	// (e.g. /static/logo.svg).
	Logo string `json:"logo"`
	// WhiteLogo is the URL of the white variant of the logo, for dark
	// backgrounds.
	WhiteLogo string `json:"whiteLogo"`
	// Name is the provider's full name in English.
	Name string `json:"name"`
	// ShortName is the provider's short name in English, the one page
	// titles use.
	ShortName string `json:"shortName"`
	// ChineseName is the provider's full name in Simplified Chinese.
	ChineseName string `json:"chineseName"`
	// ChineseShortName is the provider's short name in Simplified Chinese.
	ChineseShortName string `json:"chineseShortName"`
	// TraditionalName is the provider's full name in Traditional Chinese,
	// for zh-tw readers; empty when the site has none (show the Simplified
	// one).
	TraditionalName string `json:"traditionalName"`
	// TraditionalShortName is the provider's short name in Traditional
	// Chinese, for zh-tw readers; empty when the site has none (show the
	// Simplified one).
	TraditionalShortName string `json:"traditionalShortName"`
	// Type is the kind of site as the provider configured it; "client"
	// unless configured otherwise. Nothing in the API depends on it.
	Type string `json:"type"`
	// DateFormat is the site's default display format for dates, in
	// Unicode pattern letters (default yyyy-MM-dd); a user's own choice is
	// userInfo.config.dateFormat.
	DateFormat string `json:"dateFormat"`
	// DefaultCurrency is the ISO 4217 code of the currency prices are shown
	// in by default (CNY unless configured otherwise), and the currency
	// every rate in rateMap is expressed in.
	DefaultCurrency string `json:"defaultCurrency"`
	// DefaultLanguage is the language used when a request names none by the
	// lang cookie or Accept-Language: en, zh-cn or zh-tw (default zh-cn).
	DefaultLanguage string `json:"defaultLanguage"`
	// Currencies are the ISO 4217 codes of the currencies a visitor may
	// choose to see prices in.
	Currencies []string `json:"currencies"`
	// Favicon is the URL of the site's favicon.
	Favicon string `json:"favicon"`
	// IsICP is whether the site shows its ICP filing number (icpCode), the
	// registration websites hosted in mainland China must display.
	IsICP bool `json:"isIcp"`
	// ICPCode is the site's ICP filing number, to show when isIcp is true;
	// empty when there is none.
	ICPCode string `json:"icpCode"`
	// IsNetworkSecurity is whether the site shows its public security
	// network filing number (networkSecurityCode).
	IsNetworkSecurity bool `json:"isNetworkSecurity"`
	// NetworkSecurityCode is the site's public security network filing
	// number, shown when isNetworkSecurity is true; empty when there is none.
	NetworkSecurityCode string            `json:"networkSecurityCode"`
	RateMap             map[string]string `json:"rateMap" jsonschema_description:"currency → worth of one unit in the default currency; divide a default-currency price by it to show it in that currency"`
}

// Rate returns the rate of currency as a decimal and whether one is known.
func (i Info) Rate(currency string) (decimal.Decimal, bool) {
	s, ok := i.RateMap[currency]
	if !ok {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil && d.Sign() > 0
}

// Service reads site info, caching it briefly so a page render does not cost a
// query; every instance refreshes on its own, so nothing assumes one process.
type Service struct {
	cfg config.SiteConfig
	db  *store.DB
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	cached  Info
	expires time.Time
}

// New returns the service.
func New(cfg config.SiteConfig, db *store.DB) *Service {
	return &Service{cfg: cfg, db: db, ttl: 30 * time.Second, now: time.Now}
}

// Get returns the site info.
func (s *Service) Get(ctx context.Context) (Info, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.now().Before(s.expires) {
		return s.cached, nil
	}
	info, err := s.load(ctx)
	if err != nil {
		return Info{}, err
	}
	s.cached, s.expires = info, s.now().Add(s.ttl)
	return info, nil
}

// Invalidate drops the cache, for callers that just changed rates.
func (s *Service) Invalidate() {
	s.mu.Lock()
	s.expires = time.Time{}
	s.mu.Unlock()
}

func (s *Service) load(ctx context.Context) (Info, error) {
	c := s.cfg
	rates := map[string]string{c.DefaultCurrency: "1"}
	for cur, r := range c.Rates {
		rates[cur] = r
	}
	var rows []struct {
		Currency string `db:"currency"`
		Rate     string `db:"rate"`
	}
	// The newest row per currency is in force.
	err := s.db.SelectContext(ctx, &rows, s.db.Rebind(`
		SELECT r.currency, r.rate FROM exchange_rates r
		WHERE r.base = ? AND r.id = (SELECT MAX(id) FROM exchange_rates x WHERE x.base = r.base AND x.currency = r.currency)`),
		c.DefaultCurrency)
	if err != nil {
		return Info{}, fmt.Errorf("siteinfo: load rates: %w", err)
	}
	for _, r := range rows {
		rates[r.Currency] = r.Rate
	}
	return Info{
		Logo: c.Logo, WhiteLogo: c.WhiteLogo, Name: c.Name, ShortName: c.ShortName,
		ChineseName: c.ChineseName, ChineseShortName: c.ChineseShortName, Type: c.Type,
		TraditionalName: c.TraditionalName, TraditionalShortName: c.TraditionalShortName,
		DateFormat: c.DateFormat, DefaultCurrency: c.DefaultCurrency, DefaultLanguage: c.DefaultLanguage,
		Currencies: append([]string(nil), c.Currencies...), Favicon: c.Favicon,
		IsICP: c.IsICP, ICPCode: c.ICPCode, IsNetworkSecurity: c.IsNetworkSecurity, NetworkSecurityCode: c.NetworkSecurityCode,
		RateMap: rates,
	}, nil
}

// ParseRate checks a rate as an admin typed it: a supported currency and a
// positive decimal (what one unit is worth in the default currency).
func ParseRate(currency, rate string) (string, decimal.Decimal, error) {
	cur := strings.ToUpper(strings.TrimSpace(currency))
	if !slices.Contains(config.Currencies, cur) {
		return "", decimal.Decimal{}, fault.Validation(map[string]string{"currency": "ledger.error.currency"})
	}
	d, err := decimal.NewFromString(strings.TrimSpace(rate))
	if err != nil || !d.IsPositive() {
		return "", decimal.Decimal{}, fault.Validation(map[string]string{"rate": "ledger.error.rate"})
	}
	return cur, d, nil
}

// SetRate records a new rate for currency against the default currency; the
// previous rate stays as history.
func (s *Service) SetRate(ctx context.Context, currency string, rate decimal.Decimal, source string) error {
	if rate.Sign() <= 0 {
		return fmt.Errorf("siteinfo: rate for %s must be positive, got %s", currency, rate)
	}
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO exchange_rates (base, currency, rate, source, created_at) VALUES (?, ?, ?, ?, ?)`),
		s.cfg.DefaultCurrency, currency, rate.String(), source, s.now().UTC())
	if err != nil {
		return fmt.Errorf("siteinfo: set rate %s: %w", currency, err)
	}
	s.Invalidate()
	return nil
}

// Rate is one exchange rate: what one unit of a currency is worth in the
// site's default currency, in force or in its history.
type Rate struct {
	// Base is the ISO 4217 code of the currency the rate is expressed in:
	// the site's default currency.
	Base string `json:"base" db:"base"`
	// Currency is the ISO 4217 code of the currency rated.
	Currency string `json:"currency" db:"currency"`
	// Rate is what one unit of currency is worth in base, as a decimal
	// string (e.g. "7.1234" for USD against CNY); always positive.
	Rate string `json:"rate" db:"rate"`
	// Source says who set the rate: "api:" followed by the username for a
	// rate set through PUT /base/v2/exchangeRates/{currency}, the admin's
	// username for one set from the command line or console, "demo" for
	// demo data.
	Source string `json:"source" db:"source"`
	// CreatedAt is when the rate was set (RFC 3339, UTC); the newest rate of
	// a currency is the one in force.
	CreatedAt time.Time `json:"createdAt" db:"created_at"`
}

// Rates lists the rates in force (the newest row per currency) against the
// default currency.
func (s *Service) Rates(ctx context.Context) ([]Rate, error) {
	out := []Rate{}
	err := s.db.SelectContext(ctx, &out, s.db.Rebind(`
		SELECT r.base, r.currency, r.rate, r.source, r.created_at FROM exchange_rates r
		WHERE r.base = ? AND r.id = (SELECT MAX(id) FROM exchange_rates x WHERE x.base = r.base AND x.currency = r.currency)
		ORDER BY r.currency`), s.cfg.DefaultCurrency)
	if err != nil {
		return nil, fmt.Errorf("siteinfo: list rates: %w", err)
	}
	return out, nil
}

// History is what an admin asks for: a currency's last limit rates (1–100,
// default 100), newest first; a currency never rated is not found.
func (s *Service) History(ctx context.Context, currency string, limit int) ([]Rate, error) {
	if limit < 1 || limit > 100 {
		limit = 100
	}
	h, err := s.RateHistory(ctx, strings.ToUpper(strings.TrimSpace(currency)), limit)
	if err != nil {
		return nil, err
	}
	if len(h) == 0 {
		return nil, fault.NotFound("rate.error.missing")
	}
	return h, nil
}

// RateHistory lists a currency's rates, newest first.
func (s *Service) RateHistory(ctx context.Context, currency string, limit int) ([]Rate, error) {
	out := []Rate{}
	err := s.db.SelectContext(ctx, &out, s.db.Rebind(`SELECT base, currency, rate, source, created_at FROM exchange_rates
		WHERE base = ? AND currency = ? ORDER BY id DESC LIMIT ?`), s.cfg.DefaultCurrency, currency, limit)
	if err != nil {
		return nil, fmt.Errorf("siteinfo: rate history: %w", err)
	}
	return out, nil
}
