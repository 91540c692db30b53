package flight

// CreateRequest books a verified quote (POST /order/v2/flight/orders).
// QuoteID is the quote the verification answered; a SolutionID alone books
// the caller's latest valid quote of that solution.
type CreateRequest struct {
	// QuoteID is the quoteId a price check (POST
	// /shopping/v2/flight/solutions/{id}/verification) answered, valid for
	// 15 minutes; quoteId or solutionId is required.
	QuoteID string `json:"quoteId,omitempty"`
	// SolutionID books the caller's latest price check of this solution,
	// when quoteId is left out.
	SolutionID string `json:"solutionId,omitempty"`
	// Passengers are the travellers, as many of each type (adult, child,
	// infant by age on the day of the first flight) as the search asked
	// for.
	Passengers []Passenger `json:"passengers" jsonschema:"required"`
	// Contact is who the airline and the provider contact about the
	// booking.
	Contact Contact `json:"contact" jsonschema:"required"`
	// InvoiceType is the invoice document wanted: Bill, Itinerary,
	// ItineraryWithBill or None (the default).
	InvoiceType string `json:"invoiceType,omitempty" jsonschema:"enum=Bill,enum=Itinerary,enum=ItineraryWithBill,enum=None"`
	// Remark is a note for the provider, kept on the order's timeline (at
	// most 500 characters).
	Remark string `json:"remark,omitempty"`
}

// PayRequest pays an order (POST /order/v2/flight/orders/{id}/payment).
type PayRequest struct {
	// Channel is how to pay: balance (the agency's wallet, balance and
	// credit) or one of the gateway channels GET
	// /order/v2/flight/config/payment lists.
	Channel string `json:"channel" jsonschema:"required"`
	// TestOutcome (success, failure, timeout) steers the built-in test
	// gateway; real gateways ignore it.
	TestOutcome string `json:"testOutcome,omitempty"`
}

// File is an uploaded proof.
type File struct {
	Name string
	Data []byte
}

// PostSaleRequest is a change, refund or void request (multipart: reason,
// subReason, remark, optionId for a change, proof files).
type PostSaleRequest struct {
	Reason    *int
	SubReason string
	Remark    string
	OptionID  string
	Proofs    []File
}

// ChangeSearchRequest asks for ways to change an order (POST
// /order/v2/flight/orders/{id}/change/search): the new dates (and,
// optionally, airports) of each journey.
type ChangeSearchRequest struct {
	// Journeys are the order's journeys as they should fly, one for each
	// of the order's journeys, in order.
	Journeys []JourneyChange `json:"journeys"`
}

// JourneyChange is one journey of a change search.
type JourneyChange struct {
	// Origin is the IATA code of the new departure airport; empty keeps
	// the journey's own.
	Origin string `json:"origin"`
	// Destination is the IATA code of the new arrival airport; empty keeps
	// the journey's own.
	Destination string `json:"destination"`
	// Date is the new departure date, YYYY-MM-DD, not before the agency's
	// today (required).
	Date string `json:"date"`
}

// ReviewRequest is the provider's review of a request or order: approve,
// reject or quote (with the amounts), issue a held booking, or resolve an
// order whose supplier outcome was unknown.
type ReviewRequest struct {
	// Action is the decision: approve (a booking under review, which gets
	// a new 15-minute payment window; a refund at the supplier's quote; a
	// void, carried out at once), reject (a booking under review or a
	// request), quote (a change or refund with the amounts below), issue (a
	// reserved booking of an agency that does not pay itself), or
	// resolve_ok or resolve_failed (an order held on an unknown supplier
	// outcome: it did or did not happen).
	Action Action `json:"action" jsonschema:"enum=approve,enum=reject,enum=quote,enum=issue,enum=resolve_ok,enum=resolve_failed"`
	// Remark is the provider's note, shown to the agency as the order's
	// reviewRemark (at most 500 characters).
	Remark string `json:"remark"`
	// RefundAmount is, for a refund, what the airline gives back (a
	// decimal string in the order's currency, at most what was paid); the
	// agency's refund service fee comes off it. Empty: the supplier's own
	// quote.
	RefundAmount string `json:"refundAmount,omitempty"`
	// Fee is the airline's refund or change fee (a decimal string in the
	// order's currency); empty: the supplier's own quote.
	Fee string `json:"fee,omitempty"`
	// Due is, for a change, the fare and tax difference to pay (a decimal
	// string in the order's currency); empty: the supplier's own quote
	// (required, with fee, when the change has none).
	Due string `json:"due,omitempty"`
	// ConfirmHours is how many hours the agency has to confirm a quoted
	// refund or change (default 24, at most 336); see the order's
	// confirmBy.
	ConfirmHours int `json:"confirmHours,omitempty"`
}

// Refund reasons of spec §9 with the sub-options of 2, 3 and 6.
var (
	RefundReasons = []int{0, 1, 2, 3, 4, 5, 6, 7}
	ChangeReasons = []int{0, 1, 7}
	SubReasons    = map[int][]string{
		2: {"passenger", "companion"},
		3: {"visa-refused", "entry-denied"},
		6: {"passenger", "family"},
	}
)

// Disruption types (spec §4 flight disruption).
var DisruptionTypes = []string{"change", "cancel_no_save", "cancel_save", "restore"}

// DisruptionRequest records a schedule change against an order.
type DisruptionRequest struct {
	// Type is the kind of change: change (schedule change),
	// cancel_no_save (flight cancelled, no alternative), cancel_save
	// (cancelled, rebooked) or restore (flight restored).
	Type string `json:"type" jsonschema:"enum=change,enum=cancel_no_save,enum=cancel_save,enum=restore"`
	// Detail says what changed, in words (at most 2,000 characters); it is
	// emailed to the order's contact.
	Detail string `json:"detail"`
}
