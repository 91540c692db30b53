package duffel

import "time"

// Duffel's JSON, the subset of fields the connector reads or sends. Names
// follow Duffel's API reference (Duffel-Version v2).

type wireAirline struct {
	IATACode string `json:"iata_code"`
	Name     string `json:"name"`
}

type wirePlace struct {
	Type         string `json:"type"`
	IATACode     string `json:"iata_code"`
	IATACityCode string `json:"iata_city_code"`
	TimeZone     string `json:"time_zone"`
}

type wireBaggage struct {
	Type     string `json:"type"` // checked, carry_on
	Quantity int    `json:"quantity"`
}

type wireSegmentPassenger struct {
	PassengerID   string        `json:"passenger_id"`
	CabinClass    string        `json:"cabin_class"`
	FareBasisCode string        `json:"fare_basis_code"`
	Baggages      []wireBaggage `json:"baggages"`
}

type wireSegment struct {
	ID                           string                 `json:"id"`
	Origin                       wirePlace              `json:"origin"`
	Destination                  wirePlace              `json:"destination"`
	DepartingAt                  string                 `json:"departing_at"` // local time at origin, no offset
	ArrivingAt                   string                 `json:"arriving_at"`  // local time at destination
	Duration                     string                 `json:"duration"`     // ISO 8601, e.g. PT7H45M
	MarketingCarrier             wireAirline            `json:"marketing_carrier"`
	MarketingCarrierFlightNumber string                 `json:"marketing_carrier_flight_number"`
	OperatingCarrier             wireAirline            `json:"operating_carrier"`
	Aircraft                     *wireAirline           `json:"aircraft"` // same two fields: name, iata_code
	Passengers                   []wireSegmentPassenger `json:"passengers"`
}

type wireCondition struct {
	Allowed         bool    `json:"allowed"`
	PenaltyAmount   *string `json:"penalty_amount"`
	PenaltyCurrency *string `json:"penalty_currency"`
}

// wireConditions: a nil condition means Duffel does not know.
type wireConditions struct {
	RefundBeforeDeparture *wireCondition `json:"refund_before_departure"`
	ChangeBeforeDeparture *wireCondition `json:"change_before_departure"`
}

type wireSlice struct {
	ID            string         `json:"id"`
	Origin        wirePlace      `json:"origin"`
	Destination   wirePlace      `json:"destination"`
	Duration      string         `json:"duration"`
	FareBrandName string         `json:"fare_brand_name"`
	Segments      []wireSegment  `json:"segments"`
	Conditions    wireConditions `json:"conditions"`
}

type wireOfferPassenger struct {
	ID   string `json:"id"`
	Type string `json:"type"` // adult, child, infant_without_seat; may be null when an age was given
	Age  *int   `json:"age"`
}

type wirePaymentRequirements struct {
	RequiresInstantPayment  bool       `json:"requires_instant_payment"`
	PaymentRequiredBy       *time.Time `json:"payment_required_by"`
	PriceGuaranteeExpiresAt *time.Time `json:"price_guarantee_expires_at"`
}

type wireOffer struct {
	ID                                      string                  `json:"id"`
	CreatedAt                               *time.Time              `json:"created_at"`
	ExpiresAt                               time.Time               `json:"expires_at"`
	TotalAmount                             string                  `json:"total_amount"`
	TotalCurrency                           string                  `json:"total_currency"`
	BaseAmount                              string                  `json:"base_amount"`
	BaseCurrency                            string                  `json:"base_currency"`
	TaxAmount                               *string                 `json:"tax_amount"`
	TaxCurrency                             *string                 `json:"tax_currency"`
	Owner                                   wireAirline             `json:"owner"`
	Slices                                  []wireSlice             `json:"slices"`
	Passengers                              []wireOfferPassenger    `json:"passengers"`
	Conditions                              wireConditions          `json:"conditions"`
	PassengerIdentityDocumentsRequired      bool                    `json:"passenger_identity_documents_required"`
	SupportedPassengerIdentityDocumentTypes []string                `json:"supported_passenger_identity_document_types"`
	PaymentRequirements                     wirePaymentRequirements `json:"payment_requirements"`
}

type wireOfferRequest struct {
	ID     string      `json:"id"`
	Offers []wireOffer `json:"offers"`
}

// Requests.

type wireSliceQuery struct {
	Origin        string `json:"origin"`
	Destination   string `json:"destination"`
	DepartureDate string `json:"departure_date"`
}

type wirePassengerQuery struct {
	Type string `json:"type,omitempty"`
	Age  *int   `json:"age,omitempty"`
}

type wireOfferRequestBody struct {
	Slices     []wireSliceQuery     `json:"slices"`
	Passengers []wirePassengerQuery `json:"passengers"`
	CabinClass string               `json:"cabin_class,omitempty"`
	// MaxConnections per slice; unset, Duffel's default of one applies.
	MaxConnections *int `json:"max_connections,omitempty"`
	// IncludeSplitTicket is sent only on the split-ticket search.
	IncludeSplitTicket bool `json:"include_split_ticket,omitempty"`
}

type wirePayment struct {
	Type     string `json:"type"` // balance
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

type wireIdentityDocument struct {
	Type               string `json:"type"`
	UniqueIdentifier   string `json:"unique_identifier"`
	IssuingCountryCode string `json:"issuing_country_code,omitempty"`
	ExpiresOn          string `json:"expires_on,omitempty"`
}

type wireLoyaltyAccount struct {
	AirlineIATACode string `json:"airline_iata_code"`
	AccountNumber   string `json:"account_number"`
}

type wireOrderPassenger struct {
	ID                       string                 `json:"id"`
	Title                    string                 `json:"title"`
	GivenName                string                 `json:"given_name"`
	FamilyName               string                 `json:"family_name"`
	Gender                   string                 `json:"gender"`
	BornOn                   string                 `json:"born_on"`
	Email                    string                 `json:"email"`
	PhoneNumber              string                 `json:"phone_number"`
	InfantPassengerID        string                 `json:"infant_passenger_id,omitempty"`
	IdentityDocuments        []wireIdentityDocument `json:"identity_documents,omitempty"`
	LoyaltyProgrammeAccounts []wireLoyaltyAccount   `json:"loyalty_programme_accounts,omitempty"`
}

type wireOrderBody struct {
	Type           string               `json:"type"` // hold, instant
	SelectedOffers []string             `json:"selected_offers"`
	Passengers     []wireOrderPassenger `json:"passengers"`
	Payments       []wirePayment        `json:"payments,omitempty"`
	Metadata       map[string]string    `json:"metadata,omitempty"`
}

// Orders and post-sale.

type wireDocument struct {
	Type             string   `json:"type"` // electronic_ticket, ...
	UniqueIdentifier string   `json:"unique_identifier"`
	PassengerIDs     []string `json:"passenger_ids"`
}

type wireOrder struct {
	ID string `json:"id"`
	// Type is "hold" in Duffel's API guide and Python SDK, "pay_later" in
	// its JavaScript SDK; both are read as a hold (see isHold).
	Type string `json:"type"`
	// AvailableActions lists what the airline allows now ("cancel",
	// "change", "update"); nil when Duffel did not send the field.
	AvailableActions []string          `json:"available_actions"`
	Metadata         map[string]string `json:"metadata"`
	BookingReference string            `json:"booking_reference"`
	TotalAmount      string            `json:"total_amount"`
	TotalCurrency    string            `json:"total_currency"`
	CreatedAt        time.Time         `json:"created_at"`
	CancelledAt      *time.Time        `json:"cancelled_at"`
	Owner            wireAirline       `json:"owner"`
	PaymentStatus    struct {
		AwaitingPayment         bool       `json:"awaiting_payment"`
		PaymentRequiredBy       *time.Time `json:"payment_required_by"`
		PriceGuaranteeExpiresAt *time.Time `json:"price_guarantee_expires_at"`
	} `json:"payment_status"`
	Passengers []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"passengers"`
	Slices     []wireSlice    `json:"slices"`
	Documents  []wireDocument `json:"documents"`
	Conditions wireConditions `json:"conditions"`
}

type wireAirlineCredit struct {
	CreditAmount   string `json:"credit_amount"`
	CreditCurrency string `json:"credit_currency"`
	PassengerID    string `json:"passenger_id"`
}

type wireOrderCancellation struct {
	ID      string `json:"id"`
	OrderID string `json:"order_id"`
	// RefundAmount is null when the airline gave no refund quote.
	RefundAmount   *string `json:"refund_amount"`
	RefundCurrency *string `json:"refund_currency"`
	// RefundTo: arc_bsp_cash, balance, card, voucher, awaiting_payment,
	// airline_credits (and original_form_of_payment in older guides).
	RefundTo       string              `json:"refund_to"`
	AirlineCredits []wireAirlineCredit `json:"airline_credits"`
	CreatedAt      *time.Time          `json:"created_at"`
	ExpiresAt      *time.Time          `json:"expires_at"`
	ConfirmedAt    *time.Time          `json:"confirmed_at"`
}

type wireChangeSliceAdd struct {
	Origin        string `json:"origin"`
	Destination   string `json:"destination"`
	DepartureDate string `json:"departure_date"`
	CabinClass    string `json:"cabin_class"`
}

type wireChangeSliceRemove struct {
	SliceID string `json:"slice_id"`
}

type wireOrderChangeRequestBody struct {
	OrderID string `json:"order_id"`
	Slices  struct {
		Add    []wireChangeSliceAdd    `json:"add"`
		Remove []wireChangeSliceRemove `json:"remove"`
	} `json:"slices"`
}

type wireOrderChangeOffer struct {
	ID        string    `json:"id"`
	ExpiresAt time.Time `json:"expires_at"`
	// The amounts are null when the airline did not price the change.
	ChangeTotalAmount   *string `json:"change_total_amount"`
	ChangeTotalCurrency string  `json:"change_total_currency"`
	// penalty_total_amount in Duffel's API reference and Java SDK,
	// penalty_amount in its JavaScript SDK: either is read.
	PenaltyTotalAmount   *string `json:"penalty_total_amount"`
	PenaltyTotalCurrency *string `json:"penalty_total_currency"`
	PenaltyAmount        *string `json:"penalty_amount"`
	PenaltyCurrency      *string `json:"penalty_currency"`
	NewTotalAmount       *string `json:"new_total_amount"`
	NewTotalCurrency     string  `json:"new_total_currency"`
	RefundTo             *string `json:"refund_to"`
	Slices               struct {
		Add    []wireSlice `json:"add"`
		Remove []wireSlice `json:"remove"`
	} `json:"slices"`
	Conditions wireConditions `json:"conditions"`
}

type wireOrderChangeRequest struct {
	ID                string                 `json:"id"`
	OrderID           string                 `json:"order_id"`
	OrderChangeOffers []wireOrderChangeOffer `json:"order_change_offers"`
}

type wireOrderChange struct {
	ID                  string     `json:"id"`
	OrderID             string     `json:"order_id"`
	ChangeTotalAmount   string     `json:"change_total_amount"`
	ChangeTotalCurrency string     `json:"change_total_currency"`
	ExpiresAt           time.Time  `json:"expires_at"`
	ConfirmedAt         *time.Time `json:"confirmed_at"`
}
