package admin

import (
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
)

// The terminal's own view types: what the CLI prints and the TUI shows of
// the lists, entries, statements and users the Backend answers. They are
// pkg/admin's, not the API handler package's (ARCHITECTURE.md): Local
// builds them from the services' domain types, Remote decodes the agency
// API's JSON into them, so their JSON names are the API's (API.md) and the
// CLI's `-o json` prints what the API answers.

// Money is an amount as a decimal string and its currency, as the API
// writes it (money.Money).
type Money = money.Money

// Page is one page of a list, as the API answers every list.
type Page[T any] struct {
	Items    []T `json:"items"`
	Total    int `json:"total"`
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
}

// pageOf is page (of size) of total items, each of rows seen through of.
func pageOf[R, T any](rows []R, of func(R) T, total, page, size int) Page[T] {
	out := Page[T]{Items: make([]T, 0, len(rows)), Total: total, Page: page, PageSize: size}
	for _, r := range rows {
		out.Items = append(out.Items, of(r))
	}
	return out
}

// AgencyPage is one page of the agencies the caller manages.
type AgencyPage = Page[agency.Summary]

// WalletEntry is one movement of an agency's wallet.
type WalletEntry struct {
	ID               int64     `json:"id"`
	Type             string    `json:"type"`
	Amount           Money     `json:"amount"`
	BalanceAfter     Money     `json:"balanceAfter"`
	OrderID          string    `json:"orderId"`
	PaymentReference string    `json:"paymentReference"`
	Description      string    `json:"description"`
	Remark           string    `json:"remark"`
	PaidAt           time.Time `json:"paidAt"`
}

// WalletEntryPage is one page of wallet entries, newest first.
type WalletEntryPage = Page[WalletEntry]

func walletEntryOf(e ledger.Entry) WalletEntry {
	return WalletEntry{ID: e.ID, Type: e.Type, Amount: money.Of(e.Amount, e.Currency), BalanceAfter: money.Of(e.BalanceAfter, e.Currency),
		OrderID: e.OrderID, PaymentReference: e.Reference, Description: e.Description, Remark: e.Remark, PaidAt: e.PaidAt}
}

// StatementSummary is a statement in a list: its period (From and To
// inclusive, YYYY-MM-DD), balances and how many entries it holds.
type StatementSummary struct {
	ID             int64     `json:"id"`
	AgencyID       int64     `json:"agencyId"`
	From           string    `json:"from"`
	To             string    `json:"to"`
	OpeningBalance Money     `json:"openingBalance"`
	ClosingBalance Money     `json:"closingBalance"`
	EntryCount     int       `json:"entryCount"`
	CreatedAt      time.Time `json:"createdAt"`
	TimeZone       string    `json:"timeZone"` // whose days From and To are
}

// StatementDetail is a statement with every entry.
type StatementDetail struct {
	ID             int64         `json:"id"`
	AgencyID       int64         `json:"agencyId"`
	From           string        `json:"from"`
	To             string        `json:"to"`
	OpeningBalance Money         `json:"openingBalance"`
	ClosingBalance Money         `json:"closingBalance"`
	Entries        []WalletEntry `json:"entries"`
	CreatedAt      time.Time     `json:"createdAt"`
	TimeZone       string        `json:"timeZone"` // whose days From and To are
}

// Summary is the statement as a list shows it.
func (d StatementDetail) Summary() StatementSummary {
	return StatementSummary{ID: d.ID, AgencyID: d.AgencyID, From: d.From, To: d.To, OpeningBalance: d.OpeningBalance,
		ClosingBalance: d.ClosingBalance, EntryCount: len(d.Entries), CreatedAt: d.CreatedAt, TimeZone: d.TimeZone}
}

// StatementPage is one page of an agency's statements, newest first.
type StatementPage = Page[StatementSummary]

func statementSummaryOf(i ledger.StatementInfo) StatementSummary {
	return StatementSummary{ID: i.ID, AgencyID: i.AgencyID, From: i.FirstDay(), To: i.LastDay(),
		OpeningBalance: money.Of(i.Opening, i.Currency), ClosingBalance: money.Of(i.Closing, i.Currency), EntryCount: i.EntryCount, CreatedAt: i.CreatedAt,
		TimeZone: i.Location().String()}
}

func statementDetailOf(i ledger.StatementInfo, st ledger.Statement) StatementDetail {
	d := StatementDetail{ID: i.ID, AgencyID: i.AgencyID, From: i.FirstDay(), To: i.LastDay(),
		OpeningBalance: money.Of(i.Opening, i.Currency), ClosingBalance: money.Of(i.Closing, i.Currency), Entries: []WalletEntry{}, CreatedAt: i.CreatedAt,
		TimeZone: i.Location().String()}
	for _, e := range st.Entries {
		d.Entries = append(d.Entries, walletEntryOf(e))
	}
	return d
}

// ManagedUser is a user of a managed agency.
type ManagedUser struct {
	ID           int64     `json:"id"`
	AgencyID     int64     `json:"agencyId"`
	IsSuperAdmin bool      `json:"isSuperAdmin"`
	Username     string    `json:"username"`
	Email        string    `json:"email"`
	Nickname     string    `json:"nickname"`
	Mobile       string    `json:"mobile"`
	AreaCode     string    `json:"areaCode"`
	Role         []string  `json:"role"`
	Status       string    `json:"status"`
	CreatedAt    time.Time `json:"createdAt"`
}

func managedUserOf(u auth.User) ManagedUser {
	return ManagedUser{ID: u.ID, AgencyID: u.AgencyID, IsSuperAdmin: u.IsSuperAdmin, Username: u.Username, Email: u.Email,
		Nickname: u.Nickname, Mobile: u.Mobile, AreaCode: u.AreaCode, Role: u.Roles(), Status: u.Status, CreatedAt: u.CreatedAt}
}

// UserPage is one page of an agency's users.
type UserPage = Page[ManagedUser]

// CreateUserRequest is a new user of a managed agency.
type CreateUserRequest struct {
	Username string   `json:"username"`
	Email    string   `json:"email"`
	Nickname string   `json:"nickname"`
	Mobile   string   `json:"mobile"`
	AreaCode string   `json:"areaCode"`
	Role     []string `json:"role"`
	Status   string   `json:"status"`
	Password string   `json:"password"`
}

// NewUser is the request as the auth service takes it.
func (req CreateUserRequest) NewUser() auth.NewUser {
	return auth.NewUser{Username: req.Username, Email: req.Email, Nickname: req.Nickname,
		Mobile: req.Mobile, AreaCode: req.AreaCode, Roles: req.Role, Status: req.Status, Password: req.Password}
}
