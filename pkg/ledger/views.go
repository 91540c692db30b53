package ledger

import (
	"time"

	"github.com/voyage/voyage/pkg/money"
)

// The wallet's entries and statements as they are written out: the agency
// API answers them and the admin terminal prints them (its -o json is the
// API's JSON), so both use these types.

// WalletEntry is one movement of an agency's wallet (GET
// /base/v2/wallet/entries).
type WalletEntry struct {
	ID               int64       `json:"id"`
	Type             string      `json:"type"`
	Amount           money.Money `json:"amount"`
	BalanceAfter     money.Money `json:"balanceAfter"`
	OrderID          string      `json:"orderId"`
	PaymentReference string      `json:"paymentReference"`
	Description      string      `json:"description"`
	Remark           string      `json:"remark"`
	PaidAt           time.Time   `json:"paidAt"`
}

// WalletEntryOf is entry e as it is written out.
func WalletEntryOf(e Entry) WalletEntry {
	return WalletEntry{ID: e.ID, Type: e.Type, Amount: money.Of(e.Amount, e.Currency), BalanceAfter: money.Of(e.BalanceAfter, e.Currency),
		OrderID: e.OrderID, PaymentReference: e.Reference, Description: e.Description, Remark: e.Remark, PaidAt: e.PaidAt}
}

// StatementSummary is a statement in a list: its period (From and To
// inclusive, YYYY-MM-DD), balances and how many entries it holds.
type StatementSummary struct {
	ID             int64       `json:"id"`
	AgencyID       int64       `json:"agencyId"`
	From           string      `json:"from"`
	To             string      `json:"to"`
	OpeningBalance money.Money `json:"openingBalance"`
	ClosingBalance money.Money `json:"closingBalance"`
	EntryCount     int         `json:"entryCount"`
	CreatedAt      time.Time   `json:"createdAt"`
	TimeZone       string      `json:"timeZone" jsonschema_description:"the IANA zone whose days from and to are"`
	Provisional    bool        `json:"provisional" jsonschema_description:"the period was not over when the statement was made: its figures run to the moment it is read, and are fixed once the period has ended"`
}

// StatementDetail is a statement with every entry.
type StatementDetail struct {
	ID             int64         `json:"id"`
	AgencyID       int64         `json:"agencyId"`
	From           string        `json:"from"`
	To             string        `json:"to"`
	OpeningBalance money.Money   `json:"openingBalance"`
	ClosingBalance money.Money   `json:"closingBalance"`
	Entries        []WalletEntry `json:"entries"`
	CreatedAt      time.Time     `json:"createdAt"`
	TimeZone       string        `json:"timeZone" jsonschema_description:"the IANA zone whose days from and to are (the agency's when the statement was made); UTC for statements made before statements had one"`
	Provisional    bool          `json:"provisional" jsonschema_description:"the period was not over when the statement was made: its figures and entries run to the moment it is read, and are fixed once the period has ended"`
}

// Summary is the statement as a list shows it.
func (d StatementDetail) Summary() StatementSummary {
	return StatementSummary{ID: d.ID, AgencyID: d.AgencyID, From: d.From, To: d.To, OpeningBalance: d.OpeningBalance,
		ClosingBalance: d.ClosingBalance, EntryCount: len(d.Entries), CreatedAt: d.CreatedAt, TimeZone: d.TimeZone, Provisional: d.Provisional}
}

// StatementSummaryOf is statement i as a list writes it out.
func StatementSummaryOf(i StatementInfo) StatementSummary {
	return StatementSummary{ID: i.ID, AgencyID: i.AgencyID, From: i.FirstDay(), To: i.LastDay(),
		OpeningBalance: money.Of(i.Opening, i.Currency), ClosingBalance: money.Of(i.Closing, i.Currency), EntryCount: i.EntryCount, CreatedAt: i.CreatedAt,
		TimeZone: i.Location().String(), Provisional: i.Provisional}
}

// StatementDetailOf is statement i with its entries as written out.
func StatementDetailOf(i StatementInfo, st Statement) StatementDetail {
	d := StatementDetail{ID: i.ID, AgencyID: i.AgencyID, From: i.FirstDay(), To: i.LastDay(),
		OpeningBalance: money.Of(i.Opening, i.Currency), ClosingBalance: money.Of(i.Closing, i.Currency), Entries: []WalletEntry{}, CreatedAt: i.CreatedAt,
		TimeZone: i.Location().String(), Provisional: i.Provisional}
	for _, e := range st.Entries {
		d.Entries = append(d.Entries, WalletEntryOf(e))
	}
	return d
}
