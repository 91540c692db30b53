package admin

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// Local runs the operations in-process on the server's own database, as
// the provider's super user.
type Local struct {
	App   *app.App
	actor auth.Principal
	meta  auth.Meta
	// last is the statement CreateStatement made, which an export usually
	// writes next: kept so that it is not read twice.
	last struct {
		sync.Mutex
		agency agency.Agency
		info   ledger.StatementInfo
		st     ledger.Statement
	}
}

// OpenLocal opens the application on cfg's database and acts as the
// provider, by the name who (the user log shows "cli:<who>").
func OpenLocal(ctx context.Context, cfg config.Config, who string) (*Local, error) {
	a, err := app.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	l, err := NewLocal(ctx, a, who)
	if err != nil {
		a.Close()
		return nil, err
	}
	return l, nil
}

// NewLocal acts as the provider on an open application; closing the Local
// closes a.
func NewLocal(ctx context.Context, a *app.App, who string) (*Local, error) {
	provider, err := a.Agencies.Provider(ctx)
	if err != nil {
		return nil, fmt.Errorf("no provider agency in this database: %w", err)
	}
	return &Local{App: a, meta: auth.Meta{IP: "cli"}, actor: auth.Principal{AgencyID: provider.ID, Username: "cli:" + who,
		Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 0}}}, nil
}

// read is ctx for a read whose answer carries names in a language (a
// booking's airports and airlines): English, as the remote backend asks the
// API for them, so that both write the same data out.
func (l *Local) read(ctx context.Context) context.Context {
	return i18n.WithLocalizer(ctx, l.App.Catalog, "en")
}

// Actor is the name the user log records.
func (l *Local) Actor() string { return l.actor.Username }

// Close closes the application.
func (l *Local) Close() error { return l.App.Close() }

func (l *Local) Agencies(ctx context.Context, f agency.ListFilter) (AgencyPage, error) {
	f.Page, f.PageSize = auth.ClampPage(f.Page, f.PageSize)
	items, total, err := l.App.AgencyAdmin.List(ctx, l.actor, f)
	if err != nil {
		return AgencyPage{}, err
	}
	return AgencyPage{Items: items, Total: total, Page: f.Page, PageSize: f.PageSize}, nil
}

func (l *Local) Agency(ctx context.Context, id int64) (agency.Detail, error) {
	return l.App.AgencyAdmin.Get(ctx, l.actor, id, l.App.Auth.APIKeys)
}

func (l *Local) CreateAgency(ctx context.Context, req agency.CreateRequest) (agency.Detail, error) {
	a, err := l.App.AgencyAdmin.Create(ctx, l.actor, req)
	if err != nil {
		return agency.Detail{}, err
	}
	return l.Agency(ctx, a.ID)
}

func (l *Local) UpdateAgency(ctx context.Context, id int64, p agency.Profile) (agency.Detail, error) {
	if _, err := l.App.AgencyAdmin.Update(ctx, l.actor, id, p); err != nil {
		return agency.Detail{}, err
	}
	return l.Agency(ctx, id)
}

func (l *Local) SetAgencyStatus(ctx context.Context, id int64, status string) (agency.Detail, error) {
	if _, err := l.App.AgencyAdmin.SetStatus(ctx, l.actor, id, status); err != nil {
		return agency.Detail{}, err
	}
	return l.Agency(ctx, id)
}

func (l *Local) SetAgencyConfig(ctx context.Context, id int64, c agency.Config) (agency.Detail, error) {
	if _, _, err := l.App.AgencyAdmin.SetConfig(ctx, l.actor, id, c); err != nil {
		return agency.Detail{}, err
	}
	return l.Agency(ctx, id)
}

func (l *Local) PreviewCredit(ctx context.Context, id int64, r agency.CreditRequest) (agency.CreditPlan, error) {
	return l.App.AgencyAdmin.PreviewCredit(ctx, l.actor, id, r)
}

func (l *Local) SetCredit(ctx context.Context, id int64, r agency.CreditRequest) (agency.Summary, error) {
	return l.App.AgencyAdmin.SetCredit(ctx, l.actor, id, r)
}

func (l *Local) PreviewFunds(ctx context.Context, id int64, t ledger.TopUp) (agency.FundsPlan, error) {
	return l.App.AgencyAdmin.PreviewFunds(ctx, l.actor, id, t)
}

func (l *Local) AddFunds(ctx context.Context, id int64, t ledger.TopUp) (ledger.TopUpResult, error) {
	return l.App.AgencyAdmin.AddFunds(ctx, l.actor, id, t, l.App.Catalog)
}

func (l *Local) Entries(ctx context.Context, id int64, page, pageSize int) (WalletEntryPage, error) {
	a, err := l.App.AgencyAdmin.Managed(ctx, l.actor, id)
	if err != nil {
		return WalletEntryPage{}, err
	}
	page, pageSize = auth.ClampPage(page, pageSize)
	entries, total, err := l.App.Ledger.Entries(ctx, a.ID, ledger.EntryFilter{Currency: a.SettlementCurrency, Page: page, PageSize: pageSize})
	if err != nil {
		return WalletEntryPage{}, err
	}
	return pageOf(entries, ledger.WalletEntryOf, total, page, pageSize), nil
}

func (l *Local) APIKeys(ctx context.Context, id int64) ([]auth.APIKey, error) {
	if _, err := l.App.AgencyAdmin.Managed(ctx, l.actor, id); err != nil {
		return nil, err
	}
	return l.App.Auth.APIKeys(ctx, id)
}

func (l *Local) CreateAPIKey(ctx context.Context, id int64, name string, roles []string) (auth.NewAPIKey, error) {
	if _, err := l.App.AgencyAdmin.Managed(ctx, l.actor, id); err != nil {
		return auth.NewAPIKey{}, err
	}
	return l.App.Auth.CreateAPIKey(ctx, id, name, roles, 0)
}

// CreateProviderAPIKey makes a key of the provider itself: what remote mode
// and scripts use. Only in-process: no API key can mint its own agency's.
func (l *Local) CreateProviderAPIKey(ctx context.Context, name string, roles []string) (auth.NewAPIKey, error) {
	return l.App.Auth.CreateAPIKey(ctx, l.actor.AgencyID, name, roles, 0)
}

func (l *Local) RevokeAPIKey(ctx context.Context, id, keyID int64) error {
	if _, err := l.App.AgencyAdmin.Managed(ctx, l.actor, id); err != nil {
		return err
	}
	return l.App.Auth.RevokeAPIKey(ctx, id, keyID)
}

func (l *Local) ResetSuperAdminPassword(ctx context.Context, id int64, password string) error {
	return l.App.Auth.ResetSuperAdminPassword(ctx, l.actor, id, password, l.meta)
}

func (l *Local) Users(ctx context.Context, id int64, f auth.UserFilter) (UserPage, error) {
	if _, err := l.App.AgencyAdmin.Managed(ctx, l.actor, id); err != nil {
		return UserPage{}, err
	}
	f.Page, f.PageSize = auth.ClampPage(f.Page, f.PageSize)
	users, total, err := l.App.Auth.ListUsers(ctx, id, f)
	if err != nil {
		return UserPage{}, err
	}
	return pageOf(users, auth.ManagedUserOf, total, f.Page, f.PageSize), nil
}

// asSuperAdmin is the principal the provider manages agency id's users
// with.
func (l *Local) asSuperAdmin(ctx context.Context, id int64) (auth.Principal, error) {
	a, err := l.App.AgencyAdmin.Managed(ctx, l.actor, id)
	if err != nil {
		return auth.Principal{}, err
	}
	return l.App.Auth.ActAsSuperAdmin(ctx, a.ID, auth.Subject{ProxyLevel: a.ProxyLevel, Common: a.Common()}, l.actor.Username)
}

// asUserAdmin does change to a user of agency id as its super admin, and
// answers the user as changed.
func (l *Local) asUserAdmin(ctx context.Context, id int64, change func(actor auth.Principal) (auth.User, error)) (ManagedUser, error) {
	actor, err := l.asSuperAdmin(ctx, id)
	if err != nil {
		return ManagedUser{}, err
	}
	u, err := change(actor)
	if err != nil {
		return ManagedUser{}, err
	}
	return auth.ManagedUserOf(u), nil
}

func (l *Local) CreateUser(ctx context.Context, id int64, req CreateUserRequest) (ManagedUser, error) {
	return l.asUserAdmin(ctx, id, func(actor auth.Principal) (auth.User, error) {
		return l.App.Auth.CreateUserIn(ctx, actor, req.NewUser(), l.meta)
	})
}

// EnableUser makes an inactive user of agency id active again.
func (l *Local) EnableUser(ctx context.Context, id, userID int64) (ManagedUser, error) {
	return l.asUserAdmin(ctx, id, func(actor auth.Principal) (auth.User, error) {
		return l.App.Auth.SetUserStatus(ctx, actor, userID, auth.StatusActive, l.meta)
	})
}

func (l *Local) DisableUser(ctx context.Context, id, userID int64) (ManagedUser, error) {
	return l.asUserAdmin(ctx, id, func(actor auth.Principal) (auth.User, error) {
		return l.App.Auth.DeactivateUser(ctx, actor, userID, l.meta)
	})
}

func (l *Local) Rates(ctx context.Context) ([]siteinfo.Rate, error) { return l.App.Site.Rates(ctx) }

func (l *Local) RateHistory(ctx context.Context, currency string, limit int) ([]siteinfo.Rate, error) {
	return l.App.Site.History(ctx, currency, limit)
}

func (l *Local) SetRate(ctx context.Context, currency, rate string) ([]siteinfo.Rate, error) {
	cur, d, err := siteinfo.ParseRate(currency, rate)
	if err != nil {
		return nil, err
	}
	if err := l.App.Site.SetRate(ctx, cur, d, l.actor.Username); err != nil {
		return nil, err
	}
	return l.App.Site.RateHistory(ctx, cur, 10)
}

func (l *Local) CreateStatement(ctx context.Context, agencyID int64, from, to string) (StatementDetail, error) {
	a, err := l.App.AgencyAdmin.Managed(ctx, l.actor, agencyID)
	if err != nil {
		return StatementDetail{}, err
	}
	info, st, err := l.App.Ledger.CreateStatement(ctx, a.ID, a.SettlementCurrency, from, to, a.TimeZone, l.actor.Username)
	if err != nil {
		return StatementDetail{}, err
	}
	l.last.Lock()
	l.last.agency, l.last.info, l.last.st = a, info, st
	l.last.Unlock()
	return ledger.StatementDetailOf(info, st), nil
}

func (l *Local) Statements(ctx context.Context, agencyID int64, page, pageSize int) (StatementPage, error) {
	a, err := l.App.AgencyAdmin.Managed(ctx, l.actor, agencyID)
	if err != nil {
		return StatementPage{}, err
	}
	page, pageSize = auth.ClampPage(page, pageSize)
	items, total, err := l.App.Ledger.Statements(ctx, a.ID, page, pageSize)
	if err != nil {
		return StatementPage{}, err
	}
	return pageOf(items, ledger.StatementSummaryOf, total, page, pageSize), nil
}

func (l *Local) ExportStatement(ctx context.Context, w io.Writer, agencyID, statementID int64, format, lang string) error {
	l.last.Lock()
	a, info, st := l.last.agency, l.last.info, l.last.st
	l.last.Unlock()
	src := docs.StatementSource{Statement: l.App.Ledger.StatementOf, Site: l.App.Site.Get}
	if info.ID == statementID && a.ID == agencyID {
		// The statement just created: no need to read it again.
		src.Statement = func(context.Context, int64, int64) (ledger.StatementInfo, ledger.Statement, error) {
			return info, st, nil
		}
	} else {
		var err error
		if a, err = l.App.AgencyAdmin.Managed(ctx, l.actor, agencyID); err != nil {
			return err
		}
	}
	if l.App.Groups != nil {
		src.Labels = l.App.Groups.EntryLabels
	}
	f, err := src.Export(ctx, a, statementID, format, lang, func(key string, args ...any) string { return l.App.Catalog.T(lang, key, args...) })
	if err != nil {
		return err
	}
	_, err = w.Write(f.Body)
	return err
}

func (l *Local) Orders(ctx context.Context, f flight.Filter) (flight.Page, error) {
	return l.App.Orders.List(ctx, l.actor, f)
}

func (l *Local) Order(ctx context.Context, id int64) (flight.View, error) {
	return l.App.Orders.Get(l.read(ctx), l.actor, id)
}

func (l *Local) Review(ctx context.Context, id int64, r flight.ReviewRequest) (flight.View, error) {
	return l.App.Orders.Review(ctx, l.actor, id, r)
}

var _ Backend = (*Local)(nil)

func (l *Local) StuckJobs(ctx context.Context) ([]jobs.Job, error) { return l.App.Queue.Stuck(ctx) }

func (l *Local) RetryJob(ctx context.Context, id int64) (jobs.Job, error) {
	return l.App.Queue.Retry(ctx, id)
}

func (l *Local) RetryStuckJobs(ctx context.Context) ([]jobs.Job, error) {
	return l.App.Queue.RetryStuck(ctx)
}
