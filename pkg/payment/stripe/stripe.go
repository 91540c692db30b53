// Package stripe is Voyage's Stripe payment channel: PaymentIntents created
// with stripe-go (Stripe's own client) against a configurable API URL, and
// the Stripe-Signature check of the webhook events Stripe sends.
//
// Stripe names a payment by its PaymentIntent id; Voyage by its key. The key
// travels as the intent's metadata out_trade_no and as the create request's
// Idempotency-Key, and Status, Close and Refund find the intent again with
// the Search API (metadata['out_trade_no']:'KEY'). Stripe documents search
// as not read-after-write ("data is usually searchable within a minute"), so
// the intents this process created are also remembered key -> id and asked
// for by id first.
package stripe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	stripego "github.com/stripe/stripe-go/v84"

	"github.com/voyage/voyage/pkg/payment"
)

// ProductionURL is Stripe's API. Stripe has no separate sandbox host: test
// mode is the same URL with a sk_test_ key.
const ProductionURL = "https://api.stripe.com"

// Name is the spec's channel name.
const Name = "stripe"

// metaKey is the metadata field that carries Voyage's key on the intent.
const metaKey = "out_trade_no"

// Config is one Stripe account.
type Config struct {
	// SecretKey is the API key (sk_live_…, sk_test_…, or a restricted
	// rk_… key allowed PaymentIntents and Refunds).
	SecretKey string
	// WebhookSecret is the webhook endpoint's signing secret (whsec_…).
	WebhookSecret string
	// BaseURL is the API's base URL; ProductionURL when empty.
	BaseURL string
	// Timeout bounds one API call; 15 seconds when zero.
	Timeout time.Duration
	// Transport carries the API calls (http.DefaultTransport when nil): the
	// app gives a traced one.
	Transport http.RoundTripper
	// Tolerance is how far a webhook's signed timestamp may be from Now;
	// five minutes (Stripe's own default) when zero.
	Tolerance time.Duration
	// Now is the clock webhook timestamps are checked against; time.Now
	// when nil.
	Now    func() time.Time
	Logger *slog.Logger
}

// String hides the secrets, so a Config printed or logged by mistake leaks
// nothing.
func (c Config) String() string {
	return fmt.Sprintf("stripe.Config{BaseURL: %q, SecretKey: %s, WebhookSecret: %s}",
		c.baseURL(), payment.Redact(c.SecretKey), payment.Redact(c.WebhookSecret))
}

// LogValue is the Config's slog form, secrets hidden.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", c.baseURL()),
		slog.String("secret_key", payment.Redact(c.SecretKey)),
		slog.String("webhook_secret", payment.Redact(c.WebhookSecret)),
	)
}

func (c Config) baseURL() string {
	return payment.BaseURL(c.BaseURL, ProductionURL)
}

// Channel is the Stripe payment channel.
type Channel struct {
	cfg    Config
	client *stripego.Client
	log    *slog.Logger

	mu  sync.Mutex
	ids map[string]string // key -> PaymentIntent id, for the intents this process created
}

var _ payment.Channel = (*Channel)(nil)

// New makes a Channel; ErrNotConfigured without a secret key or webhook
// secret.
func New(cfg Config) (*Channel, error) {
	if cfg.SecretKey == "" || cfg.WebhookSecret == "" {
		return nil, fmt.Errorf("%w: stripe needs a secret key and a webhook secret", payment.ErrNotConfigured)
	}
	cfg.Timeout = payment.Timeout(cfg.Timeout, payment.DefaultTimeout)
	if cfg.Tolerance == 0 {
		cfg.Tolerance = 5 * time.Minute
	}
	cfg.Now = payment.Clock(cfg.Now)
	base := cfg.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	httpClient := payment.HTTPClient(&http.Client{Transport: refuseRedirects{base}}, cfg.Timeout)
	url := cfg.baseURL()
	backend := stripego.GetBackendWithConfig(stripego.APIBackend, &stripego.BackendConfig{
		HTTPClient: httpClient,
		URL:        &url,
		// Voyage retries with the same keys itself; stripe-go's own
		// retries would sleep inside a request.
		MaxNetworkRetries: stripego.Int64(0),
		LeveledLogger:     &stripego.LeveledLogger{Level: stripego.LevelNull},
	})
	backends := &stripego.Backends{API: backend, Connect: backend, Uploads: backend, MeterEvents: backend}
	return &Channel{
		cfg:    cfg,
		client: stripego.NewClient(cfg.SecretKey, stripego.WithBackends(backends)),
		log:    payment.Logger(cfg.Logger).With("channel", Name),
		ids:    map[string]string{},
	}, nil
}

// Name is "stripe".
func (c *Channel) Name() string { return Name }

// Create creates a PaymentIntent for c.Amount under the Idempotency-Key
// c.Key, so a retry answers the intent already created. Stripe sends its
// webhooks to the endpoint configured on the account, not to c.NotifyURL;
// c.ReturnURL is the browser's business when it confirms the card.
func (c *Channel) Create(ctx context.Context, req payment.Create) (payment.Pending, error) {
	if err := checkKey(req.Key); err != nil {
		return payment.Pending{}, err
	}
	if req.Amount <= 0 {
		return payment.Pending{}, fmt.Errorf("stripe create %s: amount %d is not positive", req.Key, req.Amount)
	}
	params := &stripego.PaymentIntentCreateParams{
		Amount:      stripego.Int64(req.Amount),
		Currency:    stripego.String(strings.ToLower(req.Currency)),
		Description: stripego.String(req.Subject),
		Metadata:    map[string]string{metaKey: req.Key},
	}
	params.Context = ctx
	params.SetIdempotencyKey(req.Key)
	pi, err := c.client.V1PaymentIntents.Create(ctx, params)
	if err != nil {
		return payment.Pending{}, wrap(err, "stripe create "+req.Key)
	}
	c.remember(req.Key, pi.ID)
	return payment.Pending{Reference: pi.ID, ClientSecret: pi.ClientSecret, ExpiresAt: req.ExpiresAt}, nil
}

// Status finds the key's intent and says what became of it.
func (c *Channel) Status(ctx context.Context, key string) (payment.Status, error) {
	pi, err := c.find(ctx, key)
	if err != nil {
		return payment.Status{}, err
	}
	return intentStatus(key, pi), nil
}

// Close cancels the key's intent unless it is paid (ErrAlreadyPaid);
// an intent already cancelled, or none at all, is no error.
func (c *Channel) Close(ctx context.Context, key string) error {
	pi, err := c.find(ctx, key)
	if errors.Is(err, payment.ErrUnknownPayment) {
		return nil
	}
	if err != nil {
		return err
	}
	switch pi.Status {
	case stripego.PaymentIntentStatusSucceeded:
		return fmt.Errorf("stripe close %s: %w", key, payment.ErrAlreadyPaid)
	case stripego.PaymentIntentStatusCanceled:
		return nil
	}
	params := &stripego.PaymentIntentCancelParams{}
	params.Context = ctx
	// The cancellation of one intent is the same request however often it
	// is retried.
	params.SetIdempotencyKey("cancel-" + key)
	_, err = c.client.V1PaymentIntents.Cancel(ctx, pi.ID, params)
	if err == nil {
		return nil
	}
	var se *stripego.Error
	if errors.As(err, &se) && se.Code == stripego.ErrorCodePaymentIntentUnexpectedState && se.PaymentIntent != nil {
		// The payer finished paying between the search and the cancel.
		switch se.PaymentIntent.Status {
		case stripego.PaymentIntentStatusSucceeded:
			return fmt.Errorf("stripe close %s: %w", key, payment.ErrAlreadyPaid)
		case stripego.PaymentIntentStatusCanceled:
			return nil
		}
	}
	return wrap(err, "stripe close "+key)
}

// Refund refunds r.Amount of the key's intent under the Idempotency-Key
// r.RefundKey. Stripe's refund reasons are a fixed list, so r.Reason goes
// to the refund's metadata and the reason is requested_by_customer.
func (c *Channel) Refund(ctx context.Context, r payment.Refund) (payment.RefundResult, error) {
	if r.RefundKey == "" || r.Amount <= 0 {
		return payment.RefundResult{}, fmt.Errorf("stripe refund %s: needs a refund key and a positive amount", r.Key)
	}
	pi, err := c.find(ctx, r.Key)
	if err != nil {
		return payment.RefundResult{}, err
	}
	if r.Currency != "" && !strings.EqualFold(r.Currency, string(pi.Currency)) {
		return payment.RefundResult{}, fmt.Errorf("stripe refund %s: currency %s, the payment is in %s", r.Key, r.Currency, strings.ToUpper(string(pi.Currency)))
	}
	params := &stripego.RefundCreateParams{
		PaymentIntent: stripego.String(pi.ID),
		Amount:        stripego.Int64(r.Amount),
		Reason:        stripego.String(string(stripego.RefundReasonRequestedByCustomer)),
		Metadata:      map[string]string{metaKey: r.Key, "refund_key": r.RefundKey},
	}
	if r.Reason != "" {
		params.Metadata["reason"] = r.Reason
	}
	params.Context = ctx
	params.SetIdempotencyKey(r.RefundKey)
	re, err := c.client.V1Refunds.Create(ctx, params)
	if err != nil {
		return payment.RefundResult{}, wrap(err, "stripe refund "+r.Key)
	}
	return payment.RefundResult{Reference: re.ID, Done: re.Status == stripego.RefundStatusSucceeded}, nil
}

// find answers the key's intent with its latest charge and the charge's
// balance transaction (for the fee) expanded: by id when this process
// created it, else by search.
func (c *Channel) find(ctx context.Context, key string) (*stripego.PaymentIntent, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	if id := c.known(key); id != "" {
		params := &stripego.PaymentIntentRetrieveParams{}
		params.Context = ctx
		params.AddExpand("latest_charge.balance_transaction")
		pi, err := c.client.V1PaymentIntents.Retrieve(ctx, id, params)
		if err != nil {
			return nil, wrap(err, "stripe status "+key)
		}
		return pi, nil
	}
	params := &stripego.PaymentIntentSearchParams{}
	params.Context = ctx
	params.Query = fmt.Sprintf("metadata['%s']:'%s'", metaKey, key)
	params.Single = true
	params.AddExpand("data.latest_charge.balance_transaction")
	var found *stripego.PaymentIntent
	for pi, err := range c.client.V1PaymentIntents.Search(ctx, params) {
		if err != nil {
			return nil, wrap(err, "stripe search "+key)
		}
		// One key creates one intent (the idempotency key); should two
		// ever match, the paid one is the truth.
		if found == nil || pi.Status == stripego.PaymentIntentStatusSucceeded {
			found = pi
		}
	}
	if found == nil {
		return nil, fmt.Errorf("stripe status %s: %w", key, payment.ErrUnknownPayment)
	}
	c.remember(key, found.ID)
	return found, nil
}

func (c *Channel) remember(key, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids[key] = id
}

func (c *Channel) known(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[key]
}

// checkKey keeps a key to what payment.TradeNo makes, which is also what
// may stand inside a search query's quotes.
func checkKey(key string) error {
	if key == "" || len(key) > 64 {
		return fmt.Errorf("stripe: bad payment key %q", key)
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Errorf("stripe: bad payment key %q", key)
		}
	}
	return nil
}

// intentStatus maps an intent to Voyage's states: succeeded is paid (or
// refunded once its charge is refunded in full), canceled is closed, and
// every other state still waits for the payer.
func intentStatus(key string, pi *stripego.PaymentIntent) payment.Status {
	st := payment.Status{
		Key:       key,
		Reference: pi.ID,
		State:     payment.StatePending,
		Amount:    pi.Amount,
		Currency:  strings.ToUpper(string(pi.Currency)),
	}
	if k := pi.Metadata[metaKey]; k != "" {
		st.Key = k
	}
	switch pi.Status {
	case stripego.PaymentIntentStatusSucceeded:
		st.State = payment.StatePaid
		if pi.AmountReceived > 0 {
			st.Amount = pi.AmountReceived
		}
		if ch := pi.LatestCharge; ch != nil {
			if ch.Created > 0 {
				st.PaidAt = time.Unix(ch.Created, 0).UTC()
			}
			if ch.Refunded {
				st.State = payment.StateRefunded
			}
			if bt := ch.BalanceTransaction; bt != nil {
				st.Fee = bt.Fee
			}
		}
	case stripego.PaymentIntentStatusCanceled:
		st.State = payment.StateClosed
	}
	return st
}

// wrap keeps Stripe's 4xx answers as they are and makes a transport error,
// a 5xx or 429 ErrPaymentTimeout: the request may or may not have happened
// and is to be asked again.
func wrap(err error, what string) error {
	var se *stripego.Error
	if errors.As(err, &se) {
		switch {
		case se.HTTPStatusCode == http.StatusNotFound || se.Code == stripego.ErrorCodeResourceMissing:
			return fmt.Errorf("%w: %s: %w", payment.ErrUnknownPayment, what, err)
		case se.HTTPStatusCode >= 500 || se.HTTPStatusCode == http.StatusTooManyRequests:
			return fmt.Errorf("%w: %s: %w", payment.ErrPaymentTimeout, what, err)
		case se.Type == stripego.ErrorTypeCard:
			return fmt.Errorf("%w: %s: %w", payment.ErrDeclined, what, err)
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	if errors.Is(err, errRedirect) {
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%w: %s: %w", payment.ErrPaymentTimeout, what, err)
}

var errRedirect = errors.New("the API answered a redirect")

// refuseRedirects turns a 3xx into an error of its own: stripe-go would
// otherwise report it as a body it cannot read, which looks like an outage
// and would be asked again, when it is a misconfigured URL or someone
// else's server.
type refuseRedirects struct{ next http.RoundTripper }

func (t refuseRedirects) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.StatusCode < 300 || resp.StatusCode >= 400 {
		return resp, err
	}
	resp.Body.Close()
	return nil, fmt.Errorf("%w: HTTP %d to %q", errRedirect, resp.StatusCode, resp.Header.Get("Location"))
}
