package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/input"
)

// UploadResult is the answer of a valid passenger-list upload.
type UploadResult struct {
	// Accepted is how many passengers the uploaded list holds, now the
	// order's passenger list in place of any earlier one.
	Accepted int `json:"accepted"`
}

// PassengerListForm documents the multipart body of a passenger-list
// upload.
type PassengerListForm struct {
	File []byte `json:"file" jsonschema:"required" jsonschema_description:"the xlsx passenger list (the template's columns), multipart field 'file'"`
}

const groupPath = "/order/v2/flight/group/orders"

// registerGroups adds the group flight order routes (API.md "Group orders").
// booksGroups is booking.Groups: group fares are an operator's, as flights are.
var booksGroups = booking.Groups.MayBook

func registerGroups(rt *Router, s Services) {
	if s.Groups == nil {
		return
	}
	g := s.Groups
	id := func(r *http.Request) (int64, error) { return PathID(r, "id") }
	withID := func(call func(r *http.Request, n int64) (any, error)) HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) (any, error) {
			n, err := id(r)
			if err != nil {
				return nil, err
			}
			return call(r, n)
		}
	}
	state := []int{fault.CodeNotFound, fault.CodeConflict, fault.CodeNoAccess}
	// agencyStep is a step the ordering agency takes on its order, answered
	// with the order.
	agencyStep := func(pattern, id, summary string, step func(context.Context, auth.Principal, int64) (group.View, error)) {
		rt.Handle(pattern, Operation{ID: id, SelfAudited: true, Tag: "groups", Allow: booksGroups,
			Summary: summary, Response: group.View{}, Errors: state}, onID(step))
	}
	// providerStep is a step the provider's operator takes on an order,
	// answered with the order.
	providerStep := func(pattern, id, summary string, req any, errs []int, h HandlerFunc) {
		rt.Handle(pattern, Operation{ID: id, Tag: "groups", Role: auth.RoleOperator,
			Summary: summary, Request: req, Response: group.View{}, Errors: errs}, h)
	}

	orderLine[group.Filter, group.Page, group.StatusCount, group.View, group.PayInput]{
		line: "group", name: "Group", tag: "groups", path: groupPath, sees: booksGroups, books: booksGroups, selfAudited: true,
		query:  append([]Param{{Name: "status", Type: "string", Description: "one status, or all"}}, pagingParams...),
		filter: groupFilter, statuses: statusParam(group.Statuses),
		list: g.List, counts: g.Counts, get: g.Get, cancel: g.Cancel, pay: g.Pay,
		listSummary:   "The group orders of the caller's agency and its sub-agencies (all of them for the provider)",
		countsSummary: "How many group orders are in each of the given statuses (every status when none given), after 'all', their sum",
		getSummary:    "One group order: journeys, quotes (history), installments, passenger list, tickets, timeline, ledger entries, actions allowed now",
		paySummary: "Pay the installment due (Idempotency-Key recommended; a replay answers the first result) from the wallet or a gateway; " +
			"late: code 100009 'Group payment time expired: contact the administrator'",
		cancelSummary: "Cancel a group order: free before any deposit; deposits paid are forfeited",
		getErrors:     []int{fault.CodeNotFound},
		payErrors:     append([]int{fault.CodeInsufficientFund, fault.CodePaymentFailed}, state...),
		cancelErrors:  state,
	}.register(rt, s)

	rt.Handle("POST "+groupPath, Operation{
		ID: "requestGroupOrder", SelfAudited: true, Tag: "groups", Allow: booksGroups, Status: http.StatusCreated,
		Summary: "Ask for a group fare (Idempotency-Key required; a replay answers the first order): to_be_quote",
		Request: group.RequestInput{}, Response: group.View{}, Errors: []int{fault.CodeConflict}, Idempotency: IdempotencyRequired,
	}, book(g.Request))

	rt.Handle("GET "+groupPath+"/queue", Operation{
		ID: "groupQuoteQueue", Tag: "groups", Role: auth.RoleOperator,
		Summary: "Provider: the group requests waiting for a quote, oldest first", Response: group.Page{}, Query: pagingParams,
		Errors: []int{fault.CodeNoAccess},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		page, size := pageFromQuery(r)
		return g.Queue(r.Context(), Principal(r), page, size)
	})

	template := func(w http.ResponseWriter, r *http.Request) error {
		lang := r.URL.Query().Get("lang")
		if lang == "" {
			lang = i18n.Lang(r.Context())
		}
		data, err := g.Template(lang)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		w.Header().Set("Content-Disposition", `attachment; filename="group-passengers-`+i18n.Normalize(lang)+`.xlsx"`)
		_, err = w.Write(data)
		return err
	}
	rt.HandleRaw("GET "+groupPath+"/passengers/template", Operation{
		ID: "groupPassengerTemplate", Tag: "groups", Allow: booksGroups,
		Summary:  "The passenger-list xlsx template in en, zh-cn or zh-tw (lang; the request's language when absent)",
		Query:    []Param{{Name: "lang", Type: "string", Description: "en, zh-cn or zh-tw", Enum: []string{"en", "zh-cn", "zh-tw"}}},
		Produces: []string{docs.ContentType(docs.XLSX)},
	}, template)
	rt.HandleRaw("GET "+groupPath+"/{id}/passengers/template", Operation{
		ID: "groupOrderPassengerTemplate", Tag: "groups", Allow: booksGroups,
		Summary: "The passenger-list xlsx template for an order (the same for every order)", Errors: []int{fault.CodeNotFound},
		Query:    []Param{{Name: "lang", Type: "string", Description: "en, zh-cn or zh-tw", Enum: []string{"en", "zh-cn", "zh-tw"}}},
		Produces: []string{docs.ContentType(docs.XLSX)},
	}, func(w http.ResponseWriter, r *http.Request) error {
		n, err := id(r)
		if err != nil {
			return err
		}
		if _, err := g.Passengers(r.Context(), Principal(r), n); err != nil {
			return err
		}
		return template(w, r)
	})

	rt.HandleRaw("GET "+groupPath+"/{id}/documents/{kind}", Operation{
		ID: "downloadGroupDocument", Reads: true, Tag: "groups", Allow: booksGroups,
		Summary: "Download an issued group's itinerary or e-ticket (the flight documents, every passenger with their ticket) as PDF or Excel",
		Query:   []Param{{Name: "format", Type: "string", Description: "pdf (default) or xlsx", Enum: docs.TicketFormats}}, Errors: []int{fault.CodeNotFound},
		PathEnum: map[string][]string{"kind": docs.TicketKinds}, Produces: []string{docs.ContentType(docs.PDF), docs.ContentType(docs.XLSX)},
	}, ticketDocument(s, func(r *http.Request, id int64) (docs.Ticket, string, error) {
		v, err := g.Document(r.Context(), Principal(r), id)
		return docs.Ticket{Flight: v}, v.BookingNumber, err
	}))

	// The group service logs every step in the ordering agency's user log
	// (the agency's own steps are SelfAudited); the provider's steps (quote,
	// close, seats) are also recorded by the router in the provider's log.
	providerStep("POST "+groupPath+"/{id}/quote", "quoteGroupOrder",
		"Provider: quote a request, or quote again (the history stays): to_be_confirm. Without segments, the suppliers' flights for the journeys",
		group.QuoteInput{}, append([]int{fault.CodeNoFlight}, state...), onIDWith(g.Quote))

	providerStep("POST "+groupPath+"/{id}/close", "closeGroupOrder",
		"Provider: close a request it will not quote: closed, nothing charged",
		group.CloseInput{}, state, onIDWith(g.Close))

	agencyStep("POST "+groupPath+"/{id}/quote/acceptance", "acceptGroupQuote",
		"Accept the current quote (the order still needs confirming before the quote's confirm-before time)", g.Accept)

	agencyStep("POST "+groupPath+"/{id}/quote/decline", "declineGroupQuote",
		"Decline the current quote: the request goes back to the provider (to_be_quote)", g.Decline)

	rt.Handle("PUT "+groupPath+"/{id}/passengers", Operation{
		ID: "uploadGroupPassengers", SelfAudited: true, Tag: "groups", Allow: booksGroups,
		Summary: "Upload the passenger list (multipart field 'file', xlsx): replaces the list before confirmation; " +
			"code 100001 with data.errors [{row, column, cell, message}] and nothing stored when a row is invalid",
		Request: PassengerListForm{}, Multipart: true, Response: UploadResult{}, Errors: state,
	}, withID(func(r *http.Request, n int64) (any, error) {
		if err := r.ParseMultipartForm(group.MaxListBytes + 64<<10); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, fault.TooLarge(mbe.Limit)
			}
			return nil, fault.Validation(map[string]string{"file": "group.error.listNotXlsx"})
		}
		defer r.MultipartForm.RemoveAll()
		if field, bad := input.BadMultipart(r.MultipartForm); bad {
			return nil, fault.Validation(map[string]string{field: input.FieldKey})
		}
		f, hdr, err := r.FormFile("file")
		if err != nil {
			return nil, fault.Validation(map[string]string{"file": "group.error.listNotXlsx"})
		}
		defer f.Close()
		accepted, err := g.UploadPassengers(r.Context(), Principal(r), n, f, hdr.Size)
		if err != nil {
			return nil, err
		}
		return UploadResult{Accepted: accepted}, nil
	}))

	rt.Handle("GET "+groupPath+"/{id}/passengers", Operation{
		ID: "getGroupPassengers", Tag: "groups", Allow: booksGroups,
		Summary: "The order's passenger list", Response: []group.Passenger{}, Errors: []int{fault.CodeNotFound},
	}, onID(g.Passengers))

	agencyStep("POST "+groupPath+"/{id}/confirmation", "confirmGroupOrder",
		"Confirm on the current quote before its confirm-before time, with a valid passenger list (locked from then on): to_be_apply_seat", g.Confirm)

	providerStep("POST "+groupPath+"/{id}/seats", "groupOrderSeats",
		"Provider: the seat application's state: applying, granted (the first installment falls due) or refused (failed, nothing charged)",
		group.SeatsInput{}, state, onIDWith(g.Seats))

}

// groupFilter reads a group list's query: one status (or all) and the page.
func groupFilter(r *http.Request, _ *time.Location) (group.Filter, error) {
	page, size := pageFromQuery(r)
	return group.Filter{Status: r.URL.Query().Get("status"), Page: page, PageSize: size}, nil
}
