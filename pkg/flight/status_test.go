package flight

import (
	"slices"
	"testing"

	"github.com/voyage/voyage/pkg/booking"
)

func TestEveryStatusHasAToneAndAPlaceInTheMachine(t *testing.T) {
	t.Parallel()
	for _, s := range Statuses {
		if Tone(s) == "" {
			t.Errorf("%s has no tone", s)
		}
		if typeOf(s) == "" {
			t.Errorf("%s is in no order type's machine", s)
		}
	}
	if len(tones) != len(Statuses) {
		t.Errorf("%d tones for %d statuses", len(tones), len(Statuses))
	}
}

func TestTransitionsStayWithinTheSpecStatuses(t *testing.T) {
	t.Parallel()
	for typ, edges := range transitions {
		seen := map[[2]string]bool{}
		for _, e := range edges {
			if !ValidStatus(string(e.From)) || !ValidStatus(string(e.To)) {
				t.Errorf("%s: %s -%s-> %s uses an unknown status", typ, e.From, e.Action, e.To)
			}
			k := [2]string{string(e.From), string(e.Action)}
			if seen[k] {
				t.Errorf("%s: %s has two edges for %s", typ, e.From, e.Action)
			}
			seen[k] = true
			if e.By != booking.ByAgency && e.By != booking.ByProvider && e.By != booking.BySystem {
				t.Errorf("%s: %s -%s-> has no party", typ, e.From, e.Action)
			}
		}
	}
}

func TestTransitions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ    string
		from   Status
		action Action
		to     Status
		ok     bool
	}{
		{TypeOrigin, ToBePaid, ActPay, Proceeding, true},
		{TypeOrigin, ToBePaid, ActExpire, Closed, true},
		{TypeOrigin, Proceeding, ActPay, "", false},
		{TypeOrigin, Issued, ActCancel, "", false},
		{TypeOrigin, Proceeding, ActTicketFailed, Failed, true},
		{TypeOrigin, Failed, ActReimburse, FailedReimbursing, true},
		{TypeOrigin, FailedReimbursing, ActReimbursed, FailedReimbursed, true},
		{TypeOrigin, Holding, ActPaid, Proceeding, true},
		{TypeOrigin, Holding, ActCancel, "", false},
		{TypeRefund, RfdReviewing, ActApprove, RfdToBeConfirm, true},
		{TypeRefund, RfdToBeConfirm, ActConfirm, RfdProceeding, true},
		{TypeRefund, RfdProceeding, ActCancelRefund, "", false},
		{TypeRefund, Refunded, ActReimburse, RefundedReimbursing, true},
		{TypeChange, ChgReviewing, ActQuote, ChgToBePaid, true},
		{TypeChange, ChgToBePaid, ActConfirm, ChgProceeding, true},
		{TypeChange, ChgProceeding, ActFailed, Reimbursing, true},
		{TypeChange, Reimbursing, ActReimbursed, ChangeFailed, true},
		{TypeVoid, VoidProceeding, ActApprove, Voided, true},
		{TypeVoid, Voided, ActReimburse, VoidedReimbursing, true},
		{TypeVoid, VoidRejected, ActApprove, "", false},
	}
	for _, tt := range tests {
		to, ok := Next(tt.typ, tt.from, tt.action)
		if ok != tt.ok || to != tt.to {
			t.Errorf("Next(%s, %s, %s) = %s, %v; want %s, %v", tt.typ, tt.from, tt.action, to, ok, tt.to, tt.ok)
		}
	}
}

func TestAllowedSplitsAgencyAndProvider(t *testing.T) {
	t.Parallel()
	if got := Allowed(TypeOrigin, ToBePaid, booking.ByAgency); !slices.Equal(got, []Action{ActPay, ActCancel}) {
		t.Errorf("agency on to_be_paid: %v", got)
	}
	if got := Allowed(TypeOrigin, ToBePaid, booking.ByProvider); len(got) != 0 {
		t.Errorf("provider on to_be_paid: %v", got)
	}
	if got := Allowed(TypeRefund, RfdReviewing, booking.ByProvider); !slices.Equal(got, []Action{ActApprove, ActQuote, ActReject}) {
		t.Errorf("provider on rfd_reviewing: %v", got)
	}
	if got := Allowed(TypeOrigin, Issued, booking.ByAgency); !slices.Equal(got, []Action{ActChange, ActRefund, ActVoid}) {
		t.Errorf("agency on issued: %v", got)
	}
}

func TestPendingGroupsAreTheSpecs(t *testing.T) {
	t.Parallel()
	want := map[string][]Status{
		"to_be_paid": {ToBePaid, ChgToBePaid}, "reviewing": {Reviewing, ChgReviewing, RfdReviewing},
		"proceeding": {Proceeding, ChgProceeding, RfdProceeding}, "pending-confirm": {RfdToBeConfirm}, "refunding": {RefundedReimbursing},
	}
	for name, statuses := range want {
		if got := GroupStatuses(name); !slices.Equal(got, statuses) {
			t.Errorf("%s = %v, want %v", name, got, statuses)
		}
	}
	if GroupStatuses("nope") != nil {
		t.Error("unknown group has statuses")
	}
}

// typeOf is the order type whose machine holds status s (statuses are shared
// by no two types, apart from the generic holding and canceled).
func typeOf(s Status) string {
	for _, t := range Types {
		for _, e := range transitions[t] {
			if e.From == s || e.To == s {
				return t
			}
		}
	}
	return ""
}
