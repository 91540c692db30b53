package web

import (
	"log/slog"
	"net/http"
	"slices"

	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/i18n"
)

// pathGroupDocument is a group order's itinerary or e-ticket (?format=pdf
// or xlsx), once its tickets are issued, written with the flight documents
// (pkg/docs) from the group service's document view, as the API's are.
const pathGroupDocument = pathGroupOrder + "/documents/{kind}"

// groupDocument writes the itinerary or e-ticket of an issued group order.
func (s *Server) groupDocument(w http.ResponseWriter, r *http.Request) {
	v, id, ok := s.withID(w, r, s.groupsViewer)
	if !ok {
		return
	}
	kind, format := r.PathValue("kind"), r.URL.Query().Get("format")
	if format == "" {
		format = docs.PDF
	}
	if !slices.Contains(docs.TicketKinds, kind) || !slices.Contains(docs.TicketFormats, format) {
		s.NotFound(w, r)
		return
	}
	ctx := r.Context()
	// Before issue there is nothing to print: the service answers not found.
	o, err := s.groups.Document(ctx, v.Principal, id)
	if err != nil {
		s.lookupFailed(w, r, "groups: document", err)
		return
	}
	download(w, docs.ContentType(format), o.BookingNumber+"-"+kind+"."+format)
	tk := docs.Ticket{Flight: o, Lang: i18n.Lang(ctx), T: func(k string, args ...any) string { return i18n.T(ctx, k, args...) },
		Date: s.today(v)}
	if err := docs.WriteTicket(w, kind, format, tk); err != nil {
		slog.ErrorContext(ctx, "groups: write document", "order", id, "kind", kind, "err", err)
	}
}

// download heads an order's document as a file to save, named filename; it
// is the caller's alone, so no cache keeps it.
func download(w http.ResponseWriter, contentType, filename string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	w.Header().Set("Cache-Control", "private, no-store")
}
