package duffel

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/voyage/voyage/pkg/supplier"
)

// Defaults for Config fields left zero.
const (
	DefaultBaseURL = "https://api.duffel.com"
	DefaultTimeout = 30 * time.Second
	// DefaultMaxRetries is how many times a retryable failure is tried
	// again (so up to four attempts in all).
	DefaultMaxRetries = 3
	// DefaultRatePerSecond and DefaultBurst pace this process's calls.
	// Duffel limits requests per access token and per endpoint and says
	// how much is left in the ratelimit-* headers; it publishes no fixed
	// number we could rely on. 2/s sustained with a burst of 5 lets one
	// booking flow (search, re-price, order, pay) run without queueing
	// while staying well below what one token is allowed, even when a few
	// `voyage serve` instances share the token: the limiter is per process,
	// so with N instances set RatePerSecond to the share each may use.
	// Searches also count against Duffel's commercial search-to-book ratio,
	// another reason not to fire them as fast as the API accepts.
	DefaultRatePerSecond = 2
	DefaultBurst         = 5

	// apiVersion is the Duffel-Version header every request carries.
	apiVersion = "v2"
	// maxBody bounds what we read from one response; a large return search
	// is a few megabytes, this leaves ample room and stops a runaway body.
	maxBody = 64 << 20

	baseBackoff = 500 * time.Millisecond
	maxBackoff  = 8 * time.Second
	// maxServerWait caps how long a retry-after/ratelimit-reset may make us
	// wait before one retry.
	maxServerWait = time.Minute
)

// Config configures the Duffel connector. Only Token is required; zero
// fields take the defaults above.
type Config struct {
	// Token is a Duffel access token (test or live); New refuses an empty one.
	Token string
	// BaseURL is Duffel's API root (changed only in tests).
	BaseURL string
	// Timeout bounds one HTTP attempt; the caller's context bounds the
	// whole call including retries.
	Timeout time.Duration
	// MaxRetries is how many times a retryable failure is retried; a
	// negative value disables retries.
	MaxRetries int
	// RatePerSecond and Burst configure the client-side rate limiter.
	RatePerSecond float64
	Burst         int
	// SplitTickets asks Duffel for split-ticket itineraries on multi-slice
	// searches (a feature Duffel enables per account on request) and
	// offers the cheapest combination as one more offer; see split.go.
	SplitTickets bool
	// PendingWait is how long Book waits for an order Duffel accepted
	// (202) to finish before it answers a pending booking, which the
	// caller finishes later (DefaultPendingWait when 0). An agent waits
	// on it: long enough for the usual few seconds, short of a timeout.
	PendingWait time.Duration
}

// Limiter paces requests; *rate.Limiter satisfies it.
type Limiter interface {
	Wait(ctx context.Context) error
}

// Option changes a Client built by New; tests use them to inject fakes.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (its Timeout is left alone; the
// per-attempt timeout comes from Config.Timeout).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithLogger sets the logger that reports retries and skipped offers.
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.log = l } }

// WithClock sets the clock used for expiry checks and for reading
// ratelimit-reset dates.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithSleep sets how the client waits between retries; it must return
// early with an error when ctx ends.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// WithLimiter replaces the rate limiter built from Config.
func WithLimiter(l Limiter) Option { return func(c *Client) { c.limiter = l } }

// Client is a supplier.Supplier backed by Duffel's Flights API. It is safe
// for concurrent use and keeps no state between calls, so any instance can
// continue a booking another one started; the one exception is the keys of
// orders Duffel accepted and has not finished, which this process does not
// book again while it waits for them (pending.go).
type Client struct {
	cfg     Config
	base    *url.URL
	http    *http.Client
	log     *slog.Logger
	now     func() time.Time
	sleep   func(ctx context.Context, d time.Duration) error
	limiter Limiter
	// pending holds the keys of orders Duffel accepted and has not
	// finished (pending.go).
	pending *pendingKeys
}

var _ supplier.Supplier = (*Client)(nil)

// New builds a Client, filling Config defaults.
func New(cfg Config, opts ...Option) (*Client, error) {
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, errors.New("duffel: an access token is required")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.RatePerSecond <= 0 {
		cfg.RatePerSecond = DefaultRatePerSecond
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.PendingWait <= 0 {
		cfg.PendingWait = DefaultPendingWait
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("duffel: bad base URL %q", cfg.BaseURL)
	}
	c := &Client{
		cfg:     cfg,
		base:    base,
		http:    &http.Client{},
		log:     slog.Default(),
		now:     time.Now,
		sleep:   sleepContext,
		limiter: rate.NewLimiter(rate.Limit(cfg.RatePerSecond), cfg.Burst),
		pending: &pendingKeys{},
	}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// Name is the supplier's configuration name.
func (c *Client) Name() string { return "duffel" }

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// call is one API request.
type call struct {
	method string
	path   string
	query  url.Values
	// body is sent as {"data": body}; nil sends no body.
	body any
	// idempotent says repeating the request cannot do anything twice: GETs,
	// and the POSTs that only search or quote (offer requests, order
	// change requests, unconfirmed cancellation quotes). Creating an order,
	// paying and confirming are not, and are retried only when Duffel
	// cannot have acted on them (see retryable).
	idempotent bool
	// out receives the response's "data" member.
	out any
	// status, when set, receives the HTTP status of a successful answer
	// (creating an order may answer 202 Accepted: not finished yet).
	status *int
}

func (cl call) String() string { return cl.method + " " + cl.path }

// response is what one attempt got back.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a call, pacing it with the limiter and retrying retryable
// failures with exponential backoff and jitter.
func (c *Client) do(ctx context.Context, cl call) error {
	var payload []byte
	if cl.body != nil {
		var err error
		payload, err = json.Marshal(struct {
			Data any `json:"data"`
		}{cl.body})
		if err != nil {
			return fmt.Errorf("duffel: %s: encode: %w", cl, err)
		}
	}
	for attempt := 0; ; attempt++ {
		if err := c.limiter.Wait(ctx); err != nil {
			// rate.Limiter refuses up front when the wait would outlast
			// the deadline; either way the caller's patience ran out.
			return c.timeout(ctx, cl, err)
		}
		res, err := c.send(ctx, cl, payload)
		var failure error
		var wait time.Duration
		var retry bool
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return c.timeout(ctx, cl, ctx.Err())
			}
			retry = cl.idempotent || notSent(err)
			if errors.Is(err, context.DeadlineExceeded) {
				// The attempt's own Timeout fired, not the caller's.
				failure = fmt.Errorf("duffel: %s: no answer within %s: %w", cl, c.cfg.Timeout, supplier.ErrTimeout)
			} else {
				failure = fmt.Errorf("duffel: %s: %w: %w", cl, supplier.ErrUnavailable, err)
			}
		case res.status >= 200 && res.status < 300:
			if cl.status != nil {
				*cl.status = res.status
			}
			if cl.out == nil || len(res.body) == 0 {
				return nil
			}
			if err := json.Unmarshal(res.body, &struct {
				Data any `json:"data"`
			}{cl.out}); err != nil {
				return fmt.Errorf("duffel: %s: decode: %w: %w", cl, supplier.ErrUnavailable, err)
			}
			return nil
		default:
			failure = newAPIError(cl, res)
			retry = retryable(cl, res.status)
			wait = c.serverWait(res.header)
		}
		if !retry || attempt >= c.cfg.MaxRetries {
			return failure
		}
		if wait == 0 {
			wait = backoff(attempt)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// Waiting would outlast the caller; say what stopped us now
			// rather than sleeping into a timeout.
			return failure
		}
		c.log.LogAttrs(ctx, slog.LevelWarn, "duffel: retrying",
			slog.String("request", cl.String()),
			slog.Int("attempt", attempt+1),
			slog.Duration("wait", wait),
			slog.String("error", failure.Error()))
		if err := c.sleep(ctx, wait); err != nil {
			return c.timeout(ctx, cl, err)
		}
	}
}

// retryable says whether an HTTP failure may be tried again.
//
// 429 and 503 are safe for every request: Duffel's rate limiter answers 429
// before the request is processed, and its reference documents 503 as a
// temporary condition to "retry later". 500, 502 and 504 are retried only
// for idempotent calls. Duffel's reference says not to retry 500 and 502
// because an order or payment may have been made behind them; repeating a
// read or a search cannot book or pay anything, so for those a retry only
// costs a request, while a POST that creates an order, pays or confirms is
// never repeated after such an answer: it could double a booking or a
// payment. A network error is retried for idempotent calls, and for the
// others only when no connection was made (notSent).
func retryable(cl call, status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return cl.idempotent
	}
	return false
}

// notSent reports a transport error that happened before the request could
// reach Duffel (no connection was made), so even a non-idempotent request
// may be sent again.
func notSent(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// backoff is the wait before retry n (0-based): exponential from
// baseBackoff, capped, with jitter over its upper half so that instances
// that failed together do not retry together.
func backoff(n int) time.Duration {
	d := baseBackoff << n
	if d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	half := d / 2
	return half + rand.N(half+1)
}

// serverWait reads how long Duffel asked us to wait: Retry-After (seconds
// or an HTTP date) first, then ratelimit-reset (an HTTP date, or seconds).
func (c *Client) serverWait(h http.Header) time.Duration {
	for _, name := range []string{"Retry-After", "Ratelimit-Reset"} {
		v := strings.TrimSpace(h.Get(name))
		if v == "" {
			continue
		}
		var d time.Duration
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			if n > 1_000_000_000 { // a Unix time, not a number of seconds
				d = time.Unix(n, 0).Sub(c.now())
			} else {
				d = time.Duration(n) * time.Second
			}
		} else if t, err := http.ParseTime(v); err == nil {
			d = t.Sub(c.now())
		} else {
			continue
		}
		if d <= 0 {
			d = time.Millisecond // the window has already reset: retry promptly
		}
		return min(d, maxServerWait)
	}
	return 0
}

func (c *Client) timeout(ctx context.Context, cl call, cause error) error {
	if ctx.Err() != nil {
		cause = ctx.Err()
	}
	return fmt.Errorf("duffel: %s: %w: %w", cl, supplier.ErrTimeout, cause)
}

// send makes one HTTP attempt under Config.Timeout.
func (c *Client) send(ctx context.Context, cl call, payload []byte) (response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	// Paths arrive with their ids escaped already (url.PathEscape).
	u := c.base.String() + cl.path
	if len(cl.query) > 0 {
		u += "?" + cl.query.Encode()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, u, body)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	req.Header.Set("Duffel-Version", apiVersion)
	req.Header.Set("Accept", "application/json")
	// Asked for explicitly, as Duffel's reference does, so that the header
	// is there whatever transport is injected; Go's transport then leaves
	// the body compressed and we inflate it below.
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("User-Agent", "voyage-duffel/1")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		gz, err := gzip.NewReader(resp.Body)
		if err != nil {
			return response{}, fmt.Errorf("gzip: %w", err)
		}
		defer gz.Close()
		r = gz
	}
	data, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err != nil {
		return response{}, err
	}
	if len(data) > maxBody {
		return response{}, fmt.Errorf("response larger than %d bytes", maxBody)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: data}, nil
}
