// Package wechatpaytest is a local fake of WeChat Pay API v3 (Native pay,
// order query and close, domestic refunds, payment notifications), an
// http.Handler for httptest.NewServer or to mount in-process.
//
// It enforces the protocol as the real service does: every request must
// carry a valid WECHATPAY2-SHA256-RSA2048 Authorization from the merchant's
// key (else 401 SIGN_ERROR), every answer and notification is signed with
// the fake's own WeChat Pay key, and notifications carry the transaction
// encrypted with AEAD_AES_256_GCM under the APIv3 key. Tests drive the payer
// (Pay, Decline, Expire), faults (FailNext, Hold) and time (Options.Now,
// Options.Wait), and read what was sent (Notifications).
package wechatpaytest

import (
	"bytes"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/payment"
)

// The merchant the fake knows when Options leave it out. The values are the
// documentation's own examples (mchid 1230000109, appid wxd678efh567hg6787
// on the Native下单 page).
const (
	MchID            = "1230000109"
	AppID            = "wxd678efh567hg6787"
	MerchantSerialNo = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1"
	PlatformSerial   = "PUB_KEY_ID_0112340000000000000000000000000001"
	APIv3Key         = "voyage-fake-apiv3-key-32-bytes!!"
)

// MaxSkew is how far a request's signed timestamp may be from the fake's
// clock.
const MaxSkew = 5 * time.Minute

// resendAfter is the wait before each resend of an unacknowledged
// notification: "通知频率为15s/15s/30s/3m/10m/20m/30m/30m/30m/60m/3h/3h/3h/6h/6h
// - 总计 24h4m" (支付结果通知, pay.weixin.qq.com …/chapter8_7.shtml).
var resendAfter = []time.Duration{
	15 * time.Second, 15 * time.Second, 30 * time.Second, 3 * time.Minute,
	10 * time.Minute, 20 * time.Minute, 30 * time.Minute, 30 * time.Minute,
	30 * time.Minute, time.Hour, 3 * time.Hour, 3 * time.Hour, 3 * time.Hour,
	6 * time.Hour, 6 * time.Hour,
}

// Options configure the fake. Zero values take the constants above and
// TestKeys.
type Options struct {
	MchID, AppID     string
	MerchantSerialNo string
	// MerchantPublicKey verifies the requests' signatures.
	MerchantPublicKey *rsa.PublicKey
	// PlatformKey signs answers and notifications under PlatformSerial.
	PlatformKey    *rsa.PrivateKey
	PlatformSerial string
	APIv3Key       string
	// Now is the fake's clock (signature timestamps, success_time,
	// time_expire); time.Now when nil.
	Now func() time.Time
	// Wait is called with each wait before a resend; time.Sleep when
	// nil. Tests pass a recorder so that no test sleeps.
	Wait func(time.Duration)
	// Client sends the notifications; a 5-second client that follows no
	// redirect when nil.
	Client *http.Client
	// MaxTries is how many times one notification is sent at most: 16 when
	// zero (the first send and the 15 documented resends).
	MaxTries int
	// FeeRate is the fee in parts per 10 000 of the amount: 60 (0.6%) when
	// zero, none when negative.
	FeeRate int64
	// RefundStatus is what a refund answers: "SUCCESS" when empty,
	// "PROCESSING" to exercise a refund still under way.
	RefundStatus string
}

// Server is the fake WeChat Pay.
type Server struct {
	opts Options
	mux  *http.ServeMux

	mu         sync.Mutex
	orders     map[string]*order
	refunds    map[string]*refund
	deliveries []Delivery
	seq        int
	faults     []int
	hold       chan struct{}
}

type order struct {
	appID, mchID, description, outTradeNo, notifyURL string
	total                                            int64
	timeExpire                                       time.Time
	codeURL                                          string
	state, stateDesc                                 string
	transactionID, openID                            string
	successTime                                      time.Time
	refunded                                         int64
	notice                                           *Notice
}

type refund struct {
	id, outRefundNo, outTradeNo, status, reason string
	amount                                      int64
	created                                     time.Time
}

// New makes a fake WeChat Pay.
func New(opts Options) *Server {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&opts.MchID, MchID)
	def(&opts.AppID, AppID)
	def(&opts.MerchantSerialNo, MerchantSerialNo)
	def(&opts.PlatformSerial, PlatformSerial)
	def(&opts.APIv3Key, APIv3Key)
	def(&opts.RefundStatus, "SUCCESS")
	if len(opts.APIv3Key) != 32 {
		panic(fmt.Sprintf("wechatpaytest: APIv3Key has %d bytes, want 32", len(opts.APIv3Key)))
	}
	if opts.MerchantPublicKey == nil {
		opts.MerchantPublicKey = &TestKeys().Merchant.PublicKey
	}
	if opts.PlatformKey == nil {
		opts.PlatformKey = TestKeys().Platform
	}
	opts.Now = payment.Clock(opts.Now)
	if opts.Wait == nil {
		opts.Wait = time.Sleep
	}
	if opts.Client == nil {
		opts.Client = payment.HTTPClient(nil, 5*time.Second)
	}
	if opts.MaxTries <= 0 {
		opts.MaxTries = 1 + len(resendAfter)
	}
	if opts.FeeRate == 0 {
		opts.FeeRate = 60
	}
	s := &Server{opts: opts, orders: map[string]*order{}, refunds: map[string]*refund{}}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("POST /v3/pay/transactions/native", s.native)
	s.mux.HandleFunc("GET /v3/pay/transactions/out-trade-no/{no}", s.query)
	s.mux.HandleFunc("POST /v3/pay/transactions/out-trade-no/{no}/close", s.close)
	s.mux.HandleFunc("POST /v3/refund/domestic/refunds", s.refund)
	s.mux.HandleFunc("GET /v3/refund/domestic/refunds/{no}", s.queryRefund)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, http.StatusNotFound, "NOT_FOUND", "请求的资源不存在")
	})
	return s
}

// PlatformPublicKeyPEM is the fake's WeChat Pay public key, for
// Config.PlatformPublicKeyPEM.
func (s *Server) PlatformPublicKeyPEM() string { return PublicKeyPEM(&s.opts.PlatformKey.PublicKey) }

// PlatformSerial is the id the fake signs under (Wechatpay-Serial).
func (s *Server) PlatformSerial() string { return s.opts.PlatformSerial }

// APIv3Key is the key the fake encrypts notifications with.
func (s *Server) APIv3Key() string { return s.opts.APIv3Key }

// ServeHTTP serves the API: faults first, then the signature check, then
// the route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	hold := s.hold
	var fault int
	if len(s.faults) > 0 {
		fault, s.faults = s.faults[0], s.faults[1:]
	}
	s.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	if fault != 0 {
		s.fail(w, fault, "SYSTEM_ERROR", "系统错误")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		s.fail(w, http.StatusBadRequest, "INVALID_REQUEST", "读取请求失败")
		return
	}
	if err := s.authenticate(r, body); err != nil {
		// 401 SIGN_ERROR, the common error code of every API page (公共错误码).
		s.fail(w, http.StatusUnauthorized, "SIGN_ERROR", "签名错误: "+err.Error())
		return
	}
	if r.Method == http.MethodPost && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		s.fail(w, http.StatusBadRequest, "INVALID_REQUEST", "Http头Content-Type值必须为application/json")
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mux.ServeHTTP(w, r)
}

// authenticate checks the Authorization header as 签名生成 describes it:
// `WECHATPAY2-SHA256-RSA2048 mchid="…",nonce_str="…",signature="…",
// timestamp="…",serial_no="…"` (any order), the signature over
// "METHOD\nURL\ntimestamp\nnonce\nbody\n" with URL the path and query as sent.
func (s *Server) authenticate(r *http.Request, body []byte) error {
	rest, ok := strings.CutPrefix(r.Header.Get("Authorization"), "WECHATPAY2-SHA256-RSA2048 ")
	if !ok {
		return fmt.Errorf("authorization scheme is not WECHATPAY2-SHA256-RSA2048")
	}
	p := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			return fmt.Errorf("malformed authorization parameter %q", part)
		}
		p[k] = v[1 : len(v)-1]
	}
	switch {
	case p["mchid"] != s.opts.MchID:
		return fmt.Errorf("unknown mchid %q", p["mchid"])
	case p["serial_no"] != s.opts.MerchantSerialNo:
		return fmt.Errorf("unknown merchant certificate serial %q", p["serial_no"])
	case p["nonce_str"] == "":
		return fmt.Errorf("no nonce_str")
	}
	ts, err := strconv.ParseInt(p["timestamp"], 10, 64)
	if err != nil {
		return fmt.Errorf("timestamp %q", p["timestamp"])
	}
	if d := s.opts.Now().Sub(time.Unix(ts, 0)); d > MaxSkew || d < -MaxSkew {
		return fmt.Errorf("timestamp %d is %s off", ts, d)
	}
	// RequestURI is the URL as the merchant sent and signed it, prefix
	// included when the fake is mounted under http.StripPrefix.
	uri := r.RequestURI
	if uri == "" {
		uri = r.URL.RequestURI()
	}
	if !verifyLines(s.opts.MerchantPublicKey, p["signature"], r.Method, uri, p["timestamp"], p["nonce_str"], string(body)) {
		return fmt.Errorf("signature does not verify")
	}
	return nil
}

// answer writes a signed answer: the headers of 签名验证 (Wechatpay-Nonce,
// Wechatpay-Signature, Wechatpay-Timestamp, Wechatpay-Serial) over the body,
// empty for 204.
func (s *Server) answer(w http.ResponseWriter, status int, v any) {
	var body []byte
	if v != nil {
		var err error
		if body, err = json.Marshal(v); err != nil {
			panic(fmt.Sprintf("wechatpaytest: marshal answer: %v", err))
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	for k, vs := range s.signed(body) {
		w.Header()[k] = vs
	}
	w.Header().Set("Request-ID", s.nextID("08DE8BEEF0"))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (s *Server) fail(w http.ResponseWriter, status int, code, message string) {
	s.answer(w, status, apiError(code, message))
}

// decode reads a request's JSON body into v, and is false when it answered
// instead: the order and refund routes refuse a body that is not JSON with
// the same PARAM_ERROR (close names its mchid instead).
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "请求体不是合法的JSON")
		return false
	}
	return true
}

// signed are the signature headers of a body at the fake's current time.
func (s *Server) signed(body []byte) http.Header {
	ts := strconv.FormatInt(s.opts.Now().Unix(), 10)
	nonce := randomString(32)
	h := http.Header{}
	h.Set("Wechatpay-Timestamp", ts)
	h.Set("Wechatpay-Nonce", nonce)
	h.Set("Wechatpay-Serial", s.opts.PlatformSerial)
	h.Set("Wechatpay-Signature-Type", "WECHATPAY2-SHA256-RSA2048")
	h.Set("Wechatpay-Signature", signLines(s.opts.PlatformKey, ts, nonce, string(body)))
	return h
}

func (s *Server) nextID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return fmt.Sprintf("%s%010d", prefix, s.seq)
}

var outTradeNo = regexp.MustCompile(`^[A-Za-z0-9_*-]{6,32}$`)

// native is Native下单 (POST /v3/pay/transactions/native,
// https://pay.weixin.qq.com/doc/v3/merchant/4012525095):
// 200 {"code_url": "weixin://wxpay/bizpayurl?pr=…"}. Placing the same order
// again answers the same code_url; another order under a used out_trade_no
// is OUT_TRADE_NO_USED.
func (s *Server) native(w http.ResponseWriter, r *http.Request) {
	var in struct {
		AppID       string `json:"appid"`
		MchID       string `json:"mchid"`
		Description string `json:"description"`
		OutTradeNo  string `json:"out_trade_no"`
		TimeExpire  string `json:"time_expire"`
		NotifyURL   string `json:"notify_url"`
		Amount      struct {
			Total    int64  `json:"total"`
			Currency string `json:"currency"`
		} `json:"amount"`
	}
	if !s.decode(w, r, &in) {
		return
	}
	var expire time.Time
	switch {
	case in.MchID != s.opts.MchID:
		s.fail(w, http.StatusBadRequest, "MCH_NOT_EXISTS", "商户号不存在")
		return
	case in.AppID != s.opts.AppID:
		s.fail(w, http.StatusBadRequest, "APPID_MCHID_NOT_MATCH", "appid和mch_id不匹配")
		return
	case in.Description == "" || len(in.Description) > 127:
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "description长度应在1到127字节之间")
		return
	case !outTradeNo.MatchString(in.OutTradeNo):
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "out_trade_no格式错误")
		return
	case !strings.HasPrefix(in.NotifyURL, "https://") && !strings.HasPrefix(in.NotifyURL, "http://"):
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "notify_url格式错误")
		return
	case in.Amount.Total <= 0:
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "amount.total必须大于0")
		return
	case in.Amount.Currency != "" && in.Amount.Currency != "CNY":
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "amount.currency仅支持CNY")
		return
	case in.TimeExpire != "":
		var err error
		if expire, err = time.Parse(time.RFC3339, in.TimeExpire); err != nil || strings.HasSuffix(in.TimeExpire, "Z") {
			s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "time_expire格式应为yyyy-MM-DDTHH:mm:ss+TIMEZONE")
			return
		}
	}
	codeURL := "weixin://wxpay/bizpayurl?pr=" + randomString(7)
	s.mu.Lock()
	o := s.orders[in.OutTradeNo]
	if o == nil {
		o = &order{
			appID: in.AppID, mchID: in.MchID, description: in.Description,
			outTradeNo: in.OutTradeNo, notifyURL: in.NotifyURL, total: in.Amount.Total,
			timeExpire: expire, codeURL: codeURL, state: "NOTPAY", stateDesc: "订单未支付",
		}
		s.orders[in.OutTradeNo] = o
	}
	s.expire(o)
	// time_expire can be set only when the order is first placed (Native下单:
	// "仅在用户首次下单时可设置,且不允许后续修改").
	same := o.total == in.Amount.Total && o.description == in.Description && o.timeExpire.Equal(expire)
	state, codeURL := o.state, o.codeURL
	s.mu.Unlock()
	switch {
	case state == "SUCCESS" || state == "REFUND":
		s.fail(w, http.StatusBadRequest, "ORDERPAID", "该订单已支付")
	case state != "NOTPAY":
		s.fail(w, http.StatusBadRequest, "ORDER_CLOSED", "订单已关闭")
	case !same:
		s.fail(w, http.StatusForbidden, "OUT_TRADE_NO_USED", "商户订单号重复")
	default:
		s.answer(w, http.StatusOK, map[string]string{"code_url": codeURL})
	}
}

// expire closes an unpaid order past its time_expire. Callers hold s.mu.
func (s *Server) expire(o *order) {
	if o.state == "NOTPAY" && !o.timeExpire.IsZero() && !s.opts.Now().Before(o.timeExpire) {
		o.state, o.stateDesc = "CLOSED", "订单已关闭"
	}
}

// transaction is a transaction as the query answers it and a notification
// carries it encrypted (商户订单号查询订单, https://pay.weixin.qq.com/doc/v3/merchant/4012556352;
// the decrypted example of 支付通知). Callers hold s.mu.
func (s *Server) transaction(o *order) map[string]any {
	amount := map[string]any{"total": o.total, "currency": "CNY", "payer_currency": "CNY"}
	tx := map[string]any{
		"appid": o.appID, "mchid": o.mchID, "out_trade_no": o.outTradeNo,
		"trade_state": o.state, "trade_state_desc": o.stateDesc, "attach": "",
		"amount": amount,
	}
	if o.transactionID != "" {
		amount["payer_total"] = o.total
		tx["transaction_id"] = o.transactionID
		tx["trade_type"] = "NATIVE"
		tx["bank_type"] = "OTHERS"
		tx["success_time"] = o.successTime.In(china).Format("2006-01-02T15:04:05-07:00")
		tx["payer"] = map[string]string{"openid": o.openID}
	}
	return tx
}

var china = time.FixedZone("CST", 8*60*60)

// query is 商户订单号查询订单 (GET /v3/pay/transactions/out-trade-no/{no}?mchid=…):
// 404 ORDER_NOT_EXIST for an order it never saw.
func (s *Server) query(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("mchid") != s.opts.MchID {
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "mchid与请求商户号不一致")
		return
	}
	s.mu.Lock()
	o := s.orders[r.PathValue("no")]
	var tx map[string]any
	if o != nil {
		s.expire(o)
		tx = s.transaction(o)
	}
	s.mu.Unlock()
	if o == nil {
		s.fail(w, http.StatusNotFound, "ORDER_NOT_EXIST", "订单不存在")
		return
	}
	s.answer(w, http.StatusOK, tx)
}

// close is 关闭订单 (POST …/out-trade-no/{no}/close {"mchid"},
// https://pay.weixin.qq.com/doc/v3/merchant/4012556398): 204 No Content.
// A paid order is 400 ORDERPAID, the code v2's closeorder answered: the v3
// page's table names none for it.
func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	var in struct {
		MchID string `json:"mchid"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.MchID != s.opts.MchID {
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "mchid与请求商户号不一致")
		return
	}
	s.mu.Lock()
	o := s.orders[r.PathValue("no")]
	var state string
	if o != nil {
		s.expire(o)
		state = o.state
		if state == "NOTPAY" {
			o.state, o.stateDesc = "CLOSED", "订单已关闭"
		}
	}
	s.mu.Unlock()
	switch {
	case o == nil:
		s.fail(w, http.StatusNotFound, "ORDER_NOT_EXIST", "订单不存在")
	case state == "SUCCESS" || state == "REFUND":
		s.fail(w, http.StatusBadRequest, "ORDERPAID", "订单已支付")
	default:
		s.answer(w, http.StatusNoContent, nil)
	}
}

// refund is 退款申请 (POST /v3/refund/domestic/refunds; the refund guide
// https://pay.weixin.qq.com/doc/v3/merchant/4013071031 for the statuses,
// 查询单笔退款 https://pay.weixin.qq.com/doc/v3/merchant/4012556562 for the
// refund's shape). out_refund_no is the idempotency key ("同一退款单号多次请求只退
// 一笔"): the same refund again answers the first one and refunds nothing
// more. The refusal codes (INVALID_REQUEST past the refundable amount or
// for an unpaid order) are the fake's choice: the pages read list no
// specific code for them.
func (s *Server) refund(w http.ResponseWriter, r *http.Request) {
	var in struct {
		OutTradeNo  string `json:"out_trade_no"`
		OutRefundNo string `json:"out_refund_no"`
		Reason      string `json:"reason"`
		Amount      struct {
			Refund   int64  `json:"refund"`
			Total    int64  `json:"total"`
			Currency string `json:"currency"`
		} `json:"amount"`
	}
	if !s.decode(w, r, &in) {
		return
	}
	if in.OutRefundNo == "" || len(in.OutRefundNo) > 64 || in.Amount.Refund <= 0 || in.Amount.Currency != "CNY" {
		s.fail(w, http.StatusBadRequest, "PARAM_ERROR", "out_refund_no、amount.refund或amount.currency不合法")
		return
	}
	status, v := s.applyRefund(in.OutTradeNo, in.OutRefundNo, in.Reason, in.Amount.Refund, in.Amount.Total)
	s.answer(w, status, v)
}

func apiError(code, message string) map[string]string {
	return map[string]string{"code": code, "message": message}
}

// applyRefund records one refund and answers the status and body to write.
func (s *Server) applyRefund(tradeNo, refundNo, reason string, amount, total int64) (int, any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[tradeNo]
	if o == nil {
		return http.StatusNotFound, apiError("RESOURCE_NOT_EXISTS", "订单不存在")
	}
	if rf := s.refunds[refundNo]; rf != nil {
		if rf.outTradeNo != tradeNo || rf.amount != amount {
			return http.StatusBadRequest, apiError("INVALID_REQUEST", "退款单号已存在且参数不一致")
		}
		return http.StatusOK, s.refundBody(o, rf)
	}
	switch {
	case o.state != "SUCCESS" && o.state != "REFUND":
		return http.StatusBadRequest, apiError("INVALID_REQUEST", "订单未支付")
	case total != o.total:
		return http.StatusBadRequest, apiError("PARAM_ERROR", "订单金额与原订单不一致")
	case o.refunded+amount > o.total:
		return http.StatusBadRequest, apiError("INVALID_REQUEST", "申请退款金额超过订单可退金额")
	}
	s.seq++
	rf := &refund{
		id: fmt.Sprintf("50000000%021d", s.seq), outRefundNo: refundNo, outTradeNo: tradeNo,
		status: s.opts.RefundStatus, reason: reason, amount: amount, created: s.opts.Now(),
	}
	s.refunds[refundNo] = rf
	o.refunded += amount
	o.state, o.stateDesc = "REFUND", "转入退款"
	return http.StatusOK, s.refundBody(o, rf)
}

// queryRefund is 查询单笔退款 (GET /v3/refund/domestic/refunds/{out_refund_no}):
// 404 RESOURCE_NOT_EXISTS for a refund it never saw.
func (s *Server) queryRefund(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	rf := s.refunds[r.PathValue("no")]
	var body map[string]any
	if rf != nil {
		body = s.refundBody(s.orders[rf.outTradeNo], rf)
	}
	s.mu.Unlock()
	if rf == nil {
		s.fail(w, http.StatusNotFound, "RESOURCE_NOT_EXISTS", "退款单不存在")
		return
	}
	s.answer(w, http.StatusOK, body)
}

// refundBody is the refund answer's shape (退款申请, 应答参数). Callers hold s.mu.
func (s *Server) refundBody(o *order, rf *refund) map[string]any {
	body := map[string]any{
		"refund_id": rf.id, "out_refund_no": rf.outRefundNo,
		"transaction_id": o.transactionID, "out_trade_no": o.outTradeNo,
		"channel": "ORIGINAL", "user_received_account": "支付用户零钱",
		"create_time": rf.created.In(china).Format("2006-01-02T15:04:05-07:00"),
		"status":      rf.status, "funds_account": "AVAILABLE",
		"amount": map[string]any{
			"total": o.total, "refund": rf.amount, "payer_total": o.total, "payer_refund": rf.amount,
			"settlement_total": o.total, "settlement_refund": rf.amount, "discount_refund": 0,
			"currency": "CNY", "refund_fee": s.fee(rf.amount),
		},
	}
	if rf.status == "SUCCESS" {
		body["success_time"] = body["create_time"]
	}
	return body
}

func (s *Server) fee(amount int64) int64 {
	if s.opts.FeeRate < 0 {
		return 0
	}
	return (amount*s.opts.FeeRate + 5000) / 10000
}
