// Package config loads Voyage's settings with viper: built-in defaults, then a
// config file, then VOYAGE_* environment variables, then command-line flags.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Config is every setting of the binary. Keys in the config file and the
// environment use the mapstructure names (VOYAGE_HTTP_READ_TIMEOUT for
// http.read_timeout).
type Config struct {
	DB        string         `mapstructure:"db"`
	Addr      string         `mapstructure:"addr"`
	NoMigrate bool           `mapstructure:"no_migrate"`
	LogLevel  string         `mapstructure:"log_level"`
	LogFormat string         `mapstructure:"log_format"`
	HTTP      HTTPConfig     `mapstructure:"http"`
	Jobs      JobsConfig     `mapstructure:"jobs"`
	Site      SiteConfig     `mapstructure:"site"`
	Auth      AuthConfig     `mapstructure:"auth"`
	Mail      MailConfig     `mapstructure:"mail"`
	Shopping  ShoppingConfig `mapstructure:"shopping"`
	Payment   PaymentConfig  `mapstructure:"payment"`
	Runtime   RuntimeConfig  `mapstructure:"runtime"`
	Group     GroupConfig    `mapstructure:"group"`
	Metrics   MetricsConfig  `mapstructure:"metrics"`
	Tracing   TracingConfig  `mapstructure:"tracing"`
}

// TracingConfig says where the server's OpenTelemetry spans go.
type TracingConfig struct {
	// OTLPEndpoint is the collector's OTLP/HTTP URL (http://host:4318; the
	// path /v1/traces is added when it has none). Empty exports nothing,
	// though incoming trace ids still pass through to the logs, the
	// suppliers, the webhooks and the jobs.
	OTLPEndpoint string `mapstructure:"otlp_endpoint"`
	// SampleRatio is the share of new traces recorded, 0 to 1; a request
	// with a traceparent follows its caller's decision.
	SampleRatio float64 `mapstructure:"sample_ratio"`
}

// MetricsConfig is where Prometheus scrapes the server's metrics.
type MetricsConfig struct {
	// Addr is the metrics listener's own address (host:port), apart from
	// the public one so that /metrics is never on the internet; empty
	// turns metrics off.
	Addr string `mapstructure:"addr"`
}

// GroupConfig sets the group flight terms that vary by market (GROUPS.md).
type GroupConfig struct {
	// MinSize is the fewest seats (adults and children) a group request
	// asks for.
	MinSize int `mapstructure:"min_size"`
	// RemindBefore is how long before each deadline (confirmation,
	// passenger list, each installment) the agency is reminded by email
	// and webhook.
	RemindBefore time.Duration `mapstructure:"remind_before"`
}

// RuntimeConfig tunes the Go runtime of the server.
type RuntimeConfig struct {
	// GCPercent is the collector's target (GOGC): how far the heap grows
	// past what is live before the next collection. Searches allocate a lot
	// and briefly; at 200 instead of Go's 100, 200 searches at once spend
	// a fifth less CPU and finish their p99 about twice as fast above
	// supplier latency (BenchmarkConcurrentSearchesLatency), for a heap up
	// to three times the live data instead of two. GOGC in the environment
	// wins.
	GCPercent int `mapstructure:"gc_percent"`
	// MemoryLimitMB is a soft limit on the heap (GOMEMLIMIT): near it the
	// collector runs as often as it must, whatever GCPercent says. 0 sets
	// none. GOMEMLIMIT in the environment wins.
	MemoryLimitMB int64 `mapstructure:"memory_limit_mb"`
}

// Apply sets the runtime as c says, except what the environment's GOGC or
// GOMEMLIMIT set, and returns what puts the previous settings back.
func (c RuntimeConfig) Apply() (restore func()) {
	setGC := os.Getenv("GOGC") == "" && c.GCPercent > 0
	setLimit := os.Getenv("GOMEMLIMIT") == "" && c.MemoryLimitMB > 0
	var gc int
	var limit int64
	if setGC {
		gc = debug.SetGCPercent(c.GCPercent)
	}
	if setLimit {
		limit = debug.SetMemoryLimit(c.MemoryLimitMB << 20)
	}
	return func() {
		if setGC {
			debug.SetGCPercent(gc)
		}
		if setLimit {
			debug.SetMemoryLimit(limit)
		}
	}
}

// PaymentConfig chooses how orders are paid besides the wallet.
type PaymentConfig struct {
	// TestGateway takes payments for every external channel with the
	// built-in test gateway (success, failure or time-out on request): for
	// development and demos only, never in production.
	TestGateway bool `mapstructure:"test_gateway"`
	// TestGatewayFeePercent is the test gateway's transaction fee.
	TestGatewayFeePercent int64 `mapstructure:"test_gateway_fee_percent"`
	// The real channels (channels.go): a channel with credentials takes
	// its payments, whatever test_gateway says.
	ChannelsConfig `mapstructure:",squash"`
}

// ShoppingConfig chooses the flight content sources and where search
// sessions live.
type ShoppingConfig struct {
	// RedisURL, when set, keeps search sessions in Redis instead of the
	// database (redis://host:6379/0).
	RedisURL string `mapstructure:"redis_url"`
	// MaxSearches is how many searches an instance runs at once; past it a
	// new search is refused with 503 and Retry-After. 0 is 100 per core.
	MaxSearches int `mapstructure:"max_searches"`
	// Sim are the built-in simulated suppliers (gds, ndc, lcc).
	Sim SimConfig `mapstructure:"sim"`
	// Duffel is the Duffel connector, on when a token is set.
	Duffel DuffelConfig `mapstructure:"duffel"`
}

// SimConfig tunes the simulated suppliers.
type SimConfig struct {
	Enabled  bool     `mapstructure:"enabled"`
	Profiles []string `mapstructure:"profiles"`
	Seed     int64    `mapstructure:"seed"`
	// LatencyScale multiplies each profile's typical answer time (0 answers
	// at once; 1 is realistic).
	LatencyScale float64 `mapstructure:"latency_scale"`
	// ErrorRate, TimeoutRate and Volatility are shares of calls (0..1) that
	// fail, hang until the deadline, or find a changed offer on price check;
	// negative keeps each profile's default.
	ErrorRate   float64 `mapstructure:"error_rate"`
	TimeoutRate float64 `mapstructure:"timeout_rate"`
	Volatility  float64 `mapstructure:"volatility"`
}

// DuffelConfig configures the Duffel connector.
type DuffelConfig struct {
	Token   string `mapstructure:"token"`
	BaseURL string `mapstructure:"base_url"`
	// PendingWait is how long a booking waits for an order Duffel
	// accepted (202) before the order is kept pending at the airline.
	PendingWait time.Duration `mapstructure:"pending_wait"`
	// WebhookSecret verifies Duffel's webhooks (X-Duffel-Signature) at
	// POST /supplier/v2/duffel/webhook; without it every event is refused.
	WebhookSecret string `mapstructure:"webhook_secret"`
}

// MailConfig sets how emails leave: through SMTP when smtp_host is set,
// otherwise as .eml files in outbox_dir (development).
type MailConfig struct {
	From         string `mapstructure:"from"`
	SMTPHost     string `mapstructure:"smtp_host"`
	SMTPPort     int    `mapstructure:"smtp_port"`
	SMTPUsername string `mapstructure:"smtp_username"`
	SMTPPassword string `mapstructure:"smtp_password"`
	OutboxDir    string `mapstructure:"outbox_dir"`
}

// AuthConfig sets how long a login lasts.
type AuthConfig struct {
	// SessionIdle ends a session nobody used for this long.
	SessionIdle time.Duration `mapstructure:"session_idle"`
	// SessionMax ends every session this long after its login.
	SessionMax time.Duration `mapstructure:"session_max"`
}

// HTTPConfig bounds what one request may cost the server.
type HTTPConfig struct {
	ReadHeaderTimeout time.Duration `mapstructure:"read_header_timeout"`
	ReadTimeout       time.Duration `mapstructure:"read_timeout"`
	WriteTimeout      time.Duration `mapstructure:"write_timeout"`
	IdleTimeout       time.Duration `mapstructure:"idle_timeout"`
	// DrainDelay is how long an instance told to stop (SIGTERM, SIGINT)
	// keeps accepting requests while /readyz answers 503, so that a load
	// balancer checking it takes the instance out before its port closes.
	// 0 stops accepting at once (a single instance, tests).
	DrainDelay time.Duration `mapstructure:"drain_delay"`
	// ShutdownGrace is how long, after the drain delay, the requests in
	// flight and the running jobs get to finish before they are cut off.
	ShutdownGrace time.Duration `mapstructure:"shutdown_grace"`
	MaxBodyBytes  int64         `mapstructure:"max_body_bytes"`
	// SecureCookies marks cookies Secure; on for any deployment behind TLS.
	SecureCookies bool `mapstructure:"secure_cookies"`
	// HSTS tells browsers to reach the site over HTTPS only.
	HSTS HSTSConfig `mapstructure:"hsts"`
	// RateLimit limits the API calls of each API key and each session.
	RateLimit RateLimitConfig `mapstructure:"rate_limit"`
	// TrustedProxies lists the load balancers' addresses or networks
	// ("127.0.0.1, 10.0.0.0/8"), comma-separated: a request from one of
	// them is counted, logged and limited under the client address its
	// X-Forwarded-For names. Empty trusts no header.
	TrustedProxies string `mapstructure:"trusted_proxies"`
}

// RateLimitConfig sets the API's rate limits: a bucket of Burst requests
// refilled at Rate per second, one per API key, one per user (all of the
// user's sessions together) and one per address on the public routes. The
// counters are in Redis when RedisURL (else shopping.redis_url) is set, so
// every instance counts alike; else in each process.
type RateLimitConfig struct {
	Enabled   bool    `mapstructure:"enabled"`
	KeyRate   float64 `mapstructure:"key_rate"`
	KeyBurst  int     `mapstructure:"key_burst"`
	UserRate  float64 `mapstructure:"user_rate"`
	UserBurst int     `mapstructure:"user_burst"`
	// AnonymousRate and AnonymousBurst bound each address's calls of the
	// public routes (login, the partnership form, the site settings).
	AnonymousRate  float64 `mapstructure:"anonymous_rate"`
	AnonymousBurst int     `mapstructure:"anonymous_burst"`
	// NotifyRate and NotifyBurst bound each payment channel's
	// notifications (POST /payment/v2/notify/{channel}).
	NotifyRate  float64 `mapstructure:"notify_rate"`
	NotifyBurst int     `mapstructure:"notify_burst"`
	RedisURL    string  `mapstructure:"redis_url"`
	// RedisPrefix starts the keys of the counters in Redis.
	RedisPrefix string `mapstructure:"redis_prefix"`
}

// HSTSConfig is the Strict-Transport-Security header. Off by default: once a
// browser has seen it, it refuses plain HTTP to the host for max_age, so it
// is for deployments that are served over TLS (at a proxy or here) only.
type HSTSConfig struct {
	Enabled bool `mapstructure:"enabled"`
	// MaxAge is how long browsers remember the rule (whole seconds).
	MaxAge time.Duration `mapstructure:"max_age"`
	// IncludeSubdomains extends the rule to every subdomain of the host.
	IncludeSubdomains bool `mapstructure:"include_subdomains"`
}

// JobsConfig tunes the River queue.
type JobsConfig struct {
	Enabled         bool          `mapstructure:"enabled"`
	Workers         int           `mapstructure:"workers"`
	PollInterval    time.Duration `mapstructure:"poll_interval"`
	CleanupInterval time.Duration `mapstructure:"cleanup_interval"`
	// RescueAfter is how long a job may run before it is taken for one
	// whose process died and is run again.
	RescueAfter time.Duration `mapstructure:"rescue_after"`
}

// SiteConfig is the provider's branding and defaults served as site info.
type SiteConfig struct {
	Name             string `mapstructure:"name"`
	ShortName        string `mapstructure:"short_name"`
	ChineseName      string `mapstructure:"chinese_name"`
	ChineseShortName string `mapstructure:"chinese_short_name"`
	// The names in Traditional Chinese, for zh-tw readers.
	TraditionalName      string            `mapstructure:"traditional_name"`
	TraditionalShortName string            `mapstructure:"traditional_short_name"`
	Logo                 string            `mapstructure:"logo"`
	WhiteLogo            string            `mapstructure:"white_logo"`
	Favicon              string            `mapstructure:"favicon"`
	Type                 string            `mapstructure:"type"`
	DateFormat           string            `mapstructure:"date_format"`
	DefaultCurrency      string            `mapstructure:"default_currency"`
	DefaultLanguage      string            `mapstructure:"default_language"`
	Currencies           []string          `mapstructure:"currencies"`
	IsICP                bool              `mapstructure:"is_icp"`
	ICPCode              string            `mapstructure:"icp_code"`
	IsNetworkSecurity    bool              `mapstructure:"is_network_security"`
	NetworkSecurityCode  string            `mapstructure:"network_security_code"`
	Rates                map[string]string `mapstructure:"rates"`
	WebsitePrefix        string            `mapstructure:"website_prefix"`
}

// Currencies is the spec §9 list of supported currencies.
var Currencies = []string{"CNY", "USD", "EUR", "HKD", "JPY", "GBP", "AUD", "CAD", "THB", "SGD", "CHF",
	"DKK", "MOP", "MYR", "NOK", "NZD", "PHP", "RUB", "SEK", "TWD", "KRW", "ZAR", "ILS"}

// DefaultDBPath is where the embedded database lives when --db is empty.
const DefaultDBPath = "./var/voyage.db"

func setDefaults(v *viper.Viper) {
	v.SetDefault("db", "")
	v.SetDefault("addr", "127.0.0.1:8080")
	v.SetDefault("no_migrate", false)
	v.SetDefault("log_level", "info")
	v.SetDefault("log_format", "text")
	v.SetDefault("http.read_header_timeout", 5*time.Second)
	v.SetDefault("http.read_timeout", 30*time.Second)
	v.SetDefault("http.write_timeout", 60*time.Second)
	v.SetDefault("http.idle_timeout", 120*time.Second)
	v.SetDefault("http.drain_delay", 5*time.Second)
	// Above the 30 s a request may wait on one supplier call.
	v.SetDefault("http.shutdown_grace", 35*time.Second)
	v.SetDefault("http.trusted_proxies", "")
	v.SetDefault("http.max_body_bytes", 1<<20)
	v.SetDefault("http.secure_cookies", false)
	v.SetDefault("http.hsts.enabled", false)
	v.SetDefault("http.hsts.max_age", 365*24*time.Hour)
	v.SetDefault("http.hsts.include_subdomains", false)
	v.SetDefault("group.min_size", 10)
	v.SetDefault("group.remind_before", "48h")
	v.SetDefault("payment.test_gateway", false)
	v.SetDefault("payment.test_gateway_fee_percent", 0)
	v.SetDefault("payment.public_url", "")
	for channel, keys := range channelKeys {
		for _, k := range keys {
			v.SetDefault("payment."+channel+"."+k, "")
		}
	}
	v.SetDefault("jobs.enabled", true)
	v.SetDefault("jobs.workers", 50)
	v.SetDefault("jobs.poll_interval", 200*time.Millisecond)
	v.SetDefault("jobs.cleanup_interval", 15*time.Minute)
	v.SetDefault("jobs.rescue_after", time.Minute)
	v.SetDefault("site.name", "Voyage Travel Technology")
	v.SetDefault("site.short_name", "Voyage")
	v.SetDefault("site.chinese_name", "远航旅行科技")
	v.SetDefault("site.chinese_short_name", "远航")
	v.SetDefault("site.traditional_name", "遠航旅行科技")
	v.SetDefault("site.traditional_short_name", "遠航")
	v.SetDefault("site.logo", "/static/logo.svg")
	v.SetDefault("site.white_logo", "/static/logo-white.svg")
	v.SetDefault("site.favicon", "/static/favicon.svg")
	v.SetDefault("site.type", "client")
	v.SetDefault("site.date_format", "yyyy-MM-dd")
	v.SetDefault("site.default_currency", "CNY")
	v.SetDefault("site.default_language", "zh-cn")
	v.SetDefault("site.currencies", Currencies)
	v.SetDefault("site.is_icp", false)
	v.SetDefault("site.icp_code", "")
	v.SetDefault("site.is_network_security", false)
	v.SetDefault("site.network_security_code", "")
	v.SetDefault("site.rates", map[string]string{})
	v.SetDefault("site.website_prefix", "")
	v.SetDefault("auth.session_idle", 2*time.Hour)
	v.SetDefault("auth.session_max", 12*time.Hour)
	v.SetDefault("mail.from", "Voyage <no-reply@voyage.example>")
	v.SetDefault("mail.smtp_host", "")
	v.SetDefault("mail.smtp_port", 587)
	v.SetDefault("mail.smtp_username", "")
	v.SetDefault("mail.smtp_password", "")
	v.SetDefault("mail.outbox_dir", "./var/outbox")
	v.SetDefault("shopping.redis_url", "")
	v.SetDefault("http.rate_limit.enabled", true)
	v.SetDefault("http.rate_limit.key_rate", 50.0)
	v.SetDefault("http.rate_limit.key_burst", 100)
	v.SetDefault("http.rate_limit.user_rate", 50.0)
	v.SetDefault("http.rate_limit.user_burst", 100)
	v.SetDefault("http.rate_limit.anonymous_rate", 10.0)
	v.SetDefault("http.rate_limit.anonymous_burst", 50)
	v.SetDefault("http.rate_limit.notify_rate", 50.0)
	v.SetDefault("http.rate_limit.notify_burst", 200)
	v.SetDefault("http.rate_limit.redis_url", "")
	v.SetDefault("http.rate_limit.redis_prefix", "voyage:ratelimit:")
	v.SetDefault("shopping.max_searches", 0)
	v.SetDefault("shopping.sim.enabled", true)
	v.SetDefault("shopping.sim.profiles", []string{"gds", "ndc", "lcc"})
	v.SetDefault("shopping.sim.seed", 1)
	v.SetDefault("shopping.sim.latency_scale", 1.0)
	v.SetDefault("shopping.sim.error_rate", -1.0)
	v.SetDefault("shopping.sim.timeout_rate", -1.0)
	v.SetDefault("shopping.sim.volatility", -1.0)
	v.SetDefault("shopping.duffel.token", "")
	v.SetDefault("shopping.duffel.base_url", "https://api.duffel.com")
	v.SetDefault("metrics.addr", "")
	v.SetDefault("tracing.otlp_endpoint", "")
	v.SetDefault("tracing.sample_ratio", 1.0)
	v.SetDefault("shopping.duffel.pending_wait", "20s")
	v.SetDefault("shopping.duffel.webhook_secret", "")
	v.SetDefault("runtime.gc_percent", 200)
	v.SetDefault("runtime.memory_limit_mb", 0)
}

// Load builds the configuration. configFile may be empty, in which case
// ./voyage.yaml is read when present. flags may be nil; only flags the user
// actually set override lower layers.
func Load(configFile string, flags *pflag.FlagSet) (Config, error) {
	v := viper.New()
	setDefaults(v)
	v.SetEnvPrefix("VOYAGE")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	if configFile != "" {
		v.SetConfigFile(configFile)
		if err := v.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("config: read %s: %w", configFile, err)
		}
	} else if _, err := os.Stat("voyage.yaml"); err == nil {
		v.SetConfigFile("voyage.yaml")
		if err := v.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("config: read voyage.yaml: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Config{}, fmt.Errorf("config: stat voyage.yaml: %w", err)
	}

	if flags != nil {
		for flag, key := range map[string]string{"db": "db", "addr": "addr", "no-migrate": "no_migrate", "log-level": "log_level",
			"metrics-addr": "metrics.addr"} {
			if f := flags.Lookup(flag); f != nil {
				if err := v.BindPFlag(key, f); err != nil {
					return Config{}, fmt.Errorf("config: bind flag %s: %w", flag, err)
				}
			}
		}
	}

	// http.shutdown_grace was http.shutdown_timeout: an older file or
	// environment that sets only the former name still sets the grace.
	if v.IsSet("http.shutdown_timeout") && !v.InConfig("http.shutdown_grace") && os.Getenv("VOYAGE_HTTP_SHUTDOWN_GRACE") == "" {
		v.Set("http.shutdown_grace", v.Get("http.shutdown_timeout"))
	}

	var c Config
	if err := v.Unmarshal(&c); err != nil {
		return Config{}, fmt.Errorf("config: decode: %w", err)
	}
	if c.DB == "" {
		c.DB = DefaultDBPath
	}
	if err := c.Payment.readKeys(); err != nil {
		return Config{}, err
	}
	return c, c.Validate()
}

// Validate rejects settings the server cannot run with.
func (c Config) Validate() error {
	if c.Addr == "" {
		return errors.New("config: addr is empty")
	}
	if c.Metrics.Addr != "" && c.Metrics.Addr == c.Addr {
		return errors.New("config: metrics.addr must not be addr: the metrics are served apart from the public port")
	}
	if c.HTTP.DrainDelay < 0 || c.HTTP.ShutdownGrace < 0 {
		return errors.New("config: http.drain_delay and http.shutdown_grace must not be negative")
	}
	if _, err := c.HTTP.Proxies(); err != nil {
		return fmt.Errorf("config: http.trusted_proxies: %w", err)
	}
	if c.HTTP.MaxBodyBytes <= 0 {
		return errors.New("config: http.max_body_bytes must be positive")
	}
	if c.HTTP.HSTS.Enabled && c.HTTP.HSTS.MaxAge < time.Second {
		return errors.New("config: http.hsts.max_age must be at least 1s when http.hsts.enabled is on")
	}
	// Below 25 the server would do little but collect; above 2,000 the heap
	// may grow twenty-fold.
	if c.Runtime.GCPercent < 25 || c.Runtime.GCPercent > 2000 {
		return fmt.Errorf("config: runtime.gc_percent %d is not between 25 and 2000", c.Runtime.GCPercent)
	}
	if c.Runtime.MemoryLimitMB < 0 {
		return errors.New("config: runtime.memory_limit_mb must not be negative")
	}
	if c.Tracing.SampleRatio < 0 || c.Tracing.SampleRatio > 1 {
		return fmt.Errorf("config: tracing.sample_ratio %v is not between 0 and 1", c.Tracing.SampleRatio)
	}
	if c.Shopping.MaxSearches < 0 {
		return errors.New("config: shopping.max_searches must not be negative")
	}
	known := map[string]bool{}
	for _, cur := range Currencies {
		known[cur] = true
	}
	if !known[c.Site.DefaultCurrency] {
		return fmt.Errorf("config: site.default_currency %q is not a supported currency", c.Site.DefaultCurrency)
	}
	for _, cur := range c.Site.Currencies {
		if !known[cur] {
			return fmt.Errorf("config: site.currencies: %q is not a supported currency", cur)
		}
	}
	switch c.Site.DefaultLanguage {
	case "en", "zh-cn", "zh-tw":
	default:
		return fmt.Errorf("config: site.default_language %q is not one of en, zh-cn, zh-tw", c.Site.DefaultLanguage)
	}
	for channel, on := range c.Payment.On() {
		if on && !strings.HasPrefix(c.Payment.PublicURL, "https://") && !strings.HasPrefix(c.Payment.PublicURL, "http://") {
			return fmt.Errorf("config: payment.%s is set, so payment.public_url must be the address its notifications reach this server at (https://…)", channel)
		}
	}
	return c.Payment.checkBrowserKeys()
}

// Proxies are TrustedProxies read: a comma-separated list of proxy
// addresses or networks ("127.0.0.1, 10.0.0.0/8"); a bare address is a
// network of one.
func (h HTTPConfig) Proxies() ([]netip.Prefix, error) {
	list := h.TrustedProxies
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a network", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}
