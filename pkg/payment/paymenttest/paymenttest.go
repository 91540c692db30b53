// Package paymenttest holds the checks of payment.Channel's contract that
// every channel's tests make against its provider's fake.
package paymenttest

import (
	"context"
	"errors"
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
