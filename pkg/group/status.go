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

// Who may take an action.
const (
	ByAgency   = booking.ByAgency
	ByProvider = booking.ByProvider
	BySystem   = "system"
)

type edge struct {
	from   Status
	action Action
	to     Status
	by     string
}

// transitions is the whole status machine. Where one action has several
// edges from a status (grant, pay), they are listed in preference order and
// Next takes the first whose paying stage the quote has: a quote with fewer
// deposits skips the stages it lacks. Nothing else changes a status.
var transitions = []edge{
	{ToBeQuote, ActQuote, ToBeConfirm, ByProvider},
	{ToBeQuote, ActClose, Closed, ByProvider},
	{ToBeQuote, ActUpload, ToBeQuote, ByAgency},
	{ToBeQuote, ActCancel, Canceled, ByAgency},
	{ToBeConfirm, ActQuote, ToBeConfirm, ByProvider},
	{ToBeConfirm, ActAccept, ToBeConfirm, ByAgency},
	{ToBeConfirm, ActUpload, ToBeConfirm, ByAgency},
	{ToBeConfirm, ActDecline, ToBeQuote, ByAgency},
	{ToBeConfirm, ActConfirm, ToBeApplySeat, ByAgency},
	{ToBeConfirm, ActCancel, Canceled, ByAgency},
	{ToBeConfirm, ActExpire, Closed, BySystem},
	{ToBeConfirm, ActMiss, Failed, BySystem},
	{ToBeApplySeat, ActApply, SeatApplying, ByProvider},
	{ToBeApplySeat, ActGrant, ToBePayFirst, ByProvider},
	{ToBeApplySeat, ActGrant, ToBePaySecond, ByProvider},
	{ToBeApplySeat, ActGrant, ToBePayThird, ByProvider},
	{ToBeApplySeat, ActGrant, ToBePaidLast, ByProvider},
	{ToBeApplySeat, ActRefuse, Failed, ByProvider},
	{ToBeApplySeat, ActCancel, Canceled, ByAgency},
	{SeatApplying, ActGrant, ToBePayFirst, ByProvider},
	{SeatApplying, ActGrant, ToBePaySecond, ByProvider},
	{SeatApplying, ActGrant, ToBePayThird, ByProvider},
	{SeatApplying, ActGrant, ToBePaidLast, ByProvider},
	{SeatApplying, ActRefuse, Failed, ByProvider},
	{SeatApplying, ActCancel, Canceled, ByAgency},
	{ToBePayFirst, ActPay, ToBePaySecond, ByAgency},
	{ToBePayFirst, ActPay, ToBePayThird, ByAgency},
	{ToBePayFirst, ActPay, ToBePaidLast, ByAgency},
	{ToBePayFirst, ActCancel, Canceled, ByAgency},
	{ToBePayFirst, ActMiss, Failed, BySystem},
	{ToBePaySecond, ActPay, ToBePayThird, ByAgency},
	{ToBePaySecond, ActPay, ToBePaidLast, ByAgency},
	{ToBePaySecond, ActCancel, Canceled, ByAgency},
	{ToBePaySecond, ActMiss, Failed, BySystem},
	{ToBePayThird, ActPay, ToBePaidLast, ByAgency},
	{ToBePayThird, ActCancel, Canceled, ByAgency},
	{ToBePayThird, ActMiss, Failed, BySystem},
	{ToBePaidLast, ActPay, Proceeding, ByAgency},
	{ToBePaidLast, ActCancel, Canceled, ByAgency},
	{ToBePaidLast, ActMiss, Failed, BySystem},
	{Proceeding, ActTicketed, Issued, BySystem},
}

// Next is where action leads an order in status from whose quote has the
// paying stages stages; ok is false when the machine forbids it.
func Next(from Status, action Action, stages []string) (Status, bool) {
	for _, e := range transitions {
		if e.from != from || e.action != action {
			continue
		}
		if st := StageOf(e.to); st != "" && !slices.Contains(stages, st) {
			continue
		}
		return e.to, true
	}
	return "", false
}

// Party says who may take action in status s ("" when nobody may).
func Party(s Status, action Action) string {
	for _, e := range transitions {
		if e.from == s && e.action == action {
			return e.by
		}
	}
	return ""
}

// Allowed lists the actions party may take in status s, in table order,
// each once.
func Allowed(s Status, party string) []Action {
	out := []Action{}
	for _, e := range transitions {
		if e.from == s && e.by == party && !slices.Contains(out, e.action) {
			out = append(out, e.action)
		}
	}
	return out
}

// Open reports whether an order in s may still change (not a final status).
func Open(s Status) bool {
	return !slices.Contains([]Status{Issued, Failed, Canceled, Closed}, s)
}

// Display tones (spec §4's tones, as flight orders use them).
var tones = map[Status]string{
	ToBeQuote: "warning", ToBeConfirm: "primary", ToBeApplySeat: "primary", SeatApplying: "warning",
	ToBePayFirst: "primary", ToBePaySecond: "primary", ToBePayThird: "primary", ToBePaidLast: "primary",
	Proceeding: "primary", Issued: "success", Failed: "error", Canceled: "info", Closed: "info",
}

// Tone is the display tone of a status.
func Tone(s Status) string { return tones[s] }
