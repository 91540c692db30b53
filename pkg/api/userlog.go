package api

import (
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/train"
)

// factsOf is what the user-log sentence of a call names, read from the
// call's answer (the order's booking number and total) and completed by what
// the handler noted (audit.Note: the managed agency's name). Noted facts
// win: a post-sale request answers the new request order, but the sentence
// names the order it is about.
func factsOf(data any, noted audit.Facts) audit.Facts {
	var f audit.Facts
	switch v := data.(type) {
	case flight.View:
		f = audit.With("order", v.BookingNumber, "amount", v.Total.Amount, "currency", v.Total.Currency)
	case *flight.View:
		f = audit.With("order", v.BookingNumber, "amount", v.Total.Amount, "currency", v.Total.Currency)
	case flight.Disruption:
		f = audit.With("order", v.BookingNumber)
	case train.View:
		f = audit.With("order", v.BookingNumber, "amount", v.Total.Amount, "currency", v.Total.Currency)
	case train.RefundQuoteView:
		f = audit.With("order", v.Order.BookingNumber)
	case train.ChangeQuoteView:
		f = audit.With("order", v.Order.BookingNumber)
	case group.View:
		f = audit.With("order", v.BookingNumber)
	}
	if len(noted) > 0 && f == nil {
		f = audit.Facts{}
	}
	for k, v := range noted {
		f[k] = v
	}
	return f
}
