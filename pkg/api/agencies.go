package api

import (
	"net/http"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
)

// Money is an amount as the API writes it (API.md): a decimal string and
// its currency.
type Money struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

func moneyOf(minor int64, currency string) Money {
	return Money{Amount: money.Amount{Minor: minor, Currency: currency}.String(), Currency: currency}
}

// AgencyPage is one page of the agency list.
type AgencyPage struct {
	Items    []agency.Summary `json:"items"`
	Total    int              `json:"total"`
	Page     int              `json:"page"`
	PageSize int              `json:"pageSize"`
}

// ConfigAnswer is the agency after a config change; Notice carries the
// spec's settlement-currency message when the currency changed.
type ConfigAnswer struct {
	Agency agency.Detail `json:"agency"`
	Notice string        `json:"notice,omitempty"`
}

// APIKeyRequest is POST /base/v2/agencies/{id}/apikey.
type APIKeyRequest struct {
	Name  string   `json:"name"`
	Roles []string `json:"roles" jsonschema_description:"roles the key acts with; default operator and finance"`
}

// StatusRequest is PUT /base/v2/agencies/{id}/status.
type StatusRequest struct {
	Status string `json:"status" jsonschema:"enum=active,enum=blocked"`
}

// Wallet is GET /base/v2/wallet.
type Wallet struct {
	Balance     Money `json:"balance"`
	CreditLimit Money `json:"creditLimit"`
	Available   Money `json:"available"`
}

// WalletEntry is one line of GET /base/v2/wallet/entries.
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

// WalletEntryPage is one page of wallet entries.
type WalletEntryPage struct {
	Items    []WalletEntry `json:"items"`
	Total    int           `json:"total"`
	Page     int           `json:"page"`
	PageSize int           `json:"pageSize"`
}

// WalletEntriesOf is a page of ledger entries as the API writes it.
func WalletEntriesOf(entries []ledger.Entry, total, page, size int) WalletEntryPage {
	out := WalletEntryPage{Items: make([]WalletEntry, 0, len(entries)), Total: total, Page: page, PageSize: size}
	for _, e := range entries {
		out.Items = append(out.Items, walletEntryOf(e))
	}
	return out
}

func walletEntryOf(e ledger.Entry) WalletEntry {
	return WalletEntry{ID: e.ID, Type: e.Type, Amount: moneyOf(e.Amount, e.Currency), BalanceAfter: moneyOf(e.BalanceAfter, e.Currency),
		OrderID: e.OrderID, PaymentReference: e.Reference, Description: e.Description, Remark: e.Remark, PaidAt: e.PaidAt}
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
	return WalletEntriesOf(entries, total, page, size), nil
}

func (s Services) detail(r *http.Request, id int64) (agency.Detail, error) {
	return s.AgencyService.Get(r.Context(), Principal(r), id, s.Auth.APIKeys)
}

var walletEntriesQuery = append([]Param{{Name: "type", Type: "string", Description: "payment type: top-up, origin-flight, origin-train, refund-flight, change-flight, void-flight, refund-train, change-train"},
	{Name: "orderId", Type: "string"}, {Name: "from", Type: "string", Description: "YYYY-MM-DD, a day on the clock of the wallet's agency (its timeZone setting)"},
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
		return s.detail(r, a.ID)
	})

	rt.Handle("GET /base/v2/agencies/{id}", Operation{
		ID: "getAgency", Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "A managed agency: profile, settings, balance, credit, look-to-book and API keys", Response: agency.Detail{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		return s.detail(r, id)
	})

	rt.Handle("PUT /base/v2/agencies/{id}", Operation{
		ID: "updateAgency", SelfAudited: true, Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Update a managed agency's profile", Request: agency.Profile{}, Response: agency.Detail{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		var req agency.Profile
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		if _, err := s.AgencyService.Update(r.Context(), Principal(r), id, req); err != nil {
			return nil, err
		}
		return s.detail(r, id)
	})

	rt.Handle("DELETE /base/v2/agencies/{id}", Operation{
		ID: "deleteAgency", SelfAudited: true, Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Delete a managed agency (refused while it has sub-agencies, wallet history or orders)",
		Errors:  []int{fault.CodeNotFound, fault.CodeConflict},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		return nil, s.AgencyService.Delete(r.Context(), Principal(r), id)
	})

	rt.Handle("PUT /base/v2/agencies/{id}/config", Operation{
		ID: "setAgencyConfig", SelfAudited: true, Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Set a managed agency's settings, flight settings (markups, service fees, filters) and train settings",
		Request: agency.Config{}, Response: ConfigAnswer{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		var req agency.Config
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		_, changed, err := s.AgencyService.SetConfig(r.Context(), Principal(r), id, req)
		if err != nil {
			return nil, err
		}
		d, err := s.detail(r, id)
		if err != nil {
			return nil, err
		}
		ans := ConfigAnswer{Agency: d}
		if changed {
			ans.Notice = i18n.T(r.Context(), agency.SettlementCurrencyChanged)
		}
		return ans, nil
	})

	rt.Handle("PUT /base/v2/agencies/{id}/credit", Operation{
		ID: "setAgencyCredit", SelfAudited: true, Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Set a managed agency's credit limit (settlement currency) and credit period",
		Request: agency.CreditRequest{}, Response: agency.Summary{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		var req agency.CreditRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return s.AgencyService.SetCredit(r.Context(), Principal(r), id, req)
	})

	rt.Handle("POST /base/v2/agencies/{id}/balance", Operation{
		ID: "addAgencyFunds", SelfAudited: true, Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Add funds (top-up) to a managed agency's wallet; requires an Idempotency-Key header",
		Request: ledger.TopUp{}, Response: ledger.TopUpResult{}, Idempotency: IdempotencyRequired,
		Errors: []int{fault.CodeNotFound, fault.CodeConflict},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		var req ledger.TopUp
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		req.IdempotencyKey = r.Header.Get("Idempotency-Key")
		return s.AgencyService.AddFunds(r.Context(), Principal(r), id, req, s.Catalog)
	})

	rt.Handle("POST /base/v2/agencies/{id}/apikey", Operation{
		ID: "createAgencyAPIKey", Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies, Status: http.StatusCreated,
		Summary: "Generate an API key for a managed agency; the key is in this answer only",
		Request: APIKeyRequest{}, Response: auth.NewAPIKey{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		a, err := s.AgencyService.Managed(r.Context(), Principal(r), id)
		if err != nil {
			return nil, err
		}
		audit.Note(r.Context(), "agency", a.Name)
		var req APIKeyRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return s.Auth.CreateAPIKey(r.Context(), id, req.Name, req.Roles, Principal(r).UserID)
	})

	rt.Handle("GET /base/v2/agencies/{id}/apikeys", Operation{
		ID: "listAgencyAPIKeys", Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "A managed agency's API keys (prefixes only, never the keys)", Response: []auth.APIKey{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		if _, err := s.AgencyService.Managed(r.Context(), Principal(r), id); err != nil {
			return nil, err
		}
		return s.Auth.APIKeys(r.Context(), id)
	})

	rt.Handle("DELETE /base/v2/agencies/{id}/apikeys/{key}", Operation{
		ID: "revokeAgencyAPIKey", Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Revoke a managed agency's API key at once", Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		keyID, err := PathID(r, "key")
		if err != nil {
			return nil, err
		}
		a, err := s.AgencyService.Managed(r.Context(), Principal(r), id)
		if err != nil {
			return nil, err
		}
		audit.Note(r.Context(), "agency", a.Name)
		return nil, s.Auth.RevokeAPIKey(r.Context(), id, keyID)
	})

	rt.Handle("PUT /base/v2/agencies/{id}/status", Operation{
		ID: "setAgencyStatus", SelfAudited: true, Tag: "agencies", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Block or unblock a managed agency (a blocked agency's users and keys cannot log in)",
		Request: StatusRequest{}, Response: agency.Detail{}, Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return nil, err
		}
		var req StatusRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		if _, err := s.AgencyService.SetStatus(r.Context(), Principal(r), id, req.Status); err != nil {
			return nil, err
		}
		return s.detail(r, id)
	})

	rt.Handle("GET /base/v2/wallet", Operation{
		ID: "getWallet", Tag: "wallet", Allow: auth.Subject.CanAccessFinance,
		Summary: "The caller's wallet in its settlement currency: balance, credit limit and what is available", Response: Wallet{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return nil, err
		}
		b, err := s.Ledger.WalletBalance(r.Context(), a.ID, a.SettlementCurrency)
		if err != nil {
			return nil, err
		}
		return Wallet{Balance: moneyOf(b.Balance, b.Currency), CreditLimit: moneyOf(b.CreditLimit, b.Currency), Available: moneyOf(b.Available(), b.Currency)}, nil
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
