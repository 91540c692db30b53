package wechatpay

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment"
)

// AuthScheme is the Authorization scheme of API v3 requests (signature
// generation guide, "Signature Generation",
// https://pay.weixin.qq.com/wiki/doc/api_external/en/wechatpay/wechatpay4_0.shtml).
const AuthScheme = "WECHATPAY2-SHA256-RSA2048"

// maxAnswer bounds an answer read: WeChat Pay's are a few kilobytes.
const maxAnswer = 1 << 20

// ErrBadAnswer: a 2xx answer whose signature, serial or timestamp does not
// verify. The documentation says to treat it as forged ("没有携带签名的成功应答
// 应认为是伪造或被篡改的应答", page 签名, wechatpay3_3.shtml); the call's outcome
// is unknown and Status will tell.
var ErrBadAnswer = errors.New("wechatpay: answer does not verify")

// APIError is WeChat Pay's error answer: the HTTP status and the body
// {"code": "ORDER_NOT_EXIST", "message": "订单不存在"}.
type APIError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("wechat pay answered %d %s: %s", e.Status, e.Code, e.Message)
}

// Client is a WeChat Pay API v3 client for one merchant.
type Client struct {
	cfg  Config
	keys keys
	base string
	http *http.Client
	now  func() time.Time
	log  *slog.Logger
}

// NewClient checks cfg and parses its keys.
func NewClient(cfg Config) (*Client, error) {
	k, err := cfg.parse()
	if err != nil {
		return nil, err
	}
	base := cfg.endpoint()
	if _, err := url.Parse(base); err != nil {
		return nil, fmt.Errorf("wechatpay: endpoint: %w", err)
	}
	return &Client{
		cfg:  cfg,
		keys: k,
		base: base,
		http: payment.HTTPClient(cfg.HTTPClient, payment.Timeout(cfg.Timeout, DefaultTimeout)),
		now:  payment.Clock(cfg.Now),
		log:  payment.Logger(cfg.Logger),
	}, nil
}

// Amount is an order's amount in fen.
type Amount struct {
	Total    int64  `json:"total"`
	Currency string `json:"currency,omitempty"`
}

// NativeOrder is the body of POST /v3/pay/transactions/native (Native下单,
// https://pay.weixin.qq.com/doc/v3/merchant/4012525095).
type NativeOrder struct {
	AppID       string `json:"appid"`
	MchID       string `json:"mchid"`
	Description string `json:"description"`
	OutTradeNo  string `json:"out_trade_no"`
	// TimeExpire is RFC 3339 with a numeric zone
	// (2018-06-08T10:34:56+08:00).
	TimeExpire string `json:"time_expire,omitempty"`
	NotifyURL  string `json:"notify_url"`
	Amount     Amount `json:"amount"`
}

// TransactionAmount is a transaction's amount as queried or notified.
type TransactionAmount struct {
	Total         int64  `json:"total"`
	PayerTotal    int64  `json:"payer_total"`
	Currency      string `json:"currency"`
	PayerCurrency string `json:"payer_currency"`
}

// Transaction is a payment as WeChat Pay describes it, queried (商户订单号查询订单,
// https://pay.weixin.qq.com/doc/v3/merchant/4012556352) or decrypted
// from a notification.
type Transaction struct {
	AppID          string            `json:"appid"`
	MchID          string            `json:"mchid"`
	OutTradeNo     string            `json:"out_trade_no"`
	TransactionID  string            `json:"transaction_id"`
	TradeType      string            `json:"trade_type"`
	TradeState     string            `json:"trade_state"`
	TradeStateDesc string            `json:"trade_state_desc"`
	BankType       string            `json:"bank_type"`
	Attach         string            `json:"attach"`
	SuccessTime    string            `json:"success_time"`
	Payer          *Payer            `json:"payer,omitempty"`
	Amount         TransactionAmount `json:"amount"`
}

// Payer is who paid.
type Payer struct {
	OpenID string `json:"openid"`
}

// Trade states (trade_state).
const (
	TradeSuccess    = "SUCCESS"
	TradeRefund     = "REFUND"
	TradeNotPay     = "NOTPAY"
	TradeClosed     = "CLOSED"
	TradeRevoked    = "REVOKED"
	TradeUserPaying = "USERPAYING"
	TradePayError   = "PAYERROR"
)

// RefundRequest is the body of POST /v3/refund/domestic/refunds (退款申请;
// the refund guide https://pay.weixin.qq.com/doc/v3/merchant/4013071031
// lists the statuses, 查询单笔退款
// https://pay.weixin.qq.com/doc/v3/merchant/4012556562 the refund's shape).
type RefundRequest struct {
	OutTradeNo  string       `json:"out_trade_no"`
	OutRefundNo string       `json:"out_refund_no"`
	Reason      string       `json:"reason,omitempty"`
	NotifyURL   string       `json:"notify_url,omitempty"`
	Amount      RefundAmount `json:"amount"`
}

// RefundAmount is a refund's amount in fen.
type RefundAmount struct {
	Refund   int64  `json:"refund"`
	Total    int64  `json:"total"`
	Currency string `json:"currency"`
}

// RefundResponse is what the refund call answers.
type RefundResponse struct {
	RefundID    string `json:"refund_id"`
	OutRefundNo string `json:"out_refund_no"`
	OutTradeNo  string `json:"out_trade_no"`
	Status      string `json:"status"` // SUCCESS, PROCESSING, CLOSED, ABNORMAL
	SuccessTime string `json:"success_time"`
	Amount      struct {
		Total    int64  `json:"total"`
		Refund   int64  `json:"refund"`
		Currency string `json:"currency"`
	} `json:"amount"`
}

// NativePrepay creates a Native payment and answers its code_url, the text
// of the QR code the payer scans.
func (c *Client) NativePrepay(ctx context.Context, o NativeOrder) (string, error) {
	if o.AppID == "" {
		o.AppID = c.cfg.AppID
	}
	if o.MchID == "" {
		o.MchID = c.cfg.MchID
	}
	var out struct {
		CodeURL string `json:"code_url"`
	}
	if err := c.call(ctx, "native prepay", http.MethodPost, "/v3/pay/transactions/native", o, &out); err != nil {
		return "", err
	}
	if out.CodeURL == "" {
		return "", fmt.Errorf("wechat-pay native prepay: %w: no code_url", ErrBadAnswer)
	}
	return out.CodeURL, nil
}

// QueryByOutTradeNo asks for the transaction under the merchant order
// number.
func (c *Client) QueryByOutTradeNo(ctx context.Context, outTradeNo string) (Transaction, error) {
	var tx Transaction
	path := "/v3/pay/transactions/out-trade-no/" + url.PathEscape(outTradeNo) + "?mchid=" + url.QueryEscape(c.cfg.MchID)
	err := c.call(ctx, "query", http.MethodGet, path, nil, &tx)
	return tx, err
}

// CloseOrder closes an unpaid order (204 No Content).
func (c *Client) CloseOrder(ctx context.Context, outTradeNo string) error {
	body := struct {
		MchID string `json:"mchid"`
	}{c.cfg.MchID}
	return c.call(ctx, "close", http.MethodPost, "/v3/pay/transactions/out-trade-no/"+url.PathEscape(outTradeNo)+"/close", body, nil)
}

// CreateRefund refunds part or all of a paid order.
func (c *Client) CreateRefund(ctx context.Context, r RefundRequest) (RefundResponse, error) {
	var out RefundResponse
	err := c.call(ctx, "refund", http.MethodPost, "/v3/refund/domestic/refunds", r, &out)
	return out, err
}

// QueryRefund asks for a refund by its merchant refund number (查询单笔退款,
// GET /v3/refund/domestic/refunds/{out_refund_no}): how a refund answered
// PROCESSING ends.
func (c *Client) QueryRefund(ctx context.Context, outRefundNo string) (RefundResponse, error) {
	var out RefundResponse
	err := c.call(ctx, "refund query", http.MethodGet, "/v3/refund/domestic/refunds/"+url.PathEscape(outRefundNo), nil, &out)
	return out, err
}

// call makes one signed call and verifies its answer. Transport errors,
// 5xx and 429 wrap payment.ErrPaymentTimeout (the outcome is unknown); other
// error answers are *APIError.
func (c *Client) call(ctx context.Context, op, method, pathQuery string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("wechat-pay %s: %w", op, err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+pathQuery, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("wechat-pay %s: %w", op, err)
	}
	auth, err := c.authorization(method, req.URL.RequestURI(), body)
	if err != nil {
		return fmt.Errorf("wechat-pay %s: sign: %w", op, err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "voyage-wechatpay/1")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := c.now()
	resp, data, err := payment.Exchange(c.http, req, maxAnswer)
	if err != nil {
		c.log.WarnContext(ctx, "wechat-pay call failed", "op", op, "err", err)
		return fmt.Errorf("wechat-pay %s: %w", op, err)
	}
	c.log.DebugContext(ctx, "wechat-pay call", "op", op, "status", resp.StatusCode,
		"request_id", resp.Header.Get("Request-ID"), "took", c.now().Sub(start))
	switch s := resp.StatusCode; {
	case s >= 500 || s == http.StatusTooManyRequests:
		return fmt.Errorf("%w: wechat-pay %s: %w", payment.ErrPaymentTimeout, op, apiError(s, data))
	case s >= 400:
		return fmt.Errorf("wechat-pay %s: %w", op, apiError(s, data))
	case s >= 300:
		return fmt.Errorf("wechat-pay %s: answered %d (redirect to %q), not followed", op, s, resp.Header.Get("Location"))
	case s < 200:
		return fmt.Errorf("wechat-pay %s: answered %d", op, s)
	}
	if err := c.verify(resp.Header, data); err != nil {
		c.log.WarnContext(ctx, "wechat-pay answer does not verify", "op", op, "err", err)
		return fmt.Errorf("wechat-pay %s: %w", op, err)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("wechat-pay %s: %w: %w", op, ErrBadAnswer, err)
		}
	}
	return nil
}

func apiError(status int, body []byte) *APIError {
	e := &APIError{Status: status}
	if json.Unmarshal(body, e) != nil || e.Code == "" {
		e.Code = http.StatusText(status)
		e.Message = strings.TrimSpace(string(body[:min(len(body), 200)]))
	}
	return e
}

// authorization signs one request: SHA256withRSA over
// "METHOD\nURL\ntimestamp\nnonce\nbody\n", URL being the path and query as
// sent (签名生成, 构造签名串).
func (c *Client) authorization(method, uri string, body []byte) (string, error) {
	nonce, err := newNonce()
	if err != nil {
		return "", err
	}
	ts := strconv.FormatInt(c.now().Unix(), 10)
	sig, err := sign(c.keys.merchant, method, uri, ts, nonce, string(body))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(`%s mchid="%s",nonce_str="%s",signature="%s",timestamp="%s",serial_no="%s"`,
		AuthScheme, c.cfg.MchID, nonce, sig, ts, c.cfg.MerchantSerialNo), nil
}

// verify checks a signed answer's or notification's headers against its
// body: "timestamp\nnonce\nbody\n" signed by the WeChat Pay key whose serial
// is Wechatpay-Serial (签名验证, "Signature Verification",
// https://pay.weixin.qq.com/wiki/doc/apiv3/wechatpay/wechatpay4_1.shtml).
func (c *Client) verify(h http.Header, body []byte) error {
	serial, ts, nonce, sig := h.Get("Wechatpay-Serial"), h.Get("Wechatpay-Timestamp"), h.Get("Wechatpay-Nonce"), h.Get("Wechatpay-Signature")
	if serial == "" || ts == "" || nonce == "" || sig == "" {
		return fmt.Errorf("%w: unsigned", ErrBadAnswer)
	}
	if serial != c.cfg.PlatformSerial {
		return fmt.Errorf("%w: signed by key %q, not %q", ErrBadAnswer, serial, c.cfg.PlatformSerial)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: timestamp %q", ErrBadAnswer, ts)
	}
	if skew := c.now().Sub(time.Unix(sec, 0)); skew > MaxSkew || skew < -MaxSkew {
		return fmt.Errorf("%w: timestamp %s off by %s", ErrBadAnswer, ts, skew)
	}
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return fmt.Errorf("%w: signature is not base64", ErrBadAnswer)
	}
	sum := sha256.Sum256([]byte(ts + "\n" + nonce + "\n" + string(body) + "\n"))
	if err := rsa.VerifyPKCS1v15(c.keys.platform, crypto.SHA256, sum[:], raw); err != nil {
		return fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	return nil
}

func sign(key *rsa.PrivateKey, lines ...string) (string, error) {
	var msg strings.Builder
	for _, l := range lines {
		msg.WriteString(l)
		msg.WriteByte('\n')
	}
	sum := sha256.Sum256([]byte(msg.String()))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(sig), nil
}

func newNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return strings.ToUpper(hex.EncodeToString(b[:])), nil
}
