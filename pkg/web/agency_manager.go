package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/webhook"
	"github.com/voyage/voyage/templates"
)

// AgencyManager is what the agency manager pages need of pkg/agency;
// *agency.Service implements it.
type AgencyManager interface {
	List(ctx context.Context, actor auth.Principal, f agency.ListFilter) ([]agency.Summary, int, error)
	ListAgencies(ctx context.Context, actor auth.Principal, f agency.ListFilter) ([]agency.Agency, int, error)
	Create(ctx context.Context, actor auth.Principal, r agency.CreateRequest) (agency.Agency, error)
	Update(ctx context.Context, actor auth.Principal, id int64, p agency.Profile) (agency.Agency, error)
	SetConfig(ctx context.Context, actor auth.Principal, id int64, c agency.Config) (agency.Agency, bool, error)
	SetCredit(ctx context.Context, actor auth.Principal, id int64, r agency.CreditRequest) (agency.Summary, error)
	SetStatus(ctx context.Context, actor auth.Principal, id int64, status string) (agency.Agency, error)
	Delete(ctx context.Context, actor auth.Principal, id int64) error
	Get(ctx context.Context, actor auth.Principal, id int64, keys func(context.Context, int64) ([]auth.APIKey, error)) (agency.Detail, error)
	Managed(ctx context.Context, actor auth.Principal, id int64) (agency.Agency, error)
	AddFunds(ctx context.Context, actor auth.Principal, id int64, t ledger.TopUp, cat *i18n.Catalog) (ledger.TopUpResult, error)
}

// AgencyKeys is what the agency manager needs of pkg/auth: API keys and the
// super admin's password; *auth.Service implements it.
type AgencyKeys interface {
	CreateAPIKey(ctx context.Context, agencyID int64, name string, roles []string, createdBy int64) (auth.NewAPIKey, error)
	APIKeys(ctx context.Context, agencyID int64) ([]auth.APIKey, error)
	ResetSuperAdminPassword(ctx context.Context, actor auth.Principal, agencyID int64, password string, m auth.Meta) error
}

// Webhooks is what the agency manager's Notifications section needs of
// pkg/webhook; *webhook.Service implements it.
type Webhooks interface {
	Deliveries(ctx context.Context, agencyID int64, page, pageSize int) ([]webhook.Delivery, int, error)
	Redeliver(ctx context.Context, agencyID, deliveryID int64) (webhook.Delivery, error)
	MaskedSecret(ctx context.Context, agencyID int64) (string, error)
	RotateSecret(ctx context.Context, agencyID int64) (string, error)
}

const managerPageSize = 20

// webhookLogSize is how many deliveries the agency's page lists; the API
// pages through all of them.
const webhookLogSize = 10

// managerViewer is the caller of an agency-manager page, whom the route's
// rule (ManagesAgencies) has admitted; without the agency service the page
// answers 500.
func (s *Server) managerViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	return s.lineViewer(w, r, s.manager != nil)
}

// managerPage is the agency-manager layout with the manager's stylesheet.
func (s *Server) managerPage(w http.ResponseWriter, r *http.Request, route string) templates.Page {
	return s.page(w, r, route).WithStyles("/static/manager.css")
}

// agencyList is /agency-manager: the managed agencies and the add form.
func (s *Server) agencyList(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.managerViewer(w, r); !ok {
		return
	}
	s.agencyListAnswer(w, r, templates.AgencyCreateForm{Settings: defaultNewSettings()}, false)
}

// parentNames names the parents of the listed agencies: another agency of
// the list, the caller's own agency, or one the caller manages on another
// page.
func parentNames(ctx context.Context, m AgencyManager, v viewer, items []agency.Summary) map[int64]string {
	names := map[int64]string{}
	for _, a := range items {
		names[a.ID] = a.Name
	}
	if v.Agency.ID != 0 {
		names[v.Agency.ID] = v.Agency.Name
	}
	for _, a := range items {
		if a.ParentID == nil {
			continue
		}
		if _, ok := names[*a.ParentID]; ok {
			continue
		}
		if p, err := m.Managed(ctx, v.Principal, *a.ParentID); err == nil {
			names[*a.ParentID] = p.Name
		} else {
			names[*a.ParentID] = ""
		}
	}
	return names
}

// defaultNewSettings are the add form's switches before anything is chosen:
// flights on and bills shown, in the default currency.
func defaultNewSettings() agency.Settings {
	return agency.Settings{EnableFlight: true, IsShowBill: true, SettlementCurrency: "CNY", EmailLanguage: "en", TimeZone: display.DefaultZone}
}

func (s *Server) agencyListAnswer(w http.ResponseWriter, r *http.Request, form templates.AgencyCreateForm, open bool) {
	ctx := r.Context()
	v := viewerFrom(ctx)
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	status := q.Get("status")
	if status != agency.StatusActive && status != agency.StatusBlocked {
		status = ""
	}
	keyword := strings.TrimSpace(q.Get("keyword"))
	items, total, err := s.manager.List(ctx, v.Principal, agency.ListFilter{Keyword: keyword, Status: status, Page: page, PageSize: managerPageSize})
	if err != nil {
		slog.ErrorContext(ctx, "agency manager: list", "err", err)
		s.ServerError(w, r)
		return
	}
	view := templates.AgencyList{Keyword: keyword, Status: status, Create: form, OpenCreate: open}
	base := url.Values{}
	if keyword != "" {
		base.Set("keyword", keyword)
	}
	if status != "" {
		base.Set("status", status)
	}
	view.Pager = templates.NewPager(listURL(pathAgencyManager, base), page, managerPageSize, total)
	parents := parentNames(ctx, s.manager, v, items)
	for _, a := range items {
		contact := a.ContactEmail
		if a.ContactPhone != "" {
			contact = strings.TrimSpace(contact + " " + a.ContactPhone)
		}
		view.Items = append(view.Items, templates.AgencyRow{ID: a.ID, Code: a.Code, Name: a.Name, Alias: a.Alias,
			ContactName: a.ContactName, Contact: contact, Status: a.Status, Currency: a.Currency,
			Balance: displayAmount(a.Balance, a.Currency), CreditLimit: displayAmount(a.CreditLimit, a.Currency),
			Available: displayAmount(a.Available, a.Currency), LookToBook: a.LookToBook})
		if a.ParentID != nil {
			row := &view.Items[len(view.Items)-1]
			row.ParentID, row.Parent = *a.ParentID, parents[*a.ParentID]
		}
	}
	render(w, r, http.StatusOK, templates.AgencyListPage(s.managerPage(w, r, "agency-manager"), view))
}

// agencyCreate takes the add-agency form.
func (s *Server) agencyCreate(w http.ResponseWriter, r *http.Request) {
	v, ok := s.managerViewer(w, r)
	if !ok {
		return
	}
	req := agency.CreateRequest{Profile: profileFrom(r), Config: agency.Config{Settings: settingsFrom(r)},
		SuperUser: agency.NewSuperAdmin{Username: strings.TrimSpace(r.PostFormValue("superUser.username")),
			Email: strings.TrimSpace(r.PostFormValue("superUser.email")), Nickname: strings.TrimSpace(r.PostFormValue("superUser.nickname")),
			Password: r.PostFormValue("superUser.password")}}
	a, err := s.manager.Create(r.Context(), v.Principal, req)
	if err == nil {
		s.redirectWithFlash(w, r, templates.AgencyHref(a.ID), templates.Flash{Kind: "success", Key: "manager.agency.created"})
		return
	}
	form := templates.AgencyCreateForm{Profile: req.Profile, Settings: req.Config.Settings,
		SuperUser: agency.NewSuperAdmin{Username: req.SuperUser.Username, Email: req.SuperUser.Email, Nickname: req.SuperUser.Nickname}}
	form.Errors, form.ErrorKey = formErrors(r.Context(), "agency manager: create", err)
	s.agencyListAnswer(w, r, form, true)
}

// formErrors turns a service error into the inline field errors or one
// message for the whole form.
func formErrors(ctx context.Context, what string, err error) (map[string]string, string) {
	fe := fault.From(err)
	switch {
	case len(fe.Fields) > 0:
		return fe.Fields, ""
	case fe.Code == fault.CodeInternal:
		slog.ErrorContext(ctx, what, "err", err)
		return nil, "error.internal"
	}
	return nil, fe.Key
}

func profileFrom(r *http.Request) agency.Profile {
	var hosts []string
	for _, h := range strings.FieldsFunc(r.PostFormValue("allowedHosts"), func(c rune) bool { return c == '\n' || c == '\r' || c == ',' }) {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	return agency.Profile{Name: r.PostFormValue("name"), Alias: r.PostFormValue("alias"), Address: r.PostFormValue("address"),
		ContactName: r.PostFormValue("contactName"), ContactEmail: r.PostFormValue("contactEmail"), ContactPhone: r.PostFormValue("contactPhone"),
		CustomerService: r.PostFormValue("customerService"), ExtraInfo: r.PostFormValue("extraInfo"), AllowedHosts: hosts}
}

func formChecked(r *http.Request, name string) bool { return r.PostFormValue(name) != "" }

func settingsFrom(r *http.Request) agency.Settings {
	return agency.Settings{
		CanCreateSubAgency: formChecked(r, "settings.canCreateSubAgency"), EmailLanguage: r.PostFormValue("settings.emailLanguage"),
		SettlementCurrency: r.PostFormValue("settings.settlementCurrency"), IsShowBill: formChecked(r, "settings.isShowBill"),
		SendEmailToSub: formChecked(r, "settings.sendEmailToSubAgency"), HidePNRBooking: formChecked(r, "settings.hidePnrBooking"),
		HideMainland: formChecked(r, "settings.hideMainlandContent"), DisablePayment: formChecked(r, "settings.disablePayment"),
		OnlyOwnOrders: formChecked(r, "settings.showOnlyOwnOrders"), InvoiceTypeOnExcel: formChecked(r, "settings.showInvoiceTypeOnExcel"),
		EnableFlight: formChecked(r, "settings.enableFlightService"), EnableTrain: formChecked(r, "settings.enableTrainService"),
		TimeZone: r.PostFormValue("settings.timeZone"),
	}
}

// channelsFrom is the payment channels the settings form chose: nil for
// every channel the server has, else those ticked (none: the wallet only).
// ok is false when the form has no choice: only the provider's has it.
func channelsFrom(r *http.Request) (chosen []string, ok bool) {
	switch r.PostFormValue("settings.paymentChannels.mode") {
	case "all":
		return nil, true
	case "only":
		return append([]string{}, r.PostForm["settings.paymentChannels"]...), true
	}
	return nil, false
}

// managerList splits a comma or space separated input.
func managerList(s string) []string {
	out := []string{}
	for _, f := range strings.FieldsFunc(s, func(c rune) bool { return c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t' }) {
		out = append(out, f)
	}
	return out
}

// agencyDetail is /agency-manager/agencies/{id}.
func (s *Server) agencyDetail(w http.ResponseWriter, r *http.Request) {
	v, id, ok := s.withID(w, r, s.managerViewer)
	if !ok {
		return
	}
	s.agencyDetailAnswer(w, r, v, id, templates.AgencyDetail{}, nil)
}

// agencyDetailAnswer renders the detail page; state carries a section's
// posted values and errors, overlay puts posted values over the stored ones.
func (s *Server) agencyDetailAnswer(w http.ResponseWriter, r *http.Request, v viewer, id int64, state templates.AgencyDetail, overlay func(*agency.Detail)) {
	ctx := r.Context()
	var keys func(context.Context, int64) ([]auth.APIKey, error)
	if s.keys != nil {
		keys = s.keys.APIKeys
	}
	d, err := s.manager.Get(ctx, v.Principal, id, keys)
	if err != nil {
		s.lookupFailed(w, r, "agency manager: detail", err)
		return
	}
	view := state
	view.Balance = displayAmount(d.Balance, d.Currency)
	view.CreditLimit = displayAmount(d.CreditLimit, d.Currency)
	view.Available = displayAmount(d.Available, d.Currency)
	if overlay != nil {
		overlay(&d)
	}
	view.Detail = d
	view.Currencies = config.Currencies
	view.CanResetPassword = s.keys != nil && v.Principal.Subject.HasRole(auth.RoleSuperUser)
	view.FromParent = !v.Principal.Subject.IsProvider()
	if view.FromParent && s.wallets != nil {
		// A parent gives from its own balance: show what it holds.
		own, err := s.wallets.WalletBalance(ctx, v.Principal.AgencyID, d.Currency)
		if err != nil {
			slog.ErrorContext(ctx, "agency manager: parent wallet", "err", err)
			s.ServerError(w, r)
			return
		}
		view.ParentBalance = displayAmount(money.Amount{Minor: own.Balance, Currency: d.Currency}.String(), d.Currency)
	}
	if view.TopUp.Key == "" {
		view.TopUp = templates.TopUpForm{Key: newIdempotencyKey(), CurrencyReceived: d.Currency, ExchangeRate: "1", SendEmail: true}
	}
	if view.Section != "credit" {
		view.Credit = templates.CreditForm{CreditLimit: d.CreditLimit, CreditPeriod: strconv.Itoa(d.CreditPeriod), CreditPeriodUnit: d.CreditPeriodUnit}
	}
	hooks, err := s.webhookLog(ctx, id)
	if err != nil {
		slog.ErrorContext(ctx, "agency manager: webhook log", "err", err)
		s.ServerError(w, r)
		return
	}
	p := s.managerPage(w, r, "agency-manager")
	p.Title = d.Name + " · " + p.Title
	// The tab shown: the one of the form that came back with errors, else
	// the one asked for; the message of a save (the redirect names the
	// form) goes beside that form, not off screen at the top.
	asked := r.URL.Query().Get("section")
	if view.Section != "" {
		view.Tab = templates.AgencyTabOf(view.Section)
	} else {
		view.Tab = templates.AgencyTabOf(asked)
		if formSection(asked) && len(p.Flashes) > 0 {
			view.SavedSection, view.Saved, p.Flashes = asked, p.Flashes, nil
		}
	}
	render(w, r, http.StatusOK, templates.AgencyDetailPage(p, view, hooks))
}

// formSection reports whether name is one of the detail page's forms.
func formSection(name string) bool {
	for _, t := range templates.AgencyTabs {
		if slices.Contains(t.Sections, name) {
			return true
		}
	}
	return false
}

// webhookLog is the Notifications section of agency id; nil without the
// webhook service.
func (s *Server) webhookLog(ctx context.Context, id int64) (*templates.WebhookLog, error) {
	if s.webhooks == nil {
		return nil, nil
	}
	items, total, err := s.webhooks.Deliveries(ctx, id, 1, webhookLogSize)
	if err != nil {
		return nil, err
	}
	secret, err := s.webhooks.MaskedSecret(ctx, id)
	if err != nil {
		return nil, err
	}
	return &templates.WebhookLog{Deliveries: items, Total: total, Secret: secret}, nil
}

// newIdempotencyKey names one add-funds form: posting it twice credits once.
func newIdempotencyKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "web-topup-" + hex.EncodeToString(b)
}

// agencyAction is the handler of one of an agency's forms: act runs after
// the checks every detail action shares, with the caller and the agency's id.
func (s *Server) agencyAction(act func(w http.ResponseWriter, r *http.Request, v viewer, id int64)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if v, id, ok := s.withID(w, r, s.managerViewer); ok {
			act(w, r, v, id)
		}
	}
}

// actionFailed answers an action's error: field errors and form messages
// inline on the page, a missing agency as 404.
func (s *Server) actionFailed(w http.ResponseWriter, r *http.Request, v viewer, id int64, section string, err error, state templates.AgencyDetail, overlay func(*agency.Detail)) {
	if fe := fault.From(err); fe.Code == fault.CodeNotFound && fe.Key == "error.notFound" {
		s.NotFound(w, r)
		return
	}
	state.Section = section
	state.Errors, state.ErrorKey = formErrors(r.Context(), "agency manager: "+section, err)
	// 200 like the other portal forms: the errors are shown inline.
	s.agencyDetailAnswer(w, r, v, id, state, overlay)
}

func (s *Server) agencyProfileSave(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	p := profileFrom(r)
	if _, err := s.manager.Update(r.Context(), v.Principal, id, p); err != nil {
		s.actionFailed(w, r, v, id, "profile", err, templates.AgencyDetail{}, func(d *agency.Detail) { d.Profile = p })
		return
	}
	s.redirectWithFlash(w, r, templates.AgencySectionHref(id, "profile"), templates.Flash{Kind: "success", Key: "manager.saved"})
}

// configSections are the parts of the config a detail form posts; each
// form changes its own part and keeps the rest.
var configSections = map[string]bool{"settings": true, "markups": true, "flight": true, "train": true}

func (s *Server) agencyConfigSave(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	section := r.PostFormValue("section")
	if !configSections[section] {
		s.redirectWithFlash(w, r, templates.AgencyHref(id), templates.Flash{Kind: "error", Key: "error.validation"})
		return
	}
	d, err := s.manager.Get(r.Context(), v.Principal, id, nil)
	if err != nil {
		s.actionFailed(w, r, v, id, section, err, templates.AgencyDetail{}, nil)
		return
	}
	c := d.Config
	switch section {
	case "settings":
		kept := c.Settings.PaymentChannels
		c.Settings = settingsFrom(r)
		// A form without the channels (a parent's) keeps them as they are.
		if chosen, ok := channelsFrom(r); ok {
			c.Settings.PaymentChannels = chosen
		} else {
			c.Settings.PaymentChannels = kept
		}
	case "markups":
		c.Flight.Markups = map[string]agency.Markup{}
		for _, rc := range agency.RouteClasses {
			p := "flight.markups." + rc + "."
			c.Flight.Markups[rc] = agency.Markup{Unit: r.PostFormValue(p + "unit"), Value: strings.TrimSpace(r.PostFormValue(p + "value")),
				Limit: strings.TrimSpace(r.PostFormValue(p + "limit"))}
		}
	case "flight":
		f := &c.Flight
		f.ServiceFees = agency.ServiceFees{Change: strings.TrimSpace(r.PostFormValue("flight.serviceFees.change")),
			Refund: strings.TrimSpace(r.PostFormValue("flight.serviceFees.refund")), Void: strings.TrimSpace(r.PostFormValue("flight.serviceFees.void"))}
		f.ShowSuppliers, f.FreeBaggageOnly, f.FareBasisOnly = formChecked(r, "flight.showSuppliers"), formChecked(r, "flight.freeBaggageOnly"), formChecked(r, "flight.fareBasisOnly")
		f.MaxResponseTime = -1
		if n, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("flight.maxResponseTime"))); err == nil {
			f.MaxResponseTime = n
		}
		if f.MaxResponseTime == 0 {
			f.MaxResponseTime = -1 // Validate would turn 0 into the default
		}
		f.BookingNotifyURL = strings.TrimSpace(r.PostFormValue("flight.bookingNotifyUrl"))
		f.ChangeNotifyURL = strings.TrimSpace(r.PostFormValue("flight.changeNotifyUrl"))
		f.AirlineFilter = agency.AirlineFilter{Mode: r.PostFormValue("flight.airlineFilter.mode"), Airlines: managerList(r.PostFormValue("flight.airlineFilter.airlines"))}
		f.Suppliers = managerList(r.PostFormValue("flight.suppliers"))
		f.SearchMode = r.PostFormValue("flight.searchMode")
	case "train":
		c.Train = agency.TrainSettings{NotifyURL: strings.TrimSpace(r.PostFormValue("train.notifyUrl")), Manual: formChecked(r, "train.manual")}
	}
	_, changed, err := s.manager.SetConfig(r.Context(), v.Principal, id, c)
	if err != nil {
		s.actionFailed(w, r, v, id, section, err, templates.AgencyDetail{}, func(d *agency.Detail) { d.Config = c })
		return
	}
	if changed {
		s.redirectWithFlash(w, r, templates.AgencySectionHref(id, section), templates.Flash{Kind: "info", Key: agency.SettlementCurrencyChanged})
		return
	}
	s.redirectWithFlash(w, r, templates.AgencySectionHref(id, section), templates.Flash{Kind: "success", Key: "manager.saved"})
}

func (s *Server) agencyCreditSave(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	form := templates.CreditForm{CreditLimit: strings.TrimSpace(r.PostFormValue("creditLimit")),
		CreditPeriod: strings.TrimSpace(r.PostFormValue("creditPeriod")), CreditPeriodUnit: r.PostFormValue("creditPeriodUnit")}
	req := agency.CreditRequest{CreditLimit: form.CreditLimit, CreditPeriodUnit: form.CreditPeriodUnit}
	if form.CreditPeriod != "" {
		n, err := strconv.Atoi(form.CreditPeriod)
		if err != nil {
			s.actionFailed(w, r, v, id, "credit", fault.Validation(map[string]string{"creditPeriod": "agency.error.creditPeriod"}), templates.AgencyDetail{Credit: form}, nil)
			return
		}
		req.CreditPeriod = n
	}
	if _, err := s.manager.SetCredit(r.Context(), v.Principal, id, req); err != nil {
		s.actionFailed(w, r, v, id, "credit", err, templates.AgencyDetail{Credit: form}, nil)
		return
	}
	s.redirectWithFlash(w, r, templates.AgencySectionHref(id, "credit"), templates.Flash{Kind: "success", Key: "manager.credit.saved"})
}

// agencyFundsAdd credits the agency's wallet. The idempotency key comes
// from the form, so posting the same form twice credits once.
func (s *Server) agencyFundsAdd(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	form := templates.TopUpForm{Key: r.PostFormValue("idempotencyKey"), CurrencyReceived: r.PostFormValue("currencyReceived"),
		AmountReceived: strings.TrimSpace(r.PostFormValue("amountReceived")), ExchangeRate: strings.TrimSpace(r.PostFormValue("exchangeRate")),
		FeePercent: strings.TrimSpace(r.PostFormValue("feePercent")), Reference: strings.TrimSpace(r.PostFormValue("reference")),
		Remark: strings.TrimSpace(r.PostFormValue("remark")), SendEmail: formChecked(r, "sendEmail")}
	a, err := s.manager.Managed(r.Context(), v.Principal, id)
	if err != nil {
		s.actionFailed(w, r, v, id, "funds", err, templates.AgencyDetail{TopUp: form}, nil)
		return
	}
	if form.Key == "" {
		// Without a key the form did not come from this page; a fresh form
		// gets one.
		form.Key = newIdempotencyKey()
		s.actionFailed(w, r, v, id, "funds", fault.Validation(map[string]string{"idempotencyKey": "ledger.error.idempotencyKey"}), templates.AgencyDetail{TopUp: form}, nil)
		return
	}
	// Through the agency service, as the API: who may bring money in, the
	// user log and the notice email are its rules.
	res, err := s.manager.AddFunds(r.Context(), v.Principal, a.ID, ledger.TopUp{IdempotencyKey: form.Key, Currency: a.SettlementCurrency,
		CurrencyReceived: form.CurrencyReceived, AmountReceived: form.AmountReceived, ExchangeRate: form.ExchangeRate,
		FeePercent: form.FeePercent, Reference: form.Reference, Remark: form.Remark, SendEmail: form.SendEmail, CreatedBy: v.Principal.Username}, s.catalog)
	if err != nil {
		s.actionFailed(w, r, v, id, "funds", err, templates.AgencyDetail{TopUp: form}, nil)
		return
	}
	key := "manager.funds.added"
	if res.Replayed {
		key = "manager.funds.replayed"
	}
	s.redirectWithFlash(w, r, templates.AgencySectionHref(id, "funds"), templates.Flash{Kind: "success", Key: key})
}

// agencyAPIKeyCreate generates a key and shows it on this answer only: it is
// never stored, so it cannot travel through a redirect.
func (s *Server) agencyAPIKeyCreate(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	a, err := s.manager.Managed(r.Context(), v.Principal, id)
	if err != nil {
		s.actionFailed(w, r, v, id, "apikey", err, templates.AgencyDetail{}, nil)
		return
	}
	if s.keys == nil {
		s.ServerError(w, r)
		return
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if len([]rune(name)) > 100 {
		s.actionFailed(w, r, v, id, "apikey", fault.Validation(map[string]string{"name": "error.field.tooLong"}), templates.AgencyDetail{}, nil)
		return
	}
	k, err := s.keys.CreateAPIKey(r.Context(), a.ID, name, nil, v.Principal.UserID)
	if err != nil {
		s.actionFailed(w, r, v, id, "apikey", err, templates.AgencyDetail{}, nil)
		return
	}
	p := s.managerPage(w, r, "agency-manager")
	render(w, r, http.StatusOK, templates.APIKeyCreatedPage(p, templates.NewAPIKeyResult{AgencyID: a.ID, AgencyName: a.Name,
		Name: k.Name, Prefix: k.Prefix, Key: k.Key}))
}

// agencyPasswordReset sets the super admin's password; as in the API only a
// SuperUser may (the route's rule).
func (s *Server) agencyPasswordReset(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	if s.keys == nil {
		s.ServerError(w, r)
		return
	}
	if _, err := s.manager.Managed(r.Context(), v.Principal, id); err != nil {
		s.actionFailed(w, r, v, id, "password", err, templates.AgencyDetail{}, nil)
		return
	}
	if err := s.keys.ResetSuperAdminPassword(r.Context(), v.Principal, id, r.PostFormValue("password"), s.meta(r)); err != nil {
		s.actionFailed(w, r, v, id, "password", err, templates.AgencyDetail{}, nil)
		return
	}
	s.redirectWithFlash(w, r, templates.AgencySectionHref(id, "password"), templates.Flash{Kind: "success", Key: "manager.password.reset"})
}

func (s *Server) agencyStatusSave(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	status := r.PostFormValue("status")
	if _, err := s.manager.SetStatus(r.Context(), v.Principal, id, status); err != nil {
		s.actionRefused(w, r, id, "agency manager: status", err)
		return
	}
	key := "manager.status.unblockedDone"
	if status == agency.StatusBlocked {
		key = "manager.status.blockedDone"
	}
	s.redirectWithFlash(w, r, templates.AgencySectionHref(id, "status"), templates.Flash{Kind: "success", Key: key})
}

// agencyDelete removes the agency after the confirmation box; a refusal
// (sub-agencies, wallet history, orders) comes back as the reason.
func (s *Server) agencyDelete(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	if !formChecked(r, "confirm") {
		s.redirectWithFlash(w, r, templates.AgencySectionHref(id, "delete"), templates.Flash{Kind: "error", Key: "manager.delete.confirmRequired"})
		return
	}
	if err := s.manager.Delete(r.Context(), v.Principal, id); err != nil {
		s.actionRefused(w, r, id, "agency manager: delete", err)
		return
	}
	s.redirectWithFlash(w, r, pathAgencyManager, templates.Flash{Kind: "success", Key: "manager.agency.deleted"})
}

// agencyWebhookRedeliver queues a failed delivery again and goes back to the
// Notifications section.
func (s *Server) agencyWebhookRedeliver(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	deliveryID, err := strconv.ParseInt(r.PathValue("delivery"), 10, 64)
	if err != nil || deliveryID <= 0 || s.webhooks == nil {
		s.NotFound(w, r)
		return
	}
	if _, err := s.manager.Managed(r.Context(), v.Principal, id); err != nil {
		s.actionRefused(w, r, id, "agency manager: redeliver", err)
		return
	}
	if _, err := s.webhooks.Redeliver(r.Context(), id, deliveryID); err != nil {
		s.actionRefused(w, r, id, "agency manager: redeliver", err)
		return
	}
	s.redirectWithFlash(w, r, templates.AgencySectionHref(id, "webhooks"), templates.Flash{Kind: "success", Key: "webhook.redelivered"})
}

// agencyWebhookSecret replaces the agency's signing secret and shows the new
// one on this answer only, as a new API key is: a secret does not travel
// through a redirect.
func (s *Server) agencyWebhookSecret(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	if s.webhooks == nil {
		s.NotFound(w, r)
		return
	}
	a, err := s.manager.Managed(r.Context(), v.Principal, id)
	if err != nil {
		s.actionRefused(w, r, id, "agency manager: webhook secret", err)
		return
	}
	secret, err := s.webhooks.RotateSecret(r.Context(), a.ID)
	if err != nil {
		s.actionRefused(w, r, id, "agency manager: webhook secret", err)
		return
	}
	p := s.managerPage(w, r, "agency-manager")
	render(w, r, http.StatusOK, templates.WebhookSecretPage(p, templates.NewWebhookSecret{AgencyID: a.ID, AgencyName: a.Name, Secret: secret}))
}

// actionRefused answers a button's error as a message on the detail page.
func (s *Server) actionRefused(w http.ResponseWriter, r *http.Request, id int64, what string, err error) {
	fe := fault.From(err)
	switch {
	case fe.Code == fault.CodeNotFound && fe.Key == "error.notFound":
		s.NotFound(w, r)
		return
	case fe.Code == fault.CodeInternal:
		slog.ErrorContext(r.Context(), what, "err", err)
	}
	key := fe.Key
	if len(fe.Fields) > 0 {
		for _, k := range fe.Fields {
			key = k
		}
	}
	if key == "" || !flashEntry.MatchString("error:"+key) {
		key = "error.internal"
	}
	s.redirectWithFlash(w, r, templates.AgencyHref(id), templates.Flash{Kind: "error", Key: key})
}

// displayAmount writes an API amount ("1234.5") with thousands separators
// and its currency's digits.
func displayAmount(s, currency string) string {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return s
	}
	return formatMinor(money.Amount{Minor: d.Shift(money.Exponent(currency)).Round(0).IntPart(), Currency: currency})
}

// formatMinor writes an amount with thousands separators and its
// currency's digits: 1234567.8 CNY → "1,234,567.80", 1000 JPY → "1,000".
func formatMinor(a money.Amount) string {
	out := money.FormatDisplay(a.Decimal())
	if money.Exponent(a.Currency) == 0 {
		out, _, _ = strings.Cut(out, ".")
	}
	return out
}
