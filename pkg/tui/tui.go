// Package tui is `voyage tui`: a terminal console for the provider's admins
// and finance staff, built with Bubble Tea.
//
// It has three screens. Agencies lists the agencies the backend's caller
// manages (code, name, status, currency, balance, available), with `/` to
// search and ←/→ to page, over a detail pane of the selected agency:
// balance, credit limit and period, status, its key settings, how many API
// keys it has and its five latest wallet entries. From there `f` adds funds,
// `c` sets the credit limit and `k` makes an API key; each opens a form,
// shows what would change (the backend's dry run where it has one) and
// posts only on `y`/enter (`n`/esc changes nothing). The review queue lists
// the orders waiting for the provider's review (the "reviewing" group) with
// the selected one's detail; `a` approves, `r` rejects with a remark and
// `o` quotes a refund or change, each behind a confirmation. Groups (`3`)
// is the queue of group requests waiting for a quote, oldest first, with
// the selected request's journeys, group and contact (quoting is
// `voyage groups quote`). `1`, `2`, `3` and tab switch screens, ↑/↓ move, ctrl+r reloads, `?` shows every key, `q` or
// ctrl+c quits (in a form or the search box, esc or ctrl+c leaves it
// first).
//
// Every operation goes through an admin.Backend in a tea.Cmd, so the
// console works the same in-process (admin.Local) or against a server
// (admin.Remote), and a slow backend never freezes the screen. The open
// screen reloads every Options.Refresh, keeping the selection and any open
// form; the status line tells when it was last updated and what failed.
// The layout fits 80x24 and grows with the terminal.
//
// The `voyage tui` command wires it up as:
//
//	b, err := admin.OpenLocal(ctx, cfg, who) // or admin.NewRemote(server, key, nil)
//	...
//	defer b.Close()
//	return tui.Run(ctx, b, tui.Options{Refresh: tui.DefaultRefresh}, os.Stdin, os.Stdout)
//
// New gives the bare tea.Model, for tests and for embedding. Each backend
// call is given a minute; under Run, calls also end with Run's ctx.
package tui

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// DefaultRefresh is how often `voyage tui` reloads the open screen unless
// told otherwise.
const DefaultRefresh = 5 * time.Second

// DefaultPageSize is how many agencies or orders a page holds.
const DefaultPageSize = 20

// callTimeout bounds one backend call, so a hung server shows up as an
// error instead of a screen that never fills.
const callTimeout = 60 * time.Second

// Options tune the console.
type Options struct {
	// Refresh is how often the open screen (its list and the selected
	// item's detail) reloads on its own; 0 or less turns live refresh off.
	// `voyage tui` passes DefaultRefresh unless told otherwise.
	Refresh time.Duration
	// Now is the clock of the status line's "updated" time; nil is
	// time.Now.
	Now func() time.Time
	// PageSize is how many agencies or orders one page holds; 0 is
	// DefaultPageSize.
	PageSize int
	// ExportDir is the folder a statement export is written to when the
	// form names no file; "" is the working directory.
	ExportDir string
	// Lang is the language of the console's words: en (the default),
	// zh-cn or zh-tw.
	Lang string
}

// screen is one of the console's screens.
type screen int

const (
	agenciesScreen screen = iota
	reviewScreen
	groupsScreen
	ordersScreen
	statementsScreen
	ratesScreen
	usersScreen
	keysScreen
	screenCount
)

// Model is the console. Its state changes only in Update; the backend is
// called in tea.Cmds whose answers come back as messages.
type Model struct {
	ctx  context.Context
	b    admin.Backend
	opts Options
	keys keyMap
	st   styles
	help help.Model

	width, height int
	screen        screen
	ag            agencyState
	rv            reviewState
	gr            groupState
	or            ordersState
	sm            statementState
	ra            rateState
	us            userState
	ks            keyState
	// act is the open form with its confirmation, if any; while it is open
	// it has the keyboard.
	act      *action
	showHelp bool

	status    string // the latest note (an action's outcome)
	statusErr string // the latest failure to load
	updated   time.Time
}

// refreshMsg is the live-refresh tick.
type refreshMsg struct{}

// New is the console on backend b; nothing is loaded before Init.
func New(b admin.Backend, opts Options) tea.Model {
	return newModel(context.Background(), b, opts)
}

func newModel(ctx context.Context, b admin.Backend, opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.PageSize <= 0 {
		opts.PageSize = DefaultPageSize
	}
	m := &Model{ctx: ctx, b: b, opts: opts, st: newStyles(), help: help.New(), width: 80, height: 24}
	m.keys = newKeyMap(m.t)
	m.ag = newAgencyState(m.t("agencies.searchHint"))
	m.rv = newReviewState()
	m.gr = newGroupState()
	m.or = newOrdersState(m.t("orders.searchHint"))
	m.sm = newStatementState()
	m.ra = newRateState()
	m.us = newUserState()
	m.ks = newKeyState()
	return m
}

// Run runs the console on in and out until the user quits or ctx ends; on
// a terminal it takes the alternate screen, so the shell's scrollback is
// left as it was.
func Run(ctx context.Context, b admin.Backend, opts Options, in io.Reader, out io.Writer) error {
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}
	if f, ok := out.(*os.File); ok && term.IsTerminal(f.Fd()) {
		popts = append(popts, tea.WithAltScreen())
	}
	_, err := tea.NewProgram(newModel(ctx, b, opts), popts...).Run()
	return err
}

// Init loads both screens (the review queue's size shows in the header)
// and starts the live refresh.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.ag.list.load(m), m.rv.list.load(m), m.tick())
}

func (m *Model) tick() tea.Cmd {
	if m.opts.Refresh <= 0 {
		return nil
	}
	return tea.Tick(m.opts.Refresh, func(time.Time) tea.Msg { return refreshMsg{} })
}

// call is the context of one backend call.
func (m *Model) call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(m.ctx, callTimeout)
}

// Update handles a message: keys, answers from the backend, the ticks.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		rows := m.detailRows()
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
		// The agency's detail is fetched for the pane it shows in (its
		// latest wallet entries, as many as fit): a pane that grew, as
		// when the terminal's first size comes after the first detail,
		// has room for more.
		if m.detailRows() > rows {
			return m, m.ag.list.resized(m)
		}
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	case refreshMsg:
		return m, tea.Batch(m.reload(false), m.tick())
	case searchMsg:
		return m, m.searched(msg)
	case agenciesMsg:
		return m, m.agenciesLoaded(msg)
	case detailMsg[agencyInfo]:
		m.ag.list.detailLoaded(m, msg)
		return m, nil
	case ordersMsg:
		return m, m.ordersLoaded(msg)
	case detailMsg[flight.View]:
		m.rv.list.detailLoaded(m, msg)
		return m, nil
	case groupsMsg:
		return m, m.groupsLoaded(msg)
	case detailMsg[group.View]:
		m.gr.list.detailLoaded(m, msg)
		return m, nil
	case orderRowsMsg:
		return m, m.orderRowsLoaded(msg)
	case detailMsg[orderDetail]:
		m.or.list.detailLoaded(m, msg)
		return m, nil
	case agencyRowsMsg[admin.StatementSummary]:
		return m, m.sm.loaded(m, msg)
	case ratesMsg:
		return m, m.ratesLoaded(msg)
	case detailMsg[[]siteinfo.Rate]:
		m.ra.list.detailLoaded(m, msg)
		return m, nil
	case agencyRowsMsg[admin.ManagedUser]:
		return m, m.us.loaded(m, msg)
	case agencyRowsMsg[auth.APIKey]:
		return m, m.ks.loaded(m, msg)
	case checkedMsg:
		if m.act != nil && m.act.id == msg.id {
			return m, m.act.checked(msg)
		}
		return m, nil
	case postedMsg:
		if m.act != nil && m.act.id == msg.id {
			m.act.posted(msg)
			if msg.err == nil {
				m.status = msg.status
				return m, m.reload(true)
			}
		}
		return m, nil
	}
	// Anything else (a text input's own messages) goes to what has focus.
	var cmd tea.Cmd
	switch {
	case m.act != nil && m.act.stage == editing:
		f := &m.act.fields[m.act.focus]
		f.input, cmd = f.input.Update(msg)
	case m.ag.searching:
		m.ag.search, cmd = m.ag.search.Update(msg)
	case m.or.searching:
		m.or.search, cmd = m.or.search.Update(msg)
	}
	return m, cmd
}

// key routes a key press: to the open form, the search box, the help, or
// the screen.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	if m.act != nil {
		cmd, closed, status := m.act.update(m.ctx, m.keys, msg)
		if closed {
			m.act = nil
			if status != "" {
				m.status = status
			}
		}
		return cmd
	}
	if m.ag.searching {
		return m.searchKey(msg)
	}
	if m.or.searching {
		return m.orderSearchKey(msg)
	}
	for scr, k := range m.keys.screens() {
		if key.Matches(msg, k) {
			return m.switchTo(screen(scr))
		}
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.showHelp = !m.showHelp
		return nil
	case m.showHelp && key.Matches(msg, m.keys.Back):
		m.showHelp = false
		return nil
	case key.Matches(msg, m.keys.Switch):
		// Tab goes to the next screen, from the last back to the first.
		return m.switchTo((m.screen + 1) % screenCount)
	case key.Matches(msg, m.keys.Refresh):
		return m.reload(true)
	}
	if m.showHelp {
		return nil
	}
	return m.screens()[m.screen].key(msg)
}

// screenParts are what a screen plugs into the console.
type screenParts struct {
	key    func(tea.KeyMsg) tea.Cmd
	reload func(m *Model, force bool) tea.Cmd
	view   func(w, h int) []string
}

// screens are every screen's parts, by screen.
func (m *Model) screens() [screenCount]screenParts {
	return [screenCount]screenParts{
		agenciesScreen:   {m.agenciesKey, m.ag.list.reload, m.agenciesView},
		reviewScreen:     {m.reviewKey, m.rv.list.reload, m.reviewView},
		groupsScreen:     {m.groupsKey, m.gr.list.reload, m.groupsView},
		ordersScreen:     {m.ordersKey, m.or.list.reload, m.ordersView},
		statementsScreen: {m.statementsKey, m.sm.list.reload, m.statementsView},
		ratesScreen:      {m.ratesKey, m.ra.list.reload, m.ratesView},
		usersScreen:      {m.usersKey, m.us.list.reload, m.usersView},
		keysScreen:       {m.keysKey, m.ks.list.reload, m.keysView},
	}
}

func (m *Model) switchTo(s screen) tea.Cmd {
	m.showHelp = false
	if m.screen == s {
		return nil
	}
	m.screen = s
	return m.reload(true)
}

// reload loads the open screen's list again (and, once it is in, the
// selected item's detail). A tick skips it while the previous load is still
// out, so a slow backend does not pile calls up; force is a load the user
// asked for.
func (m *Model) reload(force bool) tea.Cmd {
	return m.screens()[m.screen].reload(m, force)
}

// loadFailed notes a failed load in the status line.
func (m *Model) loadFailed(what string, err error) {
	m.statusErr = what + ": " + admin.Describe(err)
}

// loadedAt notes a successful load of the open screen's list.
func (m *Model) loadedAt() {
	m.statusErr = ""
	m.updated = m.opts.Now()
}

// View draws the console: a header, the screen, the status line and the
// help line, every line at most the terminal's width.
func (m *Model) View() string {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	helpView := m.help.View(bindings{short: m.shortHelp()})
	footer := []string{m.statusView(w), helpView}
	header := m.headerView(w)
	bodyH := max(0, h-len(header)-len(footer))
	var body []string
	if m.showHelp {
		body = m.fullHelpView(w)
	} else {
		body = m.screens()[m.screen].view(w, bodyH)
	}
	body = clip(body, bodyH)
	for len(body) < bodyH {
		body = append(body, "")
	}
	lines := append(header, body...)
	lines = append(lines, footer...)
	lines = clip(lines, h)
	for i, l := range lines {
		// A last guard: a line wider than the terminal would wrap and push
		// the whole screen down.
		if lipgloss.Width(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// headerView is two lines: the console's name and who it acts as, then a
// tab per screen (with the review and group queues' sizes when wide).
func (m *Model) headerView(w int) []string {
	wide := w >= wideAt
	tabs := make([]string, 0, screenCount)
	for s := screen(0); s < screenCount; s++ {
		label := strconv.Itoa(int(s)+1) + " " + m.t("tab."+screenNames[s])
		if wide {
			label = strconv.Itoa(int(s)+1) + " " + m.t("tab."+screenNames[s]+".long")
			switch {
			case s == reviewScreen && m.rv.list.loaded:
				label += " (" + strconv.Itoa(m.rv.list.total) + ")"
			case s == groupsScreen && m.gr.list.loaded:
				label += " (" + strconv.Itoa(m.gr.list.total) + ")"
			}
		}
		if m.screen == s {
			tabs = append(tabs, m.st.ActiveTab.Render("["+label+"]"))
		} else {
			tabs = append(tabs, m.st.Tab.Render(label))
		}
	}
	sep := " "
	if wide {
		sep = "  "
	}
	return []string{
		spread(m.st.Title.Render(m.t("title"))+m.st.Muted.Render(m.queues()), m.st.Muted.Render(m.b.Actor()), w),
		fit(strings.Join(tabs, sep), w),
	}
}

// queues is what waits for the provider, once known: "  · 2 to review ·
// 1 group request".
func (m *Model) queues() string {
	out := ""
	if m.rv.list.loaded {
		out += "  · " + m.t("queueReview", "count", m.rv.list.total)
	}
	if m.gr.list.loaded {
		out += "  · " + m.t("queueGroups", "count", m.gr.list.total)
	}
	return out
}

// screenNames name the screens in the catalog's keys.
var screenNames = [screenCount]string{"agencies", "review", "groups", "orders", "statements", "rates", "users", "keys"}

func (m *Model) statusView(w int) string {
	right := ""
	if !m.updated.IsZero() {
		right = m.t("updated", "time", m.updated.Format("15:04:05"))
	}
	left := m.status
	if m.statusErr != "" {
		left = m.st.Error.Render("error: " + m.statusErr)
	}
	return spread(left, m.st.Muted.Render(right), w)
}

// shortHelp is the help line: the keys that apply where the focus is.
func (m *Model) shortHelp() []key.Binding {
	k := m.keys
	switch {
	case m.act != nil:
		return m.act.help(k)
	case m.ag.searching:
		return []key.Binding{m.bind("enter", "help.search"), m.bind("esc", "help.clear")}
	case m.showHelp:
		return []key.Binding{k.Help, k.Quit}
	case m.screen == reviewScreen:
		return []key.Binding{m.move(), k.Approve, k.Reject, k.Quote, short(k.Switch, m.t("short.screen")), k.Help, k.Quit}
	case m.screen == groupsScreen:
		return []key.Binding{m.move(), short(k.NextPage, m.t("short.page")), short(k.Switch, m.t("short.screen")), k.Help, k.Quit}
	case m.or.searching:
		return []key.Binding{m.bind("enter", "help.search"), m.bind("esc", "help.clear")}
	case m.screen == ordersScreen:
		return []key.Binding{m.move(), m.bind("/", "help.search"), m.bind("t", "help.kind"), m.bind("tab", "help.screen"), m.bind("?", "help.help"), m.bind("q", "help.quit")}
	case m.screen == statementsScreen:
		return []key.Binding{m.move(), m.bind("n", "help.newStatement"), m.bind("x", "help.export"), m.bind("tab", "help.screen"), m.bind("q", "help.quit")}
	case m.screen == ratesScreen:
		return []key.Binding{m.move(), m.bind("s", "help.setRate"), m.bind("tab", "help.screen"), m.bind("?", "help.help"), m.bind("q", "help.quit")}
	case m.screen == usersScreen:
		return []key.Binding{m.move(), m.bind("b", "help.block"), m.bind("u", "help.unblock"), m.bind("tab", "help.screen"), m.bind("q", "help.quit")}
	case m.screen == keysScreen:
		return []key.Binding{m.move(), m.bind("n", "help.newKey"), m.bind("x", "help.revoke"), m.bind("tab", "help.screen"), m.bind("q", "help.quit")}
	}
	// Short enough for 80 columns; `?` has the long names.
	// At 80 columns there is no room for b (block), which `?` lists.
	if m.width < wideAt {
		return []key.Binding{k.Search, short(k.Funds, m.t("short.funds")), short(k.Credit, m.t("short.credit")), short(k.APIKey, m.t("short.apiKey")),
			short(k.Switch, m.t("short.screen")), k.Help, k.Quit}
	}
	return []key.Binding{k.Search, short(k.Funds, m.t("short.funds")), short(k.Credit, m.t("short.credit")), short(k.APIKey, m.t("short.apiKey")),
		short(k.Block, m.t("short.block")), short(k.Switch, m.t("short.screen")), k.Help, k.Quit}
}

// bind is a help entry: keys and the catalog's words for them.
func (m *Model) bind(keys, help string) key.Binding {
	return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, m.t(help)))
}

// move is ↑/↓ in the console's words.
func (m *Model) move() key.Binding {
	return key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", m.t("help.move")))
}

// short is b with a shorter description, for the help line.
func short(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

func (m *Model) fullHelpView(w int) []string {
	full := m.help
	full.Width = w
	rows := m.keys.fullHelp()
	out := []string{m.st.Title.Render(m.t("helpTitle")), ""}
	out = append(out, strings.Split(full.FullHelpView(rows[0]), "\n")...)
	out = append(out, "")
	out = append(out, strings.Split(full.FullHelpView(rows[1]), "\n")...)
	out = append(out, "", m.st.Muted.Render(fit(m.t("helpForm"), w)),
		m.st.Muted.Render(fit(m.t("helpConfirm"), w)),
		m.st.Muted.Render(fit(m.t("helpClose"), w)))
	return out
}
