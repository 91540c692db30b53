package train

import (
	"slices"
	"testing"

	"github.com/voyage/voyage/pkg/booking"
)

func TestTransitions(t *testing.T) {
	for _, c := range []struct {
		from   Status
		action Action
		to     Status
		ok     bool
	}{
		{ToBePaid, ActPay, Proceeding, true},
		{ToBePaid, ActExpire, Canceled, true},
		{ToBePaid, ActRefund, "", false},
		{Proceeding, ActTicketed, Issued, true},
		{Proceeding, ActConfirmTickets, Issued, true},
		{Proceeding, ActCancel, "", false},
		{Failed, ActReimbursed, FailedReimbursed, true},
		{Issued, ActRefund, RfdToBeConfirm, true},
		{PartiallyRefunded, ActRefund, RfdToBeConfirm, true},
		{Changed, ActChange, ChgToBeConfirm, true},
		{Refunded, ActRefund, "", false},
		{Canceled, ActPay, "", false},
		{RfdToBeConfirm, ActCancelRefund, Resume, true},
		{RfdProceeding, ActRefundedPart, PartiallyRefunded, true},
		{ChgProceeding, ActAfterSaleFailed, Resume, true},
		{RfdToBeConfirm, ActChange, "", false},
	} {
		to, ok := Next(c.from, c.action)
		if ok != c.ok || to != c.to {
			t.Errorf("%s --%s--> %q %v, want %q %v", c.from, c.action, to, ok, c.to, c.ok)
		}
	}
}

// Every status is reachable from to_be_paid, and every edge leads to a
// known status (or back where the order was).
func TestStatusMachineIsClosed(t *testing.T) {
	seen := map[Status]bool{ToBePaid: true}
	for changed := true; changed; {
		changed = false
		for _, e := range transitions {
			if !seen[e.From] {
				continue
			}
			if e.To != Resume && !ValidStatus(string(e.To)) {
				t.Errorf("edge %s --%s--> unknown %s", e.From, e.Action, e.To)
			}
			if e.To != Resume && !seen[e.To] {
				seen[e.To], changed = true, true
			}
		}
	}
	for _, s := range Statuses {
		if !seen[s] {
			t.Errorf("status %s is unreachable", s)
		}
		if Tone(s) == "" {
			t.Errorf("status %s has no tone", s)
		}
	}
}

func TestAllowedByParty(t *testing.T) {
	if got := Allowed(Issued, booking.ByAgency); !slices.Equal(got, []Action{ActRefund, ActChange}) {
		t.Errorf("agency on issued: %v", got)
	}
	if got := Allowed(Proceeding, booking.ByProvider); !slices.Equal(got, []Action{ActConfirmTickets, ActFailTickets}) {
		t.Errorf("provider on proceeding: %v", got)
	}
	if got := Allowed(Proceeding, booking.ByAgency); len(got) != 0 {
		t.Errorf("agency on proceeding: %v", got)
	}
	for _, s := range []Status{Issued, Changed, PartiallyRefunded} {
		if !Ticketed(s) {
			t.Errorf("%s holds tickets", s)
		}
	}
}
