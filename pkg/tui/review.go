package tui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/order"
)

// reviewGroup is the order group of spec §4 that waits for the provider.
const reviewGroup = "reviewing"

// reviewState is the state of the review queue.
type reviewState struct {
	list pagedList[order.View, order.View]
	// names are the agencies' names by id ("" when it could not be told).
	names map[int64]string
}

type ordersMsg struct {
	pageNo int
	page   order.Page
	names  map[int64]string
	err    error
}

func newReviewState() reviewState {
	list := newPagedList(listSource[order.View, order.View]{
		screen: reviewScreen, what: "review queue", item: "order",
		id:       func(o order.View) int64 { return o.ID },
		loadPage: (*Model).fetchOrders,
		fetchDetail: func(ctx context.Context, b admin.Backend, id int64) (order.View, error) {
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
		p, err := b.Orders(ctx, order.Filter{Group: reviewGroup, Page: pageNo, PageSize: size})
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
		return m.openReview(order.ActApprove)
	case key.Matches(msg, k.Reject):
		return m.openReview(order.ActReject)
	case key.Matches(msg, k.Quote):
		return m.openReview(order.ActQuote)
	case key.Matches(msg, k.Back):
		m.status = ""
	}
	return nil
}

// openReview opens the form of a decision on the selected order, if the
// order allows it now.
func (m *Model) openReview(act order.Action) tea.Cmd {
	v, ok := m.rv.list.current()
	if !ok {
		m.status = "No order selected."
		return nil
	}
	if got, ok := m.rv.list.details[v.ID]; ok && got.err == nil {
		v = got.val
	}
	if !slices.Contains(v.Actions, act) {
		m.status = fmt.Sprintf("%s cannot be done on %s (%s) now.", act, v.BookingNumber, v.Status)
		return nil
	}
	m.act = reviewAction(m.b, v, act, m.rv.agencyName(v.AgencyID))
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
		info := ""
		if l.loaded {
			info = fmt.Sprintf("page %d/%d · %s", l.page, pages(l.total, m.opts.PageSize), i18n.CountEN(l.total, "order", "orders"))
		}
		cols := orderColumns(w)
		return []string{spread(st.Muted.Render("Orders waiting for review"), st.Muted.Render(info), w),
			st.Header.Render(cols.row("", "Booking", "Agency", "Type", "Status", "Total", "Created UTC"))}
	}
	rows := func(w, n int) []string {
		var lines []string
		switch {
		case !l.loaded && l.err != "":
			lines = append(lines, wrapStyled(st.Error, "Could not load the queue: "+l.err, w)...)
		case !l.loaded:
			lines = append(lines, st.Muted.Render("Loading…"))
		case len(l.items) == 0:
			lines = append(lines, st.Muted.Render("Nothing waits for review."))
		}
		cols := orderColumns(w)
		from, to := l.shown(n)
		for i := from; i < to; i++ {
			o := l.items[i]
			mark, style := "", lipgloss.NewStyle()
			if i == l.cursor {
				mark, style = ">", st.Selected
			}
			lines = append(lines, style.Render(cols.row(mark, o.BookingNumber, s.agencyName(o.AgencyID), o.Type, statusText(o.Status),
				o.Total.Amount+" "+o.Total.Currency, o.CreatedAt.UTC().Format("01-02 15:04"))))
		}
		return lines
	}
	return m.paned(w, h, len(l.items), top, rows, m.paneOr(m.orderDetailView))
}

type orderCols struct{ booking, agency, typ, status, total, created int }

func orderColumns(w int) orderCols {
	c := orderCols{booking: 15, typ: 6, status: 13, total: 14, created: 11}
	if w >= 100 {
		// Room for the longest status words ("Refund under review").
		c.status = 20
	}
	c.agency = max(6, w-2-c.booking-c.typ-c.status-c.total-c.created-5)
	return c
}

func (c orderCols) row(mark, booking, agency, typ, status, total, created string) string {
	return fit(mark, 2) + fit(booking, c.booking) + " " + fit(agency, c.agency) + " " + fit(typ, c.typ) + " " +
		fit(status, c.status) + " " + fitRight(total, c.total) + " " + fit(created, c.created)
}

// orderDetailView is the selected order: what, whose, the trip, the request
// and what may be done.
func (m *Model) orderDetailView(w, h int) []string {
	st := m.st
	o, ok := m.rv.list.current()
	if !ok {
		return nil
	}
	title := "─ " + o.BookingNumber + " · " + o.Type + " · " + statusText(o.Status) + " "
	lines := []string{st.Title.Render(title + strings.Repeat("─", max(0, w-lipgloss.Width(title))))}
	got, ok := m.rv.list.details[o.ID]
	if !ok {
		return append(lines, st.Muted.Render("Loading…"))
	}
	if got.err != nil {
		return append(lines, wrapStyled(st.Error, "error: "+admin.Describe(got.err), w)...)
	}
	v := got.val
	half := w / 2
	pair := func(l1, v1, l2, v2 string) string {
		return fit(st.Label.Render(fit(l1, 14))+v1, half) + st.Label.Render(fit(l2, 14)) + v2
	}
	one := func(l, v string) string { return st.Label.Render(fit(l, 14)) + v }
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
	depart := departText(v.DepartAt, v.Origin)
	lines = append(lines,
		pair("Agency", m.rv.agencyName(v.AgencyID), "Total", v.Total.Amount+" "+v.Total.Currency),
		pair("Route", v.Origin+" → "+v.Destination, "Flight", flightText(v.Airline, v.FlightNumber)),
		pair("Departs", depart, "PNR", v.PNR),
		pair("Created", utcText(v.CreatedAt), "Original", original),
		one("Passengers", strings.Join(names, ", ")),
	)
	if v.Request != nil {
		req := reasonText(v.Request.Reason)
		if v.Request.SubReason != "" {
			req += " (" + v.Request.SubReason + ")"
		}
		if v.Request.Remark != "" {
			req += ": " + v.Request.Remark
		}
		lines = append(lines, one("Request", req))
	}
	if v.ReviewRemark != "" {
		lines = append(lines, one("Review remark", v.ReviewRemark))
	}
	var acts []string
	for _, a := range []struct {
		act  order.Action
		help string
	}{{order.ActApprove, "a approve"}, {order.ActReject, "r reject"}, {order.ActQuote, "o quote"}} {
		if slices.Contains(v.Actions, a.act) {
			acts = append(acts, a.help)
		}
	}
	if len(acts) == 0 {
		acts = []string{"none from here"}
	}
	lines = append(lines, one("Actions", strings.Join(acts, " · ")))
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return lines
}
