package flight

// CreateRequest is POST /order/v2/flight/orders. QuoteID is the quote the
// verification answered; a SolutionID alone books the caller's latest valid
// quote of that solution.
type CreateRequest struct {
	QuoteID     string      `json:"quoteId,omitempty"`
	SolutionID  string      `json:"solutionId,omitempty"`
	Passengers  []Passenger `json:"passengers" jsonschema:"required"`
	Contact     Contact     `json:"contact" jsonschema:"required"`
	InvoiceType string      `json:"invoiceType,omitempty" jsonschema:"enum=Bill,enum=Itinerary,enum=ItineraryWithBill,enum=None"`
	Remark      string      `json:"remark,omitempty"`
}

// PayRequest is POST /order/v2/flight/orders/{id}/payment.
type PayRequest struct {
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

// ChangeSearchRequest is POST /order/v2/flight/orders/{id}/change/search:
// the new dates (and, optionally, airports) of each journey.
type ChangeSearchRequest struct {
	Journeys []JourneyChange `json:"journeys"`
}

// JourneyChange is one journey of a change search.
type JourneyChange struct {
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	Date        string `json:"date"`
}

// ReviewRequest is the provider's review of a request or order: approve,
// reject or quote (with the amounts), issue a held booking, or resolve an
// order whose supplier outcome was unknown.
type ReviewRequest struct {
	Action Action `json:"action" jsonschema:"enum=approve,enum=reject,enum=quote,enum=issue,enum=resolve_ok,enum=resolve_failed"`
	Remark string `json:"remark"`
	// Quote amounts (decimal strings in the order's currency): for a refund
	// what goes back and the airline's fee; for a change what is due and the
	// airline's fee. Empty amounts come from the supplier's own quote.
	RefundAmount string `json:"refundAmount,omitempty"`
	Fee          string `json:"fee,omitempty"`
	Due          string `json:"due,omitempty"`
	// ConfirmHours is how long the agency has to confirm (default 24).
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
	Type   string `json:"type" jsonschema:"enum=change,enum=cancel_no_save,enum=cancel_save,enum=restore"`
	Detail string `json:"detail"`
}
