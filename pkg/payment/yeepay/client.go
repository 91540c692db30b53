package yeepay

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/rsakey"
	"github.com/voyage/voyage/pkg/payment/yeepay/internal/yop"
)

// API paths (signed as they are, without the gateway's /yop-center).
const (
	pathTradeOrder = "/rest/v1.0/trade/order"
	pathPrePay     = "/rest/v1.0/aggpay/pre-pay"
	pathQuery      = "/rest/v1.0/trade/order/query"
	pathClose      = "/rest/v1.0/trade/order/close"
	pathRefund     = "/rest/v1.0/trade/refund"
)

// Answer codes. Trade APIs answer result.code OPR00000 when they did what
// was asked; the aggregate pre-pay answers 00000.
const (
	codeOK       = "OPR00000"
	codePrePayOK = "00000"
	// codeNoSuchOrder is what the fake answers for an order it does not
	// know. The order query page listing Yeepay's own code was not among
	// the documents read, so a "does not exist" (不存在) message counts too.
	codeNoSuchOrder = "OPR14004"
	// gatewayRetryable is the platform's "service unavailable, retry"
	// (平台错误码说明: 40020 sys.service.retryable).
	gatewayRetryable = "40020"
)

// beijing is the zone of Yeepay's dates ("2006-01-02 15:04:05"), fixed so
// the package needs no time zone database.
var beijing = time.FixedZone("CST", 8*3600)

const dateLayout = "2006-01-02 15:04:05"

// maxAnswer bounds an answer read from the gateway.
const maxAnswer = 1 << 20

// Client calls Yeepay's open platform for one application.
type Client struct {
	cfg      Config
	key      *rsa.PrivateKey
	yeepay   *rsa.PublicKey
	http     *http.Client
	endpoint string
	cashier  string
	log      *slog.Logger
	now      func() time.Time
}

// NewClient checks cfg and reads its keys.
func NewClient(cfg Config) (*Client, error) {
	if cfg.AppKey == "" || cfg.ParentMerchantNo == "" || cfg.MerchantNo == "" {
		return nil, fmt.Errorf("%w: yeepay needs AppKey, ParentMerchantNo and MerchantNo", payment.ErrNotConfigured)
	}
	key, pub, err := rsakey.ParsePair(cfg.PrivateKeyPEM, cfg.YeepayPublicKeyPEM)
	if err != nil {
		return nil, fmt.Errorf("%w: yeepay: %w", payment.ErrNotConfigured, err)
	}
	c := &Client{cfg: cfg, key: key, yeepay: pub, endpoint: payment.BaseURL(cfg.Endpoint, ProductionURL), cashier: CashierURL,
		http: payment.HTTPClient(cfg.HTTPClient, payment.Timeout(cfg.Timeout, payment.DefaultTimeout)),
		log:  payment.Logger(cfg.Logger), now: payment.Clock(cfg.Now)}
	if cfg.CashierURL != "" {
		c.cashier = cfg.CashierURL
	}
	return c, nil
}

// APIError is the gateway's refusal of a request (HTTP 4xx with the
// platform's error JSON: code 40047 isv.authentication.digest.verify-failure
// and the like).
type APIError struct {
	HTTPStatus int
	RequestID  string `json:"requestId"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	SubCode    string `json:"subCode"`
	SubMessage string `json:"subMessage"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("yeepay gateway %d: %s %s (%s %s)", e.HTTPStatus, e.Code, e.Message, e.SubCode, e.SubMessage)
}

// ResultError is a business answer other than success (result.code).
type ResultError struct {
	Code    string
	Message string
}

func (e *ResultError) Error() string { return "yeepay: " + e.Code + " " + e.Message }

// noSuchOrder says whether err is Yeepay not knowing the order.
func noSuchOrder(err error) bool {
	var re *ResultError
	return errors.As(err, &re) && (re.Code == codeNoSuchOrder || strings.Contains(re.Message, "不存在"))
}

// call signs and sends one request and reads the `result` of its verified
// answer into out.
func (c *Client) call(ctx context.Context, method, path string, params url.Values, out any) error {
	for k, vs := range params {
		if len(vs) == 0 || vs[0] == "" {
			delete(params, k)
		}
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return fmt.Errorf("yeepay %s: request id: %w", path, err)
	}
	requestID := hex.EncodeToString(id)
	sha := yop.ContentSHA256(method, params)
	auth := yop.AuthString(c.cfg.AppKey, c.now())
	sig, err := yop.Sign(c.key, yop.CanonicalRequest(auth, method, path, params, c.cfg.AppKey, sha, requestID))
	if err != nil {
		return fmt.Errorf("yeepay %s: %w", path, err)
	}
	target, body := c.endpoint+path, io.Reader(nil)
	if method == http.MethodGet {
		target += "?" + yop.HTTPEncode(params)
	} else {
		body = strings.NewReader(yop.HTTPEncode(params))
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return fmt.Errorf("yeepay %s: %w", path, err)
	}
	req.Header.Set("Authorization", yop.Authorization(auth, sig))
	req.Header.Set(yop.HeaderAppKey, c.cfg.AppKey)
	req.Header.Set(yop.HeaderContentSHA256, sha)
	req.Header.Set(yop.HeaderRequestID, requestID)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")
	// Without an SDK version the gateway may answer in its older format
	// (请求签名协议: SDK 标准请求头).
	req.Header.Set("x-yop-sdk-langs", "go")
	req.Header.Set("x-yop-sdk-version", "4.0.0")

	resp, raw, err := payment.Exchange(c.http, req, maxAnswer)
	if err != nil {
		return fmt.Errorf("yeepay %s: %w", path, err)
	}
	c.log.DebugContext(ctx, "yeepay call", "method", method, "path", path, "request_id", requestID, "status", resp.StatusCode)
	switch {
	case resp.StatusCode >= 500:
		return fmt.Errorf("%w: yeepay %s: HTTP %d", payment.ErrPaymentTimeout, path, resp.StatusCode)
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return fmt.Errorf("yeepay %s: HTTP %d redirect to %q not followed", path, resp.StatusCode, resp.Header.Get("Location"))
	case resp.StatusCode >= 400 || resp.StatusCode == http.StatusNoContent:
		ae := &APIError{HTTPStatus: resp.StatusCode}
		if err := json.Unmarshal(raw, ae); err != nil || ae.Code == "" {
			return fmt.Errorf("yeepay %s: HTTP %d: %.200s", path, resp.StatusCode, raw)
		}
		if ae.Code == gatewayRetryable {
			return fmt.Errorf("%w: yeepay %s: %w", payment.ErrPaymentTimeout, path, ae)
		}
		return fmt.Errorf("yeepay %s: %w", path, ae)
	}
	// An unsigned success could come from anyone between us and Yeepay.
	sign := resp.Header.Get(yop.HeaderSign)
	if sign == "" {
		return fmt.Errorf("yeepay %s: answer has no %s", path, yop.HeaderSign)
	}
	if err := yop.Verify(c.yeepay, yop.AnswerText(raw), sign); err != nil {
		return fmt.Errorf("yeepay %s: answer: %w", path, err)
	}
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || len(env.Result) == 0 {
		return fmt.Errorf("yeepay %s: answer is not {\"result\":…}: %.200s", path, raw)
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		return fmt.Errorf("yeepay %s: result: %w", path, err)
	}
	return nil
}

// Yuan writes fen as Yeepay's yuan ("12.34").
func Yuan(fen int64) string {
	sign := ""
	if fen < 0 {
		sign, fen = "-", -fen
	}
	return fmt.Sprintf("%s%d.%02d", sign, fen/100, fen%100)
}

// Fen reads Yeepay's yuan ("12.34", "12.3", "12") as fen; more than two
// decimals is an error, not a rounding.
func Fen(yuan string) (int64, error) {
	s := strings.TrimSpace(yuan)
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") {
		return 0, fmt.Errorf("yeepay: amount %q is not yuan", yuan)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1e15 {
		return 0, fmt.Errorf("yeepay: amount %q is not yuan", yuan)
	}
	f := int64(0)
	if frac != "" {
		for len(frac) < 2 {
			frac += "0"
		}
		if f, err = strconv.ParseInt(frac, 10, 64); err != nil || frac[0] == '-' || frac[0] == '+' {
			return 0, fmt.Errorf("yeepay: amount %q is not yuan", yuan)
		}
	}
	return w*100 + f, nil
}

// Order is a trade order (交易下单, POST /rest/v1.0/trade/order).
type Order struct {
	OrderID     string
	Amount      int64 // fen
	GoodsName   string
	NotifyURL   string
	RedirectURL string
	ExpiresAt   time.Time
}

// OrderResult is Yeepay's answer to a trade order or an aggregate pre-pay.
type OrderResult struct {
	Token         string
	UniqueOrderNo string
	// PrePayTn is the aggregate pre-pay's payment text (the QR code URL of
	// a USER_SCAN wallet payment).
	PrePayTn string
}

type orderAnswer struct {
	Code          string `json:"code"`
	Message       string `json:"message"`
	OrderID       string `json:"orderId"`
	Token         string `json:"token"`
	UniqueOrderNo string `json:"uniqueOrderNo"`
	PrePayTn      string `json:"prePayTn"`
}

func (c *Client) merchant() url.Values {
	return url.Values{"parentMerchantNo": {c.cfg.ParentMerchantNo}, "merchantNo": {c.cfg.MerchantNo}}
}

// orderParams are the parameters that describe o, the same in the trade
// order and in the pre-pay that may create it.
func (c *Client) orderParams(o Order) url.Values {
	p := c.merchant()
	p.Set("orderId", o.OrderID)
	p.Set("orderAmount", Yuan(o.Amount))
	p.Set("goodsName", o.GoodsName)
	p.Set("notifyUrl", o.NotifyURL)
	p.Set("redirectUrl", o.RedirectURL)
	if !o.ExpiresAt.IsZero() {
		p.Set("expiredTime", o.ExpiresAt.In(beijing).Format(dateLayout))
	}
	return p
}

// TradeOrder creates the order whose token pays it at the cashier or the
// aggregate pre-pay.
func (c *Client) TradeOrder(ctx context.Context, o Order) (OrderResult, error) {
	p := c.orderParams(o)
	var a orderAnswer
	if err := c.call(ctx, http.MethodPost, pathTradeOrder, p, &a); err != nil {
		return OrderResult{}, err
	}
	if a.Code != codeOK {
		return OrderResult{}, fmt.Errorf("yeepay trade order %s: %w", o.OrderID, &ResultError{a.Code, a.Message})
	}
	return OrderResult{Token: a.Token, UniqueOrderNo: a.UniqueOrderNo}, nil
}

// Wallet channels of the aggregate pre-pay.
const (
	WalletAlipay = "ALIPAY"
	WalletWechat = "WECHAT"
)

// PrePay asks the aggregate pre-pay (聚合支付统一下单) for a wallet QR code
// (payWay USER_SCAN, scene ONLINE: the payer scans the code on a PC page)
// for the order of token.
func (c *Client) PrePay(ctx context.Context, o Order, token, wallet string) (OrderResult, error) {
	p := c.orderParams(o)
	p.Set("token", token)
	p.Set("payWay", "USER_SCAN")
	p.Set("channel", wallet)
	p.Set("scene", "ONLINE")
	var a orderAnswer
	if err := c.call(ctx, http.MethodPost, pathPrePay, p, &a); err != nil {
		return OrderResult{}, err
	}
	if a.Code != codePrePayOK && a.Code != codeOK {
		return OrderResult{}, fmt.Errorf("yeepay pre-pay %s: %w", o.OrderID, &ResultError{a.Code, a.Message})
	}
	if a.PrePayTn == "" {
		return OrderResult{}, fmt.Errorf("yeepay pre-pay %s: answer has no prePayTn", o.OrderID)
	}
	return OrderResult{Token: token, UniqueOrderNo: a.UniqueOrderNo, PrePayTn: a.PrePayTn}, nil
}

// Card types of the standard cashier.
const (
	CardCredit = "CREDIT"
	CardDebit  = "DEBIT"
)

// CashierPage is the signed URL of Yeepay's standard cashier for the order
// of token, limited to cardType: the parameters sorted and encoded once,
// signed as a request is, "?sign=…&" before them (the cashier signature of
// Yeepay's SDKs, e.g. @yeepay/yop-typescript-sdk CashierSupport).
func (c *Client) CashierPage(token, cardType, userNo string) (string, error) {
	p := url.Values{
		"appKey":        {c.cfg.AppKey},
		"merchantNo":    {c.cfg.ParentMerchantNo},
		"token":         {token},
		"timestamp":     {strconv.FormatInt(c.now().Unix(), 10)},
		"directPayType": {""},
		"cardType":      {cardType},
		"userNo":        {userNo},
		"userType":      {"USER_ID"},
	}
	query := yop.CanonicalParams(p)
	sig, err := yop.Sign(c.key, query)
	if err != nil {
		return "", fmt.Errorf("yeepay cashier: %w", err)
	}
	return c.cashier + "?sign=" + sig + "&" + query, nil
}

// OrderStatus is the order query's answer (查询订单).
type OrderStatus struct {
	OrderID       string
	UniqueOrderNo string
	Token         string
	// Status is PROCESSING, SUCCESS, CLOSE, TIME_OUT, FAIL or REPAY.
	Status         string
	OrderAmount    int64
	PayAmount      int64
	MerchantFee    int64
	PaySuccessDate time.Time
}

// orderReport is what Yeepay says of an order, in the order query's answer
// and in a payment result notification's plaintext (trade.pay-result,
// fields as the platform's notify examples show them) alike, so both are
// read by statusAnswer.status.
type orderReport struct {
	ParentMerchantNo string          `json:"parentMerchantNo"`
	MerchantNo       string          `json:"merchantNo"`
	OrderID          string          `json:"orderId"`
	UniqueOrderNo    string          `json:"uniqueOrderNo"`
	Status           string          `json:"status"`
	OrderAmount      payment.Decimal `json:"orderAmount"`
	PayAmount        payment.Decimal `json:"payAmount"`
	MerchantFee      payment.Decimal `json:"merchantFee"`
	PaySuccessDate   string          `json:"paySuccessDate"`
}

// statusAnswer is the order query's answer: its result code and the
// cashier's token around the order's report.
type statusAnswer struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Token   string `json:"token"`
	orderReport
}

func (a statusAnswer) status() (OrderStatus, error) {
	s := OrderStatus{OrderID: a.OrderID, UniqueOrderNo: a.UniqueOrderNo, Token: a.Token, Status: a.Status}
	var err error
	if s.OrderAmount, err = Fen(string(a.OrderAmount)); err != nil {
		return OrderStatus{}, err
	}
	if a.PayAmount != "" {
		if s.PayAmount, err = Fen(string(a.PayAmount)); err != nil {
			return OrderStatus{}, err
		}
	}
	if a.MerchantFee != "" {
		if s.MerchantFee, err = Fen(string(a.MerchantFee)); err != nil {
			return OrderStatus{}, err
		}
	}
	if a.PaySuccessDate != "" {
		if s.PaySuccessDate, err = time.ParseInLocation(dateLayout, a.PaySuccessDate, beijing); err != nil {
			return OrderStatus{}, fmt.Errorf("yeepay: paySuccessDate %q: %w", a.PaySuccessDate, err)
		}
	}
	return s, nil
}

// Query asks what became of the order; ErrUnknownPayment when Yeepay knows
// no such order.
func (c *Client) Query(ctx context.Context, orderID string) (OrderStatus, error) {
	p := c.merchant()
	p.Set("orderId", orderID)
	var a statusAnswer
	if err := c.call(ctx, http.MethodGet, pathQuery, p, &a); err != nil {
		return OrderStatus{}, err
	}
	if a.Code != codeOK {
		err := &ResultError{a.Code, a.Message}
		if noSuchOrder(err) {
			return OrderStatus{}, fmt.Errorf("%w: yeepay order %s: %w", payment.ErrUnknownPayment, orderID, err)
		}
		return OrderStatus{}, fmt.Errorf("yeepay query %s: %w", orderID, err)
	}
	if a.OrderID != orderID || a.MerchantNo != "" && a.MerchantNo != c.cfg.MerchantNo {
		return OrderStatus{}, fmt.Errorf("yeepay query %s: answer is about order %s of merchant %s", orderID, a.OrderID, a.MerchantNo)
	}
	return a.status()
}

// CloseOrder closes an order not paid yet (关闭订单).
func (c *Client) CloseOrder(ctx context.Context, orderID string) error {
	p := c.merchant()
	p.Set("orderId", orderID)
	var a orderAnswer
	if err := c.call(ctx, http.MethodPost, pathClose, p, &a); err != nil {
		return err
	}
	if a.Code != codeOK {
		return fmt.Errorf("yeepay close %s: %w", orderID, &ResultError{a.Code, a.Message})
	}
	return nil
}

// RefundStatus is the refund's answer (申请退款): PROCESSING until the money
// is back, then SUCCESS (or FAILED).
type RefundStatus struct {
	UniqueRefundNo string
	Status         string
	RefundAmount   int64
}

// Refund asks to refund amount fen of the order under refundRequestID; a
// retry with the same refundRequestID refunds once.
func (c *Client) Refund(ctx context.Context, orderID, refundRequestID string, amount int64, description string) (RefundStatus, error) {
	p := c.merchant()
	p.Set("orderId", orderID)
	p.Set("refundRequestId", refundRequestID)
	p.Set("refundAmount", Yuan(amount))
	p.Set("description", description)
	var a struct {
		Code           string          `json:"code"`
		Message        string          `json:"message"`
		UniqueRefundNo string          `json:"uniqueRefundNo"`
		Status         string          `json:"status"`
		RefundAmount   payment.Decimal `json:"refundAmount"`
	}
	if err := c.call(ctx, http.MethodPost, pathRefund, p, &a); err != nil {
		return RefundStatus{}, err
	}
	if a.Code != codeOK {
		err := &ResultError{a.Code, a.Message}
		if noSuchOrder(err) {
			return RefundStatus{}, fmt.Errorf("%w: yeepay refund of %s: %w", payment.ErrUnknownPayment, orderID, err)
		}
		return RefundStatus{}, fmt.Errorf("%w: yeepay refund %s of %s: %w", payment.ErrDeclined, refundRequestID, orderID, err)
	}
	r := RefundStatus{UniqueRefundNo: a.UniqueRefundNo, Status: a.Status}
	if a.RefundAmount != "" {
		n, err := Fen(string(a.RefundAmount))
		if err != nil {
			return RefundStatus{}, fmt.Errorf("yeepay refund %s: %w", refundRequestID, err)
		}
		r.RefundAmount = n
	}
	return r, nil
}
