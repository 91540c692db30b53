package payment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"time"
)

// A real payment channel (Alipay, WeChat Pay, Yeepay, Airwallex, Stripe) is
// asynchronous: the payment is created at the channel, the payer finishes it
// there (scans a QR code, fills a card form, follows a hosted page), and the
// channel says what became of it by a signed notification or when asked.
// Channel is that seam; each provider's package (pkg/payment/alipay,
// wechatpay, yeepay, airwallex, stripe) implements it on the provider's own
// signed protocol. Amounts are in minor units of their currency (fen,
// cents), as everywhere in Voyage; the adapter converts to what the provider
// writes ("12.34" for Alipay, 1234 for WeChat Pay and Stripe).

// Create asks a channel to create a payment.
type Create struct {
	// Key is the payment's merchant order number at the channel
	// (out_trade_no, merchant_order_id, the idempotency key): TradeNo of
	// Voyage's payment key, at most 32 characters of [A-Za-z0-9_], which
	// every provider accepts.
	Key      string
	Amount   int64
	Currency string
	// Subject is what the payer sees ("Flight order B2412...", at most
	// 128 characters, plain text).
	Subject string
	// Method picks one way of paying where a channel has several (Yeepay:
	// MethodAlipay, MethodWechat, MethodCreditCard, MethodDebitCard); empty
	// where a channel has one.
	Method string
	// NotifyURL is where the channel sends its notifications for this
	// payment; ReturnURL where a hosted page sends the payer back.
	NotifyURL, ReturnURL string
	// ExpiresAt is when the payment must be finished by (the booking's
	// payment deadline); the channel closes it then.
	ExpiresAt time.Time
}

// Yeepay's ways of paying (Create.Method).
const (
	MethodAlipay     = "alipay"
	MethodWechat     = "wechat"
	MethodCreditCard = "credit-card"
	MethodDebitCard  = "debit-card"
)

// Pending is a payment created at its channel, waiting for the payer: what
// the portal shows to finish it. One of QRCode, RedirectURL or
// ClientSecret is set.
type Pending struct {
	// Reference is the channel's id of the payment (trade_no,
	// prepay id, PaymentIntent id), when it gives one at creation.
	Reference string
	// QRCode is the text to draw as a QR code for the payer's phone
	// (Alipay's qr_code, WeChat Pay's code_url, Yeepay's wallet code).
	QRCode string
	// RedirectURL is a hosted payment page (Alipay page pay, a card page).
	RedirectURL string
	// ClientSecret completes a card form in the browser (Stripe's and
	// Airwallex's payment intents).
	ClientSecret string
	ExpiresAt    time.Time
}

// Payment states as a channel reports them (Status, Notice).
const (
	// StatePending: created, not paid yet; the payer may still pay.
	StatePending = "pending"
	// StatePaid: the channel took the money.
	StatePaid = "paid"
	// StateClosed: it will never be paid (closed, expired, declined,
	// cancelled).
	StateClosed = "closed"
	// StateRefunded: paid, then refunded in full.
	StateRefunded = "refunded"
)

// Status is what a channel says of one payment, asked (Channel.Status) or
// told (Channel.Notice).
type Status struct {
	Key       string // the merchant order number (Create.Key)
	Reference string // the channel's id of the payment
	State     string // StatePending, StatePaid, StateClosed, StateRefunded
	// Amount and Currency are what the channel took (StatePaid) or was
	// asked for; the protocol refuses a notice whose amount or currency
	// is not the payment's.
	Amount   int64
	Currency string
	// Fee is the channel's fee where it reports one (0 when it does not).
	Fee    int64
	PaidAt time.Time
}

// Refund asks a channel to give back part or all of a paid payment.
type Refund struct {
	Key string // the paid payment's key
	// RefundKey names this refund at the channel (out_request_no,
	// out_refund_no, the idempotency key): a retry with the same RefundKey
	// refunds once.
	RefundKey string
	Amount    int64 // at most what is left of the payment
	Currency  string
	// Total is the payment's whole amount (WeChat Pay asks for it).
	Total  int64
	Reason string
}

// RefundResult is a channel's answer to a refund.
type RefundResult struct {
	Reference string // the channel's id of the refund
	// Done is false while the channel still processes the refund (WeChat
	// Pay's PROCESSING, Stripe's pending): it will notify or be asked.
	Done bool
}

// Channel errors, beside the gateway's (ErrDeclined, ErrPaymentTimeout,
// ErrUnknownPayment).
var (
	// ErrBadNotice: a notification whose signature, timestamp or shape
	// does not verify. Nothing may change because of it.
	ErrBadNotice = errors.New("payment: notification does not verify")
	// ErrNotConfigured: the channel has no credentials on this server.
	ErrNotConfigured = errors.New("payment: channel not configured")
)

// Channel is one provider's signed payment protocol (see above).
type Channel interface {
	// Name is the spec's channel name: "alipay", "wechat-pay",
	// "yeepay-alipay"…, "airwallex", "stripe".
	Name() string
	// Create creates the payment, or answers the one already created
	// under c.Key (a retry creates nothing new).
	Create(ctx context.Context, c Create) (Pending, error)
	// Status asks the channel what became of the payment key:
	// ErrUnknownPayment when it knows no such payment, ErrPaymentTimeout
	// (wrapped) when it did not answer.
	Status(ctx context.Context, key string) (Status, error)
	// Close closes a payment not paid yet, so it can no longer be paid; a
	// payment already closed or unknown is no error. A paid payment is
	// ErrAlreadyPaid: it must be refunded instead.
	Close(ctx context.Context, key string) error
	Refund(ctx context.Context, r Refund) (RefundResult, error)
	// Notice verifies one notification the channel sent (its request and
	// the body read from it, at most MaxNotice bytes) and answers what it
	// says, ErrBadNotice when it does not verify. It takes no outbound
	// call from anything the notification says.
	Notice(ctx context.Context, r *http.Request, body []byte) (Status, error)
	// Ack writes the answer the channel expects to a notification: its
	// "received" when err is nil (the channel stops resending), its
	// "failed, send again" otherwise.
	Ack(w http.ResponseWriter, err error)
}

// TradeNo is the merchant order number a payment key has at every
// channel: the key itself when it is short and plain enough for all of
// them (WeChat Pay allows 32 characters; Alipay letters, digits and "_"
// only), else "v" and 31 hex digits of its SHA-256, the same for the same
// key. Payment keys hold "-" (Key), so they are mostly hashed: mapping "-"
// to "_" instead would make two keys one number.
func TradeNo(key string) string {
	plain := len(key) >= 6 && len(key) <= 32
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			plain = false
		}
	}
	if plain {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "v" + hex.EncodeToString(sum[:])[:31]
}

// ErrAlreadyPaid: Close found the payment paid.
var ErrAlreadyPaid = errors.New("payment: already paid")

// MaxNotice is the largest notification body read (every provider's
// notification is a few kilobytes).
const MaxNotice = 64 << 10
