package yeepay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/yeepay/internal/yop"
)

var _ payment.Channel = (*Channel)(nil)

// Currency is the one currency Yeepay's trade APIs take.
const Currency = "CNY"

// Channel is one spec payment channel on Yeepay: a way of paying
// (payment.MethodAlipay, MethodWechat, MethodCreditCard, MethodDebitCard)
// over one application's client. Every method of the application's
// payments works on any of its channels (Status, Close, Refund, Notice
// ask by merchant order number).
type Channel struct {
	client *Client
	method string
}

// New is the channel of method on a new client of cfg.
func New(cfg Config, method string) (*Channel, error) {
	c, err := NewClient(cfg)
	if err != nil {
		return nil, err
	}
	return c.Channel(method)
}

// Channel is the client's channel for method; the four channels of one
// application share the client.
func (c *Client) Channel(method string) (*Channel, error) {
	switch method {
	case payment.MethodAlipay, payment.MethodWechat, payment.MethodCreditCard, payment.MethodDebitCard:
		return &Channel{client: c, method: method}, nil
	}
	return nil, fmt.Errorf("yeepay: no way of paying %q (alipay, wechat, credit-card, debit-card)", method)
}

// Name is "yeepay-" and the method: yeepay-alipay, yeepay-wechat,
// yeepay-credit-card, yeepay-debit-card.
func (ch *Channel) Name() string { return "yeepay-" + ch.method }

// Create makes the trade order and, for a wallet, its QR code; for a card
// the signed cashier page. A retry under the same key finds the order
// Yeepay already has and answers it again.
func (ch *Channel) Create(ctx context.Context, c payment.Create) (payment.Pending, error) {
	if c.Method != "" && c.Method != ch.method {
		return payment.Pending{}, fmt.Errorf("yeepay: channel %s asked to pay by %q", ch.Name(), c.Method)
	}
	if c.Currency != Currency {
		return payment.Pending{}, fmt.Errorf("yeepay: currency %q refused: Yeepay takes CNY only", c.Currency)
	}
	if c.Amount <= 0 {
		return payment.Pending{}, fmt.Errorf("yeepay: amount %d fen is not positive", c.Amount)
	}
	if c.Key == "" || c.NotifyURL == "" {
		return payment.Pending{}, errors.New("yeepay: a payment needs a key and a notify URL")
	}
	o := Order{OrderID: c.Key, Amount: c.Amount, GoodsName: goodsName(c.Subject), NotifyURL: c.NotifyURL, RedirectURL: c.ReturnURL, ExpiresAt: c.ExpiresAt}
	res, err := ch.client.TradeOrder(ctx, o)
	var re *ResultError
	if errors.As(err, &re) {
		// Yeepay may refuse an orderId it already has; the order it has is
		// the answer when it is this one and still payable.
		res, err = ch.existing(ctx, o, err)
	}
	if err != nil {
		return payment.Pending{}, err
	}
	p := payment.Pending{Reference: res.UniqueOrderNo, ExpiresAt: c.ExpiresAt}
	switch ch.method {
	case payment.MethodAlipay, payment.MethodWechat:
		wallet := WalletAlipay
		if ch.method == payment.MethodWechat {
			wallet = WalletWechat
		}
		pre, err := ch.client.PrePay(ctx, o, res.Token, wallet)
		if err != nil {
			return payment.Pending{}, err
		}
		p.QRCode = pre.PrePayTn
		if pre.UniqueOrderNo != "" {
			p.Reference = pre.UniqueOrderNo
		}
	default:
		card := CardCredit
		if ch.method == payment.MethodDebitCard {
			card = CardDebit
		}
		if p.RedirectURL, err = ch.client.CashierPage(res.Token, card, c.Key); err != nil {
			return payment.Pending{}, err
		}
	}
	return p, nil
}

// existing answers the order Yeepay already has under o.OrderID when it is
// o (same amount) and still payable, else refused.
func (ch *Channel) existing(ctx context.Context, o Order, refused error) (OrderResult, error) {
	s, err := ch.client.Query(ctx, o.OrderID)
	if errors.Is(err, payment.ErrUnknownPayment) {
		return OrderResult{}, refused
	}
	if err != nil {
		return OrderResult{}, err
	}
	switch {
	case s.OrderAmount != o.Amount:
		return OrderResult{}, fmt.Errorf("yeepay: order %s exists for %s yuan, not %s: %w", o.OrderID, Yuan(s.OrderAmount), Yuan(o.Amount), refused)
	case s.Status == "SUCCESS" || s.Status == "REPAY":
		return OrderResult{}, fmt.Errorf("yeepay: order %s: %w", o.OrderID, payment.ErrAlreadyPaid)
	case s.Status != "PROCESSING" || s.Token == "":
		return OrderResult{}, fmt.Errorf("yeepay: order %s is %s: %w", o.OrderID, s.Status, refused)
	}
	return OrderResult{Token: s.Token, UniqueOrderNo: s.UniqueOrderNo}, nil
}

// goodsName is the subject as Yeepay's goodsName: plain, never empty.
func goodsName(subject string) string {
	s := strings.Join(strings.Fields(subject), " ")
	if s == "" {
		return "Voyage"
	}
	if r := []rune(s); len(r) > 128 {
		s = string(r[:128])
	}
	return s
}

// state is Yeepay's order status as a payment state.
func state(status string) (string, error) {
	switch status {
	case "PROCESSING":
		return payment.StatePending, nil
	// REPAY is a second payment of a paid order: still paid (Yeepay refunds
	// the duplicate).
	case "SUCCESS", "REPAY":
		return payment.StatePaid, nil
	case "CLOSE", "TIME_OUT", "FAIL":
		return payment.StateClosed, nil
	}
	return "", fmt.Errorf("yeepay: unknown order status %q", status)
}

func (ch *Channel) paymentStatus(s OrderStatus) (payment.Status, error) {
	st, err := state(s.Status)
	if err != nil {
		return payment.Status{}, err
	}
	out := payment.Status{Key: s.OrderID, Reference: s.UniqueOrderNo, State: st, Amount: s.OrderAmount, Currency: Currency}
	if st == payment.StatePaid {
		out.Fee, out.PaidAt = s.MerchantFee, s.PaySuccessDate
	}
	return out, nil
}

// Status asks Yeepay's order query. The query does not report refunds, so
// a refunded order still reads paid; the refund's own answer says it.
func (ch *Channel) Status(ctx context.Context, key string) (payment.Status, error) {
	s, err := ch.client.Query(ctx, key)
	if err != nil {
		return payment.Status{}, err
	}
	return ch.paymentStatus(s)
}

// Close closes the order unless it is paid (ErrAlreadyPaid), already
// over or unknown (no error).
func (ch *Channel) Close(ctx context.Context, key string) error {
	s, err := ch.Status(ctx, key)
	switch {
	case errors.Is(err, payment.ErrUnknownPayment):
		return nil
	case err != nil:
		return err
	case s.State == payment.StatePaid || s.State == payment.StateRefunded:
		return fmt.Errorf("yeepay close %s: %w", key, payment.ErrAlreadyPaid)
	case s.State == payment.StateClosed:
		return nil
	}
	closeErr := ch.client.CloseOrder(ctx, key)
	if closeErr == nil {
		return nil
	}
	// The payer may have paid between the query and the close.
	if s, err := ch.Status(ctx, key); err == nil {
		switch s.State {
		case payment.StatePaid, payment.StateRefunded:
			return fmt.Errorf("yeepay close %s: %w", key, payment.ErrAlreadyPaid)
		case payment.StateClosed:
			return nil
		}
	}
	return closeErr
}

// Refund asks Yeepay to refund; Done once Yeepay says SUCCESS (it often
// answers PROCESSING first and notifies or is asked later).
func (ch *Channel) Refund(ctx context.Context, r payment.Refund) (payment.RefundResult, error) {
	if r.Currency != "" && r.Currency != Currency {
		return payment.RefundResult{}, fmt.Errorf("yeepay: refund currency %q refused: Yeepay takes CNY only", r.Currency)
	}
	if r.Amount <= 0 || r.RefundKey == "" {
		return payment.RefundResult{}, errors.New("yeepay: a refund needs a positive amount and a refund key")
	}
	res, err := ch.client.Refund(ctx, r.Key, r.RefundKey, r.Amount, r.Reason)
	if err != nil {
		return payment.RefundResult{}, err
	}
	if res.Status == "FAILED" || res.Status == "CANCEL" {
		return payment.RefundResult{}, fmt.Errorf("%w: yeepay refund %s is %s", payment.ErrDeclined, r.RefundKey, res.Status)
	}
	return payment.RefundResult{Reference: res.UniqueRefundNo, Done: res.Status == "SUCCESS"}, nil
}

// Notice opens the notification's digital envelope with the merchant key,
// verifies Yeepay's signature inside it and answers what it says. The
// amount is inside the signed envelope: a changed amount fails the
// signature (ErrBadNotice), never reads as another amount.
func (ch *Channel) Notice(_ context.Context, r *http.Request, body []byte) (payment.Status, error) {
	bad := func(format string, args ...any) (payment.Status, error) {
		return payment.Status{}, fmt.Errorf("%w: yeepay: "+format, append([]any{payment.ErrBadNotice}, args...)...)
	}
	if r.Method != http.MethodPost {
		return bad("method %s", r.Method)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return bad("body is not a form: %v", err)
	}
	response := form.Get("response")
	if response == "" {
		return bad("form has no response")
	}
	if app := form.Get("customerIdentification"); app != "" && app != ch.client.cfg.AppKey {
		return bad("for application %q", app)
	}
	plain, err := yop.OpenEnvelope(ch.client.key, ch.client.yeepay, response)
	if err != nil {
		return bad("%v", err)
	}
	var n orderReport
	if err := json.Unmarshal([]byte(plain), &n); err != nil {
		return bad("plaintext: %v", err)
	}
	if n.MerchantNo != "" && n.MerchantNo != ch.client.cfg.MerchantNo || n.ParentMerchantNo != "" && n.ParentMerchantNo != ch.client.cfg.ParentMerchantNo {
		return bad("for merchant %s/%s", n.ParentMerchantNo, n.MerchantNo)
	}
	if n.OrderID == "" {
		return bad("no orderId")
	}
	os, err := statusAnswer{orderReport: n}.status()
	if err != nil {
		return bad("%v", err)
	}
	st, err := ch.paymentStatus(os)
	if err != nil {
		return bad("%v", err)
	}
	return st, nil
}

// Ack answers a notification as Yeepay expects: HTTP 200 and SUCCESS when
// it is taken, else HTTP 500 so Yeepay sends it again (结果通知(RSA):
// 响应规范).
func (ch *Channel) Ack(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err == nil {
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, "SUCCESS")
		return
	}
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = io.WriteString(w, "FAIL")
}
