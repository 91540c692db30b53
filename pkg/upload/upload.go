// Package upload holds the rules for files people upload: how large they may
// be and which types are accepted, judged from the bytes themselves and never
// from a file name or a header the client chose.
package upload

import (
	"errors"
	"net/http"
	"slices"
)

// Images are the picture types accepted for logos and avatars. SVG is left
// out on purpose: it can carry scripts.
var Images = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// MaxImageBytes is spec §9's 2 MB limit for logos (and avatars).
const MaxImageBytes = 2 << 20

// Why a file was refused; callers map these to their own messages.
var (
	ErrTooLarge = errors.New("upload: file too large")
	ErrType     = errors.New("upload: file type not accepted")
)

// Check returns data's content type as sniffed from its bytes: ErrTooLarge
// over max bytes, ErrType when the type is not one of allowed.
func Check(data []byte, max int, allowed []string) (string, error) {
	if len(data) > max {
		return "", ErrTooLarge
	}
	ct := http.DetectContentType(data)
	if !slices.Contains(allowed, ct) {
		return "", ErrType
	}
	return ct, nil
}
