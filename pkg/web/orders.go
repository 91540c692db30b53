package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/a-h/templ"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/templates"
)

// Orders is what the flight order pages need of pkg/flight; *flight.Service
// implements it.
type Orders interface {
	List(ctx context.Context, who auth.Principal, f flight.Filter) (flight.Page, error)
	PendingCounts(ctx context.Context, who auth.Principal) ([]flight.GroupCount, error)
	Disruptions(ctx context.Context, who auth.Principal, typ string, page, size int) (flight.DisruptionPage, error)
	Get(ctx context.Context, who auth.Principal, id int64) (flight.View, error)
	PaymentConfig(ctx context.Context, who auth.Principal) (flight.PaymentConfig, error)
	Pay(ctx context.Context, who auth.Principal, id int64, key string, req flight.PayRequest) (flight.View, error)
	Cancel(ctx context.Context, who auth.Principal, id int64) (flight.View, error)
	Act(ctx context.Context, who auth.Principal, id int64, action flight.Action) (flight.View, error)
	Confirm(ctx context.Context, who auth.Principal, id int64) (flight.View, error)
	Request(ctx context.Context, who auth.Principal, id int64, typ string, req flight.PostSaleRequest) (flight.View, error)
	ChangeSearch(ctx context.Context, who auth.Principal, id int64, req flight.ChangeSearchRequest, lang string) (flight.ChangeSearch, error)
	Review(ctx context.Context, who auth.Principal, id int64, req flight.ReviewRequest) (flight.View, error)
}

const (
	ordersPageSize = 20
	// proofBodyLimit bounds a request form: five 2 MB proofs and the
	// fields around them (spec §5, §9).
	proofBodyLimit = flight.MaxProofs*flight.MaxProofBytes + 1<<20
	// keywordMax bounds the list's search text.
	keywordMax = 100
)

// ordersViewer is the caller of an order page, whom the route's rule
// (Flights, or ProviderFlights for a decision) has admitted; without the
// order service the page answers 500.
func (s *Server) ordersViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	return s.lineViewer(w, r, s.orders != nil)
}

// ordersPage is the order layout with the list and form styles.
func (s *Server) ordersPage(w http.ResponseWriter, r *http.Request, route string) templates.Page {
	return s.page(w, r, route).WithStyles("/static/manager.css", "/static/bills.css", "/static/orders.css")
}

// htmxPartial reports whether the request is an htmx swap of target: a
// history restore or any other request gets the whole page.
func htmxPartial(r *http.Request, target string) bool {
	return r.Header.Get("HX-Request") == "true" && r.Header.Get("HX-History-Restore-Request") != "true" &&
		r.Header.Get("HX-Target") == target
}

// orderList is /flight/orders.
func (s *Server) orderList(w http.ResponseWriter, r *http.Request) {
	v, ok := s.ordersViewer(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	view, f := orderListFilter(r.URL.Query(), display.Zone(r.Context()))
	f.Page, f.PageSize = pageNumber(r), ordersPageSize
	res, err := s.orders.List(ctx, v.Principal, f)
	if err != nil {
		slog.ErrorContext(ctx, "orders: list", "err", err)
		s.ServerError(w, r)
		return
	}
	view.Pager = templates.NewPager(listURL(templates.OrdersPath, view.Filter.Query()), f.Page, ordersPageSize, res.Total)
	view.Items, view.ShowAgency = rowsOf(ctx, s, v.Principal.AgencyID, res.Items, func(o flight.View) int64 { return o.AgencyID }, orderRow)
	s.answerList(w, r, "orders", templates.OrdersResultsID, templates.OrderResults(view), func() (templ.Component, error) {
		counts, err := s.orders.PendingCounts(ctx, v.Principal)
		view.Groups, view.Types = orderMenu(view.Filter, counts)
		return templates.OrderListPage(s.ordersPage(w, r, "flight-orders"), view), err
	})
}

// orderListFilter reads the list's query: unknown groups, types and
// statuses are dropped, bad dates reported next to their field.
func orderListFilter(q url.Values, loc *time.Location) (templates.OrderList, flight.Filter) {
	var f flight.Filter
	flt := templates.OrderFilter{Errors: map[string]string{}}
	if g := q.Get("group"); flight.GroupStatuses(g) != nil {
		flt.Group, f.Group = g, g
	}
	if t := q.Get("type"); slices.Contains(flight.Types, t) {
		flt.Type, f.Type = t, t
	}
	flt.Keyword = strings.TrimSpace(q.Get("keyword"))
	if len([]rune(flt.Keyword)) > keywordMax {
		flt.Keyword = string([]rune(flt.Keyword)[:keywordMax])
	}
	f.Keyword = flt.Keyword
	statuses := flight.Statuses
	if flt.Group != "" {
		statuses = flight.GroupStatuses(flt.Group)
	}
	if st := q.Get("status"); slices.Contains(statuses, flight.Status(st)) {
		// Within a group the status narrows it (the service would add the
		// two together).
		flt.Status, f.Statuses, f.Group = st, []string{st}, ""
	}
	// The days are the viewer's, on the clock the list writes its times in.
	if d := strings.TrimSpace(q.Get("from")); d != "" {
		flt.From = d
		if t, err := display.StartOfDay(d, loc); err == nil {
			f.From = t
		} else {
			flt.Errors["from"] = "orders.filter.error.date"
		}
	}
	if d := strings.TrimSpace(q.Get("to")); d != "" {
		flt.To = d
		if _, end, err := display.DayRange("", d, loc); err != nil {
			flt.Errors["to"] = "orders.filter.error.date"
		} else if !f.From.IsZero() && !end.After(f.From) {
			flt.Errors["to"] = "orders.filter.error.range"
		} else {
			f.To = end // the day is included
		}
	}
	flt.Direct = q.Get("direct") != ""
	f.DirectOnly = flt.Direct
	view := templates.OrderList{Filter: flt}
	for _, st := range statuses {
		view.Statuses = append(view.Statuses, string(st))
	}
	return view, f
}

// orderMenu is the side menu: the pending groups with their counts and the
// order types, the current one marked.
func orderMenu(f templates.OrderFilter, counts []flight.GroupCount) ([]templates.OrderMenuItem, []templates.OrderMenuItem) {
	n := map[string]int{}
	for _, c := range counts {
		n[c.Name] = c.Cnt
	}
	var groups, types []templates.OrderMenuItem
	for _, g := range flight.PendingGroups {
		groups = append(groups, templates.OrderMenuItem{Name: g.Name, Key: "orders.group." + g.Name,
			Href: templates.OrdersPath + "?group=" + url.QueryEscape(g.Name), Count: n[g.Name], ShowCount: true, Active: f.Group == g.Name})
	}
	types = append(types, templates.OrderMenuItem{Name: "all", Key: "orders.type.all", Href: templates.OrdersPath,
		Active: f.Group == "" && f.Type == ""})
	for _, t := range flight.Types {
		types = append(types, templates.OrderMenuItem{Name: t, Key: "orders.type." + t, Href: templates.OrdersPath + "?type=" + t,
			Active: f.Group == "" && f.Type == t})
	}
	return groups, types
}

// orderRow is an order as its list's row; agency is whose it is, when the
// list shows that.
func orderRow(o flight.View, agency string) templates.OrderRow {
	var names []string
	for _, p := range o.Passengers {
		names = append(names, strings.TrimSpace(p.Surname+"/"+p.GivenName))
	}
	route := ""
	if o.Origin != "" || o.Destination != "" {
		route = o.Origin + "–" + o.Destination
	}
	return templates.OrderRow{BookingRow: templates.BookingRow{ID: o.ID, BookingNumber: o.BookingNumber, Agency: agency, Route: route,
		DepartAt: atAirport(o.DepartAt, o.Origin), Passengers: strings.Join(names, ", "), Total: moneyWithCurrency(o.Total),
		Status: string(o.Status), Tone: o.Tone, CreatedAt: o.CreatedAt}, Type: o.Type, PNR: o.PNR, FlightNumber: o.FlightNumber, Disrupted: o.Disrupted}
}

// atAirport is a flight time in its airport's zone: departures and arrivals
// read in local time, as on the ticket and the itinerary.
func atAirport(t time.Time, airport string) time.Time {
	if t.IsZero() {
		return t
	}
	return t.In(geo.Location(airport))
}

// moneyWithCurrency writes an API amount for display with its currency.
func moneyWithCurrency(m flight.Money) string { return withCurrency(m.Amount, m.Currency) }

// disruptionList is /flight/orders/voyage.
func (s *Server) disruptionList(w http.ResponseWriter, r *http.Request) {
	v, ok := s.ordersViewer(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	view := templates.DisruptionList{Types: flight.DisruptionTypes}
	if t := r.URL.Query().Get("type"); slices.Contains(flight.DisruptionTypes, t) {
		view.Type = t
	}
	page := pageNumber(r)
	res, err := s.orders.Disruptions(ctx, v.Principal, view.Type, page, ordersPageSize)
	if err != nil {
		slog.ErrorContext(ctx, "orders: disruptions", "err", err)
		s.ServerError(w, r)
		return
	}
	view.Items = res.Items
	q := url.Values{}
	if view.Type != "" {
		q.Set("type", view.Type)
	}
	view.Pager = templates.NewPager(listURL(pathDisruptions, q), page, ordersPageSize, res.Total)
	w.Header().Add("Vary", "HX-Request")
	if htmxPartial(r, templates.DisruptionsResultsID) {
		render(w, r, http.StatusOK, templates.DisruptionResults(view))
		return
	}
	render(w, r, http.StatusOK, templates.DisruptionListPage(s.ordersPage(w, r, "flight-orders-voyage"), view))
}

// orderDetail is /flight/orders/{id}.
func (s *Server) orderDetail(w http.ResponseWriter, r *http.Request) {
	v, id, ok := s.withID(w, r, s.ordersViewer)
	if !ok {
		return
	}
	s.orderDetailAnswer(w, r, v, id, templates.OrderForm{}, http.StatusOK)
}

// orderDetailAnswer renders the detail with form, the state of the form
// that came back (errors, change options).
func (s *Server) orderDetailAnswer(w http.ResponseWriter, r *http.Request, v viewer, id int64, form templates.OrderForm, status int) {
	ctx := r.Context()
	o, err := s.orders.Get(ctx, v.Principal, id)
	if err != nil {
		s.lookupFailed(w, r, "orders: detail", err)
		return
	}
	d := orderDetailView(ctx, o)
	d.Form = form
	if len(form.Journeys) == len(d.Journeys) {
		// The dates searched (or mistyped) stay in the search form.
		d.Journeys = form.Journeys
	}
	if slices.Contains(o.Actions, flight.ActPay) {
		cfg, err := s.orders.PaymentConfig(ctx, v.Principal)
		if err != nil {
			slog.ErrorContext(ctx, "orders: payment config", "err", err)
			s.ServerError(w, r)
			return
		}
		if !cfg.PaymentDisabled && len(cfg.Channels) > 0 {
			d.Pay = &templates.PayForm{Key: newOrderKey("pay"), Currency: cfg.Available.Currency, Balance: displayAmount(cfg.Balance.Amount, cfg.Balance.Currency),
				Credit: displayAmount(cfg.CreditLimit.Amount, cfg.CreditLimit.Currency), Available: displayAmount(cfg.Available.Amount, cfg.Available.Currency)}
			for _, c := range cfg.Channels {
				d.Pay.Channels = append(d.Pay.Channels, c.Channel)
			}
		}
	}
	p := s.ordersPage(w, r, "flight-orders-id")
	p.Title = o.BookingNumber + " · " + p.Title
	cardStep(w, r, o.Payment)
	render(w, r, status, templates.OrderDetailPage(p, d))
}

// lookupFailed answers a lookup's error: the 404 page for what the caller
// may not see (or that does not exist), else the 500 page, logged as what
// with attrs.
func (s *Server) lookupFailed(w http.ResponseWriter, r *http.Request, what string, err error, attrs ...any) {
	if fault.From(err).Code == fault.CodeNotFound {
		s.NotFound(w, r)
		return
	}
	slog.ErrorContext(r.Context(), what, append(attrs, "err", err)...)
	s.ServerError(w, r)
}

// newOrderKey names one rendering of a form: posting it twice acts once.
func newOrderKey(kind string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "web-" + kind + "-" + hex.EncodeToString(b)
}

// orderDetailView turns the service's view into the page's: names in the
// page's language, amounts formatted, the breakdown's non-zero rows.
func orderDetailView(ctx context.Context, o flight.View) templates.OrderDetail {
	lang := i18n.Lang(ctx)
	d := templates.OrderDetail{Order: o, Currency: o.Total.Currency, Total: displayAmount(o.Total.Amount, o.Total.Currency),
		Tickets: len(o.TicketNumbers) > 0}
	if o.OriginalID != 0 {
		d.OriginalHref = templates.OrderHref(o.OriginalID)
	}
	for _, seg := range o.Segments {
		d.Segments = append(d.Segments, orderSegment(seg, lang))
	}
	b := o.PriceBreakdown
	cur := o.Total.Currency
	for _, row := range []struct {
		key string
		m   flight.Money
	}{
		{"orders.price.ticketPrice", b.TicketPrice}, {"orders.price.faceValue", b.FaceValue}, {"orders.price.taxes", b.Taxes},
		{"orders.price.airportTax", b.AirportTax}, {"orders.price.fuelSurcharge", b.FuelSurcharge}, {"orders.price.discount", b.Discount},
		{"orders.price.serviceFee", b.ServiceFee}, {"orders.price.transactionFee", b.TransactionFee}, {"orders.price.costPrice", b.CostPrice},
		{"orders.price.refundAmount", b.RefundAmount}, {"orders.price.refundFee", b.RefundFee},
		{"orders.price.changeTicketDiff", b.ChangeTicketDiff}, {"orders.price.changeTaxDiff", b.ChangeTaxDiff}, {"orders.price.changeFee", b.ChangeFee},
	} {
		if !zeroAmount(row.m.Amount) {
			d.Prices = append(d.Prices, templates.PriceRow{Key: row.key, Amount: displayAmount(row.m.Amount, cur)})
		}
	}
	d.SaleTotal, d.TotalKey = displayAmount(b.SaleTotal.Amount, cur), "orders.price.saleTotal"
	if b.SaleTotal.Amount == "" {
		d.SaleTotal = displayAmount("0", cur)
	}
	d.FareBasis = b.FareBasis
	// A request order sells nothing: its total is what moves, and what a
	// confirm agrees to is the quote's parts and that total.
	var parts []struct {
		key string
		m   flight.Money
	}
	switch o.Type {
	case flight.TypeRefund:
		parts = []struct {
			key string
			m   flight.Money
		}{{"orders.price.refundFee", b.RefundFee}, {"orders.price.serviceFee", b.ServiceFee}}
		d.TotalKey = "orders.confirm.receive"
	case flight.TypeVoid:
		d.TotalKey = "orders.confirm.receive"
	case flight.TypeChange:
		parts = []struct {
			key string
			m   flight.Money
		}{{"orders.price.changeTicketDiff", b.ChangeTicketDiff}, {"orders.price.changeTaxDiff", b.ChangeTaxDiff},
			{"orders.price.changeFee", b.ChangeFee}, {"orders.price.serviceFee", b.ServiceFee}}
		d.TotalKey = "orders.confirm.pay"
	}
	if o.Type != flight.TypeOrigin {
		d.SaleTotal = d.Total
	}
	for _, p := range parts {
		if !zeroAmount(p.m.Amount) {
			d.Confirm = append(d.Confirm, templates.PriceRow{Key: p.key, Amount: displayAmount(p.m.Amount, cur)})
		}
	}
	if parts != nil {
		d.Confirm = append(d.Confirm, templates.PriceRow{Key: d.TotalKey, Amount: d.Total})
	}
	d.SupplierQuote = supplierFigures(o)
	if o.Type == flight.TypeRefund || o.Type == flight.TypeVoid {
		d.Confirm, d.RefundTo = refundDestinations(o, d.Confirm)
	}
	// Under review the provider has not quoted yet: what comes back, or what
	// a change costs, is not known, and "0.00" would read as nothing (a
	// change for free).
	d.AmountPending = zeroAmount(o.Total.Amount) &&
		(o.Status == flight.RfdReviewing || o.Status == flight.VoidProceeding || o.Status == flight.ChgReviewing)
	// The change search starts from each flight's own date: the local date
	// at its origin airport, as on the ticket (a flight leaving Beijing at
	// 02:20 on 25 Dec is 24 Dec in UTC).
	for _, j := range o.Journeys {
		d.Journeys = append(d.Journeys, templates.ChangeJourney{Origin: j.Origin, Destination: j.Destination, Date: localDate(j.DepartAt, j.Origin)})
	}
	if len(d.Journeys) == 0 {
		date := ""
		if !o.DepartAt.IsZero() {
			date = localDate(o.DepartAt, o.Origin)
		}
		d.Journeys = []templates.ChangeJourney{{Origin: o.Origin, Destination: o.Destination, Date: date}}
	}
	return d
}

// localDate is the date of t at airport's local time.
func localDate(t time.Time, airport string) string {
	return t.In(geo.Location(airport)).Format(time.DateOnly)
}

// zeroAmount reports whether an API amount is zero (or missing).
func zeroAmount(s string) bool {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	return err != nil || d.IsZero()
}

// orderSegment names a flight's carrier and airports in lang (the names
// stored with the order are those of the language it was booked in).
func orderSegment(seg shopping.SegmentView, lang string) templates.OrderSegment {
	out := templates.OrderSegment{FlightNumber: seg.FlightNumber, Carrier: seg.CarrierName, Origin: seg.Origin, OriginName: seg.OriginName,
		Destination: seg.Destination, DestinationName: seg.DestinationName, DepartAt: atAirport(seg.DepartAt, seg.Origin),
		ArriveAt: atAirport(seg.ArriveAt, seg.Destination), Cabin: seg.Cabin, BookingClass: seg.BookingClass}
	named := shopping.NamedIn([]shopping.SegmentView{seg}, lang)[0]
	out.Carrier, out.OriginName, out.DestinationName = named.CarrierName, named.OriginName, named.DestinationName
	if seg.DurationMinutes > 0 {
		out.Duration = fmt.Sprintf("%02dh%02dm", seg.DurationMinutes/60, seg.DurationMinutes%60)
	}
	return out
}

// orderActionSuccess are the flash messages of the actions that succeed.
var orderActionSuccess = map[flight.Action]string{
	flight.ActPay: "orders.done.pay", flight.ActCancel: "orders.done.cancel", flight.ActCancelChange: "orders.done.cancel_change",
	flight.ActCancelRefund: "orders.done.cancel_refund", flight.ActCancelVoid: "orders.done.cancel_void", flight.ActConfirm: "orders.done.confirm",
	flight.ActRefund: "orders.done.refund", flight.ActChange: "orders.done.change", flight.ActVoid: "orders.done.void",
	flight.ActApprove: "orders.done.approve", flight.ActReject: "orders.done.reject", flight.ActQuote: "orders.done.quote",
	flight.ActIssue: "orders.done.issue", flight.ActResolveOK: "orders.done.resolve_ok", flight.ActResolveFailed: "orders.done.resolve_failed",
}

// orderAction is POST /flight/orders/{id}/actions/{action}, the agency's
// actions on its order. The provider's decisions have routes of their own
// (orderReviewAction) with the provider's rule; here they are unknown.
func (s *Server) orderAction(w http.ResponseWriter, r *http.Request) {
	action := flight.Action(r.PathValue("action"))
	if reviewActions[action] {
		s.NotFound(w, r)
		return
	}
	s.runOrderAction(w, r, action)
}

// reviewActions are the provider's decisions on an agency's request.
var reviewActions = map[flight.Action]bool{flight.ActApprove: true, flight.ActReject: true, flight.ActQuote: true,
	flight.ActIssue: true, flight.ActResolveOK: true, flight.ActResolveFailed: true}

// orderReviewAction is the provider's decision a on an order, at
// reviewPath(a).
func (s *Server) orderReviewAction(a flight.Action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { s.runOrderAction(w, r, a) }
}

// runOrderAction takes action through the service and goes back to the
// detail with a message. A request or review whose fields are wrong comes
// back inline.
func (s *Server) runOrderAction(w http.ResponseWriter, r *http.Request, action flight.Action) {
	v, id, ok := s.withID(w, r, s.ordersViewer)
	if !ok {
		return
	}
	done, known := orderActionSuccess[action]
	if !known {
		s.NotFound(w, r)
		return
	}
	ctx, who := r.Context(), v.Principal
	var err error
	switch action {
	case flight.ActRefund, flight.ActChange, flight.ActVoid:
		s.orderRequest(w, r, v, id, action)
		return
	case flight.ActApprove, flight.ActReject, flight.ActQuote, flight.ActIssue, flight.ActResolveOK, flight.ActResolveFailed:
		s.orderReview(w, r, v, id, action)
		return
	case flight.ActPay:
		key := strings.TrimSpace(r.PostFormValue("idempotencyKey"))
		if key == "" {
			// Without a key the form did not come from the detail page.
			s.orderBack(w, r, id, templates.Flash{Kind: "error", Key: "orders.error.formExpired"})
			return
		}
		_, err = s.orders.Pay(ctx, who, id, key, flight.PayRequest{Channel: r.PostFormValue("channel")})
	case flight.ActCancel, flight.ActCancelChange, flight.ActCancelRefund, flight.ActCancelVoid:
		if !formChecked(r, "confirm") {
			s.orderBack(w, r, id, templates.Flash{Kind: "error", Key: "orders.error.confirmRequired"})
			return
		}
		if action == flight.ActCancel {
			_, err = s.orders.Cancel(ctx, who, id)
		} else {
			_, err = s.orders.Act(ctx, who, id, action)
		}
	case flight.ActConfirm:
		_, err = s.orders.Confirm(ctx, who, id)
	}
	if err != nil {
		s.orderRefused(w, r, id, "orders: "+string(action), err)
		return
	}
	s.orderBack(w, r, id, templates.Flash{Kind: "success", Key: done})
}

// orderBack redirects to the order's detail with a message.
func (s *Server) orderBack(w http.ResponseWriter, r *http.Request, id int64, f templates.Flash) {
	s.redirectWithFlash(w, r, templates.OrderHref(id), f)
}

// orderRefused answers an action's error as a message on the detail page;
// an order the caller may not see is the 404 page.
func (s *Server) orderRefused(w http.ResponseWriter, r *http.Request, id int64, what string, err error) {
	if fault.From(err).Code == fault.CodeNotFound {
		s.NotFound(w, r)
		return
	}
	s.orderBack(w, r, id, templates.Flash{Kind: "error", Key: orderFaultKey(r.Context(), what, err)})
}

// orderFaultKey is the catalog key of an action's error: the service's
// message (a field's, for a validation error), else a generic one.
func orderFaultKey(ctx context.Context, what string, err error) string {
	fe := fault.From(err)
	if fe.Code == fault.CodeInternal {
		slog.ErrorContext(ctx, what, "err", err)
		return "error.internal"
	}
	key := fe.Key
	if len(fe.Fields) > 0 {
		fields := make([]string, 0, len(fe.Fields))
		for f := range fe.Fields {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		key = fe.Fields[fields[0]]
	}
	if key == "" || !i18n.Has(ctx, key) || !flashEntry.MatchString("error:"+key) {
		return "orders.error.failed"
	}
	return key
}

// orderRequest files a refund, change or void request from the multipart
// form: reason, sub-reason, remark, optionally the chosen change option,
// and up to five proof files.
func (s *Server) orderRequest(w http.ResponseWriter, r *http.Request, v viewer, id int64, action flight.Action) {
	r.Body = http.MaxBytesReader(w, r.Body, proofBodyLimit)
	if err := r.ParseMultipartForm(2 << 20); err != nil {
		var tooLarge *http.MaxBytesError
		key := "orders.error.form"
		if errors.As(err, &tooLarge) {
			key = "orders.error.tooLarge"
		}
		s.orderBack(w, r, id, templates.Flash{Kind: "error", Key: key})
		return
	}
	defer r.MultipartForm.RemoveAll()
	// A multipart form is parsed here, not by server.PlainText: its control
	// characters (values and file names) are refused here too.
	if field, bad := input.BadMultipart(r.MultipartForm); bad {
		form := templates.OrderForm{Action: string(action), Reason: input.Clean(r.PostFormValue("reason")),
			Remark: input.Clean(r.PostFormValue("remark")), Errors: map[string]string{field: input.FieldKey}}
		s.orderDetailAnswer(w, r, v, id, form, http.StatusBadRequest)
		return
	}
	form := templates.OrderForm{Action: string(action), Reason: r.PostFormValue("reason"), Remark: r.PostFormValue("remark"),
		OptionID: r.PostFormValue("optionId")}
	req := flight.PostSaleRequest{Remark: form.Remark, OptionID: form.OptionID}
	if n, err := strconv.Atoi(form.Reason); err == nil {
		req.Reason = &n
		if flight.SubReasons[n] != nil && action != flight.ActChange {
			form.SubReason = r.PostFormValue("subReason" + form.Reason)
			req.SubReason = form.SubReason
		}
	}
	proofs, errKey := readProofs(r)
	if errKey != "" {
		form.Errors = map[string]string{"proofs": errKey}
		s.orderDetailAnswer(w, r, v, id, form, http.StatusUnprocessableEntity)
		return
	}
	req.Proofs = proofs
	created, err := s.orders.Request(r.Context(), v.Principal, id, string(action), req)
	if err != nil {
		s.orderFormFailed(w, r, v, id, form, "orders: request "+string(action), err)
		return
	}
	// The request is an order of its own: its page shows its review.
	s.orderBack(w, r, created.ID, templates.Flash{Kind: "success", Key: orderActionSuccess[action]})
}

// readProofs reads the chosen files (a browser posts an empty part when
// none is chosen); more than five, or one over 2 MB, is refused here.
func readProofs(r *http.Request) ([]flight.File, string) {
	out, err := flight.ReadProofs(r.MultipartForm.File["proofs"])
	if err != nil {
		return nil, "orders.error.form"
	}
	if len(out) > flight.MaxProofs {
		return nil, "orders.error.proofCount"
	}
	for _, f := range out {
		if len(f.Data) > flight.MaxProofBytes {
			return nil, "orders.error.proofSize"
		}
	}
	return out, ""
}

// orderFormFailed answers a form's error: field errors inline on the
// detail page, anything else as a message after the redirect.
func (s *Server) orderFormFailed(w http.ResponseWriter, r *http.Request, v viewer, id int64, form templates.OrderForm, what string, err error) {
	fe := fault.From(err)
	if fe.Code == fault.CodeValidation && len(fe.Fields) > 0 {
		form.Errors = fe.Fields
		s.orderDetailAnswer(w, r, v, id, form, http.StatusUnprocessableEntity)
		return
	}
	s.orderRefused(w, r, id, what, err)
}

// orderReview is the provider's decision: approve, reject, quote (with the
// amounts), issue, or resolve an uncertain supplier outcome.
func (s *Server) orderReview(w http.ResponseWriter, r *http.Request, v viewer, id int64, action flight.Action) {
	form := templates.OrderForm{Action: string(action), Remark: r.PostFormValue("remark"),
		RefundAmount: strings.TrimSpace(r.PostFormValue("refundAmount")), Fee: strings.TrimSpace(r.PostFormValue("fee")),
		Due: strings.TrimSpace(r.PostFormValue("due"))}
	req := flight.ReviewRequest{Action: action, Remark: form.Remark, RefundAmount: form.RefundAmount, Fee: form.Fee, Due: form.Due}
	if _, err := s.orders.Review(r.Context(), v.Principal, id, req); err != nil {
		s.orderFormFailed(w, r, v, id, form, "orders: review "+string(action), err)
		return
	}
	s.orderBack(w, r, id, templates.Flash{Kind: "success", Key: orderActionSuccess[action]})
}

// orderChangeSearch asks for ways to change the trip to new dates and shows
// them in the change form (the options live with the order, so the request
// names one by its id).
func (s *Server) orderChangeSearch(w http.ResponseWriter, r *http.Request) {
	v, id, ok := s.withID(w, r, s.ordersViewer)
	if !ok {
		return
	}
	if err := r.ParseForm(); err != nil {
		s.orderBack(w, r, id, templates.Flash{Kind: "error", Key: "orders.error.form"})
		return
	}
	var req flight.ChangeSearchRequest
	for i := 0; i < 5; i++ { // at most five flights (spec §9)
		if _, ok := r.PostForm[templates.JourneyField(i, "date")]; !ok {
			break
		}
		req.Journeys = append(req.Journeys, flight.JourneyChange{Origin: r.PostFormValue(templates.JourneyField(i, "origin")),
			Destination: r.PostFormValue(templates.JourneyField(i, "destination")), Date: strings.TrimSpace(r.PostFormValue(templates.JourneyField(i, "date")))})
	}
	var journeys []templates.ChangeJourney
	for _, j := range req.Journeys {
		journeys = append(journeys, templates.ChangeJourney{Origin: j.Origin, Destination: j.Destination, Date: j.Date})
	}
	ctx := r.Context()
	cs, err := s.orders.ChangeSearch(ctx, v.Principal, id, req, i18n.Lang(ctx))
	if err != nil {
		fe := fault.From(err)
		if fe.Code == fault.CodeValidation && len(fe.Fields) > 0 {
			s.orderDetailAnswer(w, r, v, id, templates.OrderForm{Action: "change-search", Errors: fe.Fields, Journeys: journeys}, http.StatusUnprocessableEntity)
			return
		}
		// Anything else (no change possible, the airline did not answer)
		// is a message on the page, which may no longer offer the change.
		s.orderRefused(w, r, id, "orders: change search", err)
		return
	}
	form := templates.OrderForm{Action: "change", Searched: true, Journeys: journeys}
	lang := i18n.Lang(ctx)
	for _, o := range cs.Options {
		row := templates.ChangeOptionRow{ID: o.ID, Due: moneyWithCurrency(o.Due), Fee: moneyWithCurrency(o.Fee),
			ServiceFee: moneyWithCurrency(o.ServiceFee), Total: moneyWithCurrency(o.Total), ExpiresAt: o.ExpiresAt}
		for _, seg := range o.Segments {
			row.Flights = append(row.Flights, orderSegment(seg, lang))
		}
		form.Options = append(form.Options, row)
	}
	s.orderDetailAnswer(w, r, v, id, form, http.StatusOK)
}

// supplierFigures are the supplier's quote behind a change request, which
// the provider's view alone holds: the provider's quote uses it for an
// amount left empty, so the form shows it under each amount. A refund has
// none there: the supplier is asked when the provider approves or quotes
// it. A change is of one ticket, so of one quote.
func supplierFigures(o flight.View) templates.SupplierFigures {
	if o.Request == nil || o.Type != flight.TypeChange || len(o.Request.SupplierQuotes) == 0 {
		return templates.SupplierFigures{}
	}
	q := o.Request.SupplierQuotes[0]
	figure := func(minor int64) string {
		return formatMinor(money.Amount{Minor: minor, Currency: q.Currency}) + " " + q.Currency
	}
	return templates.SupplierFigures{Due: figure(q.Due), Fee: figure(q.Fee)}
}

// refundDestinations says where the airline sends a refund when its quote
// says so, and adds what comes back as a voucher or airline credit rather
// than money: the agency must see that before it confirms.
func refundDestinations(o flight.View, rows []templates.PriceRow) ([]templates.PriceRow, []string) {
	if o.Request == nil {
		return rows, nil
	}
	var to []string
	for _, q := range o.Request.Quotes {
		if q.RefundTo != "" && !slices.Contains(to, "orders.refundTo."+q.RefundTo) {
			to = append(to, "orders.refundTo."+q.RefundTo)
		}
		if q.Credit != nil {
			rows = append(rows, templates.PriceRow{Key: "orders.confirm.credit", Amount: displayAmount(q.Credit.Amount, q.Credit.Currency), Currency: q.Credit.Currency})
		}
	}
	return rows, to
}
