package web

import (
	"net/http"

	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/templates"
)

// apiDocsPolicy is the API reference's Content-Security-Policy: the
// baseline with inline styles allowed, and nothing else. Scalar's bundle
// writes its stylesheet, its theme and its toasts' styles into <style>
// elements (only the first takes a nonce) and sets style attributes (the
// heights it reserves for sections it has not drawn yet), which style-src
// 'self' blocks: the page rendered unstyled. Scripts stay 'self' only (the bundle is served
// from /static/dist/scalar, apidocs.js holds its settings), and so do
// fonts, images and connections: the reference loads no web font, sends no
// telemetry, and its "Test Request" calls this server (the document's
// server is "/", no proxy is set).
var apiDocsPolicy = server.ContentSecurityPolicyWith(map[string][]string{
	"style-src": {"'unsafe-inline'"},
})

// apiDocs is the rendered API reference: Scalar's standalone bundle (copied
// from npm's @scalar/api-reference by the islands build) reading
// /openapi.json, set up by /static/apidocs.js.
func (s *Server) apiDocs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", apiDocsPolicy)
	p := s.page(w, r, "api-docs").WithStyles("/static/apidocs.css")
	p.ClassicScripts = append(p.ClassicScripts, "/static/dist/scalar/standalone.js", "/static/apidocs.js")
	render(w, r, http.StatusOK, templates.ApiReferencePage(p))
}

// apiGuide is the getting-started page of the agency API.
func (s *Server) apiGuide(w http.ResponseWriter, r *http.Request) {
	p := s.page(w, r, "api-guide").WithStyles("/static/apidocs.css")
	render(w, r, http.StatusOK, templates.ApiGuidePage(p))
}
