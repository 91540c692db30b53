package alipay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment"
)

// Name is the spec's channel name.
const Name = "alipay"

// Currency is the one currency Alipay's face-to-face payment takes.
const Currency = "CNY"

// Gateway methods.
const (
	MethodPrecreate = "alipay.trade.precreate"
	MethodQuery     = "alipay.trade.query"
	MethodClose     = "alipay.trade.close"
	MethodRefund    = "alipay.trade.refund"
)

// Trade states (trade_status) of alipay.trade.query and the notifications.
const (
	WaitBuyerPay  = "WAIT_BUYER_PAY"
	TradeSuccess  = "TRADE_SUCCESS"
	TradeFinished = "TRADE_FINISHED"
	TradeClosed   = "TRADE_CLOSED"
)

// tradeState is the payment state of a trade_status, as the query answers
// it and the notifications tell it. A full refund closes a paid trade:
// refunded says whether the trade was paid before it closed (the query
// tells by send_pay_date, a notification by refund_fee). ok is false for a
// status Alipay does not document.
func tradeState(status string, refunded bool) (state string, ok bool) {
	switch status {
	case WaitBuyerPay:
		return payment.StatePending, true
	case TradeSuccess, TradeFinished:
		return payment.StatePaid, true
	case TradeClosed:
		if refunded {
			return payment.StateRefunded, true
		}
		return payment.StateClosed, true
	}
	return "", false
}

// The answers to a notification (异步通知: anything but "success" makes
// Alipay send it again).
const (
	AckSuccess = "success"
	AckFailure = "fail"
)

// Channel is Alipay behind payment.Channel.
type Channel struct {
	*Client
}

var _ payment.Channel = (*Channel)(nil)

// New answers the Alipay channel of cfg.
func New(cfg Config) (*Channel, error) {
	c, err := NewClient(cfg)
	if err != nil {
		return nil, err
	}
	return &Channel{Client: c}, nil
}

// Name implements payment.Channel.
func (ch *Channel) Name() string { return Name }

// ErrCurrency: Alipay takes CNY only.
var ErrCurrency = errors.New("alipay: Alipay takes CNY only")

func checkMoney(amount int64, currency string) error {
	if currency != Currency {
		return fmt.Errorf("%w, not %q", ErrCurrency, currency)
	}
	if amount <= 0 {
		return fmt.Errorf("alipay: amount %d fen is not positive", amount)
	}
	return nil
}

// Create implements payment.Channel with alipay.trade.precreate: the answer
// is the QR code the payer scans. Alipay answers the same QR code to a
// retry under the same out_trade_no while the trade waits; it refuses a
// paid one (ErrAlreadyPaid) and a closed one (ErrDeclined).
//
// Precreate gives no trade_no: Alipay makes the trade when the payer
// scans, so Pending.Reference is empty and alipay.trade.query answers
// ACQ.TRADE_NOT_EXIST (ErrUnknownPayment) until then.
func (ch *Channel) Create(ctx context.Context, c payment.Create) (payment.Pending, error) {
	if err := checkMoney(c.Amount, c.Currency); err != nil {
		return payment.Pending{}, err
	}
	subject := plainSubject(c.Subject)
	if c.Key == "" || subject == "" {
		return payment.Pending{}, errors.New("alipay: a payment needs a key and a subject")
	}
	biz := precreateBiz{
		OutTradeNo:  c.Key,
		TotalAmount: Yuan(c.Amount),
		Subject:     subject,
	}
	if !c.ExpiresAt.IsZero() {
		biz.TimeExpire = c.ExpiresAt.In(Beijing).Format(TimeLayout)
	}
	var out struct {
		OutTradeNo string `json:"out_trade_no"`
		QRCode     string `json:"qr_code"`
	}
	err := ch.Call(ctx, MethodPrecreate, c.NotifyURL, biz, &out)
	var e *Error
	switch {
	case errors.As(err, &e) && e.SubCode == SubTradeHasSuccess:
		return payment.Pending{}, fmt.Errorf("%w: %w", payment.ErrAlreadyPaid, err)
	case errors.As(err, &e) && e.SubCode == SubTradeHasClose:
		return payment.Pending{}, fmt.Errorf("%w: %w", payment.ErrDeclined, err)
	case err != nil:
		return payment.Pending{}, err
	case out.QRCode == "" || out.OutTradeNo != c.Key:
		return payment.Pending{}, fmt.Errorf("%w: alipay precreate: answer for %q without a QR code", payment.ErrPaymentTimeout, out.OutTradeNo)
	}
	return payment.Pending{QRCode: out.QRCode, ExpiresAt: c.ExpiresAt}, nil
}

// Business parameters (biz_content) of the methods, as the API pages name
// them: "统一收单线下交易预创建" (alipay.trade.precreate), "统一收单交易退款接口"
// (alipay.trade.refund); query and close take out_trade_no alone.
type precreateBiz struct {
	OutTradeNo  string `json:"out_trade_no"`
	TotalAmount string `json:"total_amount"`
	Subject     string `json:"subject"`
	TimeExpire  string `json:"time_expire,omitempty"`
}

type tradeBiz struct {
	OutTradeNo string `json:"out_trade_no"`
}

type refundBiz struct {
	OutTradeNo   string `json:"out_trade_no"`
	RefundAmount string `json:"refund_amount"`
	OutRequestNo string `json:"out_request_no"`
	RefundReason string `json:"refund_reason,omitempty"`
}

// queryAnswer is the part of alipay.trade.query's answer the channel reads
// ("统一收单交易查询": trade_no, out_trade_no, trade_status, total_amount,
// send_pay_date, charge_amount).
type queryAnswer struct {
	TradeNo      string          `json:"trade_no"`
	OutTradeNo   string          `json:"out_trade_no"`
	TradeStatus  string          `json:"trade_status"`
	TotalAmount  payment.Decimal `json:"total_amount"`
	SendPayDate  string          `json:"send_pay_date"`
	ChargeAmount payment.Decimal `json:"charge_amount"`
}

// Status implements payment.Channel with alipay.trade.query. A trade that
// was paid and then refunded in full is TRADE_CLOSED with the date it was
// paid (send_pay_date): that is StateRefunded; TRADE_CLOSED without one
// was never paid. TRADE_FINISHED (no refund possible any more) is paid.
func (ch *Channel) Status(ctx context.Context, key string) (payment.Status, error) {
	var out queryAnswer
	err := unknownTrade(ch.Call(ctx, MethodQuery, "", tradeBiz{OutTradeNo: key}, &out))
	switch {
	case err != nil:
		return payment.Status{}, err
	case out.OutTradeNo != "" && out.OutTradeNo != key:
		return payment.Status{}, fmt.Errorf("%w: alipay query %q answered %q", payment.ErrPaymentTimeout, key, out.OutTradeNo)
	}
	total, err := fen(out.TotalAmount)
	if err != nil {
		return payment.Status{}, fmt.Errorf("%w: alipay query: %w", payment.ErrPaymentTimeout, err)
	}
	fee, err := fen(out.ChargeAmount)
	if err != nil {
		return payment.Status{}, fmt.Errorf("%w: alipay query: %w", payment.ErrPaymentTimeout, err)
	}
	paidAt, _ := parseTime(out.SendPayDate)
	state, ok := tradeState(out.TradeStatus, out.SendPayDate != "")
	if !ok {
		return payment.Status{}, fmt.Errorf("%w: alipay query: trade_status %q", payment.ErrPaymentTimeout, out.TradeStatus)
	}
	return payment.Status{Key: key, Reference: out.TradeNo, State: state, Amount: total, Currency: Currency, Fee: fee, PaidAt: paidAt}, nil
}

// Close implements payment.Channel with alipay.trade.close. Alipay answers
// ACQ.TRADE_NOT_EXIST for a QR code nobody scanned yet: that is no error,
// but such a code stays payable until its time_expire, so a late payment
// must still be expected (and refunded).
func (ch *Channel) Close(ctx context.Context, key string) error {
	err := ch.Call(ctx, MethodClose, "", tradeBiz{OutTradeNo: key}, nil)
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e) && e.SubCode == SubTradeNotExist:
		return nil
	case errors.As(err, &e) && (e.SubCode == SubTradeStatus || e.SubCode == SubTradeHasClose || e.SubCode == SubTradeHasSuccess):
		// Not closable: closed already, or paid. The trade says which.
		st, qerr := ch.Status(ctx, key)
		if qerr != nil {
			return fmt.Errorf("alipay close %q: %w (then: %w)", key, err, qerr)
		}
		switch st.State {
		case payment.StateClosed:
			return nil
		case payment.StatePaid, payment.StateRefunded:
			return fmt.Errorf("%w: alipay close %q: %s", payment.ErrAlreadyPaid, key, st.State)
		}
		return fmt.Errorf("alipay close %q: %w", key, err)
	}
	return err
}

// Refund implements payment.Channel with alipay.trade.refund. Alipay
// refunds at once and answers a retry under the same out_request_no with
// the first refund (fund_change "N"), so the result is always Done; its
// reference is the out_request_no, which is how Alipay names a refund.
func (ch *Channel) Refund(ctx context.Context, r payment.Refund) (payment.RefundResult, error) {
	if err := checkMoney(r.Amount, r.Currency); err != nil {
		return payment.RefundResult{}, err
	}
	if r.Key == "" || r.RefundKey == "" {
		return payment.RefundResult{}, errors.New("alipay: a refund needs the payment's key and its own")
	}
	var out struct {
		OutTradeNo string          `json:"out_trade_no"`
		TradeNo    string          `json:"trade_no"`
		FundChange string          `json:"fund_change"`
		RefundFee  payment.Decimal `json:"refund_fee"`
	}
	err := ch.Call(ctx, MethodRefund, "", refundBiz{
		OutTradeNo:   r.Key,
		RefundAmount: Yuan(r.Amount),
		OutRequestNo: r.RefundKey,
		RefundReason: r.Reason,
	}, &out)
	err = unknownTrade(err)
	switch {
	case err != nil:
		return payment.RefundResult{}, err
	case out.OutTradeNo != r.Key:
		return payment.RefundResult{}, fmt.Errorf("%w: alipay refund %q answered %q", payment.ErrPaymentTimeout, r.Key, out.OutTradeNo)
	}
	return payment.RefundResult{Reference: r.RefundKey, Done: true}, nil
}

// Notice implements payment.Channel: it verifies an asynchronous
// notification (a form POSTed to notify_url) with Alipay's key and checks
// it is for this application. Source: "异步通知说明" (opendocs.alipay.com
// /open/270/105902) and "异步通知验签": drop sign and sign_type, sort the
// rest, verify RSA2. A changed amount breaks the signature, so a tampered
// notice is ErrBadNotice, never a notice of the other amount.
func (ch *Channel) Notice(ctx context.Context, r *http.Request, body []byte) (payment.Status, error) {
	bad := func(why string, args ...any) (payment.Status, error) {
		err := fmt.Errorf("%w: alipay: "+why, append([]any{payment.ErrBadNotice}, args...)...)
		ch.log.WarnContext(ctx, "alipay notice refused", "err", err)
		return payment.Status{}, err
	}
	if r != nil && r.Method != http.MethodPost {
		return bad("method %s", r.Method)
	}
	if len(body) > payment.MaxNotice {
		return bad("%d bytes", len(body))
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return bad("not a form: %v", err)
	}
	for k, vs := range form {
		if len(vs) != 1 {
			return bad("%q given %d times", k, len(vs))
		}
	}
	if st := form.Get("sign_type"); st != "RSA2" {
		return bad("sign_type %q", st)
	}
	if cs := form.Get("charset"); cs != "" && !strings.EqualFold(cs, "utf-8") {
		return bad("charset %q", cs)
	}
	if Verify(ch.alipay, []byte(SignContent(form, "sign", "sign_type")), form.Get("sign")) != nil {
		return bad("signature does not verify")
	}
	if form.Get("app_id") != ch.appID {
		return bad("for application %q", form.Get("app_id"))
	}
	key := form.Get("out_trade_no")
	if key == "" {
		return bad("no out_trade_no")
	}
	total, err := Fen(form.Get("total_amount"))
	if err != nil {
		return bad("%v", err)
	}
	st := payment.Status{Key: key, Reference: form.Get("trade_no"), Amount: total, Currency: Currency}
	if at := form.Get("gmt_payment"); at != "" {
		if st.PaidAt, err = parseTime(at); err != nil {
			return bad("gmt_payment %q", at)
		}
	}
	refunded, _ := Fen(form.Get("refund_fee"))
	var ok bool
	if st.State, ok = tradeState(form.Get("trade_status"), refunded > 0); !ok {
		return bad("trade_status %q", form.Get("trade_status"))
	}
	return st, nil
}

// Ack implements payment.Channel: Alipay stops resending on the seven
// characters "success" and nothing else.
func (ch *Channel) Ack(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if err == nil {
		io.WriteString(w, AckSuccess)
		return
	}
	io.WriteString(w, AckFailure)
}

// plainSubject leaves out of a subject the characters the API pages
// forbid in it ("订单标题…不可使用特殊字符，如 /，=，& 等").
func plainSubject(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == '/' || r == '=' || r == '&' || r == ' '
	}), " ")
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.ParseInLocation(TimeLayout, s, Beijing)
}

// unknownTrade is err, marked ErrUnknownPayment when Alipay says it has no
// such trade: the payment was never created there, which the caller must
// tell from a call that failed.
func unknownTrade(err error) error {
	var e *Error
	if errors.As(err, &e) && e.SubCode == SubTradeNotExist {
		return fmt.Errorf("%w: %w", payment.ErrUnknownPayment, err)
	}
	return err
}
