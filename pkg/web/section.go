package web

import (
	"net/http"
	"net/url"

	"github.com/voyage/voyage/pkg/auth"

	"github.com/voyage/voyage/templates"
)

// sectionStates are the empty states the spec gives (§2 screens); other
// sections say they are not available yet rather than show made-up data.
var sectionStates = map[string]templates.Section{}

// section is the page of the route named name while its feature is not
// built: its layout, title and side menu, and the spec's empty state.
func (s *Server) section(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := s.page(w, r, name)
		render(w, r, http.StatusOK, templates.SectionPage(p, sectionStates[name]))
	}
}

// listURL is a list's address with its filters.
func listURL(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// admitViewer checks a login (and rule) again inside a handler. The route
// table's rule has already run by then (enforce); the password change and
// the session list, whose handlers pkg/auth's throttling work owns, still
// ask here, and answer as enforce would.
func (s *Server) admitViewer(w http.ResponseWriter, r *http.Request, rule func(auth.Subject) bool) (viewer, bool) {
	v := viewerFrom(r.Context())
	switch {
	case !v.LoggedIn:
		s.refuse(w, r, http.StatusUnauthorized, "router.login")
		return v, false
	case !rule(v.Principal.Subject):
		s.refuse(w, r, http.StatusForbidden, "router.notRole")
		return v, false
	}
	return v, true
}
