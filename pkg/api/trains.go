package api

import (
	"net/http"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/train"
)

// Trains (booking.Trains): every user of a company with the train service
// sees its train orders; an operator or a SuperUser searches, books and
// acts on them.
var (
	seesTrains  = booking.Trains.MaySee
	booksTrains = booking.Trains.MayBook
)

// trainOrdersQuery documents the train order list's query parameters.
var trainOrdersQuery = append([]Param{
	{Name: "status", Type: "string", Array: true, Description: "one or more statuses", Enum: statusNames(train.Statuses)},
	{Name: "keyword", Type: "string", Description: "booking number, train or ticket number, passenger surname or document number"},
	{Name: "agencyId", Type: "integer", Description: "only this agency's orders (one the caller sees)"},
	{Name: "direct", Type: "boolean", Description: "only the caller's agency's own bookings, not its sub-agencies'"},
	{Name: "from", Type: "string", Description: "created on or after, YYYY-MM-DD" + daysNote},
	{Name: "to", Type: "string", Description: "created on or before, YYYY-MM-DD (inclusive)" + daysNote},
}, pagingParams...)

func registerTrains(rt *Router, s Services) {
	if s.Trains == nil {
		return
	}
	t := s.Trains

	rt.Handle("GET /shopping/v2/train/stations", Operation{
		ID: "trainStations", Tag: "trains", Allow: seesTrains,
		Summary:  "Find stations by code, name (English, Simplified or Traditional Chinese), pinyin or its initials; names in the request's language",
		Response: []train.StationView{}, Query: []Param{{Name: "q", Type: "string", Required: true, Description: "a station's code, name (English, Simplified or Traditional Chinese), pinyin or pinyin initials; at most 20 stations answer"}},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return t.Stations(r.URL.Query().Get("q"), i18n.Lang(r.Context())), nil
	})

	rt.Handle("GET /shopping/v2/train/config", Operation{
		ID: "trainConfig", Tag: "trains", Allow: seesTrains,
		Summary:  "The on-sale dates (China time) and the codes of train types, seat classes, ticket and document types a booking form offers",
		Response: train.Config{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return t.BookingConfig(), nil
	})

	rt.Handle("POST /shopping/v2/train/search", Operation{
		ID: "trainSearch", Reads: true, Tag: "trains", Allow: booksTrains,
		Summary: "The trains of a trip on a date in the sales window, with seat classes, prices and seats left (an offer id books for 15 minutes)",
		Request: train.SearchRequest{}, Response: train.SearchResult{},
		Errors: []int{fault.CodeSearchTimeout, fault.CodeNoAccess},
	}, withBody(t.Search))

	rt.Handle("POST /order/v2/train/orders", Operation{
		ID: "createTrainOrder", Tag: "trains", Allow: booksTrains, Status: http.StatusCreated,
		Summary: "Book seats of an offer for passengers (requires an Idempotency-Key header; a replay answers the first order); the railway holds them until holdExpiresAt",
		Request: train.CreateRequest{}, Response: train.View{}, Idempotency: IdempotencyRequired,
		Errors: []int{fault.CodeQuoteExpired, fault.CodeNoFlight, fault.CodeConflict},
	}, book(t.Create))

	orderLine[booking.Filter, train.Page, train.StatusCount, train.View, train.PayRequest]{
		line: "train", name: "Train", tag: "trains", sees: seesTrains, books: booksTrains,
		query: trainOrdersQuery, statuses: statusParam(train.Statuses),
		filter: bookingFilter, list: t.List, counts: t.Counts, get: t.Get, cancel: t.Cancel, pay: t.Pay,
		listSummary:   "The train orders of the caller's agency and its sub-agencies",
		countsSummary: "How many train orders are in each of the given statuses (all statuses when none given)",
		getSummary:    "One train order with its tickets, timeline, waiting quote and the actions allowed now",
		paySummary:    "Pay an order from the wallet (Idempotency-Key: a replay answers the order); tickets are issued in the background",
		cancelSummary: "Cancel an unpaid order; the seats go back to the railway",
		getErrors:     []int{fault.CodeNotFound},
		payErrors:     []int{fault.CodeInsufficientFund, fault.CodePaymentFailed, fault.CodeQuoteExpired, fault.CodeConflict, fault.CodeNotFound},
		cancelErrors:  []int{fault.CodeConflict, fault.CodeNotFound},
	}.register(rt, s)

	rt.Handle("POST /order/v2/train/orders/{id}/refund", Operation{
		ID: "trainRefundQuote", Tag: "trains", Allow: booksTrains,
		Summary: "Quote refunding some passengers' tickets (all when none given) with the railway's fee by time band; the order waits in rfd_to_be_confirm. Closed 30 minutes before departure",
		Request: train.RefundRequest{}, Response: train.RefundQuoteView{},
		Errors: []int{fault.CodeConflict, fault.CodeNotFound},
	}, onIDMaybeWith(t.RefundQuote))

	rt.Handle("POST /order/v2/train/orders/{id}/change", Operation{
		ID: "trainChangeQuote", Tag: "trains", Allow: booksTrains,
		Summary: "Quote moving some passengers to another train (offer of a new search; once per ticket) with the fare difference; the order waits in chg_to_be_confirm",
		Request: train.ChangeRequest{}, Response: train.ChangeQuoteView{},
		Errors: []int{fault.CodeConflict, fault.CodeQuoteExpired, fault.CodeNoFlight, fault.CodeNotFound},
	}, onIDWith(t.ChangeQuote))

	rt.Handle("POST /order/v2/train/orders/{id}/confirmation", Operation{
		ID: "confirmTrainQuote", Tag: "trains", Allow: booksTrains,
		Summary:  "Confirm the refund or change quote waiting: refunded (money back to the wallet, refund-train) or changed (fare difference, change-train)",
		Response: train.View{}, Errors: []int{fault.CodeConflict, fault.CodeQuoteExpired, fault.CodeInsufficientFund, fault.CodeNotFound},
	}, onID(t.Confirm))

	rt.Handle("DELETE /order/v2/train/orders/{id}/quote", Operation{
		ID: "dropTrainQuote", Tag: "trains", Allow: booksTrains,
		Summary: "Drop the refund or change quote waiting; the order is as before", Response: train.View{},
		Errors: []int{fault.CodeConflict, fault.CodeNotFound},
	}, onID(t.DropQuote))

	rt.Handle("POST /order/v2/train/orders/{id}/tickets", Operation{
		ID: "confirmTrainTickets", Tag: "trains", Allow: auth.Subject.IsProvider,
		Summary: "Provider: issue a paid order's tickets by hand (manual mode, or ticketing that gave up), or fail it with the money back",
		Request: train.ConfirmTicketsRequest{}, OptionalBody: true, Response: train.View{}, Errors: []int{fault.CodeConflict, fault.CodeNotFound},
	}, onIDMaybeWith(t.ConfirmTickets))

	rt.HandleRaw("GET /order/v2/train/orders/{id}/documents/eticket", Operation{
		ID: "downloadTrainTicket", Tag: "trains", Allow: seesTrains,
		Summary: "Download the e-ticket of a train order as PDF (in the request's language)", Errors: []int{fault.CodeNotFound},
		Produces: []string{"application/pdf"},
	}, func(w http.ResponseWriter, r *http.Request) error {
		n, err := PathID(r, "id")
		if err != nil {
			return err
		}
		ctx := r.Context()
		v, err := t.Get(ctx, Principal(r), n)
		if err != nil {
			return err
		}
		lang := i18n.Lang(ctx)
		today, err := s.agencyToday(r)
		if err != nil {
			return err
		}
		attachment(w, docs.ContentType(docs.PDF), v.BookingNumber+"-eticket.pdf")
		return docs.WriteTrainTicket(w, docs.TrainTicket{Train: v.Document(), Lang: lang, T: func(k string, args ...any) string { return i18n.T(ctx, k, args...) },
			Station: func(code string) string { return t.StationName(code, lang) }, Date: today})
	})
}
