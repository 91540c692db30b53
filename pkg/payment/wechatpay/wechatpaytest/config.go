package wechatpaytest

import (
	"log/slog"
	"time"

	"github.com/voyage/voyage/pkg/payment/wechatpay"
)

// ChannelConfig is the configuration of a channel that talks to this fake,
// served at endpoint: the test merchant, its key and the fake's platform
// key, serial and APIv3 key, signatures made and checked on now, calls
// bounded to 5 seconds and nothing logged. Tests change what they test.
func (s *Server) ChannelConfig(endpoint string, now func() time.Time) wechatpay.Config {
	return wechatpay.Config{
		MchID:                 MchID,
		AppID:                 AppID,
		MerchantSerialNo:      MerchantSerialNo,
		MerchantPrivateKeyPEM: PrivateKeyPEM(TestKeys().Merchant),
		APIv3Key:              s.APIv3Key(),
		PlatformPublicKeyPEM:  s.PlatformPublicKeyPEM(),
		PlatformSerial:        s.PlatformSerial(),
		Endpoint:              endpoint,
		Timeout:               5 * time.Second,
		Now:                   now,
		Logger:                slog.New(slog.DiscardHandler),
	}
}
