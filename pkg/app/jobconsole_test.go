package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/jobs"
)

// TestJobConsole: the provider's SuperUser opens River's job console at
// /admin/jobs/ behind the portal's login, on both engines, lists the
// queue's jobs through its API and cancels one; the provider's finance and
// operator and an agency's SuperUser are refused the page, the list and
// the cancel, a visitor is sent to log in, and a cancel posted from
// another site with the SuperUser's cookie is refused. The refused cancels
// leave the job as it was.
func TestJobConsole(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		// A job due tomorrow: no worker takes it while the test looks.
		ins, err := a.Queue.Client.Insert(t.Context(), jobs.CleanupArgs{}, &river.InsertOpts{ScheduledAt: time.Now().Add(24 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		jobID := ins.Job.ID
		state := func() rivertype.JobState {
			t.Helper()
			j, err := a.Queue.Client.JobGet(t.Context(), jobID)
			if err != nil {
				t.Fatal(err)
			}
			return j.State
		}

		admin := loginAs(t, srv, "provider-admin", "provider-pass-1")
		for _, u := range []struct{ name, role string }{{"prov-finance", "finance"}, {"prov-operator", "operator"}} {
			resp, env := call(t, srv, "POST", "/base/v2/users", "en", fmt.Sprintf(
				`{"username":%q,"email":"%s@voyage.example","nickname":"Provider %s","mobile":"13700137001","areaCode":"86","role":[%q],"status":"active","password":"pass-word-1"}`,
				u.name, u.name, u.role, u.role), bearer(admin.Token)...)
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("create the provider's %s: %d %+v", u.role, resp.StatusCode, env)
			}
		}
		super := portalAs(t, srv, admin.Token)

		// The page is riverui's, told where its API is, under the
		// console's policy; the menu links to it.
		res, body := get(t, super, srv.URL+"/admin/jobs/", "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `<div id="root"`) || !strings.Contains(body, `/admin/jobs/api`) {
			t.Fatalf("provider SuperUser, console page: %d %.300s", res.StatusCode, body)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "style-src 'self' 'unsafe-inline'") {
			t.Errorf("console CSP %q: want same-origin scripts, inline styles", csp)
		}
		if res, _ := get(t, super, srv.URL+"/admin/jobs"); res.StatusCode/100 != 3 || res.Header.Get("Location") != "/admin/jobs/" {
			t.Errorf("/admin/jobs: %d to %q, want the console's page", res.StatusCode, res.Header.Get("Location"))
		}
		if _, home := get(t, super, srv.URL+"/profile", "Accept-Language", "en"); !strings.Contains(home, `href="/admin/jobs/"`) || !strings.Contains(home, "Job Console") {
			t.Error("the provider SuperUser's menu has no Job Console entry")
		}

		listPath := "/admin/jobs/api/jobs?state=scheduled&limit=20"
		res, body = get(t, super, srv.URL+listPath, "Accept", "application/json")
		var list struct {
			Data []struct {
				ID    int64  `json:"id"`
				Kind  string `json:"kind"`
				State string `json:"state"`
			} `json:"data"`
		}
		if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &list) != nil {
			t.Fatalf("provider SuperUser, job list: %d %.300s", res.StatusCode, body)
		}
		found := false
		for _, j := range list.Data {
			found = found || j.ID == jobID && j.Kind == "cleanup_expired" && j.State == "scheduled"
		}
		if !found {
			t.Fatalf("job %d not in the console's list: %s", jobID, body)
		}

		cancel := func(c *http.Client, hdr ...string) *http.Response {
			t.Helper()
			req := newRequest(t, "POST", srv.URL+"/admin/jobs/api/jobs/cancel", strings.NewReader(fmt.Sprintf(`{"ids":["%d"]}`, jobID)))
			req.Header.Set("Content-Type", "application/json")
			res, _ := send(t, c, req, hdr...)
			return res
		}
		refused := map[string]*http.Client{
			"agency SuperUser":     portalAs(t, srv, loginAs(t, srv, "demo-super", "demo-pass-1").Token),
			"provider finance":     portalAs(t, srv, loginAs(t, srv, "prov-finance", "pass-word-1").Token),
			"provider operator":    portalAs(t, srv, loginAs(t, srv, "prov-operator", "pass-word-1").Token),
			"sub-agency SuperUser": portalAs(t, srv, loginAs(t, srv, "sub-super", "demo-pass-1").Token),
		}
		for who, c := range refused {
			// A page goes to the user's own home with the translated
			// refusal; the API's read and the cancel get the 403 page.
			res, _ := get(t, c, srv.URL+"/admin/jobs/", "Accept-Language", "en")
			if res.StatusCode != http.StatusSeeOther || strings.HasPrefix(res.Header.Get("Location"), "/admin/") {
				t.Errorf("%s, console page: %d to %q", who, res.StatusCode, res.Header.Get("Location"))
			}
			res, body := get(t, c, srv.URL+listPath, "Accept-Language", "en", "HX-Request", "true")
			if res.StatusCode != http.StatusForbidden || strings.Contains(body, "cleanup_expired") {
				t.Errorf("%s, job list: %d %.200s", who, res.StatusCode, body)
			}
			if res := cancel(c, "Accept-Language", "en"); res.StatusCode != http.StatusForbidden {
				t.Errorf("%s, cancel: %d, want 403", who, res.StatusCode)
			}
		}
		visitor := browser(t)
		res, _ = get(t, visitor, srv.URL+"/admin/jobs/")
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
			t.Errorf("visitor, console page: %d to %q, want the home page's login", res.StatusCode, res.Header.Get("Location"))
		}
		if res, body := get(t, visitor, srv.URL+listPath, "Accept-Language", "en", "HX-Request", "true"); res.StatusCode != http.StatusUnauthorized || strings.Contains(body, "cleanup_expired") {
			t.Errorf("visitor, job list: %d %.200s", res.StatusCode, body)
		}
		if res := cancel(visitor); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("visitor, cancel: %d, want 401", res.StatusCode)
		}
		// Another site's page posting with the SuperUser's cookie.
		if res := cancel(super, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site cancel: %d, want 403", res.StatusCode)
		}
		if s := state(); s != rivertype.JobStateScheduled {
			t.Fatalf("after the refused cancels the job is %s", s)
		}

		// The console's own request (same origin) cancels it.
		if res := cancel(super, "Origin", srv.URL, "Sec-Fetch-Site", "same-origin"); res.StatusCode != http.StatusOK {
			t.Fatalf("provider SuperUser, cancel: %d", res.StatusCode)
		}
		if s := state(); s != rivertype.JobStateCancelled {
			t.Fatalf("after the SuperUser's cancel the job is %s", s)
		}
	})
}
