package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/templates"
)

// Route is one portal route: a method and path the mux serves, the rule of
// who may use it and, for a page, its layout and title (spec §2).
type Route struct {
	Name   string
	Method string // GET (HEAD too) or POST; "" for any method
	Path   string // ServeMux-style, {id} for a segment
	// Subtree serves every path below Path (which ends in /), as the static
	// files and the not-found page do; otherwise Path matches exactly.
	Subtree  bool
	Access   Access
	Layout   string
	TitleKey string // "" → the site short name
}

// Pattern is the route's ServeMux pattern.
func (rt Route) Pattern() string {
	p := rt.Path
	if !rt.Subtree && strings.HasSuffix(p, "/") {
		p += "{$}"
	}
	if rt.Method == "" {
		return p
	}
	return rt.Method + " " + p
}

// Access is a route's rule: who may use it. Every route of the table has
// one; Register refuses a route without (a zero Access).
type Access struct {
	Name string
	// allow is the rule for a logged-in user; nil lets anybody in, with or
	// without a login.
	allow func(auth.Subject) bool
}

// Public reports whether the route needs no login.
func (a Access) Public() bool { return a.Name != "" && a.allow == nil }

// Allows reports whether a logged-in user with s may use the route.
func (a Access) Allows(s auth.Subject) bool { return a.allow == nil || a.allow(s) }

// The portal's access rules. SuperUser passes every role check (spec §2);
// the flight and train pages also need the company's service on.
var (
	// Public: anybody, logged in or not.
	Public = Access{Name: "public"}
	// LoggedIn: any logged-in user.
	LoggedIn = Access{Name: "logged in", allow: anyone}
	// SuperUserOnly: the agency's SuperUser (user management, user log,
	// company profile).
	SuperUserOnly = Access{Name: "SuperUser", allow: isSuperUser}
	// Flights: an operator of a company with the flight service.
	Flights = Access{Name: "operator with flights", allow: booking.Flights.MayBook}
	// ProviderFlights: the provider's operator deciding on an agency's
	// request (approve, reject, quote, issue, resolve).
	ProviderFlights = Access{Name: "provider operator with flights", allow: func(s auth.Subject) bool {
		return booking.Flights.MayBook(s) && s.IsProvider()
	}}
	// TrainBooking: an operator of a company with the train service.
	TrainBooking = Access{Name: "operator with trains", allow: booking.Trains.MayBook}
	// Trains: any user of a company with the train service.
	Trains = Access{Name: "trains", allow: booking.Trains.MaySee}
	// Finance: finance of a company shown its bills (spec §6
	// canAccessFinance).
	Finance = Access{Name: "finance", allow: auth.Subject.CanAccessFinance}
	// ManagesAgencies: finance of the provider or of an agency that may
	// create sub-agencies, as in the API.
	ManagesAgencies = Access{Name: "manages agencies", allow: canManageAgencies}
	// ManagesAgenciesSuperUser: a SuperUser who manages agencies (the sub
	// agency's super admin password).
	ManagesAgenciesSuperUser = Access{Name: "SuperUser managing agencies", allow: func(s auth.Subject) bool {
		return canManageAgencies(s) && isSuperUser(s)
	}}
	// AgencyBills: the agencybills:read permission (spec §6) of a user who
	// manages agencies.
	AgencyBills = Access{Name: "agencybills:read", allow: func(s auth.Subject) bool {
		return s.HasPermission(auth.PermAgencyBillsRead) && canManageAgencies(s)
	}}
)

func isSuperUser(s auth.Subject) bool { return slices.Contains(s.Roles, auth.RoleSuperUser) }

func anyone(auth.Subject) bool { return true }

// canManageAgencies is the agency manager's rule.
func canManageAgencies(sub auth.Subject) bool {
	return sub.HasRole(auth.RoleFinance) && sub.ManagesAgencies()
}

// The portal's paths. The route table declares them and the handlers build
// their links and redirects from them; {id} is filled by fill.
const (
	pathHome               = "/"
	pathStatic             = "/static/"
	pathTerms              = "/terms"
	pathAPIDocs            = "/api-docs"
	pathAPIGuide           = "/api-docs/guide"
	pathPrivacy            = "/privacy"
	pathApplications       = "/applications"
	pathPrefsLang          = "/prefs/lang"
	pathPrefsCurrency      = "/prefs/currency"
	pathLogin              = "/login"
	pathLogout             = "/logout"
	pathProfile            = "/profile"
	pathProfilePassword    = pathProfile + "/password"
	pathProfileSessionEnd  = pathProfile + "/sessions/{id}/end"
	pathUsers              = "/users"
	pathUser               = pathUsers + "/{id}"
	pathUserDeactivate     = pathUser + "/deactivate"
	pathUserLog            = "/user-log"
	pathCompany            = "/company"
	pathCompanyLogo        = pathCompany + "/logo"
	pathFlightBooking      = "/flight/booking"
	pathFlightConfirm      = pathFlightBooking + "/confirm"
	pathOrders             = templates.OrdersPath
	pathDisruptions        = pathOrders + "/voyage"
	pathOrder              = pathOrders + "/{id}"
	pathOrderAction        = pathOrder + "/actions/{action}"
	pathOrderChangeSearch  = pathOrder + "/actions/change/search"
	pathGroupBooking       = "/flight/group/booking"
	pathGroupConfirm       = pathGroupBooking + "/confirm"
	pathGroupOrders        = "/flight/group/order"
	pathGroupOrder         = pathGroupOrders + "/{id}"
	pathTrainBooking       = "/train/booking"
	pathTrainOrders        = templates.TrainOrdersPath
	pathTrainOrder         = pathTrainOrders + "/{id}"
	pathTrainETicket       = pathTrainOrder + "/e-ticket"
	pathWallet             = "/bills/wallet"
	pathTransactions       = "/bills/transactions"
	pathStatements         = "/bills/statements"
	pathStatement          = pathStatements + "/{id}"
	pathStatementExport    = pathStatement + "/export"
	pathAgencyManager      = "/agency-manager"
	pathAgencies           = pathAgencyManager + "/agencies"
	pathAgency             = pathAgencies + "/{id}"
	pathAgencyProfile      = pathAgency + "/profile"
	pathAgencyConfig       = pathAgency + "/config"
	pathAgencyCredit       = pathAgency + "/credit"
	pathAgencyFunds        = pathAgency + "/funds"
	pathAgencyAPIKey       = pathAgency + "/apikey"
	pathAgencyPassword     = pathAgency + "/password"
	pathAgencyStatus       = pathAgency + "/status"
	pathAgencyDelete       = pathAgency + "/delete"
	pathAgencyRedeliver    = pathAgency + "/webhooks/{delivery}/redeliver"
	pathAgencyWebhookKey   = pathAgency + "/webhooks/secret"
	pathSubStatements      = pathAgencyManager + "/statements"
	pathSubBill            = pathAgencyManager + "/bills/{id}"
	pathSubBillExport      = pathSubBill + "/export"
	reviewActionPathPrefix = pathOrder + "/actions/"

	// Saved travellers, member cards and the profile's settings (issue 18).
	pathTravellers       = templates.TravellersPath
	pathTraveller        = pathTravellers + "/{id}"
	pathTravellerDelete  = pathTraveller + "/delete"
	pathTravellersImport = templates.TravellersImport
	pathCards            = templates.CardsPath
	pathCard             = pathCards + "/{id}"
	pathCardDelete       = pathCard + "/delete"
	pathProfileDetails   = templates.ProfileDetailsPath
	pathProfileConfig    = templates.ProfileConfigPrefix + "{key}"
)

// reviewPath is the form of a provider's decision on an order: a path of its
// own, more specific than pathOrderAction, so the table can give it the
// provider's rule.
func reviewPath(a flight.Action) string { return reviewActionPathPrefix + string(a) }

// fill puts ids into path's {…} segments, in order.
func fill(path string, ids ...int64) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && len(ids) > 0 {
			segs[i], ids = strconv.FormatInt(ids[0], 10), ids[1:]
		}
	}
	return strings.Join(segs, "/")
}

// pathID reads the {id} of the path.
func pathID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}

// idParam reads the {id} of the path; anything else is the 404 page.
func (s *Server) idParam(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, ok := pathID(r)
	if !ok {
		s.NotFound(w, r)
	}
	return id, ok
}

// withID admits the caller of a route with who, then reads the {id} of its
// path; false once the answer is written.
func (s *Server) withID(w http.ResponseWriter, r *http.Request, who func(http.ResponseWriter, *http.Request) (viewer, bool)) (viewer, int64, bool) {
	v, ok := who(w, r)
	if !ok {
		return v, 0, false
	}
	id, ok := s.idParam(w, r)
	return v, id, ok
}

// Routes is the portal's route table (spec §2 and the forms behind the
// pages): every route the portal serves, GET and POST, with its rule.
// Register mounts the mux from it and nothing else, each handler behind its
// route's rule; page titles, layouts and menus read it too.
var Routes = []Route{
	{Name: "home", Method: http.MethodGet, Path: pathHome, Access: Public, Layout: templates.LayoutHome},
	{Name: "static", Method: http.MethodGet, Path: pathStatic, Subtree: true, Access: Public},
	{Name: "terms", Method: http.MethodGet, Path: pathTerms, Access: Public, Layout: templates.LayoutNormal, TitleKey: "route.terms"},
	{Name: "privacy", Method: http.MethodGet, Path: pathPrivacy, Access: Public, Layout: templates.LayoutNormal, TitleKey: "route.privacy"},
	{Name: "api-docs", Method: http.MethodGet, Path: pathAPIDocs, Access: Public, Layout: templates.LayoutNormal, TitleKey: "apidocs.route.reference"},
	{Name: "api-guide", Method: http.MethodGet, Path: pathAPIGuide, Access: Public, Layout: templates.LayoutNormal, TitleKey: "apidocs.route.guide"},
	{Name: "application-save", Method: http.MethodPost, Path: pathApplications, Access: Public},
	{Name: "prefs-lang", Method: http.MethodPost, Path: pathPrefsLang, Access: Public},
	{Name: "prefs-currency", Method: http.MethodPost, Path: pathPrefsCurrency, Access: Public},
	{Name: "login", Method: http.MethodGet, Path: pathLogin, Access: Public, Layout: templates.LayoutNormal, TitleKey: "portal.login.title"},
	{Name: "login-submit", Method: http.MethodPost, Path: pathLogin, Access: Public},
	{Name: "logout", Method: http.MethodPost, Path: pathLogout, Access: LoggedIn},
	// The path is public (spec §2 guard); a visitor sees a prompt to log in.
	{Name: "profile", Method: http.MethodGet, Path: pathProfile, Access: Public, Layout: templates.LayoutNormal, TitleKey: "route.profile"},
	{Name: "profile-password", Method: http.MethodPost, Path: pathProfilePassword, Access: LoggedIn},
	{Name: "profile-session-end", Method: http.MethodPost, Path: pathProfileSessionEnd, Access: LoggedIn},
	// Saved travellers and member cards are the agency's: any of its users
	// may keep them (pkg/profile answers another agency's as not found).
	{Name: "profile-details", Method: http.MethodPost, Path: pathProfileDetails, Access: LoggedIn},
	{Name: "profile-config", Method: http.MethodPost, Path: pathProfileConfig, Access: LoggedIn},
	{Name: "profile-travellers", Method: http.MethodGet, Path: pathTravellers, Access: LoggedIn, Layout: templates.LayoutNormal, TitleKey: "travellers.title"},
	{Name: "profile-traveller-create", Method: http.MethodPost, Path: pathTravellers, Access: LoggedIn},
	{Name: "profile-traveller-update", Method: http.MethodPost, Path: pathTraveller, Access: LoggedIn},
	{Name: "profile-traveller-delete", Method: http.MethodPost, Path: pathTravellerDelete, Access: LoggedIn},
	{Name: "profile-travellers-import", Method: http.MethodPost, Path: pathTravellersImport, Access: LoggedIn},
	{Name: "profile-cards", Method: http.MethodGet, Path: pathCards, Access: LoggedIn, Layout: templates.LayoutNormal, TitleKey: "travellers.card.title"},
	{Name: "profile-card-create", Method: http.MethodPost, Path: pathCards, Access: LoggedIn},
	{Name: "profile-card-update", Method: http.MethodPost, Path: pathCard, Access: LoggedIn},
	{Name: "profile-card-delete", Method: http.MethodPost, Path: pathCardDelete, Access: LoggedIn},

	// The spec lists no role for /users; user management is the SuperUser's.
	{Name: "users", Method: http.MethodGet, Path: pathUsers, Access: SuperUserOnly, Layout: templates.LayoutNormal, TitleKey: "route.users"},
	{Name: "user-create", Method: http.MethodPost, Path: pathUsers, Access: SuperUserOnly},
	{Name: "user-update", Method: http.MethodPost, Path: pathUser, Access: SuperUserOnly},
	{Name: "user-deactivate", Method: http.MethodPost, Path: pathUserDeactivate, Access: SuperUserOnly},
	{Name: "user-log", Method: http.MethodGet, Path: pathUserLog, Access: SuperUserOnly, Layout: templates.LayoutNormal, TitleKey: "route.userLog"},
	{Name: "company", Method: http.MethodGet, Path: pathCompany, Access: SuperUserOnly, Layout: templates.LayoutNormal, TitleKey: "route.company"},
	{Name: "company-save", Method: http.MethodPost, Path: pathCompany, Access: SuperUserOnly},
	// The path ends in /logo so the server's 1 MiB body limit leaves it to
	// the handler, which allows the 2MB of spec §9.
	{Name: "company-logo", Method: http.MethodPost, Path: pathCompanyLogo, Access: SuperUserOnly},

	{Name: "flight-booking", Method: http.MethodGet, Path: pathFlightBooking, Access: Flights, Layout: templates.LayoutBooking, TitleKey: "route.flightBooking"},
	{Name: "flight-booking-confirm", Method: http.MethodGet, Path: pathFlightConfirm, Access: Flights, Layout: templates.LayoutBooking, TitleKey: "route.flightBookingConfirm"},
	{Name: "flight-orders", Method: http.MethodGet, Path: pathOrders, Access: Flights, Layout: templates.LayoutOrder, TitleKey: "route.flightOrders"},
	{Name: "flight-orders-voyage", Method: http.MethodGet, Path: pathDisruptions, Access: Flights, Layout: templates.LayoutOrder, TitleKey: "route.flightOrdersVoyage"},
	{Name: "flight-orders-id", Method: http.MethodGet, Path: pathOrder, Access: Flights, Layout: templates.LayoutOrder, TitleKey: "route.flightOrder"},
	// The agency's actions on its order; the service checks the order is
	// the caller's agency's (or a sub-agency's) and the action its party's.
	{Name: "flight-order-action", Method: http.MethodPost, Path: pathOrderAction, Access: Flights},
	{Name: "flight-order-change-search", Method: http.MethodPost, Path: pathOrderChangeSearch, Access: Flights},
	{Name: "flight-order-approve", Method: http.MethodPost, Path: reviewPath(flight.ActApprove), Access: ProviderFlights},
	{Name: "flight-order-reject", Method: http.MethodPost, Path: reviewPath(flight.ActReject), Access: ProviderFlights},
	{Name: "flight-order-quote", Method: http.MethodPost, Path: reviewPath(flight.ActQuote), Access: ProviderFlights},
	{Name: "flight-order-issue", Method: http.MethodPost, Path: reviewPath(flight.ActIssue), Access: ProviderFlights},
	{Name: "flight-order-resolve-ok", Method: http.MethodPost, Path: reviewPath(flight.ActResolveOK), Access: ProviderFlights},
	{Name: "flight-order-resolve-failed", Method: http.MethodPost, Path: reviewPath(flight.ActResolveFailed), Access: ProviderFlights},
	{Name: "flight-group-booking", Method: http.MethodGet, Path: pathGroupBooking, Access: Flights, Layout: templates.LayoutBooking, TitleKey: "route.groupBooking"},
	{Name: "flight-group-booking-confirm", Method: http.MethodGet, Path: pathGroupConfirm, Access: Flights, Layout: templates.LayoutBooking, TitleKey: "route.groupBookingConfirm"},
	{Name: "flight-group-order", Method: http.MethodGet, Path: pathGroupOrders, Access: Flights, Layout: templates.LayoutOrder, TitleKey: "route.groupOrders"},
	{Name: "flight-group-order-id", Method: http.MethodGet, Path: pathGroupOrder, Access: Flights, Layout: templates.LayoutOrder, TitleKey: "route.groupOrder"},
	// Group orders' forms (issue 16); the group service checks the order is
	// the caller's agency's (or, for the provider's, another agency's) and
	// the action allowed in its status.
	{Name: "flight-group-accept", Method: http.MethodPost, Path: groupActionPath(groupActAccept), Access: Flights},
	{Name: "flight-group-decline", Method: http.MethodPost, Path: groupActionPath(groupActDecline), Access: Flights},
	{Name: "flight-group-passengers", Method: http.MethodPost, Path: groupActionPath(groupActPassengers), Access: Flights},
	{Name: "flight-group-confirmation", Method: http.MethodPost, Path: groupActionPath(groupActConfirm), Access: Flights},
	{Name: "flight-group-payment", Method: http.MethodPost, Path: groupActionPath(groupActPay), Access: Flights},
	{Name: "flight-group-cancel", Method: http.MethodPost, Path: groupActionPath(groupActCancel), Access: Flights},
	{Name: "flight-group-quote", Method: http.MethodPost, Path: groupActionPath(groupActQuote), Access: ProviderFlights},
	{Name: "flight-group-seats", Method: http.MethodPost, Path: groupActionPath(groupActSeats), Access: ProviderFlights},
	{Name: "flight-group-document", Method: http.MethodGet, Path: pathGroupDocument, Access: Flights},
	{Name: "train-booking", Method: http.MethodGet, Path: pathTrainBooking, Access: TrainBooking, Layout: templates.LayoutBooking, TitleKey: "route.trainBooking"},
	// The spec lists no role for the train orders.
	{Name: "train-orders", Method: http.MethodGet, Path: pathTrainOrders, Access: Trains, Layout: templates.LayoutOrder, TitleKey: "route.trainOrders"},
	// The train service answers not found for an order of another agency
	// (its ancestors see it); the actions go through the API.
	{Name: "train-order-id", Method: http.MethodGet, Path: pathTrainOrder, Access: Trains, Layout: templates.LayoutOrder, TitleKey: "route.trainOrders"},
	{Name: "train-order-eticket", Method: http.MethodGet, Path: pathTrainETicket, Access: Trains},

	{Name: "bills-wallet", Method: http.MethodGet, Path: pathWallet, Access: Finance, Layout: templates.LayoutBill, TitleKey: "route.wallet"},
	{Name: "bills-transactions", Method: http.MethodGet, Path: pathTransactions, Access: Finance, Layout: templates.LayoutBill, TitleKey: "route.transactions"},
	{Name: "bills-statements", Method: http.MethodGet, Path: pathStatements, Access: Finance, Layout: templates.LayoutBill, TitleKey: "route.statements"},
	{Name: "bills-statement-create", Method: http.MethodPost, Path: pathStatements, Access: Finance},
	// The statement's agency is the caller's: the ledger is asked for the
	// caller's agency's statement only.
	{Name: "bills-statement", Method: http.MethodGet, Path: pathStatement, Access: Finance},
	{Name: "bills-statement-export", Method: http.MethodGet, Path: pathStatementExport, Access: Finance},
	// The provider's daily channel reconciliation: every agency's channel
	// payments, so the provider's finance (or SuperUser) only.
	{Name: "bills-reconciliation", Method: http.MethodGet, Path: pathReconciliation, Access: ProviderFinance, Layout: templates.LayoutBill, TitleKey: "route.reconciliation"},
	{Name: "bills-reconciliation-export", Method: http.MethodGet, Path: pathReconciliationExport, Access: ProviderFinance},

	// Every agency-manager action names an agency; the agency service
	// answers not found for one the caller does not manage.
	{Name: "agency-manager", Method: http.MethodGet, Path: pathAgencyManager, Access: ManagesAgencies, Layout: templates.LayoutAgencyManager, TitleKey: "route.agencyManager"},
	{Name: "agency-create", Method: http.MethodPost, Path: pathAgencies, Access: ManagesAgencies},
	{Name: "agency-detail", Method: http.MethodGet, Path: pathAgency, Access: ManagesAgencies},
	{Name: "agency-profile", Method: http.MethodPost, Path: pathAgencyProfile, Access: ManagesAgencies},
	{Name: "agency-config", Method: http.MethodPost, Path: pathAgencyConfig, Access: ManagesAgencies},
	{Name: "agency-credit", Method: http.MethodPost, Path: pathAgencyCredit, Access: ManagesAgencies},
	{Name: "agency-funds", Method: http.MethodPost, Path: pathAgencyFunds, Access: ManagesAgencies},
	{Name: "agency-apikey", Method: http.MethodPost, Path: pathAgencyAPIKey, Access: ManagesAgencies},
	{Name: "agency-password", Method: http.MethodPost, Path: pathAgencyPassword, Access: ManagesAgenciesSuperUser},
	{Name: "agency-status", Method: http.MethodPost, Path: pathAgencyStatus, Access: ManagesAgencies},
	{Name: "agency-delete", Method: http.MethodPost, Path: pathAgencyDelete, Access: ManagesAgencies},
	{Name: "agency-webhook-redeliver", Method: http.MethodPost, Path: pathAgencyRedeliver, Access: ManagesAgencies},
	{Name: "agency-webhook-secret", Method: http.MethodPost, Path: pathAgencyWebhookKey, Access: ManagesAgencies},
	{Name: "agency-manager-statements", Method: http.MethodGet, Path: pathSubStatements, Access: ManagesAgencies, Layout: templates.LayoutAgencyManager, TitleKey: "route.agencyStatements"},
	{Name: "agency-manager-statement-create", Method: http.MethodPost, Path: pathSubStatements, Access: ManagesAgencies},
	{Name: "agency-manager-bills-id", Method: http.MethodGet, Path: pathSubBill, Access: AgencyBills, Layout: templates.LayoutAgencyManager, TitleKey: "route.agencyBill"},
	{Name: "agency-manager-bill-export", Method: http.MethodGet, Path: pathSubBillExport, Access: AgencyBills},

	// The runtime profiles of this instance (pprof.go).
	{Name: "debug-pprof", Method: http.MethodGet, Path: pathPprof, Subtree: true, Access: ProviderSuperUser},
	// River's job console (jobconsole.go): its pages and assets (GET), and
	// its API's reads (GET) and actions (POST, PUT, PATCH), all under one
	// rule.
	{Name: "job-console", Path: pathJobConsole, Subtree: true, Access: ProviderSuperUser},

	// Any other path, with any method: the 404 page.
	{Name: "not-found", Path: pathHome, Subtree: true, Access: Public},
}

// handlers are the portal's handlers by route name; Register pairs them
// with the table.
func (s *Server) handlers() map[string]http.Handler {
	hs := map[string]http.HandlerFunc{
		"home":                            s.home,
		"terms":                           s.legal("terms"),
		"privacy":                         s.legal("privacy"),
		"api-docs":                        s.apiDocs,
		"api-guide":                       s.apiGuide,
		"application-save":                s.applicationSave,
		"prefs-lang":                      s.prefsLang,
		"prefs-currency":                  s.prefsCurrency,
		"login":                           s.loginPage,
		"login-submit":                    s.login,
		"logout":                          s.logout,
		"profile":                         s.profile,
		"profile-password":                s.passwordChange,
		"profile-session-end":             s.sessionEnd,
		"users":                           s.usersPage,
		"user-create":                     s.userCreate,
		"user-update":                     s.userUpdate,
		"user-deactivate":                 s.userDeactivate,
		"user-log":                        s.userLogPage,
		"company":                         s.companyPage,
		"company-save":                    s.companySave,
		"company-logo":                    s.companyLogo,
		"flight-booking":                  s.flightBooking,
		"flight-booking-confirm":          s.flightConfirm,
		"flight-orders":                   s.orderList,
		"flight-orders-voyage":            s.disruptionList,
		"flight-orders-id":                s.orderDetail,
		"flight-order-action":             s.orderAction,
		"flight-order-change-search":      s.orderChangeSearch,
		"flight-order-approve":            s.orderReviewAction(flight.ActApprove),
		"flight-order-reject":             s.orderReviewAction(flight.ActReject),
		"flight-order-quote":              s.orderReviewAction(flight.ActQuote),
		"flight-order-issue":              s.orderReviewAction(flight.ActIssue),
		"flight-order-resolve-ok":         s.orderReviewAction(flight.ActResolveOK),
		"flight-order-resolve-failed":     s.orderReviewAction(flight.ActResolveFailed),
		"flight-group-booking":            s.groupBooking,
		"flight-group-booking-confirm":    s.groupConfirm,
		"flight-group-order":              s.groupList,
		"flight-group-order-id":           s.groupDetail,
		"flight-group-accept":             s.groupAction(groupActAccept),
		"flight-group-decline":            s.groupAction(groupActDecline),
		"flight-group-passengers":         s.groupAction(groupActPassengers),
		"flight-group-confirmation":       s.groupAction(groupActConfirm),
		"flight-group-payment":            s.groupAction(groupActPay),
		"flight-group-cancel":             s.groupAction(groupActCancel),
		"flight-group-quote":              s.groupAction(groupActQuote),
		"flight-group-seats":              s.groupAction(groupActSeats),
		"flight-group-document":           s.groupDocument,
		"train-booking":                   s.trainBooking,
		"train-orders":                    s.trainOrderList,
		"train-order-id":                  s.trainOrderDetail,
		"train-order-eticket":             s.trainETicket,
		"bills-wallet":                    s.walletPage,
		"bills-transactions":              s.billTransactions,
		"bills-statements":                s.billStatements,
		"bills-statement-create":          s.billStatementCreate,
		"bills-statement":                 s.billStatement,
		"bills-statement-export":          s.billStatementExport,
		"bills-reconciliation":            s.reconciliationPage,
		"bills-reconciliation-export":     s.reconciliationExport,
		"agency-manager":                  s.agencyList,
		"agency-create":                   s.agencyCreate,
		"agency-detail":                   s.agencyDetail,
		"agency-profile":                  s.agencyAction(s.agencyProfileSave),
		"agency-config":                   s.agencyAction(s.agencyConfigSave),
		"agency-credit":                   s.agencyAction(s.agencyCreditSave),
		"agency-funds":                    s.agencyAction(s.agencyFundsAdd),
		"agency-apikey":                   s.agencyAction(s.agencyAPIKeyCreate),
		"agency-password":                 s.agencyAction(s.agencyPasswordReset),
		"agency-status":                   s.agencyAction(s.agencyStatusSave),
		"agency-delete":                   s.agencyAction(s.agencyDelete),
		"agency-webhook-redeliver":        s.agencyAction(s.agencyWebhookRedeliver),
		"agency-webhook-secret":           s.agencyAction(s.agencyWebhookSecret),
		"agency-manager-statements":       s.subStatements,
		"agency-manager-statement-create": s.subStatementCreate,
		"agency-manager-bills-id":         s.subBill,
		"agency-manager-bill-export":      s.subBillExport,
		"not-found":                       s.NotFound,
		"debug-pprof":                     pprofHandler,
		"job-console":                     s.jobConsole,

		"profile-details":           s.profileDetailsSave,
		"profile-config":            s.profileConfigSave,
		"profile-travellers":        s.travellerList().Page,
		"profile-traveller-create":  s.travellerList().Create,
		"profile-traveller-update":  s.travellerList().Update,
		"profile-traveller-delete":  s.travellerList().Delete,
		"profile-travellers-import": s.travellersImport,
		"profile-cards":             s.cards().Page,
		"profile-card-create":       s.cards().Create,
		"profile-card-update":       s.cards().Update,
		"profile-card-delete":       s.cards().Delete,
	}
	out := make(map[string]http.Handler, len(hs)+1)
	for name, h := range hs {
		out[name] = h
	}
	out["static"] = s.static()
	return out
}

// Mux is where Register mounts the portal; *http.ServeMux is one.
type Mux interface {
	Handle(pattern string, handler http.Handler)
}

// Register mounts every route of the table on mux, each handler behind its
// route's rule. It is the only place the portal's handlers are mounted: a
// handler without a route, or a route without a handler or a rule, is a
// programming error and panics at start.
func (s *Server) Register(mux Mux) {
	s.mount(mux, s.handlers())
}

func (s *Server) mount(mux Mux, hs map[string]http.Handler) {
	seen := map[string]bool{}
	for _, rt := range Routes {
		h, ok := hs[rt.Name]
		switch {
		case rt.Access.Name == "":
			panic("web: route " + rt.Name + " has no access rule")
		case !ok:
			panic("web: route " + rt.Name + " has no handler")
		case seen[rt.Name]:
			panic("web: route " + rt.Name + " declared twice")
		}
		seen[rt.Name] = true
		mux.Handle(rt.Pattern(), s.enforce(rt, h))
	}
	for name := range hs {
		if !seen[name] {
			panic("web: handler " + name + " has no route")
		}
	}
}

// RouteByName returns a route of the table; a missing name is a programming
// error.
func RouteByName(name string) Route {
	for _, rt := range Routes {
		if rt.Name == name {
			return rt
		}
	}
	panic("web: no route named " + name)
}

// routeLookup is a mux of the table whose handlers name their route, so that
// finding the route of a link matches exactly as serving it does.
var routeLookup = sync.OnceValue(func() *http.ServeMux {
	m := http.NewServeMux()
	for i := range Routes {
		m.Handle(Routes[i].Pattern(), routeIndex(i))
	}
	return m
})

type routeIndex int

func (routeIndex) ServeHTTP(http.ResponseWriter, *http.Request) {}

// routeFor is the route that serves method on target (a path with an
// optional query); false when the mux would answer 405 or redirect.
func routeFor(method, target string) (Route, bool) {
	u, err := url.Parse(target)
	if err != nil {
		return Route{}, false
	}
	h, _ := routeLookup().Handler(&http.Request{Method: method, URL: u, Host: "portal"})
	i, ok := h.(routeIndex)
	if !ok {
		return Route{}, false
	}
	return Routes[i], true
}

// menuEntry is a menu item shown only to whom show allows.
type menuEntry struct {
	templates.NavItem
	show func(auth.Subject) bool
}

// topNav is the top bar of spec §2, each entry behind its §6 predicate.
var topNav = []menuEntry{
	{templates.NavItem{Key: "nav.flights", Href: pathFlightBooking}, booking.Flights.MayBook},
	{templates.NavItem{Key: "nav.groupTicket", Href: pathGroupBooking}, booking.Groups.MayBook},
	{templates.NavItem{Key: "nav.trains", Href: pathTrainBooking}, auth.Subject.TrainServiceEnable},
	{templates.NavItem{Key: "nav.myBookings", Href: pathOrders}, auth.Subject.CanAccessTicket},
	{templates.NavItem{Key: "nav.wallet", Href: pathWallet}, auth.Subject.CanAccessFinance},
	// Spec §6 shows Agency Management to the provider only, but an agency
	// that may create sub-agencies manages them on the same page: the route
	// rule decides, as for every entry.
	{templates.NavItem{Key: "nav.agencyManagement", Href: pathAgencyManager}, anyone},
}

// userMenu is the user menu of spec §2; Log out is a form of its own.
var userMenu = []menuEntry{
	{templates.NavItem{Key: "nav.userManagement", Href: pathUsers}, isSuperUser},
	{templates.NavItem{Key: "nav.userLog", Href: pathUserLog}, isSuperUser},
	{templates.NavItem{Key: "nav.companyProfile", Href: pathCompany}, isSuperUser},
	{templates.NavItem{Key: "nav.jobConsole", Href: pathJobConsole}, ProviderSuperUser.allow},
	{templates.NavItem{Key: "nav.account", Href: pathProfile}, anyone},
}

// topNavFor is the top bar for v: nothing for a visitor, and for a user the
// entries their role and company allow and whose page the guard would open
// (finance saw Trains, whose booking page is an operator's, and was refused).
func topNavFor(v viewer) []templates.NavItem {
	if !v.LoggedIn {
		return nil
	}
	var out []templates.NavItem
	for _, it := range pick(topNav, v) {
		if allowed(it.Href, v) {
			out = append(out, it)
		}
	}
	return out
}

func userMenuFor(v viewer) []templates.NavItem {
	if !v.LoggedIn {
		return nil
	}
	return pick(userMenu, v)
}

func pick(entries []menuEntry, v viewer) []templates.NavItem {
	var out []templates.NavItem
	for _, e := range entries {
		if e.show(v.Principal.Subject) {
			out = append(out, e.NavItem)
		}
	}
	return out
}

// sideNavFor is a layout's section menu without the pages the guard would
// refuse v.
func sideNavFor(layout string, v viewer) []templates.NavItem {
	var out []templates.NavItem
	for _, it := range sideNavs[layout] {
		if allowed(it.Href, v) {
			out = append(out, it)
		}
	}
	return out
}

// sideNavs are the section menus of the layouts that have one.
var sideNavs = map[string][]templates.NavItem{
	templates.LayoutOrder: {
		{Key: "nav.flightOrders", Href: pathOrders},
		{Key: "nav.flightDisruptions", Href: pathDisruptions},
		{Key: "nav.groupOrders", Href: pathGroupOrders},
		{Key: "nav.trainOrders", Href: pathTrainOrders},
	},
	templates.LayoutBill: {
		{Key: "nav.walletEntries", Href: pathWallet},
		{Key: "nav.transactions", Href: pathTransactions},
		{Key: "nav.statements", Href: pathStatements},
		{Key: "nav.reconciliation", Href: pathReconciliation},
	},
	templates.LayoutAgencyManager: {
		{Key: "nav.agencies", Href: pathAgencyManager},
		{Key: "nav.subStatements", Href: pathSubStatements},
	},
}
