// Package alipay is Voyage's Alipay channel: a client of the Alipay open
// platform's signed gateway (openapi, RSA2) for face-to-face QR payments
// (alipay.trade.precreate, query, close, refund) and the verification of
// Alipay's asynchronous notifications, behind payment.Channel.
package alipay

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/rsakey"
)

// Gateways of the Alipay open platform.
const (
	Production = "https://openapi.alipay.com/gateway.do"
	Sandbox    = "https://openapi-sandbox.dl.alipaydev.com/gateway.do"
)

// Config is a merchant's Alipay application.
type Config struct {
	AppID string
	// PrivateKeyPEM is the application private key the merchant signs
	// with (PKCS#1 or PKCS#8 PEM, or Alipay's bare base64). Secret.
	PrivateKeyPEM string
	// AlipayPublicKeyPEM is Alipay's public key (not the application's)
	// that answers and notifications are verified with.
	AlipayPublicKeyPEM string
	// Endpoint is the gateway URL: Production when empty, Sandbox, or a
	// fake's.
	Endpoint string
	// Timeout bounds one call to the gateway (default 15 seconds).
	Timeout time.Duration
	// Transport carries the calls (default http.DefaultTransport).
	Transport http.RoundTripper
	Logger    *slog.Logger
	// Now is the clock requests are stamped with (default time.Now).
	Now func() time.Time
}

// String is the configuration with its secret left out.
func (c Config) String() string {
	return fmt.Sprintf("alipay.Config{AppID:%q Endpoint:%q PrivateKey:%s AlipayPublicKey:%s}",
		c.AppID, c.endpoint(), payment.Redact(c.PrivateKeyPEM), set(c.AlipayPublicKeyPEM))
}

// LogValue is the configuration as slog writes it, its secret left out.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("app_id", c.AppID),
		slog.String("endpoint", c.endpoint()),
		slog.String("private_key", payment.Redact(c.PrivateKeyPEM)),
		slog.String("alipay_public_key", set(c.AlipayPublicKeyPEM)),
	)
}

// GoString keeps %#v from printing the key.
func (c Config) GoString() string { return c.String() }

func set(s string) string {
	if s == "" {
		return "unset"
	}
	return "set"
}

func (c Config) endpoint() string {
	if c.Endpoint == "" {
		return Production
	}
	return c.Endpoint
}

// Client calls the Alipay gateway: it signs each request with the
// merchant's key and verifies each answer with Alipay's.
type Client struct {
	appID    string
	endpoint string
	key      *rsa.PrivateKey
	alipay   *rsa.PublicKey
	http     *http.Client
	log      *slog.Logger
	now      func() time.Time
}

// NewClient checks cfg and reads its keys; payment.ErrNotConfigured when
// the application or a key is missing.
func NewClient(cfg Config) (*Client, error) {
	if cfg.AppID == "" || cfg.PrivateKeyPEM == "" || cfg.AlipayPublicKeyPEM == "" {
		return nil, fmt.Errorf("%w: alipay needs AppID, PrivateKeyPEM and AlipayPublicKeyPEM", payment.ErrNotConfigured)
	}
	// The keys as Alipay's key tool and console give them: PEM or bare
	// base64, PKCS#1 or PKCS#8.
	key, pub, err := rsakey.ParsePair(cfg.PrivateKeyPEM, cfg.AlipayPublicKeyPEM)
	if err != nil {
		return nil, fmt.Errorf("alipay: %w", err)
	}
	if _, err := url.Parse(cfg.endpoint()); err != nil {
		return nil, fmt.Errorf("alipay: endpoint: %w", err)
	}
	return &Client{
		appID:    cfg.AppID,
		endpoint: cfg.endpoint(),
		key:      key,
		alipay:   pub,
		http:     payment.HTTPClient(&http.Client{Transport: cfg.Transport}, payment.Timeout(cfg.Timeout, payment.DefaultTimeout)),
		log:      payment.Logger(cfg.Logger),
		now:      payment.Clock(cfg.Now),
	}, nil
}

// Error is an answer of Alipay's whose code is not 10000 (success).
type Error struct {
	Method  string
	Code    string // 20000 service unavailable, 40001 missing, 40002 invalid, 40004 business failure…
	Msg     string
	SubCode string // ACQ.TRADE_NOT_EXIST, isv.invalid-signature…
	SubMsg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("alipay %s: %s %s (%s %s)", e.Method, e.Code, e.Msg, e.SubCode, e.SubMsg)
}

// Sub codes the channel acts on (alipay.trade.* "公共错误码" and "业务错误码").
const (
	SubTradeNotExist   = "ACQ.TRADE_NOT_EXIST"
	SubTradeStatus     = "ACQ.TRADE_STATUS_ERROR"
	SubTradeHasSuccess = "ACQ.TRADE_HAS_SUCCESS"
	SubTradeHasClose   = "ACQ.TRADE_HAS_CLOSE"
	SubSystemError     = "ACQ.SYSTEM_ERROR"
)

// ErrBadResponse: an answer that is not Alipay's (unsigned, badly signed,
// not the JSON the gateway writes). It is wrapped with
// payment.ErrPaymentTimeout, since what the call did is unknown.
var ErrBadResponse = errors.New("alipay: answer does not verify")

// maxAnswer bounds what is read of one answer.
const maxAnswer = 1 << 20

// head is the part of every answer that says whether it succeeded.
type head struct {
	Code    string `json:"code"`
	Msg     string `json:"msg"`
	SubCode string `json:"sub_code"`
	SubMsg  string `json:"sub_msg"`
}

// Call calls one gateway method with its business parameters (marshalled
// into biz_content) and decodes the verified answer into out. An answer
// whose code is not 10000 is an *Error, wrapped with
// payment.ErrPaymentTimeout when it says Alipay could not tell (20000,
// ACQ.SYSTEM_ERROR), as is a transport failure, a 5xx or an answer that
// does not verify.
func (c *Client) Call(ctx context.Context, method, notifyURL string, biz, out any) error {
	bizJSON, err := json.Marshal(biz)
	if err != nil {
		return fmt.Errorf("alipay %s: biz_content: %w", method, err)
	}
	params := url.Values{
		"app_id":      {c.appID},
		"method":      {method},
		"format":      {"JSON"},
		"charset":     {"utf-8"},
		"sign_type":   {"RSA2"},
		"timestamp":   {c.now().In(Beijing).Format(TimeLayout)},
		"version":     {"1.0"},
		"biz_content": {string(bizJSON)},
	}
	if notifyURL != "" {
		params.Set("notify_url", notifyURL)
	}
	sign, err := Sign(c.key, []byte(SignContent(params, "sign")))
	if err != nil {
		return err
	}
	params.Set("sign", sign)

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, strings.NewReader(params.Encode()))
	if err != nil {
		return fmt.Errorf("alipay %s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")
	req.Header.Set("Accept", "application/json")
	start := time.Now()
	resp, body, err := payment.Exchange(c.http, req, maxAnswer)
	if err != nil {
		c.log.WarnContext(ctx, "alipay call failed", "method", method, "err", err)
		return fmt.Errorf("alipay %s: %w", method, err)
	}
	c.log.DebugContext(ctx, "alipay call", "method", method, "status", resp.StatusCode, "took", time.Since(start))
	switch {
	case resp.StatusCode >= 500:
		return fmt.Errorf("%w: alipay %s: HTTP %d", payment.ErrPaymentTimeout, method, resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("alipay %s: HTTP %d from the gateway", method, resp.StatusCode)
	}
	node, err := c.verify(method, body)
	if err != nil {
		return fmt.Errorf("%w: alipay %s: %w", payment.ErrPaymentTimeout, method, err)
	}
	var h head
	if err := json.Unmarshal(node, &h); err != nil {
		return fmt.Errorf("%w: alipay %s: %w: %w", payment.ErrPaymentTimeout, method, ErrBadResponse, err)
	}
	if h.Code != "10000" {
		e := &Error{Method: method, Code: h.Code, Msg: h.Msg, SubCode: h.SubCode, SubMsg: h.SubMsg}
		if h.Code == "20000" || strings.HasSuffix(h.SubCode, SubSystemError) || strings.HasPrefix(h.SubCode, "isp.") {
			return fmt.Errorf("%w: %w", payment.ErrPaymentTimeout, e)
		}
		return e
	}
	if out != nil {
		if err := json.Unmarshal(node, out); err != nil {
			return fmt.Errorf("%w: alipay %s: %w: %w", payment.ErrPaymentTimeout, method, ErrBadResponse, err)
		}
	}
	return nil
}

// verify answers the response node of an answer
// ({"alipay_trade_query_response":{…},"sign":"…"}) once its signature, made
// over the node's text exactly as sent, verifies with Alipay's key. A
// gateway-level refusal comes as "error_response" instead, signed alike.
//
// Source: the answer samples of "当面付-英文版" (open.alitrip.com, article
// 104629: {"alipay_trade_precreate_response":{"code":"10000",…},"sign":"…"},
// the refusal 40004 alike): the signed content is the raw JSON text of
// the xxx_response member, which json.RawMessage keeps byte for byte.
func (c *Client) verify(method string, body []byte) (json.RawMessage, error) {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(body), &env); err != nil {
		return nil, fmt.Errorf("%w: not JSON: %w", ErrBadResponse, err)
	}
	node, ok := env[strings.ReplaceAll(method, ".", "_")+"_response"]
	if !ok {
		node, ok = env["error_response"]
	}
	if !ok {
		return nil, fmt.Errorf("%w: no response node", ErrBadResponse)
	}
	var sign string
	if raw, ok := env["sign"]; !ok || json.Unmarshal(raw, &sign) != nil || sign == "" {
		return nil, fmt.Errorf("%w: unsigned", ErrBadResponse)
	}
	if err := Verify(c.alipay, node, sign); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	return node, nil
}

// fen is an amount of Alipay's answers in fen; one the answer leaves out
// is 0.
func fen(a payment.Decimal) (int64, error) {
	if a == "" {
		return 0, nil
	}
	return Fen(string(a))
}
