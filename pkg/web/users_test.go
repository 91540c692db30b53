package web

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// fakeUserAdmin keeps the users of agency 1 in memory and records the calls
// that change them. Validation is auth's own, so the messages are the real
// ones.
type fakeUserAdmin struct {
	users       []auth.User
	created     []auth.NewUser
	updated     map[int64]auth.UserChanges
	deactivated []int64
	logFilter   audit.Filter
	log         []audit.Entry
}

func (f *fakeUserAdmin) ListUsers(_ context.Context, agencyID int64, uf auth.UserFilter) ([]auth.User, int, error) {
	var out []auth.User
	for _, u := range f.users {
		if u.AgencyID == agencyID && (uf.Keyword == "" || strings.Contains(u.Username, uf.Keyword)) && (uf.Status == "" || u.Status == uf.Status) {
			out = append(out, u)
		}
	}
	return out, len(out), nil
}

func (f *fakeUserAdmin) User(_ context.Context, id int64) (auth.User, error) {
	for _, u := range f.users {
		if u.ID == id {
			return u, nil
		}
	}
	return auth.User{}, fault.NotFound("")
}

func (f *fakeUserAdmin) CreateUserIn(_ context.Context, _ auth.Principal, n auth.NewUser, _ auth.Meta) (auth.User, error) {
	if errs := auth.ValidateUser(n, true); len(errs) > 0 {
		return auth.User{}, fault.Validation(errs)
	}
	f.created = append(f.created, n)
	return auth.User{ID: 99, Username: n.Username}, nil
}

func (f *fakeUserAdmin) UpdateUser(_ context.Context, _ auth.Principal, id int64, c auth.UserChanges, _ auth.Meta) (auth.User, error) {
	if c.Roles != nil && len(*c.Roles) == 0 {
		return auth.User{}, fault.Validation(map[string]string{"role": "user.error.role"})
	}
	if f.updated == nil {
		f.updated = map[int64]auth.UserChanges{}
	}
	f.updated[id] = c
	return auth.User{ID: id}, nil
}

func (f *fakeUserAdmin) DeactivateUser(_ context.Context, _ auth.Principal, id int64, _ auth.Meta) (auth.User, error) {
	f.deactivated = append(f.deactivated, id)
	return auth.User{ID: id, Status: auth.StatusInactive}, nil
}

func (f *fakeUserAdmin) UserLog(_ context.Context, agencyID int64, af audit.Filter) ([]audit.Entry, int, error) {
	af.AgencyID = agencyID
	f.logFilter = af
	return f.log, len(f.log), nil
}

// fakeCompanyAdmin is agency 1's company profile.
type fakeCompanyAdmin struct {
	a    agency.Agency
	logo []byte
}

func (f *fakeCompanyAdmin) Get(_ context.Context, id int64) (agency.Agency, error) {
	if id != f.a.ID {
		return agency.Agency{}, fault.NotFound("")
	}
	return f.a, nil
}

func (f *fakeCompanyAdmin) UpdateCompany(_ context.Context, _ auth.Principal, _ int64, u agency.CompanyUpdate, _ auth.Meta) (agency.Agency, error) {
	if errs := u.Validate(); len(errs) > 0 {
		return agency.Agency{}, fault.Validation(errs)
	}
	f.a.Name, f.a.Alias, f.a.Address = u.Name, u.Alias, u.Address
	return f.a, nil
}

func (f *fakeCompanyAdmin) SetLogo(_ context.Context, _ auth.Principal, _ int64, data []byte, _ auth.Meta) (string, error) {
	ct, err := agency.CheckLogo(data)
	if err != nil {
		return "", err
	}
	f.logo, f.a.LogoType = data, ct
	return ct, nil
}

var (
	adminSuper    = viewer{LoggedIn: true, Principal: principal(3, subject([]string{auth.RoleSuperUser}, true, true))}
	adminOperator = viewer{LoggedIn: true, Principal: principal(1, subject([]string{auth.RoleOperator}, true, true))}
)

func adminFixture(t *testing.T) (*Server, *http.ServeMux, *fakeUserAdmin, *fakeCompanyAdmin) {
	t.Helper()
	db := storetest.Open(t, store.SQLite)
	created := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	users := &fakeUserAdmin{users: []auth.User{
		{ID: 3, AgencyID: 1, Username: "demo-super", Email: "super@demo.example", RolesJSON: `["SuperUser"]`, Status: auth.StatusActive, CreatedAt: created},
		{ID: 7, AgencyID: 1, Username: "demo-operator", Email: "op@demo.example", Nickname: "Op", AreaCode: "86", Mobile: "13800000000",
			RolesJSON: `["operator"]`, Status: auth.StatusActive, CreatedAt: created},
		{ID: 8, AgencyID: 2, Username: "other-agency", Email: "x@other.example", RolesJSON: `["operator"]`, Status: auth.StatusActive, CreatedAt: created},
	}}
	company := &fakeCompanyAdmin{a: agency.Agency{ID: 1, Code: "DEMO", Name: "Demo Travel", Alias: "Demo", Address: "88 Nathan Road", ProxyLevel: 1,
		EnableFlightService: true, SettlementCurrency: "CNY", IsShowBill: true}}
	s := &Server{site: siteinfo.New(config.SiteConfig{ShortName: "Voyage", DefaultCurrency: "CNY"}, db), now: time.Now,
		userAdmin: users, companyAdmin: company}
	mux := http.NewServeMux()
	s.Register(mux)
	return s, mux, users, company
}

var adminCatalog = i18n.MustLoad()

// adminServe runs req through the admin pages as v, in English.
func adminServe(mux *http.ServeMux, v viewer, req *http.Request) *httptest.ResponseRecorder {
	ctx := i18n.WithLocalizer(withViewer(req.Context(), v), adminCatalog, i18n.EN)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req.WithContext(ctx))
	return rec
}

func adminPost(path string, form url.Values) *http.Request {
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req
}

func TestAdminPagesAccess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		v         viewer
		req       func() *http.Request
		wantFlash string   // "" → 200
		wantBody  []string // with a 200
		notBody   []string
	}{
		{name: "super sees the agency's users", v: adminSuper, req: func() *http.Request { return httptest.NewRequest("GET", "/users", nil) },
			wantBody: []string{"<h1>User Management</h1>", "demo-operator", "+86 13800000000", "Operator", "Users found: 2", `scope="col"`},
			notBody:  []string{"other-agency"}},
		{name: "super filters by keyword", v: adminSuper, req: func() *http.Request { return httptest.NewRequest("GET", "/users?keyword=operator", nil) },
			wantBody: []string{"demo-operator", "Users found: 1"}},
		{name: "super opens the edit form", v: adminSuper, req: func() *http.Request { return httptest.NewRequest("GET", "/users?edit=7", nil) },
			wantBody: []string{"Edit user demo-operator", `action="/users/7"`}},
		{name: "another agency's user cannot be edited", v: adminSuper, req: func() *http.Request { return httptest.NewRequest("GET", "/users?edit=8", nil) },
			wantFlash: "error:error.notFound"},
		{name: "operator is sent home", v: adminOperator, req: func() *http.Request { return httptest.NewRequest("GET", "/users", nil) },
			wantFlash: "error:router.notRole"},
		{name: "operator cannot deactivate", v: adminOperator, req: func() *http.Request { return adminPost("/users/7/deactivate", nil) },
			wantFlash: "error:router.notRole"},
		{name: "operator cannot upload a logo", v: adminOperator, req: func() *http.Request { return adminPost("/company/logo", nil) },
			wantFlash: "error:router.notRole"},
		{name: "visitor must log in", v: viewer{}, req: func() *http.Request { return adminPost("/users", nil) },
			wantFlash: "error:router.login"},
		{name: "super sees the company", v: adminSuper, req: func() *http.Request { return httptest.NewRequest("GET", "/company", nil) },
			wantBody: []string{"Company Profile", `value="Demo Travel"`, "DEMO", "Enabled", "Disabled", "CNY", "No logo uploaded yet"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, mux, users, _ := adminFixture(t)
			req := tt.req()
			rec := adminServe(mux, tt.v, req)
			if tt.wantFlash != "" {
				if strings.HasPrefix(tt.wantFlash, "error:router.") {
					checkRefused(t, req.Method, rec.Result(), tt.wantFlash)
				} else if rec.Code != http.StatusSeeOther || flashOf(rec.Result()) != tt.wantFlash {
					t.Fatalf("status %d flash %q, want 303 with %q", rec.Code, flashOf(rec.Result()), tt.wantFlash)
				}
				if len(users.deactivated) > 0 || len(users.created) > 0 {
					t.Errorf("a refused request changed users: %+v %+v", users.deactivated, users.created)
				}
				return
			}
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d (Location %q, flash %q), want 200", rec.Code, rec.Header().Get("Location"), flashOf(rec.Result()))
			}
			body := rec.Body.String()
			for _, s := range tt.wantBody {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %q", s)
				}
			}
			for _, s := range tt.notBody {
				if strings.Contains(body, s) {
					t.Errorf("body has %q", s)
				}
			}
		})
	}
}

func TestUserForms(t *testing.T) {
	t.Parallel()
	valid := url.Values{"username": {"demo-clerk"}, "email": {"clerk@demo.example"}, "areaCode": {"86"}, "roles": {"operator"},
		"status": {"active"}, "password": {"clerk-pass-1"}}
	with := func(k, v string) url.Values {
		f := url.Values{}
		for key, vals := range valid {
			f[key] = vals
		}
		if v == "" {
			delete(f, k)
		} else {
			f.Set(k, v)
		}
		return f
	}
	tests := []struct {
		name     string
		form     url.Values
		path     string
		wantBody []string // "" → a 303 with a success flash
		check    func(t *testing.T, u *fakeUserAdmin)
	}{
		{name: "create without a role", path: "/users", form: with("roles", ""),
			wantBody: []string{"Please assign a role for this user", `value="demo-clerk"`, `aria-describedby="new-role-error"`}},
		{name: "create with a bad email", path: "/users", form: with("email", "clerk@"),
			wantBody: []string{"Email format error", `aria-invalid="true"`}},
		{name: "create", path: "/users", form: valid, check: func(t *testing.T, u *fakeUserAdmin) {
			if len(u.created) != 1 || u.created[0].Username != "demo-clerk" || u.created[0].Roles[0] != "operator" || u.created[0].Password != "clerk-pass-1" {
				t.Errorf("created %+v", u.created)
			}
		}},
		{name: "edit without a role", path: "/users/7", form: url.Values{"nickname": {"Clerk"}, "status": {"active"}},
			wantBody: []string{"Edit user demo-operator", "Please assign a role for this user", `value="Clerk"`}},
		{name: "edit", path: "/users/7", form: url.Values{"nickname": {"Clerk"}, "roles": {"operator", "finance"}, "status": {"testing"}, "email": {"new@x.example"}},
			check: func(t *testing.T, u *fakeUserAdmin) {
				c := u.updated[7]
				if c.Nickname == nil || *c.Nickname != "Clerk" || len(*c.Roles) != 2 || *c.Status != "testing" {
					t.Errorf("changes %+v", c)
				}
				if c.Email != nil || c.Username != nil {
					t.Errorf("email or username sent: %+v", c)
				}
			}},
		{name: "deactivate", path: "/users/7/deactivate", check: func(t *testing.T, u *fakeUserAdmin) {
			if len(u.deactivated) != 1 || u.deactivated[0] != 7 {
				t.Errorf("deactivated %v, want [7]", u.deactivated)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, mux, users, _ := adminFixture(t)
			rec := adminServe(mux, adminSuper, adminPost(tt.path, tt.form))
			if tt.wantBody == nil {
				if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/users" || !strings.HasPrefix(flashOf(rec.Result()), "success:") {
					t.Fatalf("status %d Location %q flash %q, want 303 to /users with success", rec.Code, rec.Header().Get("Location"), flashOf(rec.Result()))
				}
			} else {
				if rec.Code != http.StatusOK {
					t.Fatalf("status %d flash %q, want the form again", rec.Code, flashOf(rec.Result()))
				}
				for _, s := range tt.wantBody {
					if !strings.Contains(rec.Body.String(), s) {
						t.Errorf("body lacks %q", s)
					}
				}
			}
			if tt.check != nil {
				tt.check(t, users)
			}
		})
	}
}

func TestUserLogPage(t *testing.T) {
	t.Parallel()
	_, mux, users, _ := adminFixture(t)
	uid := int64(3)
	users.log = []audit.Entry{
		{ID: 2, AgencyID: 1, UserID: &uid, Username: "demo-super", Action: "user.create", Target: "user:demo-clerk", IP: "10.0.0.1",
			CreatedAt: time.Date(2025, 3, 2, 9, 30, 0, 0, time.UTC)},
		{ID: 1, AgencyID: 1, Username: "demo-super", Action: "something.new", CreatedAt: time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC)},
	}
	rec := adminServe(mux, adminSuper, httptest.NewRequest("GET", "/user-log?username=demo-super&from=2025-03-01&to=2025-03-02", nil))
	body := rec.Body.String()
	// Each line reads as a sentence naming what changed; an action the
	// catalog does not know reads as a change, never as its code or target.
	for _, s := range []string{"Created user demo-clerk", "Made a change", "2025-03-02 09:30 UTC", "Time", "10.0.0.1",
		`<option value="createFlightOrder">Booked a flight order</option>`} {
		if !strings.Contains(body, s) {
			t.Errorf("body lacks %q", s)
		}
	}
	for _, s := range []string{">something.new<", "user:demo-clerk", ">user.create<", ">createFlightOrder<"} {
		if strings.Contains(body, s) {
			t.Errorf("body shows the code %q", s)
		}
	}
	f := users.logFilter
	if f.AgencyID != 1 || f.Username != "demo-super" || !f.From.Equal(time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)) || !f.To.Equal(time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("filter %+v", f)
	}

	users.logFilter = audit.Filter{}
	rec = adminServe(mux, adminSuper, httptest.NewRequest("GET", "/user-log?from=03/01/2025", nil))
	if !strings.Contains(rec.Body.String(), "Please enter the date as YYYY-MM-DD") || users.logFilter.AgencyID != 0 {
		t.Errorf("a bad date was not refused inline (filter %+v)", users.logFilter)
	}
}

// adminPNG is a 1×1 transparent PNG.
var adminPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

func adminLogoRequest(t *testing.T, data []byte) *http.Request {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("logo", "logo.png")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	req := httptest.NewRequest("POST", "/company/logo", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

func TestCompanyForms(t *testing.T) {
	t.Parallel()
	_, mux, _, company := adminFixture(t)

	rec := adminServe(mux, adminSuper, adminPost("/company", url.Values{"name": {"Demo Travel"}, "alias": {"DT"}, "address": {" "}}))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Please enter the company address") || !strings.Contains(rec.Body.String(), `value="DT"`) {
		t.Errorf("missing address: status %d, want the form again with the error", rec.Code)
	}
	rec = adminServe(mux, adminSuper, adminPost("/company", url.Values{"name": {"Demo Travel"}, "alias": {"DT"}, "address": {"1 Road"}}))
	if rec.Code != http.StatusSeeOther || flashOf(rec.Result()) != "success:admin.company.saved" || company.a.Alias != "DT" {
		t.Errorf("save: status %d flash %q alias %q", rec.Code, flashOf(rec.Result()), company.a.Alias)
	}

	rec = adminServe(mux, adminSuper, adminLogoRequest(t, []byte("not an image")))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "The logo must be a PNG, JPEG, GIF or WebP image") {
		t.Errorf("bad logo: status %d", rec.Code)
	}
	rec = adminServe(mux, adminSuper, adminLogoRequest(t, bytes.Repeat([]byte{0}, agency.MaxLogoBytes+1)))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "The logo must be smaller than 2MB") {
		t.Errorf("large logo: status %d", rec.Code)
	}
	rec = adminServe(mux, adminSuper, adminLogoRequest(t, adminPNG))
	if rec.Code != http.StatusSeeOther || flashOf(rec.Result()) != "success:admin.company.logoSaved" || !bytes.Equal(company.logo, adminPNG) {
		t.Fatalf("logo: status %d flash %q", rec.Code, flashOf(rec.Result()))
	}
	rec = adminServe(mux, adminSuper, httptest.NewRequest("GET", "/company", nil))
	if !strings.Contains(rec.Body.String(), `src="/base/v2/company/logo?agency=1&amp;v=`) {
		t.Errorf("the page does not show the new logo")
	}
}

// The log's filter lists every action in words, in every language.
func TestUserLogActionsInWords(t *testing.T) {
	t.Parallel()
	for _, lang := range i18n.Supported() {
		ctx := i18n.WithLocalizer(context.Background(), adminCatalog, lang)
		other := audit.ActionName(ctx, "not.an.action")
		seen := map[string]string{}
		for _, a := range adminLogActions {
			label := audit.ActionName(ctx, a)
			if label == other || label == a {
				t.Errorf("%s: %s has no words", lang, a)
			}
			if prev, dup := seen[label]; dup {
				t.Errorf("%s: %s and %s both read %q", lang, prev, a, label)
			}
			seen[label] = a
		}
	}
}
