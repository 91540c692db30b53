package api

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/store"
)

// demoNetwork seeds the demo network into db and answers the services the
// agency routes stand on (site, identity, agencies, ledger) and a router
// on a fresh mux for a test to add its routes to.
func demoNetwork(t *testing.T, db *store.DB) (Services, *Router, *http.ServeMux) {
	t.Helper()
	cfg, _ := config.Load("", nil)
	site := siteinfo.New(cfg.Site, db)
	if err := demo.Seed(context.Background(), db, site); err != nil {
		t.Fatal(err)
	}
	st := agency.NewStore(db)
	authSvc := auth.NewService(db, st, time.Hour, time.Hour)
	led := ledger.New(db)
	mux := http.NewServeMux()
	s := Services{Site: site, Auth: authSvc, Agencies: st, AgencyService: agency.NewService(db, st, led), Ledger: led}
	return s, NewRouter(mux, authSvc, nil), mux
}
