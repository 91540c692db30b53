package api

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/recognition"
)

// Each refusal of the recognizer is an answer the caller can act on: a
// server without tesseract says so (503, "type the details in") rather than
// failing as an internal error.
func TestRecognitionFault(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err    error
		status int
		key    string
	}{
		{fmt.Errorf("%w: exec: \"tesseract\": executable file not found in $PATH", recognition.ErrEngine), http.StatusServiceUnavailable, "recognition.error.unavailable"},
		{recognition.ErrUnreadable, http.StatusUnprocessableEntity, "recognition.error.failed"},
		{recognition.ErrType, http.StatusBadRequest, "recognition.error.type"},
		{recognition.ErrBusy, http.StatusTooManyRequests, "recognition.error.busy"},
	} {
		var f *fault.Error
		if !errors.As(recognitionFault(tc.err), &f) {
			t.Fatalf("%v: not a fault", tc.err)
		}
		if f.Status != tc.status || f.Key != tc.key {
			t.Errorf("%v: %d %q, want %d %q", tc.err, f.Status, f.Key, tc.status, tc.key)
		}
	}
}
