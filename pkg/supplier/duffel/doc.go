// Package duffel is the Duffel Flights API connector, a supplier.Supplier.
//
// It maps Voyage's seam onto Duffel's resources:
//
//	Search        POST /air/offer_requests?return_offers=true
//	Price         GET  /air/offers/{id}, compared with the offer held
//	Book          POST /air/orders (type hold; instant when the offer cannot be held)
//	Ticket        POST /air/payments (type balance), then the order's documents
//	Cancel, Void  POST /air/order_cancellations + /actions/confirm
//	RefundQuote   POST /air/order_cancellations (the quote)
//	Refund        POST /air/order_cancellations/{id}/actions/confirm
//	ChangeQuotes  POST /air/order_change_requests (its order_change_offers)
//	Change        POST /air/order_changes + /actions/confirm
//
// Split-ticket offers are described in split.go.
//
// The client sends Duffel-Version v2 with a bearer token, paces requests
// with a token bucket, bounds each attempt with Config.Timeout and retries
// only what is safe to retry (see retryable). Duffel's answers are kept in
// *Error values that unwrap to the supplier errors.
//
// Money is read from Duffel's decimal strings into minor units exactly;
// times Duffel gives in airport local time are placed in the airport's
// time zone. The connector is enabled by configuring a token; tests and
// the demo never need it (they serve recorded answers with httptest).
package duffel
