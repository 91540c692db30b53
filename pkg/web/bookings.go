package web

import (
	"context"
	"log/slog"
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
