package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/group"
)

// groupState is the queue of group requests waiting for the provider's
// quote, oldest first. It loads when first opened: a backend that has no
// group orders is never asked.
type groupState struct {
	list   pagedList[group.View, group.View]
	opened bool
}

type groupsMsg struct {
	pageNo int
	page   group.Page
	err    error
}

func newGroupState() groupState {
	return groupState{list: newPagedList(listSource[group.View, group.View]{
		screen: groupsScreen, what: "group queue", item: "group order",
		id: func(g group.View) int64 { return g.ID },
		loadPage: func(m *Model, pageNo int) tea.Cmd {
			b, size := m.b, m.opts.PageSize
			ctx, cancel := m.call()
			return func() tea.Msg {
				defer cancel()
				p, err := b.GroupQueue(ctx, pageNo, size)
				return groupsMsg{pageNo: pageNo, page: p, err: err}
			}
		},
		fetchDetail: func(ctx context.Context, b admin.Backend, id int64) (group.View, error) { return b.Group(ctx, id) },
	})}
}

func (m *Model) groupsLoaded(msg groupsMsg) tea.Cmd {
	if !m.gr.list.answered(msg.pageNo) {
		return nil
	}
	return m.gr.list.pageLoaded(m, msg.page.Items, msg.page.Total, msg.err)
}

func (m *Model) groupsKey(msg tea.KeyMsg) tea.Cmd {
	cmd, _ := m.gr.list.key(m, msg)
	return cmd
}

func groupRoute(g group.View) (route, date string) {
	var parts []string
	for i, j := range g.Journeys {
		parts = append(parts, j.Origin+"-"+j.Destination)
		if i == 0 {
			date = j.Date
		}
	}
	return strings.Join(parts, " "), date
}

// groupsView draws the queue over the selected request's detail, in w cells
// by h lines.
func (m *Model) groupsView(w, h int) []string {
	l := &m.gr.list
	st := m.st
	// booking, route, date, passengers, requested
	row := func(w int, mark string, cells ...string) string {
		return layout(w, column{w: 15}, column{min: 8}, column{w: 10}, column{w: 9}, column{w: 11}).row(mark, cells...)
	}
	top := func(w int) []string {
		info := ""
		if l.loaded {
			info = m.pageInfo(true, l.page, l.total, "groups.count")
		}
		return []string{spread(st.Muted.Render(m.t("groups.heading")), st.Muted.Render(info), w),
			st.Header.Render(row(w, "", m.t("orders.booking"), m.t("orders.route"), m.t("groups.date"), m.t("groups.pax"), m.t("groups.requested")))}
	}
	rows := func(w, n int) []string {
		return l.rows(m, w, n, "groups", func(mark string, g group.View) string {
			r, d := groupRoute(g)
			return row(w, mark, g.BookingNumber, r, d, fmt.Sprintf("%d/%d/%d", g.Passengers.Adult, g.Passengers.Child, g.Passengers.Infant),
				g.CreatedAt.UTC().Format("01-02 15:04"))
		})
	}
	return m.paned(w, h, len(l.items), top, rows, m.groupDetailView)
}

// groupDetailView is the selected request: the journeys, the group, the
// contact and how to quote it.
func (m *Model) groupDetailView(w, h int) []string {
	st := m.st
	g, ok := m.gr.list.current()
	if !ok {
		return nil
	}
	title := "─ " + g.BookingNumber + " · " + m.statusWords()("groupportal.status.", string(g.Status)) + " "
	lines := []string{st.Title.Render(title + strings.Repeat("─", max(0, w-lipgloss.Width(title))))}
	got, ok := m.gr.list.details[g.ID]
	if !ok {
		return append(lines, st.Muted.Render(m.t("loading")))
	}
	if got.err != nil {
		return append(lines, wrapStyled(st.Error, "error: "+admin.Describe(got.err), w)...)
	}
	v := got.val
	one := func(l, v string) string { return st.Label.Render(fit(l, 14)) + v }
	t := m.t
	for i, j := range v.Journeys {
		line := j.Origin + " → " + j.Destination + " " + j.Date
		if j.ReturnDate != "" {
			line += m.t("groups.back", "date", j.ReturnDate)
		}
		if j.Remark != "" {
			line += " (" + j.Remark + ")"
		}
		lines = append(lines, one(t("orders.journey", "n", i+1), line))
	}
	flex := []string{}
	if v.IsChangeDate {
		flex = append(flex, m.t("groups.datesFlexible"))
	}
	if v.AcceptChangeFlight {
		flex = append(flex, m.t("groups.otherFlights"))
	}
	if len(flex) == 0 {
		flex = []string{m.t("rates.none")}
	}
	lines = append(lines,
		one(t("orders.group"), t("orders.groupPax", "adults", v.Passengers.Adult, "children", v.Passengers.Child, "infants", v.Passengers.Infant)+" · "+v.CabinClass),
		one(t("groups.flexibility"), strings.Join(flex, ", ")),
		one(t("orders.contact"), v.Contact.Name+" · "+v.Contact.Email+" · "+v.Contact.Phone),
		one(t("funds.remark"), v.Remark),
		one(t("groups.quote"), fmt.Sprintf("voyage groups quote %d --fare adult=… --installment final=…@…", v.ID)),
	)
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return clip(lines, h)
}
