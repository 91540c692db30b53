package config

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
)

// Secret is a credential (a private key, an API key): given as its value,
// or read from the file its _file twin names. It never prints: a log
// line, an error or a shown configuration reads [secret].
type Secret string

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "[secret]"
}

// GoString keeps %#v from printing it.
func (s Secret) GoString() string { return s.String() }

// LogValue keeps slog from printing it.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText keeps a marshalled configuration from showing it.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Reveal is the credential itself, for the channel that signs with it.
func (s Secret) Reveal() string { return string(s) }

// ChannelsConfig are the real payment channels' credentials: a channel is
// on when its credentials are set (the provider still switches it on per
// agency). PublicURL is the address the channels reach this server at for
// their notifications (POST {public_url}/payment/v2/notify/{channel}) and
// send payers back to.
type ChannelsConfig struct {
	PublicURL string          `mapstructure:"public_url"`
	Alipay    AlipayConfig    `mapstructure:"alipay"`
	WechatPay WechatPayConfig `mapstructure:"wechat_pay"`
	Yeepay    YeepayConfig    `mapstructure:"yeepay"`
	Airwallex AirwallexConfig `mapstructure:"airwallex"`
	Stripe    StripeConfig    `mapstructure:"stripe"`
}

// AlipayConfig: the open platform's app, the merchant's RSA2 key and
// Alipay's public key (Alipay's console gives both).
type AlipayConfig struct {
	AppID               string `mapstructure:"app_id"`
	PrivateKey          Secret `mapstructure:"private_key"`
	PrivateKeyFile      string `mapstructure:"private_key_file"`
	AlipayPublicKey     string `mapstructure:"alipay_public_key"`
	AlipayPublicKeyFile string `mapstructure:"alipay_public_key_file"`
	// Endpoint is the gateway: Alipay's production gateway when empty,
	// its sandbox's for a trial.
	Endpoint string `mapstructure:"endpoint"`
}

// WechatPayConfig: API v3 in public-key mode.
type WechatPayConfig struct {
	MchID                  string `mapstructure:"mch_id"`
	AppID                  string `mapstructure:"app_id"`
	MerchantSerialNo       string `mapstructure:"merchant_serial_no"`
	MerchantPrivateKey     Secret `mapstructure:"merchant_private_key"`
	MerchantPrivateKeyFile string `mapstructure:"merchant_private_key_file"`
	APIv3Key               Secret `mapstructure:"api_v3_key"`
	APIv3KeyFile           string `mapstructure:"api_v3_key_file"`
	PlatformPublicKey      string `mapstructure:"platform_public_key"`
	PlatformPublicKeyFile  string `mapstructure:"platform_public_key_file"`
	PlatformSerial         string `mapstructure:"platform_serial"`
	Endpoint               string `mapstructure:"endpoint"`
}

// YeepayConfig: the YOP app and merchant numbers, the merchant's key and
// Yeepay's public key.
type YeepayConfig struct {
	AppKey              string `mapstructure:"app_key"`
	ParentMerchantNo    string `mapstructure:"parent_merchant_no"`
	MerchantNo          string `mapstructure:"merchant_no"`
	PrivateKey          Secret `mapstructure:"private_key"`
	PrivateKeyFile      string `mapstructure:"private_key_file"`
	YeepayPublicKey     string `mapstructure:"yeepay_public_key"`
	YeepayPublicKeyFile string `mapstructure:"yeepay_public_key_file"`
	Endpoint            string `mapstructure:"endpoint"`
}

// AirwallexConfig: the API client and key, and the webhook's secret.
type AirwallexConfig struct {
	ClientID          string `mapstructure:"client_id"`
	APIKey            Secret `mapstructure:"api_key"`
	APIKeyFile        string `mapstructure:"api_key_file"`
	WebhookSecret     Secret `mapstructure:"webhook_secret"`
	WebhookSecretFile string `mapstructure:"webhook_secret_file"`
	Endpoint          string `mapstructure:"endpoint"`
	// Env is the environment of Airwallex's browser SDK for the hosted
	// payment page, "demo" or "prod"; when empty, "prod" for the
	// production API (Endpoint empty or api.airwallex.com), else "demo".
	Env string `mapstructure:"env"`
}

// StripeConfig: the secret key and the webhook endpoint's signing secret,
// and the publishable key the payer's browser opens Stripe's card form
// with.
type StripeConfig struct {
	SecretKey         Secret `mapstructure:"secret_key"`
	SecretKeyFile     string `mapstructure:"secret_key_file"`
	WebhookSecret     Secret `mapstructure:"webhook_secret"`
	WebhookSecretFile string `mapstructure:"webhook_secret_file"`
	Endpoint          string `mapstructure:"endpoint"`
	// PublishableKey (pk_live_…, pk_test_…) is public by design: it goes
	// to the payer's browser with the card form, so it is a plain value.
	PublishableKey string `mapstructure:"publishable_key"`
}

// channelKeys are the settings of ChannelsConfig, so that VOYAGE_PAYMENT_*
// environment variables reach them (viper reads the environment only for
// keys it knows).
var channelKeys = map[string][]string{
	"alipay":     {"app_id", "private_key", "private_key_file", "alipay_public_key", "alipay_public_key_file", "endpoint"},
	"wechat_pay": {"mch_id", "app_id", "merchant_serial_no", "merchant_private_key", "merchant_private_key_file", "api_v3_key", "api_v3_key_file", "platform_public_key", "platform_public_key_file", "platform_serial", "endpoint"},
	"yeepay":     {"app_key", "parent_merchant_no", "merchant_no", "private_key", "private_key_file", "yeepay_public_key", "yeepay_public_key_file", "endpoint"},
	"airwallex":  {"client_id", "api_key", "api_key_file", "webhook_secret", "webhook_secret_file", "endpoint", "env"},
	"stripe":     {"secret_key", "secret_key_file", "webhook_secret", "webhook_secret_file", "endpoint", "publishable_key"},
}

// readKeys fills every credential given as a file. A file that cannot be
// read is an error naming the setting, never the content.
func (c *ChannelsConfig) readKeys() error {
	for _, k := range []struct {
		setting string
		file    string
		into    func(string)
	}{
		{"payment.alipay.private_key_file", c.Alipay.PrivateKeyFile, func(v string) { c.Alipay.PrivateKey = Secret(v) }},
		{"payment.alipay.alipay_public_key_file", c.Alipay.AlipayPublicKeyFile, func(v string) { c.Alipay.AlipayPublicKey = v }},
		{"payment.wechat_pay.merchant_private_key_file", c.WechatPay.MerchantPrivateKeyFile, func(v string) { c.WechatPay.MerchantPrivateKey = Secret(v) }},
		{"payment.wechat_pay.api_v3_key_file", c.WechatPay.APIv3KeyFile, func(v string) { c.WechatPay.APIv3Key = Secret(strings.TrimSpace(v)) }},
		{"payment.wechat_pay.platform_public_key_file", c.WechatPay.PlatformPublicKeyFile, func(v string) { c.WechatPay.PlatformPublicKey = v }},
		{"payment.yeepay.private_key_file", c.Yeepay.PrivateKeyFile, func(v string) { c.Yeepay.PrivateKey = Secret(v) }},
		{"payment.yeepay.yeepay_public_key_file", c.Yeepay.YeepayPublicKeyFile, func(v string) { c.Yeepay.YeepayPublicKey = v }},
		{"payment.airwallex.api_key_file", c.Airwallex.APIKeyFile, func(v string) { c.Airwallex.APIKey = Secret(strings.TrimSpace(v)) }},
		{"payment.airwallex.webhook_secret_file", c.Airwallex.WebhookSecretFile, func(v string) { c.Airwallex.WebhookSecret = Secret(strings.TrimSpace(v)) }},
		{"payment.stripe.secret_key_file", c.Stripe.SecretKeyFile, func(v string) { c.Stripe.SecretKey = Secret(strings.TrimSpace(v)) }},
		{"payment.stripe.webhook_secret_file", c.Stripe.WebhookSecretFile, func(v string) { c.Stripe.WebhookSecret = Secret(strings.TrimSpace(v)) }},
	} {
		if k.file == "" {
			continue
		}
		b, err := os.ReadFile(k.file)
		if err != nil {
			return fmt.Errorf("config: %s: %w", k.setting, err)
		}
		k.into(string(b))
	}
	return nil
}

// On reports which channels have their credentials set.
func (c ChannelsConfig) On() map[string]bool {
	return map[string]bool{
		"alipay":     c.Alipay.AppID != "",
		"wechat_pay": c.WechatPay.MchID != "",
		"yeepay":     c.Yeepay.AppKey != "",
		"airwallex":  c.Airwallex.ClientID != "",
		"stripe":     c.Stripe.SecretKey != "",
	}
}

// checkBrowserKeys refuses the card channels' browser settings that cannot
// work or would leak: the Stripe key the payer's browser gets must be a
// publishable one (pk_…), never the secret key pasted in the wrong
// setting; Airwallex's SDK knows only the demo and prod environments.
func (c ChannelsConfig) checkBrowserKeys() error {
	if k := c.Stripe.PublishableKey; k != "" && !strings.HasPrefix(k, "pk_") {
		return errors.New("config: payment.stripe.publishable_key must be Stripe's publishable key (pk_live_… or pk_test_…); it is shown to payers, so never a secret or restricted key")
	}
	switch c.Airwallex.Env {
	case "", "demo", "prod":
		return nil
	}
	return fmt.Errorf("config: payment.airwallex.env is %q, want demo or prod", c.Airwallex.Env)
}

// BrowserEnv is the environment of Airwallex's browser SDK: Env when set,
// else prod for the production API and demo for any other endpoint (the
// sandbox, api-demo.airwallex.com, or a test's fake).
func (a AirwallexConfig) BrowserEnv() string {
	if a.Env != "" {
		return a.Env
	}
	switch strings.TrimRight(a.Endpoint, "/") {
	case "", "https://api.airwallex.com":
		return "prod"
	}
	return "demo"
}
