package mail_test

import (
	"testing"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/mail"
)

// An agency's email language picks the catalog its emails are written
// from: Traditional Chinese is one of them, not folded into Simplified.
func TestLangOfAgencySetting(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	for _, tt := range []struct{ setting, lang, subject string }{
		{"en", i18n.EN, "12.00 CNY added to your wallet"},
		{"", i18n.EN, "12.00 CNY added to your wallet"},
		{"zh", i18n.ZhCN, "您的钱包已充值 12.00 CNY"},
		{"zh-tw", i18n.ZhTW, "您的錢包已儲值 12.00 CNY"},
	} {
		got := mail.Lang(tt.setting)
		if got != tt.lang {
			t.Errorf("Lang(%q) = %q, want %q", tt.setting, got, tt.lang)
		}
		if s := cat.T(got, "mail.topup.subject", "amount", "12.00", "currency", "CNY"); s != tt.subject {
			t.Errorf("%q: subject %q, want %q", tt.setting, s, tt.subject)
		}
	}
}
