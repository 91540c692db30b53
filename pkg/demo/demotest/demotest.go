// Package demotest gives tests a database that holds the demo data.
package demotest

import (
	"context"
	"testing"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// DSN is a database for this test with the demo data of `voyage demo seed`
// (agencies, users, rates), copied from a template seeded once per test
// binary: the six users' password hashes cost seconds under -race.
func DSN(t testing.TB, d store.Dialect) string {
	t.Helper()
	return storetest.Template(t, d, "demo", Seed)
}

// Seed seeds the database at dsn with the demo data as a server on the
// default settings would.
func Seed(ctx context.Context, dsn string) error {
	cfg, err := config.Load("", nil)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	return demo.Seed(ctx, db, siteinfo.New(cfg.Site, db))
}
