package api

import (
	"context"
	"net/http"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
)

// actAsSuperAdmin is the principal the caller manages agency id's users
// with: that agency's super admin account, the caller's name on the log.
func (s Services) actAsSuperAdmin(r *http.Request, id int64) (auth.Principal, error) {
	a, err := s.AgencyService.Managed(r.Context(), Principal(r), id)
	if err != nil {
		return auth.Principal{}, err
	}
	return s.Auth.ActAsSuperAdmin(r.Context(), a.ID, auth.Subject{ProxyLevel: a.ProxyLevel, Common: a.Common()}, Principal(r).Username)
}

// inManagedAgency answers with step on the agency named by the path's
// {id}, if the caller manages it.
func (s Services) inManagedAgency(step func(*http.Request, agency.Agency) (any, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		a, err := s.AgencyService.Managed(r.Context(), Principal(r), id)
		if err != nil {
			return nil, err
		}
		return step(r, a)
	}
}

// registerManaged adds what an agency manager (the provider, a parent
// agency) does inside a managed agency beyond its profile: dry runs of the
// money moves, its wallet entries and its users. The admin CLI's remote
// mode and TUI use them.
func registerManaged(rt *Router, s Services) {
	rt.Handle("POST /base/v2/agencies/{id}/credit/preview", manager(Operation{
		ID: "previewAgencyCredit", Reads: true,
		Summary: "Dry run of setting a managed agency's credit: the same checks, the figures before and after, nothing changed",
		Request: agency.CreditRequest{}, Response: agency.CreditPlan{},
	}), onIDWith(s.AgencyService.PreviewCredit))

	rt.Handle("POST /base/v2/agencies/{id}/balance/preview", manager(Operation{
		ID: "previewAgencyFunds", Reads: true,
		Summary: "Dry run of a top-up (Idempotency-Key header as for the real one): the figures it would post and whether the key was used, nothing posted",
		Request: ledger.TopUp{}, Response: agency.FundsPlan{}, Idempotency: IdempotencyRequired,
	}), onIDKeyed(func(ctx context.Context, p auth.Principal, id int64, key string, req ledger.TopUp) (agency.FundsPlan, error) {
		req.IdempotencyKey = key
		return s.AgencyService.PreviewFunds(ctx, p, id, req)
	}))

	rt.Handle("GET /base/v2/agencies/{id}/wallet/entries", manager(Operation{
		ID:       "listAgencyWalletEntries",
		Summary:  "A managed agency's wallet entries (settlement currency), newest first",
		Response: WalletEntryPage{}, Query: walletEntriesQuery,
	}), s.inManagedAgency(func(r *http.Request, a agency.Agency) (any, error) {
		return s.walletEntries(r, a)
	}))

	rt.Handle("GET /base/v2/agencies/{id}/users", manager(Operation{
		ID:       "listAgencyUsers",
		Summary:  "A managed agency's users, oldest first",
		Response: UserPage{}, Query: usersQuery,
	}), s.inManagedAgency(func(r *http.Request, a agency.Agency) (any, error) {
		return s.userPage(r, a.ID)
	}))

	rt.Handle("POST /base/v2/agencies/{id}/users", manager(Operation{
		ID: "createAgencyUser", Status: http.StatusCreated, SelfAudited: true,
		Summary: "Create a user in a managed agency, as its super admin would",
		Request: CreateUserRequest{}, Response: ManagedUser{},
	}), func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, req, err := idAndBody[CreateUserRequest](r, false)
		if err != nil {
			return nil, err
		}
		actor, err := s.actAsSuperAdmin(r, id)
		if err != nil {
			return nil, err
		}
		return managedUser(s.Auth.CreateUserIn(r.Context(), actor, req.NewUser(), Meta(r)))
	})

	rt.Handle("POST /base/v2/agencies/{id}/users/{user}/deactivate", manager(Operation{
		ID: "deactivateAgencyUser", SelfAudited: true,
		Summary:  "Make a managed agency's user inactive and end their sessions (not its super admin)",
		Response: ManagedUser{},
	}), func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		userID, err := PathID(r, "user")
		if err != nil {
			return nil, err
		}
		actor, err := s.actAsSuperAdmin(r, id)
		if err != nil {
			return nil, err
		}
		return managedUser(s.Auth.DeactivateUser(r.Context(), actor, userID, Meta(r)))
	})
}
