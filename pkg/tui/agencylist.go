package tui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/voyage/voyage/pkg/admin"
)

// errNoAgency is a list of an agency's screen with no agency selected.
var errNoAgency = errors.New("no agency selected")

// agencyList is a list of the selected agency's rows (statements, users,
// API keys): it loads the agency in scope, drops an answer for an agency
// left since, and shows no agency as an empty list.
type agencyList[T any] struct {
	list pagedList[T, T]
	// agencyID is whose rows the list holds.
	agencyID int64
}

// agencyRowsMsg answers an agencyList's load of a page.
type agencyRowsMsg[T any] struct {
	agencyID int64
	pageNo   int
	items    []T
	total    int
	err      error
}

// fetchAgencyRows reads a page of an agency's rows and their total.
type fetchAgencyRows[T any] func(ctx context.Context, b admin.Backend, agencyID int64, page, size int) ([]T, int, error)

func newAgencyList[T any](scr screen, what, item string, id func(T) int64, fetch fetchAgencyRows[T]) agencyList[T] {
	return agencyList[T]{list: newPagedList(listSource[T, T]{
		screen: scr, what: what, item: item, id: id,
		loadPage: func(m *Model, pageNo int) tea.Cmd {
			a, ok := m.scopeAgency()
			b, size := m.b, m.opts.PageSize
			ctx, cancel := m.call()
			return func() tea.Msg {
				defer cancel()
				if !ok {
					return agencyRowsMsg[T]{pageNo: pageNo, err: errNoAgency}
				}
				items, total, err := fetch(ctx, b, a.ID, pageNo, size)
				return agencyRowsMsg[T]{agencyID: a.ID, pageNo: pageNo, items: items, total: total, err: err}
			}
		},
	})}
}

func (s *agencyList[T]) loaded(m *Model, msg agencyRowsMsg[T]) tea.Cmd {
	if !s.list.answered(msg.pageNo) {
		return nil
	}
	if a, ok := m.scopeAgency(); ok && msg.agencyID != 0 && msg.agencyID != a.ID {
		return nil // the answer for an agency left since
	}
	if errors.Is(msg.err, errNoAgency) {
		s.list.items, s.list.total, s.list.loaded, s.agencyID = nil, 0, true, 0
		return nil
	}
	s.agencyID = msg.agencyID
	return s.list.pageLoaded(m, msg.items, msg.total, msg.err)
}
