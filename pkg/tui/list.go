package tui

import (
	"context"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/voyage/voyage/pkg/admin"
)

// pagedList is a screen's list: the page on show, a cursor that stays on
// the same item across reloads (a reload may add or remove items above it)
// and the details loaded so far. T is a row of the list, D what the detail
// pane shows of one item.
type pagedList[T, D any] struct {
	listSource[T, D]

	items    []T
	total    int
	page     int // the page asked for
	cursor   int
	offset   int   // the first row on screen, kept by shown
	selected int64 // the selected item's id, kept across reloads
	pending  int   // page loads out
	loaded   bool
	err      string // why the latest page load failed
	// details are kept by id, so that moving back to an item shows it at
	// once while its refresh is out.
	details map[int64]detail[D]
}

// listSource is what a screen plugs into its list.
type listSource[T, D any] struct {
	// screen is where the list is shown: only the open screen's loads tell
	// the status line when it was updated.
	screen screen
	// what and item name the list and one of its items in the status line
	// when a load fails.
	what, item string
	id         func(T) int64
	// loadPage asks for a page. It is the screen's own because each page
	// answer carries more than the rows (the search it answers, the
	// agencies' names).
	loadPage    func(m *Model, page int) tea.Cmd
	fetchDetail func(ctx context.Context, b admin.Backend, id int64) (D, error)
	// fetchSized, when set, is used instead of fetchDetail: it is told how
	// many lines the detail pane has, to ask for as much as it shows.
	fetchSized func(ctx context.Context, b admin.Backend, id int64, rows int) (D, error)
}

// detail is one item's detail as last loaded, or why it could not be.
type detail[D any] struct {
	val D
	err error
}

// detailMsg answers a pagedList's load of item id's detail.
type detailMsg[D any] struct {
	id int64
	detail[D]
}

func newPagedList[T, D any](src listSource[T, D]) pagedList[T, D] {
	return pagedList[T, D]{listSource: src, page: 1, details: map[int64]detail[D]{}}
}

// load asks for the page l.page; every page load goes through here so that
// pending counts it.
func (l *pagedList[T, D]) load(m *Model) tea.Cmd {
	l.pending++
	return l.loadPage(m, l.page)
}

// reload loads the page again; unless forced, not while a load is out.
func (l *pagedList[T, D]) reload(m *Model, force bool) tea.Cmd {
	if !force && l.pending > 0 {
		return nil
	}
	return l.load(m)
}

// turnTo loads another page, from its top.
func (l *pagedList[T, D]) turnTo(m *Model, page int) tea.Cmd {
	l.page, l.cursor, l.offset = page, 0, 0
	return l.load(m)
}

// answered notes that a load of page came back and tells whether it is
// still the page asked for; the answer to a page left since is dropped.
func (l *pagedList[T, D]) answered(page int) bool {
	l.pending = max(0, l.pending-1)
	return page == l.page
}

// pageLoaded takes the answer to the page asked for, keeping the selected
// item selected when it is still there, and loads its detail.
func (l *pagedList[T, D]) pageLoaded(m *Model, items []T, total int, err error) tea.Cmd {
	if err != nil {
		l.err = admin.Describe(err)
		m.loadFailed(l.what, err)
		return nil
	}
	if len(items) == 0 && l.page > 1 && total > 0 {
		// The page emptied (items went away): go to the last one.
		l.page = pages(total, m.opts.PageSize)
		return l.load(m)
	}
	l.items, l.total, l.loaded, l.err = items, total, true, ""
	if m.screen == l.screen {
		m.loadedAt()
	}
	l.cursor = min(l.cursor, max(0, len(items)-1))
	if i := slices.IndexFunc(items, func(it T) bool { return l.id(it) == l.selected }); i >= 0 {
		l.cursor = i
	}
	return l.selectCurrent(m)
}

// current is the item under the cursor.
func (l *pagedList[T, D]) current() (T, bool) {
	if l.cursor < 0 || l.cursor >= len(l.items) {
		var none T
		return none, false
	}
	return l.items[l.cursor], true
}

// selectCurrent notes the item under the cursor and loads its detail.
func (l *pagedList[T, D]) selectCurrent(m *Model) tea.Cmd {
	it, ok := l.current()
	if !ok {
		l.selected = 0
		return nil
	}
	id := l.id(it)
	l.selected = id
	if l.fetchDetail == nil && l.fetchSized == nil {
		return nil // the row is the whole item
	}
	b, fetch := m.b, l.fetchDetail
	if l.fetchSized != nil {
		sized, rows := l.fetchSized, m.detailRows()
		fetch = func(ctx context.Context, b admin.Backend, id int64) (D, error) { return sized(ctx, b, id, rows) }
	}
	ctx, cancel := m.call()
	return func() tea.Msg {
		defer cancel()
		v, err := fetch(ctx, b, id)
		return detailMsg[D]{id: id, detail: detail[D]{val: v, err: err}}
	}
}

// resized fetches the selected item's detail again when its size is the
// pane's (fetchSized), for a pane that changed.
func (l *pagedList[T, D]) resized(m *Model) tea.Cmd {
	if l.fetchSized == nil || !l.loaded {
		return nil
	}
	return l.selectCurrent(m)
}

// detailLoaded takes an item's detail. A failed refresh keeps the detail
// loaded before on screen, and only the selected item's failure is worth
// the status line.
func (l *pagedList[T, D]) detailLoaded(m *Model, msg detailMsg[D]) {
	if msg.err != nil {
		if msg.id == l.selected {
			m.loadFailed(l.item, msg.err)
		}
		if prev, ok := l.details[msg.id]; ok && prev.err == nil {
			return
		}
	}
	l.details[msg.id] = msg.detail
}

// key moves the cursor (↑/↓) or turns the page (←/→); handled is false
// for any other key, which is the screen's.
func (l *pagedList[T, D]) key(m *Model, msg tea.KeyMsg) (cmd tea.Cmd, handled bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		if l.cursor > 0 {
			l.cursor--
			return l.selectCurrent(m), true
		}
	case key.Matches(msg, k.Down):
		if l.cursor < len(l.items)-1 {
			l.cursor++
			return l.selectCurrent(m), true
		}
	case key.Matches(msg, k.PrevPage):
		if l.page > 1 {
			return l.turnTo(m, l.page-1), true
		}
	case key.Matches(msg, k.NextPage):
		if l.page < pages(l.total, m.opts.PageSize) {
			return l.turnTo(m, l.page+1), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// shown scrolls so that the cursor is within rows lines and tells which
// items they show. The view calls it, being where the room is known.
func (l *pagedList[T, D]) shown(rows int) (from, to int) {
	l.offset = scroll(l.cursor, l.offset, rows, len(l.items))
	return l.offset, min(len(l.items), l.offset+rows)
}

// rows is the list's lines in w cells, at most n item rows: its message
// (the keys <prefix>.failed and <prefix>.empty) when it has no rows, then
// the rows on show, the cursor's marked ">" and selected.
func (l *pagedList[T, D]) rows(m *Model, w, n int, prefix string, row func(mark string, it T) string) []string {
	lines := m.listMessage(w, l.loaded, l.err, len(l.items), prefix+".failed", prefix+".empty")
	from, to := l.shown(n)
	for i := from; i < to; i++ {
		mark, style := "", lipgloss.NewStyle()
		if i == l.cursor {
			mark, style = ">", m.st.Selected
		}
		lines = append(lines, style.Render(row(mark, l.items[i])))
	}
	return lines
}

// detailOf is item id's detail as loaded. Until there is one to show, ok is
// false and lines is the pane so far with what to say instead: that it is
// loading, or why it failed.
func (l *pagedList[T, D]) detailOf(m *Model, id int64, w int, pane []string) (v D, lines []string, ok bool) {
	got, ok := l.details[id]
	switch {
	case !ok:
		return v, append(pane, m.st.Muted.Render(m.t("loading"))), false
	case got.err != nil:
		return v, append(pane, wrapStyled(m.st.Error, m.t("form.error", "error", admin.Describe(got.err)), w)...), false
	}
	return got.val, pane, true
}
