// Package paymenttest holds the checks of payment.Channel's contract that
// every channel's tests make against its provider's fake.
package paymenttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/payment"
)

// Closed is what closing one payment is to answer.
type Closed struct {
	// Name is the subtest's; the key when empty.
	Name string
	Key  string
	// Err is what Close answers (errors.Is); nil: no error.
	Err error
	// State is what Status answers after the Close; "" where the key is
	// unknown and Status is not asked.
	State string
}

// CheckClose closes each payment in turn, in a subtest of its own, and
// checks that Close answers its Err and Status then its State. The cases
// run in order: one may close again what another closed.
func CheckClose(t *testing.T, ch payment.Channel, cases ...Closed) {
	t.Helper()
	ctx := context.Background()
	for _, c := range cases {
		name := c.Name
		if name == "" {
			name = c.Key
		}
		t.Run(name, func(t *testing.T) {
			t.Helper()
			err := ch.Close(ctx, c.Key)
			if !errors.Is(err, c.Err) || c.Err == nil && err != nil {
				t.Fatalf("Close %s = %v, want %v", c.Key, err, c.Err)
			}
			if c.State == "" {
				return
			}
			if st, err := ch.Status(ctx, c.Key); err != nil || st.State != c.State {
				t.Errorf("Status %s after Close = %+v, %v; want %s", c.Key, st, err, c.State)
			}
		})
	}
}

// CheckHidden checks that a channel's Config, printed (%v, %+v and %s of
// it and of a pointer to it, and %#v where it has a GoString) or logged
// (slog's JSON, valid, and text forms), shows none of secrets and all of
// shown.
func CheckHidden[C fmt.Stringer](t *testing.T, cfg C, secrets, shown []string) {
	t.Helper()
	var jsonLog, textLog bytes.Buffer
	slog.New(slog.NewJSONHandler(&jsonLog, nil)).Info("configured", "config", cfg)
	slog.New(slog.NewTextHandler(&textLog, nil)).Info("configured", "config", cfg)
	if !json.Valid(jsonLog.Bytes()) {
		t.Errorf("the JSON log line is not JSON: %s", jsonLog.String())
	}
	forms := map[string]string{
		"%v": fmt.Sprintf("%v", cfg), "%+v": fmt.Sprintf("%+v", cfg), "%s": cfg.String(),
		"%v of a pointer": fmt.Sprintf("%v", &cfg), "%+v of a pointer": fmt.Sprintf("%+v", &cfg),
		"slog JSON": jsonLog.String(), "slog text": textLog.String(),
	}
	if _, ok := any(cfg).(fmt.GoStringer); ok {
		forms["%#v"] = fmt.Sprintf("%#v", cfg)
	}
	for name, form := range forms {
		for _, s := range secrets {
			if strings.Contains(form, s) {
				t.Errorf("%s shows %q: %s", name, s, form)
			}
		}
		for _, s := range shown {
			if !strings.Contains(form, s) {
				t.Errorf("%s lacks %q: %s", name, s, form)
			}
		}
	}
}
