package config

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "voyage.yaml")
	if err := os.WriteFile(file, []byte("addr: 127.0.0.1:9000\ndb: /from/file.db\nhttp:\n  read_timeout: 7s\nsite:\n  default_language: en\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.DB != DefaultDBPath || c.Site.DefaultCurrency != "CNY" || c.Site.DefaultLanguage != "zh-cn" || len(c.Site.Currencies) != 23 {
		t.Errorf("defaults: %+v", c)
	}

	c, err = Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9000" || c.DB != "/from/file.db" || c.HTTP.ReadTimeout != 7*time.Second || c.Site.DefaultLanguage != "en" {
		t.Errorf("file did not override defaults: %+v", c)
	}

	t.Setenv("VOYAGE_ADDR", "127.0.0.1:9100")
	t.Setenv("VOYAGE_HTTP_READ_TIMEOUT", "9s")
	c, err = Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9100" || c.HTTP.ReadTimeout != 9*time.Second || c.DB != "/from/file.db" {
		t.Errorf("env did not override the file: %+v", c)
	}

	flags := pflag.NewFlagSet("t", pflag.ContinueOnError)
	flags.String("addr", "", "")
	flags.String("db", "", "")
	if err := flags.Parse([]string{"--addr", "127.0.0.1:9200"}); err != nil {
		t.Fatal(err)
	}
	c, err = Load(file, flags)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9200" {
		t.Errorf("flag did not override env: %s", c.Addr)
	}
	if c.DB != "/from/file.db" {
		t.Errorf("an unset flag overrode the file: db = %s", c.DB)
	}
}

func TestValidate(t *testing.T) {
	// Each case breaks one setting of an otherwise valid configuration.
	if _, err := Load("", nil); err != nil {
		t.Fatalf("the valid configuration is refused: %v", err)
	}
	tests := []struct {
		name string
		env  map[string]string
		file string
	}{
		{"unsupported default currency", map[string]string{"VOYAGE_SITE_DEFAULT_CURRENCY": "XXX"}, ""},
		{"unsupported default language", map[string]string{"VOYAGE_SITE_DEFAULT_LANGUAGE": "fr"}, ""},
		{"missing explicit config file", nil, filepath.Join(t.TempDir(), "missing.yaml")},
		{"runtime.gc_percent 0", map[string]string{"VOYAGE_RUNTIME_GC_PERCENT": "0"}, ""},
		{"runtime.gc_percent 10", map[string]string{"VOYAGE_RUNTIME_GC_PERCENT": "10"}, ""},
		{"runtime.gc_percent 5000", map[string]string{"VOYAGE_RUNTIME_GC_PERCENT": "5000"}, ""},
		{"negative runtime.memory_limit_mb", map[string]string{"VOYAGE_RUNTIME_MEMORY_LIMIT_MB": "-1"}, ""},
		{"negative http.drain_delay", map[string]string{"VOYAGE_HTTP_DRAIN_DELAY": "-1s"}, ""},
		{"negative http.shutdown_grace", map[string]string{"VOYAGE_HTTP_SHUTDOWN_GRACE": "-1s"}, ""},
		{"negative shopping.max_searches", map[string]string{"VOYAGE_SHOPPING_MAX_SEARCHES": "-1"}, ""},
		{"a secret key as payment.stripe.publishable_key", map[string]string{"VOYAGE_PAYMENT_STRIPE_PUBLISHABLE_KEY": "sk_live_123"}, ""},
		{"unknown payment.airwallex.env", map[string]string{"VOYAGE_PAYMENT_AIRWALLEX_ENV": "staging"}, ""},
		{"a name in http.trusted_proxies", map[string]string{"VOYAGE_HTTP_TRUSTED_PROXIES": "10.0.0.0/8, lb.internal"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			if _, err := Load(tt.file, nil); err == nil {
				t.Errorf("%s accepted", tt.name)
			}
		})
	}
}

// The shutdown's drain and grace: defaults, a file, the environment, and
// the grace's former name (shutdown_timeout) in an older file.
func TestShutdownSettings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name             string
		file             string
		env              map[string]string
		wantDrain, grace time.Duration
	}{
		{"defaults", "", nil, 5 * time.Second, 35 * time.Second},
		{"file", write("new.yaml", "http:\n  drain_delay: 0s\n  shutdown_grace: 40s\n"), nil, 0, 40 * time.Second},
		{"former name in a file", write("old.yaml", "http:\n  shutdown_timeout: 12s\n"), nil, 5 * time.Second, 12 * time.Second},
		{"environment", "", map[string]string{"VOYAGE_HTTP_DRAIN_DELAY": "2s", "VOYAGE_HTTP_SHUTDOWN_GRACE": "9s"}, 2 * time.Second, 9 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			c, err := Load(tt.file, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.HTTP.DrainDelay != tt.wantDrain || c.HTTP.ShutdownGrace != tt.grace {
				t.Errorf("drain_delay %s, shutdown_grace %s; want %s, %s", c.HTTP.DrainDelay, c.HTTP.ShutdownGrace, tt.wantDrain, tt.grace)
			}
		})
	}
}

// The server's collector target and memory limit come from the config,
// unless GOGC or GOMEMLIMIT are in the environment; restore puts back what
// was there.
func TestRuntimeApply(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Runtime.GCPercent != 200 || c.Runtime.MemoryLimitMB != 0 {
		t.Fatalf("runtime defaults %+v, want gc 200 and no limit", c.Runtime)
	}
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	beforeLimit := debug.SetMemoryLimit(-1)

	restore := RuntimeConfig{GCPercent: 250, MemoryLimitMB: 512}.Apply()
	if got := debug.SetGCPercent(250); got != 250 {
		t.Errorf("gc percent %d after Apply, want 250", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 512<<20 {
		t.Errorf("memory limit %d after Apply, want %d", got, 512<<20)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("gc percent %d after restore, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != beforeLimit {
		t.Errorf("memory limit %d after restore, want %d", got, beforeLimit)
	}

	t.Setenv("GOGC", "150")
	restore = RuntimeConfig{GCPercent: 400}.Apply()
	got := debug.SetGCPercent(100)
	restore()
	if got != 100 {
		t.Errorf("with GOGC set, Apply changed the gc percent to %d", got)
	}
}

// HSTS is off unless configured; enabled, it needs a max age.
func TestHSTSConfig(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP.HSTS.Enabled || c.HTTP.HSTS.MaxAge != 365*24*time.Hour || c.HTTP.HSTS.IncludeSubdomains {
		t.Errorf("HSTS defaults %+v, want off, a year, no subdomains", c.HTTP.HSTS)
	}
	t.Setenv("VOYAGE_HTTP_HSTS_ENABLED", "true")
	t.Setenv("VOYAGE_HTTP_HSTS_MAX_AGE", "720h")
	t.Setenv("VOYAGE_HTTP_HSTS_INCLUDE_SUBDOMAINS", "true")
	if c, err = Load("", nil); err != nil || !c.HTTP.HSTS.Enabled || c.HTTP.HSTS.MaxAge != 720*time.Hour || !c.HTTP.HSTS.IncludeSubdomains {
		t.Errorf("HSTS from the environment: %+v, %v", c.HTTP.HSTS, err)
	}
	t.Setenv("VOYAGE_HTTP_HSTS_MAX_AGE", "0s")
	if _, err := Load("", nil); err == nil {
		t.Error("HSTS enabled with no max age accepted")
	}
}

// The card channels' browser settings come from the environment like every
// channel setting; Airwallex's SDK environment follows the API endpoint
// unless set.
func TestCardBrowserSettings(t *testing.T) {
	t.Setenv("VOYAGE_PAYMENT_STRIPE_PUBLISHABLE_KEY", "pk_test_abc")
	t.Setenv("VOYAGE_PAYMENT_AIRWALLEX_ENV", "demo")
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Payment.Stripe.PublishableKey != "pk_test_abc" || c.Payment.Airwallex.Env != "demo" {
		t.Fatalf("read %q and %q", c.Payment.Stripe.PublishableKey, c.Payment.Airwallex.Env)
	}
	for _, tt := range []struct{ env, endpoint, want string }{
		{"", "", "prod"},
		{"", "https://api.airwallex.com/", "prod"},
		{"", "https://api-demo.airwallex.com", "demo"},
		{"", "http://127.0.0.1:4000", "demo"},
		{"prod", "http://127.0.0.1:4000", "prod"},
		{"demo", "", "demo"},
	} {
		if got := (AirwallexConfig{Env: tt.env, Endpoint: tt.endpoint}).BrowserEnv(); got != tt.want {
			t.Errorf("env %q, endpoint %q: %s, want %s", tt.env, tt.endpoint, got, tt.want)
		}
	}
}

// TestMetricsAddr: metrics are off by default, set by the file, the
// environment and --metrics-addr in that order, and never on the public
// address.
func TestMetricsAddr(t *testing.T) {
	file := filepath.Join(t.TempDir(), "voyage.yaml")
	if err := os.WriteFile(file, []byte("metrics:\n  addr: 127.0.0.1:9090\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	load := func(file string, args ...string) (Config, error) {
		t.Helper()
		flags := pflag.NewFlagSet("t", pflag.ContinueOnError)
		flags.String("metrics-addr", "", "")
		if err := flags.Parse(args); err != nil {
			t.Fatal(err)
		}
		return Load(file, flags)
	}
	if c, err := load(""); err != nil || c.Metrics.Addr != "" {
		t.Fatalf("default metrics.addr %q (%v), want off", c.Metrics.Addr, err)
	}
	if c, err := load(file); err != nil || c.Metrics.Addr != "127.0.0.1:9090" {
		t.Fatalf("from the file: %q (%v)", c.Metrics.Addr, err)
	}
	t.Setenv("VOYAGE_METRICS_ADDR", "127.0.0.1:9091")
	if c, err := load(file); err != nil || c.Metrics.Addr != "127.0.0.1:9091" {
		t.Fatalf("from the environment: %q (%v)", c.Metrics.Addr, err)
	}
	if c, err := load(file, "--metrics-addr", "127.0.0.1:9092"); err != nil || c.Metrics.Addr != "127.0.0.1:9092" {
		t.Fatalf("from the flag: %q (%v)", c.Metrics.Addr, err)
	}
	if _, err := load(file, "--metrics-addr", "127.0.0.1:8080"); err == nil || !strings.Contains(err.Error(), "metrics.addr") {
		t.Fatalf("metrics on the public address: %v, want refused", err)
	}
}

// The balancers to trust: addresses and networks from the environment, a
// bare address a network of one; none by default.
func TestTrustedProxies(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := c.HTTP.Proxies(); err != nil || len(p) != 0 {
		t.Fatalf("default proxies %v %v, want none", p, err)
	}
	t.Setenv("VOYAGE_HTTP_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8,2001:db8::/32")
	if c, err = Load("", nil); err != nil {
		t.Fatal(err)
	}
	p, err := c.HTTP.Proxies()
	if err != nil || len(p) != 3 || p[0].String() != "127.0.0.1/32" || p[1].String() != "10.0.0.0/8" || p[2].String() != "2001:db8::/32" {
		t.Fatalf("proxies %v %v", p, err)
	}
}
