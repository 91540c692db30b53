package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/profile"
)

func travellerForm(surname string) url.Values {
	return url.Values{"surname": {surname}, "givenName": {"San"}, "type": {"adult"}, "gender": {"male"}, "birthday": {"1985-05-12"},
		"nationality": {"CN"}, "documentType": {"passport"}, "documentNumber": {"E" + strings.Repeat("1", 8)}, "documentExpiry": {"2031-05-16"}}
}

func travellerCount(t *testing.T, a *app.App, agencyID int64) int {
	t.Helper()
	return countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers WHERE agency_id = ?`, agencyID)
}

// TestTravellerPages drives the saved-traveller pages without JavaScript:
// who may see and change which travellers, the spec's validation and its
// 30 limit with translated messages, and the DOCS import.
func TestTravellerPages(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		fin := loginAs(t, srv, "demo-finance", "demo-pass-1")
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		opWeb, finWeb, subWeb, blueWeb := portalAs(t, srv, op.Token), portalAs(t, srv, fin.Token), portalAs(t, srv, sub.Token), portalAs(t, srv, blue.Token)

		// A visitor is asked to log in and changes nothing.
		res, body := get(t, browser(t), srv.URL+"/profile/travellers", "Accept-Language", "en")
		if res.StatusCode == http.StatusOK && strings.Contains(body, "travellers-table") {
			t.Fatalf("visitor sees the list: %d", res.StatusCode)
		}
		res, _ = postForm(t, browser(t), srv.URL+"/profile/travellers", travellerForm("ZHANG"), "Accept-Language", "en")
		if res.StatusCode != http.StatusUnauthorized && res.StatusCode != http.StatusSeeOther {
			t.Fatalf("visitor post: %d", res.StatusCode)
		}
		if n := travellerCount(t, a, op.Company.ID); n != 0 {
			t.Fatalf("visitor saved %d", n)
		}

		// Validation: shown inline, translated, nothing saved.
		bad := travellerForm("Zh4ng")
		bad.Set("birthday", "2099-01-01")
		res, body = postForm(t, opWeb, srv.URL+"/profile/travellers", bad, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "The surname may only contain the letters A-Z") || !strings.Contains(body, `value="Zh4ng"`) {
			t.Fatalf("bad surname: %d %s", res.StatusCode, excerpt(body, "form-errors"))
		}
		_, body = postForm(t, opWeb, srv.URL+"/profile/travellers", bad, "Accept-Language", "zh-CN")
		if !strings.Contains(body, "常用") && !strings.Contains(body, "A-Z") {
			t.Fatalf("zh-cn error not translated")
		}
		if n := travellerCount(t, a, op.Company.ID); n != 0 {
			t.Fatalf("refused form saved %d", n)
		}

		// Add, then the agency's other user sees it; the sub-agency and another agency do not.
		res, _ = postForm(t, opWeb, srv.URL+"/profile/travellers", travellerForm("zhang"), "Accept-Language", "en")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("add: %d", res.StatusCode)
		}
		_, body = get(t, opWeb, srv.URL+"/profile/travellers", "Accept-Language", "en")
		if !strings.Contains(body, "The traveller was saved") || !strings.Contains(body, `data-traveller="ZHANG/SAN"`) {
			t.Fatalf("list after add lacks the flash or the row: %s", excerpt(body, "<main"))
		}
		var id int64
		if err := a.DB.GetContext(context.Background(), &id, a.DB.Rebind(`SELECT id FROM often_used_passengers WHERE agency_id = ?`), op.Company.ID); err != nil {
			t.Fatal(err)
		}
		_, body = get(t, finWeb, srv.URL+"/profile/travellers?keyword=zha", "Accept-Language", "en")
		if !strings.Contains(body, `data-traveller="ZHANG/SAN"`) {
			t.Fatalf("the agency's finance user does not find the traveller")
		}
		// With htmx, the search answers the results only.
		_, body = get(t, finWeb, srv.URL+"/profile/travellers?keyword=san", "Accept-Language", "en", "HX-Request", "true", "HX-Target", "travellers-results")
		if strings.Contains(body, "<html") || !strings.HasPrefix(strings.TrimSpace(body), `<div id="travellers-results">`) || !strings.Contains(body, `data-traveller="ZHANG/SAN"`) {
			t.Fatalf("htmx search answered %.200s", body)
		}
		_, body = get(t, finWeb, srv.URL+"/profile/travellers?keyword=nobody", "Accept-Language", "en")
		if strings.Contains(body, `data-traveller="ZHANG/SAN"`) || !strings.Contains(body, "No saved traveller matches") {
			t.Fatalf("search does not filter")
		}
		for name, c := range map[string]*http.Client{"sub": subWeb, "other": blueWeb} {
			_, body = get(t, c, srv.URL+"/profile/travellers", "Accept-Language", "en")
			if strings.Contains(body, `data-traveller="ZHANG/SAN"`) {
				t.Errorf("%s sees the traveller", name)
			}
			res, _ = get(t, c, srv.URL+fmt.Sprintf("/profile/travellers?edit=%d", id), "Accept-Language", "en")
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s opens the edit form: %d", name, res.StatusCode)
			}
			changed := travellerForm("HACKED")
			res, _ = postForm(t, c, srv.URL+fmt.Sprintf("/profile/travellers/%d", id), changed, "Accept-Language", "en")
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s update: %d", name, res.StatusCode)
			}
			res, _ = postForm(t, c, srv.URL+fmt.Sprintf("/profile/travellers/%d/delete", id), url.Values{}, "Accept-Language", "en")
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s delete: %d", name, res.StatusCode)
			}
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers WHERE surname = 'ZHANG'`); n != 1 {
			t.Fatalf("outsiders changed the traveller: %d rows named ZHANG", n)
		}

		// Edit with an error keeps the entries; a good edit saves.
		changed := travellerForm("LI")
		changed.Set("documentExpiry", "")
		res, body = postForm(t, opWeb, srv.URL+fmt.Sprintf("/profile/travellers/%d", id), changed, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `id="edit-traveller"`) || !strings.Contains(body, `value="LI"`) {
			t.Fatalf("refused edit: %d", res.StatusCode)
		}
		changed.Set("documentExpiry", "2032-01-01")
		if res, _ = postForm(t, opWeb, srv.URL+fmt.Sprintf("/profile/travellers/%d", id), changed, "Accept-Language", "en"); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("edit: %d", res.StatusCode)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers WHERE surname = 'LI' AND document_expiry = '2032-01-01'`); n != 1 {
			t.Fatalf("edit not saved")
		}

		// DOCS import: a format error, then two travellers.
		res, body = postForm(t, opWeb, srv.URL+"/profile/travellers/import", url.Values{"text": {"SSR DOCS CA HK1 P/CN/E1/CN"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "Format error in line 1") {
			t.Fatalf("import format error: %d %s", res.StatusCode, excerpt(body, "form-errors"))
		}
		docs := "SSR DOCS CA HK1 P/CN/E7654321/CN/01JAN90/F/01JAN31/WANG/WU\n3.SSR DOCS CA HK1 P/CHN/E7654322/CHN/01JAN80/M/01JAN31/WANG/LIU/P2"
		res, _ = postForm(t, opWeb, srv.URL+"/profile/travellers/import", url.Values{"text": {docs}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("import: %d", res.StatusCode)
		}
		if n := travellerCount(t, a, op.Company.ID); n != 3 {
			t.Fatalf("after import %d travellers, want 3", n)
		}

		// The 30 limit, with the spec's error, in the form.
		p := auth.Principal{UserID: op.UserInfo.ID, AgencyID: op.Company.ID}
		for i := 3; i < profile.MaxPassengers; i++ {
			in := profile.PassengerInput{Surname: "FILL", GivenName: fmt.Sprint("N", i), Type: "adult", Gender: "male", Birthday: "1990-01-01",
				Nationality: "CN", DocumentType: "passport", DocumentNumber: fmt.Sprint("F", i), DocumentExpiry: "2031-01-01"}
			if _, err := a.Profile.CreatePassenger(context.Background(), p, in, auth.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		extra := travellerForm("EXTRA")
		extra.Set("documentNumber", "E99999999")
		res, body = postForm(t, opWeb, srv.URL+"/profile/travellers", extra, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "You can save at most 30 frequent passengers") {
			t.Fatalf("31st traveller: %d", res.StatusCode)
		}
		if n := travellerCount(t, a, op.Company.ID); n != profile.MaxPassengers {
			t.Fatalf("%d travellers past the limit", n)
		}

		// Delete.
		if res, _ = postForm(t, opWeb, srv.URL+fmt.Sprintf("/profile/travellers/%d/delete", id), url.Values{}, "Accept-Language", "en"); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("delete: %d", res.StatusCode)
		}
		if n := travellerCount(t, a, op.Company.ID); n != profile.MaxPassengers-1 {
			t.Fatalf("after delete %d", n)
		}
	})
}

// TestMemberCardPagesAndProfileSettings covers the member cards and the
// profile's details and frequent-info forms.
func TestMemberCardPagesAndProfileSettings(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		opWeb, blueWeb := portalAs(t, srv, op.Token), portalAs(t, srv, blue.Token)

		res, body := postForm(t, opWeb, srv.URL+"/profile/cards", url.Values{"airline": {"C"}, "number": {"12"}, "holderName": {"ZHANG SAN"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `value="ZHANG SAN"`) || countRows(t, a, `SELECT COUNT(*) FROM member_cards`) != 0 {
			t.Fatalf("bad card: %d", res.StatusCode)
		}
		res, _ = postForm(t, opWeb, srv.URL+"/profile/cards", url.Values{"airline": {"ca"}, "number": {"123456789"}, "holderName": {"ZHANG SAN"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("add card: %d", res.StatusCode)
		}
		_, body = get(t, opWeb, srv.URL+"/profile/cards", "Accept-Language", "en")
		if !strings.Contains(body, `data-card="CA123456789"`) || !strings.Contains(body, "The card was saved") {
			t.Fatalf("card list")
		}
		var id int64
		if err := a.DB.GetContext(context.Background(), &id, `SELECT id FROM member_cards`); err != nil {
			t.Fatal(err)
		}
		_, body = get(t, blueWeb, srv.URL+"/profile/cards", "Accept-Language", "en")
		if strings.Contains(body, "CA123456789") {
			t.Fatal("another agency sees the card")
		}
		if res, _ = postForm(t, blueWeb, srv.URL+fmt.Sprintf("/profile/cards/%d/delete", id), url.Values{}, "Accept-Language", "en"); res.StatusCode != http.StatusNotFound {
			t.Fatalf("another agency deletes: %d", res.StatusCode)
		}
		if res, _ = postForm(t, opWeb, srv.URL+fmt.Sprintf("/profile/cards/%d", id), url.Values{"airline": {"MU"}, "number": {"987654"}, "holderName": {"ZHANG SAN"}}, "Accept-Language", "en"); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("edit card: %d", res.StatusCode)
		}
		if res, _ = postForm(t, opWeb, srv.URL+fmt.Sprintf("/profile/cards/%d/delete", id), url.Values{}, "Accept-Language", "en"); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("delete card: %d", res.StatusCode)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM member_cards`); n != 0 {
			t.Fatalf("%d cards after delete", n)
		}

		// Profile settings: each form saved with its message; a refusal translated.
		for _, tc := range []struct {
			path string
			form url.Values
			msg  string
		}{
			{"/profile/details", url.Values{"nickname": {"Op"}, "areaCode": {"852"}, "mobile": {"91234567"}}, "Your details were saved"},
			{"/profile/config/cities", url.Values{"cities": {"pek, sha HKG"}}, "Favourite cities were saved"},
			{"/profile/config/countries", url.Values{"countries": {"CN", "JP"}}, "Favourite countries were saved"},
			{"/profile/config/defaultRegion", url.Values{"defaultRegion": {"852"}}, "The default area code was saved"},
			{"/profile/config/dateFormat", url.Values{"dateFormat": {"dd/MM/yyyy"}}, "The date format was saved"},
		} {
			res, _ := postForm(t, opWeb, srv.URL+tc.path, tc.form, "Accept-Language", "en")
			if res.StatusCode != http.StatusSeeOther {
				t.Fatalf("%s: %d", tc.path, res.StatusCode)
			}
			_, body := get(t, opWeb, srv.URL+"/profile", "Accept-Language", "en")
			if !strings.Contains(body, tc.msg) {
				t.Fatalf("%s: no message %q", tc.path, tc.msg)
			}
		}
		var u struct {
			Cities string `db:"fav_cities"`
			Format string `db:"date_format"`
			Area   string `db:"area_code"`
		}
		if err := a.DB.GetContext(context.Background(), &u, a.DB.Rebind(`SELECT fav_cities, date_format, area_code FROM users WHERE id = ?`), op.UserInfo.ID); err != nil {
			t.Fatal(err)
		}
		var cities []string
		_ = json.Unmarshal([]byte(u.Cities), &cities)
		if strings.Join(cities, ",") != "PEK,SHA,HKG" || u.Format != "dd/MM/yyyy" || u.Area != "852" {
			t.Fatalf("stored %+v", u)
		}
		// Favourite passengers: among the agency's saved travellers only.
		mine, err := a.Profile.CreatePassenger(context.Background(), auth.Principal{UserID: op.UserInfo.ID, AgencyID: op.Company.ID},
			profile.PassengerInput{Surname: "FAV", GivenName: "ONE", Type: "adult", Gender: "male", Birthday: "1990-01-01", Nationality: "CN",
				DocumentType: "passport", DocumentNumber: "F1", DocumentExpiry: "2031-01-01"}, auth.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := a.Profile.CreatePassenger(context.Background(), auth.Principal{UserID: blue.UserInfo.ID, AgencyID: blue.Company.ID},
			profile.PassengerInput{Surname: "BLUE", GivenName: "ONE", Type: "adult", Gender: "male", Birthday: "1990-01-01", Nationality: "CN",
				DocumentType: "passport", DocumentNumber: "B1", DocumentExpiry: "2031-01-01"}, auth.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		_, body = get(t, opWeb, srv.URL+"/profile", "Accept-Language", "en")
		if !strings.Contains(body, "FAV/ONE") || strings.Contains(body, "BLUE/ONE") {
			t.Fatal("the favourites list is not the agency's travellers")
		}
		res, body = postForm(t, opWeb, srv.URL+"/profile/config/passengers", url.Values{"passengers": {fmt.Sprint(theirs.ID)}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "Please choose passengers from your frequent passengers") {
			t.Fatalf("another agency's traveller as favourite: %d", res.StatusCode)
		}
		res, _ = postForm(t, opWeb, srv.URL+"/profile/config/passengers", url.Values{"passengers": {fmt.Sprint(mine.ID)}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("favourites: %d", res.StatusCode)
		}
		_, body = get(t, opWeb, srv.URL+"/profile", "Accept-Language", "en")
		if !strings.Contains(body, "Favourite passengers were saved") || !strings.Contains(body, fmt.Sprintf(`value="%d" selected`, mine.ID)) {
			t.Fatal("favourites not saved or not shown")
		}
		res, body = postForm(t, opWeb, srv.URL+"/profile/config/countries", url.Values{}, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "Favourite countries cannot be empty") {
			t.Fatalf("empty countries: %d", res.StatusCode)
		}
		_, body = postForm(t, opWeb, srv.URL+"/profile/config/cities", url.Values{"cities": {""}}, "Accept-Language", "zh-CN")
		if !strings.Contains(body, "常用城市") {
			t.Fatalf("zh-cn refusal not translated")
		}
	})
}

// TestDocsAPI reads DOCS through the API with a booking's limits.
func TestDocsAPI(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		idcard := "SSR DOCS CA HK1 I/CN/110101198505120011/CN/12MAY85/M/15MAR30/ZHANG/SAN"
		resp, env := call(t, srv, "POST", "/base/v2/analysis/docs", "en", fmt.Sprintf(`{"text":%q,"international":true}`, idcard), bearer(op.Token)...)
		profileStatus(t, "international", resp, env, 400, 100001)
		if f := profileFields(t, env); f["text"] != "The ID-card DOCS of ZHANG/SAN cannot be imported: international orders need a passport" {
			t.Fatalf("fields %v", f)
		}
		resp, env = call(t, srv, "POST", "/base/v2/analysis/docs", "en", fmt.Sprintf(`{"text":%q,"documents":["passport"]}`, idcard), bearer(op.Token)...)
		profileStatus(t, "document limit", resp, env, 400, 100001)
		if f := profileFields(t, env); !strings.Contains(f["text"], "document limits") {
			t.Fatalf("fields %v", f)
		}
		resp, env = call(t, srv, "POST", "/base/v2/analysis/docs", "en", fmt.Sprintf(`{"text":%q}`, idcard), bearer(op.Token)...)
		profileStatus(t, "read", resp, env, 200, 0)
		var got struct {
			Passengers []struct {
				Surname, DocumentType, Birthday string
			} `json:"passengers"`
		}
		if err := json.Unmarshal(env.Data, &got); err != nil || len(got.Passengers) != 1 || got.Passengers[0].DocumentType != "idcard" || got.Passengers[0].Birthday != "1985-05-12" {
			t.Fatalf("read %s", env.Data)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers`); n != 0 {
			t.Fatalf("reading stored %d", n)
		}
		resp, env = call(t, srv, "POST", "/base/v2/analysis/docs/import", "en", fmt.Sprintf(`{"text":%q}`, strings.Replace(idcard, "I/CN", "P/CN", 1)), bearer(op.Token)...)
		profileStatus(t, "import", resp, env, 201, 0)
		if n := countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers`); n != 1 {
			t.Fatalf("import stored %d", n)
		}
	})
}

// excerpt is the part of body around marker, for failure messages.
func excerpt(body, marker string) string {
	i := strings.Index(body, marker)
	if i < 0 {
		return ""
	}
	return body[i:min(len(body), i+400)]
}
