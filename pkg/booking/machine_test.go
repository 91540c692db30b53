package booking_test

import (
	"slices"
	"testing"

	"github.com/voyage/voyage/pkg/booking"
)

func TestMachine(t *testing.T) {
	t.Parallel()
	m := booking.Machine[string, string]{
		booking.Move("to_be_paid", "pay", "paid", booking.ByAgency),
		booking.Move("to_be_paid", "cancel", "canceled", booking.ByAgency),
		booking.Move("applying", "grant", "pay_first", booking.ByProvider),
		booking.Move("applying", "grant", "pay_last", booking.ByProvider),
		booking.Move("to_be_paid", "expire", "canceled", booking.BySystem),
	}
	next := []struct {
		from, action string
		keep         func(string) bool
		to           string
		ok           bool
	}{
		{"to_be_paid", "pay", nil, "paid", true},
		{"paid", "pay", nil, "", false},
		{"applying", "grant", nil, "pay_first", true},
		// A quote without a first deposit skips to the edge it has.
		{"applying", "grant", func(s string) bool { return s != "pay_first" }, "pay_last", true},
		{"applying", "grant", func(string) bool { return false }, "", false},
	}
	for _, c := range next {
		if to, ok := m.Next(c.from, c.action, c.keep); to != c.to || ok != c.ok {
			t.Errorf("Next(%s, %s) = %q %v, want %q %v", c.from, c.action, to, ok, c.to, c.ok)
		}
	}
	if p := m.Party("applying", "grant"); p != booking.ByProvider {
		t.Errorf("party of grant: %q", p)
	}
	if p := m.Party("paid", "cancel"); p != "" {
		t.Errorf("party of a step the machine has not: %q", p)
	}
	if a := m.Allowed("applying", booking.ByProvider); !slices.Equal(a, []string{"grant"}) {
		t.Errorf("allowed: %v, want grant once", a)
	}
	if a := m.Allowed("to_be_paid", booking.ByProvider); a == nil || len(a) != 0 {
		t.Errorf("allowed none: %#v, want an empty list", a)
	}
}
