package app_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
)

// A Chinese caller reads airports and airlines in Chinese, whatever the
// language the booking was made in: a flight order booked in English and a
// group quote (kept in English) read back with Accept-Language zh-CN and
// zh-TW name Beijing Capital and Shanghai in the caller's language, and in
// English to an English caller.
func TestNamesInTheCallersLanguage(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		quoteID, _ := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "names-flight")
		_, provider := groupParties(t, srv)
		g := requestGroup(t, srv, op.Token, "names-group")
		groupCall(t, srv, provider, "POST", fmt.Sprintf("%s/%d/quote", groupsPath, g.ID), quoteBody(), 200)

		for _, tc := range []struct{ lang, origin, destination string }{
			{"en", "Beijing Capital", "Shanghai"},
			{"zh-CN", "北京首都", "上海"},
			{"zh-TW", "北京首都", "上海"},
		} {
			_, env := call(t, srv, "GET", fmt.Sprintf("/order/v2/flight/orders/%d", o.ID), tc.lang, "", bearer(op.Token)...)
			var fv flight.View
			if err := json.Unmarshal(env.Data, &fv); err != nil || len(fv.Segments) == 0 {
				t.Fatalf("%s: flight order %v %s", tc.lang, err, env.Data)
			}
			_, env = call(t, srv, "GET", fmt.Sprintf("%s/%d", groupsPath, g.ID), tc.lang, "", bearer(op.Token)...)
			var gv group.View
			if err := json.Unmarshal(env.Data, &gv); err != nil || len(gv.Quotes) == 0 || len(gv.Quotes[0].Segments) == 0 {
				t.Fatalf("%s: group order %v %s", tc.lang, err, env.Data)
			}
			for what, s := range map[string]struct{ carrier, code, origin, destination string }{
				"flight": {fv.Segments[0].CarrierName, fv.Segments[0].Carrier, fv.Segments[0].OriginName, fv.Segments[len(fv.Segments)-1].DestinationName},
				"group":  {gv.Quotes[0].Segments[0].CarrierName, gv.Quotes[0].Segments[0].Carrier, gv.Quotes[0].Segments[0].OriginName, gv.Quotes[0].Segments[len(gv.Quotes[0].Segments)-1].DestinationName},
			} {
				if !strings.Contains(s.origin, tc.origin) || !strings.Contains(s.destination, tc.destination) {
					t.Errorf("%s %s: %q → %q, want names with %q and %q", tc.lang, what, s.origin, s.destination, tc.origin, tc.destination)
				}
				if s.carrier == "" || s.carrier == s.code || (tc.lang != "en") == isASCII(s.carrier) {
					t.Errorf("%s %s: airline %s named %q", tc.lang, what, s.code, s.carrier)
				}
			}
		}
	})
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 127 {
			return false
		}
	}
	return true
}

// A group deposit in the wallet reads in the caller's language through the
// API as it does in the portal: "团队订单 PEK-SHA：第一期定金，20 名乘客" to a
// Chinese caller, not the English it was posted in.
func TestGroupWalletEntriesInTheCallersLanguage(t *testing.T) {
	t.Parallel()
	groupMoneyTest(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData, provider string) {
		g := depositPaidGroup(t, srv, op.Token, provider, "names-wallet")
		finance := loginAs(t, srv, "demo-super", "demo-pass-1")
		for _, tc := range []struct{ lang, want string }{
			{"en", "Group order PEK-SHA: First deposit, 20 passengers"},
			{"zh-CN", "团队订单 PEK-SHA：第一期定金，20 名乘客"},
			{"zh-TW", "團體訂單 PEK-SHA：第一期定金，20 名乘客"},
		} {
			_, env := call(t, srv, "GET", "/base/v2/wallet/entries?orderId="+g.BookingNumber, tc.lang, "", bearer(finance.Token)...)
			var page struct {
				Items []struct {
					Description string `json:"description"`
				} `json:"items"`
			}
			if err := json.Unmarshal(env.Data, &page); err != nil || len(page.Items) == 0 {
				t.Fatalf("%s: wallet entries %v %s", tc.lang, err, env.Data)
			}
			if got := page.Items[0].Description; got != tc.want {
				t.Errorf("%s: the deposit reads %q, want %q", tc.lang, got, tc.want)
			}
		}
	})
}
