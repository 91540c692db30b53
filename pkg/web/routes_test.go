package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/templates"
)

// recordingMux is a ServeMux that remembers every pattern mounted on it.
type recordingMux struct {
	*http.ServeMux
	patterns []string
}

func (m *recordingMux) Handle(pattern string, h http.Handler) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.Handle(pattern, h)
}

// samplePath is a request path for a pattern's path: each {…} segment is 1.
func samplePath(path string) string {
	return regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(path, "1")
}

// TestEveryMountedRouteHasARule walks what Register mounts: each pattern
// must be a route of the table with an access rule, and each route of the
// table must be mounted. Then every mounted route that is not public is
// asked by a visitor, and every route that needs more than a login by a
// user with no role and no service: neither may reach a handler.
func TestEveryMountedRouteHasARule(t *testing.T) {
	t.Parallel()
	s, id := guardFixture()
	withSite(t, s)
	id.sessions["nobody"] = auth.Principal{UserID: 20, AgencyID: 1, SessionID: 200, Subject: auth.Subject{ProxyLevel: 1, Permissions: []string{"wallet:read"}}}
	mux := &recordingMux{ServeMux: http.NewServeMux()}
	s.Register(mux)

	byPattern := map[string]Route{}
	for _, rt := range Routes {
		byPattern[rt.Pattern()] = rt
	}
	mounted := map[string]bool{}
	for _, p := range mux.patterns {
		rt, ok := byPattern[p]
		switch {
		case !ok:
			t.Errorf("%q is mounted but is no route of the table", p)
		case rt.Access.Name == "":
			t.Errorf("%q (%s) has no access rule", p, rt.Name)
		}
		mounted[p] = true
	}
	for p, rt := range byPattern {
		if !mounted[p] {
			t.Errorf("route %s (%q) is not mounted", rt.Name, p)
		}
	}

	h := tableWithMux(mux.ServeMux, s)
	posts := 0
	for _, rt := range Routes {
		if rt.Access.Public() || rt.Subtree {
			continue
		}
		method := rt.Method
		if method == "" {
			method = http.MethodGet
		}
		if method == http.MethodPost {
			posts++
		}
		path := samplePath(rt.Path)
		t.Run(rt.Name+" visitor", func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
			checkRefused(t, method, rec.Result(), "error:router.login")
		})
		if rt.Access.Name == LoggedIn.Name {
			continue
		}
		t.Run(rt.Name+" without role", func(t *testing.T) {
			req := httptest.NewRequest(method, path, nil)
			req.AddCookie(&http.Cookie{Name: SessionCookie, Value: "nobody"})
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			checkRefused(t, method, rec.Result(), "error:router.notRole")
		})
	}
	if posts < 20 {
		t.Fatalf("only %d guarded posts in the table: the walk lost the forms", posts)
	}
}

// tableWithMux is the guard in front of a mounted mux, in English.
func tableWithMux(mux http.Handler, s *Server) http.Handler {
	return inEnglish(s.Guard(mux))
}

// TestMountRefusesARouteWithoutARule: a route added to the table without a
// rule, or a handler without a route, stops the portal at start.
//
// Not parallel: it swaps the package's route table, which the parallel
// tests read (routeFor); a test that is not parallel runs before any
// parallel one resumes.
func TestMountRefusesARouteWithoutARule(t *testing.T) {
	s, _ := guardFixture()
	hs := map[string]http.Handler{}
	for _, rt := range Routes {
		hs[rt.Name] = http.NotFoundHandler()
	}
	saved := Routes
	t.Cleanup(func() { Routes = saved })

	Routes = append(append([]Route{}, saved...), Route{Name: "open-form", Method: http.MethodPost, Path: "/open-form"})
	hs["open-form"] = http.NotFoundHandler()
	if !panics(func() { s.mount(http.NewServeMux(), hs) }) {
		t.Error("a route without a rule was mounted")
	}
	Routes = saved
	delete(hs, "open-form")
	hs["stray"] = http.NotFoundHandler()
	if !panics(func() { s.mount(http.NewServeMux(), hs) }) {
		t.Error("a handler without a route was accepted")
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// The pages' links and forms are written in the templates; each must land
// on a route of the table with that method, not on the 404 page.
func TestTemplateLinksAreRoutes(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../templates/*.templ")
	if err != nil || len(files) == 0 {
		t.Fatalf("templates not found: %v", err)
	}
	form := regexp.MustCompile(`<form[^>]*>`)
	action := regexp.MustCompile(`action="(/[^"#?]*)`)
	post := regexp.MustCompile(`(?:method="post"|hx-post="(/[^"#?]*))`)
	href := regexp.MustCompile(`(?:href|hx-get)="(/[^"#?]*)`)
	check := func(file, method, path string) {
		if strings.HasPrefix(path, "/static/") {
			return
		}
		rt, ok := routeFor(method, path)
		if !ok || rt.Name == "not-found" {
			t.Errorf("%s: %s %s is no route of the table", filepath.Base(file), method, path)
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, tag := range form.FindAllString(string(b), -1) {
			a := action.FindStringSubmatch(tag)
			p := post.FindStringSubmatch(tag)
			switch {
			case p != nil && p[1] != "":
				check(f, http.MethodPost, p[1])
			case a != nil && p != nil:
				check(f, http.MethodPost, a[1])
			case a != nil:
				check(f, http.MethodGet, a[1])
			}
		}
		for _, m := range href.FindAllStringSubmatch(string(b), -1) {
			if m[1] == "/openapi.json" {
				continue // the API's document, outside the portal
			}
			check(f, http.MethodGet, m[1])
		}
	}
	// The links the templates build in Go.
	for _, c := range []struct {
		method, path, route string
	}{
		{http.MethodGet, templates.AgencyHref(5), "agency-detail"},
		{http.MethodGet, templates.StatementHref(3), "bills-statement"},
		{http.MethodGet, templates.SubBillHref(5, 8), "agency-manager-bills-id"},
		{http.MethodGet, templates.OrderHref(9), "flight-orders-id"},
		{http.MethodPost, templates.OrderActionHref(9, "cancel"), "flight-order-action"},
		{http.MethodPost, templates.OrderActionHref(9, "approve"), "flight-order-approve"},
		{http.MethodPost, templates.OrderActionHref(9, "change/search"), "flight-order-change-search"},
		{http.MethodGet, templates.UserListFilter{}.EditURL(7), "users"},
		{http.MethodGet, fill(pathStatementExport, 3), "bills-statement-export"},
		{http.MethodGet, subStatementsHref(5), "agency-manager-statements"},
	} {
		if rt, ok := routeFor(c.method, c.path); !ok || rt.Name != c.route {
			t.Errorf("%s %s lands on %q, want %s", c.method, c.path, rt.Name, c.route)
		}
	}
}
