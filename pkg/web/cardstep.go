package web

import (
	"net/http"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/airwallex"
	"github.com/voyage/voyage/pkg/payment/stripe"
	"github.com/voyage/voyage/pkg/server"
)

// cardStatusTarget is the card step's status line (templates.
// PendingCardPayment), which asks for the detail page every few seconds.
const cardStatusTarget = "pending-payment-status"

// cardStep prepares the answer of a booking's detail page for the payment
// p it waits for (nil: none), before the page is written.
//
// A card payment's form is the provider's own script: Stripe requires
// Stripe.js to be loaded from js.stripe.com (never bundled or hosted here),
// and it runs the card fields in frames of its origin that talk to its API;
// Airwallex's hosted payment page is opened by its components SDK from its
// CDN. The baseline policy (server.ContentSecurityPolicy) allows scripts,
// frames and connections to this server only, so the page showing a card
// step gets a policy that also allows that one provider's origins, and only
// that page: everywhere else a script injected into the portal still
// cannot load code from, or send data to, a third party.
//
// The card step's status poll gets HX-Refresh once the booking waits for
// no card payment any more (paid, or closed): htmx then reloads the page,
// which shows what became of it.
func cardStep(w http.ResponseWriter, r *http.Request, p *payment.PendingView) {
	if htmxPartial(r, cardStatusTarget) && (p == nil || p.ClientSecret == "") {
		w.Header().Set("HX-Refresh", "true")
	}
	if p == nil || p.Card == nil {
		return
	}
	if sources := cardSources(p.Channel, p.Card.Env); sources != nil {
		w.Header().Set("Content-Security-Policy", server.ContentSecurityPolicyWith(sources))
	}
}

// cardSources are the origins a provider's card step needs, by directive.
//
// Stripe (docs.stripe.com/security/guide, "Content Security Policy"):
// Stripe.js from js.stripe.com and *.js.stripe.com, its frames from those
// and hooks.stripe.com (3D Secure), its calls to api.stripe.com.
//
// Airwallex publishes no such list: its components SDK comes from
// static.airwallex.com (Airwallex.js, the CDN install), it fetches the
// payments element from the environment's checkout host
// (checkout[-demo].airwallex.com), which the hosted payment page is also
// on (a navigation, which the policy does not govern), and it talks to
// that host and the environment's API.
func cardSources(provider, env string) map[string][]string {
	switch provider {
	case stripe.Name:
		return map[string][]string{
			"script-src":  {"https://js.stripe.com", "https://*.js.stripe.com"},
			"frame-src":   {"https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"},
			"connect-src": {"https://api.stripe.com"},
		}
	case airwallex.Name:
		checkout, api := "https://checkout.airwallex.com", "https://api.airwallex.com"
		if env == "demo" {
			checkout, api = "https://checkout-demo.airwallex.com", "https://api-demo.airwallex.com"
		}
		return map[string][]string{
			"script-src":  {"https://static.airwallex.com", checkout},
			"frame-src":   {checkout},
			"connect-src": {"https://static.airwallex.com", checkout, api},
		}
	}
	return nil
}
