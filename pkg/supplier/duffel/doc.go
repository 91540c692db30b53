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
// Split-ticket offers are described in split.go; orders Duffel accepts
// (202) without finishing them in pending.go (Finish is their status
// check), and Duffel's signed webhooks (order.created,
// order.creation_failed) in webhook.go.
//
// Where Duffel's answers are not money as such, the connector says so
// rather than guess: a refund to a voucher or airline credits is a
// Quote's Credit, never its Refund, and never a void; a null refund or
// change amount is unknown (Quote.RefundUnknown, a change offer skipped);
// an order cancellation superseded by a newer one is quoted again before
// it is confirmed (only the newest can be). Before paying a held order its
// total is compared with the price agreed when it was booked (kept in the
// order's metadata), and available_actions is read before cancelling or
// changing. Offers searched with representative ages are searched again
// with the travellers' real ones when they differ. Where Duffel's own
// sources disagree both spellings are read (order type hold/pay_later,
// penalty_total_amount/penalty_amount).
//
// live_test.go checks all this against Duffel's test mode when
// DUFFEL_TEST_TOKEN is set; see the README.
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
