package templates

import (
	"context"
	"testing"

	"github.com/voyage/voyage/pkg/i18n"
)

// TestPaymentMethodName: a transaction's method reads as a top-up's or as
// the channel's name, in the reader's language.
func TestPaymentMethodName(t *testing.T) {
	cat := i18n.MustLoad()
	for _, tt := range []struct {
		lang   string
		method string
		want   string
	}{
		{i18n.EN, "bank-transfer", "Bank transfer"},
		{i18n.EN, "alipay", "Alipay"},
		{i18n.EN, "wechat-pay", "WeChat Pay"},
		{i18n.ZhCN, "bank-transfer", "银行转账"},
		{i18n.EN, "parent-wallet", "Parent agency's wallet"},
		{i18n.ZhTW, "parent-wallet", "上級代理錢包"},
		{i18n.ZhCN, "alipay", "支付宝"},
		{i18n.ZhTW, "alipay", "支付寶"},
		{i18n.EN, "carrier-pigeon", "carrier-pigeon"},
	} {
		ctx := i18n.WithLocalizer(context.Background(), cat, tt.lang)
		if got := paymentMethodName(ctx, tt.method); got != tt.want {
			t.Errorf("%s: paymentMethodName(%q) = %q, want %q", tt.lang, tt.method, got, tt.want)
		}
	}
}
