package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

type companyJSON struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Alias      string `json:"alias"`
	Address    string `json:"address"`
	Logo       string `json:"logo"`
	ProxyLevel int    `json:"proxyLevel"`
	Config     struct {
		CommonConfig map[string]any `json:"commonConfig"`
	} `json:"config"`
}

// testPNG encodes a w×h PNG of random pixels: noise does not compress, so
// the size is about 4·w·h bytes.
func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	rnd := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{uint8(rnd.IntN(256)), uint8(rnd.IntN(256)), uint8(rnd.IntN(256)), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sendRaw sends body as is and returns the status, headers and raw answer.
// A nil-length reader (chunked) is used when chunked is set, so the server
// cannot rely on Content-Length.
func sendRaw(t *testing.T, srv *httptest.Server, method, path, contentType string, body []byte, chunked bool, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
		if chunked {
			r = io.MultiReader(bytes.NewReader(body))
		}
	}
	req := newRequest(t, method, srv.URL+path, r)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept-Language", "en")
	return send(t, srv.Client(), req, hdr...)
}

func getCompany(t *testing.T, srv *httptest.Server, token string) companyJSON {
	t.Helper()
	return okData[companyJSON](t, srv, "GET company", "GET", "/base/v2/company", "", bearer(token)...)
}

type agencyRow struct {
	Name     string `db:"name"`
	Alias    string `db:"alias"`
	Address  string `db:"address"`
	Logo     []byte `db:"logo"`
	LogoType string `db:"logo_type"`
}

func readAgency(t *testing.T, a *app.App, id int64) agencyRow {
	t.Helper()
	var r agencyRow
	if err := a.DB.GetContext(context.Background(), &r, a.DB.Rebind(`SELECT name, alias, address, logo, logo_type FROM agencies WHERE id = ?`), id); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCompanyRoutesAccess(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		logo := testPNG(t, 8, 8)
		routes := []struct {
			method, path, ct string
			body             []byte
			superOnly        bool
		}{
			{"GET", "/base/v2/company", "", nil, false},
			{"PUT", "/base/v2/company", "application/json", []byte(`{"name":"X","address":"Y"}`), true},
			{"PUT", "/base/v2/company/logo", "image/png", logo, true},
			{"GET", "/base/v2/company/logo", "", nil, false},
		}
		for _, r := range routes {
			t.Run(r.method+" "+r.path, func(t *testing.T) {
				resp, raw := sendRaw(t, srv, r.method, r.path, r.ct, r.body, false)
				if env := asEnvelope(t, "answer", raw); resp.StatusCode != 401 || env.Code == 0 {
					t.Errorf("no token: %d code %d", resp.StatusCode, env.Code)
				}
				if !r.superOnly {
					return
				}
				resp, raw = sendRaw(t, srv, r.method, r.path, r.ct, r.body, false, bearer(s.operator.Token)...)
				if env := asEnvelope(t, "answer", raw); resp.StatusCode != 403 || env.Code != 200003 {
					t.Errorf("operator: %d code %d, want 403 200003", resp.StatusCode, env.Code)
				}
			})
		}
		if row := readAgency(t, a, s.super.Company.ID); row.Name != "Demo Travel" || row.LogoType != "" {
			t.Errorf("refused calls changed the company: %+v", row.Name)
		}
		// Any user of the agency reads the company.
		if c := getCompany(t, srv, s.operator.Token); c.Name != "Demo Travel" || c.ID != s.super.Company.ID || c.Config.CommonConfig == nil {
			t.Errorf("operator's company = %+v", c)
		}
	})
}

func TestUpdateCompanyAPI(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		demoID, blueID := s.super.Company.ID, s.blue.Company.ID
		demoBefore := readAgency(t, a, demoID)

		resp, env := call(t, srv, "PUT", "/base/v2/company", "en", `{"name":"  ","alias":"x","address":""}`, bearer(s.super.Token)...)
		if resp.StatusCode != 400 {
			t.Errorf("invalid company: %d", resp.StatusCode)
		}
		wantFieldMessage(t, env, "name", "Please enter the company name")
		wantFieldMessage(t, env, "address", "Please enter the company address")
		_, env = call(t, srv, "PUT", "/base/v2/company", "en", `{"name":"`+strings.Repeat("n", 101)+`","address":"A"}`, bearer(s.super.Token)...)
		wantFieldMessage(t, env, "name", "This entry is too long.")
		_, env = call(t, srv, "PUT", "/base/v2/company", "zh-tw", `{"name":"N"}`, bearer(s.super.Token)...)
		wantFieldMessage(t, env, "address", "請輸入公司地址")
		if row := readAgency(t, a, demoID); row.Name != demoBefore.Name || row.Address != demoBefore.Address {
			t.Fatalf("invalid updates stored %+v", row)
		}

		// Blue Sky's SuperUser changes Blue Sky, and only Blue Sky.
		resp, env = call(t, srv, "PUT", "/base/v2/company", "en", `{"name":"Blue Sky Travel Ltd","alias":"BST","address":"7 Xinyi Road, Taipei"}`, bearer(s.blue.Token)...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("bluesky PUT company: %d %+v", resp.StatusCode, env)
		}
		var c companyJSON
		_ = json.Unmarshal(env.Data, &c)
		if c.ID != blueID || c.Name != "Blue Sky Travel Ltd" || c.Alias != "BST" {
			t.Errorf("bluesky answer = %+v", c)
		}
		if row := readAgency(t, a, demoID); row.Name != demoBefore.Name || row.Alias != demoBefore.Alias || row.Address != demoBefore.Address {
			t.Fatalf("bluesky's PUT changed Demo Travel: %+v", row)
		}
		if c := getCompany(t, srv, s.super.Token); c.Name != "Demo Travel" {
			t.Errorf("demo company after bluesky's PUT = %q", c.Name)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ? AND agency_id = ?`, "company.update", demoID); n != 0 {
			t.Errorf("bluesky's update logged in Demo Travel (%d)", n)
		}

		resp, env = call(t, srv, "PUT", "/base/v2/company", "en", `{"name":" Demo Travel HK ","alias":"DT","address":"90 Nathan Road, Kowloon"}`, bearer(s.super.Token)...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("demo PUT company: %d %+v", resp.StatusCode, env)
		}
		if c := getCompany(t, srv, s.operator.Token); c.Name != "Demo Travel HK" || c.Alias != "DT" || c.Address != "90 Nathan Road, Kowloon" {
			t.Errorf("demo company = %+v", c)
		}
		if row := readAgency(t, a, blueID); row.Name != "Blue Sky Travel Ltd" {
			t.Errorf("demo's PUT changed Blue Sky: %q", row.Name)
		}
		for agencyID, want := range map[int64]int{demoID: 1, blueID: 1} {
			if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ? AND agency_id = ?`, "company.update", agencyID); n != want {
				t.Errorf("agency %d: %d company.update entries, want %d", agencyID, n, want)
			}
		}
	})
}

func TestCompanyLogoAPI(t *testing.T) {
	withUsers(t, func(t *testing.T, a *app.App, srv *httptest.Server, s userSessions) {
		demoID, blueID := s.super.Company.ID, s.blue.Company.ID
		auth := bearer(s.super.Token)

		resp, raw := sendRaw(t, srv, "GET", "/base/v2/company/logo", "", nil, false, auth...)
		if env := asEnvelope(t, "answer", raw); resp.StatusCode != 404 || env.Code != 100004 {
			t.Fatalf("no logo yet: %d code %d", resp.StatusCode, env.Code)
		}

		// Larger than the test server's 64 KiB body limit: the logo route
		// caps its own body at 2MB.
		logo := testPNG(t, 200, 200)
		if len(logo) < 64<<10 || len(logo) > 2<<20 {
			t.Fatalf("test PNG is %d bytes", len(logo))
		}
		resp, raw = sendRaw(t, srv, "PUT", "/base/v2/company/logo", "image/png", logo, false, auth...)
		if env := asEnvelope(t, "answer", raw); resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("upload PNG: %d %+v", resp.StatusCode, env)
		}
		c := getCompany(t, srv, s.operator.Token)
		if c.Logo == "" {
			t.Fatal("company has no logo address after the upload")
		}
		for _, path := range []string{"/base/v2/company/logo", c.Logo} {
			resp, raw = sendRaw(t, srv, "GET", path, "", nil, false, bearer(s.operator.Token)...)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || !bytes.Equal(raw, logo) {
				t.Errorf("GET %s: %d %s, %d bytes (want %d)", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(raw), len(logo))
			}
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ? AND agency_id = ?`, "company.logo", demoID); n != 1 {
			t.Errorf("company.logo entries = %d, want 1", n)
		}

		rejected := []struct {
			name, ct string
			body     []byte
			chunked  bool
			msg      string
		}{
			{"text renamed .png", "image/png", []byte("just some text, saved as logo.png\n"), false, "The logo must be a PNG, JPEG, GIF or WebP image"},
			{"svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), false, "The logo must be a PNG, JPEG, GIF or WebP image"},
			{"html", "text/html", []byte("<html></html>"), false, "The logo must be a PNG, JPEG, GIF or WebP image"},
			{"over 2MB", "image/png", append(testPNG(t, 4, 4), make([]byte, 2<<20)...), false, "The logo must be smaller than 2MB"},
			{"over 2MB without Content-Length", "image/png", append(testPNG(t, 4, 4), make([]byte, 2<<20)...), true, "The logo must be smaller than 2MB"},
		}
		for _, tt := range rejected {
			t.Run(tt.name, func(t *testing.T) {
				resp, raw := sendRaw(t, srv, "PUT", "/base/v2/company/logo", tt.ct, tt.body, tt.chunked, auth...)
				env := asEnvelope(t, "answer", raw)
				if resp.StatusCode != 400 && resp.StatusCode != 413 {
					t.Errorf("status %d, want 400 or 413", resp.StatusCode)
				}
				if resp.StatusCode == 400 {
					wantFieldMessage(t, env, "logo", tt.msg)
				}
			})
		}
		if row := readAgency(t, a, demoID); !bytes.Equal(row.Logo, logo) || row.LogoType != "image/png" {
			t.Errorf("rejected uploads replaced the logo (%d bytes, %s)", len(row.Logo), row.LogoType)
		}

		// Blue Sky sees neither Demo Travel's logo nor changes it.
		resp, raw = sendRaw(t, srv, "GET", c.Logo, "", nil, false, bearer(s.blue.Token)...)
		if env := asEnvelope(t, "answer", raw); resp.StatusCode != 404 || env.Code != 100004 {
			t.Errorf("bluesky GET demo's logo: %d code %d", resp.StatusCode, env.Code)
		}
		resp, raw = sendRaw(t, srv, "GET", "/base/v2/company/logo", "", nil, false, bearer(s.blue.Token)...)
		if resp.StatusCode != 404 {
			t.Errorf("bluesky's own (missing) logo: %d", resp.StatusCode)
		}
		blueLogo := testPNG(t, 16, 16)
		resp, raw = sendRaw(t, srv, "PUT", "/base/v2/company/logo", "image/png", blueLogo, false, bearer(s.blue.Token)...)
		if env := asEnvelope(t, "answer", raw); resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("bluesky upload: %d %+v", resp.StatusCode, env)
		}
		if row := readAgency(t, a, demoID); !bytes.Equal(row.Logo, logo) {
			t.Error("bluesky's upload replaced Demo Travel's logo")
		}
		if row := readAgency(t, a, blueID); !bytes.Equal(row.Logo, blueLogo) {
			t.Error("bluesky's logo not stored on Blue Sky")
		}
		resp, raw = sendRaw(t, srv, "GET", "/base/v2/company/logo", "", nil, false, auth...)
		if resp.StatusCode != 200 || !bytes.Equal(raw, logo) {
			t.Errorf("demo's logo after bluesky's upload: %d, %d bytes", resp.StatusCode, len(raw))
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = ? AND agency_id = ?`, "company.logo", demoID); n != 1 {
			t.Errorf("demo company.logo entries = %d, want 1", n)
		}
	})
}
