package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// StatementRequest is POST /base/v2/statements (and, with agencyId, the
// sub-agency form under /base/v2/sub/statements). Dates are YYYY-MM-DD, both
// inclusive, days on the clock of the statement's agency.
type StatementRequest struct {
	AgencyID int64  `json:"agencyId,omitempty" jsonschema_description:"sub-agency (only under /sub/statements)"`
	From     string `json:"from" jsonschema:"required,format=date" jsonschema_description:"first day, YYYY-MM-DD, from 00:00 on the clock of the statement's agency (its timeZone setting)"`
	To       string `json:"to" jsonschema:"required,format=date" jsonschema_description:"last day, YYYY-MM-DD, inclusive: to 24:00 on the clock of the statement's agency"`
}

// StatementDetail and StatementSummary are the ledger's statements as
// written out (ledger.StatementDetail).
type (
	StatementDetail  = ledger.StatementDetail
	StatementSummary = ledger.StatementSummary
)

// RateRequest sets a rate: what one unit of the currency is worth in the
// default currency.
type RateRequest struct {
	// Rate is what one unit of the currency is worth in the site's default
	// currency, a positive decimal string (e.g. "7.1234" for USD against
	// CNY).
	Rate string `json:"rate"`
}

// createStatement makes a statement for agency a.
func (s Services) createStatement(r *http.Request, a agency.Agency, req StatementRequest) (StatementDetail, error) {
	info, st, err := s.Ledger.CreateStatementOnce(r.Context(), r.Header.Get("Idempotency-Key"), a.ID, a.SettlementCurrency, req.From, req.To,
		a.TimeZone, Principal(r).Username)
	if err != nil {
		return StatementDetail{}, err
	}
	s.inReadersLanguage(r.Context(), a.ID, st.Entries)
	return ledger.StatementDetailOf(info, st), nil
}

func (s Services) listStatements(r *http.Request, agencyID int64) (StatementPage, error) {
	page, size := pageFromQuery(r)
	items, total, err := s.Ledger.Statements(r.Context(), agencyID, page, size)
	if err != nil {
		return StatementPage{}, err
	}
	out := StatementPage{Items: make([]StatementSummary, 0, len(items)), Total: total, Page: page, PageSize: size}
	for _, i := range items {
		out.Items = append(out.Items, ledger.StatementSummaryOf(i))
	}
	return out, nil
}

// subAgency loads a sub-agency the caller manages; anything else is not
// found.
func (s Services) subAgency(r *http.Request, id int64) (agency.Agency, error) {
	return s.managed(r.Context(), Principal(r), id)
}

// subStatement reads a sub-agency's statement path ({agency}/{id}): the
// agency the caller manages and the statement's id.
func (s Services) subStatement(r *http.Request) (agency.Agency, int64, error) {
	aid, err := PathID(r, "agency")
	if err != nil {
		return agency.Agency{}, 0, err
	}
	id, err := PathID(r, "id")
	if err != nil {
		return agency.Agency{}, 0, err
	}
	a, err := s.subAgency(r, aid)
	return a, id, err
}

// statement is one of agency agencyID's statements with its entries.
func (s Services) statement(ctx context.Context, agencyID, id int64) (StatementDetail, error) {
	info, st, err := s.Ledger.StatementOf(ctx, agencyID, id)
	if err != nil {
		return StatementDetail{}, err
	}
	s.inReadersLanguage(ctx, agencyID, st.Entries)
	return ledger.StatementDetailOf(info, st), nil
}

func (s Services) exportStatement(w http.ResponseWriter, r *http.Request, a agency.Agency, id int64) error {
	src := docs.StatementSource{Statement: s.Ledger.StatementOf, Site: s.Site.Get}
	if s.Groups != nil {
		src.Labels = s.Groups.EntryLabels
	}
	ctx := r.Context()
	f, err := src.Export(ctx, a, id, r.URL.Query().Get("format"), i18n.Lang(ctx), func(key string, args ...any) string { return i18n.T(ctx, key, args...) })
	if err != nil {
		return err
	}
	return f.Serve(w)
}

func registerStatements(rt *Router, s Services) {
	finance := auth.Subject.CanAccessFinance
	exportQuery := []Param{{Name: "format", Type: "string", Required: true, Description: "csv, xlsx or pdf", Enum: docs.Formats}}
	exportTypes := []string{docs.ContentType(docs.CSV), docs.ContentType(docs.XLSX), docs.ContentType(docs.PDF)}

	rt.Handle("POST /base/v2/statements", Operation{
		ID: "createStatement", Tag: "statements", Allow: finance, Status: http.StatusCreated, Idempotency: IdempotencyOptional,
		Summary: "Create a statement of the caller's wallet for a date range: opening balance, every entry, closing balance " +
			"(Idempotency-Key recommended: a retry with the key answers the first statement)",
		Request: StatementRequest{}, Response: StatementDetail{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req StatementRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return nil, err
		}
		return s.createStatement(r, a, req)
	})

	rt.Handle("GET /base/v2/statements", Operation{
		ID: "listStatements", Tag: "statements", Allow: finance,
		Summary: "The caller's statements, newest first", Response: StatementPage{}, Query: pagingParams,
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.listStatements(r, Principal(r).AgencyID)
	})

	rt.Handle("GET /base/v2/statements/{id}", Operation{
		ID: "getStatement", Tag: "statements", Allow: finance,
		Summary: "One of the caller's statements with its entries", Response: StatementDetail{}, Errors: []int{fault.CodeNotFound},
	}, onID(func(ctx context.Context, p auth.Principal, id int64) (StatementDetail, error) {
		return s.statement(ctx, p.AgencyID, id)
	}))

	rt.HandleRaw("GET /base/v2/statements/{id}/export", Operation{
		ID: "exportStatement", Tag: "statements", Allow: finance, Query: exportQuery,
		Summary: "Download one of the caller's statements as CSV, XLSX or PDF (in the request's language)", Errors: []int{fault.CodeNotFound},
		Produces: exportTypes,
	}, func(w http.ResponseWriter, r *http.Request) error {
		id, err := PathID(r, "id")
		if err != nil {
			return err
		}
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return err
		}
		return s.exportStatement(w, r, a, id)
	})

	// Sub-agency statements and bills: the parent (or the provider) reads
	// the wallets of the agencies it manages; the bill detail needs the
	// agencybills:read permission (spec §6).
	subPerm := func(sub auth.Subject) bool {
		return sub.ManagesAgencies() && sub.HasPermission(auth.PermAgencyBillsRead)
	}

	rt.Handle("GET /base/v2/sub/statements", Operation{
		ID: "listSubStatements", Tag: "statements", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "Statements of a managed sub-agency", Response: StatementPage{},
		Query:  append([]Param{{Name: "agencyId", Type: "integer", Required: true, Description: "the sub-agency whose statements to list"}}, pagingParams...),
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := strconv.ParseInt(r.URL.Query().Get("agencyId"), 10, 64)
		if err != nil {
			return nil, fault.NotFound("")
		}
		a, err := s.subAgency(r, id)
		if err != nil {
			return nil, err
		}
		return s.listStatements(r, a.ID)
	})

	rt.Handle("POST /base/v2/sub/statements", Operation{
		ID: "createSubStatement", Tag: "statements", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies, Status: http.StatusCreated,
		Idempotency: IdempotencyOptional,
		Summary:     "Create a statement of a managed sub-agency's wallet (Idempotency-Key recommended: a retry with the key answers the first statement)",
		Request:     StatementRequest{}, Response: StatementDetail{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req StatementRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		a, err := s.subAgency(r, req.AgencyID)
		if err != nil {
			return nil, err
		}
		return s.createStatement(r, a, req)
	})

	rt.Handle("GET /base/v2/sub/statements/{agency}/{id}", Operation{
		ID: "getSubStatement", Tag: "statements", Role: auth.RoleFinance, Allow: subPerm,
		Summary: "A managed sub-agency's statement (bill detail) with its entries; needs agencybills:read", Response: StatementDetail{},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		a, id, err := s.subStatement(r)
		if err != nil {
			return nil, err
		}
		return s.statement(r.Context(), a.ID, id)
	})

	rt.HandleRaw("GET /base/v2/sub/statements/{agency}/{id}/export", Operation{
		ID: "exportSubStatement", Tag: "statements", Role: auth.RoleFinance, Allow: subPerm, Query: exportQuery,
		Summary: "Download a managed sub-agency's statement as CSV, XLSX or PDF", Errors: []int{fault.CodeNotFound},
		Produces: exportTypes,
	}, func(w http.ResponseWriter, r *http.Request) error {
		a, id, err := s.subStatement(r)
		if err != nil {
			return err
		}
		return s.exportStatement(w, r, a, id)
	})

	rt.Handle("GET /base/v2/sub/balance/{id}", Operation{
		ID: "getSubBalance", Tag: "statements", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary: "A managed sub-agency's wallet: balance, credit limit and available", Response: Wallet{},
		Errors: []int{fault.CodeNotFound},
	}, onID(func(ctx context.Context, p auth.Principal, id int64) (Wallet, error) {
		a, err := s.managed(ctx, p, id)
		if err != nil {
			return Wallet{}, err
		}
		return s.wallet(ctx, a)
	}))

	rt.Handle("GET /base/v2/transactions", Operation{
		ID: "listTransactions", Tag: "wallet", Allow: finance,
		Summary: "Payments received into the caller's wallet (All Transactions)", Response: TransactionPage{}, Query: pagingParams,
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return nil, err
		}
		page, size := pageFromQuery(r)
		items, total, err := s.Ledger.Transactions(r.Context(), a.ID, a.SettlementCurrency, page, size)
		if err != nil {
			return nil, err
		}
		return TransactionPage{Items: items, Total: total, Page: page, PageSize: size}, nil
	})

	rt.Handle("GET /base/v2/exchangeRates", Operation{
		ID: "listExchangeRates", Tag: "site",
		Summary:  "Exchange rates in force: what one unit of each currency is worth in the default currency; with currency=X, that rate's history",
		Response: []siteinfo.Rate{},
		Query: []Param{{Name: "currency", Type: "string", Description: "a currency: its history, newest first"},
			{Name: "limit", Type: "integer", Description: "history entries, 1–100; default 100"}},
		Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		if cur := r.URL.Query().Get("currency"); cur != "" {
			limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
			return s.Site.History(r.Context(), cur, limit)
		}
		return s.Site.Rates(r.Context())
	})

	rt.Handle("PUT /base/v2/exchangeRates/{currency}", Operation{
		ID: "setExchangeRate", Tag: "site", Role: auth.RoleSuperUser,
		Allow:   auth.Subject.IsProvider,
		Summary: "Set a currency's rate (provider only); the previous rate stays in the history", Request: RateRequest{},
		Response: []siteinfo.Rate{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		cur := r.PathValue("currency")
		var req RateRequest
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		cur, rate, err := siteinfo.ParseRate(cur, req.Rate)
		if err != nil {
			return nil, err
		}
		audit.Note(r.Context(), "currency", cur)
		if err := s.Site.SetRate(r.Context(), cur, rate, "api:"+Principal(r).Username); err != nil {
			return nil, err
		}
		return s.Site.RateHistory(r.Context(), cur, 10)
	})
}
