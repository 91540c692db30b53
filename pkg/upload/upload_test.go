package upload

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"testing"
)

func TestCheck(t *testing.T) {
	var pngBytes bytes.Buffer
	_ = png.Encode(&pngBytes, image.NewRGBA(image.Rect(0, 0, 1, 1)))
	tests := []struct {
		name string
		data []byte
		max  int
		typ  string
		err  error
	}{
		{"png", pngBytes.Bytes(), MaxImageBytes, "image/png", nil},
		{"text renamed", []byte("hello, not a picture"), MaxImageBytes, "", ErrType},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), MaxImageBytes, "", ErrType},
		{"over the limit", pngBytes.Bytes(), 10, "", ErrTooLarge},
	}
	for _, tt := range tests {
		typ, err := Check(tt.data, tt.max, Images)
		if typ != tt.typ || !errors.Is(err, tt.err) {
			t.Errorf("%s: %q, %v", tt.name, typ, err)
		}
	}
}
