package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/a-h/templ"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/templates"
)

// GroupOrders is what the group flight pages need of pkg/group;
// *group.Service implements it.
type GroupOrders interface {
	MinGroupSize() int
	List(ctx context.Context, who auth.Principal, f group.Filter) (group.Page, error)
	Queue(ctx context.Context, who auth.Principal, page, size int) (group.Page, error)
	Counts(ctx context.Context, who auth.Principal, asked []string) ([]group.StatusCount, error)
	Get(ctx context.Context, who auth.Principal, id int64) (group.View, error)
	Document(ctx context.Context, who auth.Principal, id int64) (docs.Flight, error)
	GroupActions
}

const groupPageSize = 20

// groupsViewer is the caller of a group page; without the group service the
// page answers 500.
func (s *Server) groupsViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	return s.lineViewer(w, r, s.groups != nil)
}

// groupPage is the order layout with the group styles.
func (s *Server) groupPage(w http.ResponseWriter, r *http.Request, route string) templates.Page {
	return s.ordersPage(w, r, route).WithStyles("/static/group.css")
}

// groupBooking is /flight/group/booking: the request island, with the
// agency's contact to start from.
func (s *Server) groupBooking(w http.ResponseWriter, r *http.Request) {
	v, ok := s.groupsViewer(w, r)
	if !ok {
		return
	}
	props := templates.GroupRequestProps{
		Today:       s.today(v).Format(time.DateOnly),
		MinSeats:    s.groups.MinGroupSize(),
		ConfirmPath: pathGroupConfirm,
		Contact:     templates.GroupContact{Name: v.Agency.ContactName, Email: v.Agency.ContactEmail, Phone: v.Agency.ContactPhone},
	}
	if props.Contact.Name == "" {
		props.Contact.Name = v.Principal.Nickname
	}
	render(w, r, http.StatusOK, templates.GroupBookingPage(s.groupPage(w, r, "flight-group-booking"), props))
}

// groupConfirm is /flight/group/booking/confirm?id=: the request is filed,
// the quote comes within 1–2 business days and reserves no seats. It says
// so only of a request of the caller's own agency: a missing or malformed
// id, one that does not exist or another agency's (a parent's or the
// provider's look included: they sent nothing) is not found.
func (s *Server) groupConfirm(w http.ResponseWriter, r *http.Request) {
	v, ok := s.groupsViewer(w, r)
	if !ok {
		return
	}
	id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
	if err != nil || id <= 0 {
		s.NotFound(w, r)
		return
	}
	o, err := s.groups.Get(r.Context(), v.Principal, id)
	if err != nil {
		s.lookupFailed(w, r, "groups: confirmation", err, "id", id)
		return
	}
	if o.AgencyID != v.Principal.AgencyID {
		s.NotFound(w, r)
		return
	}
	c := templates.GroupConfirm{ID: o.ID, BookingNumber: o.BookingNumber}
	render(w, r, http.StatusOK, templates.GroupConfirmPage(s.groupPage(w, r, "flight-group-booking-confirm"), c))
}

// groupList is /flight/group/order: 'all' and one entry per status with
// its count. The provider's list leads with its queue, the requests to
// quote (oldest first).
func (s *Server) groupList(w http.ResponseWriter, r *http.Request) {
	v, ok := s.groupsViewer(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	view := templates.GroupList{Provider: v.Principal.Subject.IsProvider()}
	if st := r.URL.Query().Get("status"); group.ValidStatus(st) {
		view.Status = st
	}
	pg := pageNumber(r)
	var res group.Page
	var err error
	if view.Provider && view.Status == string(group.ToBeQuote) {
		res, err = s.groups.Queue(ctx, v.Principal, pg, groupPageSize)
	} else {
		res, err = s.groups.List(ctx, v.Principal, group.Filter{Status: view.Status, Page: pg, PageSize: groupPageSize})
	}
	if err != nil {
		slog.ErrorContext(ctx, "groups: list", "err", err)
		s.ServerError(w, r)
		return
	}
	q := url.Values{}
	if view.Status != "" {
		q.Set("status", view.Status)
	}
	view.Pager = templates.NewPager(listURL(pathGroupOrders, q), pg, groupPageSize, res.Total)
	view.Items, view.ShowAgency = rowsOf(ctx, s, v.Principal.AgencyID, res.Items, func(o group.View) int64 { return o.AgencyID }, groupRow)
	s.answerList(w, r, "groups", templates.GroupResultsID, templates.GroupResults(view), func() (templ.Component, error) {
		counts, err := s.groups.Counts(ctx, v.Principal, nil)
		view.Menu = groupMenu(view, counts)
		return templates.GroupListPage(s.groupPage(w, r, "flight-group-order"), view), err
	})
}

// groupMenu is 'all' and one entry per status (spec §2) with the counts;
// for the provider the queue of requests to quote comes first.
func groupMenu(v templates.GroupList, counts []group.StatusCount) []templates.OrderMenuItem {
	n := map[string]int{}
	for _, c := range counts {
		n[c.Status] = c.Cnt
	}
	menu := []templates.OrderMenuItem{{Name: "all", Key: "groupportal.menu.all", Href: pathGroupOrders, Count: n["all"], ShowCount: true, Active: v.Status == ""}}
	statuses := slices.Clone(group.Statuses)
	for _, st := range statuses {
		key := "groupportal.status." + string(st)
		if v.Provider && st == group.ToBeQuote {
			key = "groupportal.menu.queue"
		}
		item := templates.OrderMenuItem{Name: string(st), Key: key, Href: pathGroupOrders + "?status=" + string(st),
			Count: n[string(st)], ShowCount: true, Active: v.Status == string(st)}
		if v.Provider && st == group.ToBeQuote {
			menu = append([]templates.OrderMenuItem{item}, menu...)
			continue
		}
		menu = append(menu, item)
	}
	return menu
}

// agencyCurrency is the settlement currency of agency id, which a quote is
// in; CNY when unset (spec §9).
func (s *Server) agencyCurrency(ctx context.Context, id int64) string {
	if s.agencies != nil {
		if a, err := s.agencies.Get(ctx, id); err == nil && a.SettlementCurrency != "" {
			return a.SettlementCurrency
		}
	}
	return "CNY"
}

// groupRow is an order as its list's row; agency is whose it is, when the
// list shows that.
func groupRow(o group.View, agency string) templates.GroupRow {
	row := templates.GroupRow{ID: o.ID, BookingNumber: o.BookingNumber, Agency: agency, Status: string(o.Status), Tone: o.Tone, CreatedAt: o.CreatedAt,
		Passengers: fmt.Sprintf("%d / %d / %d", o.Passengers.Adult, o.Passengers.Child, o.Passengers.Infant)}
	var legs []string
	for i, j := range o.Journeys {
		if i == 0 {
			row.Date = j.Date
			legs = append(legs, j.Origin)
		}
		legs = append(legs, j.Destination)
		if j.ReturnDate != "" {
			legs = append(legs, j.Origin)
		}
	}
	row.Route = strings.Join(legs, "–")
	if o.Total != nil {
		row.Total = moneyWithCurrency(*o.Total)
	}
	return row
}

// groupDetail is /flight/group/order/{id}.
func (s *Server) groupDetail(w http.ResponseWriter, r *http.Request) {
	v, id, ok := s.withID(w, r, s.groupsViewer)
	if !ok {
		return
	}
	s.groupDetailAnswer(w, r, v, id, groupForm{}, http.StatusOK)
}

// groupForm is a form that came back with errors: the upload's, or the
// provider's quote with what was typed.
type groupForm struct {
	upload templates.GroupUpload
	quote  *templates.GroupQuoteForm
}

func (s *Server) groupDetailAnswer(w http.ResponseWriter, r *http.Request, v viewer, id int64, form groupForm, status int) {
	ctx := r.Context()
	o, err := s.groups.Get(ctx, v.Principal, id)
	if err != nil {
		s.lookupFailed(w, r, "groups: detail", err)
		return
	}
	d := groupDetailView(ctx, o, s.now())
	d.Provider = v.Principal.Subject.IsProvider() && o.AgencyID != v.Principal.AgencyID
	if d.Provider {
		d.Agency = s.agencyName(ctx, map[int64]string{}, o.AgencyID)
	}
	d.Upload = form.upload
	if d.Can("quote") {
		if form.quote != nil {
			d.QuoteForm = *form.quote
		} else {
			d.QuoteForm = defaultQuoteForm(o, s.agencyCurrency(ctx, o.AgencyID), s.now().In(display.Zone(ctx)))
		}
		d.QuoteForm.FareTypes = fareTypes(o.Passengers)
	}
	if d.Can("pay") {
		d.PayKey = newOrderKey("group-pay")
		// The channels the order's agency may pay by: the payer's.
		if d.Channels, err = s.groups.Channels(ctx, o.AgencyID); err != nil {
			slog.ErrorContext(ctx, "groups: payment channels", "err", err)
			s.ServerError(w, r)
			return
		}
		if s.orders != nil {
			if cfg, err := s.orders.PaymentConfig(ctx, v.Principal); err == nil {
				d.Available = moneyWithCurrency(cfg.Available)
			}
		}
	}
	p := s.groupPage(w, r, "flight-group-order-id")
	p.Title = o.BookingNumber + " · " + p.Title
	cardStep(w, r, o.Payment)
	render(w, r, status, templates.GroupDetailPage(p, d))
}

// groupDetailView turns the service's view into the page's: names in the
// page's language, amounts formatted, the installments' running balance.
func groupDetailView(ctx context.Context, o group.View, now time.Time) templates.GroupDetail {
	lang := i18n.Lang(ctx)
	d := templates.GroupDetail{Payment: o.Payment, ID: o.ID, BookingNumber: o.BookingNumber, Status: string(o.Status), Tone: o.Tone, CreatedAt: o.CreatedAt,
		IsChangeDate: o.IsChangeDate, AcceptChangeFlight: o.AcceptChangeFlight, Adult: o.Passengers.Adult, Child: o.Passengers.Child,
		Infant: o.Passengers.Infant, Cabin: o.CabinClass, Remark: o.Remark, Now: now, PassengerCount: o.PassengerCount,
		Open: group.Open(o.Status), Locked: o.Locked,
		Contact: templates.GroupContact{Name: o.Contact.Name, Email: o.Contact.Email, Phone: o.Contact.Phone}}
	for _, a := range o.Actions {
		switch a {
		case group.ActApply, group.ActGrant, group.ActRefuse:
			d.SeatResults = append(d.SeatResults, seatResult[a])
			if !d.Can("seats") {
				d.Actions = append(d.Actions, "seats")
			}
		default:
			d.Actions = append(d.Actions, string(a))
		}
	}
	for _, j := range o.Journeys {
		d.Journeys = append(d.Journeys, templates.GroupJourney{Origin: j.Origin, OriginName: placeName(j.Origin, lang), Destination: j.Destination,
			DestinationName: placeName(j.Destination, lang), Date: j.Date, ReturnDate: j.ReturnDate, Remark: j.Remark})
	}
	if o.PassengerListDeadline != nil {
		d.PassengerListDeadline = *o.PassengerListDeadline
	}
	// The quotes come newest first: the first is the current one, the rest
	// its history.
	for _, gq := range o.Quotes {
		q := groupQuoteView(gq, o.Passengers, lang)
		if d.Quote == nil {
			d.Quote = &q
			// The countdown runs while the quote waits for the agency.
			d.Countdown = o.Status == group.ToBeConfirm
			continue
		}
		d.History = append(d.History, q)
	}
	d.Installments, d.LeftToPay = installmentRows(o)
	d.CancelNote = "groupportal.cancel.free"
	for _, in := range o.Installments {
		if in.Status == group.InstPaid {
			d.CancelNote = "groupportal.cancel.forfeit"
		}
	}
	for i, p := range o.PassengerList {
		d.Passengers = append(d.Passengers, templates.GroupPassenger{Row: i + 1, Type: p.Type, Surname: p.Surname, GivenName: p.GivenName,
			Gender: p.Gender, Birthday: p.Birthday, Nationality: p.Nationality, DocumentType: p.DocumentType, DocumentNumber: p.DocumentNumber,
			DocumentExpiry: p.DocumentExpiry})
	}
	for _, t := range o.Tickets {
		d.Tickets = append(d.Tickets, templates.GroupTicket{Passenger: t.Passenger, TicketNumber: t.TicketNumber})
	}
	for _, e := range o.Timeline {
		who := e.Actor
		if who == group.SystemActor {
			// The deadlines and the ticketing job act as "system": a word
			// of the reader's language, not the code.
			who = i18n.T(ctx, "groupportal.actor.system")
		}
		d.Timeline = append(d.Timeline, templates.GroupEvent{At: e.CreatedAt, Action: e.Action, Who: who, From: e.FromStatus, To: e.ToStatus, Remark: e.Remark})
	}
	return d
}

// fareTypes are the passenger types a quote prices: those asked for.
func fareTypes(c group.Counts) []string {
	var out []string
	for _, pt := range templates.GroupPassengerTypes {
		if n := map[string]int{"adult": c.Adult, "child": c.Child, "infant": c.Infant}[pt]; n > 0 {
			out = append(out, pt)
		}
	}
	return out
}

// seatResult is the provider's seat action as the form names it (API.md).
var seatResult = map[group.Action]string{group.ActApply: "applying", group.ActGrant: "granted", group.ActRefuse: "refused"}

func placeName(code, lang string) string {
	if a, ok := geo.AirportByCode(code); ok {
		return a.Name.In(lang)
	}
	return ""
}

func groupQuoteView(q group.Quote, counts group.Counts, lang string) templates.GroupQuote {
	out := templates.GroupQuote{ID: q.ID, Total: moneyWithCurrency(q.Total), ConfirmBefore: q.ConfirmBefore, FreeDropSeats: q.FreeDropSeats, CreatedAt: q.CreatedAt}
	n := map[string]int{"adult": counts.Adult, "child": counts.Child, "infant": counts.Infant}
	for _, f := range q.Fares {
		out.Fares = append(out.Fares, templates.GroupFare{PassengerType: f.PassengerType, Amount: moneyWithCurrency(f.Amount), Count: n[f.PassengerType]})
	}
	for _, seg := range q.Segments {
		out.Segments = append(out.Segments, orderSegment(seg, lang))
	}
	return out
}

// installmentRows is the payment plan, each stage with what is left to pay
// of it (its amount until it is paid; nothing once paid, forfeited or
// void), the pay button on the stage the order waits for, and what is left
// to pay in all ("" without a plan).
func installmentRows(o group.View) ([]templates.GroupInstallment, string) {
	due := group.StageOf(o.Status)
	pay := slices.Contains(o.Actions, group.ActPay)
	left, currency := decimal.Zero, ""
	var out []templates.GroupInstallment
	for _, in := range o.Installments {
		open := decimal.Zero
		switch in.Status {
		case group.InstPaid, group.InstForfeited, group.InstVoid:
		default:
			open = decimalOf(in.Amount.Amount)
		}
		left, currency = left.Add(open), in.Amount.Currency
		row := templates.GroupInstallment{Stage: in.Stage, Amount: moneyWithCurrency(in.Amount), Deadline: in.Deadline, Status: in.Status,
			Left:    withCurrency(open.StringFixed(int32(money.Exponent(currency))), currency),
			Payable: pay && in.Stage == due && in.Status == group.InstDue}
		if in.PaidAt != nil {
			row.PaidAt = *in.PaidAt
		}
		out = append(out, row)
	}
	if len(out) == 0 {
		return nil, ""
	}
	return out, withCurrency(left.StringFixed(int32(money.Exponent(currency))), currency)
}

func decimalOf(s string) decimal.Decimal {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Zero
	}
	return d
}
