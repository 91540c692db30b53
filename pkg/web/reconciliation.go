package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/templates"
)

// Reconciler is what the channel reconciliation page needs of
// payment.Reconciler.
type Reconciler interface {
	Day(ctx context.Context, date string) (payment.Reconciliation, error)
	Yesterday(ctx context.Context) (string, error)
}

const (
	pathReconciliation       = templates.ReconciliationPath
	pathReconciliationExport = pathReconciliation + "/export"
)

// ProviderFinance: the provider's finance or SuperUser (the channel
// reconciliation shows every agency's payments).
var ProviderFinance = Access{Name: "provider finance", allow: func(s auth.Subject) bool {
	return s.IsProvider() && s.HasRole(auth.RoleFinance)
}}

// reconciliationDay reads ?date= (YYYY-MM-DD), yesterday on the provider's
// clock when none is given, and reconciles it. A date that is no day
// answers the page with its error, 400; false once an answer is written.
func (s *Server) reconciliationDay(w http.ResponseWriter, r *http.Request) (payment.Reconciliation, bool) {
	ctx := r.Context()
	if _, ok := s.lineViewer(w, r, s.reconciler != nil); !ok {
		return payment.Reconciliation{}, false
	}
	date := strings.TrimSpace(r.URL.Query().Get("date"))
	if date == "" {
		var err error
		if date, err = s.reconciler.Yesterday(ctx); err != nil {
			slog.ErrorContext(ctx, "reconciliation: yesterday", "err", err)
			s.ServerError(w, r)
			return payment.Reconciliation{}, false
		}
	}
	rec, err := s.reconciler.Day(ctx, date)
	if fe, ok := fault.As(err); ok && fe.Fields["date"] != "" {
		view := templates.Reconciliation{Date: date, DateError: fe.Fields["date"]}
		render(w, r, http.StatusBadRequest, templates.ReconciliationPage(s.reconPage(w, r), view))
		return rec, false
	}
	if err != nil {
		slog.ErrorContext(ctx, "reconciliation", "date", date, "err", err)
		s.ServerError(w, r)
		return rec, false
	}
	return rec, true
}

func (s *Server) reconPage(w http.ResponseWriter, r *http.Request) templates.Page {
	return s.billPage(w, r, "bills-reconciliation").WithStyles("/static/reconcile.css")
}

// reconciliationDoc is the report as its documents write it, in the
// request's language, naming the rows' agencies.
func (s *Server) reconciliationDoc(ctx context.Context, rec payment.Reconciliation) docs.Reconciliation {
	names := map[int64]string{}
	for _, row := range rec.Rows {
		if row.AgencyID != 0 {
			s.agencyName(ctx, names, row.AgencyID)
		}
	}
	return docs.Reconciliation{Report: rec, Agencies: names, T: func(key string, args ...any) string { return i18n.T(ctx, key, args...) }}
}

func reconciliationExportHref(date, format string) string {
	return listURL(pathReconciliationExport, url.Values{"date": {date}, "format": {format}})
}

// reconciliationPage is /bills/reconciliation?date=YYYY-MM-DD.
func (s *Server) reconciliationPage(w http.ResponseWriter, r *http.Request) {
	rec, ok := s.reconciliationDay(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	doc := s.reconciliationDoc(ctx, rec)
	amt := func(minor int64, currency string) string {
		return formatMinor(money.Amount{Minor: minor, Currency: currency})
	}
	view := templates.Reconciliation{Date: rec.Date, Zone: display.ZoneName(ctx, rec.Zone, rec.From), Loaded: true,
		CSVHref: reconciliationExportHref(rec.Date, docs.CSV), XLSXHref: reconciliationExportHref(rec.Date, docs.XLSX),
		Differences: rec.Differences, Truncated: doc.TruncatedNote()}
	for _, t := range rec.Totals {
		view.Totals = append(view.Totals, templates.ReconTotalRow{Channel: templatesChannel(ctx, t.Channel), Currency: t.Currency, Count: t.Count,
			Gross: amt(t.Gross, t.Currency), Fee: amt(t.Fee, t.Currency), Net: amt(t.Net, t.Currency), Differences: t.Differences})
	}
	for _, row := range rec.Rows {
		cells := doc.ReconCells(row)
		v := templates.ReconRowView{Flag: cells[0], FlagKey: row.Flag, Difference: row.Difference(), Kind: cells[1], Channel: cells[2],
			TradeNo: row.TradeNo, Reference: row.Reference, Booking: cells[5], Agency: cells[6], Currency: row.Currency,
			Gross: amt(row.Gross, row.Currency), Fee: amt(row.Fee, row.Currency), Net: amt(row.Net, row.Currency), LedgerKey: row.LedgerKey,
			At: display.Stamp(rec.Zone, row.At), State: cells[14]}
		if path, ok := bookingPages[row.Line]; ok && row.BookingID != 0 {
			v.BookingHref = fill(path, row.BookingID)
		}
		if row.InLedger {
			v.LedgerAmount = amt(row.LedgerAmount, row.LedgerCurrency) + " " + row.LedgerCurrency
		}
		view.Rows = append(view.Rows, v)
	}
	render(w, r, http.StatusOK, templates.ReconciliationPage(s.reconPage(w, r), view))
}

// bookingPages are the pages of a booking of each line, which the
// provider sees whatever its agency.
var bookingPages = map[string]string{
	booking.Flights.Name: pathOrder,
	booking.Groups.Name:  pathGroupOrder,
	booking.Trains.Name:  pathTrainOrder,
}

// templatesChannel is a channel's name in the request's language.
func templatesChannel(ctx context.Context, channel string) string {
	if key := "orders.channel." + channel; i18n.Has(ctx, key) {
		return i18n.T(ctx, key)
	}
	return channel
}

// reconciliationExport downloads a day's reconciliation as CSV or XLSX
// (?format=); another format is the 404 page, as for statements.
func (s *Server) reconciliationExport(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if !slices.Contains(docs.ReconciliationFormats, format) {
		s.NotFound(w, r)
		return
	}
	rec, ok := s.reconciliationDay(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	f, err := docs.ExportReconciliation(format, s.reconciliationDoc(ctx, rec))
	if err != nil {
		slog.ErrorContext(ctx, "reconciliation: export", "date", rec.Date, "format", format, "err", err)
		s.ServerError(w, r)
		return
	}
	_ = f.Serve(w)
}
