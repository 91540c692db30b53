package ledger

import (
	"time"

	"github.com/voyage/voyage/pkg/money"
)

// The wallet's entries and statements as they are written out: the agency
// API answers them and the admin terminal prints them (its -o json is the
// API's JSON), so both use these types.

// WalletEntry is one movement of money into or out of an agency's wallet
// (GET /base/v2/wallet/entries).
type WalletEntry struct {
	// ID identifies the entry; a later entry of the wallet has a greater
	// id.
	ID int64 `json:"id"`
	// Type is what moved the money: top-up (money received, from the
	// provider, a parent agency or a payment channel), origin-flight,
	// origin-train (a booking paid), change-flight, change-train (a
	// change's price either way), refund-flight, refund-train, void-flight
	// (money back), group-deposit, group-payment (a group order's deposit
	// or final payment), group-forfeit (a deposit kept), channel-refund
	// (money sent back through the payment channel that took it, or its
	// return when the channel refused) or adjustment (a correction by the
	// provider).
	Type string `json:"type"`
	// Amount is the sum moved, in the wallet's (settlement) currency:
	// positive into the wallet, negative out of it.
	Amount money.Money `json:"amount"`
	// BalanceAfter is the wallet's balance just after this entry, in the
	// same currency; negative when the agency is using its credit.
	BalanceAfter money.Money `json:"balanceAfter"`
	// OrderID is the booking number of the order the money is for; empty
	// for a top-up or adjustment that concerns no order.
	OrderID string `json:"orderId"`
	// PaymentReference is the reference of the money's other side: the
	// bank or payment reference of a top-up, the payment channel's
	// reference, the booking's PNR or the train supplier's reference;
	// empty when there is none.
	PaymentReference string `json:"paymentReference"`
	// Description says in a few words what the entry is for, such as the
	// flight and route of a booking ("CA937 PEK-LHR"), "top-up" or
	// "service fee"; not translated.
	Description string `json:"description"`
	// Remark is the note written with the movement (a top-up's remark);
	// often empty.
	Remark string `json:"remark"`
	// PaidAt is when the money moved (RFC 3339, UTC).
	PaidAt time.Time `json:"paidAt"`
}

// WalletEntryOf is entry e as it is written out.
func WalletEntryOf(e Entry) WalletEntry {
	return WalletEntry{ID: e.ID, Type: e.Type, Amount: money.Of(e.Amount, e.Currency), BalanceAfter: money.Of(e.BalanceAfter, e.Currency),
		OrderID: e.OrderID, PaymentReference: e.Reference, Description: e.Description, Remark: e.Remark, PaidAt: e.PaidAt}
}

// StatementSummary is a statement of an agency's wallet as a list shows
// it: its period, balances and how many entries it holds.
type StatementSummary struct {
	// ID identifies the statement: GET /base/v2/statements/{id} reads it
	// (a sub-agency's, GET /base/v2/sub/statements/{agency}/{id}).
	ID int64 `json:"id"`
	// AgencyID is the agency whose wallet the statement covers.
	AgencyID int64 `json:"agencyId"`
	// From is the period's first day, YYYY-MM-DD in timeZone.
	From string `json:"from"`
	// To is the period's last day, inclusive, YYYY-MM-DD in timeZone.
	To string `json:"to"`
	// OpeningBalance is the wallet's balance at the start of the first
	// day, in the wallet's (settlement) currency.
	OpeningBalance money.Money `json:"openingBalance"`
	// ClosingBalance is the wallet's balance at the end of the last day
	// (for a provisional statement, when it was read): the opening balance
	// plus every entry's amount.
	ClosingBalance money.Money `json:"closingBalance"`
	// EntryCount is how many wallet entries the period holds.
	EntryCount int `json:"entryCount"`
	// CreatedAt is when the statement was made (RFC 3339, UTC).
	CreatedAt   time.Time `json:"createdAt"`
	TimeZone    string    `json:"timeZone" jsonschema_description:"the IANA zone whose days from and to are"`
	Provisional bool      `json:"provisional" jsonschema_description:"the period was not over when the statement was made: its figures run to the moment it is read, and are fixed once the period has ended"`
}

// StatementDetail is a statement of an agency's wallet with every entry of
// its period.
type StatementDetail struct {
	// ID identifies the statement: GET /base/v2/statements/{id} reads it
	// (a sub-agency's, GET /base/v2/sub/statements/{agency}/{id}).
	ID int64 `json:"id"`
	// AgencyID is the agency whose wallet the statement covers.
	AgencyID int64 `json:"agencyId"`
	// From is the period's first day, YYYY-MM-DD in timeZone.
	From string `json:"from"`
	// To is the period's last day, inclusive, YYYY-MM-DD in timeZone.
	To string `json:"to"`
	// OpeningBalance is the wallet's balance at the start of the first
	// day, in the wallet's (settlement) currency.
	OpeningBalance money.Money `json:"openingBalance"`
	// ClosingBalance is the wallet's balance at the end of the last day
	// (for a provisional statement, when it was read): the opening balance
	// plus every entry's amount.
	ClosingBalance money.Money `json:"closingBalance"`
	// Entries are the wallet's entries of the period, oldest first.
	Entries []WalletEntry `json:"entries"`
	// CreatedAt is when the statement was made (RFC 3339, UTC).
	CreatedAt   time.Time `json:"createdAt"`
	TimeZone    string    `json:"timeZone" jsonschema_description:"the IANA zone whose days from and to are (the agency's when the statement was made); UTC for statements made before statements had one"`
	Provisional bool      `json:"provisional" jsonschema_description:"the period was not over when the statement was made: its figures and entries run to the moment it is read, and are fixed once the period has ended"`
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
