package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/server"
)

// ActionRequest is POST /order/v2/flight/orders/{id}/actions: the agency's
// cancel change, cancel refund or cancel void.
type ActionRequest struct {
	// Action is the step to take: cancel_change withdraws a change
	// request, cancel_refund a refund request, cancel_void a void request;
	// only while the order's actions list it.
	Action flight.Action `json:"action" jsonschema:"enum=cancel_change,enum=cancel_refund,enum=cancel_void"`
}

// PostSaleForm documents the multipart body of refund, change and void
// requests.
type PostSaleForm struct {
	Reason    int    `json:"reason" jsonschema:"required,enum=0,enum=1,enum=2,enum=3,enum=4,enum=5,enum=6,enum=7" jsonschema_description:"the reason code, 0–7"`
	SubReason string `json:"subReason,omitempty" jsonschema_description:"for reasons 2, 3 and 6"`
	// Remark is a free note to the provider, at most 500 characters; kept
	// with the request and shown in the order's timeline.
	Remark string   `json:"remark,omitempty"`
	Proofs [][]byte `json:"proofs,omitempty" jsonschema_description:"up to 5 files (jpg, png or PDF, 2 MB each), each a multipart part named 'proofs'"`
}

// ChangeForm documents the multipart body of a change request.
type ChangeForm struct {
	Reason int `json:"reason" jsonschema:"required,enum=0,enum=1,enum=7" jsonschema_description:"the reason code: 0, 1 or 7"`
	// SubReason is not checked for a change, whose reasons have no
	// sub-reasons; it is kept with the request as sent.
	SubReason string `json:"subReason,omitempty"`
	// Remark is a free note to the provider, at most 500 characters; kept
	// with the request and shown in the order's timeline.
	Remark   string   `json:"remark,omitempty"`
	OptionID string   `json:"optionId,omitempty" jsonschema_description:"the option chosen from change/search"`
	Proofs   [][]byte `json:"proofs,omitempty" jsonschema_description:"up to 5 files (jpg, png or PDF, 2 MB each), each a multipart part named 'proofs'"`
}

// ordersQuery documents the order list's query parameters.
var ordersQuery = append([]Param{
	{Name: "status", Type: "string", Array: true, Description: "one or more statuses", Enum: statusNames(flight.Statuses)},
	{Name: "group", Type: "string", Description: "a pending group: to_be_paid, reviewing, proceeding, pending-confirm, refunding",
		Enum: []string{"to_be_paid", "reviewing", "proceeding", "pending-confirm", "refunding"}},
	{Name: "type", Type: "string", Description: "all, origin, change, refund or void", Enum: []string{"all", "origin", "change", "refund", "void"}},
	{Name: "keyword", Type: "string", Description: "booking number, PNR, ticket or flight number, passenger surname"},
	{Name: "agencyId", Type: "integer", Description: "only this agency's orders (one the caller sees)"},
	{Name: "direct", Type: "boolean", Description: "only the caller's agency's own bookings, not its sub-agencies'"},
	{Name: "from", Type: "string", Description: "created on or after, YYYY-MM-DD" + daysNote},
	{Name: "to", Type: "string", Description: "created on or before, YYYY-MM-DD (inclusive)" + daysNote},
}, pagingParams...)

// canBook is booking.Flights: an operator or a SuperUser of a company with
// the flight service.
var canBook = booking.Flights.MayBook

func orderFilter(r *http.Request, loc *time.Location) (flight.Filter, error) {
	f, err := bookingFilter(r, loc)
	q := r.URL.Query()
	return flight.Filter{Filter: f, Group: q.Get("group"), Type: q.Get("type")}, err
}

// postSale reads a multipart post-sale request.
func postSale(r *http.Request) (flight.PostSaleRequest, error) {
	var req flight.PostSaleRequest
	if err := r.ParseMultipartForm(server.ProofUploadBytes); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return req, fault.Validation(map[string]string{"proofs": "order.request.error.proofSize"})
		}
		return req, fault.Validation(map[string]string{"reason": "order.request.error.reasonRequired"})
	}
	// Multipart values and file names skip Decode and server.PlainText.
	if field, bad := input.BadMultipart(r.MultipartForm); bad {
		return req, fault.Validation(map[string]string{field: input.FieldKey})
	}
	if v := strings.TrimSpace(r.FormValue("reason")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return req, fault.Validation(map[string]string{"reason": "order.request.error.reason"})
		}
		req.Reason = &n
	}
	req.SubReason, req.Remark, req.OptionID = r.FormValue("subReason"), r.FormValue("remark"), r.FormValue("optionId")
	if r.MultipartForm != nil {
		proofs, err := flight.ReadProofs(r.MultipartForm.File["proofs"])
		if err != nil {
			return req, fault.Internal(err)
		}
		req.Proofs = proofs
	}
	return req, nil
}

func registerOrders(rt *Router, s Services) {
	if s.Orders == nil {
		return
	}
	o := s.Orders
	id := func(r *http.Request) (int64, error) { return PathID(r, "id") }

	rt.Handle("GET /order/v2/flight/config/payment", Operation{
		ID: "paymentConfig", Tag: "orders", Allow: canBook,
		Summary: "The payment channels the caller's agency may use (those of the server its provider allows it), and its wallet", Response: flight.PaymentConfig{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return o.PaymentConfig(r.Context(), Principal(r))
	})

	rt.Handle("POST /order/v2/flight/orders", Operation{
		ID: "createFlightOrder", Tag: "orders", Allow: canBook, Status: http.StatusCreated,
		Summary: "Book a verified quote (requires an Idempotency-Key header; a replay answers the first order)",
		Request: flight.CreateRequest{}, Response: flight.View{}, Idempotency: IdempotencyRequired,
		Errors: []int{fault.CodeQuoteExpired, fault.CodeConflict, fault.CodeSearchTimeout},
	}, book(o.Create))

	rt.Handle("GET /order/v2/flight/disruptions", Operation{
		ID: "listFlightDisruptions", Tag: "orders", Allow: canBook,
		Summary: "Schedule changes recorded against the caller's orders (the flight disruption list)", Response: flight.DisruptionPage{},
		Query: append([]Param{{Name: "type", Type: "string", Description: "change, cancel_no_save, cancel_save or restore", Enum: []string{"change", "cancel_no_save", "cancel_save", "restore"}}}, pagingParams...),
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		page, size := pageFromQuery(r)
		return o.Disruptions(r.Context(), Principal(r), r.URL.Query().Get("type"), page, size)
	})

	orderLine[flight.Filter, flight.Page, flight.StatusCount, flight.View, flight.PayRequest]{
		line: "flight", name: "Flight", tag: "orders", sees: canBook, books: canBook,
		query: ordersQuery, statuses: statusParam(flight.Statuses),
		filter: orderFilter, list: o.List, counts: o.StatusCounts, get: o.Get, cancel: o.Cancel, pay: o.Pay,
		listSummary:   "The flight orders of the caller's agency and its sub-agencies",
		countsSummary: "How many orders are in each of the given statuses (all statuses when none given)",
		getSummary:    "One order with its price breakdown, timeline, proofs, related orders and the actions allowed now",
		paySummary:    "Pay an order (Idempotency-Key recommended): balance through the wallet, or a payment gateway channel",
		cancelSummary: "Cancel a booking not yet paid",
		getErrors:     []int{fault.CodeNotFound},
		payErrors:     []int{fault.CodeNotFound, fault.CodeConflict, fault.CodeInsufficientFund, fault.CodePaymentFailed, fault.CodeQuoteExpired, fault.CodeNoAccess},
		cancelErrors:  []int{fault.CodeNotFound, fault.CodeConflict},
	}.register(rt, s)

	for _, typ := range []string{flight.TypeRefund, flight.TypeChange, flight.TypeVoid} {
		var form any = PostSaleForm{}
		if typ == flight.TypeChange {
			form = ChangeForm{}
		}
		rt.Handle("POST /order/v2/flight/orders/{id}/"+typ, Operation{
			ID: typ + "FlightOrder", Tag: "orders", Allow: canBook, Status: http.StatusCreated,
			Summary: "Request a " + typ + " of an issued order (multipart: reason, subReason, remark, proofs); answers the request order",
			Request: form, Multipart: true, Response: flight.View{}, Errors: []int{fault.CodeNotFound, fault.CodeConflict},
		}, func(w http.ResponseWriter, r *http.Request) (any, error) {
			n, err := id(r)
			if err != nil {
				return nil, err
			}
			req, err := postSale(r)
			if err != nil {
				return nil, err
			}
			v, err := o.Request(r.Context(), Principal(r), n, typ, req)
			if err != nil {
				return nil, err
			}
			// The answer is the new request order; the log names the order
			// the request is about.
			if orig, err := o.Get(r.Context(), Principal(r), n); err == nil {
				audit.Note(r.Context(), "order", orig.BookingNumber)
			}
			return v, nil
		})
	}

	rt.Handle("POST /order/v2/flight/orders/{id}/change/search", Operation{
		ID: "changeSearchFlightOrder", Reads: true, Tag: "orders", Allow: canBook,
		Summary: "Find ways to change an order to new dates; replaces the previous change search",
		Request: flight.ChangeSearchRequest{}, Response: flight.ChangeSearch{},
		Errors: []int{fault.CodeNotFound, fault.CodeConflict, fault.CodeSearchTimeout},
	}, onIDWith(func(ctx context.Context, p auth.Principal, n int64, req flight.ChangeSearchRequest) (flight.ChangeSearch, error) {
		return o.ChangeSearch(ctx, p, n, req, i18n.Lang(ctx))
	}))

	rt.Handle("POST /order/v2/flight/orders/{id}/confirmation", Operation{
		ID: "confirmFlightOrder", Tag: "orders", Allow: canBook,
		Summary: "Confirm a quoted refund (before its deadline) or change (paying it from the wallet)", Response: flight.View{},
		Errors: []int{fault.CodeNotFound, fault.CodeConflict, fault.CodeInsufficientFund, fault.CodeQuoteExpired},
	}, onID(o.Confirm))

	rt.Handle("POST /order/v2/flight/orders/{id}/actions", Operation{
		ID: "flightOrderAction", Tag: "orders", Allow: canBook,
		Summary: "Cancel a change, refund or void request", Request: ActionRequest{}, Response: flight.View{},
		Errors: []int{fault.CodeNotFound, fault.CodeConflict},
	}, onIDWith(func(ctx context.Context, p auth.Principal, n int64, req ActionRequest) (flight.View, error) {
		return o.Act(ctx, p, n, req.Action)
	}))

	rt.Handle("POST /order/v2/flight/orders/{id}/review", Operation{
		ID: "reviewFlightOrder", Tag: "orders", Role: auth.RoleOperator,
		Summary: "Provider: approve, reject or quote a request, issue a held booking, or resolve an order held on an unknown supplier outcome",
		Request: flight.ReviewRequest{}, Response: flight.View{}, Errors: []int{fault.CodeNotFound, fault.CodeConflict, fault.CodeNoAccess},
	}, onIDWith(o.Review))

	rt.Handle("POST /order/v2/flight/orders/{id}/disruptions", Operation{
		ID: "recordFlightDisruption", Tag: "orders", Role: auth.RoleOperator, Status: http.StatusCreated,
		Summary: "Provider: record a schedule change on an order; the contact is emailed and the agency notified",
		Request: flight.DisruptionRequest{}, Response: flight.Disruption{}, Errors: []int{fault.CodeNotFound, fault.CodeNoAccess},
	}, onIDWith(func(ctx context.Context, p auth.Principal, n int64, req flight.DisruptionRequest) (flight.Disruption, error) {
		subject := i18n.T(ctx, "order.disruption.email.subject")
		body := i18n.T(ctx, "order.disruption.email.body") + "\n\n" + i18n.T(ctx, "order.disruption.type."+req.Type) + "\n" + req.Detail
		return o.RecordDisruption(ctx, p, n, req, subject, body)
	}))

	rt.HandleRaw("GET /order/v2/flight/orders/{id}/proofs/{proof}", Operation{
		ID: "getFlightOrderProof", Tag: "orders", Allow: canBook,
		Summary: "Download a proof file of a post-sale request", Errors: []int{fault.CodeNotFound},
		Produces: []string{"image/jpeg", "image/png", "application/pdf"},
	}, func(w http.ResponseWriter, r *http.Request) error {
		n, err := id(r)
		if err != nil {
			return err
		}
		pid, err := PathID(r, "proof")
		if err != nil {
			return err
		}
		p, data, err := o.ProofData(r.Context(), Principal(r), n, pid)
		if err != nil {
			return err
		}
		attachment(w, p.ContentType, "proof-"+strconv.FormatInt(p.ID, 10)+extension(p.ContentType))
		_, err = w.Write(data)
		return err
	})

	rt.HandleRaw("GET /order/v2/flight/orders/{id}/documents/{kind}", Operation{
		ID: "downloadFlightDocument", Reads: true, Tag: "orders", Allow: canBook,
		Summary: "Download the itinerary or e-ticket of an order as PDF or Excel (in the request's language)",
		Query: []Param{{Name: "format", Type: "string", Description: "pdf (default) or xlsx", Enum: docs.TicketFormats},
			{Name: "documentNumbers", Type: "string", Enum: []string{"masked", "full"}, Description: "itinerary: masked (default, only the last characters of passport and ID numbers) or full"}},
		Errors: []int{fault.CodeNotFound}, PathEnum: map[string][]string{"kind": docs.TicketKinds},
		Produces: []string{docs.ContentType(docs.PDF), docs.ContentType(docs.XLSX)},
	}, ticketDocument(s, func(r *http.Request, id int64) (docs.Ticket, string, error) {
		v, err := o.Get(r.Context(), Principal(r), id)
		if err != nil {
			return docs.Ticket{}, "", err
		}
		return docs.Ticket{Flight: v.Document(), Baggage: &v.Baggage, ShowDocumentNumbers: r.URL.Query().Get("documentNumbers") == "full"}, v.BookingNumber, nil
	}))
}

func extension(ct string) string {
	switch ct {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "application/pdf":
		return ".pdf"
	}
	return ""
}
