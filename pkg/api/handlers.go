package api

import (
	"net"
	"net/http"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/partnership"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/train"
	"github.com/voyage/voyage/pkg/webhook"
)

// Services are what the API handlers call.
type Services struct {
	Site         *siteinfo.Service
	Applications *partnership.Service
	Auth         *auth.Service
	Agencies     *agency.Store
	Profile      *profile.Service
	// AgencyService manages the agency network; Ledger holds the money.
	AgencyService *agency.Service
	Ledger        *ledger.Ledger
	// Catalog renders messages outside a request's language (emails).
	Catalog *i18n.Catalog
	// Shopping is the flight search engine (nil: no flight routes).
	Shopping *shopping.Engine
	// Orders runs flight orders (nil: no order routes).
	Orders *flight.Service
	// Webhooks keeps the agencies' webhook deliveries (nil: no webhook
	// routes).
	Webhooks *webhook.Service
	// Jobs is the job queue, for the provider's stuck-job routes (nil: no
	// job routes).
	Jobs *jobs.Queue
	// WebsitePrefix is the site's public URL prefix, answered with /me.
	WebsitePrefix string
	// Groups runs group flight orders (nil: no group routes).
	Groups *group.Service
	// Trains runs train search and orders (nil: no train routes).
	Trains *train.Service
}

// Register adds every API route to rt.
func Register(rt *Router, s Services) {
	rt.Handle("GET /base/v2/config/getSiteConfig", Operation{
		ID: "getSiteConfig", Tag: "site", Public: true,
		Summary:  "Site info: branding, defaults, currencies and the exchange rates in force",
		Response: siteinfo.Info{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Site.Get(r.Context())
	})

	rt.Handle("POST /base/v2/applications", Operation{
		ID: "createApplication", Tag: "site", Public: true, Status: http.StatusCreated,
		Summary: "Submit the partnership application form",
		Request: partnership.Application{}, Response: partnership.Submitted{},
		Errors: []int{fault.CodeRateLimited},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var a partnership.Application
		if err := Decode(r, &a); err != nil {
			return nil, err
		}
		return s.Applications.Submit(r.Context(), a, partnership.Meta{Lang: i18n.Lang(r.Context()), IP: peerIP(r), UserAgent: r.UserAgent()})
	})

	registerIdentity(rt, s)
	registerProfile(rt, s)
	registerUsers(rt, s)
	registerCompany(rt, s)
	registerAgencies(rt, s)
	registerManaged(rt, s)
	registerStatements(rt, s)
	registerAirports(rt, s)
	registerShopping(rt, s)
	registerOrders(rt, s)
	registerGroups(rt, s)
	registerWebhooks(rt, s)
	registerTrains(rt, s)
	registerJobs(rt, s)
}

// peerIP is the connection's address; X-Forwarded-For is not trusted, so a
// client cannot choose the address its rate limits count against.
func peerIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
