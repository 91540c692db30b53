package app_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/geo"
)

func airportCodes(ps []geo.Place) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Code
	}
	return out
}

func TestAirportsAPI(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, me meData) {
		search := func(t *testing.T, q, lang string, hdr ...string) []geo.Place {
			t.Helper()
			if hdr == nil {
				hdr = bearer(me.Token)
			}
			resp, env := call(t, srv, "GET", "/base/v2/airports?q="+url.QueryEscape(q), lang, "", hdr...)
			if resp.StatusCode != 200 || env.Code != 0 {
				t.Fatalf("q=%q: %d %+v", q, resp.StatusCode, env)
			}
			var ps []geo.Place
			if err := json.Unmarshal(env.Data, &ps); err != nil {
				t.Fatalf("q=%q: %v in %s", q, err, env.Data)
			}
			if len(ps) == 0 {
				t.Fatalf("q=%q found nothing", q)
			}
			return ps
		}

		tests := []struct {
			name, q, lang    string
			code, typ, named string
			cityCode, city   string
			airports         []string
		}{
			{"airport code", "PEK", "en", "PEK", "airport", "Beijing Capital International Airport", "BJS", "Beijing", nil},
			{"city code", "bjs", "en", "BJS", "city", "Beijing", "BJS", "Beijing", []string{"PEK", "PKX"}},
			{"london", "LON", "en", "LON", "city", "London", "LON", "London", []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"}},
			{"chinese, zh-cn answer", "北京", "zh-CN,zh;q=0.9", "BJS", "city", "北京", "BJS", "北京", []string{"PEK", "PKX"}},
			{"chinese, zh-tw answer", "倫敦", "zh-tw", "LON", "city", "倫敦", "LON", "倫敦", []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"}},
			{"shanghai", "上海", "zh-cn", "SHA", "city", "上海", "SHA", "上海", []string{"PVG", "SHA"}},
			{"pinyin", "beijing", "zh-cn", "BJS", "city", "北京", "BJS", "北京", []string{"PEK", "PKX"}},
			{"airport by name, zh-tw", "heathrow", "zh-tw", "LHR", "airport", "倫敦希思羅機場", "LON", "倫敦", nil},
			{"single-airport city", "guangzhou", "zh-cn", "CAN", "airport", "广州白云国际机场", "CAN", "广州", nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p := search(t, tt.q, tt.lang)[0]
				if p.Code != tt.code || p.Type != tt.typ || p.Name != tt.named || p.CityCode != tt.cityCode || p.CityName != tt.city {
					t.Errorf("first answer %+v, want %s %s %q in %s %q", p, tt.code, tt.typ, tt.named, tt.cityCode, tt.city)
				}
				if p.Country == "" || p.CountryName == "" {
					t.Errorf("no country in %+v", p)
				}
				if tt.airports != nil {
					got := airportCodes(p.Airports)
					if len(got) != len(tt.airports) {
						t.Fatalf("airports %v, want %v", got, tt.airports)
					}
					for i := range got {
						if got[i] != tt.airports[i] || p.Airports[i].Type != "airport" || p.Airports[i].CityCode != p.Code {
							t.Errorf("airport %d: %+v, want %s", i, p.Airports[i], tt.airports[i])
						}
					}
				}
			})
		}

		// The busiest places without q; limit is capped at 50.
		if ps := search(t, "", "en"); len(ps) != 10 || ps[0].Code != "ATL" {
			t.Errorf("empty q: %d places, first %s", len(ps), ps[0].Code)
		}
		resp, env := call(t, srv, "GET", "/base/v2/airports?q=a&limit=500", "en", "", bearer(me.Token)...)
		var many []geo.Place
		if err := json.Unmarshal(env.Data, &many); resp.StatusCode != 200 || err != nil || len(many) != 50 {
			t.Errorf("limit 500: %d, %d places", resp.StatusCode, len(many))
		}
		resp, env = call(t, srv, "GET", "/base/v2/airports?q=lon&limit=2", "en", "", bearer(me.Token)...)
		if err := json.Unmarshal(env.Data, &many); resp.StatusCode != 200 || err != nil || len(many) != 2 {
			t.Errorf("limit 2: %d, %d places", resp.StatusCode, len(many))
		}

		// An API key without roles may call it too.
		k, err := a.Auth.CreateAPIKey(context.Background(), me.Company.ID, "erp", nil, me.UserInfo.ID)
		if err != nil {
			t.Fatal(err)
		}
		if p := search(t, "PEK", "en", "X-Api-Key", k.Key)[0]; p.Code != "PEK" {
			t.Errorf("API key search: %+v", p)
		}

		// Not logged in: refused.
		resp, env = call(t, srv, "GET", "/base/v2/airports?q=PEK", "en", "")
		if resp.StatusCode != 401 || env.Code == 0 {
			t.Errorf("anonymous: %d %+v", resp.StatusCode, env)
		}

		// An agency hiding mainland China content sees none of its airports.
		if _, err := a.DB.Exec(a.DB.Rebind(`UPDATE agencies SET hide_mainland = ? WHERE id = ?`), true, me.Company.ID); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"", "bei", "上海"} {
			resp, env := call(t, srv, "GET", "/base/v2/airports?q="+url.QueryEscape(q)+"&limit=20", "en", "", bearer(me.Token)...)
			var ps []geo.Place
			if err := json.Unmarshal(env.Data, &ps); resp.StatusCode != 200 || err != nil {
				t.Fatalf("hidden mainland q=%q: %d %v", q, resp.StatusCode, err)
			}
			for _, p := range ps {
				if p.Country == "CN" {
					t.Errorf("hidden mainland q=%q answered %s (%s)", q, p.Code, p.Name)
				}
			}
			if q == "" && len(ps) != 20 {
				t.Errorf("hidden mainland busiest places: %d, want 20", len(ps))
			}
		}
	})
}
