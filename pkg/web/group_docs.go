package web

import (
	"log/slog"
	"net/http"
	"slices"

	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/order"
)

// pathGroupDocument is a group order's itinerary or e-ticket (?format=pdf
// or xlsx), once its tickets are issued. The group API has no document
// route; the portal writes them with the flight documents (pkg/docs).
const pathGroupDocument = pathGroupOrder + "/documents/{kind}"

// groupDocument writes the itinerary or e-ticket of an issued group order.
func (s *Server) groupDocument(w http.ResponseWriter, r *http.Request) {
	v, ok := s.groupsViewer(w, r)
	if !ok {
		return
	}
	id, ok := s.orderID(w, r)
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
	o, err := s.groups.Get(ctx, v.Principal, id)
	if err != nil {
		s.orderFailed(w, r, "groups: document", err)
		return
	}
	if len(o.Tickets) == 0 {
		// Nothing is issued yet: there is no document to give.
		s.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", docs.ContentType(format))
	w.Header().Set("Content-Disposition", `attachment; filename="`+o.BookingNumber+"-"+kind+"."+format+`"`)
	w.Header().Set("Cache-Control", "private, no-store")
	tk := docs.Ticket{Order: ticketView(o), Lang: i18n.Lang(ctx), T: func(k string, args ...any) string { return i18n.T(ctx, k, args...) }}
	if err := docs.WriteTicket(w, kind, format, tk); err != nil {
		slog.ErrorContext(ctx, "groups: write document", "order", id, "kind", kind, "err", err)
	}
}

// ticketView is an issued group order as the flight documents read an
// order: the accepted quote's flights, the named passengers with their
// ticket numbers, the contact and the total.
func ticketView(o group.View) order.View {
	out := order.View{ID: o.ID, BookingNumber: o.BookingNumber, AgencyID: o.AgencyID, Type: order.TypeOrigin, Status: order.Issued,
		Contact: o.Contact, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt}
	if len(o.Quotes) > 0 {
		out.Segments = o.Quotes[0].Segments
	}
	if len(out.Segments) > 0 {
		out.Airline = out.Segments[0].Carrier
	}
	if o.Total != nil {
		out.Total = *o.Total
		out.PriceBreakdown.SaleTotal = *o.Total
	}
	numbers := map[string][]string{}
	for _, t := range o.Tickets {
		numbers[t.Passenger] = append(numbers[t.Passenger], t.TicketNumber)
		out.TicketNumbers = append(out.TicketNumbers, t.TicketNumber)
	}
	for _, p := range o.PassengerList {
		if p.TicketNumber == "" {
			// The tickets name passengers as SURNAME/GIVEN NAME.
			for _, name := range []string{p.Surname + "/" + p.GivenName, p.Surname + " " + p.GivenName} {
				if ns := numbers[name]; len(ns) > 0 {
					p.TicketNumber, numbers[name] = ns[0], ns[1:]
					break
				}
			}
		}
		out.Passengers = append(out.Passengers, p)
	}
	return out
}
