package admin

import (
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
)

// The terminal's view types: what the CLI prints and the TUI shows of the
// lists, entries, statements and users the Backend answers. None is the API
// handler package's (ARCHITECTURE.md): the entries, statements and users
// are the owning packages' written-out views (pkg/ledger, pkg/auth), the
// same the API answers; Local builds them from the services' domain types,
// Remote decodes the agency API's JSON into them, so the CLI's `-o json`
// prints what the API answers.

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

// WalletEntry, StatementSummary and StatementDetail are the wallet's
// entries and statements as the API writes them (pkg/ledger's views).
type (
	WalletEntry      = ledger.WalletEntry
	StatementSummary = ledger.StatementSummary
	StatementDetail  = ledger.StatementDetail
)

// ManagedUser and CreateUserRequest are a user of a managed agency as the
// API writes it and takes it (pkg/auth's views).
type (
	ManagedUser       = auth.ManagedUser
	CreateUserRequest = auth.CreateUserRequest
)

// WalletEntryPage is one page of wallet entries, newest first.
type WalletEntryPage = Page[WalletEntry]

// StatementPage is one page of an agency's statements, newest first.
type StatementPage = Page[StatementSummary]

// UserPage is one page of an agency's users.
type UserPage = Page[ManagedUser]
