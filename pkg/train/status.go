package train

import (
	"slices"

	"github.com/voyage/voyage/pkg/booking"
)

// Status is a train order's status. The names follow the flight orders'
// (spec §4) where the meaning is the same, so the portal's tones and menus
// read alike; partially_refunded and the change states are the train's own
// (China Railway refunds some passengers of a booking and changes a ticket
// once, both on the booking itself rather than on a second order).
type Status string

// The statuses.
const (
	// ToBePaid: seats held by the railway until HoldExpiresAt (OSDM
	// pre-booked, 12306 unpaid order).
	ToBePaid Status = "to_be_paid"
	// Holding: a payment gateway has not answered yet; neither payable
	// again nor ticketed until it does.
	Holding Status = "holding"
	// Proceeding: paid, the tickets being issued (by the supplier in the
	// background, or by the provider's hand in manual mode).
	Proceeding Status = "proceeding"
	Issued     Status = "issued"
	// Failed: the railway refused to issue; the payment goes back at once.
	Failed           Status = "failed"
	FailedReimbursed Status = "failed_reimbursed"
	// Canceled: the agency dropped an unpaid order, or its hold ran out.
	Canceled Status = "canceled"
	// RfdToBeConfirm: a refund quote waits for the agency's confirmation.
	RfdToBeConfirm Status = "rfd_to_be_confirm"
	RfdProceeding  Status = "rfd_proceeding"
	// PartiallyRefunded: some passengers' tickets refunded, the others
	// still valid.
	PartiallyRefunded Status = "partially_refunded"
	Refunded          Status = "refunded"
	// ChgToBeConfirm: a change quote (new train, fare difference) waits
	// for the agency's confirmation.
	ChgToBeConfirm Status = "chg_to_be_confirm"
	ChgProceeding  Status = "chg_proceeding"
	// Changed: some tickets moved to another train; all still valid.
	Changed Status = "changed"
)

// Statuses lists every status in the order a booking goes through them.
var Statuses = []Status{ToBePaid, Holding, Proceeding, Issued, Failed, FailedReimbursed, Canceled,
	RfdToBeConfirm, RfdProceeding, PartiallyRefunded, Refunded, ChgToBeConfirm, ChgProceeding, Changed}

// ValidStatus reports whether s is a train order status.
func ValidStatus(s string) bool { return slices.Contains(Statuses, Status(s)) }

// Ticketed reports whether an order in s holds valid tickets that can be
// refunded or changed.
func Ticketed(s Status) bool { return s == Issued || s == Changed || s == PartiallyRefunded }

// Action is something a person or the system does to an order.
type Action string

// Actions. The agency's: pay, cancel, refund (ask for a quote), change (ask
// for a quote), confirm (a quote), cancel_refund, cancel_change. The
// provider's: confirm_tickets and fail_tickets (manual mode). The system's:
// ticketed, ticket_failed, reimbursed, expire, refunded, refunded_part,
// changed, after_sale_failed, payment_uncertain, paid, unpaid.
const (
	ActPay             Action = "pay"
	ActCancel          Action = "cancel"
	ActRefund          Action = "refund"
	ActChange          Action = "change"
	ActConfirm         Action = "confirm"
	ActCancelRefund    Action = "cancel_refund"
	ActCancelChange    Action = "cancel_change"
	ActConfirmTickets  Action = "confirm_tickets"
	ActFailTickets     Action = "fail_tickets"
	ActTicketed        Action = "ticketed"
	ActTicketFailed    Action = "ticket_failed"
	ActReimbursed      Action = "reimbursed"
	ActExpire          Action = "expire"
	ActRefundedAll     Action = "refunded"
	ActRefundedPart    Action = "refunded_part"
	ActChanged         Action = "changed"
	ActAfterSaleFailed Action = "after_sale_failed"
	ActPayUncertain    Action = "payment_uncertain"
	ActPaid            Action = "paid"
	ActUnpaid          Action = "unpaid"
)

// Resume is the target of the edges that go back to where the order was
// before a quote (an issued, changed or partly refunded booking): the order
// remembers it in Order.Resume.
const Resume Status = "(resume)"

type machine = booking.Machine[Status, Action]

// move is an edge of the machine.
var move = booking.Move[Status, Action]

// transitions is the whole status machine. Nothing else in the package
// changes a status.
var transitions = machine{
	move(ToBePaid, ActPay, Proceeding, booking.ByAgency),
	move(ToBePaid, ActCancel, Canceled, booking.ByAgency),
	move(ToBePaid, ActExpire, Canceled, booking.BySystem),
	// A payment gateway that did not answer: the order waits until the
	// gateway says what happened.
	move(ToBePaid, ActPayUncertain, Holding, booking.BySystem),
	move(Holding, ActPaid, Proceeding, booking.BySystem),
	move(Holding, ActUnpaid, ToBePaid, booking.BySystem),
	move(Proceeding, ActTicketed, Issued, booking.BySystem),
	move(Proceeding, ActConfirmTickets, Issued, booking.ByProvider),
	move(Proceeding, ActTicketFailed, Failed, booking.BySystem),
	move(Proceeding, ActFailTickets, Failed, booking.ByProvider),
	move(Failed, ActReimbursed, FailedReimbursed, booking.BySystem),

	move(Issued, ActRefund, RfdToBeConfirm, booking.ByAgency),
	move(Issued, ActChange, ChgToBeConfirm, booking.ByAgency),
	move(Changed, ActRefund, RfdToBeConfirm, booking.ByAgency),
	move(Changed, ActChange, ChgToBeConfirm, booking.ByAgency),
	move(PartiallyRefunded, ActRefund, RfdToBeConfirm, booking.ByAgency),
	move(PartiallyRefunded, ActChange, ChgToBeConfirm, booking.ByAgency),

	move(RfdToBeConfirm, ActConfirm, RfdProceeding, booking.ByAgency),
	move(RfdToBeConfirm, ActCancelRefund, Resume, booking.ByAgency),
	move(RfdToBeConfirm, ActExpire, Resume, booking.BySystem),
	move(RfdProceeding, ActRefundedAll, Refunded, booking.BySystem),
	move(RfdProceeding, ActRefundedPart, PartiallyRefunded, booking.BySystem),
	move(RfdProceeding, ActAfterSaleFailed, Resume, booking.BySystem),

	move(ChgToBeConfirm, ActConfirm, ChgProceeding, booking.ByAgency),
	move(ChgToBeConfirm, ActCancelChange, Resume, booking.ByAgency),
	move(ChgToBeConfirm, ActExpire, Resume, booking.BySystem),
	move(ChgProceeding, ActChanged, Changed, booking.BySystem),
	move(ChgProceeding, ActAfterSaleFailed, Resume, booking.BySystem),
}

// Next is where action leads an order in status from (Resume: back to the
// order's Resume status); ok is false when the machine forbids it.
func Next(from Status, action Action) (Status, bool) { return transitions.Next(from, action, nil) }

// Party is the side that takes action on an order in status s, "" when
// the machine has no such move.
func Party(s Status, action Action) string { return transitions.Party(s, action) }

// Allowed lists the actions party may take on an order in status s, in
// table order.
func Allowed(s Status, party string) []Action { return transitions.Allowed(s, party) }

var tones = map[Status]string{
	Issued: booking.ToneSuccess, Changed: booking.ToneSuccess, Refunded: booking.ToneSuccess, PartiallyRefunded: booking.ToneSuccess,
	RfdProceeding: booking.ToneWarning, ChgProceeding: booking.ToneWarning,
	ToBePaid: booking.TonePrimary, Proceeding: booking.TonePrimary, RfdToBeConfirm: booking.TonePrimary, ChgToBeConfirm: booking.TonePrimary,
	Failed: booking.ToneError, Holding: booking.ToneError,
	Canceled: booking.ToneInfo, FailedReimbursed: booking.ToneInfo,
}

// Tone is the display tone of a status.
func Tone(s Status) string { return tones[s] }
