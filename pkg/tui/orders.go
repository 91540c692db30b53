package tui

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/train"
)

// orderKind is which orders the search screen lists.
type orderKind int

const (
	flightOrders orderKind = iota
	trainOrders
	groupOrders
	orderKinds
)

var kindNames = [orderKinds]string{"flights", "trains", "groups"}

// orderRow is one order of any kind as the search list shows it.
type orderRow struct {
	id       int64
	booking  string
	agencyID int64
	status   string // in the console's words
	route    string
	total    string
	created  time.Time
}

// orderDetail is the selected order as its backend answers it: one of the
// three is set.
type orderDetail struct {
	flight *flight.View
	train  *train.View
	group  *group.View
}

// ordersState is the provider's order search: every order of the agencies
// it manages, newest first, flights, trains or group orders (`t` turns),
// narrowed by a keyword (booking number, PNR, ticket, flight or train
// number, passenger surname), with the selected order's detail.
type ordersState struct {
	list pagedList[orderRow, orderDetail]
	kind orderKind
	searchBox
	names map[int64]string
}

type orderRowsMsg struct {
	kind    orderKind
	keyword string
	pageNo  int
	rows    []orderRow
	total   int
	names   map[int64]string
	err     error
}

func newOrdersState(searchHint string) ordersState {
	return ordersState{searchBox: searchBox{search: newSearchInput(searchHint)}, names: map[int64]string{}, list: newPagedList(listSource[orderRow, orderDetail]{
		screen: ordersScreen, what: "orders", item: "order",
		id:       func(r orderRow) int64 { return r.id },
		loadPage: (*Model).fetchOrderRows,
		// fetchDetail is set per kind by fetchOrderDetail.
		fetchDetail: nil,
	})}
}

// fetchOrderRows asks for a page of the kind on show, with the names of
// agencies not seen before.
func (m *Model) fetchOrderRows(pageNo int) tea.Cmd {
	s := &m.or
	kind, keyword, size, b := s.kind, s.keyword, m.opts.PageSize, m.b
	known := make(map[int64]bool, len(s.names))
	for id := range s.names {
		known[id] = true
	}
	words := m.statusWords()
	ctx, cancel := m.call()
	return func() tea.Msg {
		defer cancel()
		msg := orderRowsMsg{kind: kind, keyword: keyword, pageNo: pageNo, names: map[int64]string{}}
		switch kind {
		case flightOrders:
			p, err := b.Orders(ctx, flight.Filter{Filter: booking.Filter{Keyword: keyword, Page: pageNo, PageSize: size}})
			msg.err, msg.total = err, p.Total
			for _, o := range p.Items {
				msg.rows = append(msg.rows, orderRow{id: o.ID, booking: o.BookingNumber, agencyID: o.AgencyID,
					status: words("orders.status.", string(o.Status)), route: o.Origin + "-" + o.Destination + " " + flightText(o.Airline, o.FlightNumber),
					total: o.Total.Amount + " " + o.Total.Currency, created: o.CreatedAt})
			}
		case trainOrders:
			p, err := b.TrainOrders(ctx, train.Filter{Keyword: keyword, Page: pageNo, PageSize: size})
			msg.err, msg.total = err, p.Total
			for _, o := range p.Items {
				msg.rows = append(msg.rows, orderRow{id: o.ID, booking: o.BookingNumber, agencyID: o.AgencyID,
					status: words("train.status.", string(o.Status)), route: o.Origin + "-" + o.Destination + " " + o.TrainNumber,
					total: o.Total.Amount + " " + o.Total.Currency, created: o.CreatedAt})
			}
		default:
			p, err := b.Groups(ctx, group.Filter{Status: "all", Page: pageNo, PageSize: size})
			msg.err, msg.total = err, p.Total
			for _, g := range p.Items {
				r, d := groupRoute(g)
				total := ""
				if g.Total != nil {
					total = g.Total.Amount + " " + g.Total.Currency
				}
				msg.rows = append(msg.rows, orderRow{id: g.ID, booking: g.BookingNumber, agencyID: g.AgencyID,
					status: words("groupportal.status.", string(g.Status)), route: r + " " + d, total: total, created: g.CreatedAt})
			}
		}
		for _, r := range msg.rows {
			if _, ok := msg.names[r.agencyID]; ok || known[r.agencyID] {
				continue
			}
			msg.names[r.agencyID] = ""
			if d, err := b.Agency(ctx, r.agencyID); err == nil {
				msg.names[r.agencyID] = d.Name
			}
		}
		return msg
	}
}

// statusWords is a status in the console's language from the portal's
// catalog (the raw status when it has no words for it).
func (m *Model) statusWords() func(prefix, status string) string {
	lang := m.lang()
	return func(prefix, status string) string { return catalogTextIn(lang, prefix+status, status) }
}

func (m *Model) orderRowsLoaded(msg orderRowsMsg) tea.Cmd {
	s := &m.or
	if !s.list.answered(msg.pageNo) || msg.kind != s.kind || msg.keyword != s.keyword {
		return nil
	}
	maps.Copy(s.names, msg.names)
	s.list.fetchDetail = fetchOrderDetail(msg.kind)
	return s.list.pageLoaded(m, msg.rows, msg.total, msg.err)
}

func fetchOrderDetail(kind orderKind) func(ctx context.Context, b admin.Backend, id int64) (orderDetail, error) {
	return func(ctx context.Context, b admin.Backend, id int64) (orderDetail, error) {
		switch kind {
		case flightOrders:
			v, err := b.Order(ctx, id)
			return orderDetail{flight: &v}, err
		case trainOrders:
			v, err := b.TrainOrder(ctx, id)
			return orderDetail{train: &v}, err
		}
		v, err := b.Group(ctx, id)
		return orderDetail{group: &v}, err
	}
}

func (m *Model) ordersKey(msg tea.KeyMsg) tea.Cmd {
	s := &m.or
	if cmd, handled := s.list.key(m, msg); handled {
		return cmd
	}
	switch {
	case key.Matches(msg, m.keys.Search):
		if s.kind == groupOrders {
			m.status = m.t("orders.noGroupSearch")
			return nil
		}
		s.searching = true
		s.search.CursorEnd()
		return s.search.Focus()
	case key.Matches(msg, m.keys.Kind):
		s.kind = (s.kind + 1) % orderKinds
		if s.kind == groupOrders {
			s.keyword = ""
			s.search.SetValue("")
		}
		s.list.details = map[int64]detail[orderDetail]{}
		s.list.items, s.list.loaded, s.list.selected = nil, false, 0
		return s.list.turnTo(m, 1)
	case key.Matches(msg, m.keys.Back):
		m.status = ""
	}
	return nil
}

// orderSearchKey is a key in the order search box: enter searches, esc
// clears.
func (m *Model) orderSearchKey(msg tea.KeyMsg) tea.Cmd {
	s := &m.or
	switch msg.String() {
	case "enter", "esc", "ctrl+c":
		if msg.String() != "enter" {
			s.search.SetValue("")
		}
		s.searching = false
		s.search.Blur()
		s.keyword = strings.TrimSpace(s.search.Value())
		s.list.details = map[int64]detail[orderDetail]{}
		return s.list.turnTo(m, 1)
	}
	var cmd tea.Cmd
	s.search, cmd = s.search.Update(msg)
	return cmd
}

func (m *Model) agencyNameOf(id int64) string {
	if n := m.or.names[id]; n != "" {
		return n
	}
	return "#" + strconv.FormatInt(id, 10)
}

func (m *Model) ordersView(w, h int) []string {
	s := &m.or
	l := &s.list
	st := m.st
	// booking, agency, route, status, total, created
	// The booking number, route (with its flight or train numbers) and
	// total are as wide as the widest on the page, never cut; the agency
	// and the status, free text, share what is left.
	bw, rw, tw := cellWidth(m.t("orders.booking")), cellWidth(m.t("orders.route")), cellWidth(m.t("orders.total"))
	for _, o := range l.items {
		bw, rw, tw = max(bw, cellWidth(o.booking)), max(rw, cellWidth(o.route)), max(tw, cellWidth(o.total))
	}
	row := func(w int, mark string, cells ...string) string {
		free := w - 2 - 5 - bw - rw - tw - 11
		sw := max(6, min(20, free/2))
		aw := max(6, free-sw)
		return layout(w, column{w: bw}, column{w: aw}, column{w: rw}, column{w: sw}, column{w: tw, right: true}, column{w: 11}).row(mark, cells...)
	}
	top := func(w int) []string {
		var kinds []string
		for k := orderKind(0); k < orderKinds; k++ {
			name := m.t("orders.kind." + kindNames[k])
			if k == s.kind {
				name = st.ActiveTab.Render("[" + name + "]")
			}
			kinds = append(kinds, name)
		}
		left := strings.Join(kinds, " ") + "  " + s.view(m, w/3, "orders", false)
		return []string{spread(left, st.Muted.Render(m.pageInfo(l.loaded, l.page, l.total, "orders.count")), w),
			st.Header.Render(row(w, "", m.t("orders.booking"), m.t("orders.agency"), m.t("orders.route"), m.t("orders.status"), m.t("orders.total"), m.t("orders.created")))}
	}
	rows := func(w, n int) []string {
		return l.rows(m, w, n, "orders", func(mark string, o orderRow) string {
			return row(w, mark, o.booking, m.agencyNameOf(o.agencyID), o.route, o.status, o.total, o.created.UTC().Format("01-02 15:04"))
		})
	}
	return m.paned(w, h, len(l.items), top, rows, m.orderSearchDetailView)
}

// orderSearchDetailView is the selected order of any kind.
func (m *Model) orderSearchDetailView(w, h int) []string {
	r, ok := m.or.list.current()
	if !ok {
		return nil
	}
	d, lines, ok := m.or.list.detailOf(m, r.id, w, []string{m.rule(r.booking+" · "+r.status, w)})
	if !ok {
		return lines
	}
	f := func(label, value string) { lines = append(lines, m.field2(label, value, w)) }
	f("orders.agency", m.agencyNameOf(r.agencyID))
	switch {
	case d.flight != nil:
		v := d.flight
		f("orders.type", m.t("orders.type."+v.Type))
		f("orders.flight", flightText(v.Airline, v.FlightNumber)+"  "+v.Origin+" → "+v.Destination)
		f("orders.departs", departText(v.DepartAt, v.Origin))
		f("orders.pnr", v.PNR)
		if len(v.TicketNumbers) > 0 {
			f("orders.tickets", strings.Join(v.TicketNumbers, ", "))
		}
		f("orders.total", v.Total.Amount+" "+v.Total.Currency+" · "+m.t("orders.payment."+v.PaymentStatus))
		for i, p := range v.Passengers {
			f(m.passengerLabel(i), p.Surname+"/"+p.GivenName+" ("+m.t("orders.pax."+p.Type)+")")
		}
		for _, s := range v.Segments {
			lines = append(lines, fit("  "+segmentText(s.Carrier, s.FlightNumber, s.Origin, s.Destination, s.DepartAt), w))
		}
	case d.train != nil:
		v := d.train
		f("orders.train", v.TrainNumber+"  "+v.Origin+" → "+v.Destination)
		f("orders.departs", v.DepartAt.In(cst).Format("2006-01-02 15:04")+" "+m.t("orders.chinaTime"))
		f("orders.seatClass", v.SeatClass)
		f("orders.total", v.Total.Amount+" "+v.Total.Currency)
		for i, p := range v.Passengers {
			f(m.passengerLabel(i), p.Surname+p.GivenName)
		}
		for _, t := range v.Tickets {
			lines = append(lines, fit(fmt.Sprintf("  %s  %s %s-%s  %s", t.Number, t.TrainNumber, t.Coach, t.Seat, t.PassengerName), w))
		}
	case d.group != nil:
		v := d.group
		for i, j := range v.Journeys {
			line := j.Origin + " → " + j.Destination + " " + j.Date
			if j.ReturnDate != "" {
				line += " / " + j.ReturnDate
			}
			lines = append(lines, fit(m.st.Label.Render(fit(m.t("orders.journey", "n", i+1), 16))+line, w))
		}
		f("orders.group", m.t("orders.groupPax", "adults", v.Passengers.Adult, "children", v.Passengers.Child, "infants", v.Passengers.Infant))
		if v.Total != nil {
			f("orders.total", v.Total.Amount+" "+v.Total.Currency)
		}
		f("orders.contact", v.Contact.Name+" · "+v.Contact.Email)
		f("orders.passengerList", strconv.Itoa(v.PassengerCount))
	}
	f("orders.created", utcText(r.created))
	return clip(lines, h)
}

func (m *Model) passengerLabel(i int) string {
	if i == 0 {
		return "orders.passengers"
	}
	return ""
}

// cst is China Standard Time, the railway's clock.
var cst = time.FixedZone("CST", 8*3600)

func segmentText(airline, number, from, to string, depart time.Time) string {
	return flightText(airline, number) + " " + from + "-" + to + " " + departText(depart, from)
}
