package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/shopping"
)

// The saved-traveller form (and a scan, which fills it), the API and the
// DOCS import apply one rule: a traveller whose document the agency keeps
// is already saved. The form refuses it in the page's language and saves
// nothing; the import passes it over.
func TestAlreadySavedTravellerRefusedAlike(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		web := portalAs(t, srv, op.Token)
		if res, _ := postForm(t, web, srv.URL+"/profile/travellers", travellerForm("ZHANG"), "Accept-Language", "en"); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("first save: %d", res.StatusCode)
		}
		for lang, want := range map[string]string{"en": "A traveller with this document is already saved", "zh-CN": "已保存持有该证件的旅客"} {
			res, body := postForm(t, web, srv.URL+"/profile/travellers", travellerForm("ZHANG"), "Accept-Language", lang)
			if res.StatusCode != http.StatusOK || !strings.Contains(body, want) {
				t.Fatalf("%s: the same traveller again: %d %s", lang, res.StatusCode, excerpt(body, "form-errors"))
			}
		}
		resp, env := call(t, srv, "POST", "/base/v2/often-used-passengers", "en", `{"surname":"ZHANG","givenName":"SAN","type":"adult","gender":"male",
			"birthday":"1985-05-12","nationality":"CN","documentType":"passport","documentNumber":"E11111111","documentExpiry":"2031-05-16"}`, bearer(op.Token)...)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(env.Data), "already saved") {
			t.Fatalf("API, the same traveller: %d %+v", resp.StatusCode, env)
		}
		res, _ := postForm(t, web, srv.URL+"/profile/travellers/import", url.Values{"text": {"SSR DOCS CA HK1 P/CN/E11111111/CN/12MAY85/M/16MAY31/ZHANG/SAN"}}, "Accept-Language", "en")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("import: %d", res.StatusCode)
		}
		if n := travellerCount(t, a, op.Company.ID); n != 1 {
			t.Fatalf("%d travellers saved, want the first only", n)
		}
	})
}

// A mainland ID card does not book a Beijing–Hong Kong flight: the order is
// refused on the traveller's document, translated, and nothing is booked.
func TestIDCardRefusedToHongKong(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		date := time.Now().AddDate(0, 0, 20).Format(time.DateOnly)
		_, p := searchAPI(t, srv, op.Token, "en", fmt.Sprintf(`{"journeys":[{"origin":"PEK","destination":"HKG","date":%q}],
			"passengers":{"adult":1,"child":0,"infant":0},"cabinClass":"economy","bookingType":"oneway"}`, date))
		quoteID := ""
		for _, sol := range p.Items {
			if strings.HasPrefix(sol.TicketingSpeed, "special") {
				continue
			}
			_, env := call(t, srv, "POST", "/shopping/v2/flight/solutions/"+sol.ID+"/verification", "en", "", bearer(op.Token)...)
			var v shopping.Verification
			_ = json.Unmarshal(env.Data, &v)
			if env.Code == 0 && v.QuoteID != "" {
				quoteID = v.QuoteID
				break
			}
		}
		if quoteID == "" {
			t.Fatal("no verifiable solution PEK-HKG")
		}
		body := strings.Replace(strings.Replace(fmt.Sprintf(adultBody, quoteID), `"documentType":"passport"`, `"documentType":"idcard"`, 1),
			`"documentNumber":"E12345678"`, `"documentNumber":"110101198504020011"`, 1)
		for lang, want := range map[string]string{"en": "only for flights within mainland China", "zh-CN": "身份证仅适用于中国大陆境内航班"} {
			resp, env := call(t, srv, "POST", "/order/v2/flight/orders", lang, body, append(bearer(op.Token), "Idempotency-Key", "idcard-hkg-"+lang)...)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(env.Data), "passengers[0].documentType") || !strings.Contains(string(env.Data), want) {
				t.Fatalf("%s: ID card to Hong Kong: %d %s", lang, resp.StatusCode, env.Data)
			}
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM flight_orders WHERE agency_id = ?`, op.Company.ID); n != 0 {
			t.Fatalf("%d orders booked", n)
		}
	})
}
