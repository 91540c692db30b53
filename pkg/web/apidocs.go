package web

import (
	"net/http"

	"github.com/voyage/voyage/templates"
)

// apiDocs is the rendered API reference: the self-hosted Swagger UI (copied
// from npm's swagger-ui-dist by the islands build) reading /openapi.json.
func (s *Server) apiDocs(w http.ResponseWriter, r *http.Request) {
	p := s.page(w, r, "api-docs").WithStyles("/static/dist/swagger-ui/swagger-ui.css", "/static/apidocs.css")
	p.ClassicScripts = append(p.ClassicScripts, "/static/dist/swagger-ui/swagger-ui-bundle.js", "/static/apidocs.js")
	render(w, r, http.StatusOK, templates.ApiReferencePage(p))
}

// apiGuide is the getting-started page of the agency API.
func (s *Server) apiGuide(w http.ResponseWriter, r *http.Request) {
	p := s.page(w, r, "api-guide").WithStyles("/static/apidocs.css")
	render(w, r, http.StatusOK, templates.ApiGuidePage(p))
}
