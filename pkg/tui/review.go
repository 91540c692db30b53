package tui

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/geo"
)

// reviewGroup is the order group of spec §4 that waits for the provider.
const reviewGroup = "reviewing"

// reviewState is the state of the review queue.
type reviewState struct {
	list pagedList[flight.View, flight.View]
	// names are the agencies' names by id ("" when it could not be told).
	names map[int64]string
}

type ordersMsg struct {
	pageNo int
	page   flight.Page
	names  map[int64]string
	err    error
}

func newReviewState() reviewState {
	list := newPagedList(listSource[flight.View, flight.View]{
		screen: reviewScreen, what: "review queue", item: "order",
		id:       func(o flight.View) int64 { return o.ID },
		loadPage: (*Model).fetchOrders,
		fetchDetail: func(ctx context.Context, b admin.Backend, id int64) (flight.View, error) {
			return b.Order(ctx, id)
		},
	})
	return reviewState{list: list, names: map[int64]string{}}
}

// agencyName is an order's agency as the queue shows it.
func (s *reviewState) agencyName(id int64) string {
	if n := s.names[id]; n != "" {
		return n
	}
	return "#" + strconv.FormatInt(id, 10)
}

// fetchOrders asks for a page of the queue and the names of agencies not
// seen before (an order carries only its agency's id); it is the list's,
// which counts the loads out (see pagedList.load).
func (m *Model) fetchOrders(pageNo int) tea.Cmd {
	b, size := m.b, m.opts.PageSize
	known := make(map[int64]bool, len(m.rv.names))
	for id := range m.rv.names {
		known[id] = true
	}
	ctx, cancel := m.call()
	return func() tea.Msg {
		defer cancel()
		p, err := b.Orders(ctx, flight.Filter{Group: reviewGroup, Filter: booking.Filter{Page: pageNo, PageSize: size}})
		names := map[int64]string{}
		if err == nil {
			for _, o := range p.Items {
				if _, ok := names[o.AgencyID]; ok || known[o.AgencyID] {
					continue
				}
				names[o.AgencyID] = ""
				if d, err := b.Agency(ctx, o.AgencyID); err == nil {
					names[o.AgencyID] = d.Name
				}
			}
		}
		return ordersMsg{pageNo: pageNo, page: p, names: names, err: err}
	}
}

func (m *Model) ordersLoaded(msg ordersMsg) tea.Cmd {
	s := &m.rv
	if !s.list.answered(msg.pageNo) {
		return nil
	}
	// Before the list takes the page: should it have emptied, the load of
	// the last page then knows these names already.
	maps.Copy(s.names, msg.names)
	return s.list.pageLoaded(m, msg.page.Items, msg.page.Total, msg.err)
}

func (m *Model) reviewKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, handled := m.rv.list.key(m, msg); handled {
		return cmd
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Approve):
		return m.openReview(flight.ActApprove)
	case key.Matches(msg, k.Reject):
		return m.openReview(flight.ActReject)
	case key.Matches(msg, k.Quote):
		return m.openReview(flight.ActQuote)
	case key.Matches(msg, k.Back):
		m.status = ""
	}
	return nil
}

// openReview opens the form of a decision on the selected order, if the
// order allows it now.
func (m *Model) openReview(act flight.Action) tea.Cmd {
	v, ok := m.rv.list.current()
	if !ok {
		m.status = m.t("review.noneSelected")
		return nil
	}
	if got, ok := m.rv.list.details[v.ID]; ok && got.err == nil {
		v = got.val
	}
	if !slices.Contains(v.Actions, act) {
		m.status = m.t("review.notNow", "action", m.t("review.act."+string(act)), "booking", v.BookingNumber, "status", m.statusWords()("orders.status.", string(v.Status)))
		return nil
	}
	m.act = reviewAction(m, v, act, m.rv.agencyName(v.AgencyID))
	m.status = ""
	return m.act.open()
}

// reviewView draws the queue over the selected order's detail (or the
// open form), in w cells by h lines.
func (m *Model) reviewView(w, h int) []string {
	s := &m.rv
	l := &s.list
	st := m.st
	top := func(w int) []string {
		info := m.pageInfo(l.loaded, l.page, l.total, "orders.count")
		cols := orderColumns(w)
		return []string{spread(st.Muted.Render(m.t("review.heading")), st.Muted.Render(info), w),
			st.Header.Render(cols.row("", m.t("orders.booking"), m.t("orders.agency"), m.t("orders.type"), m.t("orders.status"), m.t("orders.total"), m.t("orders.created")))}
	}
	rows := func(w, n int) []string {
		cols := orderColumns(w)
		return l.rows(m, w, n, "review", func(mark string, o flight.View) string {
			return cols.row(mark, o.BookingNumber, s.agencyName(o.AgencyID), m.word("orders.typeShort.", o.Type), m.statusWords()("orders.status.", string(o.Status)),
				o.Total.Amount+" "+o.Total.Currency, o.CreatedAt.UTC().Format("01-02 15:04"))
		})
	}
	return m.paned(w, h, len(l.items), top, rows, m.paneOr(m.orderDetailView))
}

// orderColumns are the queue's columns: booking, agency, type, status,
// total and created.
func orderColumns(w int) columns {
	status := column{w: 13}
	if w >= 100 {
		// Room for the longest status words ("Refund under review").
		status.w = 20
	}
	return layout(w, column{w: 15}, column{min: 6}, column{w: 6}, status, column{w: 14, right: true}, column{w: 11})
}

// orderDetailView is the selected order: what, whose, the trip, the request
// and what may be done.
func (m *Model) orderDetailView(w, h int) []string {
	st := m.st
	o, ok := m.rv.list.current()
	if !ok {
		return nil
	}
	title := "─ " + o.BookingNumber + " · " + m.word("orders.typeShort.", o.Type) + " · " + m.statusWords()("orders.status.", string(o.Status)) + " "
	lines := []string{st.Title.Render(title + strings.Repeat("─", max(0, w-lipgloss.Width(title))))}
	v, lines, ok := m.rv.list.detailOf(m, o.ID, w, lines)
	if !ok {
		return lines
	}
	half := w / 2
	pair := func(l1, v1, l2, v2 string) string {
		return fit(st.Label.Render(fit(m.t(l1), 14))+v1, half) + st.Label.Render(fit(m.t(l2), 14)) + v2
	}
	one := func(l, v string) string { return st.Label.Render(fit(m.t(l), 14)) + v }
	names := make([]string, 0, len(v.Passengers))
	for _, p := range v.Passengers {
		names = append(names, p.Surname+"/"+p.GivenName)
	}
	original := ""
	if v.OriginalID != 0 {
		original = "#" + strconv.FormatInt(v.OriginalID, 10)
		for _, r := range v.Related {
			if r.ID == v.OriginalID {
				original = r.BookingNumber
			}
		}
	}
	depart := m.departText(v.DepartAt, v.Origin)
	lines = append(lines,
		pair("review.agency", m.rv.agencyName(v.AgencyID), "review.total", v.Total.Amount+" "+v.Total.Currency),
		pair("review.route", v.Origin+" → "+v.Destination, "review.flight", flightText(v.Airline, v.FlightNumber)),
		pair("review.departs", depart, "review.pnr", v.PNR),
		pair("review.created", utcText(v.CreatedAt), "review.original", original),
		one("review.passengers", strings.Join(names, ", ")),
	)
	if v.Request != nil {
		req := m.statusWords()("orders.reason.", strconv.Itoa(v.Request.Reason))
		if req == strconv.Itoa(v.Request.Reason) {
			req = reasonText(v.Request.Reason)
		}
		if v.Request.SubReason != "" {
			req += " (" + v.Request.SubReason + ")"
		}
		if v.Request.Remark != "" {
			req += ": " + v.Request.Remark
		}
		lines = append(lines, one("review.request", req))
	}
	if v.ReviewRemark != "" {
		lines = append(lines, one("review.remark", v.ReviewRemark))
	}
	var acts []string
	for _, a := range []struct {
		act  flight.Action
		help string
	}{{flight.ActApprove, "a"}, {flight.ActReject, "r"}, {flight.ActQuote, "o"}} {
		if slices.Contains(v.Actions, a.act) {
			acts = append(acts, a.help+" "+m.t("review.act."+string(a.act)))
		}
	}
	if len(acts) == 0 {
		acts = []string{m.t("review.noActions")}
	}
	lines = append(lines, one("review.actions", strings.Join(acts, " · ")))
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return clip(lines, h)
}

// departText is a departure at the airport's local time, saying so, in
// the console's words.
func (m *Model) departText(t time.Time, airport string) string {
	if t.IsZero() {
		return ""
	}
	return m.t("review.localTime", "time", t.In(geo.Location(airport)).Format("2006-01-02 15:04"), "airport", airport)
}
