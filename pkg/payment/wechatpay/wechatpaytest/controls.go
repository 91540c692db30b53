package wechatpaytest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"
)

// Payment is what the fake holds of one order.
type Payment struct {
	OutTradeNo, TransactionID string
	// State is the trade_state: NOTPAY, SUCCESS, REFUND, CLOSED, PAYERROR.
	State       string
	Description string
	CodeURL     string
	NotifyURL   string
	Total       int64
	Refunded    int64
	Fee         int64
	TimeExpire  time.Time
	SuccessTime time.Time
}

// Payment answers the order placed under tradeNo.
func (s *Server) Payment(tradeNo string) (Payment, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[tradeNo]
	if o == nil {
		return Payment{}, false
	}
	s.expire(o)
	p := Payment{
		OutTradeNo: o.outTradeNo, TransactionID: o.transactionID, State: o.state,
		Description: o.description, CodeURL: o.codeURL, NotifyURL: o.notifyURL,
		Total: o.total, Refunded: o.refunded, TimeExpire: o.timeExpire, SuccessTime: o.successTime,
	}
	if o.transactionID != "" {
		p.Fee = s.fee(o.total)
	}
	return p, true
}

// Fee is what the fake charged for the paid order under tradeNo (WeChat
// Pay reports it in the settlement bills, not in the API, so the channel
// answers Fee 0).
func (s *Server) Fee(tradeNo string) int64 {
	p, _ := s.Payment(tradeNo)
	return p.Fee
}

// Pay is the payer scanning the code and paying: the order becomes SUCCESS
// and its notification is sent to notify_url, again after each wait of the
// documented schedule until it is acknowledged (200 or 204) or MaxTries
// sends were made. Pay returns when delivery ended: nil once acknowledged.
// Run it in a goroutine where Options.Wait really waits.
func (s *Server) Pay(tradeNo string) error {
	s.mu.Lock()
	o := s.orders[tradeNo]
	if o == nil {
		s.mu.Unlock()
		return fmt.Errorf("wechatpaytest: no order %q", tradeNo)
	}
	s.expire(o)
	if o.state != "NOTPAY" {
		state := o.state
		s.mu.Unlock()
		return fmt.Errorf("wechatpaytest: order %q is %s, cannot be paid", tradeNo, state)
	}
	s.seq++
	o.state, o.stateDesc = "SUCCESS", "支付成功"
	o.transactionID = fmt.Sprintf("4200%024d", s.seq)
	o.openID = fmt.Sprintf("oUpF8uMuAJO_M2pxb1Q9zNjWeS%02d", s.seq%100)
	o.successTime = s.opts.Now()
	s.mu.Unlock()
	return s.Notify(tradeNo)
}

// Decline is the payment failing at the payer's bank: PAYERROR, which the
// query reports and no notification announces.
func (s *Server) Decline(tradeNo string) error {
	return s.setUnpaid(tradeNo, "PAYERROR", "支付失败，请重新下单支付")
}

// Expire is time_expire passing before the payer paid: CLOSED.
func (s *Server) Expire(tradeNo string) error {
	return s.setUnpaid(tradeNo, "CLOSED", "订单已关闭")
}

func (s *Server) setUnpaid(tradeNo, state, desc string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[tradeNo]
	switch {
	case o == nil:
		return fmt.Errorf("wechatpaytest: no order %q", tradeNo)
	case o.state != "NOTPAY":
		return fmt.Errorf("wechatpaytest: order %q is %s", tradeNo, o.state)
	}
	o.state, o.stateDesc = state, desc
	return nil
}

// SettleRefund ends a refund answered PROCESSING: status is SUCCESS,
// CLOSED or ABNORMAL, as the refund query will answer it. A refund that
// does not succeed gives its amount back to what can be refunded.
func (s *Server) SettleRefund(refundNo, status string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rf := s.refunds[refundNo]
	switch {
	case rf == nil:
		return fmt.Errorf("wechatpaytest: no refund %q", refundNo)
	case rf.status != "PROCESSING":
		return fmt.Errorf("wechatpaytest: refund %q is %s", refundNo, rf.status)
	}
	rf.status = status
	if status != "SUCCESS" {
		s.orders[rf.outTradeNo].refunded -= rf.amount
	}
	return nil
}

// FailNext answers the next requests, one per status, with that status and
// {"code": "SYSTEM_ERROR"} before checking anything.
func (s *Server) FailNext(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, statuses...)
}

// Hold makes requests wait until release is called (or their client gives
// up): WeChat Pay not answering.
func (s *Server) Hold() (release func()) {
	ch := make(chan struct{})
	s.mu.Lock()
	s.hold = ch
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.hold == ch {
			s.hold = nil
			close(ch)
		}
	}
}

// Delivery is one send of a notification.
type Delivery struct {
	ID      string // the notification's id (the same on every resend)
	TradeNo string
	URL     string
	Try     int           // 1 for the first send
	Waited  time.Duration // the wait before this send
	Header  http.Header
	Body    []byte
	Status  int    // the merchant's answer, 0 when the send failed
	Answer  []byte // its body
	Err     string // the transport error
}

// Acked says whether the merchant acknowledged: 200 or 204 (通知应答).
func (d Delivery) Acked() bool { return d.Status == http.StatusOK || d.Status == http.StatusNoContent }

// Notifications are the sends made so far, oldest first.
func (s *Server) Notifications() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.deliveries...)
}

// Notify sends the notification of the paid order under tradeNo as Pay
// does (again, for a paid order: WeChat Pay may repeat a notification).
func (s *Server) Notify(tradeNo string) error {
	n, err := s.BuildNotification(tradeNo)
	if err != nil {
		return err
	}
	s.mu.Lock()
	url := s.orders[tradeNo].notifyURL
	s.mu.Unlock()
	for try := 1; try <= s.opts.MaxTries; try++ {
		d := Delivery{ID: n.ID, TradeNo: tradeNo, URL: url, Try: try, Body: n.Body}
		if try > 1 {
			d.Waited = resendAfter[min(try-2, len(resendAfter)-1)]
			s.opts.Wait(d.Waited)
		}
		// Each send is signed afresh, so that a resend hours later still
		// carries a timestamp the merchant accepts.
		d.Header = s.SignNotification(n.Body)
		s.send(&d)
		s.mu.Lock()
		s.deliveries = append(s.deliveries, d)
		s.mu.Unlock()
		if d.Acked() {
			return nil
		}
	}
	return fmt.Errorf("wechatpaytest: notification %s to %s not acknowledged after %d sends", n.ID, url, s.opts.MaxTries)
}

func (s *Server) send(d *Delivery) {
	req, err := http.NewRequest(http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		d.Err = err.Error()
		return
	}
	for k, vs := range d.Header {
		req.Header[k] = vs
	}
	req.Header.Set("User-Agent", "Mozilla/4.0")
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		d.Err = err.Error()
		return
	}
	defer resp.Body.Close()
	d.Status = resp.StatusCode
	d.Answer, _ = io.ReadAll(io.LimitReader(resp.Body, 64<<10))
}

// Notice is a signed notification: what the fake posts to notify_url.
type Notice struct {
	ID     string
	Header http.Header
	Body   []byte
	// Transaction is the plaintext of the encrypted resource.
	Transaction []byte
}

// Request is the notice as the merchant's handler receives it.
func (n Notice) Request(target string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(n.Body))
	for k, vs := range n.Header {
		r.Header[k] = vs
	}
	return r
}

// BuildNotification makes the signed notification of the paid order under
// tradeNo without sending it (replay and forgery tests). An order has one
// notification: built again, or resent, it keeps its id and body, and only
// its signature headers are made afresh.
func (s *Server) BuildNotification(tradeNo string) (Notice, error) {
	s.mu.Lock()
	o := s.orders[tradeNo]
	if o == nil || o.transactionID == "" {
		s.mu.Unlock()
		return Notice{}, fmt.Errorf("wechatpaytest: no paid order %q", tradeNo)
	}
	if o.notice != nil {
		n := *o.notice
		s.mu.Unlock()
		n.Header = s.SignNotification(n.Body)
		return n, nil
	}
	tx := s.transaction(o)
	// The notification says what happened: the payment, whatever
	// refunds came later.
	tx["trade_state"], tx["trade_state_desc"] = "SUCCESS", "支付成功"
	s.mu.Unlock()
	plain, err := json.Marshal(tx)
	if err != nil {
		return Notice{}, err
	}
	n := s.SealTransaction(plain)
	s.mu.Lock()
	if o.notice == nil {
		o.notice = &n
	}
	n = *o.notice
	s.mu.Unlock()
	return n, nil
}

// SealTransaction wraps any transaction plaintext into a notification, the
// shape of 支付通知 (https://pay.weixin.qq.com/docs/merchant/apis/h5-payment/payment-notice.html):
// encrypted with AEAD_AES_256_GCM under the APIv3 key (如何解密证书和回调报文:
// 12-character nonce used as the GCM nonce bytes, associated_data
// "transaction", base64 of ciphertext and tag) and signed by the fake's
// WeChat Pay key. Tests use it to make notifications WeChat Pay would sign
// but the merchant must still judge (another amount, another merchant).
func (s *Server) SealTransaction(plain []byte) Notice {
	block, err := aes.NewCipher([]byte(s.opts.APIv3Key))
	if err != nil {
		panic(fmt.Sprintf("wechatpaytest: %v", err))
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		panic(fmt.Sprintf("wechatpaytest: %v", err))
	}
	nonce := randomString(12)
	const ad = "transaction"
	now := s.opts.Now()
	id := s.nextID("EV-" + now.In(china).Format("20060102150405"))
	env := map[string]any{
		"id":            id,
		"create_time":   now.In(china).Format("2006-01-02T15:04:05-07:00"),
		"resource_type": "encrypt-resource",
		"event_type":    "TRANSACTION.SUCCESS",
		"summary":       "支付成功",
		"resource": map[string]string{
			"original_type":   "transaction",
			"algorithm":       "AEAD_AES_256_GCM",
			"ciphertext":      base64.StdEncoding.EncodeToString(gcm.Seal(nil, []byte(nonce), plain, []byte(ad))),
			"associated_data": ad,
			"nonce":           nonce,
		},
	}
	body, err := json.Marshal(env)
	if err != nil {
		panic(fmt.Sprintf("wechatpaytest: %v", err))
	}
	return Notice{ID: id, Header: s.SignNotification(body), Body: body, Transaction: plain}
}

// SignNotification are the headers WeChat Pay signs a notification body
// with, at the fake's current time.
func (s *Server) SignNotification(body []byte) http.Header {
	h := s.signed(body)
	h.Set("Content-Type", "application/json")
	return h
}

const alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphanumeric[int(b[i])%len(alphanumeric)]
	}
	return string(b)
}
