package web

import (
	"net/http"
	"net/http/pprof"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
)

// pathPprof serves Go's runtime profiles (net/http/pprof) of this instance
// to the provider's SuperUser, so that an operator can profile a live
// server: `go tool pprof -http=: 'https://host/debug/pprof/profile?seconds=30'`
// with the session cookie, or save the file from a logged-in browser. The
// path is pprof's own, which its index page's links assume.
const pathPprof = "/debug/pprof/"

// ProviderSuperUser: the provider's SuperUser (the runtime profiles show
// every agency's requests in flight).
var ProviderSuperUser = Access{Name: "provider SuperUser", allow: func(s auth.Subject) bool {
	return s.IsProvider() && isSuperUser(s)
}}

// pprofHandler serves the profile the path names: cmdline, profile (CPU),
// symbol and trace have handlers of their own; the index and the named
// profiles (heap, allocs, goroutine, mutex, block, threadcreate) pprof.Index
// serves.
func pprofHandler(w http.ResponseWriter, r *http.Request) {
	switch strings.TrimPrefix(r.URL.Path, pathPprof) {
	case "cmdline":
		pprof.Cmdline(w, r)
	case "profile":
		pprof.Profile(w, r)
	case "symbol":
		pprof.Symbol(w, r)
	case "trace":
		pprof.Trace(w, r)
	default:
		pprof.Index(w, r)
	}
}
