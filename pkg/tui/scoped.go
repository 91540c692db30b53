package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/voyage/voyage/pkg/agency"
)

// The statements, users and API keys screens are of one agency: the one
// selected on the agencies screen.

// scopeAgency is the agency selected on the agencies screen.
func (m *Model) scopeAgency() (agency.Summary, bool) {
	return m.ag.list.current()
}

// scopeLine is the first line of an agency's screen: whose it is, or how to
// choose one, with info on the right.
func (m *Model) scopeLine(w int, info string) string {
	a, ok := m.scopeAgency()
	if !ok {
		return spread(m.st.Muted.Render(m.t("scope.none")), "", w)
	}
	return spread(m.t("scope.agency", "name", a.Name, "code", a.Code, "currency", a.Currency), m.st.Muted.Render(info), w)
}

// listMessage is the line a list shows instead of rows: why it failed, that
// it is loading, or that it is empty.
func (m *Model) listMessage(w int, loaded bool, err string, n int, failed, empty string) []string {
	switch {
	case !loaded && err != "":
		return wrapStyled(m.st.Error, m.t(failed, "error", err), w)
	case !loaded:
		return []string{m.st.Muted.Render(m.t("loading"))}
	case n == 0:
		return []string{m.st.Muted.Render(m.t(empty))}
	}
	return nil
}

// pageInfo is "page 1/2 · 25 statements" in the console's language.
func (m *Model) pageInfo(loaded bool, page, total int, what string) string {
	if !loaded {
		return ""
	}
	return m.t("page", "page", page, "pages", pages(total, m.opts.PageSize)) + " · " + m.t(what, "count", total)
}

// field2 is a detail line of a label and a value, the label in a 16-cell
// column.
func (m *Model) field2(label, value string, w int) string {
	if label != "" {
		label = m.t(label)
	}
	return fit(m.st.Label.Render(fit(label, 16))+value, w)
}

// agencyKey handles the keys of an agency's screen that make or act on its
// rows: the list's own, `n` (newAct for the agency in scope) and itemKey
// (itemAct on the selected row, or the words none when there is none).
// itemAct gives nil when the row cannot be acted on, having said why in
// the status line. handled is false for any other key.
func agencyKey[T any](m *Model, l *pagedList[T, T], msg tea.KeyMsg,
	newAct func(*Model, agency.Summary) *action,
	itemKey key.Binding, none string, itemAct func(*Model, agency.Summary, T) *action,
) (cmd tea.Cmd, handled bool) {
	if cmd, handled := l.key(m, msg); handled {
		return cmd, true
	}
	a, ok := m.scopeAgency()
	switch {
	case key.Matches(msg, m.keys.New):
		if !ok {
			m.status = m.t("scope.none")
			return nil, true
		}
		return m.openAction(newAct(m, a)), true
	case key.Matches(msg, itemKey):
		it, found := l.current()
		if !ok || !found {
			m.status = m.t(none)
			return nil, true
		}
		if act := itemAct(m, a, it); act != nil {
			return m.openAction(act), true
		}
		return nil, true
	}
	return nil, false
}

// agencyScreen draws an agency's screen (statements, users, API keys) in w
// cells by h lines: the scope line with info on the right, the header of
// cols (the words <prefix>.<header>), the rows of the agency in scope, and
// the form or pane beside or below them.
func agencyScreen[T any](m *Model, l *pagedList[T, T], w, h int, info, prefix string, headers []string,
	cols func(w int) columns, cells func(T) []string, pane func(w, h int) []string,
) []string {
	top := func(w int) []string {
		head := make([]string, len(headers))
		for i, k := range headers {
			head[i] = m.t(prefix + "." + k)
		}
		return []string{m.scopeLine(w, info), m.st.Header.Render(cols(w).row("", head...))}
	}
	rows := func(w, n int) []string {
		if _, ok := m.scopeAgency(); !ok {
			return nil
		}
		c := cols(w)
		return l.rows(m, w, n, prefix, func(mark string, it T) string { return c.row(mark, cells(it)...) })
	}
	return m.paned(w, h, len(l.items), top, rows, m.paneOr(pane))
}
