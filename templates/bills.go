package templates

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/i18n"
)

// BillTransactions is /bills/transactions: the payments received into the
// caller's wallet (spec §2 'All Transactions').
type BillTransactions struct {
	Currency string
	Items    []BillTransactionRow
	Pager    Pager
}

// BillTransactionRow is one transaction, money formatted with its currency.
type BillTransactionRow struct {
	OriginalID    string
	Reference     string
	PaymentMethod string
	TotalPaid     string // gross, in the currency received
	Amount        string // net, in the wallet currency
	Fee           string
	PaymentTime   time.Time
	CreatedAt     time.Time
}

// StatementForm is the create-statement form: YYYY-MM-DD dates, both
// inclusive, and the field errors it came back with.
type StatementForm struct {
	From     string
	To       string
	Errors   map[string]string // from, to → catalog key
	ErrorKey string
	Zone     string // the agency's zone, whose days the dates are: "Asia/Shanghai (UTC+8)"
}

// BillStatements is /bills/statements: the create form and the caller's
// statements.
type BillStatements struct {
	Currency string
	Form     StatementForm
	Items    []StatementRow
	Pager    Pager
}

// StatementRow is a statement in a list, money formatted.
type StatementRow struct {
	ID         int64
	Href       string
	From       string
	To         string // the last day, inclusive
	Currency   string
	Opening    string
	Closing    string
	EntryCount int
	CreatedAt  time.Time
}

// StatementView is one statement (or a sub-agency's bill): the summary,
// every entry and the download links.
type StatementView struct {
	ID         int64
	AgencyName string
	AgencyCode string
	Sub        bool   // a sub-agency's bill, in the agency manager
	Back       string // the list it came from
	From       string
	To         string
	Zone       string // whose days From and To are: "Asia/Shanghai (UTC+8)"
	Currency   string
	Opening    string
	Closing    string
	EntryCount int
	CreatedBy  string
	CreatedAt  time.Time
	// Until is when the entries stop for a statement made before its
	// period ended (zero otherwise).
	Until   time.Time
	Entries []WalletRow
	// ExportBase is the export address without the format.
	ExportBase string
}

// ExportHref is the statement's download in format.
func (v StatementView) ExportHref(format string) string {
	u, err := url.Parse(v.ExportBase)
	if err != nil {
		return v.ExportBase
	}
	q := u.Query()
	q.Set("format", format)
	u.RawQuery = q.Encode()
	return u.String()
}

// SubAgencyOption is a managed agency in the sub-agency select.
type SubAgencyOption struct {
	ID   int64
	Name string
	Code string
}

// SubStatements is /agency-manager/statements: pick a managed agency, create
// its statement, list its statements.
type SubStatements struct {
	Agencies []SubAgencyOption
	// Chosen is the agency whose statements are shown; zero when none is.
	Chosen   SubAgencyOption
	Currency string
	Form     StatementForm
	Items    []StatementRow
	Pager    Pager
}

// Selected reports whether a sub-agency was chosen.
func (s SubStatements) Selected() bool { return s.Chosen.ID != 0 }

// SubBillHref is the bill detail of a sub-agency's statement.
func SubBillHref(agencyID, id int64) string {
	return "/agency-manager/bills/" + strconv.FormatInt(id, 10) + "?agency=" + strconv.FormatInt(agencyID, 10)
}

// StatementHref is the detail of one of the caller's statements.
func StatementHref(id int64) string { return "/bills/statements/" + strconv.FormatInt(id, 10) }

// paymentMethodName translates a transaction's payment method: a top-up's
// (bank transfer), or the payment channel a booking was paid through (its
// receipt's method is the channel's name: Alipay, WeChat Pay, …).
func paymentMethodName(ctx context.Context, m string) string {
	if i18n.Has(ctx, "bills.method."+m) {
		return i18n.T(ctx, "bills.method."+m)
	}
	return catalogLabel(ctx, "orders.channel.", m)
}

func billOption(a SubAgencyOption) string {
	if a.Code == "" {
		return a.Name
	}
	return a.Name + " (" + a.Code + ")"
}
