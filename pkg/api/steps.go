package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
)

// The adapters below turn a service method into a route's handler. Every
// product line (flight, train, group) and every managed resource (an
// agency, a user, a webhook) has the same kinds of step: one on the thing
// named by the path's {id}, with or without a JSON body, some keyed by the
// Idempotency-Key header. Written once here, a route says only which method
// and which Operation.

// onID runs a step on the booking or resource named by the path's {id}.
func onID[V any](step func(context.Context, auth.Principal, int64) (V, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		return step(r.Context(), Principal(r), id)
	}
}

// onIDWith runs a step on the booking or resource named by the path's {id} with
// the request's JSON body.
func onIDWith[Req, V any](step func(context.Context, auth.Principal, int64, Req) (V, error)) HandlerFunc {
	return onIDBody(step, false)
}

// onIDMaybeWith is onIDWith where the body may be left out: an
// empty body is the request's zero value.
func onIDMaybeWith[Req, V any](step func(context.Context, auth.Principal, int64, Req) (V, error)) HandlerFunc {
	return onIDBody(step, true)
}

func onIDBody[Req, V any](step func(context.Context, auth.Principal, int64, Req) (V, error), optional bool) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, req, err := idAndBody[Req](r, optional)
		if err != nil {
			return nil, err
		}
		return step(r.Context(), Principal(r), id, req)
	}
}

// onIDKeyed runs a step that moves money (a payment, a top-up) on the
// booking or agency named by the path's {id}: the JSON body says how, the
// Idempotency-Key header makes a replay answer the first one.
func onIDKeyed[Req, V any](step func(context.Context, auth.Principal, int64, string, Req) (V, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, req, err := idAndBody[Req](r, false)
		if err != nil {
			return nil, err
		}
		return step(r.Context(), Principal(r), id, r.Header.Get("Idempotency-Key"), req)
	}
}

// idAndBody reads the path's {id}, then the JSON body. A bad id answers
// not found before the body is looked at, as clients rely on. An optional
// body may be left out: an empty body is the request's zero value.
func idAndBody[Req any](r *http.Request, optional bool) (int64, Req, error) {
	var req Req
	id, err := PathID(r, "id")
	if err != nil {
		return 0, req, err
	}
	if !optional || r.ContentLength != 0 {
		err = Decode(r, &req)
	}
	return id, req, err
}

// The audited adapters serve the steps of SelfAudited routes: those write
// the user log themselves, so they take the request's Meta (peer address,
// user agent) as well.

// withBodyAudited is withBody for a step that writes the user log.
func withBodyAudited[Req, V any](step func(context.Context, auth.Principal, Req, auth.Meta) (V, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req Req
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return step(r.Context(), Principal(r), req, Meta(r))
	}
}

// onIDAudited is onID for a step that writes the user log.
func onIDAudited[V any](step func(context.Context, auth.Principal, int64, auth.Meta) (V, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		return step(r.Context(), Principal(r), id, Meta(r))
	}
}

// onIDWithAudited is onIDWith for a step that writes the user log.
func onIDWithAudited[Req, V any](step func(context.Context, auth.Principal, int64, Req, auth.Meta) (V, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, req, err := idAndBody[Req](r, false)
		if err != nil {
			return nil, err
		}
		return step(r.Context(), Principal(r), id, req, Meta(r))
	}
}

// noAnswer fits an audited step that answers nothing (a delete, ending a
// session) to onIDAudited: its answer is the empty envelope.
func noAnswer(step func(context.Context, auth.Principal, int64, auth.Meta) error) func(context.Context, auth.Principal, int64, auth.Meta) (any, error) {
	return func(ctx context.Context, p auth.Principal, id int64, m auth.Meta) (any, error) {
		return nil, step(ctx, p, id, m)
	}
}

// book creates a booking from the request's JSON body under the
// Idempotency-Key header.
func book[Req, V any](create func(context.Context, auth.Principal, string, Req) (V, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req Req
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return create(r.Context(), Principal(r), r.Header.Get("Idempotency-Key"), req)
	}
}

// withBody runs a step that takes the request's JSON body and nothing else
// of the path.
func withBody[Req, V any](step func(context.Context, auth.Principal, Req) (V, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req Req
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return step(r.Context(), Principal(r), req)
	}
}

// bookingFilter reads the filters every line's list takes from the query:
// status (repeated), keyword, agencyId, direct, from and to (days on the
// agency's clock, loc), page and pageSize.
func bookingFilter(r *http.Request, loc *time.Location) (booking.Filter, error) {
	q := r.URL.Query()
	page, size := pageFromQuery(r)
	f := booking.Filter{Statuses: q["status"], Keyword: q.Get("keyword"), DirectOnly: q.Get("direct") == "true" || q.Get("direct") == "1",
		Page: page, PageSize: size}
	errs := map[string]string{}
	if v := q.Get("agencyId"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 1 {
			errs["agencyId"] = "error.field.number"
		}
		f.AgencyID = id
	}
	f.From, f.To = dayFilter(r, loc, "error.field.date", errs)
	if len(errs) > 0 {
		return f, fault.Validation(errs)
	}
	return f, nil
}

// listBookings answers a line's list: the filter read on the agency's
// clock, then the line's List. The clock is the agency's row, read only
// when the query names days (from, to): most lists name none, and the
// group list takes no days at all.
func listBookings[F, P any](s Services, filter func(*http.Request, *time.Location) (F, error), list func(context.Context, auth.Principal, F) (P, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		loc, q := time.UTC, r.URL.Query()
		if q.Get("from") != "" || q.Get("to") != "" {
			var err error
			if loc, err = s.agencyZone(r); err != nil {
				return nil, err
			}
		}
		f, err := filter(r, loc)
		if err != nil {
			return nil, err
		}
		return list(r.Context(), Principal(r), f)
	}
}

// countStatuses answers a line's status counts: the statuses asked for
// (status, repeated; every status when none).
func countStatuses[C any](count func(context.Context, auth.Principal, []string) ([]C, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		return count(r.Context(), Principal(r), r.URL.Query()["status"])
	}
}

// statusParam is the status-count route's query: the line's statuses.
func statusParam[S ~string](statuses []S) []Param {
	return []Param{{Name: "status", Type: "string", Array: true, Enum: statusNames(statuses), Description: "the statuses to count, in the order the answer lists them; none: every status"}}
}

// attachment starts a file download answer: its type, its file name, and
// no caching (a booking's documents are private to the agency).
func attachment(w http.ResponseWriter, contentType, filename string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	w.Header().Set("Cache-Control", "private, no-store")
}

// ticketDocument answers a flight booking's itinerary or e-ticket (kind,
// from the path) as PDF or Excel (format, from the query; PDF by default),
// in the request's language, dated the agency's today. ticket fills the
// document of the booking named by {id} the caller may see, and says its
// booking number.
func ticketDocument(s Services, ticket func(r *http.Request, id int64) (docs.Ticket, string, error)) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := PathID(r, "id")
		if err != nil {
			return err
		}
		kind, format := r.PathValue("kind"), r.URL.Query().Get("format")
		if format == "" {
			format = docs.PDF
		}
		if !slices.Contains(docs.TicketKinds, kind) || !slices.Contains(docs.TicketFormats, format) {
			return fault.NotFound("")
		}
		t, number, err := ticket(r, id)
		if err != nil {
			return err
		}
		ctx := r.Context()
		if t.Date, err = s.agencyToday(r); err != nil {
			return err
		}
		t.Lang, t.T = i18n.Lang(ctx), func(k string, args ...any) string { return i18n.T(ctx, k, args...) }
		attachment(w, docs.ContentType(format), number+"-"+kind+"."+format)
		return docs.WriteTicket(w, kind, format, t)
	}
}

// orderLine is what a product line's orders share with every other line's:
// the list, status counts, get, pay and cancel routes under
// /order/v2/{line}/orders, whose operation ids follow the line's name
// (listFlightOrders, payTrainOrder). Each line keeps its own words and
// errors, and who may see (list, counts, get) or book (pay, cancel).
type orderLine[F, P, C, V, Pay any] struct {
	line, name, tag string
	// path is where the line's orders are, when not /order/v2/{line}/orders.
	path string
	// selfAudited: the line's service writes the user log of its pay and
	// cancel steps itself.
	selfAudited     bool
	sees, books     func(auth.Subject) bool
	query, statuses []Param
	filter          func(*http.Request, *time.Location) (F, error)
	list            func(context.Context, auth.Principal, F) (P, error)
	counts          func(context.Context, auth.Principal, []string) ([]C, error)
	get, cancel     func(context.Context, auth.Principal, int64) (V, error)
	pay             func(context.Context, auth.Principal, int64, string, Pay) (V, error)

	listSummary, countsSummary, getSummary, paySummary, cancelSummary string
	getErrors, payErrors, cancelErrors                                []int
}

func (l orderLine[F, P, C, V, Pay]) register(rt *Router, s Services) {
	orders, name := "/order/v2/"+l.line+"/orders", l.name+"Order"
	if l.path != "" {
		orders = l.path
	}
	var page P
	var view V
	var pay Pay
	rt.Handle("GET "+orders, Operation{ID: "list" + name + "s", Tag: l.tag, Allow: l.sees,
		Summary: l.listSummary, Response: page, Query: l.query}, listBookings(s, l.filter, l.list))
	rt.Handle("GET "+orders+"/status", Operation{ID: l.line + "OrderStatusCounts", Tag: l.tag, Allow: l.sees,
		Summary: l.countsSummary, Response: []C{}, Query: l.statuses}, countStatuses(l.counts))
	rt.Handle("GET "+orders+"/{id}", Operation{ID: "get" + name, Tag: l.tag, Allow: l.sees,
		Summary: l.getSummary, Response: view, Errors: l.getErrors}, onID(l.get))
	rt.Handle("POST "+orders+"/{id}/payment", Operation{ID: "pay" + name, Tag: l.tag, Allow: l.books,
		Summary: l.paySummary, Request: pay, Response: view, Idempotency: IdempotencyOptional, Errors: l.payErrors, SelfAudited: l.selfAudited}, onIDKeyed(l.pay))
	rt.Handle("DELETE "+orders+"/{id}", Operation{ID: "cancel" + name, Tag: l.tag, Allow: l.books,
		Summary: l.cancelSummary, Response: view, Errors: l.cancelErrors, SelfAudited: l.selfAudited}, onID(l.cancel))
}
