package shopping

import (
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// Money is an amount as the API shows it (money.Money).
type Money = money.Money

// SegmentView is a flight of a solution, with names in the request language.
type SegmentView struct {
	supplier.Segment
	CarrierName     string `json:"carrierName"`
	OriginName      string `json:"originName"`
	DestinationName string `json:"destinationName"`
}

// JourneyView summarises one journey of a solution.
type JourneyView struct {
	Segments        []int     `json:"segments"`
	Origin          string    `json:"origin"`
	Destination     string    `json:"destination"`
	DepartAt        time.Time `json:"departAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	ArriveAt        time.Time `json:"arriveAt" jsonschema_description:"local time at the airport, with its offset (e.g. +08:00 in Beijing)"`
	DurationMinutes int       `json:"durationMinutes"`
	Stops           int       `json:"stops"`
	// SelfTransfer: the traveller changes planes between separate tickets
	// here and checks bags in again.
	SelfTransfer bool `json:"selfTransfer"`
}

// PaxPrice is the price of one traveller of a type (spec §3 Solution
// priceList). Price is the supplier's fare and taxes in the settlement
// currency; SalePrice adds the agency's markup.
type PaxPrice struct {
	PassengerType string `json:"passengerType"`
	Count         int    `json:"count"`
	Fare          string `json:"fare"`
	Taxes         string `json:"taxes"`
	Price         string `json:"price"`
	SalePrice     string `json:"salePrice"`
	Currency      string `json:"currency"`
}

// PriceDetail is the spec's priceDetail.
type PriceDetail struct {
	ProductType string     `json:"productType"`
	PriceList   []PaxPrice `json:"priceList"`
}

// ConditionsView are change and refund rules with the agency's service fees
// included, per traveller.
type ConditionsView struct {
	Refundable bool  `json:"refundable"`
	RefundFee  Money `json:"refundFee"`
	Changeable bool  `json:"changeable"`
	ChangeFee  Money `json:"changeFee"`
	VoidFee    Money `json:"voidFee"`
}

// Solution is one bookable way to fly the searched journeys.
type Solution struct {
	ID          string        `json:"id"`
	Segments    []SegmentView `json:"segments"`
	Journeys    []JourneyView `json:"journeys"`
	PriceDetail PriceDetail   `json:"priceDetail"`
	Total       Money         `json:"total"`
	// Source is the supplier, or "interline" for a solution sold as
	// separate tickets Voyage combined.
	Source string `json:"source"`
	// Sources are every supplier that offered this itinerary (shown only to
	// agencies whose settings show suppliers).
	Sources          []string              `json:"sources,omitempty"`
	Tickets          int                   `json:"tickets"`
	TicketingSpeed   string                `json:"ticketingSpeed"`
	TicketingMinutes int                   `json:"ticketingMinutes"`
	Brand            string                `json:"brand,omitempty"`
	Baggage          supplier.Baggage      `json:"baggage"`
	Conditions       ConditionsView        `json:"conditions"`
	Restrictions     supplier.Restrictions `json:"restrictions"`
	SelfTransfer     bool                  `json:"selfTransfer"`
	// Protection is the self-transfer protection terms, when SelfTransfer.
	Protection string    `json:"protection,omitempty"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// Facet is one filter value with the number of solutions it would show.
type Facet struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

// Facets are the filter groups with their counts.
type Facets struct {
	Airlines         []Facet `json:"airlines"`
	Stops            []Facet `json:"stops"`
	DepartureBuckets []Facet `json:"departureBuckets"`
	ArrivalBuckets   []Facet `json:"arrivalBuckets"`
	TicketingSpeed   []Facet `json:"ticketingSpeed"`
	// Layovers are the airports where solutions change planes.
	Layovers []Facet `json:"layovers"`
}

// Ranges bound the range filters over every solution found so far: the
// price (total, settlement currency) and the longest journey's duration.
type Ranges struct {
	PriceMin    string `json:"priceMin"`
	PriceMax    string `json:"priceMax"`
	DurationMin int    `json:"durationMin" jsonschema:"description=minutes"`
	DurationMax int    `json:"durationMax" jsonschema:"description=minutes"`
}

// SupplierStatus says how far each supplier has answered.
type SupplierStatus struct {
	Name   string `json:"name"`
	Status string `json:"status" jsonschema:"enum=pending,enum=done,enum=failed,enum=timeout,enum=lost"`
	Count  int    `json:"count"`
}

// Filters narrow the solutions (spec §2 flight search filters).
type Filters struct {
	Airlines         []string `json:"airlines"`
	Stops            []string `json:"stops" jsonschema_description:"0, 1 or 2 (two or more)"`
	DepartureBuckets []string `json:"departureBuckets" jsonschema_description:"00-06, 06-12, 12-18, 18-24"`
	ArrivalBuckets   []string `json:"arrivalBuckets"`
	TicketingSpeed   []string `json:"ticketingSpeed"`
	// Layovers keep solutions changing planes at one of these airports.
	Layovers []string `json:"layovers,omitempty"`
	// PriceMin and PriceMax bound the total price (settlement currency,
	// inclusive); "" for no bound.
	PriceMin string `json:"priceMin,omitempty"`
	PriceMax string `json:"priceMax,omitempty"`
	// MaxDuration keeps solutions whose every journey takes at most this
	// many minutes; 0 for no bound.
	MaxDuration int `json:"maxDuration,omitempty"`
	// DepartFrom, DepartTo, ArriveFrom and ArriveTo (HH:MM, local time at
	// the airport, inclusive) bound the first journey's departure and
	// arrival; "" for no bound.
	DepartFrom string `json:"departFrom,omitempty"`
	DepartTo   string `json:"departTo,omitempty"`
	ArriveFrom string `json:"arriveFrom,omitempty"`
	ArriveTo   string `json:"arriveTo,omitempty"`
}

// Query is POST /shopping/v2/flight/async-shopping/solutions.
type Query struct {
	SearchID string  `json:"searchId"`
	Filters  Filters `json:"filters"`
	Sort     string  `json:"sort" jsonschema:"enum=default,enum=price,enum=time"`
	// GroupBy "outbound" brings together the solutions that fly the same
	// outbound flights (other returns, other fares), each group where its
	// best solution sorts; page and pageSize then count groups, so no group
	// is split between two pages.
	GroupBy  string `json:"groupBy,omitempty" jsonschema:"enum=,enum=outbound" jsonschema_description:"outbound: the solutions flying the same outbound flights come together after the best of them, and page and pageSize count these groups (groups gives their number)"`
	Page     int    `json:"page"`
	PageSize int    `json:"pageSize"`
}

// Page is the answer to a poll.
type Page struct {
	Complete bool       `json:"complete"`
	Items    []Solution `json:"items"`
	Total    int        `json:"total"`
	// Groups is how many groups the solutions make, with groupBy.
	Groups     int              `json:"groups,omitempty" jsonschema_description:"with groupBy: the number of groups, which page and pageSize count"`
	Page       int              `json:"page"`
	PageSize   int              `json:"pageSize"`
	Currency   string           `json:"currency"`
	SearchedAt time.Time        `json:"searchedAt"`
	StaleAt    time.Time        `json:"staleAt"`
	Facets     Facets           `json:"facets"`
	Ranges     Ranges           `json:"ranges"`
	Suppliers  []SupplierStatus `json:"suppliers"`
	// Partial says answers were lost (not stored, or not by the deadline):
	// the solutions lack some of what the suppliers found, complete or not.
	Partial       bool     `json:"partial" jsonschema_description:"true when some suppliers' answers were lost: the solutions are incomplete even when complete is true; search again for the full list"`
	LostSuppliers []string `json:"lostSuppliers" jsonschema_description:"the suppliers whose answers were lost"`
}
