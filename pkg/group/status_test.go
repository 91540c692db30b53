package group

import (
	"slices"
	"testing"

	"github.com/voyage/voyage/pkg/booking"
)

func TestNextSkipsMissingStages(t *testing.T) {
	t.Parallel()
	all := []string{StageFirst, StageSecond, StageThird, StageFinal}
	for _, c := range []struct {
		name   string
		from   Status
		action Action
		stages []string
		want   Status
		ok     bool
	}{
		{"granted with three deposits", SeatApplying, ActGrant, all, ToBePayFirst, true},
		{"granted with only the final payment", SeatApplying, ActGrant, []string{StageFinal}, ToBePaidLast, true},
		{"granted straight from confirmation", ToBeApplySeat, ActGrant, []string{StageSecond, StageFinal}, ToBePaySecond, true},
		{"first deposit then the third", ToBePayFirst, ActPay, []string{StageFirst, StageThird, StageFinal}, ToBePayThird, true},
		{"first deposit then the balance", ToBePayFirst, ActPay, []string{StageFirst, StageFinal}, ToBePaidLast, true},
		{"second deposit in order", ToBePaySecond, ActPay, all, ToBePayThird, true},
		{"final payment", ToBePaidLast, ActPay, all, Proceeding, true},
		{"refused seats fail", SeatApplying, ActRefuse, all, Failed, true},
		{"a missed deposit fails", ToBePayThird, ActMiss, all, Failed, true},
		{"a lapsed quote closes", ToBeConfirm, ActExpire, nil, Closed, true},
		{"decline goes back to quoting", ToBeConfirm, ActDecline, nil, ToBeQuote, true},
		{"no paying before seats", ToBeApplySeat, ActPay, all, "", false},
		{"no cancelling an issued group", Issued, ActCancel, all, "", false},
		{"no cancelling while ticketing", Proceeding, ActCancel, all, "", false},
		{"no confirming before a quote", ToBeQuote, ActConfirm, nil, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Next(c.from, c.action, c.stages)
			if got != c.want || ok != c.ok {
				t.Fatalf("Next(%s, %s, %v) = %s %v, want %s %v", c.from, c.action, c.stages, got, ok, c.want, c.ok)
			}
		})
	}
}

// Every status is reachable from to_be_quote and every open status can end.
func TestTransitionTableCoversStatuses(t *testing.T) {
	t.Parallel()
	reached := map[Status]bool{ToBeQuote: true}
	for changed := true; changed; {
		changed = false
		for _, e := range transitions {
			if reached[e.From] && !reached[e.To] {
				reached[e.To], changed = true, true
			}
		}
	}
	for _, s := range Statuses {
		if !reached[s] {
			t.Errorf("%s is unreachable", s)
		}
		if Tone(s) == "" {
			t.Errorf("%s has no tone", s)
		}
		if Open(s) && s != Proceeding && !slices.Contains(Allowed(s, booking.ByAgency), ActCancel) {
			t.Errorf("the agency cannot cancel in %s", s)
		}
	}
}

func TestAllowedByParty(t *testing.T) {
	t.Parallel()
	if got := Allowed(ToBeConfirm, booking.ByAgency); !slices.Equal(got, []Action{ActAccept, ActUpload, ActDecline, ActConfirm, ActCancel}) {
		t.Errorf("agency in to_be_confirm: %v", got)
	}
	if got := Allowed(SeatApplying, booking.ByProvider); !slices.Equal(got, []Action{ActGrant, ActRefuse}) {
		t.Errorf("provider in seat_applying: %v", got)
	}
	if got := Allowed(Issued, booking.ByAgency); len(got) != 0 {
		t.Errorf("agency in issued: %v", got)
	}
}

// TestQuoteOffer: in to_be_confirm the agency is offered accept on an open
// quote and confirm only once it accepted it, never both; accepting twice
// is refused.
func TestQuoteOffer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		quote string
		want  []Action
	}{
		{QuoteCurrent, []Action{ActAccept, ActUpload, ActDecline, ActCancel}},
		{QuoteAccepted, []Action{ActUpload, ActDecline, ActConfirm, ActCancel}},
		{"", []Action{ActUpload, ActDecline, ActCancel}},
	}
	for _, tt := range tests {
		got := slices.DeleteFunc(Allowed(ToBeConfirm, booking.ByAgency), func(a Action) bool { return !QuoteOffer(a, tt.quote) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("quote %q: offered %v, want %v", tt.quote, got, tt.want)
		}
	}
	if QuoteStep(ActAccept, QuoteAccepted) || !QuoteStep(ActConfirm, QuoteCurrent) {
		t.Error("accept of an accepted quote allowed, or confirming an open quote refused")
	}
}
