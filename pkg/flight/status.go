package flight

import (
	"slices"

	"github.com/voyage/voyage/pkg/booking"
)

// Order types (spec §3): the original booking and the post-sale requests made
// against it. Each request is an order row of its own pointing at the order it
// changes, refunds or voids.
const (
	TypeOrigin = "origin"
	TypeChange = "change"
	TypeRefund = "refund"
	TypeVoid   = "void"
)

// Types lists the order types; "all" is a filter value only.
var Types = []string{TypeOrigin, TypeChange, TypeRefund, TypeVoid}

// Status is a flight order status of spec §4.
type Status string

// The statuses of spec §4.
const (
	Reserved            Status = "reserved"
	Reviewing           Status = "reviewing"
	ToBePaid            Status = "to_be_paid"
	Proceeding          Status = "proceeding"
	Issued              Status = "issued"
	Failed              Status = "failed"
	FailedReimbursing   Status = "failed_reimbursing"
	FailedReimbursed    Status = "failed_reimbursed"
	ChgReviewing        Status = "chg_reviewing"
	ChgRejected         Status = "chg_rejected"
	ChgToBePaid         Status = "chg_to_be_paid"
	ChgProceeding       Status = "chg_proceeding"
	Changed             Status = "changed"
	Reimbursing         Status = "reimbursing"
	RfdReviewing        Status = "rfd_reviewing"
	RfdRejected         Status = "rfd_rejected"
	RfdToBeConfirm      Status = "rfd_to_be_confirm"
	RfdProceeding       Status = "rfd_proceeding"
	Refunded            Status = "refunded"
	RefundedReimbursing Status = "refunded_reimbursing"
	RefundedReimbursed  Status = "refunded_reimbursed"
	VoidProceeding      Status = "void_proceeding"
	VoidRejected        Status = "void_rejected"
	Voided              Status = "voided"
	VoidedReimbursing   Status = "voided_reimbursing"
	VoidedReimbursed    Status = "voided_reimbursed"
	Closed              Status = "closed"
	Canceled            Status = "canceled"
	Holding             Status = "holding"
	OriginCanceled      Status = "origin_canceled"
	OriginHolding       Status = "origin_holding"
	OriginFailed        Status = "origin_failed"
	ChangeCanceled      Status = "change_canceled"
	ChangeHolding       Status = "change_holding"
	ChangeFailed        Status = "change_failed"
	RefundCanceled      Status = "refund_canceled"
	RefundHolding       Status = "refund_holding"
	RefundFailed        Status = "refund_failed"
	VoidCanceled        Status = "void_canceled"
	VoidHolding         Status = "void_holding"
	VoidFailed          Status = "void_failed"
)

// Statuses lists every status in the order of spec §4.
var Statuses = []Status{
	Reserved, Reviewing, ToBePaid, Proceeding, Issued, Failed, FailedReimbursing, FailedReimbursed,
	ChgReviewing, ChgRejected, ChgToBePaid, ChgProceeding, Changed, Reimbursing,
	RfdReviewing, RfdRejected, RfdToBeConfirm, RfdProceeding, Refunded, RefundedReimbursing, RefundedReimbursed,
	VoidProceeding, VoidRejected, Voided, VoidedReimbursing, VoidedReimbursed, Closed, Canceled, Holding,
	OriginCanceled, OriginHolding, OriginFailed, ChangeCanceled, ChangeHolding, ChangeFailed,
	RefundCanceled, RefundHolding, RefundFailed, VoidCanceled, VoidHolding, VoidFailed,
}

// Action is something a person or the system does to an order.
type Action string

// Actions. The agency's: pay, cancel (booking), cancel_change, cancel_refund,
// confirm (a quoted refund or change), change, refund and void (requests made
// on an issued order; void is the spec's "proceed to void"). The provider's:
// approve, reject, quote (post-sale reviews), issue (a held booking of an
// agency that cannot pay itself), resolve_ok and resolve_failed (a supplier
// step whose outcome was unknown). The system's: ticketed, ticket_failed,
// uncertain, reimburse, reimbursed, expire, done, supplier_failed, superseded,
// refunded_all.
const (
	ActPay           Action = "pay"
	ActCancel        Action = "cancel"
	ActCancelChange  Action = "cancel_change"
	ActCancelRefund  Action = "cancel_refund"
	ActCancelVoid    Action = "cancel_void"
	ActConfirm       Action = "confirm"
	ActChange        Action = "change"
	ActRefund        Action = "refund"
	ActVoid          Action = "void"
	ActApprove       Action = "approve"
	ActReject        Action = "reject"
	ActQuote         Action = "quote"
	ActIssue         Action = "issue"
	ActResolveOK     Action = "resolve_ok"
	ActResolveFailed Action = "resolve_failed"
	ActTicketed      Action = "ticketed"
	ActTicketFailed  Action = "ticket_failed"
	ActUncertain     Action = "uncertain"
	ActReimburse     Action = "reimburse"
	ActReimbursed    Action = "reimbursed"
	ActExpire        Action = "expire"
	ActDone          Action = "done"
	ActFailed        Action = "supplier_failed"
	ActSuperseded    Action = "superseded"
	ActClose         Action = "close"
	ActPayUncertain  Action = "payment_uncertain"
	ActPaid          Action = "paid"
	ActUnpaid        Action = "unpaid"
)

type machine = booking.Machine[Status, Action]

// move is an edge of the machine.
var move = booking.Move[Status, Action]

// transitions is the whole status machine: every status an order of each
// type can be in, every action allowed there, who may take it and where it
// leads. Nothing else in the package changes a status.
var transitions = map[string]machine{
	TypeOrigin: {
		move(Reviewing, ActApprove, ToBePaid, booking.ByProvider),
		move(Reviewing, ActReject, OriginCanceled, booking.ByProvider),
		move(Reviewing, ActCancel, Canceled, booking.ByAgency),
		move(ToBePaid, ActPay, Proceeding, booking.ByAgency),
		move(ToBePaid, ActCancel, Canceled, booking.ByAgency),
		move(ToBePaid, ActExpire, Closed, booking.BySystem),
		// A payment gateway that did not answer: the order waits, neither
		// payable again nor ticketed, until the gateway says what happened.
		move(ToBePaid, ActPayUncertain, Holding, booking.BySystem),
		move(Holding, ActPaid, Proceeding, booking.BySystem),
		move(Holding, ActUnpaid, ToBePaid, booking.BySystem),
		move(Holding, ActExpire, Closed, booking.BySystem),
		move(Reserved, ActIssue, Proceeding, booking.ByProvider),
		move(Reserved, ActCancel, Canceled, booking.ByAgency),
		move(Reserved, ActExpire, Closed, booking.BySystem),
		move(Proceeding, ActTicketed, Issued, booking.BySystem),
		move(Proceeding, ActTicketFailed, Failed, booking.BySystem),
		move(Proceeding, ActUncertain, OriginHolding, booking.BySystem),
		move(OriginHolding, ActResolveOK, Issued, booking.ByProvider),
		move(OriginHolding, ActResolveFailed, Failed, booking.ByProvider),
		move(Failed, ActReimburse, FailedReimbursing, booking.BySystem),
		// Nothing was paid (a held booking the provider issued on account):
		// the failure is final with nothing to give back.
		move(Failed, ActClose, OriginFailed, booking.BySystem),
		move(FailedReimbursing, ActReimbursed, FailedReimbursed, booking.BySystem),
		move(Issued, ActChange, Issued, booking.ByAgency),
		move(Issued, ActRefund, Issued, booking.ByAgency),
		move(Issued, ActVoid, Issued, booking.ByAgency),
		move(Issued, ActSuperseded, Changed, booking.BySystem),
		move(Issued, ActClose, Closed, booking.BySystem),
		// A changed order's new tickets live on its change order; the
		// refund or void of a changed trip is requested there.
	},
	TypeChange: {
		move(ChgReviewing, ActQuote, ChgToBePaid, booking.ByProvider),
		move(ChgReviewing, ActReject, ChgRejected, booking.ByProvider),
		move(ChgReviewing, ActCancelChange, ChangeCanceled, booking.ByAgency),
		move(ChgToBePaid, ActConfirm, ChgProceeding, booking.ByAgency),
		move(ChgToBePaid, ActCancelChange, ChangeCanceled, booking.ByAgency),
		move(ChgToBePaid, ActExpire, ChangeCanceled, booking.BySystem),
		move(ChgProceeding, ActDone, Changed, booking.BySystem),
		move(ChgProceeding, ActFailed, Reimbursing, booking.BySystem),
		move(ChgProceeding, ActUncertain, ChangeHolding, booking.BySystem),
		move(ChangeHolding, ActResolveOK, Changed, booking.ByProvider),
		move(ChangeHolding, ActResolveFailed, Reimbursing, booking.ByProvider),
		move(Reimbursing, ActReimbursed, ChangeFailed, booking.BySystem),
		move(Changed, ActChange, Changed, booking.ByAgency),
		move(Changed, ActRefund, Changed, booking.ByAgency),
		move(Changed, ActVoid, Changed, booking.ByAgency),
		move(Changed, ActSuperseded, Closed, booking.BySystem),
		move(Changed, ActClose, Closed, booking.BySystem),
	},
	TypeRefund: {
		move(RfdReviewing, ActApprove, RfdToBeConfirm, booking.ByProvider),
		move(RfdReviewing, ActQuote, RfdToBeConfirm, booking.ByProvider),
		move(RfdReviewing, ActReject, RfdRejected, booking.ByProvider),
		move(RfdReviewing, ActCancelRefund, RefundCanceled, booking.ByAgency),
		move(RfdToBeConfirm, ActConfirm, RfdProceeding, booking.ByAgency),
		move(RfdToBeConfirm, ActCancelRefund, RefundCanceled, booking.ByAgency),
		move(RfdToBeConfirm, ActExpire, RefundCanceled, booking.BySystem),
		move(RfdProceeding, ActDone, Refunded, booking.BySystem),
		move(RfdProceeding, ActFailed, RefundFailed, booking.BySystem),
		move(RfdProceeding, ActUncertain, RefundHolding, booking.BySystem),
		move(RefundHolding, ActResolveOK, Refunded, booking.ByProvider),
		move(RefundHolding, ActResolveFailed, RefundFailed, booking.ByProvider),
		move(Refunded, ActReimburse, RefundedReimbursing, booking.BySystem),
		move(RefundedReimbursing, ActReimbursed, RefundedReimbursed, booking.BySystem),
	},
	TypeVoid: {
		move(VoidProceeding, ActApprove, Voided, booking.ByProvider),
		move(VoidProceeding, ActReject, VoidRejected, booking.ByProvider),
		move(VoidProceeding, ActCancelVoid, VoidCanceled, booking.ByAgency),
		move(VoidProceeding, ActFailed, VoidFailed, booking.BySystem),
		move(VoidProceeding, ActUncertain, VoidHolding, booking.BySystem),
		move(VoidHolding, ActResolveOK, Voided, booking.ByProvider),
		move(VoidHolding, ActResolveFailed, VoidFailed, booking.ByProvider),
		move(Voided, ActReimburse, VoidedReimbursing, booking.BySystem),
		move(VoidedReimbursing, ActReimbursed, VoidedReimbursed, booking.BySystem),
	},
}

// Next is where action leads an order of type typ in status from; ok is
// false when the status machine forbids it.
func Next(typ string, from Status, action Action) (Status, bool) {
	return transitions[typ].Next(from, action, nil)
}

// Allowed lists the actions party (booking.ByAgency, booking.ByProvider) may take on an order
// of type typ in status s, in table order.
func Allowed(typ string, s Status, party string) []Action { return transitions[typ].Allowed(s, party) }

// Party says who may take action on an order of type typ in status s ("" when
// nobody may).
func Party(typ string, s Status, action Action) string { return transitions[typ].Party(s, action) }

var tones = map[Status]string{
	Reserved: booking.ToneSuccess, Issued: booking.ToneSuccess, Changed: booking.ToneSuccess, Refunded: booking.ToneSuccess,
	RefundedReimbursed: booking.ToneSuccess, VoidedReimbursed: booking.ToneSuccess,
	Reviewing: booking.ToneWarning, ChgReviewing: booking.ToneWarning, RfdReviewing: booking.ToneWarning,
	ChgProceeding: booking.ToneWarning, RfdProceeding: booking.ToneWarning, VoidProceeding: booking.ToneWarning,
	Reimbursing: booking.ToneWarning, FailedReimbursing: booking.ToneWarning, RefundedReimbursing: booking.ToneWarning, VoidedReimbursing: booking.ToneWarning,
	ToBePaid: booking.TonePrimary, Proceeding: booking.TonePrimary, ChgToBePaid: booking.TonePrimary, RfdToBeConfirm: booking.TonePrimary,
	Failed: booking.ToneError, ChgRejected: booking.ToneError, RfdRejected: booking.ToneError, VoidRejected: booking.ToneError,
	Holding: booking.ToneError, OriginHolding: booking.ToneError, ChangeHolding: booking.ToneError, RefundHolding: booking.ToneError, VoidHolding: booking.ToneError,
	OriginFailed: booking.ToneError, ChangeFailed: booking.ToneError, RefundFailed: booking.ToneError, VoidFailed: booking.ToneError,
	Closed: booking.ToneInfo, Canceled: booking.ToneInfo, OriginCanceled: booking.ToneInfo, ChangeCanceled: booking.ToneInfo, RefundCanceled: booking.ToneInfo,
	VoidCanceled: booking.ToneInfo, Voided: booking.ToneInfo, FailedReimbursed: booking.ToneInfo,
}

// Tone is the display tone of a status (spec §4).
func Tone(s Status) string { return tones[s] }

// Group is a pending-order menu entry (spec §4).
type Group struct {
	Name     string   `json:"name"`
	Statuses []Status `json:"statuses"`
}

// PendingGroups are the side menu's pending groups, in menu order.
var PendingGroups = []Group{
	{"to_be_paid", []Status{ToBePaid, ChgToBePaid}},
	{"reviewing", []Status{Reviewing, ChgReviewing, RfdReviewing}},
	{"proceeding", []Status{Proceeding, ChgProceeding, RfdProceeding}},
	{"pending-confirm", []Status{RfdToBeConfirm}},
	{"refunding", []Status{RefundedReimbursing}},
}

// GroupStatuses returns the statuses of a pending group, nil for none.
func GroupStatuses(name string) []Status {
	for _, g := range PendingGroups {
		if g.Name == name {
			return g.Statuses
		}
	}
	return nil
}

// ValidStatus reports whether s is a status of spec §4.
func ValidStatus(s string) bool { return slices.Contains(Statuses, Status(s)) }
