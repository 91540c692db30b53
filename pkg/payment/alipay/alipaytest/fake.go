// Package alipaytest is a local fake of the Alipay open platform gateway for
// face-to-face QR payments: an http.Handler that checks requests as Alipay
// checks them (application, RSA2 signature with the merchant's public key,
// timestamp), keeps trades in memory, signs its answers and its
// asynchronous notifications with its own Alipay key, and resends a
// notification until the merchant answers "success".
//
// Shapes follow the Alipay open platform documentation (opendocs.alipay.com):
// "统一收单线下交易预创建" (alipay.trade.precreate), "统一收单交易查询"
// (alipay.trade.query), "统一收单交易关闭接口" (alipay.trade.close),
// "统一收单交易退款接口" (alipay.trade.refund), "异步通知说明"
// (/open/270/105902), and the English edition "当面付-英文版" on
// open.alitrip.com (articles 104628, 104629, 104634, 104636).
package alipaytest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/alipay"
	"github.com/voyage/voyage/pkg/payment/rsakey"
)

// Options configure a fake.
type Options struct {
	// AppID is the merchant's application (default DefaultAppID).
	AppID string
	// MerchantKey is the application public key the merchant uploaded:
	// requests must be signed with its private key. MerchantKeyPEM gives
	// it as text instead (PEM or bare base64).
	MerchantKey    *rsa.PublicKey
	MerchantKeyPEM string
	// AlipayKey signs the fake's answers and notifications; nil makes one
	// (2048 bits: slow, so tests share one).
	AlipayKey *rsa.PrivateKey
	// FeePermille is the fee charged on a paid trade in thousandths of its
	// amount (Alipay's standard 0.6% is 6), rounded half up to the fen.
	FeePermille int64
	// MaxTries is how many times a notification is sent at most (default
	// 8, as Alipay: "25 小时以内完成 8 次通知").
	MaxTries int
	// Wait waits d before a resend; tests pass one that does not sleep.
	// The default waits on a timer, Alipay's schedule in full.
	Wait func(ctx context.Context, d time.Duration) error
	// Client sends the notifications (default: 10 s timeout, redirects not
	// followed).
	Client *http.Client
	// Now is the fake's clock (default time.Now).
	Now func() time.Time
	// Lazy makes a trade exist only once its QR code is scanned (Scan or
	// Pay), as at Alipay: until then query, close and refund answer
	// ACQ.TRADE_NOT_EXIST. The default makes it at precreate.
	Lazy bool
	// AllowHyphen lets out_trade_no hold '-': the documentation allows
	// letters, digits and '_' only ("仅支持字母、数字、下划线").
	AllowHyphen bool
}

// DefaultAppID is the application a fake serves unless told otherwise.
const DefaultAppID = "2021000000000001"

// ResendSchedule is the wait before each resend of a notification that was
// not answered "success" ("异步通知说明": 4m,10m,10m,1h,2h,6h,15h).
var ResendSchedule = []time.Duration{4 * time.Minute, 10 * time.Minute, 10 * time.Minute, time.Hour, 2 * time.Hour, 6 * time.Hour, 15 * time.Hour}

// Server is the fake gateway.
type Server struct {
	o      Options
	key    *rsa.PrivateKey
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	trades map[string]*trade // by out_trade_no
	seq    int
	notes  []*Notification
	fail   int
}

type trade struct {
	outTradeNo, tradeNo, subject, qrCode, notifyURL string
	amount, fee, refunded                           int64
	status                                          string
	exists                                          bool // scanned, or not Lazy
	created, paidAt, closedAt, refundedAt           time.Time
	expire                                          time.Time
	refunds                                         map[string]int64 // out_request_no → amount
}

// Trade is what the fake holds of one payment.
type Trade struct {
	OutTradeNo, TradeNo, Status, QRCode, NotifyURL string
	Amount, Fee, Refunded                          int64 // fen
	Exists                                         bool
	Expire, PaidAt                                 time.Time
}

// Notification is one notification and what became of its sending.
type Notification struct {
	OutTradeNo  string
	TradeStatus string
	URL         string
	Body        []byte // the signed form, the same at every try
	// Answers are the merchant's answers, one a try ("error: …" when the
	// POST failed).
	Answers   []string
	Delivered bool
}

// New answers a fake gateway; call Close to stop its resends.
func New(o Options) *Server {
	if o.AppID == "" {
		o.AppID = DefaultAppID
	}
	if o.MerchantKey == nil && o.MerchantKeyPEM != "" {
		k, err := rsakey.ParsePublic(o.MerchantKeyPEM)
		if err != nil {
			panic(fmt.Sprintf("alipaytest: the merchant's key: %v", err))
		}
		o.MerchantKey = k
	}
	if o.MerchantKey == nil {
		panic("alipaytest: Options.MerchantKey is required: the fake checks every request's signature")
	}
	if o.MaxTries <= 0 {
		o.MaxTries = len(ResendSchedule) + 1
	}
	if o.Wait == nil {
		o.Wait = sleep
	}
	if o.Client == nil {
		o.Client = payment.HTTPClient(nil, 10*time.Second)
	}
	o.Now = payment.Clock(o.Now)
	key := o.AlipayKey
	if key == nil {
		var err error
		if key, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(fmt.Sprintf("alipaytest: generating Alipay's key: %v", err))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{o: o, key: key, ctx: ctx, cancel: cancel, trades: map[string]*trade{}}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the resends in flight and waits for them.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

// Drain waits until every notification sent so far is delivered or given
// up on.
func (s *Server) Drain() { s.wg.Wait() }

// AppID is the application the fake serves.
func (s *Server) AppID() string { return s.o.AppID }

// PublicKeyPEM is Alipay's public key, for the merchant's configuration.
func (s *Server) PublicKeyPEM() string { return PublicKeyPEM(&s.key.PublicKey) }

// Fee is what the fake charges on a payment of amount fen.
func (s *Server) Fee(amount int64) int64 { return (amount*s.o.FeePermille + 500) / 1000 }

// FailNext makes the next n calls to the gateway answer 502 Bad Gateway.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = n
}

// Trade answers what the fake holds under out_trade_no.
func (s *Server) Trade(outTradeNo string) (Trade, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.trades[outTradeNo]
	if !ok {
		return Trade{}, false
	}
	s.expireLocked(t)
	return Trade{OutTradeNo: t.outTradeNo, TradeNo: t.tradeNo, Status: t.status, QRCode: t.qrCode, NotifyURL: t.notifyURL,
		Amount: t.amount, Fee: t.fee, Refunded: t.refunded, Exists: t.exists, Expire: t.expire, PaidAt: t.paidAt}, true
}

// Scanned answers the out_trade_no of the trade whose QR code is qrCode:
// what the payer's phone finds on scanning the code the merchant shows,
// to pass to Scan or Pay.
func (s *Server) Scanned(qrCode string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for no, t := range s.trades {
		if t.qrCode == qrCode {
			return no, true
		}
	}
	return "", false
}

// Notifications answers every notification sent so far, oldest first.
func (s *Server) Notifications() []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Notification, len(s.notes))
	for i, n := range s.notes {
		out[i] = *n
		out[i].Body = append([]byte(nil), n.Body...)
		out[i].Answers = append([]string(nil), n.Answers...)
	}
	return out
}

// ErrNotPayable: Pay, Scan, Decline or Expire found no trade waiting.
var ErrNotPayable = errors.New("alipaytest: no trade waiting for the payer")

// Scan is the payer scanning the QR code: with Lazy, the trade exists from
// now on (WAIT_BUYER_PAY).
func (s *Server) Scan(outTradeNo string) error {
	return s.onWaiting(outTradeNo, func(t *trade) { t.exists = true })
}

// Pay is the payer paying: the trade is TRADE_SUCCESS and a notification
// goes to its notify_url.
func (s *Server) Pay(outTradeNo string) error {
	return s.onWaiting(outTradeNo, func(t *trade) {
		t.exists = true
		t.status = alipay.TradeSuccess
		t.paidAt = s.now()
		t.fee = s.Fee(t.amount)
		s.notifyLocked(t, nil)
	})
}

// Decline is the payment failing at Alipay (the payer gives up, risk
// control refuses it): the trade closes, with a notification when it
// existed.
func (s *Server) Decline(outTradeNo string) error {
	return s.closeWaiting(outTradeNo)
}

// Expire is the trade's time_expire passing before it was paid.
func (s *Server) Expire(outTradeNo string) error {
	return s.closeWaiting(outTradeNo)
}

func (s *Server) closeWaiting(outTradeNo string) error {
	return s.onWaiting(outTradeNo, func(t *trade) { s.closeLocked(t, true) })
}

// onWaiting does what the payer or Alipay does to the trade waiting for its
// payer, under the lock; ErrNotPayable when there is none.
func (s *Server) onWaiting(outTradeNo string, act func(t *trade)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.waitingLocked(outTradeNo)
	if err != nil {
		return err
	}
	act(t)
	return nil
}

func (s *Server) waitingLocked(outTradeNo string) (*trade, error) {
	t, ok := s.trades[outTradeNo]
	if ok {
		s.expireLocked(t)
	}
	if !ok || t.status != alipay.WaitBuyerPay {
		return nil, fmt.Errorf("%w: %q", ErrNotPayable, outTradeNo)
	}
	return t, nil
}

// expireLocked closes a waiting trade whose time_expire has passed.
func (s *Server) expireLocked(t *trade) {
	if t.status == alipay.WaitBuyerPay && !t.expire.IsZero() && !s.now().Before(t.expire) {
		s.closeLocked(t, true)
	}
}

func (s *Server) closeLocked(t *trade, notify bool) {
	t.status = alipay.TradeClosed
	t.closedAt = s.now()
	if notify && t.exists {
		s.notifyLocked(t, nil)
	}
}

func (s *Server) now() time.Time { return s.o.Now().In(alipay.Beijing) }

// NotificationBody builds, signs and answers the notification the trade's
// present state makes, without sending it (for replay and forgery tests).
func (s *Server) NotificationBody(outTradeNo string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.trades[outTradeNo]
	if !ok {
		return nil, fmt.Errorf("alipaytest: no trade %q", outTradeNo)
	}
	return s.SignNotification(s.notificationLocked(t, nil)), nil
}

// SignNotification signs form as Alipay signs a notification (sign_type
// RSA2; sign over the sorted rest) and answers the encoded body.
func (s *Server) SignNotification(form url.Values) []byte {
	f := url.Values{}
	for k, v := range form {
		f[k] = append([]string(nil), v...)
	}
	f.Del("sign")
	f.Set("sign_type", "RSA2")
	sign, err := alipay.Sign(s.key, []byte(alipay.SignContent(f, "sign", "sign_type")))
	if err != nil {
		panic(err) // signing with a valid key does not fail
	}
	f.Set("sign", sign)
	return []byte(f.Encode())
}

// notificationLocked is the notification of t's state, unsigned: the
// parameters of "异步通知说明" that a face-to-face payment carries.
func (s *Server) notificationLocked(t *trade, refund *refundNote) url.Values {
	now := s.now()
	s.seq++
	f := url.Values{
		"notify_time":  {now.Format(alipay.TimeLayout)},
		"notify_type":  {"trade_status_sync"},
		"notify_id":    {fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%s/%d", t.outTradeNo, s.seq)))[:34]},
		"app_id":       {s.o.AppID},
		"auth_app_id":  {s.o.AppID},
		"charset":      {"utf-8"},
		"version":      {"1.0"},
		"trade_no":     {t.tradeNo},
		"out_trade_no": {t.outTradeNo},
		"seller_id":    {"2088102146225135"},
		"trade_status": {t.status},
		"total_amount": {alipay.Yuan(t.amount)},
		"subject":      {t.subject},
		"gmt_create":   {t.created.Format(alipay.TimeLayout)},
	}
	if !t.paidAt.IsZero() {
		paid := alipay.Yuan(t.amount)
		f.Set("buyer_id", "2088102122524333")
		f.Set("buyer_logon_id", "159****5620")
		f.Set("receipt_amount", paid)
		f.Set("invoice_amount", paid)
		f.Set("buyer_pay_amount", paid)
		f.Set("point_amount", "0.00")
		f.Set("gmt_payment", t.paidAt.Format(alipay.TimeLayout))
		f.Set("fund_bill_list", fmt.Sprintf(`[{"amount":"%s","fundChannel":"ALIPAYACCOUNT"}]`, paid))
	}
	if t.status == alipay.TradeClosed {
		f.Set("gmt_close", t.closedAt.Format(alipay.TimeLayout))
	}
	if refund != nil {
		f.Set("out_biz_no", refund.outRequestNo)
		f.Set("refund_fee", alipay.Yuan(t.refunded))
		f.Set("gmt_refund", t.refundedAt.Format("2006-01-02 15:04:05.000"))
	}
	return f
}

type refundNote struct{ outRequestNo string }

// notifyLocked signs t's notification and sends it in the background,
// resending on Alipay's schedule until "success" or MaxTries.
func (s *Server) notifyLocked(t *trade, refund *refundNote) {
	if t.notifyURL == "" {
		return
	}
	n := &Notification{OutTradeNo: t.outTradeNo, TradeStatus: t.status, URL: t.notifyURL,
		Body: s.SignNotification(s.notificationLocked(t, refund))}
	s.notes = append(s.notes, n)
	s.wg.Add(1)
	go s.deliver(n)
}

func (s *Server) deliver(n *Notification) {
	defer s.wg.Done()
	for try := 0; try < s.o.MaxTries; try++ {
		if try > 0 {
			if s.o.Wait(s.ctx, ResendSchedule[min(try-1, len(ResendSchedule)-1)]) != nil {
				return
			}
		}
		answer := s.post(n)
		s.mu.Lock()
		n.Answers = append(n.Answers, answer)
		n.Delivered = answer == alipay.AckSuccess
		s.mu.Unlock()
		if answer == alipay.AckSuccess {
			return
		}
	}
}

func (s *Server) post(n *Notification) string {
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, n.URL, strings.NewReader(string(n.Body)))
	if err != nil {
		return "error: " + err.Error()
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	resp, err := s.o.Client.Do(req)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("HTTP %d: %s", resp.StatusCode, b)
	}
	// Alipay takes the seven characters "success" and nothing else.
	return string(b)
}

// PublicKeyPEM writes a public key as PEM (PKIX, "PUBLIC KEY").
func PublicKeyPEM(k *rsa.PublicKey) string { return rsakey.PublicPEM(k) }

// PrivateKeyPEM writes a private key as PEM (PKCS#8, "PRIVATE KEY"), as
// Alipay's key tool does.
func PrivateKeyPEM(k *rsa.PrivateKey) string { return rsakey.PrivatePEM(k) }

// qrCode is the code of a trade: the same for the same out_trade_no, as
// Alipay answers a retried precreate.
func (s *Server) qrCode(outTradeNo string) string {
	sum := sha256.Sum256([]byte(s.o.AppID + "/" + outTradeNo))
	return "https://qr.alipay.com/bax0" + hex.EncodeToString(sum[:])[:20]
}

// answer writes a signed answer: {"<method>_response":{…},"sign":"…"}, the
// sign over the node's text (Source: the precreate samples of "当面付-英文版",
// open.alitrip.com article 104629).
func (s *Server) answer(w http.ResponseWriter, node string, body map[string]any) {
	raw, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	sign, err := alipay.Sign(s.key, raw)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	signJSON, _ := json.Marshal(sign)
	w.Header().Set("Content-Type", "text/html;charset=utf-8")
	fmt.Fprintf(w, `{"%s":%s,"sign":%s}`, node, raw, signJSON)
}
