package web

import (
	"net/http"
	"net/url"

	"github.com/voyage/voyage/pkg/auth"

	"github.com/voyage/voyage/templates"
)

// sectionRoute reports whether rt is a logged-in page whose feature arrives
// in a later issue; until then it renders its layout, title and side menu.
func sectionRoute(rt Route) bool {
	return !rt.Public
}

// sectionStates are the empty states the spec gives (§2 screens); other
// sections say they are not available yet rather than show made-up data.
var sectionStates = map[string]templates.Section{
	"train-booking": {Heading: "portal.train.booking.title", EmptyKey: "portal.train.booking.empty"},
	"train-orders":  {EmptyKey: "portal.train.orders.empty"},
}

func (s *Server) section(rt Route) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := s.page(w, r, rt.Name)
		render(w, r, http.StatusOK, templates.SectionPage(p, sectionStates[rt.Name]))
	}
}

// handlePage registers h for GET on the path of the route named name, so
// that route is no longer served as an empty section.
func (s *Server) handlePage(mux *http.ServeMux, name string, h http.HandlerFunc) {
	if s.built == nil {
		s.built = map[string]bool{}
	}
	mux.HandleFunc("GET "+RouteByName(name).Path, h)
	s.built[name] = true
}

// listURL is a list's address with its filters.
func listURL(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// admitViewer applies the guard's answers on pages and form posts the route
// table does not cover: without a login 'router.login', without rule
// 'router.notRole', each with a redirect home.
func (s *Server) admitViewer(w http.ResponseWriter, r *http.Request, rule func(auth.Subject) bool) (viewer, bool) {
	v := viewerFrom(r.Context())
	switch {
	case !v.LoggedIn:
		s.redirectWithFlash(w, r, "/", templates.Flash{Kind: "error", Key: "router.login"})
		return v, false
	case !rule(v.Principal.Subject):
		s.redirectWithFlash(w, r, "/", templates.Flash{Kind: "error", Key: "router.notRole"})
		return v, false
	}
	return v, true
}
