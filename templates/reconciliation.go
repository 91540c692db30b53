package templates

import (
	"context"

	"github.com/voyage/voyage/pkg/i18n"
)

// ReconciliationPath is the provider's daily channel reconciliation.
const ReconciliationPath = "/bills/reconciliation"

// Reconciliation is /bills/reconciliation: one day's channel transactions
// against the ledger, for the provider's finance.
type Reconciliation struct {
	// Date is the day shown or asked for (YYYY-MM-DD on the provider's
	// clock, Zone); DateError the catalog key of a date that is none, in
	// which case there is no report.
	Date      string
	DateError string
	Zone      string
	Loaded    bool
	CSVHref   string
	XLSXHref  string
	// Differences counts the rows finance must look at.
	Differences int
	// Truncated is the note of a day past the report's bound, "" within.
	Truncated string
	Totals    []ReconTotalRow
	Rows      []ReconRowView
}

// ReconTotalRow is one channel's sums in one currency, formatted.
type ReconTotalRow struct {
	Channel     string
	Currency    string
	Count       int
	Gross       string
	Fee         string
	Net         string
	Differences int
}

// ReconRowView is one channel transaction as the page shows it: labels
// translated, amounts formatted, the time on the provider's clock.
type ReconRowView struct {
	Flag       string // the translated check
	FlagKey    string // payment.Flag…, for the row's style
	Difference bool
	Kind       string
	Channel    string
	TradeNo    string
	Reference  string
	Booking    string
	// BookingHref is the booking's page, "" when the row names none.
	BookingHref  string
	Agency       string
	Currency     string
	Gross        string
	Fee          string
	Net          string
	LedgerKey    string
	LedgerAmount string
	At           string
	State        string
}

// reconOr is s, or a dash read as "none" for an empty cell.
func reconOr(ctx context.Context, s string) string {
	if s == "" {
		return i18n.T(ctx, "reconcile.none")
	}
	return s
}
