package web

import (
	"log/slog"
	"net/http"

	"github.com/voyage/voyage/pkg/server"
)

// pathJobConsole is River's own UI (riverui, built by jobs.Queue.Console)
// on the portal: the jobs of every agency by state, with their arguments
// and errors, and the actions that cancel, retry or delete a job and pause
// a queue. The route's rule (ProviderSuperUser) and the portal's login
// guard every page, asset and API call below it, reading and writing
// alike; the cross-origin protection in front of the portal refuses a
// state-changing request from another site, so another page cannot make a
// signed-in SuperUser's browser cancel or retry a job. `voyage jobs` is
// the same on the command line.
const pathJobConsole = "/admin/jobs/"

// JobConsolePrefix is the path riverui is built to serve below (its
// Prefix: no trailing slash).
const JobConsolePrefix = "/admin/jobs"

// jobConsoleCSP is the console's policy: the baseline's same-origin
// scripts, fetches and images, with inline styles, which riverui's React
// components set as style attributes (its list's and menus' positions).
var jobConsoleCSP = server.ContentSecurityPolicyWith(map[string][]string{"style-src": {"'unsafe-inline'"}})

// jobConsole serves the console to whom the route's rule let in.
func (s *Server) jobConsole(w http.ResponseWriter, r *http.Request) {
	if s.console == nil {
		slog.ErrorContext(r.Context(), "web: the job console was not given to the portal")
		s.ServerError(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", jobConsoleCSP)
	// The jobs' arguments and errors name agencies and orders: no cache
	// keeps them after the session.
	h.Set("Cache-Control", "no-store")
	s.console.ServeHTTP(w, r)
}
