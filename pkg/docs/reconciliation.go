package docs

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
)

// ReconciliationFormats are the formats finance's daily reconciliation
// exports to.
var ReconciliationFormats = []string{CSV, XLSX}

// Reconciliation is finance's daily reconciliation as a document: the
// channel transactions of a day against the ledger, with the headers and
// labels in the reader's language.
type Reconciliation struct {
	Report payment.Reconciliation
	T      Translate
	// Agencies names the rows' agencies by id; an agency not in it is
	// written by its id alone.
	Agencies map[int64]string
}

// ExportReconciliation renders r in format (CSV or XLSX) with its file
// name (reconciliation-YYYYMMDD.csv).
func ExportReconciliation(format string, r Reconciliation) (StatementFile, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case CSV:
		err = r.WriteCSV(&buf)
	case XLSX:
		err = r.WriteXLSX(&buf)
	default:
		return StatementFile{}, fmt.Errorf("docs: unknown reconciliation format %q", format)
	}
	if err != nil {
		return StatementFile{}, err
	}
	return StatementFile{Name: r.Report.FileName(format), ContentType: ContentType(format), Body: buf.Bytes()}, nil
}

// ReconHeader is the rows' header in the reader's language; the time
// column names the provider's zone its times are on.
func (r Reconciliation) ReconHeader() []string {
	return []string{r.T("reconcile.col.flag"), r.T("reconcile.col.kind"), r.T("reconcile.col.channel"), r.T("reconcile.col.tradeNo"),
		r.T("reconcile.col.reference"), r.T("reconcile.col.booking"), r.T("reconcile.col.agency"), r.T("reconcile.col.currency"),
		r.T("reconcile.col.gross"), r.T("reconcile.col.fee"), r.T("reconcile.col.net"), r.T("reconcile.col.ledgerKey"),
		r.T("reconcile.col.ledgerAmount"), r.T("reconcile.col.time") + " (" + r.zone().String() + ")", r.T("reconcile.col.state")}
}

func (r Reconciliation) zone() *time.Location {
	if r.Report.Zone == nil {
		return time.UTC
	}
	return r.Report.Zone
}

// Booking names a row's booking: its line and number, and a group
// installment's stage.
func (r Reconciliation) Booking(row payment.ReconRow) string {
	if row.BookingID == 0 {
		return ""
	}
	number := row.BookingNumber
	if number == "" {
		number = "#" + strconv.FormatInt(row.BookingID, 10)
	}
	b := r.T.enum("reconcile.line.", row.Line) + " " + number
	if row.Stage != "" {
		b += " (" + r.T.enum("reconcile.stage.", row.Stage) + ")"
	}
	return b
}

// Agency names a row's agency: its name and id, or its id.
func (r Reconciliation) Agency(id int64) string {
	if id == 0 {
		return ""
	}
	if n := r.Agencies[id]; n != "" {
		return n + " (" + strconv.FormatInt(id, 10) + ")"
	}
	return strconv.FormatInt(id, 10)
}

func reconAmount(minor int64, currency string) string {
	return money.Amount{Minor: minor, Currency: currency}.String()
}

// ReconCells is a row's cells as text, amounts as plain decimals.
func (r Reconciliation) ReconCells(row payment.ReconRow) []string {
	ledgerAmount := ""
	if row.InLedger {
		ledgerAmount = reconAmount(row.LedgerAmount, row.LedgerCurrency)
		if row.LedgerCurrency != row.Currency {
			ledgerAmount += " " + row.LedgerCurrency
		}
	}
	at := ""
	if !row.At.IsZero() {
		at = row.At.In(r.zone()).Format(time.DateTime)
	}
	return []string{r.T("reconcile.flag." + row.Flag), r.T("reconcile.kind." + row.Kind), r.T.enum("orders.channel.", row.Channel),
		row.TradeNo, row.Reference, r.Booking(row), r.Agency(row.AgencyID), row.Currency, reconAmount(row.Gross, row.Currency),
		reconAmount(row.Fee, row.Currency), reconAmount(row.Net, row.Currency), row.LedgerKey, ledgerAmount, at,
		r.T.enum("reconcile.state.", row.State)}
}

// TruncatedNote says that the day holds more transactions than a report
// does ("" when it holds them all).
func (r Reconciliation) TruncatedNote() string {
	if !r.Report.Truncated {
		return ""
	}
	return r.T("reconcile.truncated", "max", money.GroupDecimal(strconv.Itoa(payment.MaxReconRows)), "date", r.Report.Date)
}

// WriteCSV writes the rows as CSV for importers: a byte-order mark, the
// header, one row per transaction, differences first. The day is in the
// file name; the totals are the XLSX's and the page's. A day past the
// bound ends with a row whose first cell says so.
func (r Reconciliation) WriteCSV(w io.Writer) error {
	if _, err := io.WriteString(w, utf8BOM); err != nil {
		return fmt.Errorf("docs: csv: %w", err)
	}
	header := r.ReconHeader()
	rows := [][]string{header}
	for _, row := range r.Report.Rows {
		rows = append(rows, r.ReconCells(row))
	}
	if note := r.TruncatedNote(); note != "" {
		last := make([]string, len(header))
		last[0] = note
		rows = append(rows, last)
	}
	return WriteCSVRows(w, rows)
}

// WriteXLSX writes the reconciliation as an Excel workbook: a sheet of
// rows (a frozen, filtered header, amounts as numbers in their currency's
// decimals, times as dates on the provider's clock) and a summary sheet
// (the day, its zone, the count of differences and the totals per channel
// and currency).
func (r Reconciliation) WriteXLSX(w io.Writer) error {
	f, sheet, st, err := newWorkbook(r.T("reconcile.title"))
	if err != nil {
		return err
	}
	defer f.Close()
	dateStyle, err := st.dateTime()
	if err != nil {
		return err
	}
	moneyStyle := func(currency string, bold bool) (int, error) { return st.money(numFmtOf(currency), bold) }
	num := func(minor int64, currency string) float64 {
		n, _ := money.Amount{Minor: minor, Currency: currency}.Decimal().Float64()
		return n
	}
	style := func(sheet string, col1, row1, col2, row2, id int) error {
		a, _ := excelize.CoordinatesToCellName(col1, row1)
		b, _ := excelize.CoordinatesToCellName(col2, row2)
		if err := f.SetCellStyle(sheet, a, b, id); err != nil {
			return fmt.Errorf("docs: xlsx style: %w", err)
		}
		return nil
	}

	header := r.ReconHeader()
	widths, err := putHeading(f, sheet, header)
	if err != nil {
		return err
	}
	if err := style(sheet, 1, 1, len(header), 1, st.head); err != nil {
		return err
	}
	for i, row := range r.Report.Rows {
		cells := r.ReconCells(row)
		values := make([]any, len(cells))
		for c, v := range cells {
			values[c] = v
			widths[c] = max(widths[c], displayWidth(v))
		}
		values[8], values[9], values[10] = num(row.Gross, row.Currency), num(row.Fee, row.Currency), num(row.Net, row.Currency)
		if row.InLedger {
			values[12] = num(row.LedgerAmount, row.LedgerCurrency)
		}
		if !row.At.IsZero() {
			l := row.At.In(r.zone())
			values[13] = time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), 0, time.UTC)
		}
		if err := putRow(f, sheet, i+2, values); err != nil {
			return err
		}
		ms, err := moneyStyle(row.Currency, false)
		if err != nil {
			return err
		}
		if err := style(sheet, 9, i+2, 11, i+2, ms); err != nil {
			return err
		}
		if row.InLedger {
			ls, err := moneyStyle(row.LedgerCurrency, false)
			if err != nil {
				return err
			}
			if err := style(sheet, 13, i+2, 13, i+2, ls); err != nil {
				return err
			}
		}
		if err := style(sheet, 14, i+2, 14, i+2, dateStyle); err != nil {
			return err
		}
		if row.Difference() {
			if err := style(sheet, 1, i+2, 1, i+2, st.alert); err != nil {
				return err
			}
		}
	}
	last := len(r.Report.Rows) + 1
	widths[13] = max(widths[13], len(xlsxDateTime))
	if err := finishTable(f, sheet, widths, last); err != nil {
		return err
	}

	summary := sheetName(r.T("finance.summary"))
	if _, err := f.NewSheet(summary); err != nil {
		return fmt.Errorf("docs: xlsx sheet: %w", err)
	}
	lines := [][]any{
		{r.T("reconcile.summary.date"), r.Report.Date},
		{r.T("finance.timezone"), display.ZoneDescription(r.zone(), r.Report.From)},
		{r.T("reconcile.summary.rows"), len(r.Report.Rows)},
		{r.T("reconcile.summary.differences"), r.Report.Differences},
	}
	if note := r.TruncatedNote(); note != "" {
		lines = append(lines, []any{note})
	}
	n := 0
	for _, l := range lines {
		n++
		if err := putRow(f, summary, n, l); err != nil {
			return err
		}
		if err := style(summary, 1, n, 1, n, st.label); err != nil {
			return err
		}
	}
	n += 2
	totalsHeader := []any{r.T("reconcile.col.channel"), r.T("reconcile.col.currency"), r.T("reconcile.summary.count"),
		r.T("reconcile.col.gross"), r.T("reconcile.col.fee"), r.T("reconcile.col.net"), r.T("reconcile.summary.differences")}
	if err := putRow(f, summary, n, totalsHeader); err != nil {
		return err
	}
	if err := style(summary, 1, n, len(totalsHeader), n, st.head); err != nil {
		return err
	}
	for _, t := range r.Report.Totals {
		n++
		if err := putRow(f, summary, n, []any{r.T.enum("orders.channel.", t.Channel), t.Currency, t.Count, num(t.Gross, t.Currency),
			num(t.Fee, t.Currency), num(t.Net, t.Currency), t.Differences}); err != nil {
			return err
		}
		ms, err := moneyStyle(t.Currency, false)
		if err != nil {
			return err
		}
		if err := style(summary, 4, n, 6, n, ms); err != nil {
			return err
		}
	}
	if err := f.SetColWidth(summary, "A", "A", 28); err != nil {
		return fmt.Errorf("docs: xlsx width: %w", err)
	}
	if err := f.SetColWidth(summary, "B", "G", 16); err != nil {
		return fmt.Errorf("docs: xlsx width: %w", err)
	}
	return writeWorkbook(w, f, excelize.DocProperties{Title: r.T("reconcile.title") + " " + r.Report.Date, Creator: "Voyage",
		Created: time.Now().UTC().Format(time.RFC3339)})
}

// numFmtOf is Excel's number format for currency's decimals: #,##0.00.
func numFmtOf(currency string) string {
	f := "#,##0"
	if e := money.Exponent(currency); e > 0 {
		f += "." + strings.Repeat("0", int(e))
	}
	return f
}
