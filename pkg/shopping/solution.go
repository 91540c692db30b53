package shopping

import (
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// Money is an amount as the API shows it (money.Money).
type Money = money.Money

// SegmentView is one flight of a solution, with the carrier's and airports'
// names in the request's language.
type SegmentView struct {
	supplier.Segment
	// CarrierName is the marketing carrier's name in the request's
	// language (its code, or empty, when the name is not known).
	CarrierName string `json:"carrierName"`
	// OriginName is the departure airport's name in the request's
	// language (its code, or empty, when the name is not known).
	OriginName string `json:"originName"`
	// DestinationName is the arrival airport's name in the request's
	// language (its code, or empty, when the name is not known).
	DestinationName string `json:"destinationName"`
}

// JourneyView summarises one journey of a solution: where and when it
// leaves and arrives, how long it takes and how often it stops.
type JourneyView struct {
	// Segments are the journey's flights, in order, as indexes (from 0)
	// into the solution's segments.
	Segments []int `json:"segments"`
	// Origin is the IATA code of the airport the journey's first flight
	// leaves from.
	Origin string `json:"origin"`
	// Destination is the IATA code of the airport the journey's last
	// flight lands at.
	Destination string    `json:"destination"`
	DepartAt    time.Time `json:"departAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	ArriveAt    time.Time `json:"arriveAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	// DurationMinutes is the journey's whole time in minutes, from the
	// first departure to the last arrival, connections included.
	DurationMinutes int `json:"durationMinutes"`
	// Stops is how many times the traveller changes planes on the journey
	// (0 for a nonstop flight).
	Stops int `json:"stops"`
	// SelfTransfer: the traveller changes planes between separate tickets
	// here and checks bags in again.
	SelfTransfer bool `json:"selfTransfer"`
}

// PaxPrice is the price of one traveller of a passenger type. Price is the supplier's fare and taxes in the
// settlement currency; SalePrice adds the agency's markup.
type PaxPrice struct {
	// PassengerType is adult, child or infant.
	PassengerType string `json:"passengerType"`
	// Count is how many travellers of this type the search asked for.
	Count int `json:"count"`
	// Fare is one traveller's fare without taxes (decimal string in
	// currency).
	Fare string `json:"fare"`
	// Taxes are one traveller's taxes and surcharges (decimal string in
	// currency).
	Taxes string `json:"taxes"`
	// Price is one traveller's net price: fare plus taxes (decimal string
	// in currency).
	Price string `json:"price"`
	// SalePrice is what one traveller costs the agency: price plus the
	// agency's markup (decimal string in currency); the solution's total
	// is the sum of salePrice times count.
	SalePrice string `json:"salePrice"`
	// Currency is the settlement currency the amounts are in.
	Currency string `json:"currency"`
}

// PriceDetail is a solution's prices per passenger type, with its
// ticketing product.
type PriceDetail struct {
	// ProductType is the solution's ticketing product, the same value as
	// the solution's ticketingSpeed.
	ProductType string `json:"productType"`
	// PriceList has one entry per passenger type searched (adult, child,
	// infant), in that order.
	PriceList []PaxPrice `json:"priceList"`
}

// ConditionsView are a solution's change and refund rules, per traveller,
// with the agency's service fees included.
type ConditionsView struct {
	// Refundable says whether the tickets may be refunded.
	Refundable bool `json:"refundable"`
	// RefundFee is what a refund costs per traveller: the airline's refund
	// fee plus the agency's refund service fee, in the settlement
	// currency.
	RefundFee Money `json:"refundFee"`
	// Changeable says whether the flights may be changed.
	Changeable bool `json:"changeable"`
	// ChangeFee is what a change costs per traveller beyond any fare
	// difference: the airline's change fee plus the agency's change
	// service fee, in the settlement currency.
	ChangeFee Money `json:"changeFee"`
	// VoidFee is the agency's service fee for voiding a ticket, per
	// traveller, in the settlement currency.
	VoidFee Money `json:"voidFee"`
}

// Solution is one bookable way to fly the searched journeys, with its
// price.
type Solution struct {
	// ID identifies the solution within its search, the same on every
	// poll: the id to pass to POST
	// /shopping/v2/flight/solutions/{id}/verification.
	ID string `json:"id"`
	// Segments are every flight of the solution, in the order flown.
	Segments []SegmentView `json:"segments"`
	// Journeys are the searched journeys in order, each with the indexes
	// of its flights.
	Journeys []JourneyView `json:"journeys"`
	// PriceDetail is the price of one traveller of each passenger type.
	PriceDetail PriceDetail `json:"priceDetail"`
	// Total is what booking the solution costs for all the travellers
	// searched, with the agency's markup, in the settlement currency.
	Total Money `json:"total"`
	// Source is the supplier's name, or "interline" for a solution sold as
	// separate tickets Voyage combined.
	Source string `json:"source"`
	// Sources are every supplier that offered this itinerary (shown only to
	// agencies whose settings show suppliers).
	Sources []string `json:"sources,omitempty"`
	// Tickets is how many separate tickets the solution is sold as: 1,
	// or more for a combination.
	Tickets int `json:"tickets"`
	// TicketingSpeed is the ticketing product, by how long issuing takes
	// after payment: fast-standard (30 minutes), preference-standard (60
	// minutes), normal-standard (2 hours), website (airline website fare,
	// 30 minutes), special-standard (within 48 hours), or, for a special
	// fare close to departure, special-48, special-before-24 or
	// special-before-4.
	TicketingSpeed string `json:"ticketingSpeed"`
	// TicketingMinutes is how many minutes issuing the slowest ticket takes
	// after payment.
	TicketingMinutes int `json:"ticketingMinutes"`
	// Brand is the fare's brand name, when every ticket has the same;
	// absent otherwise.
	Brand string `json:"brand,omitempty"`
	// Baggage is the allowance per traveller that holds on every flight
	// (the smallest of the tickets').
	Baggage supplier.Baggage `json:"baggage"`
	// Conditions are the change and refund rules, per traveller.
	Conditions ConditionsView `json:"conditions"`
	// Restrictions are who may travel on the solution (age, documents,
	// nationalities), as every ticket requires.
	Restrictions supplier.Restrictions `json:"restrictions"`
	// SelfTransfer is true when a journey changes planes between separate
	// tickets (see the journeys' selfTransfer and protection).
	SelfTransfer bool `json:"selfTransfer"`
	// Protection is the self-transfer protection terms in the request's
	// language, when selfTransfer is true; absent otherwise.
	Protection string `json:"protection,omitempty"`
	// ExpiresAt is until when the suppliers hold the fares offered (the
	// earliest of the tickets'); the price check tells whether it is still
	// sold.
	ExpiresAt time.Time `json:"expiresAt"`
}

// Facet is one value of a filter with the number of solutions it would
// show.
type Facet struct {
	// Value is what to send in the matching filter of the solutions
	// query: an airline's or airport's IATA code, a stop count, a time
	// bucket or a ticketing product.
	Value string `json:"value"`
	// Label is the value as a person reads it: the airline's name, the
	// airport's name and code ("Doha (DOH)") in the request's language, or
	// the value itself.
	Label string `json:"label"`
	// Count is how many solutions the value would show with the other
	// filters as they are.
	Count int `json:"count"`
}

// Facets are the values of each filter found among the solutions, with
// their counts. A facet's counts apply every filter but its own, so each
// tells what ticking one more value would show; a value no solution has is
// left out.
type Facets struct {
	// Airlines are the carriers flying the solutions, most solutions first.
	Airlines []Facet `json:"airlines"`
	// Stops are the most stops of a journey: 0, 1 or 2 (two or more).
	Stops []Facet `json:"stops"`
	// DepartureBuckets are the first journey's departure times of day:
	// 00-06, 06-12, 12-18, 18-24.
	DepartureBuckets []Facet `json:"departureBuckets"`
	// ArrivalBuckets are the first journey's arrival times of day: 00-06,
	// 06-12, 12-18, 18-24.
	ArrivalBuckets []Facet `json:"arrivalBuckets"`
	// TicketingSpeed are the solutions' ticketing products.
	TicketingSpeed []Facet `json:"ticketingSpeed"`
	// Layovers are the airports where solutions change planes.
	Layovers []Facet `json:"layovers"`
}

// Ranges bound the range filters over every solution found so far: the
// price (total, settlement currency) and the longest journey's duration.
type Ranges struct {
	// PriceMin is the lowest total of the solutions found (decimal string
	// in the settlement currency); "" when none was found yet.
	PriceMin string `json:"priceMin"`
	// PriceMax is the highest total of the solutions found (decimal string
	// in the settlement currency); "" when none was found yet.
	PriceMax    string `json:"priceMax"`
	DurationMin int    `json:"durationMin" jsonschema:"description=minutes"`
	DurationMax int    `json:"durationMax" jsonschema:"description=minutes"`
}

// SupplierStatus says how far a supplier has answered a search.
type SupplierStatus struct {
	// Name is the supplier's name.
	Name string `json:"name"`
	// Status is pending (no answer yet), done (answered), failed (answered
	// with an error), timeout (did not answer within the agency's maximum
	// response time) or lost (its answer could not be kept; search again).
	Status string `json:"status" jsonschema:"enum=pending,enum=done,enum=failed,enum=timeout,enum=lost"`
	// Count is how many offers the supplier answered for the whole trip.
	Count int `json:"count"`
}

// Filters narrow a search's solutions: each filter left empty keeps every
// solution; several values of one filter keep the solutions matching any
// of them; filters together keep the solutions matching all.
type Filters struct {
	// Airlines keep solutions with a flight by one of these carriers
	// (IATA codes, as the airlines facet's values).
	Airlines         []string `json:"airlines"`
	Stops            []string `json:"stops" jsonschema_description:"0, 1 or 2 (two or more)"`
	DepartureBuckets []string `json:"departureBuckets" jsonschema_description:"00-06, 06-12, 12-18, 18-24"`
	// ArrivalBuckets keep solutions whose first journey arrives in one of
	// these times of day (local time at the airport): 00-06, 06-12, 12-18,
	// 18-24.
	ArrivalBuckets []string `json:"arrivalBuckets"`
	// TicketingSpeed keeps solutions of these ticketing products
	// (fast-standard, preference-standard, normal-standard, website,
	// special-standard, special-48, special-before-24, special-before-4).
	TicketingSpeed []string `json:"ticketingSpeed"`
	// Layovers keep solutions changing planes at one of these airports
	// (IATA codes, as the layovers facet's values).
	Layovers []string `json:"layovers,omitempty"`
	// PriceMin is the lowest total kept (decimal string in the settlement
	// currency, inclusive); "" for no bound.
	PriceMin string `json:"priceMin,omitempty"`
	// PriceMax is the highest total kept (decimal string in the settlement
	// currency, inclusive); "" for no bound.
	PriceMax string `json:"priceMax,omitempty"`
	// MaxDuration keeps solutions whose every journey takes at most this
	// many minutes; 0 for no bound.
	MaxDuration int `json:"maxDuration,omitempty"`
	// DepartFrom is the earliest departure kept for the first journey
	// (HH:MM, local time at the airport, inclusive); "" for no bound. A
	// window whose end comes before its start runs over midnight.
	DepartFrom string `json:"departFrom,omitempty"`
	// DepartTo is the latest departure kept for the first journey (HH:MM,
	// local time at the airport, inclusive); "" for no bound.
	DepartTo string `json:"departTo,omitempty"`
	// ArriveFrom is the earliest arrival kept for the first journey (HH:MM,
	// local time at the airport, inclusive); "" for no bound.
	ArriveFrom string `json:"arriveFrom,omitempty"`
	// ArriveTo is the latest arrival kept for the first journey (HH:MM,
	// local time at the airport, inclusive); "" for no bound.
	ArriveTo string `json:"arriveTo,omitempty"`
}

// Query asks for a page of a search's solutions (POST
// /shopping/v2/flight/async-shopping/solutions).
type Query struct {
	// SearchID is the id the search was started with (required).
	SearchID string `json:"searchId"`
	// Filters narrow the solutions; empty keeps them all.
	Filters Filters `json:"filters"`
	// Sort orders the solutions: price (cheapest first), time (earliest
	// departure first), or default (price weighed against duration: each
	// hour beyond the fastest counts as 3% of the cheapest price).
	Sort string `json:"sort" jsonschema:"enum=default,enum=price,enum=time"`
	// GroupBy "outbound" brings together the solutions that fly the same
	// outbound flights (other returns, other fares), each group where its
	// best solution sorts; page and pageSize then count groups, so no group
	// is split between two pages.
	GroupBy string `json:"groupBy,omitempty" jsonschema:"enum=,enum=outbound" jsonschema_description:"outbound: the solutions flying the same outbound flights come together after the best of them, and page and pageSize count these groups (groups gives their number)"`
	// Page is the page wanted, from 1 (default 1).
	Page int `json:"page"`
	// PageSize is how many solutions (or groups) a page holds: default
	// 20, at most 100.
	PageSize int `json:"pageSize"`
}

// Page is the answer to a poll of a search: a page of its solutions found
// so far, with the filters' counts and each supplier's progress.
type Page struct {
	// Complete is true once every supplier has answered or run out of
	// time, and the solutions are the search's final answer; poll until it
	// is.
	Complete bool `json:"complete"`
	// Items are the page's solutions, in the order asked for.
	Items []Solution `json:"items"`
	// Total is how many solutions match the filters.
	Total int `json:"total"`
	// Groups is how many groups the solutions make, with groupBy.
	Groups int `json:"groups,omitempty" jsonschema_description:"with groupBy: the number of groups, which page and pageSize count"`
	// Page is the page answered, from 1.
	Page int `json:"page"`
	// PageSize is the page size used.
	PageSize int `json:"pageSize"`
	// Currency is the settlement currency every price is in.
	Currency string `json:"currency"`
	// SearchedAt is when the search was started (RFC 3339, UTC).
	SearchedAt time.Time `json:"searchedAt"`
	// StaleAt is when the search's results expire, 10 minutes after it
	// started: polls and price checks after it answer 400002, and the
	// search has to be made again.
	StaleAt time.Time `json:"staleAt"`
	// Facets are the filter values found, with their counts.
	Facets Facets `json:"facets"`
	// Ranges are the lowest and highest price and journey duration of
	// every solution found, to bound the range filters.
	Ranges Ranges `json:"ranges"`
	// Suppliers are each supplier's progress on the search.
	Suppliers []SupplierStatus `json:"suppliers"`
	// Partial says answers were lost (not stored, or not by the deadline):
	// the solutions lack some of what the suppliers found, complete or not.
	Partial       bool     `json:"partial" jsonschema_description:"true when some suppliers' answers were lost: the solutions are incomplete even when complete is true; search again for the full list"`
	LostSuppliers []string `json:"lostSuppliers" jsonschema_description:"the suppliers whose answers were lost"`
}
