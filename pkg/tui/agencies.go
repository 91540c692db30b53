package tui

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/display"
)

// searchDelay is how long the search waits after the last key before it
// asks the backend (enter asks at once).
const searchDelay = 300 * time.Millisecond

// recentEntries is how many wallet entries the detail pane shows.
const recentEntries = 5

// agencyState is the state of the agencies screen.
type agencyState struct {
	list pagedList[agency.Summary, agencyInfo]
	searchBox
	searchSeq int
}

// searchBox is a list's search: the box, whether it has the focus, and the
// keyword the list is narrowed by.
type searchBox struct {
	keyword   string // the search asked for
	search    textinput.Model
	searching bool
}

// view is the search line's left part, the box w cells wide while typing,
// else the search in force (with how to change it, when edit) or how to
// start one, in the words <prefix>.searching, .searchEdit and .searchKey.
func (b *searchBox) view(m *Model, w int, prefix string, edit bool) string {
	switch {
	case b.searching:
		b.search.Width = max(1, w)
		return b.search.View()
	case b.keyword != "" && edit:
		return m.t(prefix+".searching", "keyword", b.keyword) + m.st.Muted.Render("  "+m.t(prefix+".searchEdit"))
	case b.keyword != "":
		return m.t(prefix+".searching", "keyword", b.keyword)
	}
	return m.st.Muted.Render(m.t(prefix + ".searchKey"))
}

// agencyInfo is what the detail pane shows of one agency.
type agencyInfo struct {
	detail  agency.Detail
	entries admin.WalletEntryPage
}

type (
	agenciesMsg struct {
		keyword string
		page    int
		list    admin.AgencyPage
		err     error
	}
	searchMsg struct{ seq int }
)

// newSearchInput is a list's search box, showing hint while empty.
func newSearchInput(hint string) textinput.Model {
	s := textinput.New()
	s.Prompt = "/ "
	s.Placeholder = hint
	s.CharLimit = 100
	s.Cursor.SetMode(cursor.CursorStatic)
	return s
}

func newAgencyState(searchHint string) agencyState {
	list := newPagedList(listSource[agency.Summary, agencyInfo]{
		screen: agenciesScreen, what: "agencies", item: "agency",
		id:         func(a agency.Summary) int64 { return a.ID },
		loadPage:   (*Model).fetchAgencies,
		fetchSized: fetchAgency,
	})
	return agencyState{list: list, searchBox: searchBox{search: newSearchInput(searchHint)}}
}

// fetchAgencies asks for a page of agencies under the current search; it
// is the list's, which counts the loads out (see pagedList.load).
func (m *Model) fetchAgencies(page int) tea.Cmd {
	b, keyword, size := m.b, m.ag.keyword, m.opts.PageSize
	ctx, cancel := m.call()
	return func() tea.Msg {
		defer cancel()
		list, err := b.Agencies(ctx, agency.ListFilter{Keyword: keyword, Page: page, PageSize: size})
		return agenciesMsg{keyword: keyword, page: page, list: list, err: err}
	}
}

// fetchAgency is what the detail pane of rows lines shows of agency id:
// the five latest wallet entries, or as many as a tall pane holds.
func fetchAgency(ctx context.Context, b admin.Backend, id int64, rows int) (agencyInfo, error) {
	var info agencyInfo
	var err error
	info.detail, err = b.Agency(ctx, id)
	if err == nil {
		info.entries, err = b.Entries(ctx, id, 1, max(recentEntries, rows-9))
	}
	return info, err
}

func (m *Model) agenciesLoaded(msg agenciesMsg) tea.Cmd {
	s := &m.ag
	asked := s.list.answered(msg.page)
	if !asked || msg.keyword != s.keyword {
		return nil // the answer to a search or page left since
	}
	return s.list.pageLoaded(m, msg.list.Items, msg.list.Total, msg.err)
}

func (m *Model) agenciesKey(msg tea.KeyMsg) tea.Cmd {
	s := &m.ag
	if cmd, handled := s.list.key(m, msg); handled {
		return cmd
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Search):
		s.searching = true
		s.search.CursorEnd()
		return s.search.Focus()
	case key.Matches(msg, k.Funds), key.Matches(msg, k.Credit), key.Matches(msg, k.APIKey), key.Matches(msg, k.Block):
		return m.openAgencyAction(msg)
	case key.Matches(msg, k.Back):
		m.status = ""
	}
	return nil
}

// openAgencyAction opens the form of f, c or k on the selected agency.
func (m *Model) openAgencyAction(msg tea.KeyMsg) tea.Cmd {
	a, ok := m.ag.list.current()
	if !ok {
		m.status = m.t("agencies.noneSelected")
		return nil
	}
	got, ok := m.ag.list.details[a.ID]
	if !ok || got.err != nil {
		m.status = m.t("agencies.notLoaded")
		return nil
	}
	d := got.val.detail
	switch {
	case key.Matches(msg, m.keys.Funds):
		return m.openAction(fundsAction(m, d))
	case key.Matches(msg, m.keys.Credit):
		return m.openAction(creditAction(m, d))
	case key.Matches(msg, m.keys.Block):
		return m.openAction(statusAction(m, d))
	}
	return m.openAction(apiKeyAction(m, d))
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
	if keyword == s.keyword && s.list.loaded {
		return nil
	}
	s.keyword = keyword
	return s.list.turnTo(m, 1)
}

// agenciesView draws the search line and the list over the detail pane
// (or the open form), in w cells by h lines.
func (m *Model) agenciesView(w, h int) []string {
	s := &m.ag
	l := &s.list
	st := m.st
	top := func(w int) []string {
		// The search line, with the page on the right.
		search := s.view(m, w/2, "agencies", true)
		info := m.pageInfo(l.loaded, l.page, l.total, "agencies.count")
		cols := agencyColumns(w)
		return []string{spread(search, st.Muted.Render(info), w),
			st.Header.Render(cols.row("", m.t("agencies.code"), m.t("agencies.name"), m.t("agencies.status"), m.t("agencies.cur"), m.t("agencies.balance"), m.t("agencies.available")))}
	}
	rows := func(w, n int) []string {
		cols := agencyColumns(w)
		return l.rows(m, w, n, "agencies", func(mark string, a agency.Summary) string {
			return cols.row(mark, a.Code, a.Name, m.agencyStatus(a.Status), a.Currency, a.Balance, a.Available)
		})
	}
	return m.paned(w, h, len(l.items), top, rows, m.paneOr(m.agencyDetailView))
}

// paneOr is the open form, if any, else the screen's detail.
func (m *Model) paneOr(detail func(w, h int) []string) func(w, h int) []string {
	return func(w, h int) []string {
		if m.act != nil {
			return m.act.view(m.st, w, h)
		}
		return detail(w, h)
	}
}

// agencyColumns are the list's columns: code, name, status, currency,
// balance and available.
func agencyColumns(w int) columns {
	amount := column{w: 13, right: true}
	return layout(w, column{w: 8}, column{min: 8}, column{w: 7}, column{w: 3}, amount, amount)
}

// agencyDetailView is the selected agency: its figures, settings and latest
// wallet entries.
func (m *Model) agencyDetailView(w, h int) []string {
	st := m.st
	a, ok := m.ag.list.current()
	if !ok {
		return nil
	}
	title := "─ " + a.Name + " · " + a.Code + " "
	info, lines, ok := m.ag.list.detailOf(m, a.ID, w, []string{st.Title.Render(title + strings.Repeat("─", max(0, w-lipgloss.Width(title))))})
	if !ok {
		return lines
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
	payment := m.t("agencies.enabled")
	if set.DisablePayment {
		payment = m.t("agencies.disabled")
	}
	subs := m.t("agencies.notAllowed")
	if set.CanCreateSubAgency {
		subs = m.t("agencies.allowed")
	}
	// Labels as wide as the widest, values whole: a figure never runs
	// into the next label, and the second column moves right when the
	// first holds a long one.
	labelW := 0
	for _, k := range []string{"agencies.balance", "agencies.available", "agencies.status", "agencies.flight", "agencies.payment",
		"agencies.creditLimit", "agencies.creditPeriod", "agencies.apiKeys", "agencies.train", "agencies.subAgencies"} {
		labelW = max(labelW, lipgloss.Width(m.t(k)))
	}
	labelW++
	firstW := max(w/2, labelW+max(lipgloss.Width(d.Balance+cur), lipgloss.Width(d.Available+cur))+2)
	pair := func(l1, v1, l2, v2 string) string {
		return fit(st.Label.Render(fit(m.t(l1), labelW))+v1, firstW) + st.Label.Render(fit(m.t(l2), labelW)) + v2
	}
	lines = append(lines,
		pair("agencies.balance", d.Balance+cur, "agencies.creditLimit", d.CreditLimit+cur),
		pair("agencies.available", d.Available+cur, "agencies.creditPeriod", m.period(d.CreditPeriod, d.CreditPeriodUnit)),
		pair("agencies.status", m.agencyStatus(d.Status), "agencies.apiKeys", strconv.Itoa(keys)),
		pair("agencies.flight", m.onOff(set.EnableFlight), "agencies.train", m.onOff(set.EnableTrain)),
		pair("agencies.payment", payment, "agencies.subAgencies", subs),
	)
	// The entries' times are on the agency's clock, which the heading
	// names ("UTC+08:00 (Asia/Shanghai)"): its statements' days are.
	loc := display.ResolveZone("", set.TimeZone)
	lines = append(lines, st.Label.Render(m.t("agencies.entries", "shown", len(info.entries.Items), "count", info.entries.Total)+
		" · "+m.t("agencies.entriesZone", "zone", display.ZoneOffset(loc, m.opts.Now()))))
	if len(info.entries.Items) == 0 {
		lines = append(lines, st.Muted.Render("  "+m.t("agencies.noEntries")))
	}
	type row struct{ when, kind, amount, balance, ref string }
	rows := make([]row, 0, len(info.entries.Items))
	var kindW, amountW, balanceW int
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
		r := row{e.PaidAt.In(loc).Format("01-02 15:04"), m.entryType(e.Type), amount, e.BalanceAfter.Amount, ref}
		kindW, amountW, balanceW = max(kindW, lipgloss.Width(r.kind)), max(amountW, lipgloss.Width(r.amount)), max(balanceW, lipgloss.Width(r.balance))
		rows = append(rows, r)
	}
	// Columns as wide as their widest value: only the reference, free
	// text, is cut to the pane.
	for _, r := range rows {
		line := "  " + r.when + "  " + fit(r.kind, kindW) + "  " + fitRight(r.amount, amountW) + " → " + fitRight(r.balance, balanceW) + "  "
		lines = append(lines, line+fit(r.ref, max(0, w-lipgloss.Width(line))))
	}
	return clip(lines, h)
}

func wrapStyled(s interface{ Render(...string) string }, text string, w int) []string {
	ls := wrap(text, w)
	for i, l := range ls {
		ls[i] = s.Render(l)
	}
	return ls
}

// agencyStatus is an agency's status in the console's words.
func (m *Model) agencyStatus(s string) string { return m.word("agencies.status.", s) }

// entryType is a wallet entry's type in the reader's words: as the
// statements name it ("Top-up", "充值"), else the console's, else as
// stored.
func (m *Model) entryType(s string) string {
	return catalogTextIn(m.lang(), "statement.type."+s, m.word("agencies.entry.", s))
}

// word is prefix+s from the catalog, or s when the catalog has no words
// for it.
func (m *Model) word(prefix, s string) string {
	return catalogTextIn(m.lang(), "terminal."+prefix+s, s)
}

// onOff is a setting as a word.
func (m *Model) onOff(b bool) string {
	if b {
		return m.t("agencies.on")
	}
	return m.t("agencies.off")
}

// period is a credit period as words.
func (m *Model) period(n int, unit string) string {
	if n <= 0 {
		return m.t("agencies.noPeriod")
	}
	return m.t("agencies.periodOf", "count", n, "unit", m.word("agencies.unit.", unit))
}
