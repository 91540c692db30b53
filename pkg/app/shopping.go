package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/supplier/duffel"
	"github.com/voyage/voyage/pkg/supplier/sim"
	"github.com/voyage/voyage/pkg/tracing"
)

// buildShopping wires the content sources, the session store and the engine.
func (a *App) buildShopping(ctx context.Context) error {
	sources, err := Sources(a.Cfg.Shopping, sim.NewSQLRecords(a.DB), a.Tracing)
	if err != nil {
		return err
	}
	a.countSuppliers(sources)
	sqlSessions := shopping.NewSQLSessions(a.DB)
	var sessions shopping.SessionStore = sqlSessions
	if url := a.Cfg.Shopping.RedisURL; url != "" {
		rdb, err := shopping.OpenRedis(ctx, url)
		if err != nil {
			return err
		}
		a.redis = rdb
		sessions = shopping.NewRedisSessions(rdb, "")
	} else {
		// The searches in progress share statements for their answers.
		a.stopSessionGroup = sqlSessions.Group(32)
	}
	base, cancel := context.WithCancel(context.Background())
	a.stopSearches = cancel
	// One quote store for the price checks and the bookings: it keeps the
	// quotes it saved, for the booking that follows.
	a.quotes = shopping.NewQuotes(a.DB)
	a.Shopping = shopping.New(sources, shopping.Options{
		Sessions: sessions, Quotes: a.quotes, Agencies: a.Agencies, Looks: a.AgencyAdmin,
		Rates: func(ctx context.Context) (map[string]string, error) {
			info, err := a.Site.Get(ctx)
			if err != nil {
				return nil, err
			}
			return info.RateMap, nil
		},
		Base: base, Logger: slog.Default(), Catalog: a.Catalog, MaxSearches: a.Cfg.Shopping.MaxSearches,
		OnSearch: a.searchCounter(),
	})
	return nil
}

// simRate maps a configured share onto the simulator's convention: negative
// keeps the profile's default (the simulator's zero), zero turns it off.
func simRate(v float64) float64 {
	switch {
	case v < 0:
		return 0
	case v == 0:
		return sim.Off
	default:
		return v
	}
}

// Sources builds the configured suppliers: the simulators (one per profile,
// their bookings kept in records) and Duffel when a token is set, each
// traced (supplier.Traced), Duffel's HTTP calls too.
func Sources(c config.ShoppingConfig, records sim.Records, tr *tracing.Tracing) (map[string]shopping.Source, error) {
	tracer := tr.Provider().Tracer("github.com/voyage/voyage/pkg/supplier")
	out := map[string]shopping.Source{}
	if c.Sim.Enabled {
		for _, p := range c.Sim.Profiles {
			cfg := sim.Config{Profile: p, Seed: c.Sim.Seed, ErrorRate: simRate(c.Sim.ErrorRate),
				TimeoutRate: simRate(c.Sim.TimeoutRate), Volatility: simRate(c.Sim.Volatility), Records: records}
			mean, jitter := sim.Profile(p).DefaultLatency()
			if c.Sim.LatencyScale <= 0 {
				cfg.Latency, cfg.LatencyJitter = sim.Off, sim.Off
			} else {
				cfg.Latency = time.Duration(float64(mean) * c.Sim.LatencyScale)
				cfg.LatencyJitter = time.Duration(float64(jitter) * c.Sim.LatencyScale)
			}
			s, err := sim.New(cfg)
			if err != nil {
				return nil, fmt.Errorf("app: simulated supplier %s: %w", p, err)
			}
			out[p] = shopping.Source{Supplier: supplier.Traced(s, tracer), OneWayOnly: sim.Profile(p) == sim.ProfileLCC}
		}
	}
	if c.Duffel.Token != "" {
		d, err := duffel.New(duffel.Config{Token: c.Duffel.Token, BaseURL: c.Duffel.BaseURL, PendingWait: c.Duffel.PendingWait},
			duffel.WithHTTPClient(tr.Client(nil)))
		if err != nil {
			return nil, fmt.Errorf("app: duffel: %w", err)
		}
		out["duffel"] = shopping.Source{Supplier: supplier.Traced(d, tracer)}
	}
	return out, nil
}

// buildGateways sets up the payment gateways every line takes external
// channels through: with payment.test_gateway on, the built-in test gateway
// takes them all.
func (a *App) buildGateways() {
	a.gateways = map[string]payment.Gateway{}
	if !a.Cfg.Payment.TestGateway {
		return
	}
	slog.Warn("payment: the built-in test gateway takes the external channels' payments; never in production")
	gw := payment.NewTestGateway(a.DB)
	gw.FeePercent = a.Cfg.Payment.TestGatewayFeePercent
	for _, c := range payment.Channels {
		if c != payment.ChannelBalance {
			a.gateways[c] = gw
		}
	}
}

// lineDeps are what every product line is built on: the database, the
// ledger, the agencies and the payment gateways.
func (a *App) lineDeps() booking.Deps {
	return booking.Deps{DB: a.DB, Ledger: a.Ledger, Agencies: a.Agencies, Gateways: a.gateways, Logger: slog.Default(),
		Counter: a.lineCounter()}
}

// buildOrders wires the order service to the suppliers the engine searches
// and the payment gateways.
func (a *App) buildOrders() {
	a.Orders = flight.New(flight.Options{Deps: a.lineDeps(), Quotes: a.quotes, Looks: a.AgencyAdmin, Suppliers: a.Shopping.Supplier,
		Tracer: a.Tracing.Provider().Tracer("github.com/voyage/voyage/pkg/flight")})
}

// buildGroups wires group flight orders to the same suppliers and payment
// gateways as flight orders.
func (a *App) buildGroups() {
	a.Groups = group.New(group.Options{Deps: a.lineDeps(), Suppliers: a.Shopping.Supplier, SupplierNames: a.Shopping.Suppliers,
		MinGroupSize: a.Cfg.Group.MinSize, RemindBefore: a.Cfg.Group.RemindBefore, Catalog: a.Catalog})
	a.Groups.SetNotifier(a.Webhooks)
	a.AgencyAdmin.AddDeleteGuard(a.Groups.DeleteGuard)
}
