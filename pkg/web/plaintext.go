package web

import (
	"net/http"

	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/partnership"
	"github.com/voyage/voyage/templates"
)

// RefuseText answers a portal request that server.PlainText refused: field
// held control characters. The partnership form comes back with the error
// on its field; any other form or address gets a 400 page naming the field.
func (s *Server) RefuseText(w http.ResponseWriter, r *http.Request, field, key string) {
	if r.Method == http.MethodPost && r.URL.Path == "/applications" {
		_ = r.ParseForm() // the body was read ahead and is handed on whole
		v := func(name string) string { return input.Clean(r.PostForm.Get(name)) }
		form := templates.ApplicationForm{
			Values: partnership.Application{Name: v("name"), Email: v("email"), Phone: v("phone"), Country: v("country"),
				CompanyName: v("companyName"), CompanyAddress: v("companyAddress"), Website: v("website"), Remark: v("remark")}.Normalize(),
			Errors: map[string]string{field: key},
		}
		s.applicationAnswer(w, r, r.Header.Get("HX-Request") == "true", http.StatusBadRequest, form)
		return
	}
	info, _ := s.site.Get(r.Context())
	p := s.pageFor(w, r, Route{Layout: templates.LayoutNormal, TitleKey: "route.error"}, info)
	render(w, r, http.StatusBadRequest, templates.BadInputPage(p, field, key))
}
