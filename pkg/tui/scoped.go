package tui

import (
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
