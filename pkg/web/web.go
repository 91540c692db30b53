// Package web is the portal: server-rendered templ pages, htmx partials and
// the React islands bundle, behind the navigation guard of spec §2.
package web

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/partnership"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/templates"
)

// Server holds what the portal handlers need.
type Server struct {
	site          *siteinfo.Service
	applications  *partnership.Service
	assets        Assets
	secureCookies bool
	now           func() time.Time
}

// Options configure the portal.
type Options struct {
	Site          *siteinfo.Service
	Applications  *partnership.Service
	SecureCookies bool
}

// New returns the portal, reading the islands manifest once.
func New(o Options) *Server {
	assets, err := LoadAssets(staticFS)
	if err != nil {
		slog.Warn("islands bundle unavailable", "err", err)
	}
	return &Server{site: o.Site, applications: o.Applications, assets: assets, secureCookies: o.SecureCookies, now: time.Now}
}

// Register adds the portal's routes to mux.
func (s *Server) Register(mux *http.ServeMux) {
	mux.Handle("GET /static/", s.static())
	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("POST /applications", s.applicationSave)
	mux.HandleFunc("GET /terms", s.legal("terms"))
	mux.HandleFunc("GET /privacy", s.legal("privacy"))
	mux.HandleFunc("POST /prefs/lang", s.prefsLang)
	mux.HandleFunc("POST /prefs/currency", s.prefsCurrency)
	mux.HandleFunc("/", s.fallback)
}

// Guard is the navigation guard of spec §2: a route that needs a login sends
// a visitor without one to / with 'router.login'. Public routes and paths
// outside the route table pass.
func (s *Server) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rt, ok := MatchRoute(r.URL.Path); ok && !rt.Public && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			s.redirectWithFlash(w, r, "/", templates.Flash{Kind: "error", Key: "router.login"})
			return
		}
		next.ServeHTTP(w, r)
	})
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
	title := info.ShortName
	if i18n.Lang(ctx) != i18n.EN && info.ChineseShortName != "" {
		title = info.ChineseShortName
	}
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
		Nav:      markActive(topNav, r.URL.Path),
		SideNav:  markActive(sideNavs[rt.Layout], r.URL.Path),
		Flashes:  s.takeFlashes(w, r),
		Scripts:  s.assets.Scripts,
		Styles:   append([]string{"/static/marketing.css"}, s.assets.Styles...),
		Year:     s.now().Year(),
	}
	return p
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

func (s *Server) fallback(w http.ResponseWriter, r *http.Request) {
	s.NotFound(w, r)
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
