// Package docs renders documents people download: statements and bills as
// CSV, XLSX (excelize) and PDF (gopdf, with embedded Latin and CJK fonts so
// any of the interface languages renders without the host's fonts; see
// pdftext.go).
package docs

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// Formats a statement exports to.
const (
	CSV  = "csv"
	XLSX = "xlsx"
	PDF  = "pdf"
)

// Formats lists the statement formats.
var Formats = []string{CSV, XLSX, PDF}

// Write writes a statement in format (CSV, XLSX or PDF).
func Write(w io.Writer, format string, s Statement) error {
	switch format {
	case CSV:
		return WriteCSV(w, s)
	case XLSX:
		return WriteXLSX(w, s)
	case PDF:
		return WritePDF(w, s)
	}
	return fmt.Errorf("docs: unknown format %q", format)
}

// ContentType is the MIME type of format.
func ContentType(format string) string {
	switch format {
	case CSV:
		return "text/csv; charset=utf-8"
	case XLSX:
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	case PDF:
		return "application/pdf"
	}
	return "application/octet-stream"
}

// Translate is the catalog lookup of the reader's language.
type Translate func(key string, args ...any) string

// enum translates a code under prefix ("train.status." + code), showing
// the code itself when the catalog has no entry: a raw code reads better
// than a catalog key. An empty code stays empty.
func (t Translate) enum(prefix, code string) string {
	if code == "" {
		return ""
	}
	if v := t(prefix + code); v != prefix+code {
		return v
	}
	return code
}

// Statement is what a statement document shows.
type Statement struct {
	// Provider is the letterhead: the provider's name as the site shows it
	// in the reader's language (siteinfo); empty leaves the letterhead out.
	Provider    string
	AgencyName  string
	AgencyCode  string
	Info        ledger.StatementInfo
	Entries     []ledger.Entry
	InvoiceType bool // the agency's "show invoice type on Excel bill" setting
	T           Translate
	// Zone is the agency's time zone, in which the entries' times are
	// written and which the documents name; nil is UTC.
	Zone *time.Location
	// Labels are entries' descriptions in the reader's language written
	// from their data, by entry id (group payments: group.EntryLabels);
	// the others are translated from their posted text.
	Labels map[int64]string
}

// zone is the statement's time zone.
func (s Statement) zone() *time.Location {
	if s.Zone == nil {
		return time.UTC
	}
	return s.Zone
}

// zoneName names the zone for a heading: "UTC+08:00 (Asia/Shanghai)", the
// offset as at the period's end. Not the abbreviation: "CST" reads as US
// Central time abroad.
func (s Statement) zoneName() string {
	return display.ZoneOffset(s.zone(), s.Info.To)
}

// provisionalNote says, for a statement of a period not over, up to when
// its entries run; "" for a past period's.
func (s Statement) provisionalNote() string {
	until := s.Info.Until()
	if !until.Before(s.Info.To) {
		return ""
	}
	return s.T("statement.until", "time", until.In(s.zone()).Format("2006-01-02 15:04")+" "+s.zoneName())
}

// wallClock is t as the agency's clock reads it, as a time without a zone
// (UTC) for a spreadsheet, which keeps no zone and counts from a UTC epoch.
func (s Statement) wallClock(t time.Time) time.Time {
	l := t.In(s.zone())
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), 0, time.UTC)
}

// StatementFileName is the one name a statement file has wherever it is
// downloaded or written (portal, API, CLI): agency code and the inclusive
// period, so a month's files sort and do not collide. from and to are the
// period's bounds on the clock whose days it names.
func StatementFileName(agencyCode string, from, to time.Time, format string) string {
	return fmt.Sprintf("statement-%s-%s-%s.%s", agencyCode, from.Format("20060102"),
		to.Add(-time.Nanosecond).Format("20060102"), format)
}

// StatementFile is a rendered statement: what the portal and the API send
// and what the CLI writes.
type StatementFile struct {
	Name        string
	ContentType string
	Body        []byte
}

// ExportStatement renders s in format with its file name.
func ExportStatement(format string, s Statement) (StatementFile, error) {
	var buf bytes.Buffer
	if err := Write(&buf, format, s); err != nil {
		return StatementFile{}, err
	}
	loc := s.Info.Location()
	return StatementFile{Name: StatementFileName(s.AgencyCode, s.Info.From.In(loc), s.Info.To.In(loc), format),
		ContentType: ContentType(format), Body: buf.Bytes()}, nil
}

// Serve sends the file as a download.
func (f StatementFile) Serve(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, f.Name))
	w.Header().Set("Cache-Control", "private, no-store")
	_, err := w.Write(f.Body)
	return err
}

// amount is the plain decimal a spreadsheet or importer reads: "-1234.50".
func (s Statement) amount(v int64) string {
	return money.Amount{Minor: v, Currency: s.Info.Currency}.String()
}

// grouped is an amount as people read it: "-1,234.50".
func (s Statement) grouped(v int64) string { return money.GroupDecimal(s.amount(v)) }

// numFmt is Excel's number format for the currency's decimals: #,##0.00.
func (s Statement) numFmt() string {
	f := "#,##0"
	if e := money.Exponent(s.Info.Currency); e > 0 {
		f += "." + strings.Repeat("0", int(e))
	}
	return f
}

func (s Statement) header() []string {
	cur := "currency"
	// "Payment time (UTC+08:00 Asia/Shanghai)": no comma, so the CSV's
	// heading needs no quotes.
	h := []string{s.T("finance.col.time") + " (" + display.OffsetHM(s.zone(), s.Info.To) + " " + s.zone().String() + ")", s.T("statement.col.type"), s.T("statement.col.orderId"), s.T("statement.col.reference"),
		s.T("statement.col.description"), s.T("finance.col.amount", cur, s.Info.Currency), s.T("finance.col.balance", cur, s.Info.Currency)}
	if s.InvoiceType {
		h = append(h, s.T("statement.col.invoiceType"))
	}
	return h
}

// description translates the descriptions the product writes itself
// ("top-up", "service fee"); what people or routes wrote stays as it is.
func (s Statement) description(e ledger.Entry) string {
	if l := s.Labels[e.ID]; l != "" {
		return l
	}
	d := e.Description
	key := "finance.description." + d
	if t := s.T(key); t != key {
		return t
	}
	return d
}

// row is an entry's cells as text; the time is the agency's, as the header
// says.
func (s Statement) row(e ledger.Entry) []string {
	r := []string{e.PaidAt.In(s.zone()).Format(time.DateTime), s.T("statement.type." + e.Type), e.OrderID, e.Reference, s.description(e),
		s.amount(e.Amount), s.amount(e.BalanceAfter)}
	if s.InvoiceType {
		r = append(r, invoiceType(e))
	}
	return r
}

// total is the sum of the entries' amounts: closing minus opening.
func (s Statement) total() int64 {
	var t int64
	for _, e := range s.Entries {
		t += e.Amount
	}
	return t
}

// invoiceType reads the invoice type an order payment recorded (Bill,
// Itinerary, ItineraryWithBill, None).
func invoiceType(e ledger.Entry) string {
	if t := detailValue(e.Detail, "invoiceType"); t != "" {
		return t
	}
	return "None"
}

func (s Statement) period() string {
	// The period is [from, to); people read the last day inclusively, both
	// days on the clock the statement was cut in.
	return s.Info.FirstDay() + " – " + s.Info.LastDay()
}

// utf8BOM makes Excel (notably a Chinese-locale Excel, which otherwise
// guesses GBK) read the file as UTF-8; encoding/csv-based readers and
// pandas (encoding="utf-8-sig") skip it.
const utf8BOM = "\ufeff"

// WriteCSV writes the statement as CSV for importers: a byte-order mark,
// the header row, then one row per entry. The summary (agency, period,
// opening and closing balance) is not a block above the header, which
// breaks pandas and most importers: the agency code and period are in the
// file name, the currency is in the amount headers, and the opening balance
// is the first row's balance less its amount.
func WriteCSV(w io.Writer, s Statement) error {
	if _, err := io.WriteString(w, utf8BOM); err != nil {
		return fmt.Errorf("docs: csv: %w", err)
	}
	rows := make([][]string, 0, len(s.Entries)+1)
	rows = append(rows, s.header())
	for _, e := range s.Entries {
		rows = append(rows, s.row(e))
	}
	// Agency names, references and descriptions are typed by people:
	// WriteCSVRows keeps them from running as formulas.
	return WriteCSVRows(w, rows)
}

// NewStatement is the statement document of agency a as the portal, the
// API and the CLI export it: lettered with the provider's name as the site
// shows it in lang, in lang's words, its times on the clock its days were
// cut in (a statement from before statements kept their zone: the agency's
// clock now).
func NewStatement(a agency.Agency, info ledger.StatementInfo, st ledger.Statement, site siteinfo.Info, lang string, t Translate) Statement {
	zone := display.ResolveZone("", a.TimeZone)
	if info.TimeZone != "" {
		zone = info.Location()
	}
	return Statement{Provider: ProviderName(site, lang), AgencyName: a.Name, AgencyCode: a.Code, Info: info, Entries: st.Entries,
		InvoiceType: a.InvoiceTypeOnExcel, T: t, Zone: zone}
}

// ProviderName is the provider's name for a reader of lang: the Chinese
// name for Chinese readers when the site has one.
func ProviderName(site siteinfo.Info, lang string) string {
	return site.NameIn(i18n.Normalize(lang))
}
