package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/templates"
)

// Bills is what the transactions and statement pages need of pkg/ledger;
// *ledger.Ledger implements it.
type Bills interface {
	Transactions(ctx context.Context, agencyID int64, currency string, page, size int) ([]ledger.Transaction, int, error)
	CreateStatement(ctx context.Context, agencyID int64, currency, from, to, zone, createdBy string) (ledger.StatementInfo, ledger.Statement, error)
	Statements(ctx context.Context, agencyID int64, page, size int) ([]ledger.StatementInfo, int, error)
	StatementOf(ctx context.Context, agencyID, id int64) (ledger.StatementInfo, ledger.Statement, error)
}

const (
	billsPageSize = 20
	// subAgencyPage is how many managed agencies the sub-agency select
	// reads at a time.
	subAgencyPage = 100
)

// financeViewer is the caller of a bills page, whom the route's rule
// (Finance) has admitted; without the ledger the page answers 500.
func (s *Server) financeViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	return s.lineViewer(w, r, s.bills != nil)
}

// billViewer is the caller of a sub-agency's bills, whom the route's rule
// (AgencyBills, ManagesAgencies) has admitted.
func (s *Server) billViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	return s.lineViewer(w, r, s.manager != nil && s.bills != nil)
}

// ownAgency is the caller's agency: the one the guard loaded, else a fresh
// read.
func (s *Server) ownAgency(ctx context.Context, v viewer) (agency.Agency, error) {
	if v.Agency.ID != 0 && v.Agency.ID == v.Principal.AgencyID {
		return v.Agency, nil
	}
	if s.agencies == nil {
		return agency.Agency{}, fmt.Errorf("web: no agency store for agency %d", v.Principal.AgencyID)
	}
	return s.agencies.Get(ctx, v.Principal.AgencyID)
}

// callerAgency is the caller's agency (ownAgency); false once the answer
// is written.
func (s *Server) callerAgency(w http.ResponseWriter, r *http.Request, v viewer) (agency.Agency, bool) {
	a, err := s.ownAgency(r.Context(), v)
	if err != nil {
		slog.ErrorContext(r.Context(), "bills: agency", "err", err)
		s.ServerError(w, r)
	}
	return a, err == nil
}

// walletCurrency is the currency of a's wallet, as on the wallet page.
func walletCurrency(a agency.Agency, sub auth.Subject) string {
	switch {
	case a.SettlementCurrency != "":
		return a.SettlementCurrency
	case sub.Common.SettlementCurrency != "":
		return sub.Common.SettlementCurrency
	}
	return "CNY"
}

// pageNumber reads ?page=, at least 1.
func pageNumber(r *http.Request) int {
	n, _ := strconv.Atoi(r.URL.Query().Get("page"))
	return max(n, 1)
}

func (s *Server) billPage(w http.ResponseWriter, r *http.Request, route string) templates.Page {
	return s.page(w, r, route).WithStyles("/static/manager.css", "/static/bills.css")
}

// billTransactions is /bills/transactions: the payments received into the
// caller's wallet.
func (s *Server) billTransactions(w http.ResponseWriter, r *http.Request) {
	v, ok := s.financeViewer(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	a, ok := s.callerAgency(w, r, v)
	if !ok {
		return
	}
	currency := walletCurrency(a, v.Principal.Subject)
	page := pageNumber(r)
	items, total, err := s.bills.Transactions(ctx, v.Principal.AgencyID, currency, page, billsPageSize)
	if err != nil {
		slog.ErrorContext(ctx, "bills: transactions", "err", err)
		s.ServerError(w, r)
		return
	}
	view := templates.BillTransactions{Currency: currency, Pager: templates.NewPager(listURL(pathTransactions, nil), page, billsPageSize, total)}
	for _, t := range items {
		view.Items = append(view.Items, templates.BillTransactionRow{OriginalID: t.OriginalID, Reference: t.Reference, PaymentMethod: t.PaymentMethod,
			TotalPaid: withCurrency(t.Gross, t.GrossCurrency), Amount: withCurrency(t.Net, t.Currency), Fee: withCurrency(t.Fee, t.Currency),
			PaymentTime: t.PaymentTime, CreatedAt: t.CreatedAt})
	}
	render(w, r, http.StatusOK, templates.BillTransactionsPage(s.billPage(w, r, "bills-transactions"), view))
}

// withCurrency writes an API amount for display followed by its currency.
func withCurrency(amount, currency string) string {
	if currency == "" {
		return displayAmount(amount, currency)
	}
	return displayAmount(amount, currency) + " " + currency
}

// billStatements is /bills/statements: the create form and the caller's
// statements.
func (s *Server) billStatements(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.financeViewer(w, r); !ok {
		return
	}
	s.billStatementsAnswer(w, r, templates.StatementForm{}, http.StatusOK)
}

// statementFormFor fills a statement form for agency a: its days are on the
// agency's clock, which the form names, and a form not yet sent proposes
// this month so far on that clock.
func (s *Server) statementFormFor(f templates.StatementForm, a agency.Agency) templates.StatementForm {
	loc := display.ResolveZone("", a.TimeZone)
	now := s.now().In(loc)
	if f.From == "" && f.To == "" && len(f.Errors) == 0 && f.ErrorKey == "" {
		f.From = time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc).Format(time.DateOnly)
		f.To = now.Format(time.DateOnly)
	}
	f.Zone = display.ZoneDescription(loc, now)
	return f
}

func (s *Server) billStatementsAnswer(w http.ResponseWriter, r *http.Request, form templates.StatementForm, status int) {
	ctx := r.Context()
	v := viewerFrom(ctx)
	a, ok := s.callerAgency(w, r, v)
	if !ok {
		return
	}
	page := pageNumber(r)
	items, total, err := s.bills.Statements(ctx, v.Principal.AgencyID, page, billsPageSize)
	if err != nil {
		slog.ErrorContext(ctx, "bills: statements", "err", err)
		s.ServerError(w, r)
		return
	}
	view := templates.BillStatements{Currency: walletCurrency(a, v.Principal.Subject), Form: s.statementFormFor(form, a),
		Pager: templates.NewPager(listURL(pathStatements, nil), page, billsPageSize, total)}
	for _, i := range items {
		view.Items = append(view.Items, statementRow(i, templates.StatementHref(i.ID)))
	}
	render(w, r, status, templates.BillStatementsPage(s.billPage(w, r, "bills-statements"), view))
}

func statementRow(i ledger.StatementInfo, href string) templates.StatementRow {
	amt := func(minor int64) string { return formatMinor(money.Amount{Minor: minor, Currency: i.Currency}) }
	return templates.StatementRow{ID: i.ID, Href: href, From: i.FirstDay(), To: i.LastDay(),
		Currency: i.Currency, Opening: amt(i.Opening), Closing: amt(i.Closing), EntryCount: i.EntryCount, CreatedAt: i.CreatedAt}
}

func statementFormFrom(r *http.Request) templates.StatementForm {
	return templates.StatementForm{From: strings.TrimSpace(r.PostFormValue("from")), To: strings.TrimSpace(r.PostFormValue("to"))}
}

// billStatementCreate takes the create form; errors come back inline, a
// new statement opens its detail.
func (s *Server) billStatementCreate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.financeViewer(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	form := statementFormFrom(r)
	a, ok := s.callerAgency(w, r, v)
	if !ok {
		return
	}
	// The statement is the agency's: its days are on the agency's clock,
	// whatever zone the user reads the portal in.
	info, _, err := s.bills.CreateStatement(ctx, v.Principal.AgencyID, walletCurrency(a, v.Principal.Subject), form.From, form.To, a.TimeZone, v.Principal.Username)
	if err != nil {
		form.Errors, form.ErrorKey = formErrors(r.Context(), "bills: create statement", err)
		s.billStatementsAnswer(w, r, form, http.StatusOK)
		return
	}
	s.redirectWithFlash(w, r, templates.StatementHref(info.ID), createdFlash(info))
}

// statementOf loads statement id of agency a; another agency's statement
// answers the 404 page.
func (s *Server) statementOf(w http.ResponseWriter, r *http.Request, agencyID, id int64) (ledger.StatementInfo, ledger.Statement, bool) {
	info, st, err := s.bills.StatementOf(r.Context(), agencyID, id)
	if err != nil {
		s.lookupFailed(w, r, "bills: statement", err, "id", id)
		return info, st, false
	}
	return info, st, true
}

// ownStatement runs the checks of a statement of the caller's own: the
// permission, the statement's id and the caller's agency.
func (s *Server) ownStatement(w http.ResponseWriter, r *http.Request) (viewer, agency.Agency, int64, bool) {
	v, id, ok := s.withID(w, r, s.financeViewer)
	if !ok {
		return v, agency.Agency{}, 0, false
	}
	a, ok := s.callerAgency(w, r, v)
	return v, a, id, ok
}

// billStatement is /bills/statements/{id}: one of the caller's statements.
func (s *Server) billStatement(w http.ResponseWriter, r *http.Request) {
	v, a, id, ok := s.ownStatement(w, r)
	if !ok {
		return
	}
	info, st, ok := s.statementOf(w, r, v.Principal.AgencyID, id)
	if !ok {
		return
	}
	view := statementView(a, info, st, s.entryLabels(r.Context(), a.ID, st.Entries))
	view.Back = pathStatements
	view.ExportBase = fill(pathStatementExport, id)
	p := s.billPage(w, r, "bills-statements")
	p.Title = i18n.T(r.Context(), "bills.detail.title", "from", view.From, "to", view.To) + " · " + p.Title
	render(w, r, http.StatusOK, templates.StatementPage(p, view))
}

// statementView is a statement as its page shows it; labels are the
// entries' descriptions in the reader's language (entryLabels).
func statementView(a agency.Agency, info ledger.StatementInfo, st ledger.Statement, labels map[int64]string) templates.StatementView {
	amt := func(minor int64) string { return formatMinor(money.Amount{Minor: minor, Currency: info.Currency}) }
	view := templates.StatementView{ID: info.ID, AgencyName: a.Name, AgencyCode: a.Code, From: info.FirstDay(),
		To: info.LastDay(), Zone: display.ZoneOffset(info.Location(), info.To), Currency: info.Currency, Opening: amt(info.Opening), Closing: amt(info.Closing),
		EntryCount: info.EntryCount, CreatedBy: info.CreatedBy, CreatedAt: info.CreatedAt}
	if info.Until().Before(info.To) {
		view.Until = info.Until()
	}
	for _, e := range st.Entries {
		signed := amt(e.Amount)
		if e.Amount > 0 {
			signed = "+" + signed
		}
		view.Entries = append(view.Entries, templates.WalletRow{Type: e.Type, PaidAt: e.PaidAt, OrderID: e.OrderID, Reference: e.Reference,
			Amount: signed, Negative: e.Amount < 0, BalanceAfter: amt(e.BalanceAfter), Description: e.Description, Label: labels[e.ID], Remark: e.Remark})
	}
	return view
}

// billStatementExport downloads one of the caller's statements, the same
// document as the API's export.
func (s *Server) billStatementExport(w http.ResponseWriter, r *http.Request) {
	if _, a, id, ok := s.ownStatement(w, r); ok {
		s.exportStatement(w, r, a, id)
	}
}

// exportStatement writes statement id of agency a as CSV, XLSX or PDF in
// the request's language; an unknown format or another agency's statement
// is a 404.
func (s *Server) exportStatement(w http.ResponseWriter, r *http.Request, a agency.Agency, id int64) {
	src := docs.StatementSource{Statement: s.bills.StatementOf, Site: s.site.Get}
	if s.groupEntries != nil {
		src.Labels = s.groupEntries.EntryLabels
	}
	ctx := r.Context()
	format := r.URL.Query().Get("format")
	f, err := src.Export(ctx, a, id, format, i18n.Lang(ctx), func(key string, args ...any) string { return i18n.T(ctx, key, args...) })
	switch code := fault.From(err).Code; {
	case err == nil:
		_ = f.Serve(w)
	case code == fault.CodeNotFound, code == fault.CodeValidation:
		// Another agency's statement, or a format the page never links.
		s.NotFound(w, r)
	default:
		slog.ErrorContext(ctx, "bills: export", "id", id, "format", format, "err", err)
		s.ServerError(w, r)
	}
}

// subAgencies are the agencies the caller manages, for the select.
func (s *Server) subAgencies(ctx context.Context, actor auth.Principal) ([]templates.SubAgencyOption, error) {
	var out []templates.SubAgencyOption
	for page := 1; ; page++ {
		items, total, err := s.manager.ListAgencies(ctx, actor, agency.ListFilter{Page: page, PageSize: subAgencyPage})
		if err != nil {
			return nil, err
		}
		for _, a := range items {
			out = append(out, templates.SubAgencyOption{ID: a.ID, Name: a.Name, Code: a.Code})
		}
		if len(items) == 0 || len(out) >= total {
			return out, nil
		}
	}
}

// subAgencyParam reads a managed agency's id from the query or the form; 0
// when none was chosen.
func subAgencyParam(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, true
	}
	id, err := strconv.ParseInt(v, 10, 64)
	return id, err == nil && id > 0
}

// managed loads an agency the caller manages; another one answers the 404
// page.
func (s *Server) managed(w http.ResponseWriter, r *http.Request, v viewer, id int64) (agency.Agency, bool) {
	a, err := s.manager.Managed(r.Context(), v.Principal, id)
	if err != nil {
		s.lookupFailed(w, r, "bills: managed agency", err, "agency", id)
		return a, false
	}
	return a, true
}

// subStatements is /agency-manager/statements: choose a managed agency, see
// and create its statements.
func (s *Server) subStatements(w http.ResponseWriter, r *http.Request) {
	v, ok := s.billViewer(w, r)
	if !ok {
		return
	}
	id, ok := subAgencyParam(r.URL.Query().Get("agency"))
	if !ok {
		s.NotFound(w, r)
		return
	}
	s.subStatementsAnswer(w, r, v, id, templates.StatementForm{})
}

func (s *Server) subStatementsAnswer(w http.ResponseWriter, r *http.Request, v viewer, id int64, form templates.StatementForm) {
	ctx := r.Context()
	opts, err := s.subAgencies(ctx, v.Principal)
	if err != nil {
		slog.ErrorContext(ctx, "bills: sub-agencies", "err", err)
		s.ServerError(w, r)
		return
	}
	view := templates.SubStatements{Agencies: opts, Form: form}
	if id != 0 {
		a, ok := s.managed(w, r, v, id)
		if !ok {
			return
		}
		view.Chosen = templates.SubAgencyOption{ID: a.ID, Name: a.Name, Code: a.Code}
		view.Form = s.statementFormFor(form, a)
		view.Currency = a.SettlementCurrency
		page := pageNumber(r)
		items, total, err := s.bills.Statements(ctx, a.ID, page, billsPageSize)
		if err != nil {
			slog.ErrorContext(ctx, "bills: sub statements", "err", err)
			s.ServerError(w, r)
			return
		}
		view.Pager = templates.NewPager(subStatementsHref(a.ID), page, billsPageSize, total)
		for _, i := range items {
			view.Items = append(view.Items, statementRow(i, templates.SubBillHref(a.ID, i.ID)))
		}
	}
	render(w, r, http.StatusOK, templates.SubStatementsPage(s.billPage(w, r, "agency-manager-statements"), view))
}

// subStatementCreate creates a managed agency's statement and goes back to
// its list.
func (s *Server) subStatementCreate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.billViewer(w, r)
	if !ok {
		return
	}
	id, ok := subAgencyParam(r.PostFormValue("agency"))
	if !ok || id == 0 {
		s.NotFound(w, r)
		return
	}
	a, ok := s.managed(w, r, v, id)
	if !ok {
		return
	}
	form := statementFormFrom(r)
	currency := a.SettlementCurrency
	if currency == "" {
		currency = "CNY"
	}
	info, _, err := s.bills.CreateStatement(r.Context(), a.ID, currency, form.From, form.To, a.TimeZone, v.Principal.Username)
	if err != nil {
		form.Errors, form.ErrorKey = formErrors(r.Context(), "bills: create sub statement", err)
		s.subStatementsAnswer(w, r, v, a.ID, form)
		return
	}
	s.redirectWithFlash(w, r, subStatementsHref(a.ID), createdFlash(info))
}

// createdFlash says what asking for a statement did: made it, or found
// the period's statement already there (one period, one statement).
func createdFlash(info ledger.StatementInfo) templates.Flash {
	if info.Existing {
		return templates.Flash{Kind: "info", Key: "bills.exists"}
	}
	return templates.Flash{Kind: "success", Key: "bills.created"}
}

// subBillAgency runs the bill detail's checks: the permission, a managed
// agency from ?agency= and the statement's id.
func (s *Server) subBillAgency(w http.ResponseWriter, r *http.Request) (agency.Agency, int64, bool) {
	v, id, ok := s.withID(w, r, s.billViewer)
	if !ok {
		return agency.Agency{}, 0, false
	}
	aid, ok := subAgencyParam(r.URL.Query().Get("agency"))
	if !ok || aid == 0 {
		s.NotFound(w, r)
		return agency.Agency{}, 0, false
	}
	a, ok := s.managed(w, r, v, aid)
	return a, id, ok
}

// subBill is /agency-manager/bills/{id}?agency=: a managed agency's
// statement with its entries.
func (s *Server) subBill(w http.ResponseWriter, r *http.Request) {
	a, id, ok := s.subBillAgency(w, r)
	if !ok {
		return
	}
	info, st, ok := s.statementOf(w, r, a.ID, id)
	if !ok {
		return
	}
	view := statementView(a, info, st, s.entryLabels(r.Context(), a.ID, st.Entries))
	view.Sub = true
	view.Back = subStatementsHref(a.ID)
	view.ExportBase = listURL(fill(pathSubBillExport, id), agencyQuery(a.ID))
	p := s.billPage(w, r, "agency-manager-bills-id")
	p.Title = a.Name + " · " + p.Title
	render(w, r, http.StatusOK, templates.StatementPage(p, view))
}

// agencyQuery names a managed agency in a sub-agency page's query.
func agencyQuery(id int64) url.Values { return url.Values{"agency": {strconv.FormatInt(id, 10)}} }

// subStatementsHref is the sub-agency statements page of agency id.
func subStatementsHref(id int64) string { return listURL(pathSubStatements, agencyQuery(id)) }

// subBillExport downloads a managed agency's bill.
func (s *Server) subBillExport(w http.ResponseWriter, r *http.Request) {
	a, id, ok := s.subBillAgency(w, r)
	if !ok {
		return
	}
	s.exportStatement(w, r, a, id)
}
