package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/booking"
)

// A 1×1 transparent PNG.
const profileTinyPNG = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82"

// profilePassengerJSON is a traveller whose passport number follows from
// the surname: one document is one traveller of an agency (a second with the
// same document is refused as already saved).
func profilePassengerJSON(surname, birthday, nationality string) string {
	h := fnv.New32a()
	h.Write([]byte(strings.ToUpper(surname)))
	return fmt.Sprintf(`{"surname":%q,"givenName":"San","type":"adult","gender":"male","birthday":%q,"nationality":%q,
		"documentType":"passport","documentNumber":"E%08d","documentExpiry":"2031-05-16","email":"zhang@example.com"}`, surname, birthday, nationality, h.Sum32()%100000000)
}

type profileFieldsData struct {
	Fields map[string]string `json:"fields"`
}

func profileFields(t *testing.T, env envelope) map[string]string {
	t.Helper()
	var fd profileFieldsData
	if err := json.Unmarshal(env.Data, &fd); err != nil {
		t.Fatalf("no fields in %s", env.Data)
	}
	return fd.Fields
}

func profileStatus(t *testing.T, what string, resp *http.Response, env envelope, status, code int) {
	t.Helper()
	if resp.StatusCode != status || env.Code != code {
		t.Fatalf("%s: status %d code %d (%s), want %d %d", what, resp.StatusCode, env.Code, env.Message, status, code)
	}
}

// profileNotShared checks that another agency (signed in by other) lists
// none of an agency's rows at list, cannot update item with body nor delete
// it, and that column of row id in table still holds want afterwards.
func profileNotShared(t *testing.T, a *app.App, srv *httptest.Server, other []string, list, item, body, table, column string, id int64, want string) {
	t.Helper()
	resp, env := call(t, srv, "GET", list, "en", "", other...)
	profileStatus(t, "other agency lists", resp, env, 200, 0)
	if !strings.Contains(string(env.Data), `"total":0`) || strings.Contains(string(env.Data), want) {
		t.Errorf("other agency sees %s", env.Data)
	}
	resp, env = call(t, srv, "PUT", item, "en", body, other...)
	profileStatus(t, "other agency updates", resp, env, 404, 100004)
	resp, env = call(t, srv, "DELETE", item, "en", "", other...)
	profileStatus(t, "other agency deletes", resp, env, 404, 100004)
	var got string
	if err := a.DB.GetContext(context.Background(), &got, a.DB.Rebind(`SELECT `+column+` FROM `+table+` WHERE id = ?`), id); err != nil || got != want {
		t.Fatalf("row after other agency's calls: %q %v", got, err)
	}
}

func TestProfileRoutesNeedLogin(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		for _, r := range []struct{ method, path, body string }{
			{"PUT", "/base/v2/me", `{"nickname":"x"}`},
			{"PUT", "/base/v2/me/avatar", profileTinyPNG},
			{"GET", "/base/v2/users/1/avatar", ""},
			{"PUT", "/base/v2/me/config/cities", `["PEK"]`},
			{"GET", "/base/v2/often-used-passengers", ""},
			{"POST", "/base/v2/often-used-passengers", profilePassengerJSON("ZHANG", "1990-01-01", "CN")},
			{"PUT", "/base/v2/often-used-passengers/1", profilePassengerJSON("ZHANG", "1990-01-01", "CN")},
			{"DELETE", "/base/v2/often-used-passengers/1", ""},
			{"GET", "/base/v2/member-cards", ""},
			{"POST", "/base/v2/member-cards", `{"airline":"CA","number":"1234","holderName":"X"}`},
			{"PUT", "/base/v2/member-cards/1", `{"airline":"CA","number":"1234","holderName":"X"}`},
			{"DELETE", "/base/v2/member-cards/1", ""},
		} {
			resp, env := call(t, srv, r.method, r.path, "en", r.body)
			if resp.StatusCode != 401 || env.Code != 200006 {
				t.Errorf("%s %s without a token: %d %d", r.method, r.path, resp.StatusCode, env.Code)
			}
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers`) + countRows(t, a, `SELECT COUNT(*) FROM member_cards`); n != 0 {
			t.Errorf("anonymous calls stored %d rows", n)
		}
	})
}

func TestUpdateMeAndConfigAPI(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		tok := bearer(loginAs(t, srv, "demo-operator", "demo-pass-1").Token)

		resp, env := call(t, srv, "PUT", "/base/v2/me", "en", `{"nickname":"","mobile":"phone","areaCode":"86"}`, tok...)
		profileStatus(t, "invalid profile", resp, env, 400, 100001)
		if f := profileFields(t, env); f["nickname"] != "Please enter a nickname" || f["mobile"] != "Mobile number format error" {
			t.Errorf("fields = %v", f)
		}
		resp, env = call(t, srv, "PUT", "/base/v2/me", "en", `{"nickname":"Operator Wang","mobile":"13911112222","areaCode":"852"}`, tok...)
		profileStatus(t, "update profile", resp, env, 200, 0)
		var me struct {
			UserInfo struct {
				Nickname  string   `json:"nickname"`
				Cities    []string `json:"cities"`
				Countries []string `json:"countries"`
				Config    struct {
					DateFormat    string `json:"dateFormat"`
					DefaultRegion string `json:"defaultRegion"`
				} `json:"config"`
			} `json:"userInfo"`
		}
		if err := json.Unmarshal(env.Data, &me); err != nil || me.UserInfo.Nickname != "Operator Wang" {
			t.Fatalf("answer %s", env.Data)
		}

		for _, c := range []struct {
			key, body, lang, msg string
		}{
			{"cities", `[]`, "en", "Favourite cities cannot be empty"},
			{"cities", `[]`, "zh-cn", "常用城市不能为空"},
			{"countries", `[]`, "zh-tw", "常用國家不能為空"},
			{"countries", `["XX"]`, "en", "Please choose valid countries or regions"},
			{"dateFormat", `"YYYY"`, "en", "Please choose a supported date format"},
			{"defaultRegion", `"86868"`, "en", "The default area code must be 1 to 4 digits"},
		} {
			resp, env := call(t, srv, "PUT", "/base/v2/me/config/"+c.key, c.lang, c.body, tok...)
			profileStatus(t, c.key+" "+c.body, resp, env, 400, 100001)
			if got := profileFields(t, env)[c.key]; got != c.msg {
				t.Errorf("%s %s (%s): %q, want %q", c.key, c.body, c.lang, got, c.msg)
			}
		}
		resp, env = call(t, srv, "PUT", "/base/v2/me/config/theme", "en", `"dark"`, tok...)
		profileStatus(t, "unknown key", resp, env, 404, 100004)
		if env.Message != "This setting does not exist" {
			t.Errorf("unknown key message %q", env.Message)
		}

		for _, c := range []struct{ key, body string }{
			{"cities", `["pek","SHA"]`}, {"countries", `["CN","hk"]`}, {"dateFormat", `"dd/MM/yyyy"`}, {"defaultRegion", `"852"`},
		} {
			resp, env := call(t, srv, "PUT", "/base/v2/me/config/"+c.key, "en", c.body, tok...)
			profileStatus(t, c.key, resp, env, 200, 0)
		}
		_, env = call(t, srv, "GET", "/base/v2/me", "en", "", tok...)
		if err := json.Unmarshal(env.Data, &me); err != nil {
			t.Fatal(err)
		}
		if strings.Join(me.UserInfo.Cities, ",") != "PEK,SHA" || strings.Join(me.UserInfo.Countries, ",") != "CN,HK" ||
			me.UserInfo.Config.DateFormat != "dd/MM/yyyy" || me.UserInfo.Config.DefaultRegion != "852" {
			t.Errorf("me after settings: %+v", me.UserInfo)
		}
		var n int
		if err := a.DB.GetContext(context.Background(), &n, a.DB.Rebind(`SELECT COUNT(*) FROM user_logs WHERE action IN (?, ?)`), "profile.update", "profile.config"); err != nil {
			t.Fatal(err)
		}
		if n != 5 {
			t.Errorf("user log has %d profile entries, want 5 (one per successful change)", n)
		}
	})
}

func TestAvatarAPI(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, super meData) {
		operator := bearer(loginAs(t, srv, "demo-operator", "demo-pass-1").Token)
		blue := bearer(loginAs(t, srv, "bluesky-super", "demo-pass-1").Token)
		path := fmt.Sprintf("/base/v2/users/%d/avatar", super.UserInfo.ID)

		resp, env := call(t, srv, "GET", path, "en", "", bearer(super.Token)...)
		profileStatus(t, "no avatar yet", resp, env, 404, 100004)

		// The client's content type is not believed: the content decides.
		resp, env = call(t, srv, "PUT", "/base/v2/me/avatar", "en", `<svg xmlns="http://www.w3.org/2000/svg"/>`,
			append(bearer(super.Token), "Content-Type", "image/png")...)
		profileStatus(t, "svg avatar", resp, env, 400, 100001)
		if f := profileFields(t, env); f["avatar"] != "The avatar must be a PNG, JPEG, GIF or WebP image" {
			t.Errorf("fields = %v", f)
		}

		// The avatar route has its own 2 MB limit, above the server-wide
		// body limit (64 KiB in these tests, 1 MiB by default).
		resp, env = call(t, srv, "PUT", "/base/v2/me/avatar", "en", profileTinyPNG+strings.Repeat("\x00", 2<<20),
			append(bearer(super.Token), "Content-Type", "image/png")...)
		profileStatus(t, "avatar over 2 MB", resp, env, 413, 100002)
		if env.Message != "The request is too large (the limit is 2097152 bytes)." {
			t.Errorf("avatar over 2 MB: %q", env.Message)
		}
		resp, env = call(t, srv, "PUT", "/base/v2/me/avatar", "en", profileTinyPNG+strings.Repeat("\x00", 70<<10),
			append(bearer(super.Token), "Content-Type", "image/png")...)
		profileStatus(t, "avatar of 70 KiB", resp, env, 200, 0)

		resp, env = call(t, srv, "PUT", "/base/v2/me/avatar", "en", profileTinyPNG, append(bearer(super.Token), "Content-Type", "application/octet-stream")...)
		profileStatus(t, "png avatar", resp, env, 200, 0)
		var ans struct{ Avatar string }
		if err := json.Unmarshal(env.Data, &ans); err != nil || ans.Avatar != path {
			t.Fatalf("answer %s", env.Data)
		}

		for name, tok := range map[string][]string{"self": bearer(super.Token), "same agency": operator} {
			resp, body := rawGet(t, srv, path, tok...)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || string(body) != profileTinyPNG {
				t.Errorf("%s: %d %s (%d bytes)", name, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
			}
		}
		// Another agency gets the not-found envelope, not the image.
		resp, env = call(t, srv, "GET", path, "en", "", blue...)
		profileStatus(t, "other agency reads avatar", resp, env, 404, 100004)
		_, env = call(t, srv, "GET", "/base/v2/me", "en", "", bearer(super.Token)...)
		if !strings.Contains(string(env.Data), `"avatar":"`+path+`"`) {
			t.Errorf("me lacks the avatar URL: %s", env.Data)
		}
	})
}

func TestOftenUsedPassengersAPI(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo := bearer(loginAs(t, srv, "demo-super", "demo-pass-1").Token)
		blue := bearer(loginAs(t, srv, "bluesky-super", "demo-pass-1").Token)

		// Invalid passengers: translated field messages, nothing stored.
		// Tomorrow on the agency's calendar, the one the rule reads: the
		// UTC date's tomorrow is the agency's today from 16:00 UTC in
		// Beijing (a CI run failed on it at 16:04).
		ag, err := a.Agencies.Get(context.Background(), agencyID(t, a, "Demo Travel"))
		if err != nil {
			t.Fatal(err)
		}
		tomorrow := booking.Today(time.Now(), ag).AddDate(0, 0, 1).Format(time.DateOnly)
		for _, c := range []struct {
			name, body, lang, field, msg string
		}{
			{"surname with digits", profilePassengerJSON("Zhang3", "1990-05-17", "CN"), "en", "surname", "The surname may only contain the letters A-Z"},
			{"surname with digits zh-cn", profilePassengerJSON("Zhang3", "1990-05-17", "CN"), "zh-cn", "surname", "姓只能包含字母 A-Z"},
			{"birthday tomorrow", profilePassengerJSON("ZHANG", tomorrow, "CN"), "en", "birthday", "The date of birth cannot be after today"},
			{"birthday tomorrow zh-tw", profilePassengerJSON("ZHANG", tomorrow, "CN"), "zh-tw", "birthday", "出生日期不能晚於今天"},
			{"bad nationality", profilePassengerJSON("ZHANG", "1990-05-17", "XX"), "en", "nationality", "Please choose a valid nationality"},
		} {
			resp, env := call(t, srv, "POST", "/base/v2/often-used-passengers", c.lang, c.body, demo...)
			profileStatus(t, c.name, resp, env, 400, 100001)
			if got := profileFields(t, env)[c.field]; got != c.msg {
				t.Errorf("%s: %s = %q, want %q", c.name, c.field, got, c.msg)
			}
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers`); n != 0 {
			t.Fatalf("invalid passengers stored %d rows", n)
		}

		resp, env := call(t, srv, "POST", "/base/v2/often-used-passengers", "en", profilePassengerJSON("zhang", "1990-05-17", "cn"), demo...)
		profileStatus(t, "create", resp, env, 201, 0)
		var created struct {
			ID          int64
			Surname     string
			Nationality string
			UpdatedAt   string
		}
		if err := json.Unmarshal(env.Data, &created); err != nil || created.ID == 0 || created.Surname != "ZHANG" || created.Nationality != "CN" {
			t.Fatalf("created %s", env.Data)
		}
		item := fmt.Sprintf("/base/v2/often-used-passengers/%d", created.ID)

		// Blue Sky cannot list, update or delete Demo Travel's passenger.
		profileNotShared(t, a, srv, blue, "/base/v2/often-used-passengers", item, profilePassengerJSON("HACKED", "1990-05-17", "CN"),
			"often_used_passengers", "surname", created.ID, "ZHANG")

		resp, env = call(t, srv, "GET", "/base/v2/often-used-passengers?page=1&pageSize=10", "en", "", demo...)
		profileStatus(t, "list", resp, env, 200, 0)
		var page struct {
			Items                 []json.RawMessage
			Total, Page, PageSize int
		}
		if err := json.Unmarshal(env.Data, &page); err != nil || page.Total != 1 || len(page.Items) != 1 || page.Page != 1 || page.PageSize != 10 {
			t.Fatalf("list %s", env.Data)
		}
		resp, env = call(t, srv, "PUT", item, "en", profilePassengerJSON("LI", "1991-01-01", "HK"), demo...)
		profileStatus(t, "update", resp, env, 200, 0)

		// Up to 30 per agency; the 31st is refused.
		for i := 1; i < 30; i++ {
			resp, env := call(t, srv, "POST", "/base/v2/often-used-passengers", "en", profilePassengerJSON("P"+strings.Repeat("A", i), "1990-05-17", "CN"), demo...)
			profileStatus(t, fmt.Sprintf("passenger %d", i+1), resp, env, 201, 0)
		}
		resp, env = call(t, srv, "POST", "/base/v2/often-used-passengers", "en", profilePassengerJSON("EXTRA", "1990-05-17", "CN"), demo...)
		profileStatus(t, "31st passenger", resp, env, 409, 100009)
		if env.Message != "You can save at most 30 frequent passengers" {
			t.Errorf("31st message %q", env.Message)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM often_used_passengers`); n != 30 {
			t.Errorf("%d passengers stored, want 30", n)
		}

		resp, env = call(t, srv, "DELETE", item, "en", "", demo...)
		profileStatus(t, "delete", resp, env, 200, 0)
		resp, env = call(t, srv, "DELETE", item, "en", "", demo...)
		profileStatus(t, "delete again", resp, env, 404, 100004)
	})
}

func TestMemberCardsAPI(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo := bearer(loginAs(t, srv, "demo-operator", "demo-pass-1").Token)
		blue := bearer(loginAs(t, srv, "bluesky-super", "demo-pass-1").Token)

		resp, env := call(t, srv, "POST", "/base/v2/member-cards", "en", `{"airline":"CAX","number":"12","holderName":""}`, demo...)
		profileStatus(t, "invalid card", resp, env, 400, 100001)
		f := profileFields(t, env)
		if f["airline"] != "Please enter a 2-character airline code" || f["number"] != "The card number must be 4 to 30 letters or digits" ||
			f["holderName"] != "Please enter the card holder's name" {
			t.Errorf("fields = %v", f)
		}
		// A Blue Sky passenger cannot be named on a Demo Travel card.
		resp, env = call(t, srv, "POST", "/base/v2/often-used-passengers", "en", profilePassengerJSON("LIN", "1985-03-02", "TW"), blue...)
		profileStatus(t, "blue passenger", resp, env, 201, 0)
		var bp struct{ ID int64 }
		_ = json.Unmarshal(env.Data, &bp)
		resp, env = call(t, srv, "POST", "/base/v2/member-cards", "en", fmt.Sprintf(`{"airline":"CA","number":"12345678","holderName":"X","passengerId":%d}`, bp.ID), demo...)
		profileStatus(t, "card of another agency's passenger", resp, env, 400, 100001)
		if n := countRows(t, a, `SELECT COUNT(*) FROM member_cards`); n != 0 {
			t.Fatalf("invalid cards stored %d rows", n)
		}

		resp, env = call(t, srv, "POST", "/base/v2/member-cards", "en", `{"airline":"ca","number":"ab123456","holderName":"Wang Wu"}`, demo...)
		profileStatus(t, "create card", resp, env, 201, 0)
		var card struct {
			ID      int64
			Airline string
			Number  string
		}
		if err := json.Unmarshal(env.Data, &card); err != nil || card.Airline != "CA" || card.Number != "AB123456" {
			t.Fatalf("created %s", env.Data)
		}
		item := fmt.Sprintf("/base/v2/member-cards/%d", card.ID)

		profileNotShared(t, a, srv, blue, "/base/v2/member-cards", item, `{"airline":"MU","number":"99999999","holderName":"Hacker"}`,
			"member_cards", "number", card.ID, "AB123456")

		resp, env = call(t, srv, "PUT", item, "en", `{"airline":"MU","number":"77776666","holderName":"Wang Wu"}`, demo...)
		profileStatus(t, "update card", resp, env, 200, 0)
		resp, env = call(t, srv, "GET", "/base/v2/member-cards", "en", "", demo...)
		profileStatus(t, "list cards", resp, env, 200, 0)
		if !strings.Contains(string(env.Data), `"number":"77776666"`) || !strings.Contains(string(env.Data), `"total":1`) {
			t.Errorf("list %s", env.Data)
		}
		resp, env = call(t, srv, "DELETE", item, "en", "", demo...)
		profileStatus(t, "delete card", resp, env, 200, 0)
		if n := countRows(t, a, `SELECT COUNT(*) FROM member_cards`); n != 0 {
			t.Errorf("%d cards left", n)
		}
	})
}
