package shopping_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
)

// TestQuotesKept: the instance that saved a quote answers it as another
// instance reads it from the store, and a quote it kept past its expiry
// answers as the store does once the clean-up let it go: no such quote.
func TestQuotesKept(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var a agency.Agency
		if err := db.InTx(ctx, func(tx *sqlx.Tx) (err error) {
			a, err = agency.NewStore(db).Create(ctx, tx, agency.New{Name: "Agency", EnableFlightService: true})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		saver, reader := shopping.NewQuotes(db), shopping.NewQuotes(db)
		now := time.Now().UTC().Truncate(time.Second)
		quote := func(id string, expires time.Time) shopping.Quote {
			return shopping.Quote{ID: id, AgencyID: a.ID, SearchID: "s1", SolutionID: "s1_" + id, Status: supplier.PriceOK, Currency: "CNY",
				Offers: []supplier.Offer{{Ref: "off-" + id, Currency: "CNY"}}, Passengers: supplier.Passengers{Adult: 1},
				CreatedAt: now, ExpiresAt: expires}
		}
		live := quote("q-live", now.Add(15*time.Minute))
		if err := saver.Save(ctx, live); err != nil {
			t.Fatal(err)
		}
		kept, err := saver.Get(ctx, live.ID)
		if err != nil {
			t.Fatal(err)
		}
		read, err := reader.Get(ctx, live.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(kept, read) || kept.Offers[0].Ref != "off-q-live" {
			t.Errorf("the saving instance answers %+v, another %+v", kept, read)
		}

		lapsed := quote("q-lapsed", now.Add(-time.Second))
		if err := saver.Save(ctx, lapsed); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM flight_quotes WHERE expires_at < ?`), now); err != nil {
			t.Fatal(err)
		}
		for name, q := range map[string]*shopping.Quotes{"saving": saver, "other": reader} {
			if got, err := q.Get(ctx, lapsed.ID); !errors.Is(err, shopping.ErrNoQuote) {
				t.Errorf("the %s instance answers a quote the clean-up let go: %+v, %v", name, got, err)
			}
		}
	})
}
