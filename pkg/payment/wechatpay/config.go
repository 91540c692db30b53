// Package wechatpay is Voyage's WeChat Pay channel ("wechat-pay"): a client
// of WeChat Pay API v3 for Native pay (the payer scans a QR code), written on
// Go's standard crypto, and Channel, its payment.Channel adapter.
//
// Every request is signed with the merchant's API private key
// (WECHATPAY2-SHA256-RSA2048) and every answer and notification is verified
// with the WeChat Pay public key ("public key mode": the key and its
// PUB_KEY_ID serial come from the merchant platform, no platform certificate
// is downloaded). Notifications carry the transaction encrypted with
// AEAD_AES_256_GCM under the APIv3 key.
package wechatpay

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment"
)

// Name is the spec's channel name.
const Name = "wechat-pay"

// Endpoints. APIv3 has no sandbox (the v2 "sandboxnew" never covered it):
// tests run against wechatpaytest. BackupURL is the documented secondary
// domain, served from another region ("请求域名: 主域名/备域名", e.g. the
// page 商户订单号查询订单, https://pay.weixin.qq.com/doc/v3/merchant/4012556352).
const (
	ProductionURL = "https://api.mch.weixin.qq.com"
	BackupURL     = "https://api2.mch.weixin.qq.com"
)

// DefaultTimeout bounds one call when Config gives neither a client nor a
// timeout.
const DefaultTimeout = 10 * time.Second

// MaxSkew is how far a signed answer's or notification's Wechatpay-Timestamp
// may be from our clock (the signature verification guide asks merchants to
// refuse answers older than 5 minutes, against replays).
const MaxSkew = 5 * time.Minute

// Config is one merchant's WeChat Pay credentials. Keys are PEM text (the
// caller reads the files); Config's log form (String, LogValue) shows none
// of the secrets.
type Config struct {
	MchID string // 商户号
	AppID string // the AppID the merchant number is bound to
	// MerchantSerialNo is the serial number of the merchant API
	// certificate whose private key signs the requests.
	MerchantSerialNo string
	// MerchantPrivateKeyPEM is apiclient_key.pem (PKCS#8, or PKCS#1).
	MerchantPrivateKeyPEM string
	// APIv3Key is the 32-byte APIv3 key, the AES-256-GCM key of the
	// notifications.
	APIv3Key string
	// PlatformPublicKeyPEM is the WeChat Pay public key (pub_key.pem, a
	// PUBLIC KEY block; a platform CERTIFICATE block is accepted too) and
	// PlatformSerial its id (PUB_KEY_ID_…), the Wechatpay-Serial it signs
	// under.
	PlatformPublicKeyPEM string
	PlatformSerial       string
	// Endpoint is the API base URL; ProductionURL when empty.
	Endpoint string
	// HTTPClient makes the calls; its redirects are never followed, and
	// when it has no timeout it gets Timeout (DefaultTimeout when zero).
	HTTPClient *http.Client
	Timeout    time.Duration
	// Now is the clock the signatures' timestamps are made and checked
	// with; time.Now when nil.
	Now func() time.Time
	// Logger logs calls (never a secret); slog.Default when nil.
	Logger *slog.Logger
}

// String is Config's log form: the secrets redacted.
func (c Config) String() string {
	return fmt.Sprintf("wechatpay.Config{MchID:%q AppID:%q MerchantSerialNo:%q MerchantPrivateKey:%s APIv3Key:%s PlatformSerial:%q Endpoint:%q}",
		c.MchID, c.AppID, c.MerchantSerialNo, payment.Redact(c.MerchantPrivateKeyPEM), payment.Redact(c.APIv3Key), c.PlatformSerial, c.endpoint())
}

// GoString keeps %#v from printing the secrets.
func (c Config) GoString() string { return c.String() }

// LogValue is Config's slog form: the secrets redacted.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("mchid", c.MchID),
		slog.String("appid", c.AppID),
		slog.String("merchant_serial_no", c.MerchantSerialNo),
		slog.String("merchant_private_key", payment.Redact(c.MerchantPrivateKeyPEM)),
		slog.String("apiv3_key", payment.Redact(c.APIv3Key)),
		slog.String("platform_serial", c.PlatformSerial),
		slog.String("endpoint", c.endpoint()),
	)
}

func (c Config) endpoint() string {
	return payment.BaseURL(c.Endpoint, ProductionURL)
}

// keys are Config's parsed credentials.
type keys struct {
	merchant *rsa.PrivateKey
	platform *rsa.PublicKey
	apiv3    []byte
}

func (c Config) parse() (keys, error) {
	var k keys
	var missing []string
	for _, f := range []struct{ name, v string }{
		{"MchID", c.MchID}, {"AppID", c.AppID}, {"MerchantSerialNo", c.MerchantSerialNo},
		{"MerchantPrivateKeyPEM", c.MerchantPrivateKeyPEM}, {"APIv3Key", c.APIv3Key},
		{"PlatformPublicKeyPEM", c.PlatformPublicKeyPEM}, {"PlatformSerial", c.PlatformSerial},
	} {
		if f.v == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return k, fmt.Errorf("wechatpay: config lacks %s", strings.Join(missing, ", "))
	}
	if len(c.APIv3Key) != 32 {
		return k, fmt.Errorf("wechatpay: APIv3Key has %d bytes, want 32", len(c.APIv3Key))
	}
	k.apiv3 = []byte(c.APIv3Key)
	var err error
	if k.merchant, err = parsePrivateKey(c.MerchantPrivateKeyPEM); err != nil {
		return k, fmt.Errorf("wechatpay: merchant private key: %w", err)
	}
	if k.platform, err = parsePublicKey(c.PlatformPublicKeyPEM); err != nil {
		return k, fmt.Errorf("wechatpay: platform public key: %w", err)
	}
	return k, nil
}

func parsePrivateKey(text string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	switch block.Type {
	case "PRIVATE KEY":
		key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, err
		}
		rk, ok := key.(*rsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("a %T, not an RSA key", key)
		}
		return rk, nil
	case "RSA PRIVATE KEY":
		return x509.ParsePKCS1PrivateKey(block.Bytes)
	}
	return nil, fmt.Errorf("PEM block %q, want PRIVATE KEY", block.Type)
}

func parsePublicKey(text string) (*rsa.PublicKey, error) {
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	var key any
	var err error
	switch block.Type {
	case "PUBLIC KEY":
		key, err = x509.ParsePKIXPublicKey(block.Bytes)
	case "RSA PUBLIC KEY":
		key, err = x509.ParsePKCS1PublicKey(block.Bytes)
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
			key = cert.PublicKey
		}
	default:
		return nil, fmt.Errorf("PEM block %q, want PUBLIC KEY", block.Type)
	}
	if err != nil {
		return nil, err
	}
	rk, ok := key.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("a %T, not an RSA key", key)
	}
	return rk, nil
}
