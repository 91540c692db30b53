package web

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"
)

// The rules the three lines' portal lists share.

// agencyName is the name of agency id for the provider's list, looked up
// once per page.
func (s *Server) agencyName(ctx context.Context, names map[int64]string, id int64) string {
	if n, ok := names[id]; ok || s.agencies == nil {
		return n
	}
	a, err := s.agencies.Get(ctx, id)
	if err != nil {
		slog.WarnContext(ctx, "groups: agency name", "agency", id, "err", err)
	}
	names[id] = a.Name
	return a.Name
}

// whoseNames is who booked each row of a list, the same on every line: a
// viewer above other agencies (the provider, a parent agency) sees the
// name of the agency of each booking not its own, and the column shows
// when one row is another agency's.
type whoseNames struct {
	s      *Server
	viewer int64
	names  map[int64]string
	// Shown: a row of the page is another agency's.
	Shown bool
}

func (s *Server) whose(viewer int64) *whoseNames {
	return &whoseNames{s: s, viewer: viewer, names: map[int64]string{}}
}

// Of is the name of the agency of a booking of agencyID, "" for the
// viewer's own.
func (w *whoseNames) Of(ctx context.Context, agencyID int64) string {
	if agencyID == w.viewer {
		return ""
	}
	w.Shown = true
	return w.s.agencyName(ctx, w.names, agencyID)
}

// lineViewer is the caller of a line's page (or the bills', the agency
// manager's), whom the route's rule (the line's MayBook or MaySee) has
// admitted; without the services the page needs (ready false: a server
// built without them) it answers 500.
func (s *Server) lineViewer(w http.ResponseWriter, r *http.Request, ready bool) (viewer, bool) {
	v := viewerFrom(r.Context())
	if !ready {
		s.ServerError(w, r)
	}
	return v, ready
}

// rowsOf is a page of a line's bookings as its list's rows: row makes each
// from the booking and the name of its agency (whoseNames: "" for the
// viewer's own). shown says whether a row is another agency's, so the list
// shows the column.
func rowsOf[V, R any](ctx context.Context, s *Server, viewer int64, items []V, agencyOf func(V) int64, row func(V, string) R) (rows []R, shown bool) {
	whose := s.whose(viewer)
	for _, b := range items {
		rows = append(rows, row(b, whose.Of(ctx, agencyOf(b))))
	}
	return rows, whose.Shown
}

// answerList answers a line's list, the same on every line: the pager's
// htmx swap of partialID gets results alone; a whole page asks page for
// itself (its menu's counts are read only then). what names the list in
// the log when page fails.
func (s *Server) answerList(w http.ResponseWriter, r *http.Request, what, partialID string, results templ.Component, page func() (templ.Component, error)) {
	w.Header().Add("Vary", "HX-Request")
	if htmxPartial(r, partialID) {
		render(w, r, http.StatusOK, results)
		return
	}
	c, err := page()
	if err != nil {
		slog.ErrorContext(r.Context(), what+": counts", "err", err)
		s.ServerError(w, r)
		return
	}
	render(w, r, http.StatusOK, c)
}
