package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/templates"
)

// channelsOf is GET /order/v2/flight/config/payment's channels for token,
// in lang: the channel names and their translated names.
func channelsOf(t *testing.T, srv *httptest.Server, token, lang string) ([]string, []string) {
	t.Helper()
	resp, env := call(t, srv, "GET", "/order/v2/flight/config/payment", lang, "", bearer(token)...)
	if resp.StatusCode != 200 {
		t.Fatalf("config/payment: %d %+v", resp.StatusCode, env)
	}
	var cfg flight.PaymentConfig
	if err := json.Unmarshal(env.Data, &cfg); err != nil {
		t.Fatal(err)
	}
	var chs, names []string
	for _, c := range cfg.Channels {
		chs, names = append(chs, c.Channel), append(names, c.Name)
	}
	return chs, names
}

// putChannels sets agency id's payment channels as token's user, through
// the agency's config as it reads it (GET, then PUT with only the channels
// changed): channels is the JSON of the new value.
func putChannels(t *testing.T, srv *httptest.Server, token string, id int64, channels, lang string) (int, envelope) {
	t.Helper()
	path := fmt.Sprintf("/base/v2/agencies/%d", id)
	resp, env := call(t, srv, "GET", path, "en", "", bearer(token)...)
	if resp.StatusCode != 200 {
		return resp.StatusCode, env
	}
	var d agency.Detail
	if err := json.Unmarshal(env.Data, &d); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	raw, _ := json.Marshal(d.Config)
	_ = json.Unmarshal(raw, &doc)
	var want any
	if err := json.Unmarshal([]byte(channels), &want); err != nil {
		t.Fatal(err)
	}
	doc["settings"].(map[string]any)["paymentChannels"] = want
	body, _ := json.Marshal(doc)
	resp, env = call(t, srv, "PUT", path+"/config", lang, string(body), bearer(token)...)
	return resp.StatusCode, env
}

// storedChannels is what the agencies table holds for id.
func storedChannels(t *testing.T, a *app.App, id int64) string {
	t.Helper()
	var s *string
	if err := a.DB.GetContext(context.Background(), &s, a.DB.Rebind(`SELECT payment_channels FROM agencies WHERE id = ?`), id); err != nil {
		t.Fatal(err)
	}
	if s == nil {
		return "NULL"
	}
	return *s
}

// gatewayRows counts the payments every gateway has seen: the test
// gateway's and the real channels'.
func gatewayRows(t *testing.T, a *app.App) int {
	t.Helper()
	var n, m int
	ctx := context.Background()
	if err := a.DB.GetContext(ctx, &n, `SELECT COUNT(*) FROM test_gateway_payments`); err != nil {
		t.Fatal(err)
	}
	if err := a.DB.GetContext(ctx, &m, `SELECT COUNT(*) FROM channel_payments`); err != nil {
		t.Fatal(err)
	}
	return n + m
}

// stateOf is a booking's status as the API answers it, with its
// installments' for a group order.
func stateOf(t *testing.T, srv *httptest.Server, token, path string) string {
	t.Helper()
	resp, env := call(t, srv, "GET", path, "en", "", bearer(token)...)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %+v", path, resp.StatusCode, env)
	}
	var v struct {
		Status       string `json:"status"`
		Installments []struct {
			Status string `json:"status"`
		} `json:"installments"`
	}
	if err := json.Unmarshal(env.Data, &v); err != nil {
		t.Fatal(err)
	}
	s := v.Status
	for _, i := range v.Installments {
		s += "/" + i.Status
	}
	return s
}

// TestProviderSwitchesChannelsPerAgency: the provider restricts Demo
// Travel to Alipay through the agency config API; Demo's payment config
// then lists the wallet and Alipay only (translated), and every line
// (flight, train, group installment) refuses its payment by WeChat Pay
// with a translated 403 that holds and charges nothing, and takes it by
// Alipay (against its fake: held while the payer pays). Demo's sub-agency never gets more than
// Demo, whatever the provider stores for it; Demo cannot change its own
// channels nor its sub-agency's; an unknown channel is a 400 that changes
// nothing; Blue Sky, unrestricted, still sees every channel; lifting the
// restriction (null) gives Demo every channel again.
func TestProviderSwitchesChannelsPerAgency(t *testing.T) {
	t.Parallel()
	// The test gateway takes every channel but Alipay, which is real here
	// against its fake (each app its own): its payment waits for the payer.
	withAlipay := func(c *config.Config) {
		c.Payment.TestGateway = true
		fc := alipayFake("")
		api := httptest.NewServer(fc.handler)
		t.Cleanup(api.Close)
		c.Payment.PublicURL = api.URL // no payer pays here: nothing is notified
		fc.configure(c, api.URL)
	}
	seededWith(t, withAlipay, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo, sub, blue := agencyID(t, a, "Demo Travel"), agencyID(t, a, "Demo Sub Travel"), agencyID(t, a, "Blue Sky Travel")
		enableTrains(t, a, demo, `{"notifyUrl":"","manual":true}`)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		demoSuper := loginAs(t, srv, "demo-super", "demo-pass-1").Token
		subSuper := loginAs(t, srv, "sub-super", "demo-pass-1").Token
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
		blueSuper := loginAs(t, srv, "bluesky-super", "demo-pass-1").Token
		every := slices.Clone(payment.Channels)

		if got, _ := channelsOf(t, srv, op, "en"); !slices.Equal(got, every) {
			t.Fatalf("before any restriction Demo sees %v, want %v", got, every)
		}
		if s := storedChannels(t, a, demo); s != "NULL" {
			t.Fatalf("an existing agency's channels: %s, want NULL (every channel)", s)
		}

		// Refusals that change nothing.
		refusals := []struct {
			name, token string
			id          int64
			channels    string
			code        int
			message     map[string]string // language → the message's text
		}{
			{"unknown channel", provider, demo, `["alipay","paypal"]`, 400,
				map[string]string{"en": "Choose payment channels from the list", "zh-CN": "请从列表中选择支付渠道", "zh-TW": "請從清單中選擇付款管道"}},
			{"an agency its own", demoSuper, demo, `["alipay"]`, 404, nil},
			{"a parent its sub-agency", demoSuper, sub, `["alipay"]`, 403,
				map[string]string{"en": "Only the provider can change", "zh-CN": "只有供应商可以修改", "zh-TW": "只有供應商可以修改"}},
			{"a sub-agency itself", subSuper, sub, `[]`, 403, nil},
		}
		for _, r := range refusals {
			t.Run(r.name, func(t *testing.T) {
				langs := []string{"en"}
				if r.message != nil {
					langs = []string{"en", "zh-CN", "zh-TW"}
				}
				for _, lang := range langs {
					code, env := putChannels(t, srv, r.token, r.id, r.channels, lang)
					if code != r.code || !strings.Contains(env.Message+string(env.Data), r.message[lang]) {
						t.Errorf("%s (%s): %d %s %s, want %d %q", r.name, lang, code, env.Message, env.Data, r.code, r.message[lang])
					}
				}
				if s := storedChannels(t, a, r.id); s != "NULL" {
					t.Errorf("after a refusal the agency's channels are %s", s)
				}
			})
		}
		// Nor does a parent choose them for a sub-agency it creates; the
		// provider does, and a new agency without a choice gets every
		// channel (NULL).
		withChannels := strings.Replace(fmt.Sprintf(kowloon, false, "kowloon-%s"), `"canCreateSubAgency":false`,
			`"canCreateSubAgency":false,"paymentChannels":["alipay"]`, 1)
		if resp, env := call(t, srv, "POST", "/base/v2/agencies", "en", fmt.Sprintf(withChannels, "parent"), bearer(demoSuper)...); resp.StatusCode != 403 ||
			!strings.Contains(env.Message, "Only the provider can change") {
			t.Errorf("a parent creates a sub-agency with its channels: %d %+v", resp.StatusCode, env)
		}
		var n int
		if err := a.DB.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM agencies WHERE name = 'Kowloon Tours'`); err != nil || n != 0 {
			t.Errorf("a refused creation left %d agencies (%v)", n, err)
		}
		if resp, env := call(t, srv, "POST", "/base/v2/agencies", "en", fmt.Sprintf(withChannels, "provider"), bearer(provider)...); resp.StatusCode != 201 {
			t.Errorf("the provider creates an agency with its channels: %d %+v", resp.StatusCode, env)
		} else if s := storedChannels(t, a, createdID(t, env)); s != `["alipay"]` {
			t.Errorf("the provider's new agency has channels %s", s)
		}
		if kid := createSub(t, srv, demoSuper, "kowloon-plain", false); storedChannels(t, a, kid) != "NULL" {
			t.Errorf("a new agency without a choice has channels %s, want NULL", storedChannels(t, a, kid))
		}

		// A parent still edits its sub-agency's other settings: it sends
		// back the channels it read.
		if code, env := putChannels(t, srv, demoSuper, sub, `null`, "en"); code != 200 {
			t.Fatalf("a parent's unchanged channels: %d %+v", code, env)
		}

		// The provider restricts Demo to Alipay, and grants its sub-agency
		// Alipay and Stripe: the sub-agency gets Alipay only.
		if code, env := putChannels(t, srv, provider, demo, `["alipay","balance"]`, "en"); code != 200 ||
			!strings.Contains(string(env.Data), `"paymentChannels":["alipay"]`) {
			t.Fatalf("the provider restricts Demo: %d %s", code, env.Data)
		}
		if code, env := putChannels(t, srv, provider, sub, `["stripe","alipay"]`, "en"); code != 200 {
			t.Fatalf("the provider restricts Demo Sub: %d %+v", code, env)
		}
		if s := storedChannels(t, a, sub); s != `["stripe","alipay"]` {
			t.Fatalf("Demo Sub stored %s", s)
		}
		for lang, names := range map[string][]string{"en": {"Wallet balance", "Alipay"}, "zh-CN": {"账户余额", "支付宝"}} {
			got, gotNames := channelsOf(t, srv, op, lang)
			if !slices.Equal(got, []string{"balance", "alipay"}) || !slices.Equal(gotNames, names) {
				t.Errorf("Demo (%s) may pay by %v %v, want balance and Alipay named %v", lang, got, gotNames, names)
			}
		}
		if got, _ := channelsOf(t, srv, subSuper, "en"); !slices.Equal(got, []string{"balance", "alipay"}) {
			t.Errorf("Demo Sub may pay by %v: a sub-agency gets no more than its parent", got)
		}
		if got, _ := channelsOf(t, srv, blueSuper, "en"); !slices.Equal(got, every) || storedChannels(t, a, blue) != "NULL" {
			t.Errorf("Blue Sky, unrestricted, may pay by %v, want %v", got, every)
		}

		// Every line obeys it alike.
		web := portalAs(t, srv, op)
		lines := []struct {
			name string
			// page is the booking's portal page with a channel choice
			// (the train order's page pays from the wallet only).
			page func(path string) string
			book func(key string) (path string)
			body string // the payment's body with %q for the channel
			held string // the booking's state once Alipay holds it
		}{
			{"flight", func(path string) string {
				return strings.Replace(path, "/order/v2/flight/orders", templates.OrdersPath, 1)
			}, func(key string) string {
				q, _ := quoteFor(t, srv, op)
				return fmt.Sprintf("/order/v2/flight/orders/%d", createOrder(t, srv, op, q, key).ID)
			}, `{"channel":%q}`, "holding"},
			{"train", nil, func(key string) string {
				offer := secondClassOffer(t, srv, op, 7, 1)
				resp, env, v := bookTrain(t, srv, op, offer.ID, onePassenger, key)
				if resp.StatusCode != 201 {
					t.Fatalf("book a train: %d %+v", resp.StatusCode, env)
				}
				return fmt.Sprintf("/order/v2/train/orders/%d", v.ID)
			}, `{"channel":%q}`, "holding"},
			{"group", func(path string) string {
				return strings.Replace(path, groupsPath, templates.GroupOrdersPath, 1)
			}, func(key string) string {
				return fmt.Sprintf("%s/%d", groupsPath, confirmedGroup(t, srv, op, provider, key).ID)
			}, `{"channel":%q,"stage":"first"}`, "/holding"},
		}
		for _, l := range lines {
			t.Run(l.name, func(t *testing.T) {
				path := l.book("channels-" + l.name)
				if l.page != nil {
					res, body := get(t, web, srv.URL+l.page(path), "Accept-Language", "en")
					if res.StatusCode != 200 || !strings.Contains(body, `<option value="balance">`) || !strings.Contains(body, `<option value="alipay">`) ||
						strings.Contains(body, `<option value="wechat-pay">`) || strings.Contains(body, `<option value="stripe">`) {
						t.Errorf("the %s page (%d) does not offer the wallet and Alipay alone", l.name, res.StatusCode)
					}
				}
				before, wallet, rows := stateOf(t, srv, op, path), walletMinor(t, a, demo), gatewayRows(t, a)
				for lang, want := range map[string]string{"en": "may not pay by this payment method", "zh-CN": "贵公司不能使用该支付方式", "zh-TW": "貴公司不能使用該付款方式"} {
					resp, env := call(t, srv, "POST", path+"/payment", lang, fmt.Sprintf(l.body, "wechat-pay"),
						append(bearer(op), "Idempotency-Key", "wx-"+l.name+"-"+lang)...)
					if resp.StatusCode != 403 || env.Code != 200003 || !strings.Contains(env.Message, want) {
						t.Errorf("%s by WeChat Pay (%s): %d %d %q, want 403 200003 %q", l.name, lang, resp.StatusCode, env.Code, env.Message, want)
					}
				}
				if after := stateOf(t, srv, op, path); after != before {
					t.Errorf("a refused payment moved the %s from %s to %s", l.name, before, after)
				}
				if w, n := walletMinor(t, a, demo), gatewayRows(t, a); w != wallet || n != rows {
					t.Errorf("a refused payment: wallet %d → %d, gateway payments %d → %d", wallet, w, rows, n)
				}
				resp, env := call(t, srv, "POST", path+"/payment", "en", fmt.Sprintf(l.body, "alipay"),
					append(bearer(op), "Idempotency-Key", "ali-"+l.name)...)
				if resp.StatusCode != 200 {
					t.Fatalf("%s by Alipay: %d %+v", l.name, resp.StatusCode, env)
				}
				if after := stateOf(t, srv, op, path); !strings.Contains(after, l.held) || gatewayRows(t, a) != rows+1 {
					t.Errorf("%s by Alipay: %s, gateway payments %d → %d; want it held while Alipay answers", l.name, after, rows, gatewayRows(t, a))
				}
			})
		}

		// Lifting the restriction gives Demo every channel again.
		if code, env := putChannels(t, srv, provider, demo, `null`, "en"); code != 200 {
			t.Fatalf("the provider lifts Demo's restriction: %d %+v", code, env)
		}
		if got, _ := channelsOf(t, srv, op, "en"); !slices.Equal(got, every) {
			t.Errorf("Demo, unrestricted again, may pay by %v", got)
		}
		if got, _ := channelsOf(t, srv, subSuper, "en"); !slices.Equal(got, []string{"balance", "stripe", "alipay"}) {
			t.Errorf("Demo Sub, restricted to Stripe and Alipay, may pay by %v", got)
		}
	})
}

// TestProviderSwitchesChannelsInThePortal: the provider's agency settings
// page ticks the channels an agency may pay by (their names translated);
// what it saves is what the agency is offered; an unknown channel is shown
// as the form's error and changes nothing. A parent agency's page for its
// sub-agency has no such choice: saving its settings keeps the channels the
// provider set, and a forged choice is refused.
func TestProviderSwitchesChannelsInThePortal(t *testing.T) {
	t.Parallel()
	seededWith(t, func(c *config.Config) { c.Payment.TestGateway = true }, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo, sub := agencyID(t, a, "Demo Travel"), agencyID(t, a, "Demo Sub Travel")
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		provider := portalAs(t, srv, loginAs(t, srv, "provider-admin", "provider-pass-1").Token)
		parent := portalAs(t, srv, loginAs(t, srv, "demo-super", "demo-pass-1").Token)
		page := func(id int64) string { return fmt.Sprintf("%s/agency-manager/agencies/%d", srv.URL, id) }
		same := []string{"Sec-Fetch-Site", "same-origin", "Origin", srv.URL, "Accept-Language", "en"}
		settings := func(extra url.Values) url.Values {
			f := url.Values{"section": {"settings"}, "settings.settlementCurrency": {"CNY"}, "settings.emailLanguage": {"en"},
				"settings.timeZone": {"Asia/Shanghai"}, "settings.enableFlightService": {"1"}, "settings.enableTrainService": {"1"},
				"settings.canCreateSubAgency": {"1"}, "settings.isShowBill": {"1"}}
			for k, v := range extra {
				f[k] = v
			}
			return f
		}

		for lang, names := range map[string][]string{"en": {"Payment channels", "Alipay", "WeChat Pay"}, "zh-TW": {"付款管道", "支付寶"}} {
			res, body := get(t, provider, page(demo)+"?section=settings", "Accept-Language", lang)
			if res.StatusCode != 200 || !strings.Contains(body, `name="settings.paymentChannels" value="alipay"`) ||
				!regexp.MustCompile(`value="all" checked`).MatchString(body) {
				t.Fatalf("the provider's settings page (%s): %d, no channel choice with every channel chosen", lang, res.StatusCode)
			}
			for _, n := range names {
				if !strings.Contains(body, n) {
					t.Errorf("the provider's settings page (%s) does not say %q", lang, n)
				}
			}
		}

		// An unknown channel: the form's error, nothing changed.
		res, body := postForm(t, provider, page(demo)+"/config", settings(url.Values{"settings.paymentChannels.mode": {"only"},
			"settings.paymentChannels": {"alipay", "paypal"}}), same...)
		if res.StatusCode == http.StatusSeeOther || !strings.Contains(body, "Choose payment channels from the list") {
			t.Errorf("an unknown channel: %d, no error shown", res.StatusCode)
		}
		if s := storedChannels(t, a, demo); s != "NULL" {
			t.Fatalf("after an unknown channel Demo's channels are %s", s)
		}

		res, _ = postForm(t, provider, page(demo)+"/config", settings(url.Values{"settings.paymentChannels.mode": {"only"},
			"settings.paymentChannels": {"alipay"}}), same...)
		if res.StatusCode != http.StatusSeeOther || storedChannels(t, a, demo) != `["alipay"]` {
			t.Fatalf("the provider ticks Alipay: %d, stored %s", res.StatusCode, storedChannels(t, a, demo))
		}
		if got, _ := channelsOf(t, srv, op, "en"); !slices.Equal(got, []string{"balance", "alipay"}) {
			t.Errorf("Demo may pay by %v after the provider ticked Alipay", got)
		}
		if _, body := get(t, provider, page(demo)+"?section=settings", "Accept-Language", "en"); !regexp.MustCompile(`value="alipay" checked`).MatchString(body) ||
			regexp.MustCompile(`value="stripe" checked`).MatchString(body) || !regexp.MustCompile(`value="only" checked`).MatchString(body) {
			t.Error("the settings page does not show Alipay alone ticked")
		}
		res, _ = postForm(t, provider, page(sub)+"/config", settings(url.Values{"settings.paymentChannels.mode": {"only"},
			"settings.paymentChannels": {"stripe"}}), same...)
		if res.StatusCode != http.StatusSeeOther || storedChannels(t, a, sub) != `["stripe"]` {
			t.Fatalf("the provider ticks Stripe for Demo Sub: %d", res.StatusCode)
		}

		// The parent's page: no choice; saving keeps the provider's.
		if _, body := get(t, parent, page(sub)+"?section=settings", "Accept-Language", "en"); !strings.Contains(body, `name="settings.settlementCurrency"`) ||
			strings.Contains(body, "settings.paymentChannels") {
			t.Error("a parent's settings page for its sub-agency offers the payment channels (or no settings)")
		}
		res, _ = postForm(t, parent, page(sub)+"/config", settings(nil), same...)
		if res.StatusCode != http.StatusSeeOther || storedChannels(t, a, sub) != `["stripe"]` {
			t.Errorf("a parent saves its sub-agency's settings: %d, channels now %s", res.StatusCode, storedChannels(t, a, sub))
		}
		res, body = postForm(t, parent, page(sub)+"/config", settings(url.Values{"settings.paymentChannels.mode": {"all"}}), same...)
		if res.StatusCode == http.StatusSeeOther || !strings.Contains(body, "Only the provider can change") || storedChannels(t, a, sub) != `["stripe"]` {
			t.Errorf("a parent's forged channel choice: %d, channels now %s", res.StatusCode, storedChannels(t, a, sub))
		}
	})
}

// createdID is the id of the agency a creation answered.
func createdID(t *testing.T, env envelope) int64 {
	t.Helper()
	var d struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(env.Data, &d); err != nil || d.ID == 0 {
		t.Fatalf("created agency: %s (%v)", env.Data, err)
	}
	return d.ID
}
