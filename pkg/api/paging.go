package api

import (
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/webhook"
)

// page is one page of a list the API answers. Each kind of item keeps the
// schema name it was published under (pageSchemas).
type page[T any] struct {
	// Items are the entries of this page, in the list's order; empty past
	// the last page.
	Items []T `json:"items"`
	// Total is how many entries the whole list holds, over all pages.
	Total int `json:"total"`
	// Page is the 1-based number of this page.
	Page int `json:"page"`
	// PageSize is the most entries a page holds (default 20, at most 100).
	PageSize int `json:"pageSize"`
}

// The pages the API answers.
type (
	// AgencyPage is one page of the agency list.
	AgencyPage = page[agency.Summary]
	// StatementPage is one page of statements.
	StatementPage = page[StatementSummary]
	// TransactionPage is one page of transactions.
	TransactionPage = page[ledger.Transaction]
	// UserPage is one page of the user list.
	UserPage = page[ManagedUser]
	// UserLogPage is one page of the user log.
	UserLogPage = page[audit.Entry]
	// WalletEntryPage is one page of wallet entries.
	WalletEntryPage = page[WalletEntry]
	// WebhookDeliveryPage is one page of an agency's webhook delivery log.
	WebhookDeliveryPage = page[webhook.Delivery]
)
