package api

import (
	"context"
	"net/http"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
)

// Money is an amount as the API writes it (money.Money).
type Money = money.Money

// WalletEntry is one line of GET /base/v2/wallet/entries (ledger.WalletEntry).
type WalletEntry = ledger.WalletEntry

// ConfigAnswer is the agency after a config change; Notice carries the
// spec's settlement-currency message when the currency changed.
type ConfigAnswer struct {
	// Agency is the agency after the change, as GET
	// /base/v2/agencies/{id} answers it.
	Agency agency.Detail `json:"agency"`
	// Notice is a message, in the request's language, that the settlement
	// currency changed; absent when it did not.
	Notice string `json:"notice,omitempty"`
}

// APIKeyRequest is POST /base/v2/agencies/{id}/apikey.
type APIKeyRequest struct {
	// Name is a label for the key, to tell it apart in the key list;
	// optional.
	Name  string   `json:"name"`
	Roles []string `json:"roles" jsonschema_description:"roles the key acts with; default operator and finance"`
}

// StatusRequest is PUT /base/v2/agencies/{id}/status.
type StatusRequest struct {
	// Status is the agency's new status: blocked stops its users and API
	// keys from logging in; active lets them again.
	Status string `json:"status" jsonschema:"enum=active,enum=blocked"`
}

// Wallet is GET /base/v2/wallet.
type Wallet struct {
	// Balance is the wallet's balance in the agency's settlement currency;
	// negative while the agency spends on credit.
	Balance Money `json:"balance"`
	// CreditLimit is the credit the agency may spend beyond its balance;
	// zero when it has none.
	CreditLimit Money `json:"creditLimit"`
	// Available is what the agency can still spend: balance plus
	// creditLimit. A payment above it fails with 300001.
	Available Money `json:"available"`
}

// WalletEntriesOf is a page of ledger entries as the API writes it.
func WalletEntriesOf(entries []ledger.Entry, total, page, size int) WalletEntryPage {
	out := WalletEntryPage{Items: make([]WalletEntry, 0, len(entries)), Total: total, Page: page, PageSize: size}
	for _, e := range entries {
		out.Items = append(out.Items, ledger.WalletEntryOf(e))
	}
	return out
}

// walletEntries is a page of agency a's wallet entries filtered by the
// request's query.
func (s Services) walletEntries(r *http.Request, a agency.Agency) (WalletEntryPage, error) {
	// The wallet is agency a's: its days are a's.
	errs := map[string]string{}
	from, to := dayFilter(r, display.ResolveZone("", a.TimeZone), "user.error.logDate", errs)
	if len(errs) > 0 {
		return WalletEntryPage{}, fault.Validation(errs)
	}
	page, size := pageFromQuery(r)
	entries, total, err := s.Ledger.Entries(r.Context(), a.ID, ledger.EntryFilter{Currency: a.SettlementCurrency, Type: r.URL.Query().Get("type"),
		OrderID: r.URL.Query().Get("orderId"), From: from, To: to, Page: page, PageSize: size})
	if err != nil {
		return WalletEntryPage{}, err
	}
	s.inReadersLanguage(r.Context(), a.ID, entries)
	return WalletEntriesOf(entries, total, page, size), nil
}

func (s Services) agencyDetail(ctx context.Context, p auth.Principal, id int64) (agency.Detail, error) {
	return s.AgencyService.Get(ctx, p, id, s.Auth.APIKeys)
}

// managed loads an agency the caller manages (anything else is not found)
// and names it on the request's audit log.
func (s Services) managed(ctx context.Context, p auth.Principal, id int64) (agency.Agency, error) {
	a, err := s.AgencyService.Managed(ctx, p, id)
	if err == nil {
		audit.Note(ctx, "agency", a.Name)
	}
	return a, err
}

// wallet is agency a's wallet in its settlement currency.
func (s Services) wallet(ctx context.Context, a agency.Agency) (Wallet, error) {
	b, err := s.Ledger.WalletBalance(ctx, a.ID, a.SettlementCurrency)
	if err != nil {
		return Wallet{}, err
	}
	return Wallet{Balance: money.Of(b.Balance, b.Currency), CreditLimit: money.Of(b.CreditLimit, b.Currency), Available: money.Of(b.Available(), b.Currency)}, nil
}

// manager is the Operation of a route on an agency the caller manages (the
// provider, a parent agency): finance may, and an agency it does not
// manage is not found.
func manager(op Operation) Operation {
	op.Tag, op.Role, op.Allow = "agencies", auth.RoleFinance, auth.Subject.ManagesAgencies
	op.Errors = append(op.Errors, fault.CodeNotFound)
	return op
}

var walletEntriesQuery = append([]Param{{Name: "type", Type: "string", Description: "payment type: top-up, origin-flight, origin-train, refund-flight, change-flight, void-flight, refund-train, change-train"},
	{Name: "orderId", Type: "string", Description: "only the entries of this booking number"}, {Name: "from", Type: "string", Description: "YYYY-MM-DD, a day on the clock of the wallet's agency (its timeZone setting)"},
	{Name: "to", Type: "string", Description: "YYYY-MM-DD, inclusive, a day on the clock of the wallet's agency"}}, pagingParams...)

func registerAgencies(rt *Router, s Services) {
	rt.Handle("GET /base/v2/agencies", Operation{
		ID: "listAgencies", Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary:  "Agencies the caller manages (the provider: all; a parent: its sub-agencies)",
		Response: AgencyPage{},
		Query:    append([]Param{{Name: "keyword", Type: "string", Description: "name, alias, code or contact email"}, {Name: "status", Type: "string", Description: "active or blocked", Enum: []string{"active", "blocked"}}}, pagingParams...),
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		page, size := pageFromQuery(r)
		items, total, err := s.AgencyService.List(r.Context(), Principal(r), agency.ListFilter{
			Keyword: r.URL.Query().Get("keyword"), Status: r.URL.Query().Get("status"), Page: page, PageSize: size})
		if err != nil {
			return nil, err
		}
		return AgencyPage{Items: items, Total: total, Page: page, PageSize: size}, nil
	})

	rt.Handle("POST /base/v2/agencies", Operation{
		ID: "createAgency", SelfAudited: true, Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies, Status: http.StatusCreated,
		Summary: "Create a sub-agency with its super admin (unique code generated)",
		Request: agency.CreateRequest{}, Response: agency.Detail{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req agency.CreateRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		a, err := s.AgencyService.Create(r.Context(), Principal(r), req)
		if err != nil {
			return nil, err
		}
		return s.agencyDetail(r.Context(), Principal(r), a.ID)
	})

	rt.Handle("GET /base/v2/agencies/{id}", manager(Operation{
		ID: "getAgency", Summary: "A managed agency: profile, settings, balance, credit, look-to-book and API keys", Response: agency.Detail{},
	}), onID(s.agencyDetail))

	rt.Handle("PUT /base/v2/agencies/{id}", manager(Operation{
		ID: "updateAgency", SelfAudited: true,
		Summary: "Update a managed agency's profile", Request: agency.Profile{}, Response: agency.Detail{},
	}), onIDWith(func(ctx context.Context, p auth.Principal, id int64, req agency.Profile) (agency.Detail, error) {
		if _, err := s.AgencyService.Update(ctx, p, id, req); err != nil {
			return agency.Detail{}, err
		}
		return s.agencyDetail(ctx, p, id)
	}))

	rt.Handle("DELETE /base/v2/agencies/{id}", manager(Operation{
		ID: "deleteAgency", SelfAudited: true,
		Summary: "Delete a managed agency (refused while it has sub-agencies, wallet history or orders)",
		Errors:  []int{fault.CodeConflict},
	}), onID(func(ctx context.Context, p auth.Principal, id int64) (any, error) {
		return nil, s.AgencyService.Delete(ctx, p, id)
	}))

	rt.Handle("PUT /base/v2/agencies/{id}/config", manager(Operation{
		ID: "setAgencyConfig", SelfAudited: true,
		Summary: "Set a managed agency's settings, flight settings (markups, service fees, filters) and train settings",
		Request: agency.Config{}, Response: ConfigAnswer{},
	}), onIDWith(func(ctx context.Context, p auth.Principal, id int64, req agency.Config) (ConfigAnswer, error) {
		_, changed, err := s.AgencyService.SetConfig(ctx, p, id, req)
		if err != nil {
			return ConfigAnswer{}, err
		}
		d, err := s.agencyDetail(ctx, p, id)
		if err != nil {
			return ConfigAnswer{}, err
		}
		ans := ConfigAnswer{Agency: d}
		if changed {
			ans.Notice = i18n.T(ctx, agency.SettlementCurrencyChanged)
		}
		return ans, nil
	}))

	rt.Handle("PUT /base/v2/agencies/{id}/credit", manager(Operation{
		ID: "setAgencyCredit", SelfAudited: true,
		Summary: "Set a managed agency's credit limit (settlement currency) and credit period",
		Request: agency.CreditRequest{}, Response: agency.Summary{},
	}), onIDWith(s.AgencyService.SetCredit))

	rt.Handle("POST /base/v2/agencies/{id}/balance", manager(Operation{
		ID: "addAgencyFunds", SelfAudited: true,
		Summary: "Add funds (top-up) to a managed agency's wallet; requires an Idempotency-Key header",
		Request: ledger.TopUp{}, Response: ledger.TopUpResult{}, Idempotency: IdempotencyRequired,
		Errors: []int{fault.CodeConflict},
	}), onIDKeyed(func(ctx context.Context, p auth.Principal, id int64, key string, req ledger.TopUp) (ledger.TopUpResult, error) {
		req.IdempotencyKey = key
		return s.AgencyService.AddFunds(ctx, p, id, req, s.Catalog)
	}))

	rt.Handle("POST /base/v2/agencies/{id}/apikey", manager(Operation{
		ID: "createAgencyAPIKey", Status: http.StatusCreated,
		Summary: "Generate an API key for a managed agency; the key is in this answer only",
		Request: APIKeyRequest{}, Response: auth.NewAPIKey{},
	}), onIDWith(func(ctx context.Context, p auth.Principal, id int64, req APIKeyRequest) (auth.NewAPIKey, error) {
		if _, err := s.managed(ctx, p, id); err != nil {
			return auth.NewAPIKey{}, err
		}
		return s.Auth.CreateAPIKey(ctx, id, req.Name, req.Roles, p.UserID)
	}))

	rt.Handle("GET /base/v2/agencies/{id}/apikeys", manager(Operation{
		ID: "listAgencyAPIKeys", Summary: "A managed agency's API keys (prefixes only, never the keys)", Response: []auth.APIKey{},
	}), onID(func(ctx context.Context, p auth.Principal, id int64) ([]auth.APIKey, error) {
		if _, err := s.AgencyService.Managed(ctx, p, id); err != nil {
			return nil, err
		}
		return s.Auth.APIKeys(ctx, id)
	}))

	rt.Handle("DELETE /base/v2/agencies/{id}/apikeys/{key}", manager(Operation{
		ID: "revokeAgencyAPIKey", Summary: "Revoke a managed agency's API key at once",
	}), func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		keyID, err := PathID(r, "key")
		if err != nil {
			return nil, err
		}
		if _, err := s.managed(r.Context(), Principal(r), id); err != nil {
			return nil, err
		}
		return nil, s.Auth.RevokeAPIKey(r.Context(), id, keyID)
	})

	rt.Handle("PUT /base/v2/agencies/{id}/status", manager(Operation{
		ID: "setAgencyStatus", SelfAudited: true,
		Summary: "Block or unblock a managed agency (a blocked agency's users and keys cannot log in)",
		Request: StatusRequest{}, Response: agency.Detail{},
	}), onIDWith(func(ctx context.Context, p auth.Principal, id int64, req StatusRequest) (agency.Detail, error) {
		if _, err := s.AgencyService.SetStatus(ctx, p, id, req.Status); err != nil {
			return agency.Detail{}, err
		}
		return s.agencyDetail(ctx, p, id)
	}))

	rt.Handle("GET /base/v2/wallet", Operation{
		ID: "getWallet", Tag: "wallet", Allow: auth.Subject.CanAccessFinance,
		Summary: "The caller's wallet in its settlement currency: balance, credit limit and what is available", Response: Wallet{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return nil, err
		}
		return s.wallet(r.Context(), a)
	})

	rt.Handle("GET /base/v2/wallet/entries", Operation{
		ID: "listWalletEntries", Tag: "wallet", Allow: auth.Subject.CanAccessFinance,
		Summary:  "The caller's wallet entries, newest first",
		Response: WalletEntryPage{},
		Query:    walletEntriesQuery,
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return nil, err
		}
		return s.walletEntries(r, a)
	})
}
