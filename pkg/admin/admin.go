// Package admin is what a network manager (the provider's admins and
// finance staff) does from a terminal: the operations behind the admin CLI
// and the TUI, as one interface with two ways to reach the data: in-process
// on the server's database (Local) or through the agency API with an API key
// (Remote). Both answer with the same types, so the commands print the same
// thing either way.
package admin

import (
	"context"
	"io"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/train"
)

// Backend is the admin operations. Every agency id is one the caller
// manages; anything else is not found.
type Backend interface {
	Agencies(ctx context.Context, f agency.ListFilter) (AgencyPage, error)
	Agency(ctx context.Context, id int64) (agency.Detail, error)
	CreateAgency(ctx context.Context, req agency.CreateRequest) (agency.Detail, error)
	UpdateAgency(ctx context.Context, id int64, p agency.Profile) (agency.Detail, error)
	SetAgencyStatus(ctx context.Context, id int64, status string) (agency.Detail, error)
	// SetAgencyConfig replaces the agency's config (PUT .../config): send
	// back what Agency answered with only the changes.
	SetAgencyConfig(ctx context.Context, id int64, c agency.Config) (agency.Detail, error)

	PreviewCredit(ctx context.Context, id int64, r agency.CreditRequest) (agency.CreditPlan, error)
	SetCredit(ctx context.Context, id int64, r agency.CreditRequest) (agency.Summary, error)
	// PreviewFunds and AddFunds take the idempotency key in t.
	PreviewFunds(ctx context.Context, id int64, t ledger.TopUp) (agency.FundsPlan, error)
	AddFunds(ctx context.Context, id int64, t ledger.TopUp) (ledger.TopUpResult, error)
	// Entries is a page of the agency's wallet entries, newest first.
	Entries(ctx context.Context, id int64, page, pageSize int) (WalletEntryPage, error)

	APIKeys(ctx context.Context, id int64) ([]auth.APIKey, error)
	CreateAPIKey(ctx context.Context, id int64, name string, roles []string) (auth.NewAPIKey, error)
	RevokeAPIKey(ctx context.Context, id, keyID int64) error
	ResetSuperAdminPassword(ctx context.Context, id int64, password string) error

	Users(ctx context.Context, id int64, f auth.UserFilter) (UserPage, error)
	CreateUser(ctx context.Context, id int64, req CreateUserRequest) (ManagedUser, error)
	DisableUser(ctx context.Context, id, userID int64) (ManagedUser, error)
	// EnableUser makes an inactive user active again (in-process only:
	// the agency API has no route for it).
	EnableUser(ctx context.Context, id, userID int64) (ManagedUser, error)

	Rates(ctx context.Context) ([]siteinfo.Rate, error)
	// RateHistory is a currency's rates, newest first; none is not found.
	RateHistory(ctx context.Context, currency string, limit int) ([]siteinfo.Rate, error)
	// SetRate sets a currency's rate and answers its history, newest first.
	SetRate(ctx context.Context, currency, rate string) ([]siteinfo.Rate, error)

	// CreateStatement makes the agency's statement for the inclusive days
	// from–to (YYYY-MM-DD).
	CreateStatement(ctx context.Context, agencyID int64, from, to string) (StatementDetail, error)
	// Statements is a page of the agency's statements, newest first.
	Statements(ctx context.Context, agencyID int64, page, pageSize int) (StatementPage, error)
	// ExportStatement writes a statement as csv, xlsx or pdf in lang.
	ExportStatement(ctx context.Context, w io.Writer, agencyID, statementID int64, format, lang string) error

	Orders(ctx context.Context, f flight.Filter) (flight.Page, error)
	Order(ctx context.Context, id int64) (flight.View, error)
	Review(ctx context.Context, id int64, r flight.ReviewRequest) (flight.View, error)

	// Groups lists group orders (status "" or "all" for every one);
	// GroupQueue the requests waiting for a quote, oldest first.
	Groups(ctx context.Context, f group.Filter) (group.Page, error)
	GroupQueue(ctx context.Context, page, pageSize int) (group.Page, error)
	Group(ctx context.Context, id int64) (group.View, error)
	QuoteGroup(ctx context.Context, id int64, q group.QuoteInput) (group.View, error)
	GroupSeats(ctx context.Context, id int64, s group.SeatsInput) (group.View, error)

	// Train orders (pkg/train): the list, one order, and the provider's
	// manual ticket confirmation.
	TrainOrders(ctx context.Context, f train.Filter) (train.Page, error)
	TrainOrder(ctx context.Context, id int64) (train.View, error)
	ConfirmTrainTickets(ctx context.Context, id int64, r train.ConfirmTicketsRequest) (train.View, error)

	// StuckJobs lists the background jobs that need a look: running past
	// their timeout, retryable after a failure, or discarded.
	StuckJobs(ctx context.Context) ([]jobs.Job, error)
	// RetryJob runs a stuck job again now.
	RetryJob(ctx context.Context, id int64) (jobs.Job, error)
	// RetryStuckJobs runs every stuck job again and answers them.
	RetryStuckJobs(ctx context.Context) ([]jobs.Job, error)

	// Actor names who the operations run as, for the people at the
	// terminal.
	Actor() string
	Close() error
}
