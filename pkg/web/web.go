// Package web is the portal: server-rendered templ pages, htmx partials and
// the React islands bundle, behind the navigation guard of spec §2.
package web

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/partnership"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/train"
	"github.com/voyage/voyage/pkg/webhook"
	"github.com/voyage/voyage/templates"
)

// Server holds what the portal handlers need.
type Server struct {
	site          *siteinfo.Service
	applications  *partnership.Service
	assets        Assets
	secureCookies bool
	now           func() time.Time
	identity      Identity      // nil: nobody can log in
	agencies      Agencies      // nil: no agency names or branding
	userAdmin     UserAdmin     // nil: no user management or user log
	companyAdmin  CompanyAdmin  // nil: no company profile page
	manager       AgencyManager // nil: the agency manager answers 500
	wallets       Wallets       // nil: the wallet page answers 500
	keys          AgencyKeys    // nil: no API keys or password resets
	bills         Bills         // nil: the transactions and statement pages answer 500
	orders        Orders        // nil: the flight order pages answer 500
	trains        TrainOrders   // nil: the train pages answer 500
	webhooks      Webhooks      // nil: no notifications section in the agency manager
	catalog       *i18n.Catalog // the notice emails' texts (nil: no emails)
	groups        GroupOrders   // nil: the group flight pages answer 500
	groupEntries  GroupEntries  // nil: group payments read as posted
	travellers    Travellers    // nil: the saved-traveller pages answer 500
	reconciler    Reconciler    // nil: the channel reconciliation answers 500
	console       http.Handler  // nil: the job console answers 500
}

// Options configure the portal.
type Options struct {
	Site          *siteinfo.Service
	Applications  *partnership.Service
	SecureCookies bool
	Auth          *auth.Service
	Agencies      *agency.Store
	UserAdmin     UserAdmin
	CompanyAdmin  CompanyAdmin
	AgencyAdmin   *agency.Service
	Ledger        *ledger.Ledger
	Orders        *flight.Service
	Trains        *train.Service
	Webhooks      *webhook.Service
	Catalog       *i18n.Catalog
	// Groups runs group flight orders (issue 16).
	Groups  *group.Service
	Profile *profile.Service
	// Reconciler makes finance's daily channel reconciliation
	// (payment.Reconciler).
	Reconciler Reconciler
	// JobConsole is River's UI on the job queue (jobs.Queue.Console),
	// served at /admin/jobs/ to the provider's SuperUser.
	JobConsole http.Handler
}

// New returns the portal, reading the islands manifest once.
func New(o Options) *Server {
	assets, err := LoadAssets(staticFS)
	if err != nil {
		slog.Warn("islands bundle unavailable", "err", err)
	}
	s := &Server{site: o.Site, applications: o.Applications, assets: assets, secureCookies: o.SecureCookies, now: time.Now, catalog: o.Catalog}
	// Only set the interfaces from non-nil pointers: a nil *auth.Service in
	// an interface would not compare equal to nil.
	if o.Auth != nil {
		s.identity = o.Auth
	}
	if o.Agencies != nil {
		s.agencies = o.Agencies
	}
	s.userAdmin, s.companyAdmin = o.UserAdmin, o.CompanyAdmin
	if o.AgencyAdmin != nil {
		s.manager = o.AgencyAdmin
	}
	if o.Ledger != nil {
		s.wallets = o.Ledger
		s.bills = o.Ledger
	}
	if o.Auth != nil {
		s.keys = o.Auth
	}
	if o.Orders != nil {
		s.orders = o.Orders
	}
	if o.Webhooks != nil {
		s.webhooks = o.Webhooks
	}
	if o.Groups != nil {
		s.groups = o.Groups
		s.groupEntries = o.Groups
	}
	if o.Trains != nil {
		s.trains = o.Trains
	}
	if o.Profile != nil {
		s.travellers = o.Profile
	}
	s.reconciler = o.Reconciler
	s.console = o.JobConsole
	return s
}

// Guard is the navigation guard of spec §2, the part that runs before
// routing. It reads the session cookie and puts the viewer (and its
// principal) in the request context; handles the single-login entry; and a
// dead session (200005, 200006, 201001) clears the cookie and is marked on
// the viewer, for the route's rule to answer as a forced logout. Who may
// use a route is its rule in the route table, applied by enforce where
// Register mounts the route. The API, static files and the operational
// endpoints are left to their handlers.
func (s *Server) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !portalPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && hasSingleLogin(r.URL.Query()) {
			s.singleLogin(w, r)
			return
		}
		v, err := s.identify(r)
		if err != nil {
			fe, ok := fault.As(err)
			if !ok || !sessionEnded(fe.Code) {
				slog.ErrorContext(r.Context(), "authenticate portal session", "err", err)
				s.ServerError(w, r)
				return
			}
			s.clearSession(w)
			v = viewer{Ended: endedSessionKey(fe)}
		}
		ctx := s.withDisplay(withViewer(r.Context(), v), r, v)
		if v.LoggedIn {
			ctx = auth.WithPrincipal(ctx, v.Principal)
			if v.Principal.Iframe && v.Agency.ID != 0 {
				allowFraming(w, v.Agency)
			}
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// enforce puts rt's rule in front of h. Spec §2: a page opened without a
// login, or without the role or the company service, goes home with
// 'router.login' or 'router.notRole'; a dead session goes home with its
// message, except on the public forms (login, language, currency,
// partnership), which go on without it. Form posts and htmx requests are
// answered with the status instead (refuse).
func (s *Server) enforce(rt Route, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := viewerFrom(r.Context())
		switch {
		case v.Ended != "" && (navigation(r) || !rt.Access.Public()):
			s.refuse(w, r, http.StatusUnauthorized, v.Ended)
		case rt.Access.Public():
			h.ServeHTTP(w, r)
		case !v.LoggedIn:
			s.refuse(w, r, http.StatusUnauthorized, "router.login")
		case !rt.Access.Allows(v.Principal.Subject):
			s.refuse(w, r, http.StatusForbidden, "router.notRole")
		default:
			h.ServeHTTP(w, r)
		}
	})
}

// navigation reports whether r is the browser opening a page, rather than a
// form post or an htmx request.
func navigation(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) && !htmxRequest(r)
}

func htmxRequest(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// refuse answers a request its route's rule turns away, key saying why. A
// page goes home with the message (spec §2). Nothing of a refused post is
// done, and the answer says so with its status, 401 without a login and 403
// without the rule: htmx gets the status and HX-Redirect home, where the
// message waits; a form post without JavaScript gets the page in place,
// the login form when a login is missing, else the home page, with the
// message.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, key string) {
	flash := templates.Flash{Kind: "error", Key: key}
	home := refusedHome(r, status)
	switch {
	case navigation(r):
		s.redirectWithFlash(w, r, home, flash)
	case htmxRequest(r):
		s.setFlash(w, flash)
		w.Header().Set("HX-Redirect", home)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, i18n.T(r.Context(), key)+"\n")
	case status == http.StatusUnauthorized:
		p := s.page(w, r, "login")
		p.Flashes = append(p.Flashes, flash)
		render(w, r, status, templates.LoginPage(p, templates.LoginForm{}))
	default:
		p := s.page(w, r, "home")
		p.Flashes = append(p.Flashes, flash)
		render(w, r, status, templates.HomePage(p, templates.ApplicationForm{}))
	}
}

// refusedHome is where a refused request sends the user: a signed-in user
// refused for their role goes to their own home in the portal (the landing
// page of their role, the profile when that is the page refused), anyone
// else to the public home page, where logging in starts.
func refusedHome(r *http.Request, status int) string {
	v := viewerFrom(r.Context())
	if status != http.StatusForbidden || !v.LoggedIn {
		return pathHome
	}
	if home := v.Principal.Subject.LandingPath(); home != r.URL.Path {
		return home
	}
	return pathProfile
}

// identify authenticates the session cookie, if any, and loads the user's
// agency for the menus and branding.
func (s *Server) identify(r *http.Request) (viewer, error) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" || s.identity == nil {
		return viewer{}, nil
	}
	p, err := s.identity.Authenticate(r.Context(), c.Value)
	if err != nil {
		return viewer{}, err
	}
	v := viewer{LoggedIn: true, Principal: p}
	if s.agencies != nil {
		a, err := s.agencies.Get(r.Context(), p.AgencyID)
		if err != nil {
			// The page still works without the agency's name and branding.
			slog.WarnContext(r.Context(), "load agency of session", "agency", p.AgencyID, "err", err)
		} else {
			v.Agency = a
		}
	}
	return v, nil
}

// withDisplay puts how the request shows times and money into ctx: the
// user's time zone (their own, else their agency's; the default zone
// before a login) and the footer's display currency with the site's rates.
func (s *Server) withDisplay(ctx context.Context, r *http.Request, v viewer) context.Context {
	var user, agency string
	if v.LoggedIn {
		user, agency = v.Principal.TimeZone, v.Agency.TimeZone
	}
	ctx = display.WithZone(ctx, display.ResolveZone(user, agency))
	if s.site == nil {
		return ctx
	}
	info, err := s.site.Get(ctx)
	if err != nil {
		// The pages still work; amounts show without a converted figure.
		slog.WarnContext(ctx, "site info for the display currency", "err", err)
		return ctx
	}
	return display.WithCurrency(ctx, display.Currency{Code: s.currency(r, info), Rates: info.RateMap})
}

// page fills the layout data for the route named name.
func (s *Server) page(w http.ResponseWriter, r *http.Request, name string) templates.Page {
	ctx := r.Context()
	info, err := s.site.Get(ctx)
	if err != nil {
		slog.ErrorContext(ctx, "site info", "err", err)
	}
	rt := RouteByName(name)
	return s.pageFor(w, r, rt, info)
}

func (s *Server) pageFor(w http.ResponseWriter, r *http.Request, rt Route, info siteinfo.Info) templates.Page {
	ctx := r.Context()
	v := viewerFrom(ctx)
	title := info.ShortNameIn(i18n.Lang(ctx))
	if rt.TitleKey != "" {
		title = i18n.T(ctx, rt.TitleKey)
	}
	p := templates.Page{
		Title:    title,
		Layout:   rt.Layout,
		Lang:     i18n.Lang(ctx),
		Path:     r.URL.RequestURI(),
		Currency: s.currency(r, info),
		Site:     info,
		Nav:      markActive(topNavFor(v), r.URL.Path),
		SideNav:  markActive(sideNavFor(rt.Layout, v), r.URL.Path),
		Flashes:  s.takeFlashes(w, r),
		Scripts:  s.assets.Scripts,
		Styles:   append([]string{"/static/marketing.css"}, s.assets.Styles...),
		Year:     s.now().Year(),
		TimeZone: display.Zone(ctx).String(),
		Rates:    info.RateMap,
	}
	if v.LoggedIn {
		p.Account = account(v)
		p.UserMenu = markActive(userMenuFor(v), r.URL.Path)
		b := v.Agency.Branding()
		p.Favicon, p.HideCustomerService = b.Favicon, b.HideCSWidget
		if themeName.MatchString(b.Theme) {
			p.Theme = b.Theme
		}
	}
	return p
}

// themeName keeps an agency's theme a plain class name.
var themeName = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)

// account is the user menu's heading: the nickname when there is one.
func account(v viewer) *templates.Account {
	a := &templates.Account{Name: v.Principal.Username, Username: v.Principal.Username, Company: v.Agency.Name}
	if v.Principal.Nickname != "" {
		a.Name = v.Principal.Nickname
	}
	return a
}

func markActive(items []templates.NavItem, path string) []templates.NavItem {
	out := make([]templates.NavItem, len(items))
	for i, it := range items {
		it.Active = path == it.Href || strings.HasPrefix(path, it.Href+"/")
		out[i] = it
	}
	return out
}

// render writes a templ component as the response.
func render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := c.Render(r.Context(), w); err != nil {
		slog.ErrorContext(r.Context(), "render page", "path", r.URL.Path, "err", err)
	}
}

// NotFound renders the 404 page.
func (s *Server) NotFound(w http.ResponseWriter, r *http.Request) {
	info, _ := s.site.Get(r.Context())
	p := s.pageFor(w, r, Route{Layout: templates.LayoutNormal, TitleKey: "route.notFound"}, info)
	render(w, r, http.StatusNotFound, templates.NotFoundPage(p))
}

// ServerError renders the 500 page; the panic handler uses it too.
func (s *Server) ServerError(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 2*time.Second)
	defer cancel()
	info, _ := s.site.Get(ctx)
	p := s.pageFor(w, r.WithContext(ctx), Route{Layout: templates.LayoutNormal, TitleKey: "route.error"}, info)
	render(w, r.WithContext(ctx), http.StatusInternalServerError, templates.ErrorPage(p))
}

func (s *Server) static() http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/static/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") || strings.Contains(r.URL.Path, "/.") {
			s.NotFound(w, r)
			return
		}
		// Vite's output names carry a content hash, so they never change.
		if strings.HasPrefix(r.URL.Path, "/static/dist/assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=300")
		}
		files.ServeHTTP(w, r)
	})
}
