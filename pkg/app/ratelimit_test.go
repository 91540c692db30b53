package app_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo/demotest"
	"github.com/voyage/voyage/pkg/store"
)

// testRedisURL is the Redis of the rate-limit tests; under CI=true it must
// be reachable (as PostgreSQL must).
func testRedisURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("VOYAGE_TEST_REDIS_URL")
	if u == "" {
		u = "redis://127.0.0.1:6379/0"
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	if err := c.Ping(context.Background()).Err(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and Redis is unreachable: %v", err)
		}
		t.Skipf("Redis unreachable: %v", err)
	}
	return u
}

// limited is a config with a small bucket that does not refill during a
// test: 5 requests, then one per 100 s.
func limited(redisURL, prefix string) func(*config.Config) {
	return func(c *config.Config) {
		c.HTTP.RateLimit = config.RateLimitConfig{Enabled: true, KeyRate: 0.01, KeyBurst: 5, UserRate: 0.01, UserBurst: 3,
			RedisURL: redisURL, RedisPrefix: prefix}
	}
}

func apiKeyOf(t *testing.T, a *app.App, srv *httptest.Server) string {
	t.Helper()
	me := loginAs(t, srv, "demo-super", "demo-pass-1")
	k, err := a.Auth.CreateAPIKey(context.Background(), me.Company.ID, "erp", []string{auth.RoleSuperUser}, me.UserInfo.ID)
	if err != nil {
		t.Fatal(err)
	}
	return k.Key
}

func TestRateLimitPerKeyAndSession(t *testing.T) {
	t.Parallel()
	redisURL := testRedisURL(t)
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			url, prefix := "", ""
			if backend == "redis" {
				url, prefix = redisURL, fmt.Sprintf("voyage-test:%d:", rand.Int64())
			}
			dsn := demotest.DSN(t, store.SQLite)
			a, srv := newAppOn(t, dsn, limited(url, prefix))
			key := apiKeyOf(t, a, srv)
			// A second instance on the same database.
			_, srv2 := newAppOn(t, dsn, limited(url, prefix))

			for i := 0; i < 3; i++ {
				resp, env := call(t, srv, "GET", "/base/v2/wallet", "", "", "X-Api-Key", key)
				if resp.StatusCode != 200 || env.Code != 0 {
					t.Fatalf("call %d: %d %+v", i+1, resp.StatusCode, env)
				}
				if got := resp.Header.Get("RateLimit-Limit"); got != "5" {
					t.Errorf("RateLimit-Limit = %q, want 5", got)
				}
				if got := resp.Header.Get("RateLimit-Remaining"); got != strconv.Itoa(4-i) {
					t.Errorf("call %d: RateLimit-Remaining = %q, want %d", i+1, got, 4-i)
				}
			}
			// Two more on the other instance: with Redis they count against
			// the same bucket, so the key's 6th request is refused there.
			second := 5
			if backend == "memory" {
				second = 7 // each instance keeps its own bucket of 5
			}
			for i := 0; i < second-3; i++ {
				if resp, env := call(t, srv2, "GET", "/base/v2/wallet", "", "", "X-Api-Key", key); resp.StatusCode != 200 {
					t.Fatalf("second instance call %d: %d %+v", i+1, resp.StatusCode, env)
				}
			}
			target := srv2
			if backend == "memory" {
				target = srv // the first instance's bucket is the one now spent after 5
				for i := 0; i < 2; i++ {
					if resp, _ := call(t, srv, "GET", "/base/v2/wallet", "", "", "X-Api-Key", key); resp.StatusCode != 200 {
						t.Fatalf("first instance call %d: %d", 4+i, resp.StatusCode)
					}
				}
			}
			// No Accept-Language: an API-key caller reads English.
			resp, env := call(t, target, "GET", "/base/v2/wallet", "", "", "X-Api-Key", key)
			if resp.StatusCode != 429 || env.Code != 200029 {
				t.Fatalf("over the limit: %d %+v", resp.StatusCode, env)
			}
			if !strings.Contains(env.Message, "Too many requests") {
				t.Errorf("message for an API key without Accept-Language = %q, want English", env.Message)
			}
			if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra < 1 {
				t.Errorf("Retry-After = %q", resp.Header.Get("Retry-After"))
			}
			if resp.Header.Get("RateLimit-Remaining") != "0" || resp.Header.Get("RateLimit-Limit") != "5" {
				t.Errorf("RateLimit headers on 429: %v", resp.Header)
			}
			// Translated: Accept-Language, and the lang query parameter.
			if _, env := call(t, target, "GET", "/base/v2/wallet", "zh-cn", "", "X-Api-Key", key); !strings.Contains(env.Message, "请求过于频繁") {
				t.Errorf("zh-cn message = %q", env.Message)
			}
			if _, env := call(t, target, "GET", "/base/v2/wallet?lang=zh-tw", "en", "", "X-Api-Key", key); !strings.Contains(env.Message, "請求過於頻繁") {
				t.Errorf("lang=zh-tw message = %q", env.Message)
			}

			// A user has one bucket (3 here), apart from the key's, however
			// many sessions it opens: five logins once got five times the
			// allowance.
			var sessions []meData
			for range 5 {
				sessions = append(sessions, loginAs(t, srv, "demo-finance", "demo-pass-1"))
			}
			me := sessions[0]
			for i := 0; i < 3; i++ {
				if resp, env := call(t, srv, "GET", "/base/v2/wallet", "en", "", bearer(sessions[i].Token)...); resp.StatusCode != 200 {
					t.Fatalf("user call %d (session %d): %d %+v", i+1, i+1, resp.StatusCode, env)
				}
			}
			for _, s := range sessions {
				resp, env = call(t, srv, "GET", "/base/v2/wallet", "en", "", bearer(s.Token)...)
				if resp.StatusCode != 429 || env.Code != 200029 || resp.Header.Get("Retry-After") == "" {
					t.Fatalf("user over its limit in another session: %d %+v", resp.StatusCode, env)
				}
			}
			// Another user of the same agency has a bucket of its own.
			op := loginAs(t, srv, "demo-operator", "demo-pass-1")
			if resp, env := call(t, srv, "GET", "/base/v2/wallet", "en", "", bearer(op.Token)...); resp.StatusCode == 429 {
				t.Fatalf("another user refused by the first one's limit: %+v", env)
			}
			// A portal session without Accept-Language keeps the site default.
			if _, env := call(t, srv, "GET", "/base/v2/wallet", "", "", bearer(me.Token)...); !strings.Contains(env.Message, "请求过于频繁") {
				t.Errorf("session message without Accept-Language = %q, want the site default (zh-cn)", env.Message)
			}
		})
	}
}

// TestRateLimitPerAddressOnPublicRoutes: the public routes (the site's
// settings, login, the partnership form) had no limit at all; each address
// now has a bucket of its own for them, on both engines.
func TestRateLimitPerAddressOnPublicRoutes(t *testing.T) {
	t.Parallel()
	onEachEngine(t, newSeededApp, func(c *config.Config) {
		c.HTTP.RateLimit = config.RateLimitConfig{Enabled: true, AnonymousRate: 0.01, AnonymousBurst: 3}
	}, func(t *testing.T, a *app.App, srv *httptest.Server) {
		for i := range 3 {
			if resp, env := call(t, srv, "GET", "/base/v2/config/getSiteConfig", "en", ""); resp.StatusCode != 200 {
				t.Fatalf("public call %d: %d %+v", i+1, resp.StatusCode, env)
			}
		}
		resp, env := call(t, srv, "POST", "/base/v2/applications", "zh-cn", `{"name":"Li","country":"CN","phone":"12345678"}`)
		if resp.StatusCode != 429 || env.Code != 200029 || !strings.Contains(env.Message, "请求过于频繁") || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("the address over its limit: %d %+v", resp.StatusCode, env)
		}
		wantApplications(t, a, 0, "an application refused by the rate limit")
	})
}
