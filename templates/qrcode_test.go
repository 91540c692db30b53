package templates

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestQRCode: the drawn code is a QR code a scanner finds: its three finder
// patterns (7×7 dark rings with a 3×3 centre) sit in the top-left,
// top-right and bottom-left corners inside a four-module quiet zone, for
// a WeChat Pay code_url and an Alipay qr_code alike.
func TestQRCode(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"weixin://wxpay/bizpayurl?pr=T0dk3Ez", "https://qr.alipay.com/bax08431wz9lqwsoaxtx00a5"} {
		var b strings.Builder
		if err := QRCode(text, `pay "now" <b>`).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		svg := b.String()
		if !strings.Contains(svg, `aria-label="pay &#34;now&#34; &lt;b&gt;"`) {
			t.Fatalf("label not escaped: %s", svg[:200])
		}
		m := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(svg)
		if m == nil || m[1] != m[2] {
			t.Fatalf("no square viewBox: %s", svg[:120])
		}
		size, _ := strconv.Atoi(m[1])
		dark := map[[2]int]bool{}
		for _, sq := range regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`).FindAllStringSubmatch(svg, -1) {
			x, _ := strconv.Atoi(sq[1])
			y, _ := strconv.Atoi(sq[2])
			dark[[2]int{x, y}] = true
		}
		n := size - 8
		for _, c := range [][2]int{{4, 4}, {4 + n - 7, 4}, {4, 4 + n - 7}} {
			for dy := 0; dy < 7; dy++ {
				for dx := 0; dx < 7; dx++ {
					ring := dx == 0 || dy == 0 || dx == 6 || dy == 6
					centre := dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4
					if got := dark[[2]int{c[0] + dx, c[1] + dy}]; got != (ring || centre) {
						t.Fatalf("%q: module (%d,%d) of the finder at %v is dark=%v", text, dx, dy, c, got)
					}
				}
			}
		}
		for xy := range dark {
			if xy[0] < 4 || xy[1] < 4 || xy[0] >= size-4 || xy[1] >= size-4 {
				t.Fatalf("%q: a dark module in the quiet zone at %v", text, xy)
			}
		}
	}
}
