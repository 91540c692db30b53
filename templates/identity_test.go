package templates

import (
	"context"
	"testing"

	"github.com/voyage/voyage/pkg/i18n"
)

func TestDeviceName(t *testing.T) {
	cat := i18n.MustLoad()
	en := i18n.WithLocalizer(context.Background(), cat, i18n.EN)
	zh := i18n.WithLocalizer(context.Background(), cat, i18n.ZhCN)
	for _, tt := range []struct {
		ctx       context.Context
		userAgent string
		want      string
	}{
		{en, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge 131 on Windows 10.0"},
		{en, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "Safari 17 on iOS 17.5"},
		{en, "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36", "Headless Chrome 156 on Linux"},
		{zh, "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Android 14 上的 Chrome 131"},
		{en, "curl/8.5.0", "curl 8"},
		{en, "", "Unknown browser"},
		{zh, "", "未知浏览器"},
	} {
		if got := deviceName(tt.ctx, tt.userAgent); got != tt.want {
			t.Errorf("deviceName(%q) = %q, want %q", tt.userAgent, got, tt.want)
		}
	}
}
