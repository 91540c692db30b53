package app_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

// The agency's time zone through the settings API and the user's through
// /me/config (issue 20): an IANA name is taken, anything else refused on
// its field in the caller's language, and /me and the agency's config show
// what is stored.
func TestTimeZoneAPI(t *testing.T) {
	asSuperUser(t, func(t *testing.T, a *app.App, srv *httptest.Server, demo meData) {
		kid := fmt.Sprint(createSub(t, srv, demo.Token, "zone-admin", false))
		cfg := func(zone string) string {
			return `{"settings":{"settlementCurrency":"CNY","enableFlightService":true,"enableTrainService":false,"isShowBill":true,"canCreateSubAgency":false,"timeZone":"` + zone + `"},"flight":{},"train":{}}`
		}

		_, env := call(t, srv, "GET", "/base/v2/agencies/"+kid, "en", "", bearer(demo.Token)...)
		if !strings.Contains(string(env.Data), `"timeZone":"Asia/Shanghai"`) {
			t.Errorf("a new agency's zone: %s", env.Data)
		}
		resp, env := call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/config", "zh-cn", cfg("Mars/Olympus"), bearer(demo.Token)...)
		if resp.StatusCode != 400 || !strings.Contains(string(env.Data), "settings.timeZone") || !strings.Contains(string(env.Data), "未知时区") {
			t.Errorf("a bad zone: %d %s %s", resp.StatusCode, env.Message, env.Data)
		}
		resp, env = call(t, srv, "PUT", "/base/v2/agencies/"+kid+"/config", "en", cfg("Europe/London"), bearer(demo.Token)...)
		if resp.StatusCode != 200 {
			t.Fatalf("Europe/London: %d %s", resp.StatusCode, env.Data)
		}
		_, env = call(t, srv, "GET", "/base/v2/agencies/"+kid, "en", "", bearer(demo.Token)...)
		if !strings.Contains(string(env.Data), `"timeZone":"Europe/London"`) {
			t.Errorf("stored zone: %s", env.Data)
		}

		zone := loginAs(t, srv, "zone-admin", "start-pass-1")
		resp, env = call(t, srv, "PUT", "/base/v2/me/config/timeZone", "zh-tw", `"Nowhere"`, bearer(zone.Token)...)
		if resp.StatusCode != 400 || !strings.Contains(string(env.Data), "未知時區") {
			t.Errorf("a bad user zone: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "PUT", "/base/v2/me/config/timeZone", "en", `"Asia/Tokyo"`, bearer(zone.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"timeZone":"Asia/Tokyo"`) {
			t.Errorf("user zone: %d %s", resp.StatusCode, env.Data)
		}
	})
}
