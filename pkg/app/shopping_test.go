package app_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/shopping"
)

// startSearch starts a search through the API, which must accept it; what
// names the search in a failure.
func startSearch(t *testing.T, srv *httptest.Server, token, lang, body, what string) shopping.Started {
	t.Helper()
	resp, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping", lang, body, bearer(token)...)
	if resp.StatusCode != 200 || env.Code != 0 {
		t.Fatalf("%s: %d %+v", what, resp.StatusCode, env)
	}
	var st shopping.Started
	_ = json.Unmarshal(env.Data, &st)
	return st
}

// searchAPI runs a search through the API and polls it to completion.
func searchAPI(t *testing.T, srv *httptest.Server, token, lang, body string) (string, shopping.Page) {
	t.Helper()
	st := startSearch(t, srv, token, lang, body, "search")
	if st.SearchID == "" || st.ExpiresAt.Before(time.Now().Add(9*time.Minute)) {
		t.Fatalf("started = %+v", st)
	}
	var p shopping.Page
	until(t, 30*time.Second, func() error {
		_, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping/solutions", lang,
			fmt.Sprintf(`{"searchId":%q,"sort":"price","pageSize":50}`, st.SearchID), bearer(token)...)
		if env.Code != 0 {
			t.Fatalf("poll: %+v", env)
		}
		p = shopping.Page{}
		if err := json.Unmarshal(env.Data, &p); err != nil {
			t.Fatal(err)
		}
		if !p.Complete {
			return fmt.Errorf("search did not complete: %+v", p.Suppliers)
		}
		return nil
	})
	return st.SearchID, p
}

func TestFlightSearchAPI(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		date := time.Now().AddDate(0, 0, 30).Format(time.DateOnly)
		back := time.Now().AddDate(0, 0, 37).Format(time.DateOnly)
		body := fmt.Sprintf(`{"journeys":[{"origin":"BJS","destination":"LON","date":%q},{"origin":"LON","destination":"BJS","date":%q}],
			"passengers":{"adult":2,"child":1,"infant":0},"cabinClass":"economy","bookingType":"return"}`, date, back)
		searchID, p := searchAPI(t, srv, op.Token, "zh-cn", body)
		if p.Total == 0 || len(p.Items) == 0 {
			t.Fatalf("no solutions for BJS-LON return: %+v", p.Suppliers)
		}
		sources := map[string]bool{}
		var prev float64
		for i, s := range p.Items {
			sources[s.Source] = true
			if len(s.Journeys) != 2 {
				t.Fatalf("solution %d has %d journeys", i, len(s.Journeys))
			}
			var amt float64
			fmt.Sscan(s.Total.Amount, &amt)
			if amt < prev {
				t.Fatalf("sort by price: %s after %v", s.Total.Amount, prev)
			}
			prev = amt
			if len(s.PriceDetail.PriceList) != 2 || s.PriceDetail.PriceList[0].PassengerType != "adult" || s.PriceDetail.PriceList[0].Count != 2 {
				t.Fatalf("price list %+v", s.PriceDetail.PriceList)
			}
			if !strings.HasPrefix(s.ID, searchID+"_") {
				t.Fatalf("solution id %q does not carry the search", s.ID)
			}
		}
		if p.Items[0].Segments[0].OriginName == "" || !strings.ContainsAny(p.Items[0].Segments[0].OriginName, "北京首都大兴") {
			t.Fatalf("origin name in zh-cn = %q", p.Items[0].Segments[0].OriginName)
		}
		if len(p.Facets.Airlines) == 0 || len(p.Facets.Stops) == 0 || len(p.Facets.DepartureBuckets) == 0 {
			t.Fatalf("facets %+v", p.Facets)
		}
		// Filtering on one airline leaves only solutions with that airline and
		// as many as its facet said.
		fa := p.Facets.Airlines[0]
		_, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping/solutions", "en",
			fmt.Sprintf(`{"searchId":%q,"filters":{"airlines":[%q]},"pageSize":100}`, searchID, fa.Value), bearer(op.Token)...)
		var f shopping.Page
		_ = json.Unmarshal(env.Data, &f)
		if f.Total != fa.Count {
			t.Fatalf("airline %s: facet said %d, filter gave %d", fa.Value, fa.Count, f.Total)
		}
		for _, s := range f.Items {
			if !slices.ContainsFunc(s.Segments, func(g shopping.SegmentView) bool { return g.Carrier == fa.Value }) {
				t.Fatalf("filtered solution without %s: %+v", fa.Value, s.Segments)
			}
		}

		// Verification gives a quote valid 15 minutes.
		_, env = call(t, srv, "POST", "/shopping/v2/flight/solutions/"+p.Items[0].ID+"/verification", "en", "", bearer(op.Token)...)
		if env.Code != 0 {
			t.Fatalf("verify: %+v", env)
		}
		var v shopping.Verification
		_ = json.Unmarshal(env.Data, &v)
		if v.Status != "ok" || v.QuoteID == "" || v.QuoteExpiresAt.Before(time.Now().Add(14*time.Minute)) || v.Solution.Total != p.Items[0].Total {
			t.Fatalf("verification %+v", v)
		}

		// Another agency's user cannot poll or verify this search.
		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		resp, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping/solutions", "en", fmt.Sprintf(`{"searchId":%q}`, searchID), bearer(blue.Token)...)
		if resp.StatusCode != 404 || env.Code != 100004 {
			t.Fatalf("foreign poll: %d %+v", resp.StatusCode, env)
		}
		resp, env = call(t, srv, "POST", "/shopping/v2/flight/solutions/"+p.Items[0].ID+"/verification", "en", "", bearer(blue.Token)...)
		if resp.StatusCode != 404 || env.Code != 100004 {
			t.Fatalf("foreign verify: %d %+v", resp.StatusCode, env)
		}

		// Bad journeys: translated field errors, nothing stored.
		resp, env = call(t, srv, "POST", "/shopping/v2/flight/async-shopping", "zh-cn",
			fmt.Sprintf(`{"journeys":[{"origin":"PEK","destination":"PKX","date":%q}]}`, date), bearer(op.Token)...)
		if resp.StatusCode != 400 || env.Code != 100001 || !strings.Contains(string(env.Data), "journeys[0].destination") {
			t.Fatalf("same-city journey: %d %+v", resp.StatusCode, env)
		}
		// A finance user has no flight search.
		fin := loginAs(t, srv, "demo-finance", "demo-pass-1")
		resp, env = call(t, srv, "POST", "/shopping/v2/flight/async-shopping", "en", body, bearer(fin.Token)...)
		if resp.StatusCode != 403 || env.Code != 200003 {
			t.Fatalf("finance search: %d %+v", resp.StatusCode, env)
		}
	})
}

func TestPNRSearchAPI(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		d := time.Now().AddDate(0, 0, 40)
		text := fmt.Sprintf(" 1.ZHANG/SAN MR\n 2  CA 937 Y %s 5 PEKLHR HK1  1400 1810\n", strings.ToUpper(d.Format("02Jan")))
		body, _ := json.Marshal(map[string]string{"pnr": text})
		_, env := call(t, srv, "POST", "/shopping/v2/flight/analysis-pnr", "en", string(body), bearer(op.Token)...)
		if env.Code != 0 {
			t.Fatalf("analysis: %+v", env)
		}
		var an struct {
			Segments []struct {
				FlightNumber, Date, Origin, Destination string
			}
			Passengers []struct{ Surname, GivenName string }
		}
		_ = json.Unmarshal(env.Data, &an)
		if len(an.Segments) != 1 || an.Segments[0].FlightNumber != "CA937" || an.Segments[0].Date != d.Format(time.DateOnly) ||
			len(an.Passengers) != 1 || an.Passengers[0].Surname != "ZHANG" {
			t.Fatalf("analysis = %+v", an)
		}
		acc := fmt.Sprintf(`{"segments":[{"flightNumber":"CA937","date":%q,"origin":"PEK","destination":"LHR"}],"passengers":{"adult":1}}`, d.Format(time.DateOnly))
		resp, env := call(t, srv, "POST", "/shopping/v2/flight/accurate-search", "en", acc, bearer(op.Token)...)
		if env.Code != 0 {
			t.Fatalf("accurate search: %d %+v", resp.StatusCode, env)
		}
		var st shopping.Started
		_ = json.Unmarshal(env.Data, &st)
		_, env = call(t, srv, "POST", "/shopping/v2/flight/async-shopping/solutions", "en", fmt.Sprintf(`{"searchId":%q}`, st.SearchID), bearer(op.Token)...)
		var p shopping.Page
		_ = json.Unmarshal(env.Data, &p)
		for _, s := range p.Items {
			for _, g := range s.Segments {
				if g.Carrier != "CA" || g.Origin != "PEK" || g.Destination != "LHR" {
					t.Fatalf("accurate search returned %s %s-%s", g.FlightNumber, g.Origin, g.Destination)
				}
			}
		}
		// An agency that hides PNR booking cannot use it.
		if _, err := a.DB.Exec(a.DB.Rebind(`UPDATE agencies SET hide_pnr_booking = ? WHERE id = ?`), true, op.Company.ID); err != nil {
			t.Fatal(err)
		}
		resp, env = call(t, srv, "POST", "/shopping/v2/flight/analysis-pnr", "en", string(body), bearer(op.Token)...)
		if resp.StatusCode != 403 || env.Code != 200003 {
			t.Fatalf("hidden PNR booking: %d %+v", resp.StatusCode, env)
		}
	})
}
