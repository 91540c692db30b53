package templates

import (
	"context"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/a-h/templ"
	"github.com/boombuler/barcode/qr"
)

// QRCode draws text as a QR code in inline SVG, one square a dark module,
// with the four-module quiet zone scanners need. The server draws it: a
// payer's phone scans it off the page with no script, and nothing of the
// payment's code goes to a third party. label names it for screen readers.
func QRCode(text, label string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		code, err := qr.Encode(text, qr.M, qr.Auto)
		if err != nil {
			return fmt.Errorf("templates: QR code: %w", err)
		}
		b := code.Bounds()
		n := b.Dx()
		const quiet = 4
		var path strings.Builder
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				if r, _, _, _ := code.At(b.Min.X+x, b.Min.Y+y).RGBA(); r == 0 {
					fmt.Fprintf(&path, "M%d %dh1v1h-1z", x+quiet, y+quiet)
				}
			}
		}
		size := n + 2*quiet
		_, err = fmt.Fprintf(w, `<svg class="qr-code" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="%s" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="%s"/></svg>`,
			size, size, html.EscapeString(label), size, size, path.String())
		return err
	})
}
