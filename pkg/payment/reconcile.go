package payment

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// A reconciliation row's flag: what finance makes of a channel
// transaction against the ledger. Every flag but FlagMatched is a
// difference.
const (
	// FlagMatched: the channel's record and its ledger transfer agree.
	FlagMatched = "matched"
	// FlagNoLedger: paid (or refunded) at the channel, nothing in the
	// ledger under its key.
	FlagNoLedger = "no-ledger"
	// FlagAmountDiffers: the ledger transfer is another sum or currency
	// than the channel's record.
	FlagAmountDiffers = "amount-differs"
	// FlagLedgerOnly: a receipt by a channel in the ledger whose channel
	// payment is missing or not paid.
	FlagLedgerOnly = "ledger-only"
	// FlagPendingExpired: a payment still pending after its window ran
	// out (the channel was never asked again, or does not answer).
	FlagPendingExpired = "pending-expired"
	// FlagRefundNotDone: a refund asked that day that the channel has not
	// done (still pending or processing, or failed).
	FlagRefundNotDone = "refund-not-done"
)

// Flags lists the flags, differences first, in the order a report shows
// them.
var Flags = []string{FlagNoLedger, FlagAmountDiffers, FlagLedgerOnly, FlagPendingExpired, FlagRefundNotDone, FlagMatched}

// Kinds of reconciliation rows.
const (
	ReconPayment = "payment"
	ReconRefund  = "refund"
)

// MaxReconRows bounds one day's reconciliation: the page, the CSV and the
// XLSX hold at most this many rows (differences first); a day with more
// says so (Reconciliation.Truncated) and its totals cover the rows shown.
const MaxReconRows = 10_000

// receiptPrefix starts the ledger key of a gateway's receipt (settle.go).
const receiptPrefix = "receipt-"

// ReconRow is one channel transaction of the day against its ledger
// transfer. Money is in minor units of Currency; a refund's Gross and Net
// are negative (money going back), so a channel's sums net out.
type ReconRow struct {
	Kind    string
	Flag    string
	Channel string
	// TradeNo is the merchant order number (a payment) or the refund
	// number (a refund) the channel knows it by; Reference the channel's
	// own number for it.
	TradeNo, Reference string
	// Line, BookingID and Stage are the booking it pays (flight, train,
	// group and its installment).
	Line      string
	BookingID int64
	Stage     string
	// BookingNumber is the booking's number as people know it (F…, T…,
	// G…), from its ledger transfer; "" when the ledger has none.
	BookingNumber string
	AgencyID      int64
	Currency      string
	Gross         int64
	Fee           int64
	Net           int64
	// State is the channel record's (pending, paid, closed; a refund's
	// pending, processing, done, failed); "" for a ledger entry without
	// any.
	State string
	// At is when it happened: paid, refunded, expired, or (a ledger entry
	// without a payment, a refund not done) posted or asked.
	At time.Time
	// LedgerKey is the transfer it is checked against; InLedger whether
	// one is there, with its sum, signed as Gross (a refund's is negative).
	LedgerKey      string
	InLedger       bool
	LedgerAmount   int64
	LedgerCurrency string
}

// Difference reports whether the row is one finance must look at.
func (r ReconRow) Difference() bool { return r.Flag != FlagMatched }

// ReconTotal sums a channel's rows in one currency.
type ReconTotal struct {
	Channel     string
	Currency    string
	Count       int
	Gross       int64
	Fee         int64
	Net         int64
	Differences int
}

// Reconciliation is one day of channel transactions against the ledger.
type Reconciliation struct {
	// Date is the day (YYYY-MM-DD) on the provider's clock (Zone), the
	// instants [From, To).
	Date     string
	Zone     *time.Location
	From, To time.Time
	// Rows, differences first, then by time.
	Rows        []ReconRow
	Totals      []ReconTotal
	Differences int
	// Truncated: the day holds more than MaxReconRows transactions; Rows
	// holds MaxReconRows of them.
	Truncated bool
}

// Reconciler makes finance's daily reconciliation: every channel
// transaction of a day on the provider's clock (payments paid that day,
// refunds done or asked that day, payments whose window ran out that day
// still pending) against its ledger transfer, with the channels' fees,
// and every receipt by a channel in the ledger that day whose payment is
// missing or not paid.
type Reconciler struct {
	DB     *store.DB
	Ledger *ledger.Ledger
	// Zone is the provider's time zone, whose days the report's are
	// (booking.Zone of the provider agency).
	Zone func(ctx context.Context) (*time.Location, error)
	Now  func() time.Time
}

func (r Reconciler) now() time.Time { return Clock(r.Now)() }

// ErrDateKey is the catalog key of a date that is no YYYY-MM-DD day.
const ErrDateKey = "reconcile.error.date"

// Yesterday is the day before today on the provider's clock, YYYY-MM-DD:
// the day a report shows when none is asked for, and the one the daily
// job checks.
func (r Reconciler) Yesterday(ctx context.Context) (string, error) {
	loc, err := r.Zone(ctx)
	if err != nil {
		return "", err
	}
	return display.DateIn(r.now(), loc).AddDate(0, 0, -1).Format(time.DateOnly), nil
}

// Day reconciles date (YYYY-MM-DD on the provider's clock). A date that is
// no day is a validation fault on "date" (ErrDateKey).
func (r Reconciler) Day(ctx context.Context, date string) (Reconciliation, error) {
	loc, err := r.Zone(ctx)
	if err != nil {
		return Reconciliation{}, err
	}
	date = strings.TrimSpace(date)
	from, to, err := display.DayRange(date, date, loc)
	if err != nil || date == "" {
		return Reconciliation{}, fault.Validation(map[string]string{"date": ErrDateKey})
	}
	rec := Reconciliation{Date: date, Zone: loc, From: from, To: to}
	var rows []ReconRow
	paid, err := r.paidPayments(ctx, from, to)
	if err != nil {
		return rec, err
	}
	refunds, err := r.refunds(ctx, from, to)
	if err != nil {
		return rec, err
	}
	keys := make([]ledger.PostingKey, 0, len(paid)+len(refunds))
	for _, p := range paid {
		keys = append(keys, ledger.PostingKey{AgencyID: p.AgencyID, Key: receiptPrefix + p.Key})
	}
	for _, f := range refunds {
		keys = append(keys, ledger.PostingKey{AgencyID: f.AgencyID, Key: f.LedgerKey},
			ledger.PostingKey{AgencyID: f.AgencyID, Key: receiptPrefix + f.PaymentKey})
	}
	posted, err := r.Ledger.PostingsByKey(ctx, keys)
	if err != nil {
		return rec, err
	}
	for _, p := range paid {
		row := paymentRow(p)
		row.LedgerKey = receiptPrefix + p.Key
		row.match(posted, p.Amount, p.Currency)
		rows = append(rows, row)
	}
	for _, f := range refunds {
		row := ReconRow{Kind: ReconRefund, Channel: f.Channel, TradeNo: f.RefundNo, Reference: f.Reference, Line: f.Line,
			BookingID: f.BookingID, Stage: f.Stage, AgencyID: f.AgencyID, Currency: f.Currency, Gross: -f.Amount, Net: -f.Amount,
			State: f.State, At: f.CreatedAt, LedgerKey: f.LedgerKey}
		row.match(posted, f.Amount, f.Currency)
		row.LedgerAmount = -row.LedgerAmount
		// The booking the refunded payment paid, as its receipt names it
		// (the refund's own transfer names the refund's order).
		row.BookingNumber = posted[ledger.PostingKey{AgencyID: f.AgencyID, Key: receiptPrefix + f.PaymentKey}].OrderID
		if f.State == refundDone {
			row.At = *f.DoneAt
		} else {
			// Not done: the money has not left through the channel yet
			// (the row shows what was asked; the totals leave it out), and
			// the wallet's side is the refund service's to settle.
			row.Flag = FlagRefundNotDone
		}
		rows = append(rows, row)
	}
	until := to
	if now := r.now(); now.Before(until) {
		until = now
	}
	expired, err := r.expiredPayments(ctx, from, until)
	if err != nil {
		return rec, err
	}
	for _, p := range expired {
		row := paymentRow(p)
		row.Flag, row.At, row.Gross, row.Fee, row.Net = FlagPendingExpired, p.ExpiresAt, 0, 0, 0
		rows = append(rows, row)
	}
	settled := make(map[ledger.PostingKey]bool, len(paid))
	for _, p := range paid {
		settled[ledger.PostingKey{AgencyID: p.AgencyID, Key: receiptPrefix + p.Key}] = true
	}
	orphans, err := r.ledgerOnly(ctx, from, to, settled)
	if err != nil {
		return rec, err
	}
	rows = append(rows, orphans...)
	slices.SortStableFunc(rows, func(a, b ReconRow) int {
		return cmp.Or(cmp.Compare(slices.Index(Flags, a.Flag), slices.Index(Flags, b.Flag)), a.At.Compare(b.At),
			cmp.Compare(a.TradeNo, b.TradeNo), cmp.Compare(a.LedgerKey, b.LedgerKey))
	})
	if len(rows) > MaxReconRows {
		rows, rec.Truncated = rows[:MaxReconRows], true
	}
	rec.Rows = rows
	rec.Totals, rec.Differences = totals(rows)
	return rec, nil
}

func paymentRow(p ChannelPayment) ReconRow {
	row := ReconRow{Kind: ReconPayment, Channel: p.Channel, TradeNo: p.TradeNo, Reference: p.Reference, Line: p.Line,
		BookingID: p.BookingID, Stage: p.Stage, AgencyID: p.AgencyID, Currency: p.Currency, Gross: p.Amount, Fee: p.Fee,
		Net: p.Amount - p.Fee, State: p.State}
	if p.PaidAt != nil {
		row.At = *p.PaidAt
	}
	return row
}

// match flags the row by the ledger transfer of its key: there, and the
// channel's sum.
func (row *ReconRow) match(posted map[ledger.PostingKey]ledger.Posting, amount int64, currency string) {
	t, ok := posted[ledger.PostingKey{AgencyID: row.AgencyID, Key: row.LedgerKey}]
	switch {
	case !ok:
		row.Flag = FlagNoLedger
		return
	case t.Amount != amount || t.Currency != currency:
		row.Flag = FlagAmountDiffers
	default:
		row.Flag = FlagMatched
	}
	row.InLedger, row.LedgerAmount, row.LedgerCurrency, row.BookingNumber = true, t.Amount, t.Currency, t.OrderID
}

// ledgerOnly are the day's receipts by a channel whose channel payment is
// missing or not paid; settled are the receipts of the day's paid
// payments, known to be matched. A payment paid on another day is that
// day's row; the built-in test gateway's receipts are no channel's.
func (r Reconciler) ledgerOnly(ctx context.Context, from, to time.Time, settled map[ledger.PostingKey]bool) ([]ReconRow, error) {
	receipts, err := r.Ledger.PostingsFrom(ctx, ledger.TypeTopUp, receiptPrefix, from, to, MaxReconRows+1)
	if err != nil {
		return nil, err
	}
	var out []ReconRow
	for _, t := range receipts {
		method := t.Method()
		if settled[ledger.PostingKey{AgencyID: t.AgencyID, Key: t.Key}] || !slices.Contains(Channels, method) || method == ChannelBalance {
			continue
		}
		key := strings.TrimPrefix(t.Key, receiptPrefix)
		p, ok, err := channelPayment(ctx, r.DB, "payment_key", key)
		if err != nil {
			return nil, err
		}
		if ok && p.State == recordPaid && p.AgencyID == t.AgencyID {
			continue
		}
		if !ok {
			test, err := r.testGatewayKey(ctx, key)
			if err != nil {
				return nil, err
			}
			if test {
				continue
			}
		}
		row := ReconRow{Kind: ReconPayment, Flag: FlagLedgerOnly, Channel: method, Reference: t.Reference, AgencyID: t.AgencyID,
			Currency: t.Currency, At: t.CreatedAt, LedgerKey: t.Key, InLedger: true, LedgerAmount: t.Amount, LedgerCurrency: t.Currency,
			BookingNumber: t.OrderID}
		if ok {
			row.TradeNo, row.Line, row.BookingID, row.Stage, row.State = p.TradeNo, p.Line, p.BookingID, p.Stage, p.State
			if row.Reference == "" {
				row.Reference = p.Reference
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// totals sums rows per channel and currency, in channel then currency
// order, and counts the differences.
func totals(rows []ReconRow) ([]ReconTotal, int) {
	type key struct{ channel, currency string }
	sums := map[key]*ReconTotal{}
	diffs := 0
	for _, row := range rows {
		k := key{row.Channel, row.Currency}
		s := sums[k]
		if s == nil {
			s = &ReconTotal{Channel: row.Channel, Currency: row.Currency}
			sums[k] = s
		}
		s.Count++
		if row.Flag != FlagRefundNotDone && row.Flag != FlagPendingExpired {
			// What the channel moved that day: not what it was asked for
			// and has not done, nor what the payer never paid.
			s.Gross += row.Gross
			s.Fee += row.Fee
			s.Net += row.Net
		}
		if row.Difference() {
			s.Differences++
			diffs++
		}
	}
	out := make([]ReconTotal, 0, len(sums))
	for _, s := range sums {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b ReconTotal) int {
		return cmp.Or(cmp.Compare(a.Channel, b.Channel), cmp.Compare(a.Currency, b.Currency))
	})
	return out, diffs
}

// CountFlags counts the report's rows by flag.
func (rec Reconciliation) CountFlags() map[string]int {
	out := map[string]int{}
	for _, row := range rec.Rows {
		out[row.Flag]++
	}
	return out
}

// FileName is the report's file name in format: reconciliation-20261202.csv.
func (rec Reconciliation) FileName(format string) string {
	return fmt.Sprintf("reconciliation-%s.%s", strings.ReplaceAll(rec.Date, "-", ""), format)
}
