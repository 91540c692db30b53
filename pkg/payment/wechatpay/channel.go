package wechatpay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/payment"
)

// Channel is WeChat Pay Native as a payment.Channel.
type Channel struct {
	client *Client
}

var _ payment.Channel = (*Channel)(nil)

// New makes the channel of one merchant's credentials.
func New(cfg Config) (*Channel, error) {
	c, err := NewClient(cfg)
	if err != nil {
		return nil, err
	}
	return &Channel{client: c}, nil
}

// Client is the channel's protocol client.
func (ch *Channel) Client() *Client { return ch.client }

// Name is "wechat-pay".
func (ch *Channel) Name() string { return Name }

// china is the zone time_expire is written in: the documentation's examples
// carry +08:00, and a numeric zone is what it asks for (never "Z").
var china = time.FixedZone("CST", 8*60*60)

// maxDescription is description's limit, string(127), counted in bytes.
const maxDescription = 127

// Create makes a Native payment; its Pending.QRCode is the code_url. A retry
// under the same key with the same order answers the same code_url (WeChat
// Pay's own idempotency on out_trade_no); a key already paid is
// payment.ErrAlreadyPaid.
func (ch *Channel) Create(ctx context.Context, c payment.Create) (payment.Pending, error) {
	if c.Currency != "CNY" {
		return payment.Pending{}, fmt.Errorf("wechat-pay create: currency %q, WeChat Pay Native takes CNY", c.Currency)
	}
	if c.Amount <= 0 {
		return payment.Pending{}, fmt.Errorf("wechat-pay create: amount %d", c.Amount)
	}
	if c.NotifyURL == "" {
		return payment.Pending{}, errors.New("wechat-pay create: no notify URL")
	}
	o := NativeOrder{
		Description: input.Clip(c.Subject, maxDescription),
		OutTradeNo:  payment.TradeNo(c.Key),
		NotifyURL:   c.NotifyURL,
		Amount:      Amount{Total: c.Amount, Currency: "CNY"},
	}
	if o.Description == "" {
		o.Description = o.OutTradeNo
	}
	if !c.ExpiresAt.IsZero() {
		o.TimeExpire = c.ExpiresAt.In(china).Format("2006-01-02T15:04:05-07:00")
	}
	code, err := ch.client.NativePrepay(ctx, o)
	if err != nil {
		if apiCode(err) == "ORDERPAID" {
			return payment.Pending{}, fmt.Errorf("wechat-pay create %s: %w: %w", o.OutTradeNo, payment.ErrAlreadyPaid, err)
		}
		return payment.Pending{}, err
	}
	return payment.Pending{QRCode: code, ExpiresAt: c.ExpiresAt}, nil
}

// Status queries the payment by its merchant order number.
func (ch *Channel) Status(ctx context.Context, key string) (payment.Status, error) {
	tx, err := ch.client.QueryByOutTradeNo(ctx, payment.TradeNo(key))
	if err != nil {
		if notFound(err) {
			return payment.Status{}, fmt.Errorf("wechat-pay query %s: %w: %w", payment.TradeNo(key), payment.ErrUnknownPayment, err)
		}
		return payment.Status{}, err
	}
	return statusOf(tx)
}

// Close closes an unpaid payment. It asks first, since closing a paid
// order must answer ErrAlreadyPaid and closing an unknown one is no error;
// ORDERPAID from the close itself covers a payer paying in between.
func (ch *Channel) Close(ctx context.Context, key string) error {
	no := payment.TradeNo(key)
	tx, err := ch.client.QueryByOutTradeNo(ctx, no)
	switch {
	case notFound(err):
		return nil
	case err != nil:
		return err
	}
	switch tx.TradeState {
	case TradeSuccess, TradeRefund:
		return fmt.Errorf("wechat-pay close %s: %w", no, payment.ErrAlreadyPaid)
	case TradeClosed, TradeRevoked, TradePayError:
		return nil
	}
	err = ch.client.CloseOrder(ctx, no)
	switch apiCode(err) {
	case "":
		return err
	case "ORDERPAID":
		return fmt.Errorf("wechat-pay close %s: %w: %w", no, payment.ErrAlreadyPaid, err)
	case "ORDER_CLOSED", "ORDER_NOT_EXIST":
		return nil
	}
	return err
}

// Refund asks for a refund under r.RefundKey (out_refund_no: WeChat Pay
// refunds once per refund number). A refund WeChat Pay answers CLOSED or
// ABNORMAL is payment.ErrDeclined.
func (ch *Channel) Refund(ctx context.Context, r payment.Refund) (payment.RefundResult, error) {
	if r.Currency != "CNY" {
		return payment.RefundResult{}, fmt.Errorf("wechat-pay refund: currency %q, WeChat Pay Native takes CNY", r.Currency)
	}
	if r.Amount <= 0 || r.Amount > r.Total {
		return payment.RefundResult{}, fmt.Errorf("wechat-pay refund: amount %d of %d", r.Amount, r.Total)
	}
	if r.RefundKey == "" {
		return payment.RefundResult{}, errors.New("wechat-pay refund: no refund key")
	}
	res, err := ch.client.CreateRefund(ctx, RefundRequest{
		OutTradeNo:  payment.TradeNo(r.Key),
		OutRefundNo: payment.TradeNo(r.RefundKey),
		Reason:      input.Clip(r.Reason, 80),
		Amount:      RefundAmount{Refund: r.Amount, Total: r.Total, Currency: "CNY"},
	})
	if err != nil {
		switch apiCode(err) {
		case "RESOURCE_NOT_EXISTS", "ORDER_NOT_EXIST":
			return payment.RefundResult{}, fmt.Errorf("wechat-pay refund %s: %w: %w", r.Key, payment.ErrUnknownPayment, err)
		case "NOT_ENOUGH", "USER_ACCOUNT_ABNORMAL":
			return payment.RefundResult{}, fmt.Errorf("wechat-pay refund %s: %w: %w", r.Key, payment.ErrDeclined, err)
		}
		return payment.RefundResult{}, err
	}
	switch res.Status {
	case "SUCCESS":
		return payment.RefundResult{Reference: res.RefundID, Done: true}, nil
	case "PROCESSING":
		return payment.RefundResult{Reference: res.RefundID}, nil
	}
	return payment.RefundResult{Reference: res.RefundID}, fmt.Errorf("wechat-pay refund %s: %w: status %s", r.Key, payment.ErrDeclined, res.Status)
}

// Notice verifies a payment notification and answers the transaction it
// carries. The amount is inside the signed, encrypted resource: a body
// changed in transit fails the signature (and the GCM tag), so it is
// ErrBadNotice; the protocol upstream still compares the amount with the
// payment's.
func (ch *Channel) Notice(ctx context.Context, r *http.Request, body []byte) (payment.Status, error) {
	_, tx, err := ch.client.ParseNotification(r.Header, body)
	if err != nil {
		ch.client.log.WarnContext(ctx, "wechat-pay notice does not verify", "err", err)
		return payment.Status{}, err
	}
	st, err := statusOf(tx)
	if err != nil {
		return payment.Status{}, fmt.Errorf("%w: %w", payment.ErrBadNotice, err)
	}
	return st, nil
}

// Ack answers a notification as the documentation asks (通知应答): success
// is 200 or 204 with no body; failure is 4xx or 5xx with
// {"code": "FAIL", "message": "失败"}, and WeChat Pay sends again. A notice
// that does not verify gets 400, anything else 500.
func (ch *Channel) Ack(w http.ResponseWriter, err error) {
	if err == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	status := http.StatusInternalServerError
	if errors.Is(err, payment.ErrBadNotice) {
		status = http.StatusBadRequest
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}{"FAIL", "失败"})
}

// statusOf maps a transaction to a payment status. REFUND ("转入退款") says a
// refund was made, not that it was whole, so it stays StatePaid: the money
// was taken, and Voyage knows its own refunds.
func statusOf(tx Transaction) (payment.Status, error) {
	st := payment.Status{
		Key:       tx.OutTradeNo,
		Reference: tx.TransactionID,
		Amount:    tx.Amount.Total,
		Currency:  tx.Amount.Currency,
	}
	if st.Currency == "" {
		st.Currency = "CNY"
	}
	switch tx.TradeState {
	case TradeSuccess, TradeRefund:
		st.State = payment.StatePaid
		if tx.SuccessTime != "" {
			t, err := time.Parse(time.RFC3339, tx.SuccessTime)
			if err != nil {
				return payment.Status{}, fmt.Errorf("wechat-pay: success_time %q: %w", tx.SuccessTime, err)
			}
			st.PaidAt = t
		}
	case TradeNotPay, TradeUserPaying:
		st.State = payment.StatePending
	case TradeClosed, TradeRevoked, TradePayError:
		st.State = payment.StateClosed
	default:
		return payment.Status{}, fmt.Errorf("wechat-pay: trade_state %q", tx.TradeState)
	}
	return st, nil
}

func apiCode(err error) string {
	var e *APIError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func notFound(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}
