package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/api"
)

// searchDelay is how long the search waits after the last key before it
// asks the backend (enter asks at once).
const searchDelay = 300 * time.Millisecond

// recentEntries is how many wallet entries the detail pane shows.
const recentEntries = 5

// agencyScreen is the state of the agencies screen.
type agencyState struct {
	list      api.AgencyPage
	page      int    // the page asked for
	keyword   string // the search asked for
	search    textinput.Model
	searching bool
	searchSeq int
	cursor    int
	offset    int
	selected  int64 // the selected agency's id, kept across reloads
	pending   int   // list loads out
	loaded    bool
	err       string
	details   map[int64]agencyInfo
}

// agencyInfo is what the detail pane shows of one agency.
type agencyInfo struct {
	detail  agency.Detail
	entries api.WalletEntryPage
	err     error
}

type (
	agenciesMsg struct {
		keyword string
		page    int
		list    api.AgencyPage
		err     error
	}
	agencyMsg struct {
		id   int64
		info agencyInfo
	}
	searchMsg struct{ seq int }
)

func newAgencyState() agencyState {
	s := textinput.New()
	s.Prompt = "/ "
	s.Placeholder = "name, code or email"
	s.CharLimit = 100
	s.Cursor.SetMode(cursor.CursorStatic)
	return agencyState{page: 1, search: s, details: map[int64]agencyInfo{}}
}

// current is the selected agency of the list.
func (s *agencyState) current() (agency.Summary, bool) {
	if s.cursor < 0 || s.cursor >= len(s.list.Items) {
		return agency.Summary{}, false
	}
	return s.list.Items[s.cursor], true
}

func (m *Model) loadAgencies() tea.Cmd {
	m.ag.pending++
	b, keyword, page, size := m.b, m.ag.keyword, m.ag.page, m.opts.PageSize
	ctx, cancel := m.call()
	return func() tea.Msg {
		defer cancel()
		list, err := b.Agencies(ctx, agency.ListFilter{Keyword: keyword, Page: page, PageSize: size})
		return agenciesMsg{keyword: keyword, page: page, list: list, err: err}
	}
}

func (m *Model) loadAgency(id int64) tea.Cmd {
	b := m.b
	ctx, cancel := m.call()
	return func() tea.Msg {
		defer cancel()
		var info agencyInfo
		info.detail, info.err = b.Agency(ctx, id)
		if info.err == nil {
			info.entries, info.err = b.Entries(ctx, id, 1, recentEntries)
		}
		return agencyMsg{id: id, info: info}
	}
}

// agenciesLoaded takes a page of agencies, keeping the selected agency
// selected when it is still there, and loads its detail.
func (m *Model) agenciesLoaded(msg agenciesMsg) tea.Cmd {
	s := &m.ag
	s.pending = max(0, s.pending-1)
	if msg.keyword != s.keyword || msg.page != s.page {
		return nil // the answer to a search or page left since
	}
	if msg.err != nil {
		s.err = describe(msg.err)
		m.loadFailed("agencies", msg.err)
		return nil
	}
	if len(msg.list.Items) == 0 && s.page > 1 && msg.list.Total > 0 {
		// The page emptied (agencies went away): go to the last one.
		s.page = pages(msg.list.Total, m.opts.PageSize)
		return m.loadAgencies()
	}
	s.list, s.loaded, s.err = msg.list, true, ""
	if m.screen == agenciesScreen {
		m.loadedAt()
	}
	s.cursor = min(s.cursor, max(0, len(s.list.Items)-1))
	for i, a := range s.list.Items {
		if a.ID == s.selected {
			s.cursor = i
			break
		}
	}
	return m.selectAgency()
}

// selectAgency notes the agency under the cursor and loads its detail.
func (m *Model) selectAgency() tea.Cmd {
	a, ok := m.ag.current()
	if !ok {
		m.ag.selected = 0
		return nil
	}
	m.ag.selected = a.ID
	return m.loadAgency(a.ID)
}

func (m *Model) agencyLoaded(msg agencyMsg) {
	if msg.info.err != nil {
		if prev, ok := m.ag.details[msg.id]; ok && prev.err == nil {
			// Keep showing what was there; the status line tells.
			m.loadFailed("agency", msg.info.err)
			return
		}
		if msg.id == m.ag.selected {
			m.loadFailed("agency", msg.info.err)
		}
	}
	m.ag.details[msg.id] = msg.info
}

func (m *Model) agenciesKey(msg tea.KeyMsg) tea.Cmd {
	s := &m.ag
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		if s.cursor > 0 {
			s.cursor--
			return m.selectAgency()
		}
	case key.Matches(msg, k.Down):
		if s.cursor < len(s.list.Items)-1 {
			s.cursor++
			return m.selectAgency()
		}
	case key.Matches(msg, k.PrevPage):
		if s.page > 1 {
			s.page--
			s.cursor, s.offset = 0, 0
			return m.loadAgencies()
		}
	case key.Matches(msg, k.NextPage):
		if s.page < pages(s.list.Total, m.opts.PageSize) {
			s.page++
			s.cursor, s.offset = 0, 0
			return m.loadAgencies()
		}
	case key.Matches(msg, k.Search):
		s.searching = true
		s.search.CursorEnd()
		return s.search.Focus()
	case key.Matches(msg, k.Funds), key.Matches(msg, k.Credit), key.Matches(msg, k.APIKey):
		return m.openAgencyAction(msg)
	case key.Matches(msg, k.Back):
		m.status = ""
	}
	return nil
}

// openAgencyAction opens the form of f, c or k on the selected agency.
func (m *Model) openAgencyAction(msg tea.KeyMsg) tea.Cmd {
	a, ok := m.ag.current()
	if !ok {
		m.status = "No agency selected."
		return nil
	}
	info, ok := m.ag.details[a.ID]
	if !ok || info.err != nil {
		m.status = "The agency's detail is not loaded yet; try again in a moment."
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Funds):
		m.act = fundsAction(m.b, info.detail)
	case key.Matches(msg, m.keys.Credit):
		m.act = creditAction(m.b, info.detail)
	default:
		m.act = apiKeyAction(m.b, info.detail)
	}
	m.status = ""
	return m.act.open()
}

// searchKey handles a key in the search box: typing searches after a pause,
// enter at once, esc clears the search.
func (m *Model) searchKey(msg tea.KeyMsg) tea.Cmd {
	s := &m.ag
	switch msg.String() {
	case "enter":
		s.searching = false
		s.search.Blur()
		return m.applySearch(s.search.Value())
	case "esc", "ctrl+c":
		s.searching = false
		s.search.Blur()
		s.search.SetValue("")
		return m.applySearch("")
	}
	before := s.search.Value()
	var cmd tea.Cmd
	s.search, cmd = s.search.Update(msg)
	if s.search.Value() == before {
		return cmd
	}
	s.searchSeq++
	seq := s.searchSeq
	return tea.Batch(cmd, tea.Tick(searchDelay, func(time.Time) tea.Msg { return searchMsg{seq: seq} }))
}

// searched runs a search once the typing paused.
func (m *Model) searched(msg searchMsg) tea.Cmd {
	if msg.seq != m.ag.searchSeq || !m.ag.searching {
		return nil
	}
	return m.applySearch(m.ag.search.Value())
}

func (m *Model) applySearch(keyword string) tea.Cmd {
	keyword = strings.TrimSpace(keyword)
	s := &m.ag
	s.searchSeq++ // a pending pause-search is overtaken
	if keyword == s.keyword && s.loaded {
		return nil
	}
	s.keyword, s.page, s.cursor, s.offset = keyword, 1, 0, 0
	return m.loadAgencies()
}

// agenciesView draws the search line and the list over the detail pane
// (or the open form), in w cells by h lines.
func (m *Model) agenciesView(w, h int) []string {
	s := &m.ag
	st := m.st
	listRows, lower := split(h-2, len(s.list.Items))

	// The search line, with the page on the right.
	var search string
	switch {
	case s.searching:
		s.search.Width = max(1, w/2)
		search = s.search.View()
	case s.keyword != "":
		search = "search: " + s.keyword + st.Muted.Render("  (/ to edit)")
	default:
		search = st.Muted.Render("/ to search")
	}
	info := ""
	if s.loaded {
		info = fmt.Sprintf("page %d/%d · %d agencies", s.page, pages(s.list.Total, m.opts.PageSize), s.list.Total)
	}
	lines := []string{spread(search, st.Muted.Render(info), w)}

	// The list.
	cols := agencyColumns(w)
	lines = append(lines, st.Header.Render(cols.row("", "Code", "Name", "Status", "Cur", "Balance", "Available")))
	switch {
	case !s.loaded && s.err != "":
		lines = append(lines, wrapStyled(st.Error, "Could not load the agencies: "+s.err, w)...)
	case !s.loaded:
		lines = append(lines, st.Muted.Render("Loading…"))
	case len(s.list.Items) == 0:
		lines = append(lines, st.Muted.Render("No agencies match."))
	}
	// The scroll offset is kept here, where the rows there is room for are
	// known.
	s.offset = scroll(s.cursor, s.offset, listRows, len(s.list.Items))
	for i := s.offset; i < len(s.list.Items) && i < s.offset+listRows; i++ {
		a := s.list.Items[i]
		if i == s.cursor {
			lines = append(lines, st.Selected.Render(cols.row(">", a.Code, a.Name, a.Status, a.Currency, a.Balance, a.Available)))
		} else {
			lines = append(lines, cols.row("", a.Code, a.Name, a.Status, a.Currency, a.Balance, a.Available))
		}
	}
	for len(lines) < 2+listRows {
		lines = append(lines, "")
	}

	// The lower pane.
	if m.act != nil {
		return append(lines, m.act.view(st, w, lower)...)
	}
	return append(lines, m.agencyDetailView(w, lower)...)
}

// agencyCols are the list's column widths.
type agencyCols struct{ code, name, status, cur, amount int }

func agencyColumns(w int) agencyCols {
	c := agencyCols{code: 8, status: 7, cur: 3, amount: 13}
	// 2 for the marker, and a space between columns.
	c.name = max(8, w-2-c.code-c.status-c.cur-2*c.amount-5)
	return c
}

func (c agencyCols) row(mark, code, name, status, cur, balance, available string) string {
	return fit(mark, 2) + fit(code, c.code) + " " + fit(name, c.name) + " " + fit(status, c.status) + " " +
		fit(cur, c.cur) + " " + fitRight(balance, c.amount) + " " + fitRight(available, c.amount)
}

// agencyDetailView is the selected agency: its figures, settings and latest
// wallet entries.
func (m *Model) agencyDetailView(w, h int) []string {
	st := m.st
	a, ok := m.ag.current()
	if !ok {
		return nil
	}
	info, ok := m.ag.details[a.ID]
	title := "─ " + a.Name + " · " + a.Code + " "
	lines := []string{st.Title.Render(title + strings.Repeat("─", max(0, w-lipgloss.Width(title))))}
	if !ok {
		return append(lines, st.Muted.Render("Loading…"))
	}
	if info.err != nil {
		return append(lines, wrapStyled(st.Error, "error: "+describe(info.err), w)...)
	}
	d := info.detail
	cur := " " + d.Currency
	keys := 0
	for _, k := range d.APIKeys {
		if k.RevokedAt == nil {
			keys++
		}
	}
	set := d.Config.Settings
	payment := "enabled"
	if set.DisablePayment {
		payment = "disabled"
	}
	subs := "not allowed"
	if set.CanCreateSubAgency {
		subs = "allowed"
	}
	half := w / 2
	pair := func(l1, v1, l2, v2 string) string {
		return fit(st.Label.Render(fit(l1, 14))+v1, half) + st.Label.Render(fit(l2, 14)) + v2
	}
	lines = append(lines,
		pair("Balance", d.Balance+cur, "Credit limit", d.CreditLimit+cur),
		pair("Available", d.Available+cur, "Credit period", period(d.CreditPeriod, d.CreditPeriodUnit)),
		pair("Status", d.Status, "API keys", strconv.Itoa(keys)),
		pair("Flight", onOff(set.EnableFlight), "Train", onOff(set.EnableTrain)),
		pair("Payment", payment, "Sub-agencies", subs),
	)
	lines = append(lines, st.Label.Render(fmt.Sprintf("Recent wallet entries (%d of %d)", len(info.entries.Items), info.entries.Total)))
	if len(info.entries.Items) == 0 {
		lines = append(lines, st.Muted.Render("  none yet"))
	}
	for _, e := range info.entries.Items {
		amount := e.Amount.Amount
		if !strings.HasPrefix(amount, "-") {
			amount = "+" + amount
		}
		ref := e.PaymentReference
		if ref == "" {
			ref = e.OrderID
		}
		if ref == "" {
			ref = e.Description
		}
		line := "  " + e.PaidAt.Local().Format("01-02 15:04") + "  " + fit(e.Type, 14) + " " + fitRight(amount, 12) +
			"  → " + fitRight(e.BalanceAfter.Amount, 12) + "  "
		lines = append(lines, line+fit(ref, max(0, w-lipgloss.Width(line))))
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return lines
}

func wrapStyled(s interface{ Render(...string) string }, text string, w int) []string {
	ls := wrap(text, w)
	for i, l := range ls {
		ls[i] = s.Render(l)
	}
	return ls
}
