// Package yeepay is the Yeepay (易宝支付) payment channel: a client of
// Yeepay's open platform (YOP, API v3) signed with yop-auth-v3, and four
// payment.Channel values on it, one per spec channel (yeepay-alipay,
// yeepay-wechat: a wallet QR code; yeepay-credit-card, yeepay-debit-card:
// Yeepay's hosted cashier page).
//
// The protocol as read from Yeepay's own integrator notes
// (github.com/Yeepay-Open-Platform/yeepay-skills, references/平台文档) and
// the platform pages they mirror (https://open.yeepay.com/docs-v3/platform/207.md):
// requests carry Authorization "YOP-RSA2048-SHA256 yop-auth-v3/…" over a
// canonical request, answers carry x-yop-sign over the body, result
// notifications are a form with `response`, an RSA digital envelope
// (random AES key for the merchant, AES data, Yeepay's signature inside),
// and are acknowledged by HTTP 200 and the text SUCCESS.
package yeepay

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/payment"
)

// Gateways and the hosted cashier. The API path signed is the part after
// the gateway (/rest/v1.0/…).
const (
	ProductionURL = "https://openapi.yeepay.com/yop-center"
	SandboxURL    = "https://sandbox.yeepay.com/yop-center"
	// CashierURL is Yeepay's standard cashier (标准收银台), the hosted card
	// page a trade order's token opens.
	CashierURL = "https://cash.yeepay.com/cashier/std"
)

// Config is one Yeepay application's credentials.
type Config struct {
	// AppKey is the YOP application (app_…), x-yop-appkey.
	AppKey string
	// ParentMerchantNo is the merchant that initiates trades (发起方商编);
	// MerchantNo the one that receives the money (收款商编), the same for a
	// standard merchant.
	ParentMerchantNo string
	MerchantNo       string
	// PrivateKeyPEM is the merchant's RSA private key (PEM, PKCS #8 or #1,
	// or the bare base64 Yeepay's key tool writes): it signs requests and
	// opens notification envelopes.
	PrivateKeyPEM string
	// YeepayPublicKeyPEM is Yeepay's RSA public key from the console: it
	// verifies answers and notifications.
	YeepayPublicKeyPEM string
	// Endpoint is the gateway (default ProductionURL); CashierURL the
	// hosted cashier (default the package's CashierURL).
	Endpoint   string
	CashierURL string
	// Timeout bounds each call (default 15s); HTTPClient, when set, is used
	// as is except that it never follows a redirect.
	Timeout    time.Duration
	HTTPClient *http.Client
	Logger     *slog.Logger
	// Now is the clock of signatures (default time.Now).
	Now func() time.Time
}

// String is Config with its secrets hidden, so a %v in a log writes no key.
func (c Config) String() string {
	return "yeepay.Config{AppKey:" + c.AppKey + " ParentMerchantNo:" + c.ParentMerchantNo +
		" MerchantNo:" + c.MerchantNo + " PrivateKeyPEM:" + payment.Redact(c.PrivateKeyPEM) +
		" YeepayPublicKeyPEM:" + payment.Redact(c.YeepayPublicKeyPEM) + " Endpoint:" + c.Endpoint + "}"
}

// GoString keeps %#v from printing the keys.
func (c Config) GoString() string { return c.String() }

// LogValue is Config for log/slog, secrets hidden.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("app_key", c.AppKey),
		slog.String("parent_merchant_no", c.ParentMerchantNo),
		slog.String("merchant_no", c.MerchantNo),
		slog.String("private_key", payment.Redact(c.PrivateKeyPEM)),
		slog.String("yeepay_public_key", payment.Redact(c.YeepayPublicKeyPEM)),
		slog.String("endpoint", c.Endpoint),
	)
}
