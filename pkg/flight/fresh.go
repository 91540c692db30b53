package flight

import (
	"errors"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// An order is paid seconds after it is booked, most often through the
// instance that booked it. That instance keeps the order as it stored it
// (Service.fresh), so the wallet payment that follows needs neither to read
// the row back nor to decode its JSON columns: the payment's one statement
// then also requires that nobody wrote the order since its insert
// (freshGate), and when somebody did, the payment starts again from the
// store. The copy is taken by the first payment, whatever becomes of it.

// maxFresh bounds the orders kept: enough for every order booked in the
// last few seconds at several hundred a second; an older one is paid from
// the store.
const maxFresh = 1024

// asStored is o, just inserted, as a load would read it back.
func asStored(o Order) Order {
	o.content, o.ticketDue, o.ticketAttempts, o.payer = noContent, time.Time{}, 0, trace.SpanContext{}
	// The store keeps microseconds (newOrder's own times are whole ones
	// already).
	for _, t := range []*time.Time{&o.DepartAt, &o.PayBy, &o.ConfirmBy} {
		*t = t.Round(time.Microsecond)
	}
	return o
}

// errNotFresh: a payment from a kept copy found the order written since;
// it starts again from the store.
var errNotFresh = errors.New("order: changed since it was booked here")
