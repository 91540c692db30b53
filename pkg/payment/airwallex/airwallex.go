// Package airwallex is Voyage's Airwallex payment channel: the Payment
// Acceptance REST API (payment intents and refunds) behind a bearer token
// from the login endpoint, and the HMAC check of the webhooks Airwallex
// sends.
//
// Sources: Airwallex API reference "API Access Token"
// (https://www.airwallex.com/docs/api/authentication/api_access_token),
// "Payment Intents" (https://www.airwallex.com/docs/api/payments/payment_intents),
// "Refunds" (https://www.airwallex.com/docs/api/payments/refunds), "Errors"
// (https://www.airwallex.com/docs/api/errors) and "Listen for webhook
// events" (https://www.airwallex.com/docs/developer-tools/webhooks/listen-for-webhook-events).
package airwallex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/payment"
)

// The API's hosts: production, and the demo (sandbox) environment.
const (
	ProductionURL = "https://api.airwallex.com"
	SandboxURL    = "https://api-demo.airwallex.com"
)

// Name is the spec's channel name.
const Name = "airwallex"

// Config is one Airwallex account.
type Config struct {
	ClientID string
	APIKey   string
	// WebhookSecret is the notification URL's secret from the web app
	// (Settings > Developer > Webhooks).
	WebhookSecret string
	// BaseURL is the API host; ProductionURL when empty.
	BaseURL string
	// Timeout bounds one API call; 15 seconds when zero.
	Timeout time.Duration
	// Transport carries the API calls (http.DefaultTransport when nil): the
	// app gives a traced one.
	Transport http.RoundTripper
	// Tolerance is how far a webhook's x-timestamp may be from Now; five
	// minutes when zero (Airwallex documents none; this is the usual
	// replay window).
	Tolerance time.Duration
	// Now is the clock for token expiry and webhook timestamps; time.Now
	// when nil.
	Now    func() time.Time
	Logger *slog.Logger
}

// String hides the secrets.
func (c Config) String() string {
	return fmt.Sprintf("airwallex.Config{BaseURL: %q, ClientID: %q, APIKey: %s, WebhookSecret: %s}",
		c.baseURL(), c.ClientID, payment.Redact(c.APIKey), payment.Redact(c.WebhookSecret))
}

// LogValue is the Config's slog form, secrets hidden.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", c.baseURL()),
		slog.String("client_id", c.ClientID),
		slog.String("api_key", payment.Redact(c.APIKey)),
		slog.String("webhook_secret", payment.Redact(c.WebhookSecret)),
	)
}

func (c Config) baseURL() string {
	return payment.BaseURL(c.BaseURL, ProductionURL)
}

// Channel is the Airwallex payment channel.
type Channel struct {
	cfg  Config
	http *http.Client
	log  *slog.Logger

	mu      sync.Mutex // held across a login, so one login serves all waiting calls
	token   string
	renewAt time.Time
}

var _ payment.Channel = (*Channel)(nil)

// New makes a Channel; ErrNotConfigured without credentials.
func New(cfg Config) (*Channel, error) {
	if cfg.ClientID == "" || cfg.APIKey == "" || cfg.WebhookSecret == "" {
		return nil, fmt.Errorf("%w: airwallex needs a client id, an API key and a webhook secret", payment.ErrNotConfigured)
	}
	cfg.Timeout = payment.Timeout(cfg.Timeout, payment.DefaultTimeout)
	if cfg.Tolerance == 0 {
		cfg.Tolerance = 5 * time.Minute
	}
	cfg.Now = payment.Clock(cfg.Now)
	return &Channel{
		cfg:  cfg,
		http: payment.HTTPClient(&http.Client{Transport: cfg.Transport}, cfg.Timeout),
		log:  payment.Logger(cfg.Logger).With("channel", Name),
	}, nil
}

// Name is "airwallex".
func (c *Channel) Name() string { return Name }

// Intent is a payment intent as the API writes it (the fields read).
type Intent struct {
	ID              string      `json:"id"`
	RequestID       string      `json:"request_id,omitempty"`
	Amount          json.Number `json:"amount"`
	Currency        string      `json:"currency"`
	MerchantOrderID string      `json:"merchant_order_id"`
	Descriptor      string      `json:"descriptor,omitempty"`
	Status          string      `json:"status"`
	CapturedAmount  json.Number `json:"captured_amount,omitempty"`
	ClientSecret    string      `json:"client_secret,omitempty"`
	ReturnURL       string      `json:"return_url,omitempty"`
	CreatedAt       string      `json:"created_at,omitempty"`
	UpdatedAt       string      `json:"updated_at,omitempty"`
}

// Refund is a refund as the API writes it (the fields read).
type Refund struct {
	ID              string            `json:"id"`
	RequestID       string            `json:"request_id,omitempty"`
	PaymentIntentID string            `json:"payment_intent_id"`
	Amount          json.Number       `json:"amount"`
	Currency        string            `json:"currency"`
	Reason          string            `json:"reason,omitempty"`
	Status          string            `json:"status"`
	Metadata        map[string]string `json:"metadata,omitempty"`
	CreatedAt       string            `json:"created_at,omitempty"`
}

// Payment intent and refund statuses.
const (
	StatusRequiresPaymentMethod  = "REQUIRES_PAYMENT_METHOD"
	StatusRequiresCustomerAction = "REQUIRES_CUSTOMER_ACTION"
	StatusRequiresCapture        = "REQUIRES_CAPTURE"
	StatusSucceeded              = "SUCCEEDED"
	StatusCancelled              = "CANCELLED"
	StatusExpired                = "EXPIRED"

	RefundReceived = "RECEIVED"
	RefundAccepted = "ACCEPTED"
	RefundSettled  = "SETTLED"
	RefundFailed   = "FAILED"
)

// APIError is Airwallex's error body: {"code", "message", "source"}.
type APIError struct {
	HTTPStatus int    `json:"-"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Source     string `json:"source,omitempty"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("airwallex: HTTP %d %s: %s", e.HTTPStatus, e.Code, e.Message)
}

// Create creates a payment intent with the key as request_id (Airwallex's
// idempotency key) and merchant_order_id, so a retry answers the intent
// already created. Airwallex sends webhooks to the URL configured in its
// web app, not to c.NotifyURL.
func (c *Channel) Create(ctx context.Context, req payment.Create) (payment.Pending, error) {
	if req.Key == "" || req.Amount <= 0 {
		return payment.Pending{}, fmt.Errorf("airwallex create %q: needs a key and a positive amount", req.Key)
	}
	amount, err := Major(req.Amount, req.Currency)
	if err != nil {
		return payment.Pending{}, fmt.Errorf("airwallex create %s: %w", req.Key, err)
	}
	body := map[string]any{
		"request_id":        req.Key,
		"amount":            amount,
		"currency":          strings.ToUpper(req.Currency),
		"merchant_order_id": req.Key,
		"descriptor":        descriptor(req.Subject),
	}
	if req.ReturnURL != "" {
		body["return_url"] = req.ReturnURL
	}
	var in Intent
	if err := c.call(ctx, http.MethodPost, "/api/v1/pa/payment_intents/create", body, &in); err != nil {
		return payment.Pending{}, fmt.Errorf("airwallex create %s: %w", req.Key, err)
	}
	return payment.Pending{Reference: in.ID, ClientSecret: in.ClientSecret, ExpiresAt: req.ExpiresAt}, nil
}

// descriptor is what the payer's statement shows: Airwallex takes at most
// 32 characters.
func descriptor(s string) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) > 32 {
		r = r[:32]
	}
	return string(r)
}

// Status lists the intents of the key (merchant_order_id) and says what
// became of it.
func (c *Channel) Status(ctx context.Context, key string) (payment.Status, error) {
	in, err := c.find(ctx, key)
	if err != nil {
		return payment.Status{}, err
	}
	return intentStatus(in)
}

// Close cancels the key's intent unless it is paid (ErrAlreadyPaid); one
// already cancelled or expired, or none at all, is no error.
func (c *Channel) Close(ctx context.Context, key string) error {
	in, err := c.find(ctx, key)
	if errors.Is(err, payment.ErrUnknownPayment) {
		return nil
	}
	if err != nil {
		return err
	}
	switch in.Status {
	case StatusSucceeded:
		return fmt.Errorf("airwallex close %s: %w", key, payment.ErrAlreadyPaid)
	case StatusCancelled, StatusExpired:
		return nil
	}
	body := map[string]any{"request_id": "cancel-" + key, "cancellation_reason": "payment deadline passed or order cancelled"}
	err = c.call(ctx, http.MethodPost, "/api/v1/pa/payment_intents/"+url.PathEscape(in.ID)+"/cancel", body, &in)
	var ae *APIError
	if errors.As(err, &ae) && ae.HTTPStatus == http.StatusBadRequest {
		// The payer may have finished between the lookup and the cancel:
		// what the intent is now decides.
		now, ferr := c.find(ctx, key)
		if ferr == nil {
			switch now.Status {
			case StatusSucceeded:
				return fmt.Errorf("airwallex close %s: %w", key, payment.ErrAlreadyPaid)
			case StatusCancelled, StatusExpired:
				return nil
			}
		}
	}
	if err != nil {
		return fmt.Errorf("airwallex close %s: %w", key, err)
	}
	return nil
}

// Refund refunds r.Amount of the key's paid intent with r.RefundKey as
// request_id. The refund's metadata carries what a refund webhook does
// not say: the key (it names only the intent id), the payment's amount,
// and whether this refund gives all of it back. Partial refunds that add
// up to the whole are not told apart from one that does not: the intent
// stays SUCCEEDED at Airwallex, and Voyage keeps the refunded sum.
func (c *Channel) Refund(ctx context.Context, r payment.Refund) (payment.RefundResult, error) {
	if r.RefundKey == "" || r.Amount <= 0 {
		return payment.RefundResult{}, fmt.Errorf("airwallex refund %s: needs a refund key and a positive amount", r.Key)
	}
	in, err := c.find(ctx, r.Key)
	if err != nil {
		return payment.RefundResult{}, err
	}
	if r.Currency != "" && !strings.EqualFold(r.Currency, in.Currency) {
		return payment.RefundResult{}, fmt.Errorf("airwallex refund %s: currency %s, the payment is in %s", r.Key, r.Currency, in.Currency)
	}
	amount, err := Major(r.Amount, in.Currency)
	if err != nil {
		return payment.RefundResult{}, fmt.Errorf("airwallex refund %s: %w", r.Key, err)
	}
	total, err := Minor(in.Amount, in.Currency)
	if err != nil {
		return payment.RefundResult{}, fmt.Errorf("airwallex refund %s: %w", r.Key, err)
	}
	body := map[string]any{
		"request_id":        r.RefundKey,
		"payment_intent_id": in.ID,
		"amount":            amount,
		"metadata": map[string]string{
			metaKey:   r.Key,
			metaTotal: fmt.Sprint(total),
			metaFull:  fmt.Sprint(r.Amount >= total),
		},
	}
	if r.Reason != "" {
		body["reason"] = input.Clip(r.Reason, 128)
	}
	var re Refund
	if err := c.call(ctx, http.MethodPost, "/api/v1/pa/refunds/create", body, &re); err != nil {
		return payment.RefundResult{}, fmt.Errorf("airwallex refund %s: %w", r.Key, err)
	}
	if re.Status == RefundFailed {
		return payment.RefundResult{}, fmt.Errorf("airwallex refund %s: %w: refund %s failed", r.Key, payment.ErrDeclined, re.ID)
	}
	return payment.RefundResult{Reference: re.ID, Done: re.Status == RefundSettled}, nil
}

// Refund metadata keys.
const (
	metaKey   = "merchant_order_id"
	metaTotal = "voyage_payment_amount"
	metaFull  = "voyage_full_refund"
)

// find answers the key's intent: the paid one should the key have several.
func (c *Channel) find(ctx context.Context, key string) (Intent, error) {
	if key == "" {
		return Intent{}, fmt.Errorf("airwallex status: %w: empty key", payment.ErrUnknownPayment)
	}
	var list struct {
		HasMore bool     `json:"has_more"`
		Items   []Intent `json:"items"`
	}
	q := url.Values{"merchant_order_id": {key}}
	if err := c.call(ctx, http.MethodGet, "/api/v1/pa/payment_intents?"+q.Encode(), nil, &list); err != nil {
		return Intent{}, fmt.Errorf("airwallex status %s: %w", key, err)
	}
	var found *Intent
	for i := range list.Items {
		in := &list.Items[i]
		if in.MerchantOrderID != key {
			continue
		}
		if found == nil || in.Status == StatusSucceeded {
			found = in
		}
	}
	if found == nil {
		return Intent{}, fmt.Errorf("airwallex status %s: %w", key, payment.ErrUnknownPayment)
	}
	return *found, nil
}

// intentStatus maps an intent to Voyage's states.
func intentStatus(in Intent) (payment.Status, error) {
	amount, err := Minor(in.Amount, in.Currency)
	if err != nil {
		return payment.Status{}, fmt.Errorf("airwallex intent %s: %w", in.ID, err)
	}
	st := payment.Status{
		Key: in.MerchantOrderID, Reference: in.ID, State: payment.StatePending,
		Amount: amount, Currency: strings.ToUpper(in.Currency),
	}
	switch in.Status {
	case StatusSucceeded:
		st.State = payment.StatePaid
		if captured, err := Minor(in.CapturedAmount, in.Currency); err == nil && captured > 0 {
			st.Amount = captured
		}
		st.PaidAt = parseTime(in.UpdatedAt)
	case StatusCancelled, StatusExpired:
		st.State = payment.StateClosed
	}
	return st, nil
}

// parseTime reads Airwallex's "2023-01-13T07:32:05+0000"; zero when absent.
func parseTime(s string) time.Time {
	for _, layout := range []string{"2006-01-02T15:04:05-0700", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// call makes one API call with the bearer token; a 401 drops the token and
// tries once more with a new one (the token may have been revoked before
// its expiry).
func (c *Channel) call(ctx context.Context, method, path string, in, out any) error {
	for attempt := 0; ; attempt++ {
		token, err := c.bearer(ctx)
		if err != nil {
			return err
		}
		err = c.do(ctx, method, path, in, out, map[string]string{"Authorization": "Bearer " + token})
		var ae *APIError
		if attempt == 0 && errors.As(err, &ae) && ae.HTTPStatus == http.StatusUnauthorized {
			c.dropToken(token)
			continue
		}
		return err
	}
}

// bearer answers the cached token, logging in again shortly before it
// expires.
func (c *Channel) bearer(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && c.cfg.Now().Before(c.renewAt) {
		return c.token, nil
	}
	var login struct {
		Token     string `json:"token"`
		ExpiresAt string `json:"expires_at"`
	}
	err := c.do(ctx, http.MethodPost, "/api/v1/authentication/login", nil, &login,
		map[string]string{"x-client-id": c.cfg.ClientID, "x-api-key": c.cfg.APIKey})
	if err != nil {
		return "", fmt.Errorf("airwallex login: %w", err)
	}
	if login.Token == "" {
		return "", fmt.Errorf("%w: airwallex login answered no token", payment.ErrPaymentTimeout)
	}
	expires := parseTime(login.ExpiresAt)
	if expires.IsZero() {
		// The documented lifetime: 30 minutes.
		expires = c.cfg.Now().Add(30 * time.Minute)
	}
	c.token, c.renewAt = login.Token, expires.Add(-2*time.Minute)
	return c.token, nil
}

func (c *Channel) dropToken(token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token == token {
		c.token = ""
	}
}

// do sends one request and reads a 2xx body into out. A transport error,
// 5xx or 429 is ErrPaymentTimeout; another answer an *APIError (a 404 too:
// Airwallex answers it for an endpoint that does not exist, so it says the
// base URL is wrong rather than that a payment is unknown).
func (c *Channel) do(ctx context.Context, method, path string, in, out any, headers map[string]string) error {
	var body io.Reader
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.baseURL()+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, raw, err := payment.Exchange(c.http, req, 1<<20)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, pathOnly(path), err)
	}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%s %s: unreadable answer: %w", method, pathOnly(path), err)
		}
		return nil
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return fmt.Errorf("%s %s: refused a redirect (HTTP %d)", method, pathOnly(path), resp.StatusCode)
	}
	ae := &APIError{HTTPStatus: resp.StatusCode}
	if json.Unmarshal(raw, ae) != nil || ae.Code == "" {
		ae.Code, ae.Message = "http_"+fmt.Sprint(resp.StatusCode), input.Clip(string(raw), 200)
	}
	switch {
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s %s: %w", payment.ErrPaymentTimeout, method, pathOnly(path), ae)
	}
	return fmt.Errorf("%s %s: %w", method, pathOnly(path), ae)
}

// pathOnly keeps the query (a merchant order number) out of error texts
// that are logged.
func pathOnly(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		return p[:i]
	}
	return p
}
