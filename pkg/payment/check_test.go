package payment

import (
	"encoding/json"
	"testing"
)

type testCheck struct{}

func (testCheck) CheckKind() string { return "test_payment_check" }

// A line's check job keeps the kind and JSON its jobs were queued with
// before the lines shared CheckArgs: a job queued by the previous version
// is still taken, and one queued now reads as before.
func TestCheckArgs(t *testing.T) {
	if got := (CheckArgs[testCheck]{}).Kind(); got != "test_payment_check" {
		t.Errorf("Kind = %q, want the line's", got)
	}
	if n := (CheckArgs[testCheck]{}).InsertOpts().MaxAttempts; n != 20 {
		t.Errorf("MaxAttempts = %d, want 20", n)
	}
	for _, c := range []struct {
		args CheckArgs[testCheck]
		want string
	}{
		{CheckArgs[testCheck]{OrderID: 7}, `{"orderId":7}`},
		{CheckArgs[testCheck]{OrderID: 7, Stage: "second"}, `{"orderId":7,"stage":"second"}`},
	} {
		raw, err := json.Marshal(c.args)
		if err != nil || string(raw) != c.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", c.args, raw, err, c.want)
		}
		var back CheckArgs[testCheck]
		if err := json.Unmarshal([]byte(c.want), &back); err != nil || back != c.args {
			t.Errorf("Unmarshal(%s) = %+v, %v", c.want, back, err)
		}
	}
}
