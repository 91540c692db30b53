package booking

import (
	"context"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
)

// TestRemarkText: a line's remark key reads in the reader's language with
// its money in thousands and currency and its time in the reader's zone;
// typed text stays as typed.
func TestRemarkText(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	shanghai, _ := time.LoadLocation("Asia/Shanghai")
	refund := i18n.WithArgs("train.remark.refunded", "refund", "1234.50", "fee", "27.50", "currency", "CNY")
	missed := i18n.WithArgs("group.remark.missed", "kind", "first", "at", "2026-12-01T21:53:14Z")
	labels := map[string]string{"kind": "group.deadline."}
	tests := []struct{ lang, remark, want string }{
		{"en", refund, "Refunded 1,234.50 CNY (railway fee 27.50 CNY)"},
		{"zh-cn", refund, "已退款 1,234.50 CNY（铁路退票费 27.50 CNY）"},
		{"en", missed, "The first deposit deadline (2026-12-02 05:53 CST) passed"},
		{"en", "12 passengers, please call", "12 passengers, please call"},
		{"zh-cn", "G101", "G101"},
	}
	for _, tt := range tests {
		ctx := display.WithZone(i18n.WithLocalizer(context.Background(), cat, tt.lang), shanghai)
		if got := RemarkText(ctx, tt.remark, labels); got != tt.want {
			t.Errorf("%s %q = %q, want %q", tt.lang, tt.remark, got, tt.want)
		}
	}
}
