package group

import (
	"slices"

	"github.com/voyage/voyage/pkg/booking"
)

// Status is a group order status of spec §4.
type Status string

// The 13 statuses of spec §4, in the order an order goes through them.
const (
	ToBeQuote     Status = "to_be_quote"
	ToBeConfirm   Status = "to_be_confirm"
	ToBeApplySeat Status = "to_be_apply_seat"
	SeatApplying  Status = "seat_applying"
	ToBePayFirst  Status = "to_be_pay_first"
	ToBePaySecond Status = "to_be_pay_second"
	ToBePayThird  Status = "to_be_pay_third"
	ToBePaidLast  Status = "to_be_paid_last_money"
	Proceeding    Status = "proceeding"
	Issued        Status = "issued"
	Failed        Status = "failed"
	Canceled      Status = "canceled"
	Closed        Status = "closed"
)

// Statuses lists every status in spec order (the list's side menu).
var Statuses = []Status{ToBeQuote, ToBeConfirm, ToBeApplySeat, SeatApplying, ToBePayFirst, ToBePaySecond, ToBePayThird,
	ToBePaidLast, Proceeding, Issued, Failed, Canceled, Closed}

// ValidStatus reports whether s is a group status.
func ValidStatus(s string) bool { return slices.Contains(Statuses, Status(s)) }

// Installment stages, in payment order.
const (
	StageFirst  = "first"
	StageSecond = "second"
	StageThird  = "third"
	StageFinal  = "final"
)

// Stages lists the stages in payment order.
var Stages = []string{StageFirst, StageSecond, StageThird, StageFinal}

// stageStatus is the status an order waits in while a stage is due.
var stageStatus = map[string]Status{StageFirst: ToBePayFirst, StageSecond: ToBePaySecond, StageThird: ToBePayThird, StageFinal: ToBePaidLast}

// StageOf is the stage a paying status waits for ("" for other statuses).
func StageOf(s Status) string {
	for st, v := range stageStatus {
		if v == s {
			return st
		}
	}
	return ""
}

// Action is something a person or the system does to a group order.
type Action string

// Actions. The agency's: accept and decline (a quote), confirm, pay, cancel.
// The provider's: quote (again), apply (for seats), grant, refuse, close (a
// request it will not quote). The system's: expire (a confirm-before time
// passed), miss (an installment or passenger-list deadline passed), ticketed.
const (
	ActQuote    Action = "quote"
	ActAccept   Action = "accept"
	ActDecline  Action = "decline"
	ActConfirm  Action = "confirm"
	ActApply    Action = "apply"
	ActGrant    Action = "grant"
	ActRefuse   Action = "refuse"
	ActPay      Action = "pay"
	ActCancel   Action = "cancel"
	ActClose    Action = "close"
	ActExpire   Action = "expire"
	ActMiss     Action = "miss"
	ActTicketed Action = "ticketed"
	// ActUpload is the passenger list's upload: no status change, but an
	// action the detail offers.
	ActUpload Action = "upload"
)

type machine = booking.Machine[Status, Action]

// move is an edge of the machine.
var move = booking.Move[Status, Action]

// transitions is the whole status machine. Where one action has several
// edges from a status (grant, pay), they are listed in preference order and
// Next takes the first whose paying stage the quote has: a quote with fewer
// deposits skips the stages it lacks. Nothing else changes a status.
var transitions = machine{
	move(ToBeQuote, ActQuote, ToBeConfirm, booking.ByProvider),
	move(ToBeQuote, ActClose, Closed, booking.ByProvider),
	move(ToBeQuote, ActUpload, ToBeQuote, booking.ByAgency),
	move(ToBeQuote, ActCancel, Canceled, booking.ByAgency),
	move(ToBeConfirm, ActQuote, ToBeConfirm, booking.ByProvider),
	move(ToBeConfirm, ActAccept, ToBeConfirm, booking.ByAgency),
	move(ToBeConfirm, ActUpload, ToBeConfirm, booking.ByAgency),
	move(ToBeConfirm, ActDecline, ToBeQuote, booking.ByAgency),
	move(ToBeConfirm, ActConfirm, ToBeApplySeat, booking.ByAgency),
	move(ToBeConfirm, ActCancel, Canceled, booking.ByAgency),
	move(ToBeConfirm, ActExpire, Closed, booking.BySystem),
	move(ToBeConfirm, ActMiss, Failed, booking.BySystem),
	move(ToBeApplySeat, ActApply, SeatApplying, booking.ByProvider),
	move(ToBeApplySeat, ActGrant, ToBePayFirst, booking.ByProvider),
	move(ToBeApplySeat, ActGrant, ToBePaySecond, booking.ByProvider),
	move(ToBeApplySeat, ActGrant, ToBePayThird, booking.ByProvider),
	move(ToBeApplySeat, ActGrant, ToBePaidLast, booking.ByProvider),
	move(ToBeApplySeat, ActRefuse, Failed, booking.ByProvider),
	move(ToBeApplySeat, ActCancel, Canceled, booking.ByAgency),
	move(SeatApplying, ActGrant, ToBePayFirst, booking.ByProvider),
	move(SeatApplying, ActGrant, ToBePaySecond, booking.ByProvider),
	move(SeatApplying, ActGrant, ToBePayThird, booking.ByProvider),
	move(SeatApplying, ActGrant, ToBePaidLast, booking.ByProvider),
	move(SeatApplying, ActRefuse, Failed, booking.ByProvider),
	move(SeatApplying, ActCancel, Canceled, booking.ByAgency),
	move(ToBePayFirst, ActPay, ToBePaySecond, booking.ByAgency),
	move(ToBePayFirst, ActPay, ToBePayThird, booking.ByAgency),
	move(ToBePayFirst, ActPay, ToBePaidLast, booking.ByAgency),
	move(ToBePayFirst, ActCancel, Canceled, booking.ByAgency),
	move(ToBePayFirst, ActMiss, Failed, booking.BySystem),
	move(ToBePaySecond, ActPay, ToBePayThird, booking.ByAgency),
	move(ToBePaySecond, ActPay, ToBePaidLast, booking.ByAgency),
	move(ToBePaySecond, ActCancel, Canceled, booking.ByAgency),
	move(ToBePaySecond, ActMiss, Failed, booking.BySystem),
	move(ToBePayThird, ActPay, ToBePaidLast, booking.ByAgency),
	move(ToBePayThird, ActCancel, Canceled, booking.ByAgency),
	move(ToBePayThird, ActMiss, Failed, booking.BySystem),
	move(ToBePaidLast, ActPay, Proceeding, booking.ByAgency),
	move(ToBePaidLast, ActCancel, Canceled, booking.ByAgency),
	move(ToBePaidLast, ActMiss, Failed, booking.BySystem),
	move(Proceeding, ActTicketed, Issued, booking.BySystem),
}

// Next is where action leads an order in status from whose quote has the
// paying stages stages; ok is false when the machine forbids it.
func Next(from Status, action Action, stages []string) (Status, bool) {
	return transitions.Next(from, action, func(to Status) bool {
		st := StageOf(to)
		return st == "" || slices.Contains(stages, st)
	})
}

// Party says who may take action in status s ("" when nobody may).
func Party(s Status, action Action) string { return transitions.Party(s, action) }

// Allowed lists the actions party may take in status s, in table order,
// each once.
func Allowed(s Status, party string) []Action { return transitions.Allowed(s, party) }

// QuoteStep reports whether action may be taken on an order whose current
// quote is in status quote ("" when it has none): accept takes a quote
// still open (current), never one already accepted; confirm takes a quote
// that stands (current or accepted: confirming accepts it, as the API has
// always allowed); every other action does not ask the quote.
func QuoteStep(action Action, quote string) bool {
	switch action {
	case ActAccept:
		return quote == QuoteCurrent
	case ActConfirm:
		return quote == QuoteCurrent || quote == QuoteAccepted
	}
	return true
}

// QuoteOffer reports whether the detail offers action on an order whose
// current quote is in status quote: what QuoteStep allows, in the order the
// page leads the agency through (accept the quote, send the names, then
// confirm), so confirm is offered once the quote is accepted and accept
// no more after it.
func QuoteOffer(action Action, quote string) bool {
	if action == ActConfirm {
		return quote == QuoteAccepted
	}
	return QuoteStep(action, quote)
}

// Open reports whether an order in s may still change (not a final status).
func Open(s Status) bool {
	return !slices.Contains([]Status{Issued, Failed, Canceled, Closed}, s)
}

// Display tones (spec §4's tones, as flight orders use them).
var tones = map[Status]string{
	ToBeQuote: booking.ToneWarning, ToBeConfirm: booking.TonePrimary, ToBeApplySeat: booking.TonePrimary, SeatApplying: booking.ToneWarning,
	ToBePayFirst: booking.TonePrimary, ToBePaySecond: booking.TonePrimary, ToBePayThird: booking.TonePrimary, ToBePaidLast: booking.TonePrimary,
	Proceeding: booking.TonePrimary, Issued: booking.ToneSuccess, Failed: booking.ToneError, Canceled: booking.ToneInfo, Closed: booking.ToneInfo,
}

// Tone is the display tone of a status.
func Tone(s Status) string { return tones[s] }
