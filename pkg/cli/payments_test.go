package cli

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment/wechatpay/wechatpaytest"
)

// TestPaymentsCheck: `voyage payments check CHANNEL` makes a round trip
// with the channel's configured credentials (here against WeChat Pay's
// fake, which checks every signature) and leaves the payment closed; a
// channel without credentials is skipped with where to set them; a name
// that is no channel is a usage error.
func TestPaymentsCheck(t *testing.T) {
	t.Parallel()
	fake := wechatpaytest.New(wechatpaytest.Options{Wait: func(time.Duration) {}})
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	dir := t.TempDir()
	key := filepath.Join(dir, "merchant.pem")
	if err := os.WriteFile(key, []byte(wechatpaytest.PrivateKeyPEM(wechatpaytest.TestKeys().Merchant)), 0o600); err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(dir, "wechatpay-pub.pem")
	if err := os.WriteFile(pub, []byte(fake.PlatformPublicKeyPEM()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "voyage.yaml")
	yaml := fmt.Sprintf(`payment:
  public_url: https://voyage.example.com
  wechat_pay:
    mch_id: %q
    app_id: %q
    merchant_serial_no: %q
    merchant_private_key_file: %q
    api_v3_key: %q
    platform_serial: %q
    endpoint: %q
    platform_public_key_file: %q
`, wechatpaytest.MchID, wechatpaytest.AppID, wechatpaytest.MerchantSerialNo, key, fake.APIv3Key(), fake.PlatformSerial(), api.URL, pub)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}

	res := execute(t, nil, "payments", "check", "wechat-pay", "--config", cfg)
	if res.code != 0 || !strings.Contains(res.out, "wechat-pay: ok") || !strings.Contains(res.out, "QR code weixin://") {
		t.Fatalf("check wechat-pay: exit %d\n%s%s", res.code, res.out, res.err)
	}
	if strings.Contains(res.out+res.err, "BEGIN") || strings.Contains(res.out+res.err, fake.APIv3Key()) {
		t.Fatalf("the check printed a key:\n%s%s", res.out, res.err)
	}
	lines := strings.Split(strings.TrimSpace(res.out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[3], "status after close") || !strings.Contains(lines[3], "closed") {
		t.Fatalf("steps:\n%s", res.out)
	}

	res = execute(t, nil, "payments", "check", "alipay", "--config", cfg)
	if res.code != 0 || !strings.Contains(res.out, "alipay: skipped, no credentials on this machine (set payment.alipay.*") {
		t.Fatalf("check alipay without credentials: exit %d\n%s%s", res.code, res.out, res.err)
	}
	res = execute(t, nil, "payments", "check", "bitcoin", "--config", cfg)
	if res.code != ExitUsage || !strings.Contains(res.err, `"bitcoin" is not a payment channel`) {
		t.Fatalf("check bitcoin: exit %d\n%s%s", res.code, res.out, res.err)
	}
}
