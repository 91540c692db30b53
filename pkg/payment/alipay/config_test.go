package alipay_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/payment/alipay"
	"github.com/voyage/voyage/pkg/payment/alipay/alipaytest"
	"github.com/voyage/voyage/pkg/payment/paymenttest"
)

func TestConfigHidesSecrets(t *testing.T) {
	t.Parallel()
	k := keys()
	priv := alipaytest.PrivateKeyPEM(k.merchant)
	cfg := alipay.Config{AppID: "2021000000000001", PrivateKeyPEM: priv, AlipayPublicKeyPEM: alipaytest.PublicKeyPEM(&k.alipay.PublicKey)}
	secret := strings.Split(priv, "\n")[1] // a line of the key's base64
	paymenttest.CheckHidden(t, cfg, []string{secret, "PRIVATE KEY"}, []string{"2021000000000001", "redacted"})
}

func TestSignContent(t *testing.T) {
	t.Parallel()
	// The signed text as "自行实现签名" spells it: sorted, empty values and
	// sign left out, values not URL-encoded.
	params := url.Values{
		"method":      {"alipay.trade.query"},
		"app_id":      {"2014072300007148"},
		"charset":     {"utf-8"},
		"sign":        {"abc"},
		"empty":       {""},
		"sign_type":   {"RSA2"},
		"timestamp":   {"2014-07-24 03:07:50"},
		"version":     {"1.0"},
		"biz_content": {`{"out_trade_no":"20150320010101001"}`},
	}
	want := `app_id=2014072300007148&biz_content={"out_trade_no":"20150320010101001"}&charset=utf-8&method=alipay.trade.query&sign_type=RSA2&timestamp=2014-07-24 03:07:50&version=1.0`
	if got := alipay.SignContent(params, "sign"); got != want {
		t.Errorf("request:\n got %s\nwant %s", got, want)
	}
	wantNotice := `app_id=2014072300007148&biz_content={"out_trade_no":"20150320010101001"}&charset=utf-8&method=alipay.trade.query&timestamp=2014-07-24 03:07:50&version=1.0`
	if got := alipay.SignContent(params, "sign", "sign_type"); got != wantNotice {
		t.Errorf("notification:\n got %s\nwant %s", got, wantNotice)
	}
}

func TestYuan(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		fen  int64
		yuan string
	}{{1, "0.01"}, {10, "0.10"}, {100, "1.00"}, {123456, "1234.56"}, {10000000000, "100000000.00"}} {
		if got := alipay.Yuan(tt.fen); got != tt.yuan {
			t.Errorf("Yuan(%d) = %s, want %s", tt.fen, got, tt.yuan)
		}
		if got, err := alipay.Fen(tt.yuan); err != nil || got != tt.fen {
			t.Errorf("Fen(%s) = %d %v, want %d", tt.yuan, got, err, tt.fen)
		}
	}
	for _, tt := range []struct {
		yuan string
		fen  int64
	}{{"12.3", 1230}, {"12", 1200}, {"0.5", 50}} {
		if got, err := alipay.Fen(tt.yuan); err != nil || got != tt.fen {
			t.Errorf("Fen(%s) = %d %v, want %d", tt.yuan, got, err, tt.fen)
		}
	}
	for _, bad := range []string{"", "1.234", "-1.00", "1.", ".5", "1e3", "1,00", " 1.00"} {
		if _, err := alipay.Fen(bad); err == nil {
			t.Errorf("Fen(%q) took it", bad)
		}
	}
}

func TestPlainSubject(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Flight order B2412A": "Flight order B2412A",
		"PEK/SHA a=b & c":     "PEK SHA a b c",
		"机票订单 B2412A":         "机票订单 B2412A",
		"  Flight   order  ":  "Flight order",
	} {
		if got := alipay.PlainSubject(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
