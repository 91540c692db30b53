// Package yeepaytest is a local fake of Yeepay's open platform for tests
// and demos: an http.Handler that enforces yop-auth-v3 as the gateway does
// (Authorization signature with the merchant's public key, content hash,
// app key, clock), signs its answers (x-yop-sign) with its own key pair,
// keeps orders in memory and sends result notifications in Yeepay's
// digital envelope to each order's notifyUrl.
//
// Shapes and where they come from (github.com/Yeepay-Open-Platform/yeepay-skills):
//   - request signature, answer signature: references/平台文档/平台规范/安全认证/请求签名协议.md
//   - gateway errors (code, subCode, message): references/平台文档/开始对接/平台错误码说明.md
//   - notification form (response, customerIdentification), envelope, the
//     SUCCESS answer: references/平台文档/平台规范/安全认证/结果通知(RSA).md
//     (https://open.yeepay.com/docs-v3/platform/207.md)
//   - resend schedule (5s, 10s, 15s, 30s, 240s, 600s, 2700s, 3600s, 14400s):
//     references/平台文档/平台规范/结果通知机制说明.md
//   - trade fields (orderId, orderAmount, token, uniqueOrderNo, prePayTn,
//     status PROCESSING/SUCCESS/CLOSE/TIME_OUT/FAIL, merchantFee,
//     paySuccessDate, refundRequestId, uniqueRefundNo): the product notes
//     under references/产品能力 and Yeepay's SDK examples.
//
// Business result codes other than OPR00000/00000 are the fake's own: the
// API pages that list Yeepay's were not among the documents read.
package yeepaytest

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/rsakey"
	"github.com/voyage/voyage/pkg/payment/yeepay/internal/yop"
)

// Result codes the fake answers. OPR00000 and 00000 are Yeepay's; the
// others are the fake's (see the package comment).
const (
	CodeOK            = "OPR00000"
	CodePrePayOK      = "00000"
	CodeNoSuchOrder   = "OPR14004"
	CodeOrderExists   = "OPR13001"
	CodeNotPayable    = "OPR13002"
	CodeRefundRefused = "OPR15001"
)

// Schedule is Yeepay's documented resend interval after each failed
// notification.
var Schedule = []time.Duration{5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	240 * time.Second, 600 * time.Second, 2700 * time.Second, 3600 * time.Second, 14400 * time.Second}

// Options configure a fake.
type Options struct {
	// MerchantPublicKeyPEM is the merchant's public key as registered at
	// Yeepay: it verifies requests and seals notifications. Required.
	MerchantPublicKeyPEM string
	// AppKey, ParentMerchantNo and MerchantNo, when set, are the only
	// application and merchants the fake serves.
	AppKey, ParentMerchantNo, MerchantNo string
	// PrivateKey is the fake's (Yeepay's) signing key; a new 2048-bit key
	// when nil.
	PrivateKey *rsa.PrivateKey
	// FeeBasisPoints is the fee charged on a paid order, in 1/10000 of the
	// amount, rounded half up (default 60: 0.6%).
	FeeBasisPoints int64
	// MaxNotify is how many times a notification is sent before the fake
	// gives up (default 1 + len(Schedule)).
	MaxNotify int
	// Wait is called between tries with the number of the try that failed
	// (1…); default sleeps Schedule. Tests pass a func that returns at once.
	Wait func(try int)
	// Client sends notifications (default a client with a 5s timeout, as
	// Yeepay's connect and read timeouts are).
	Client *http.Client
	// Now is the fake's clock (default time.Now).
	Now func() time.Time
}

// Notification is one try of sending one notification.
type Notification struct {
	OrderID string
	URL     string
	Body    string // the form sent: response=…&customerIdentification=…
	Try     int
	// StatusCode and Answer are the merchant's HTTP answer; Err the
	// transport error when there was none.
	StatusCode int
	Answer     string
	Err        error
}

// Delivered says whether the merchant took it (HTTP 200, SUCCESS).
func (n Notification) Delivered() bool {
	return n.Err == nil && n.StatusCode == http.StatusOK && strings.TrimSpace(n.Answer) == "SUCCESS"
}

type order struct {
	parent, merchant  string
	id, unique, token string
	amount            int64
	goods, notifyURL  string
	expires           time.Time
	status            string
	paidAt            time.Time
	fee               int64
	refunded          int64
	prePayTn          string
	wallet            string
}

type refund struct {
	orderID, unique string
	amount          int64
}

// Server is the fake. Its zero value is not usable: call New.
type Server struct {
	opts     Options
	key      *rsa.PrivateKey
	merchant *rsa.PublicKey
	now      func() time.Time

	mu      sync.Mutex
	orders  map[string]*order // by orderId
	tokens  map[string]string // token → orderId
	refunds map[string]*refund
	notes   []Notification
	seq     int
}

// New makes a fake. It panics when MerchantPublicKeyPEM is not an RSA public
// key, as httptest.NewServer panics when it cannot listen: a fake that
// cannot start is a broken test.
func New(opts Options) *Server {
	pub, err := rsakey.ParsePublic(opts.MerchantPublicKeyPEM)
	if err != nil {
		panic("yeepaytest: merchant public key: " + err.Error())
	}
	key := opts.PrivateKey
	if key == nil {
		if key, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic("yeepaytest: generating the platform key: " + err.Error())
		}
	}
	if opts.FeeBasisPoints == 0 {
		opts.FeeBasisPoints = 60
	}
	if opts.MaxNotify <= 0 {
		opts.MaxNotify = 1 + len(Schedule)
	}
	if opts.Wait == nil {
		opts.Wait = func(try int) { time.Sleep(Schedule[min(try, len(Schedule))-1]) }
	}
	if opts.Client == nil {
		opts.Client = payment.HTTPClient(nil, 5*time.Second)
	}
	return &Server{opts: opts, key: key, merchant: pub, now: payment.Clock(opts.Now),
		orders: map[string]*order{}, tokens: map[string]string{}, refunds: map[string]*refund{}}
}

// PublicKeyPEM is the fake's (Yeepay's) public key, for the merchant's
// Config.YeepayPublicKeyPEM.
func (s *Server) PublicKeyPEM() string { return yop.PublicKeyPEM(&s.key.PublicKey) }

// Fee is what the fake charges on amount fen.
func (s *Server) Fee(amount int64) int64 {
	return (amount*s.opts.FeeBasisPoints + 5000) / 10000
}

var beijing = time.FixedZone("CST", 8*3600)

const dateLayout = "2006-01-02 15:04:05"

func yuan(fen int64) string { return fmt.Sprintf("%d.%02d", fen/100, fen%100) }

func fen(s string) (int64, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 2 {
		return 0, false
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err1 := strconv.ParseUint(whole, 10, 40)
	f, err2 := strconv.ParseUint(frac, 10, 8)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return int64(w*100 + f), true
}

func (s *Server) nextID(prefix string) string {
	s.seq++
	return fmt.Sprintf("%s%s%06d", prefix, s.now().In(beijing).Format("20060102"), s.seq)
}

// ServeHTTP serves the gateway's trade APIs under /rest/… and the standard
// cashier under /cashier/std.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/cashier/std") {
		s.cashier(w, r)
		return
	}
	params, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	if !s.opts.merchantOK(params) {
		s.gatewayError(w, http.StatusBadRequest, "40042", "非法的参数", "isv.check.request-param.format", "parentMerchantNo/merchantNo is not this application's")
		return
	}
	route := r.Method + " " + apiPath(r.URL.Path)
	var result map[string]any
	switch route {
	case "POST /rest/v1.0/trade/order":
		result = s.tradeOrder(params)
	case "POST /rest/v1.0/aggpay/pre-pay":
		result = s.prePay(params)
	case "GET /rest/v1.0/trade/order/query":
		result = s.query(params)
	case "POST /rest/v1.0/trade/order/close":
		result = s.closeOrder(params)
	case "POST /rest/v1.0/trade/refund":
		result = s.refund(params)
	default:
		s.gatewayError(w, http.StatusNotFound, "40042", "非法的参数", "isv.service.not-exists", "no API "+route)
		return
	}
	s.answer(w, r, result)
}

// apiPath is the API path a request signs: the gateway's own prefix
// (/yop-center, or wherever the fake is mounted) is not part of it.
func apiPath(p string) string {
	if i := strings.Index(p, "/rest/"); i > 0 {
		return p[i:]
	}
	return p
}

func (o Options) merchantOK(p url.Values) bool {
	return (o.ParentMerchantNo == "" || p.Get("parentMerchantNo") == o.ParentMerchantNo) &&
		(o.MerchantNo == "" || p.Get("merchantNo") == o.MerchantNo)
}

// authenticate checks a request as the gateway does and answers its
// parameters (decoded twice, as Yeepay's SDKs encode them).
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	deny := func(sub, msg string) (url.Values, bool) {
		s.gatewayError(w, http.StatusUnauthorized, "40047", "鉴权认证失败", sub, msg)
		return nil, false
	}
	auth, err := yop.ParseAuthorization(r.Header.Get("Authorization"))
	if err != nil {
		return deny("isv.authentication.digest.verify-failure", err.Error())
	}
	app := r.Header.Get(yop.HeaderAppKey)
	if app != auth.AppKey || s.opts.AppKey != "" && app != s.opts.AppKey {
		s.gatewayError(w, http.StatusBadRequest, "40042", "非法的参数", "isv.app.not-exists", "应用不存在 "+app)
		return nil, false
	}
	if auth.SignedHeaders != yop.SignedHeaders {
		return deny("isv.authentication.digest.verify-failure", "signed headers must be "+yop.SignedHeaders)
	}
	if auth.Expire > yop.ExpireSeconds*time.Second {
		return deny("isv.authentication.digest.verify-failure", "authorization lifetime over 1800 seconds")
	}
	now := s.now()
	if now.Before(auth.Timestamp.Add(-5*time.Minute)) || now.After(auth.Timestamp.Add(auth.Expire)) {
		return deny("isv.authentication.digest.verify-failure", "authorization expired or from the future")
	}
	var once url.Values
	switch r.Method {
	case http.MethodGet:
		once = r.URL.Query()
	case http.MethodPost:
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
			s.gatewayError(w, http.StatusBadRequest, "40042", "非法的参数", "isv.protocol.content-type.unsupported", "Content-Type "+ct)
			return nil, false
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			s.gatewayError(w, http.StatusBadRequest, "40042", "非法的参数", "isv.check.request-param.format", err.Error())
			return nil, false
		}
		if once, err = url.ParseQuery(string(body)); err != nil {
			s.gatewayError(w, http.StatusBadRequest, "40042", "非法的参数", "isv.check.request-param.format", err.Error())
			return nil, false
		}
	default:
		s.gatewayError(w, http.StatusMethodNotAllowed, "40029", "访问受限", "sys.limit.http-method", r.Method)
		return nil, false
	}
	params, err := yop.HTTPDecode(once)
	if err != nil {
		s.gatewayError(w, http.StatusBadRequest, "40042", "非法的参数", "isv.check.request-param.format", err.Error())
		return nil, false
	}
	sha := yop.ContentSHA256(r.Method, params)
	if r.Header.Get(yop.HeaderContentSHA256) != sha {
		return deny("isv.authentication.digest.integrity-checking-failure", "完整性校验失败: content-sha256")
	}
	canon := yop.CanonicalRequest(auth.AuthString(), r.Method, apiPath(r.URL.Path), params, app, sha, r.Header.Get(yop.HeaderRequestID))
	if r.Header.Get(yop.HeaderRequestID) == "" || yop.Verify(s.merchant, canon, auth.Signature) != nil {
		return deny("isv.authentication.digest.verify-failure", "验签失败")
	}
	return params, true
}

// gatewayError answers the platform's error JSON (平台错误码说明).
func (s *Server) gatewayError(w http.ResponseWriter, status int, code, msg, sub, subMsg string) {
	body, _ := json.Marshal(map[string]string{"requestId": s.requestID(), "code": code, "message": msg, "subCode": sub, "subMessage": subMsg})
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (s *Server) requestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// answer writes {"result":…} signed with x-yop-sign.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, result map[string]any) {
	body, err := json.Marshal(map[string]any{"result": result})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	sig, err := yop.Sign(s.key, yop.AnswerText(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.Header().Set(yop.HeaderSign, sig)
	w.Header().Set(yop.HeaderRequestID, r.Header.Get(yop.HeaderRequestID))
	_, _ = w.Write(body)
}

func fail(code, msg string) map[string]any { return map[string]any{"code": code, "message": msg} }

func (s *Server) tradeOrder(p url.Values) map[string]any {
	id, amount := p.Get("orderId"), p.Get("orderAmount")
	n, ok := fen(amount)
	if id == "" || len(id) > 64 || !ok || n <= 0 || p.Get("goodsName") == "" || p.Get("notifyUrl") == "" {
		return fail("OPR10001", "参数错误: orderId, orderAmount, goodsName, notifyUrl")
	}
	var expires time.Time
	if e := p.Get("expiredTime"); e != "" {
		t, err := time.ParseInLocation(dateLayout, e, beijing)
		if err != nil {
			return fail("OPR10001", "参数错误: expiredTime")
		}
		expires = t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if o, ok := s.orders[id]; ok {
		s.expire(o)
		if o.amount != n || o.status != "PROCESSING" {
			return fail(CodeOrderExists, "订单已存在")
		}
		return s.orderResult(o)
	}
	o := &order{parent: p.Get("parentMerchantNo"), merchant: p.Get("merchantNo"), id: id, amount: n,
		goods: p.Get("goodsName"), notifyURL: p.Get("notifyUrl"), expires: expires, status: "PROCESSING"}
	o.unique = s.nextID("1013")
	tok := make([]byte, 32)
	_, _ = rand.Read(tok)
	o.token = strings.ToUpper(hex.EncodeToString(tok))
	s.orders[id], s.tokens[o.token] = o, id
	return s.orderResult(o)
}

func (s *Server) orderResult(o *order) map[string]any {
	return map[string]any{"code": CodeOK, "message": "成功", "parentMerchantNo": o.parent, "merchantNo": o.merchant,
		"orderId": o.id, "uniqueOrderNo": o.unique, "token": o.token}
}

// expire turns a PROCESSING order past its expiredTime into TIME_OUT; the
// caller holds s.mu.
func (s *Server) expire(o *order) {
	if o.status == "PROCESSING" && !o.expires.IsZero() && s.now().After(o.expires) {
		o.status = "TIME_OUT"
	}
}

func (s *Server) prePay(p url.Values) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.tokens[p.Get("token")]
	o := s.orders[id]
	if o == nil || o.id != p.Get("orderId") {
		return fail(CodeNoSuchOrder, "订单不存在")
	}
	s.expire(o)
	if o.status != "PROCESSING" {
		return fail(CodeNotPayable, "订单状态不可支付: "+o.status)
	}
	if p.Get("payWay") != "USER_SCAN" || p.Get("scene") == "" {
		return fail("OPR10001", "参数错误: payWay, scene")
	}
	switch p.Get("channel") {
	case "ALIPAY":
		o.prePayTn = "https://qr.alipay.com/yeepaytest/" + o.unique
	case "WECHAT":
		o.prePayTn = "weixin://wxpay/bizpayurl?pr=yeepaytest" + o.unique
	default:
		return fail("OPR10001", "参数错误: channel")
	}
	o.wallet = p.Get("channel")
	return map[string]any{"code": CodePrePayOK, "message": "成功", "orderId": o.id, "uniqueOrderNo": o.unique, "prePayTn": o.prePayTn}
}

// currentLocked is the order as it stands now (expired when its time is
// up), or the gateway's answer for an order it does not know.
func (s *Server) currentLocked(id string) (*order, map[string]any) {
	o := s.orders[id]
	if o == nil {
		return nil, fail(CodeNoSuchOrder, "订单不存在")
	}
	s.expire(o)
	return o, nil
}

func (s *Server) query(p url.Values) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, failed := s.currentLocked(p.Get("orderId"))
	if failed != nil {
		return failed
	}
	r := map[string]any{"code": CodeOK, "message": "成功", "parentMerchantNo": o.parent, "merchantNo": o.merchant,
		"orderId": o.id, "uniqueOrderNo": o.unique, "token": o.token, "status": o.status,
		"orderAmount": yuan(o.amount), "customerFee": "0.00"}
	if o.status == "SUCCESS" {
		r["payAmount"] = yuan(o.amount)
		r["merchantFee"] = yuan(o.fee)
		r["paySuccessDate"] = o.paidAt.In(beijing).Format(dateLayout)
	}
	return r
}

func (s *Server) closeOrder(p url.Values) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, failed := s.currentLocked(p.Get("orderId"))
	if failed != nil {
		return failed
	}
	switch o.status {
	case "PROCESSING":
		o.status = "CLOSE"
	case "SUCCESS", "REPAY":
		return fail(CodeNotPayable, "订单已支付，不能关闭")
	}
	return map[string]any{"code": CodeOK, "message": "成功", "orderId": o.id, "uniqueOrderNo": o.unique}
}

func (s *Server) refund(p url.Values) map[string]any {
	n, ok := fen(p.Get("refundAmount"))
	reqID := p.Get("refundRequestId")
	if !ok || n <= 0 || reqID == "" {
		return fail("OPR10001", "参数错误: refundRequestId, refundAmount")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[p.Get("orderId")]
	if o == nil {
		return fail(CodeNoSuchOrder, "订单不存在")
	}
	if rf, ok := s.refunds[reqID]; ok {
		if rf.orderID != o.id || rf.amount != n {
			return fail(CodeRefundRefused, "退款请求号已存在")
		}
		return s.refundResult(o, rf)
	}
	if o.status != "SUCCESS" {
		return fail(CodeRefundRefused, "订单未支付，不能退款")
	}
	if n > o.amount-o.refunded {
		return fail(CodeRefundRefused, "退款金额超过可退金额")
	}
	rf := &refund{orderID: o.id, unique: s.nextID("1015"), amount: n}
	s.refunds[reqID] = rf
	o.refunded += n
	return s.refundResult(o, rf)
}

func (s *Server) refundResult(o *order, rf *refund) map[string]any {
	return map[string]any{"code": CodeOK, "message": "成功", "orderId": o.id, "uniqueOrderNo": o.unique,
		"uniqueRefundNo": rf.unique, "refundAmount": yuan(rf.amount), "status": "SUCCESS"}
}

// cashier checks a standard cashier URL's signature (the parameters but
// sign, sorted and encoded once, signed with the merchant's key) and shows
// a page for the order of its token.
func (s *Server) cashier(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sig := q.Get("sign")
	q.Del("sign")
	if sig == "" || yop.Verify(s.merchant, yop.CanonicalParams(q), sig) != nil {
		http.Error(w, "yeepaytest cashier: signature does not verify", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	o := s.orders[s.tokens[q.Get("token")]]
	var id, amount string
	if o != nil {
		id, amount = o.id, yuan(o.amount)
	}
	s.mu.Unlock()
	if o == nil {
		http.Error(w, "yeepaytest cashier: no order for this token", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><title>Yeepay cashier (fake)</title><p>Order %s: %s CNY by %s card</p>", id, amount, q.Get("cardType"))
}

// Order is what the fake holds of one order, for assertions.
type Order struct {
	OrderID, UniqueOrderNo, Token, Status string
	Amount, Fee, Refunded                 int64
	PrePayTn, Wallet                      string
}

// Order answers the fake's order orderID.
func (s *Server) Order(orderID string) (Order, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[orderID]
	if o == nil {
		return Order{}, false
	}
	s.expire(o)
	return Order{OrderID: o.id, UniqueOrderNo: o.unique, Token: o.token, Status: o.status,
		Amount: o.amount, Fee: o.fee, Refunded: o.refunded, PrePayTn: o.prePayTn, Wallet: o.wallet}, true
}

// setStatus moves a PROCESSING order to status.
func (s *Server) setStatus(orderID, status string) (*order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[orderID]
	if o == nil {
		return nil, fmt.Errorf("yeepaytest: no order %s", orderID)
	}
	s.expire(o)
	if o.status != "PROCESSING" {
		return nil, fmt.Errorf("yeepaytest: order %s is %s, not PROCESSING", orderID, o.status)
	}
	o.status = status
	if status == "SUCCESS" {
		o.paidAt = s.now().Truncate(time.Second)
		o.fee = s.Fee(o.amount)
	}
	return o, nil
}

// Pay is the payer paying order orderID: it is SUCCESS, and its
// notification is sent to its notifyUrl, again after each Wait until the
// merchant answers 200 SUCCESS or MaxNotify tries are spent. Pay returns
// when sending is over; it fails only when the order is not payable.
func (s *Server) Pay(orderID string) error {
	if _, err := s.setStatus(orderID, "SUCCESS"); err != nil {
		return err
	}
	body, target, err := s.notice(orderID, nil, true)
	if err != nil {
		return err
	}
	for try := 1; try <= s.opts.MaxNotify; try++ {
		n := s.send(orderID, target, body, try)
		s.mu.Lock()
		s.notes = append(s.notes, n)
		s.mu.Unlock()
		if n.Delivered() {
			return nil
		}
		if try < s.opts.MaxNotify {
			s.opts.Wait(try)
		}
	}
	return nil
}

func (s *Server) send(orderID, target, body string, try int) Notification {
	n := Notification{OrderID: orderID, URL: target, Body: body, Try: try}
	resp, err := s.opts.Client.Post(target, "application/x-www-form-urlencoded", strings.NewReader(body))
	if err != nil {
		n.Err = err
		return n
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	n.StatusCode, n.Answer, n.Err = resp.StatusCode, string(answer), err
	return n
}

// Decline is the payment failing (FAIL): it can no longer be paid.
func (s *Server) Decline(orderID string) error {
	_, err := s.setStatus(orderID, "FAIL")
	return err
}

// Expire is the order's time running out (TIME_OUT).
func (s *Server) Expire(orderID string) error {
	_, err := s.setStatus(orderID, "TIME_OUT")
	return err
}

// Notifications is every try of every notification so far.
func (s *Server) Notifications() []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Notification(nil), s.notes...)
}

// NoticeBody is the signed notification of a paid order, as Pay sends it,
// without sending it: for replay tests.
func (s *Server) NoticeBody(orderID string) (string, error) {
	body, _, err := s.notice(orderID, nil, true)
	return body, err
}

// TamperedNoticeBody is the notification of a paid order whose plaintext
// change rewrote after Yeepay signed it: the envelope opens with the
// merchant key, the signature inside is the original one.
func (s *Server) TamperedNoticeBody(orderID string, change func(plaintext string) string) (string, error) {
	body, _, err := s.notice(orderID, change, false)
	return body, err
}

// notice builds the form of the notification of order orderID
// (trade.pay-result), its plaintext rewritten by change when given: signed
// again when resign, else left with the original's signature.
func (s *Server) notice(orderID string, change func(string) string, resign bool) (body, target string, err error) {
	s.mu.Lock()
	o := s.orders[orderID]
	if o == nil || o.status != "SUCCESS" {
		s.mu.Unlock()
		return "", "", fmt.Errorf("yeepaytest: no paid order %s", orderID)
	}
	fields := map[string]string{
		"parentMerchantNo": o.parent, "merchantNo": o.merchant, "orderId": o.id, "uniqueOrderNo": o.unique,
		"status": "SUCCESS", "orderAmount": yuan(o.amount), "payAmount": yuan(o.amount),
		"merchantFee": yuan(o.fee), "customerFee": "0.00",
		"paySuccessDate": o.paidAt.In(beijing).Format(dateLayout), "channel": o.wallet,
	}
	target = o.notifyURL
	s.mu.Unlock()
	if fields["channel"] == "" {
		delete(fields, "channel")
	}
	plain := canonicalJSON(fields)
	var response string
	switch {
	case change == nil:
		response, err = yop.SealEnvelope(s.key, s.merchant, plain)
	case resign:
		response, err = yop.SealEnvelope(s.key, s.merchant, change(plain))
	default:
		response, err = s.sealTampered(plain, change(plain))
	}
	if err != nil {
		return "", "", err
	}
	form := url.Values{"response": {response}}
	if s.opts.AppKey != "" {
		form.Set("customerIdentification", s.opts.AppKey)
	}
	return form.Encode(), target, nil
}

// ResignedNoticeBody is the notification of a paid order whose plaintext
// change rewrote before Yeepay signed it: a genuine notification that says
// something else (another amount), for the merchant's own checks.
func (s *Server) ResignedNoticeBody(orderID string, change func(plaintext string) string) (string, error) {
	body, _, err := s.notice(orderID, change, true)
	return body, err
}

// sealTampered seals changed with the signature the fake made over
// original: only the fake's key could sign changed, and it did not.
func (s *Server) sealTampered(original, changed string) (string, error) {
	sig, err := yop.Sign(s.key, original)
	if err != nil {
		return "", err
	}
	return yop.SealWithSignature(s.merchant, changed, strings.TrimSuffix(sig, "$SHA256"))
}

// canonicalJSON writes fields as a JSON object in key order, so the same
// order always gives the same plaintext.
func canonicalJSON(fields map[string]string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := json.Marshal(k)
		vj, _ := json.Marshal(fields[k])
		b.Write(kj)
		b.WriteByte(':')
		b.Write(vj)
	}
	b.WriteByte('}')
	return b.String()
}
