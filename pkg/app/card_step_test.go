package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/templates"
)

var cardIsland = regexp.MustCompile(`data-island="CardPayment" data-props="([^"]*)"`)

// cardPropsOf are the CardPayment island's props on a page; ok is false
// when the page has no such island.
func cardPropsOf(t *testing.T, body string) (p templates.CardPaymentProps, ok bool) {
	t.Helper()
	m := cardIsland.FindStringSubmatch(body)
	if m == nil {
		return p, false
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &p); err != nil {
		t.Fatalf("the island's props: %v in %s", err, m[1])
	}
	return p, true
}

// cspSources are the sources a Content-Security-Policy gives directive.
func cspSources(policy, directive string) []string {
	for _, d := range strings.Split(policy, ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == directive {
			return f[1:]
		}
	}
	return nil
}

var pendingSection = regexp.MustCompile(`<section[^>]*id="pending-payment"[^>]*>`)

// cardCase is a card channel configured into an app: its settings, and
// the payer's payment the channel then notifies (tradeNo, the amount in
// minor units).
type cardCase struct {
	name      string
	configure func(c *config.Config)
	// pay settles the payment as the channel's notification does.
	pay func(t *testing.T, a *app.App, srv *httptest.Server, tradeNo string, amount int64)
	// props is the island's props the detail page must show (the client
	// secret, intent, amount and return path are filled in by the test).
	props templates.CardPaymentProps
	// allows are the CSP's added sources, by directive; refused are
	// origins the page's policy must not name.
	allows  map[string][]string
	refused []string
}

// TestCardStepOnTheDetailPage: a held flight order paid by a card channel
// shows its detail page, on both engines, with the CardPayment island and
// its props (the channel's public key or environment, the intent and its
// client secret, the detail page to come back to); that page's
// Content-Security-Policy allows the channel's origins, and no other page's
// does; the card form is never swapped by the page's refresh, only the
// status line polls, and once the channel's notification has settled the
// payment the poll reloads the page, which shows the order paid. The
// provider's view of the order shows no client secret. Without Stripe's
// publishable key the page says the card form is not set up.
func TestCardStepOnTheDetailPage(t *testing.T) {
	t.Parallel()
	mock := stripeMockURL(t)
	const whsec = "whsec_voyage_test"
	stripeCfg := func(publishable string) func(c *config.Config) {
		return func(c *config.Config) {
			c.Payment.Stripe = config.StripeConfig{SecretKey: "sk_test_123", WebhookSecret: whsec, Endpoint: mock, PublishableKey: publishable}
		}
	}
	stripePays := func(t *testing.T, _ *app.App, srv *httptest.Server, tradeNo string, amount int64) {
		t.Helper()
		if code := stripeSucceeded(t, srv, whsec, tradeNo, amount); code != http.StatusOK {
			t.Fatalf("Stripe's webhook answered %d", code)
		}
	}
	stripeCase := cardCase{name: "stripe", configure: stripeCfg("pk_test_voyage"), pay: stripePays,
		props: templates.CardPaymentProps{Provider: "stripe", ChannelName: "Stripe", PublishableKey: "pk_test_voyage", Currency: "CNY", Lang: "en"},
		allows: map[string][]string{
			"script-src":  {"'self'", "https://js.stripe.com"},
			"frame-src":   {"https://js.stripe.com", "https://hooks.stripe.com"},
			"connect-src": {"'self'", "https://api.stripe.com"},
		},
		refused: []string{"airwallex"}}
	unset := stripeCase
	unset.name, unset.configure = "stripe-without-publishable-key", stripeCfg("")

	for _, d := range storetest.Engines {
		// Airwallex's fake sends its webhooks to the app's public address.
		rig := &weChatRig{}
		rig.servePublic(t)
		awx := airwallexFake(rig.public.URL)
		awxAPI := httptest.NewServer(awx.handler)
		t.Cleanup(awxAPI.Close)
		airwallexCase := cardCase{name: "airwallex",
			configure: func(c *config.Config) {
				awx.configure(c, awxAPI.URL)
				c.Payment.PublicURL = rig.public.URL
			},
			pay: func(t *testing.T, a *app.App, _ *httptest.Server, tradeNo string, _ int64) {
				t.Helper()
				rig.handler.Store(a.Handler)
				if err := awx.pay(tradeNo); err != nil {
					t.Fatalf("the payer pays by Airwallex: %v", err)
				}
			},
			// The fake's endpoint is not Airwallex's production API: the
			// SDK's environment is demo.
			props: templates.CardPaymentProps{Provider: "airwallex", ChannelName: "Airwallex", Env: "demo", Currency: "CNY", Lang: "en"},
			allows: map[string][]string{
				"script-src":  {"'self'", "https://static.airwallex.com", "https://checkout-demo.airwallex.com"},
				"connect-src": {"'self'", "https://checkout-demo.airwallex.com", "https://api-demo.airwallex.com"},
			},
			refused: []string{"stripe", "https://checkout.airwallex.com"}}
		for _, cc := range []cardCase{stripeCase, unset, airwallexCase} {
			t.Run(cc.name+"/"+string(d), func(t *testing.T) {
				t.Parallel()
				if mock == "" && cc.props.Provider == "stripe" {
					t.Skip("stripe-mock not installed (make stripe-mock)")
				}
				cardStepCase(t, d, cc, cc.name == unset.name)
			})
		}
	}
}

func cardStepCase(t *testing.T, d store.Dialect, cc cardCase, unset bool) {
	a, srv := newSeededApp(t, d, func(c *config.Config) {
		c.Payment.PublicURL = "https://voyage.example.com"
		cc.configure(c)
	})
	ctx := context.Background()
	op := loginAs(t, srv, "demo-operator", "demo-pass-1")
	quoteID, _ := quoteFor(t, srv, op.Token)
	o := createOrder(t, srv, op.Token, quoteID, "card-"+cc.name)
	resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", fmt.Sprintf(`{"channel":%q}`, cc.props.Provider),
		append(bearer(op.Token), "Idempotency-Key", "card-pay")...)
	var v flight.View
	_ = json.Unmarshal(env.Data, &v)
	if resp.StatusCode != 200 || v.Status != flight.Holding || v.Payment == nil || v.Payment.ClientSecret == "" {
		t.Fatalf("pay by %s: %d %+v", cc.name, resp.StatusCode, env)
	}
	var rec struct {
		TradeNo   string `db:"trade_no"`
		Reference string `db:"reference"`
		Amount    int64  `db:"amount"`
	}
	if err := a.DB.GetContext(ctx, &rec, `SELECT trade_no, reference, amount FROM channel_payments ORDER BY id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	// The API's view has the card step too, for an agency's own front end.
	if unset != (v.Payment.Card == nil) || (!unset && (v.Payment.Card.IntentID != rec.Reference || v.Payment.Card.PublishableKey != cc.props.PublishableKey ||
		v.Payment.Card.Env != cc.props.Env || v.Payment.Card.Currency != "CNY")) {
		t.Fatalf("the API's card step: %+v (intent %s)", v.Payment.Card, rec.Reference)
	}

	page := portalAs(t, srv, op.Token)
	self := fmt.Sprintf("/flight/orders/%d", o.ID)
	res, body := get(t, page, srv.URL+self, "Accept-Language", "en")
	csp := res.Header.Get("Content-Security-Policy")
	if res.StatusCode != 200 || !strings.Contains(body, `id="pending-payment"`) {
		t.Fatalf("detail page while the payer pays: %d", res.StatusCode)
	}
	props, ok := cardPropsOf(t, body)
	if unset {
		if ok || !strings.Contains(body, `id="card-payment-unavailable"`) || csp != server.ContentSecurityPolicy {
			t.Fatalf("without a publishable key: island %v, policy %s", ok, csp)
		}
		return
	}
	want := cc.props
	want.Amount = v.Payment.Amount.Amount + " " + v.Payment.Amount.Currency
	want.IntentID, want.ClientSecret, want.ReturnPath = rec.Reference, v.Payment.ClientSecret, self
	if !ok || props != want {
		t.Fatalf("the island's props\n got %+v\nwant %+v", props, want)
	}
	if !strings.Contains(body, "Paying by card needs JavaScript") {
		t.Fatal("the island has no text for a browser without JavaScript")
	}
	for directive, sources := range cc.allows {
		for _, src := range sources {
			if !slices.Contains(cspSources(csp, directive), src) {
				t.Errorf("the card page's %s lacks %s: %s", directive, src, csp)
			}
		}
	}
	for _, other := range cc.refused {
		if strings.Contains(csp, other) {
			t.Errorf("the %s card page's policy names %s: %s", cc.name, other, csp)
		}
	}
	// The section is not refreshed as a whole while the payer types; the
	// status line polls the page.
	if sec := pendingSection.FindString(body); sec == "" || strings.Contains(sec, "hx-trigger") || !strings.Contains(body, `hx-select="#pending-payment-status"`) {
		t.Fatalf("the card payment's section refreshes itself: %s", sec)
	}
	if _, zh := get(t, page, srv.URL+self, "Accept-Language", "zh-CN"); !strings.Contains(zh, "银行卡付款需要 JavaScript") {
		t.Fatal("the zh-CN page's card step is not in Chinese")
	}
	// No other page gets the provider's origins: the order list, the home
	// page, a page not found under the order's.
	for _, path := range []string{"/flight/orders", "/", self + "/no-such-page"} {
		if res, _ := get(t, page, srv.URL+path, "Accept-Language", "en"); res.Header.Get("Content-Security-Policy") != server.ContentSecurityPolicy {
			t.Errorf("%s: policy %s", path, res.Header.Get("Content-Security-Policy"))
		}
	}
	// The provider sees the order, not the payer's client secret, and no
	// provider origin.
	provider := portalAs(t, srv, loginAs(t, srv, "provider-admin", "provider-pass-1").Token)
	if res, pb := get(t, provider, srv.URL+self, "Accept-Language", "en"); strings.Contains(pb, v.Payment.ClientSecret) || strings.Contains(pb, "CardPayment") ||
		res.Header.Get("Content-Security-Policy") != server.ContentSecurityPolicy {
		t.Fatalf("the provider's view of the order (%d) shows the card step", res.StatusCode)
	}

	poll := func() (*http.Response, string) {
		return get(t, page, srv.URL+self, "Accept-Language", "en", "HX-Request", "true", "HX-Target", "pending-payment-status")
	}
	if res, pb := poll(); res.Header.Get("HX-Refresh") != "" || !strings.Contains(pb, `id="pending-payment-status"`) {
		t.Fatalf("the status poll while the payer pays: HX-Refresh %q", res.Header.Get("HX-Refresh"))
	}
	cc.pay(t, a, srv, rec.TradeNo, rec.Amount)
	if got := getOrder(t, srv, op.Token, o.ID); got.PaymentStatus != flight.Paid || got.PaymentChannel != cc.props.Provider {
		t.Fatalf("after %s's notification: %s %s", cc.name, got.Status, got.PaymentStatus)
	}
	if res, _ := poll(); res.Header.Get("HX-Refresh") != "true" {
		t.Fatal("the status poll does not reload the page once the payment is settled")
	}
	res, body = get(t, page, srv.URL+self, "Accept-Language", "en")
	if strings.Contains(body, `id="pending-payment"`) || res.Header.Get("Content-Security-Policy") != server.ContentSecurityPolicy {
		t.Fatal("the paid order's page still shows the card step")
	}
	ledgerZero(t, a)
}

// TestCardStepOnEveryLine: a train order and a group installment paid by
// Stripe show the same card step on their detail pages, with the policy
// allowing Stripe there, on both engines.
func TestCardStepOnEveryLine(t *testing.T) {
	t.Parallel()
	mock := needStripeMock(t)
	seededWith(t, func(c *config.Config) {
		c.Payment.PublicURL = "https://voyage.example.com"
		c.Payment.Stripe = config.StripeConfig{SecretKey: "sk_test_123", WebhookSecret: "whsec_voyage_test", Endpoint: mock, PublishableKey: "pk_test_lines"}
	}, func(t *testing.T, a *app.App, srv *httptest.Server) {
		runJobs(t, a)
		enableTrains(t, a, agencyID(t, a, "Demo Travel"), `{"notifyUrl":"","manual":true}`)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
		page := portalAs(t, srv, op)

		offer := secondClassOffer(t, srv, op, 7, 1)
		resp, env, train := bookTrain(t, srv, op, offer.ID, onePassenger, "card-train")
		if resp.StatusCode != 201 {
			t.Fatalf("book a train: %d %+v", resp.StatusCode, env)
		}
		group := confirmedGroup(t, srv, op, provider, "card-group")
		for _, line := range []struct {
			name, pay, body, self string
		}{
			{"train", fmt.Sprintf("/order/v2/train/orders/%d/payment", train.ID), `{"channel":"stripe"}`, templates.TrainOrderHref(train.ID)},
			{"group", fmt.Sprintf("%s/%d/payment", groupsPath, group.ID), `{"channel":"stripe","stage":"first"}`, templates.GroupHref(group.ID)},
		} {
			if code := status(call(t, srv, "POST", line.pay, "en", line.body, append(bearer(op), "Idempotency-Key", "card-"+line.name)...)); code != 200 {
				t.Fatalf("pay the %s by Stripe: %d", line.name, code)
			}
			res, body := get(t, page, srv.URL+line.self, "Accept-Language", "en")
			props, ok := cardPropsOf(t, body)
			csp := res.Header.Get("Content-Security-Policy")
			if res.StatusCode != 200 || !ok || props.Provider != "stripe" || props.PublishableKey != "pk_test_lines" || props.ClientSecret == "" ||
				props.ReturnPath != line.self || !slices.Contains(cspSources(csp, "script-src"), "https://js.stripe.com") {
				t.Fatalf("the %s's page (%d): island %v %+v, policy %s", line.name, res.StatusCode, ok, props, csp)
			}
		}
	})
}
