package app

import (
	"context"
	"fmt"

	"github.com/voyage/voyage/pkg/api"
	"github.com/voyage/voyage/pkg/ratelimit"
	"github.com/voyage/voyage/pkg/shopping"
)

// openRateLimiter chooses where the API's rate limits (http.rate_limit) are
// counted: in Redis when a Redis URL is configured, so every instance shares
// them, else in this process.
func (a *App) openRateLimiter(ctx context.Context) error {
	c := a.Cfg.HTTP.RateLimit
	if !c.Enabled {
		return nil
	}
	var l ratelimit.Limiter = ratelimit.NewMemory()
	url := c.RedisURL
	if url == "" {
		url = a.Cfg.Shopping.RedisURL
	}
	if url != "" {
		rdb, err := shopping.OpenRedis(ctx, url)
		if err != nil {
			return fmt.Errorf("app: rate limit: %w", err)
		}
		a.rateRedis = rdb
		l = ratelimit.Redis{Client: rdb, Prefix: c.RedisPrefix}
	}
	a.limiter = l
	return nil
}

// applyRateLimits puts the limits on the router.
func (a *App) applyRateLimits() {
	if a.limiter == nil {
		return
	}
	c := a.Cfg.HTTP.RateLimit
	a.Router.RateLimit(a.limiter, api.Limits{Key: ratelimit.Limit{Rate: c.KeyRate, Burst: c.KeyBurst},
		User:      ratelimit.Limit{Rate: c.UserRate, Burst: c.UserBurst},
		Anonymous: ratelimit.Limit{Rate: c.AnonymousRate, Burst: c.AnonymousBurst}})
}
